#ifndef TELLER_CNETLINK_SHIM_H
#define TELLER_CNETLINK_SHIM_H

// The kernel's rtnetlink headers, which Swift's Glibc module does not
// include: sockaddr_nl, nlmsghdr, ifinfomsg and the RTMGRP_/RTM_ constants.
#include <sys/socket.h>
#include <linux/netlink.h>
#include <linux/rtnetlink.h>
#include <linux/if.h>

#endif
