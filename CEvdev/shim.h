#ifndef TELLER_CEVDEV_SHIM_H
#define TELLER_CEVDEV_SHIM_H

#include <stdint.h>
#include <sys/ioctl.h>
#include <linux/input.h>
#include <libevdev/libevdev.h>
#include <libevdev/libevdev-uinput.h>

/// EVIOCGRAB is a function-like ioctl macro that Swift cannot import.
static inline unsigned long cevdev_ioctl_grab(void) { return EVIOCGRAB; }

#endif
