#!/bin/sh
# Runs inside the virtual device for one boot of the power-cut test
# (deploy/vm/power_cut.py): signs in, shows the queue and holds it while the
# host reads its accessibility tree over the control channel (`teller ctl ui`
# on the host; QUEUE and the host's OK on ttyS1 say when), then enters offline deposits through
# uinput until the host pulls the plug. Each deposit's amount names the
# boot and its place in it (boot 3, deposit 7: 3.07 EUR), so the host can
# find every acknowledged transaction on the queue screen.
# Usage: power-cut.sh BOOT|final
boot=$1
socket=/run/teller/control.sock
drive="--drive uinput --socket $socket --host-channel /dev/ttyS1"

teller scenario /qa/power-cut/sign-in-queue.scenario $drive || { echo "DONE 1" >/dev/ttyS1; exit 1; }
echo QUEUE >/dev/ttyS1
read -r answer </dev/ttyS1
teller scenario /qa/power-cut/leave-queue.scenario $drive || { echo "DONE 1" >/dev/ttyS1; exit 1; }
if [ "$boot" = final ]; then
    echo "DONE 0" >/dev/ttyS1
    exit 0
fi

files=""
i=1
while [ $i -le 40 ]; do
    n=$(printf %02d $i)
    f=/tmp/deposit-$n.scenario
    /bin/deposit-scenario.sh "$boot$n" done >"$f"
    files="$files $f"
    i=$((i + 1))
done
echo "ENTERING" >/dev/ttyS1
teller scenario $files $drive
echo "DONE $?" >/dev/ttyS1
