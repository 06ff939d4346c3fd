#!/bin/sh
# Runs inside the virtual device at boot when it has a network: brings up
# the virtio NIC with qemu user networking's static addresses. The only
# thing the guest can reach is the reference host, forwarded at
# 10.0.2.100:80 (restrict=on drops everything else; docs/qa.md).
for i in $(seq 1 100); do [ -e /sys/class/net/eth0 ] && break; sleep 0.1; done
[ -e /sys/class/net/eth0 ] || { echo "teller-vm guest: FAIL no eth0"; exit 1; }
ip link set eth0 up
ip addr add 10.0.2.15/24 dev eth0
ip route add default via 10.0.2.2
echo "teller-vm guest: network eth0 10.0.2.15/24, the bank host at http://10.0.2.100"
