#!/bin/sh
# Runs inside the virtual device, in the background from /init: serves
# `teller ctl` from the host on the virtio-serial port named
# org.teller.control (deploy/vm/teller_vm.py, control_channel()). The guest
# has no udev, so the port's /dev node is found by its name in sysfs.
port=""
for _ in $(seq 1 100); do
    for dir in /sys/class/virtio-ports/*; do
        [ "$(cat "$dir/name" 2>/dev/null)" = org.teller.control ] && port=/dev/${dir##*/}
    done
    [ -n "$port" ] && [ -e "$port" ] && break
    sleep 0.1
done
if [ -z "$port" ] || [ ! -e "$port" ]; then
    echo "teller-vm guest: FAIL no virtio-serial port named org.teller.control (is virtio_console loaded?)"
    exit 1
fi
echo "teller-vm guest: control channel on $port"
exec teller ctl-bridge --port "$port" --socket /run/teller/control.sock
