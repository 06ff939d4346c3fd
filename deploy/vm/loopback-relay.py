#!/usr/bin/env python3
"""The virtual device's one way out: qemu's user network runs this for each
connection the guest opens to its guestfwd address (-netdev user,
restrict=on,guestfwd=...-cmd:...), with that connection on stdin and
stdout, and it relays the bytes to the reference host on 127.0.0.1:PORT
and nowhere else. Standard library only; started by teller_vm.py's
network_arguments().

Usage: loopback-relay.py PORT
"""
import os
import select
import socket
import sys


def main():
    # stderr is the guest's connection too: nothing may be written to it.
    sys.stderr = open(os.devnull, "w")
    port = int(sys.argv[1])
    host = socket.create_connection(("127.0.0.1", port))
    guest_in, guest_out = 0, 1
    open_ends = {guest_in, host.fileno()}
    while open_ends:
        ready, _, _ = select.select(list(open_ends), [], [])
        for fd in ready:
            data = os.read(fd, 65536)
            if fd == guest_in:
                if data:
                    host.sendall(data)
                else:
                    open_ends.discard(fd)
                    host.shutdown(socket.SHUT_WR)
            else:
                if data:
                    os.write(guest_out, data)
                else:
                    return 0
    return 0


if __name__ == "__main__":
    try:
        sys.exit(main())
    except OSError:
        sys.exit(1)
