#!/bin/sh
# The crash-states recording inside the virtual device (deploy/vm/crash-states,
# docs/qa.md "Power loss below the filesystem").
#   crash-states.sh setup   (from init, before the data disk is mounted) puts
#                           /dev/vda behind a dm-log-writes target that logs
#                           every write, flush and FUA to /dev/vdb; prints the
#                           device to mount.
#   crash-states.sh run     drives the real terminal through uinput: signs in
#                           online, has the host cut the link, then deposits
#                           (teller.deposits=N, deposit-scenario.sh), a
#                           withdrawal, a transfer, a lock and unlock. Each
#                           time a receipt says Queued, it puts a mark
#                           ack-<receipt number> in the log for every commit the
#                           terminal has logged (log_commits) and not yet marked.
#                           After every tenth deposit and after the last, the
#                           host restores the link and the terminal drains its
#                           queue (rows sending, then confirmed; the refresh
#                           token rotated, the access token having run out);
#                           once `teller ctl status` says none is queued, the
#                           mark drained-<deposits so far>; then the link is
#                           cut again for the next ten.
#                           Then retention: the link cut again, the terminal
#                           stopped, the clock a day on, the terminal started
#                           again, a sign-in (offline) and one more deposit,
#                           Queued (a payment the bank never saw); then the
#                           clock retention_days + 1 days further, the mark
#                           retention-<that clock, epoch s>-<retention_days>,
#                           and `teller ctl prune`: the pruner's pass removes the
#                           confirmed payments and the journal's first day
#                           (behind a checkpoint), with its incremental vacuum
#                           after each batch, and keeps the queued one and its
#                           day; the mark pruned once it answered.
#                           Then five provisioning config writes (`teller config
#                           set` on /data/provision/teller.conf), each marked cfg-N.
#                           Then unmounts and removes the target so the log is
#                           complete, and says DONE on ttyS1.
dev=crashlog
socket=/run/teller/control.sock
drive="--drive uinput --socket $socket --host-channel /dev/ttyS1"
export DM_DISABLE_UDEV=1

case "$1" in
setup)
    size=$(cat /sys/block/vda/size)
    dmsetup create $dev --noudevsync --table "0 $size log-writes /dev/vda /dev/vdb" >&2 ||
        echo "crash-states guest: FAIL dmsetup create" >&2
    dmsetup mknodes >&2
    echo /dev/mapper/$dev
    exit 0 ;;
run) ;;
*) echo "usage: crash-states.sh setup|run" >&2; exit 2 ;;
esac

marked=0
# Marks every commit logged since the last mark: the receipt is on screen, Queued.
mark_new() {
    total=$(grep -c 'outbox: committed' /tmp/teller.log)
    if [ "$total" -le "$marked" ]; then
        echo "crash-states guest: FAIL no new commit logged for the receipt on screen" >/dev/ttyS1
        return 1
    fi
    grep 'outbox: committed' /tmp/teller.log | sed -n "$((marked + 1)),${total}p" |
        sed 's/.*outbox: committed \([0-9a-f]\{8\}\).*/\1/' | tr a-f A-F |
        while read -r receipt; do
            dmsetup message $dev 0 mark "ack-$receipt" || echo "crash-states guest: FAIL mark ack-$receipt" >/dev/ttyS1
            echo "MARKED ack-$receipt" >/dev/ttyS1
        done
    marked=$total
}

fail() { echo "DONE 1" >/dev/ttyS1; exit 1; }
conf=/etc/teller/teller.conf
# The link back, the queue empty on screen and in the store's own count, the mark drained-$1.
# `teller status --drained` answers the question itself (nothing queued or
# sending: exit 0; still queued: 10; anything else, such as a database it
# refuses, another code), so no field is read out of JSON here and every
# answer but 0 fails.
drain() {
    teller scenario /qa/crash-states/drain.scenario $drive || fail
    answer=$(teller status --config $conf --drained 2>&1) && code=0 || code=$?
    if [ "$code" = 0 ]; then
        dmsetup message $dev 0 mark "drained-$1" || echo "crash-states guest: FAIL mark drained-$1" >/dev/ttyS1
        echo "MARKED drained-$1" >/dev/ttyS1
    else
        echo "crash-states guest: FAIL the screen says Queue empty, teller status --drained exits $code: $answer" >/dev/ttyS1
    fi
}
# The terminal stopped (SIGTERM, as systemd stops it) and started again, its
# log appended to the one mark_new reads.
stop_teller() {
    for pid in $(pidof teller); do kill "$pid" 2>/dev/null; done
    for i in $(seq 1 100); do pidof teller >/dev/null || return 0; sleep 0.2; done
    echo "crash-states guest: FAIL the terminal did not stop" >/dev/ttyS1
    return 1
}
start_teller() {
    /bin/teller run --config $conf 2>&1 | tee -a /tmp/teller.log &
    for i in $(seq 1 600); do teller ctl --socket $socket status >/dev/null 2>&1 && return 0; sleep 0.2; done
    echo "crash-states guest: FAIL the terminal did not start again" >/dev/ttyS1
    return 1
}
# One transaction up to its receipt, its mark, then back home.
transaction() {
    teller scenario "$1" $drive || fail
    mark_new || fail
    teller scenario /qa/crash-states/done.scenario $drive || fail
}

teller scenario /qa/crash-states/sign-in.scenario /qa/crash-states/link-down.scenario $drive || fail
deposits=$(sed -n 's/.*teller\.deposits=\([0-9]*\).*/\1/p' /proc/cmdline)
i=1
while [ $i -le "${deposits:-6}" ]; do
    f=/tmp/deposit-$i.scenario
    # deposit i: i.ii EUR (1 -> 1.01, 64 -> 64.64), each amount its own, the sum within the offline limits.
    /bin/deposit-scenario.sh "$i$(printf %02d $i)" queued >"$f"
    transaction "$f"
    if [ $i = 2 ]; then transaction /qa/crash-states/withdrawal.scenario; fi
    if [ $i = 3 ]; then transaction /qa/crash-states/transfer.scenario; fi
    if [ $i = 4 ]; then teller scenario /qa/crash-states/lock-unlock.scenario $drive || fail; fi
    if [ $((i % 10)) = 0 ] && [ $i -lt "${deposits:-6}" ]; then
        drain $i
        teller scenario /qa/crash-states/link-down.scenario $drive || fail
    fi
    i=$((i + 1))
done
drain $((i - 1))
# Retention (docs/qa.md, "Power loss below the filesystem"). The bank's time,
# once heard in a run, is the terminal's reference (TrustedClock), so the
# clock moves with the link cut and the terminal started again: the wall
# clock is then trusted as long as it is not behind the last row.
teller scenario /qa/crash-states/link-down.scenario $drive || fail
days=$(teller config --config $conf get retention_days) || fail
case "$days" in [0-9]*) ;; *) echo "crash-states guest: FAIL retention_days is '$days'" >/dev/ttyS1; fail ;; esac
now=$(date +%s)
stop_teller || fail
date -s "@$((now + 86400))" >/dev/null || { echo "crash-states guest: FAIL date -s" >/dev/ttyS1; fail; }
start_teller || fail
# The next day, one deposit with the link cut: Queued, and past retention
# once the clock moves on, but the bank never saw it, so it stays (and with
# it its journal day).
teller scenario /qa/crash-states/sign-in.scenario $drive || fail
f=/tmp/deposit-$i.scenario
/bin/deposit-scenario.sh "$i$(printf %02d $i)" queued >"$f"
teller scenario "$f" $drive || fail
mark_new || fail
# Both days past retention. The mark comes first: no prune can come before it.
later=$((now + (days + 2) * 86400))
dmsetup message $dev 0 mark "retention-$later-$days" || echo "crash-states guest: FAIL mark retention" >/dev/ttyS1
echo "MARKED retention-$later-$days" >/dev/ttyS1
date -s "@$later" >/dev/null || { echo "crash-states guest: FAIL date -s" >/dev/ttyS1; fail; }
pruned=$(teller ctl --socket $socket prune) || { echo "crash-states guest: FAIL teller ctl prune: $pruned" >/dev/ttyS1; fail; }
# One line on the channel (ctl prints the answer pretty): the host reads what it removed.
echo "PRUNED $(echo "$pruned" | tr -d '\n')" >/dev/ttyS1
dmsetup message $dev 0 mark pruned || echo "crash-states guest: FAIL mark pruned" >/dev/ttyS1
echo "MARKED pruned" >/dev/ttyS1
# What the terminal's own verifier says of the chain it left (the checker walks it in every state).
echo "JOURNAL $(teller journal verify --config $conf 2>&1 | tr '\n' ' ')" >/dev/ttyS1
echo "SESSION done" >/dev/ttyS1
# Provisioning's config writes: a copy of teller.conf on the data disk, made
# durable, then `teller config set` five times, each marked cfg-N once it returned.
mkdir -p /data/provision
cp /etc/teller/teller.conf /data/provision/teller.conf
sync
n=1
while [ $n -le 5 ]; do
    if teller config --config /data/provision/teller.conf set branch "Crash branch $n" >/dev/null 2>&1; then
        dmsetup message $dev 0 mark "cfg-$n" || echo "crash-states guest: FAIL mark cfg-$n" >/dev/ttyS1
        echo "MARKED cfg-$n" >/dev/ttyS1
    else
        echo "crash-states guest: FAIL teller config set branch (write $n)" >/dev/ttyS1
    fi
    n=$((n + 1))
done
# Stop the terminal cleanly, then close the log: unmount flushes, remove writes its super block.
for pid in $(pidof teller); do kill "$pid" 2>/dev/null; done
for i in $(seq 1 50); do pidof teller >/dev/null || break; sleep 0.2; done
umount /data || echo "crash-states guest: FAIL umount /data" >/dev/ttyS1
dmsetup remove --noudevsync $dev || echo "crash-states guest: FAIL dmsetup remove" >/dev/ttyS1
sync
echo "DONE 0" >/dev/ttyS1
