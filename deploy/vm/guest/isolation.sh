#!/bin/sh
# Runs inside the virtual device when teller.probe=DECOY,HOSTPORT is on the
# kernel command line: tries to open TCP connections the guest must not be
# able to open, and one it must, and tells the host each outcome on
# /dev/ttyS1 as "PROBE ADDRESS:PORT open|closed WANTED".
# The host's loopback (10.0.2.2, qemu's alias for it) is tried first and
# the run stops at the first forbidden connection that opens: a guest
# without restrict=on stops there, before any address outside this machine.
probe=$(sed -n 's/.*teller\.probe=\([0-9,]*\).*/\1/p' /proc/cmdline)
decoy=${probe%,*}
hostport=${probe#*,}
try() { # ADDRESS PORT WANTED: the connection is wanted open or closed
    if nc -w 5 "$1" "$2" -e true </dev/null 2>/dev/null; then got=open; else got=closed; fi
    echo "PROBE $1:$2 $got $3" >/dev/ttyS1
    [ "$got" = "$3" ]
}
try 10.0.2.100 80 open
try 10.0.2.2 "$decoy" closed &&
    try 10.0.2.2 "$hostport" closed &&
    try 10.0.2.100 "$decoy" closed &&
    try 192.0.2.1 80 closed
