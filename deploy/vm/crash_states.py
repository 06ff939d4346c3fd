#!/usr/bin/env python3
"""Power loss below the filesystem (deploy/vm/crash-states, docs/qa.md).

record  boots the virtual device (teller_vm.Guest) with its data disk behind
        a dm-log-writes target and a second disk for the log; the guest
        (guest/crash-states.sh) drives the real terminal through uinput and
        marks the log `ack-<receipt>` whenever a receipt says Queued. The
        console's `outbox: committed` lines (log_commits) are what the
        terminal acknowledged, with their exact payloads.
check   our own reader of the log format (the kernel's
        Documentation/admin-guide/device-mapper/log-writes.rst): the disk as
        provisioned, then every logged write applied in log order; the disk
        is rebuilt after every flush, every FUA write and every mark, which is
        what an SD card that honours flushes may hold after a power cut there,
        and (unless --durable-points-only) after every other logged write too:
        the device wrote in log order and lost power between two flushes.
        Each state: the ext4 journal replayed as the next mount would
        (e2fsck -E journal_only), e2fsck -fn clean, the data directory read
        out with debugfs rdump (no mount), PRAGMA integrity_check with the
        sqlite3 CLI, the real `teller status --data-dir` (read-only JSON), and
        the outbox: every receipt marked before that point present with the
        payload the terminal acknowledged, and no row that was never committed.
selftest  writes a copy of the log with everything the device was asked to
        write between one acknowledgement's mark and the one before it
        dropped (the mark kept), as a card that acknowledges flushes it never
        did would; the same check must report the receipt lost.
Standard library only.
"""
import argparse
import json
import re
import os
import shutil
import sqlite3
import struct
import subprocess
import sys
import tempfile
import time
from concurrent.futures import ProcessPoolExecutor

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))

# The log format (log-writes.rst): a super block in the log device's first
# sector, then one entry per sector-sized block, each write's data in the
# sectors right after its entry.
MAGIC = 0x6A736677736872
SUPER = struct.Struct("<QQQI")   # magic, version, nr_entries, sectorsize
ENTRY = struct.Struct("<QQQQ")   # sector, nr_sectors, flags, data_len
FLUSH, FUA, DISCARD, MARK, METADATA = 1, 2, 4, 8, 16


def log(text):
    print(f"crash-states: {text}", file=sys.stderr, flush=True)


class LogError(Exception):
    pass


def read_log(path):
    """[(sector, nr_sectors, flags, mark or None, data offset in the log)], sectorsize."""
    with open(path, "rb") as f:
        head = f.read(SUPER.size)
        if len(head) < SUPER.size:
            raise LogError(f"{path}: shorter than a super block")
        magic, version, nr_entries, sectorsize = SUPER.unpack(head)
        if magic != MAGIC:
            raise LogError(f"{path}: magic {magic:#x} is not dm-log-writes' {MAGIC:#x}")
        if version != 1:
            raise LogError(f"{path}: log version {version}, this reader knows 1")
        if sectorsize not in (512, 1024, 2048, 4096):
            raise LogError(f"{path}: sector size {sectorsize}")
        size = os.fstat(f.fileno()).st_size
        entries = []
        position = 1  # in log sectors: the super block is sector 0
        for index in range(nr_entries):
            f.seek(position * sectorsize)
            block = f.read(sectorsize)
            if len(block) < ENTRY.size:
                raise LogError(f"{path}: entry {index} at log sector {position} is past the end")
            sector, nr_sectors, flags, data_len = ENTRY.unpack_from(block)
            mark = None
            if flags & MARK:
                mark = block[ENTRY.size:ENTRY.size + data_len].decode("utf-8", "replace")
                entries.append((sector, 0, flags, mark, 0))
                position += 1
                continue
            data_bytes = 0 if flags & DISCARD else nr_sectors * 512
            data_sectors = (data_bytes + sectorsize - 1) // sectorsize
            if (position + 1 + data_sectors) * sectorsize > size:
                raise LogError(f"{path}: entry {index}'s data runs past the end of the log")
            entries.append((sector, nr_sectors, flags, None, (position + 1) * sectorsize))
            position += 1 + data_sectors
    return entries, sectorsize


def write_log(path, entries, source, sectorsize):
    """Writes ENTRIES (as read_log gives them, data read from SOURCE) as a log of its own."""
    with open(source, "rb") as src, open(path, "wb") as out:
        out.write(SUPER.pack(MAGIC, 1, len(entries), sectorsize).ljust(sectorsize, b"\0"))
        for sector, nr_sectors, flags, mark, offset in entries:
            if mark is not None:
                raw = mark.encode()
                out.write((ENTRY.pack(sector, 0, flags, len(raw)) + raw).ljust(sectorsize, b"\0"))
                continue
            out.write(ENTRY.pack(sector, nr_sectors, flags, 0).ljust(sectorsize, b"\0"))
            if not flags & DISCARD and nr_sectors:
                src.seek(offset)
                data = src.read(nr_sectors * 512)
                pad = (-len(data)) % sectorsize
                out.write(data + b"\0" * pad)


def apply(image, entry, logfile):
    sector, nr_sectors, flags, mark, offset = entry
    if mark is not None or nr_sectors == 0:
        return
    image.seek(sector * 512)
    if flags & DISCARD:
        image.write(b"\0" * (nr_sectors * 512))  # a discarded range reads back as anything; zeros are the worst case here
    else:
        logfile.seek(offset)
        image.write(logfile.read(nr_sectors * 512))


def state_points(entries, every_write=True):
    """Indices after which the disk is rebuilt: every flush, FUA and mark,
    and with EVERY_WRITE after every logged write too (the device wrote in
    log order and lost power between two flushes: a subset of the unflushed
    writes landed, which a card that honours flushes is free to do)."""
    if every_write:
        return list(range(len(entries)))
    return [i for i, e in enumerate(entries) if e[2] & (FLUSH | FUA | MARK)]


def run(command, **kw):
    return subprocess.run(command, capture_output=True, text=True, **kw)


# The data directory's files besides the database that are JSON documents
# (the refresh token, TokenVault), or any *.json.
JSON_FILES = {"refresh-token"}


def torn_files(directory):
    """Every file beside the database that is torn: empty, or for a JSON one, not a JSON object."""
    torn = []
    for name in sorted(os.listdir(directory)):
        path = os.path.join(directory, name)
        if name.startswith("teller.db") or not os.path.isfile(path):
            continue
        with open(path, "rb") as f:
            content = f.read()
        if not content:
            torn.append(name)
        elif name in JSON_FILES or name.endswith(".json"):
            try:
                if not isinstance(json.loads(content), dict):
                    torn.append(name)
            except ValueError:
                torn.append(name)
    return torn


CONFIG = "/provision/teller.conf"
BRANCH = re.compile(r"^branch = (Virtual device|Crash branch ([0-9]+))$")


def config_check(image, cfg_marked, reference, found):
    """Provisioning's config file: whole (the final file but for its branch
    line, which is the original or some `Crash branch N`), and at least the
    last write marked cfg-N before this point."""
    stat = run(["debugfs", "-R", f"stat {CONFIG}", image])
    if "Inode:" not in stat.stdout:
        if cfg_marked:
            found["problems"].append(f"{CONFIG} is gone after config write {cfg_marked} was acknowledged")
        return
    text = run(["debugfs", "-R", f"cat {CONFIG}", image]).stdout
    lines = text.splitlines()
    version = None
    if len(lines) == len(reference):
        for got, want in zip(lines, reference):
            m = BRANCH.match(got)
            if m and BRANCH.match(want):
                version = int(m.group(2) or 0)
            elif got != want:
                version = None
                break
    if version is None:
        found["torn"].append(CONFIG)
    elif version < cfg_marked:
        found["problems"].append(f"{CONFIG} says write {version}, write {cfg_marked} was acknowledged")


def check_state(job):
    """One crash state: returns a dict of what was found. Runs in a worker."""
    image, number, marked, committed, teller, keep = job[:6]
    cfg_marked, cfg_reference = job[6:] if len(job) > 6 else (0, None)
    work = tempfile.mkdtemp(prefix=f"state-{number}-", dir=os.path.dirname(image))
    found = {"state": number, "problems": [], "acked_checked": 0, "lost": [], "torn": []}
    problems = found["problems"]
    try:
        # The next mount replays the ext4 journal; then the filesystem must be clean.
        replay = run(["e2fsck", "-E", "journal_only", "-y", image])
        if replay.returncode >= 4:
            problems.append(f"journal replay failed ({replay.returncode}): {replay.stdout[-300:]}")
        fsck = run(["e2fsck", "-fn", image])
        if fsck.returncode != 0:
            problems.append(f"e2fsck -fn found problems ({fsck.returncode}): {fsck.stdout[-400:]}")
        data = os.path.join(work, "data")
        os.makedirs(data)
        dump = run(["debugfs", "-R", "rdump /teller " + data, image])
        if cfg_reference is not None:
            config_check(image, cfg_marked, cfg_reference, found)
        directory = os.path.join(data, "teller")
        if not os.path.isdir(directory):
            # Before provisioning's directory reached the disk there is nothing to lose.
            if marked:
                found["lost"] = sorted(marked)
                problems.append(f"no data directory (debugfs: {dump.stderr.strip()[-200:]}) with {len(marked)} receipts acknowledged")
            return found
        db_path = os.path.join(directory, "teller.db")
        # The real terminal reads it first, on its own copy (read-only, JSON).
        status_dir = os.path.join(work, "status")
        shutil.copytree(directory, status_dir)
        status = run([teller, "status", "--data-dir", status_dir], timeout=60)
        status_json = None
        if status.returncode != 0:
            problems.append(f"teller status exit {status.returncode}: {status.stderr.strip()[-300:]}")
        else:
            try:
                status_json = json.loads(status.stdout)
            except ValueError as e:
                problems.append(f"teller status printed no JSON: {e}")
        integrity = run(["sqlite3", db_path, "PRAGMA integrity_check;"])
        if integrity.returncode != 0 or integrity.stdout.strip() != "ok":
            problems.append(f"PRAGMA integrity_check: {(integrity.stdout + integrity.stderr).strip()[-300:]}")
        rows = {}
        try:
            db = sqlite3.connect(f"file:{db_path}?mode=ro", uri=True)
            db.row_factory = sqlite3.Row
            try:
                for row in db.execute("SELECT idempotency_key, kind, amount_minor, currency, account_iban, counterparty_iban, payload FROM outbox"):
                    rows[row["idempotency_key"]] = dict(row)
            finally:
                db.close()
        except sqlite3.Error as e:
            if marked:
                problems.append(f"cannot read the outbox: {e}")
        from power_cut import mismatches
        by_receipt = {key[:8].upper(): key for key in committed}
        for receipt in sorted(marked):
            key = by_receipt.get(receipt)
            found["acked_checked"] += 1
            if key is None:
                problems.append(f"mark ack-{receipt} names no commit the terminal logged")
            elif key not in rows:
                found["lost"].append(receipt)
        for key, row in rows.items():
            if key not in committed:
                problems.append(f"row {key} was never committed (no log_commits line)")
            else:
                problems += mismatches(key, committed[key], row)
        if status_json is not None and status_json.get("pending_count") != len(rows):
            problems.append(f"teller status says {status_json.get('pending_count')} pending, the outbox has {len(rows)} rows")
        found["torn"] += torn_files(directory)
        if found["lost"]:
            problems.append(f"acknowledged receipts lost: {', '.join(found['lost'])}")
        return found
    finally:
        if not keep or not found["problems"]:
            shutil.rmtree(work, ignore_errors=True)
            os.unlink(image)


def check(base, logpath, console, teller, max_states, work, keep=False, every_write=True):
    """Replays LOGPATH over BASE; returns (states checked, acked rows checked, lost, torn, problems, sampled note)."""
    from power_cut import acknowledged
    entries, sectorsize = read_log(logpath)
    committed = acknowledged(open(console, errors="replace").read())
    points = state_points(entries, every_write)
    total = len(points)
    log(f"{len(entries)} log entries: {len(state_points(entries, False))} flush, FUA and mark points; "
        f"{'a state after every entry' if every_write else 'a state at each of those'}")
    sampled = None
    if max_states and total > max_states:
        step = total / max_states
        keep_points = sorted({points[int(i * step)] for i in range(max_states)} | {i for i in points if entries[i][3]})
        sampled = f"sampled {len(keep_points)} of {total} crash states evenly (every mark kept); --max-states 0 checks all"
        points = keep_points
    wanted = set(points)
    os.makedirs(work, exist_ok=True)
    current = os.path.join(work, "current.img")
    shutil.copyfile(base, current)
    marked = set()
    results = []
    cfg_marked = 0
    final = os.path.join(os.path.dirname(os.path.abspath(logpath)), "final.img")
    cfg_reference = None
    if os.path.exists(final):
        text = run(["debugfs", "-R", f"cat {CONFIG}", final]).stdout
        cfg_reference = text.splitlines() if text else None
    with open(current, "r+b") as image, open(logpath, "rb") as logfile, ProcessPoolExecutor(max_workers=os.cpu_count() or 2) as pool:
        pending = []
        for i, entry in enumerate(entries):
            apply(image, entry, logfile)
            if entry[3] is not None and entry[3].startswith("ack-"):
                marked.add(entry[3][4:])
            if entry[3] is not None and entry[3].startswith("cfg-"):
                cfg_marked = max(cfg_marked, int(entry[3][4:]))
            if i in wanted:
                image.flush()
                snapshot = os.path.join(work, f"state-{i:06d}.img")
                shutil.copyfile(current, snapshot)
                pending.append(pool.submit(check_state, (snapshot, i, frozenset(marked), committed, teller, keep, cfg_marked, cfg_reference)))
                # Keep the disk use bounded: a few states in flight.
                while len([p for p in pending if not p.done()]) > 6:
                    time.sleep(0.02)
        for p in pending:
            results.append(p.result())
    whole = None
    if os.path.exists(final) and os.path.basename(logpath) == "log.img":
        whole = run(["cmp", "-s", current, final]).returncode == 0
    os.unlink(current)
    if whole is False:
        results.append({"state": len(entries), "problems": ["the whole log replayed is not the disk the guest left: the log reader is wrong"],
                        "acked_checked": 0, "lost": [], "torn": []})
    problems = [f"state after log entry {r['state']}: {p}" for r in results for p in r["problems"]]
    lost = sum(len(r["lost"]) for r in results)
    torn = sum(len(r["torn"]) for r in results)
    acked = sum(r["acked_checked"] for r in results)
    return len(results), acked, lost, torn, problems, sampled, entries, marked


def cut_log(logpath, out):
    """The self-test's log: every write and flush between the last two
    acknowledgement marks dropped, the later mark kept. Returns its receipt."""
    entries, sectorsize = read_log(logpath)
    marks = [i for i, e in enumerate(entries) if e[3] and e[3].startswith("ack-")]
    if len(marks) < 2:
        raise LogError("the self-test needs two acknowledgement marks in the log")
    # The middle acknowledgement, so states before and after it are checked too.
    target = marks[len(marks) // 2]
    previous = max(m for m in marks if m < target)
    kept = [e for i, e in enumerate(entries) if not (previous < i < target and e[3] is None)]
    write_log(out, kept, logpath, sectorsize)
    return entries[target][3][4:], target - previous - 1


def torn_selftest(out, console, teller, work):
    from power_cut import acknowledged
    os.makedirs(work, exist_ok=True)
    image = os.path.join(work, "torn.img")
    shutil.copyfile(os.path.join(out, "final.img"), image)
    whole = run(["debugfs", "-R", "cat /teller/refresh-token", image]).stdout
    half = os.path.join(work, "half-token")
    with open(half, "w") as f:
        f.write(whole[:len(whole) // 2])
    edit = run(["debugfs", "-w", "-R", "rm /teller/refresh-token", image])
    edit = run(["debugfs", "-w", "-R", f"write {half} /teller/refresh-token", image])
    if edit.returncode != 0 or not whole:
        print(f"self-test: cannot tear the refresh token ({edit.stderr.strip()[-200:]})")
        return False
    committed = acknowledged(open(console, errors="replace").read())
    found = check_state((image, "torn", frozenset(), committed, teller, False))
    caught = "refresh-token" in found["torn"]
    print(f"self-test torn_files: {len(found['torn'])} ({', '.join(found['torn']) or 'none'})")
    print(f"self-test: {'the checker reported' if caught else 'the checker did NOT report'} the refresh token torn in half")
    return caught


def record(args):
    from teller_vm import Guest
    from power_cut import acknowledged
    logdisk = os.path.join(args.out, "log.img")
    with open(logdisk, "wb") as f:
        f.truncate(args.log_mib * 1024 * 1024)
    guest = Guest(args.kernel, args.initrd, args.disk, args.out, "none", "crash-states", f"teller.deposits={args.deposits}",
                  control_socket=args.control_socket, extra_disks=[logdisk])
    failures, done = [], False
    marks = []
    try:
        for line in guest.lines(time.time() + args.timeout):
            if line.startswith("MARKED "):
                marks.append(line.split()[1])
            elif "FAIL" in line:
                failures.append(line)
            elif line.startswith("SCREENDUMP "):
                guest.reply("OK")
            elif line.startswith("DONE"):
                done = line == "DONE 0"
                break
        guest.close(timeout=60)
    finally:
        if guest.proc.poll() is None:
            guest.kill()
        guest.close(timeout=5)
    console = guest.console_text()
    # The data disk as the guest left it: replaying the whole log must give exactly this.
    shutil.copyfile(args.disk, os.path.join(args.out, "final.img"))
    if os.path.abspath(guest.console) != os.path.abspath(os.path.join(args.out, "console.log")):
        shutil.copyfile(guest.console, os.path.join(args.out, "console.log"))
    committed = acknowledged(console)
    log(f"recorded in {time.time() - guest.started:.0f} s: {len(committed)} commits logged, {len(marks)} marks")
    if not done:
        failures.append(f"the guest session did not finish (console {guest.console})")
    acks = [m for m in marks if m.startswith("ack-")]
    if len(acks) != len(committed):
        failures.append(f"{len(acks)} receipt marks for {len(committed)} logged commits")
    if len(marks) - len(acks) != 5:
        failures.append(f"{len(marks) - len(acks)} config write marks, not 5")
    for f in failures:
        log("FAIL " + f)
    return 1 if failures else 0


def main():
    ap = argparse.ArgumentParser()
    sub = ap.add_subparsers(dest="command", required=True)
    r = sub.add_parser("record")
    r.add_argument("--kernel", required=True)
    r.add_argument("--initrd", required=True)
    r.add_argument("--disk", required=True)
    r.add_argument("--out", required=True)
    r.add_argument("--control-socket", required=True)
    r.add_argument("--deposits", type=int, default=int(os.environ.get("CRASH_STATES_DEPOSITS", "64")))
    r.add_argument("--log-mib", type=int, default=512)
    r.add_argument("--timeout", type=int, default=1500)
    for name in ("check", "selftest"):
        c = sub.add_parser(name)
        c.add_argument("--out", required=True, help="the recording: base.img, log.img, console.log")
        c.add_argument("--teller", required=True)
        c.add_argument("--max-states", type=int, default=2000)
        c.add_argument("--keep", action="store_true", help="keep the data directories of failing states")
        c.add_argument("--durable-points-only", action="store_true",
                       help="rebuild the disk only at flushes, FUAs and marks, not after every write")
    args = ap.parse_args()
    args.out = os.path.abspath(args.out)  # teller status wants an absolute --data-dir
    if args.command == "record":
        return record(args)
    base = os.path.join(args.out, "base.img")
    console = os.path.join(args.out, "console.log")
    work = os.path.join(args.out, "work")
    shutil.rmtree(work, ignore_errors=True)
    started = time.time()
    if args.command == "selftest":
        cut = os.path.join(args.out, "cut-log.img")
        receipt, dropped = cut_log(os.path.join(args.out, "log.img"), cut)
        log(f"self-test: {dropped} log entries before mark ack-{receipt} dropped, the mark kept; states at flushes, FUAs and marks")
        n, acked, lost, torn, problems, sampled, _, _ = check(base, cut, console, args.teller, args.max_states, work, args.keep, False)
        print(f"self-test crash_states_checked: {n}")
        print(f"self-test acknowledged_lost: {lost}")
        for p in problems[:5]:
            print(f"self-test reported: {p}")
        caught = lost > 0 and any(receipt in p for p in problems)
        print(f"self-test: {'the checker reported' if caught else 'the checker did NOT report'} the loss of receipt {receipt}")
        # A torn file beside the database: the final disk with the refresh token cut in half.
        torn_caught = torn_selftest(args.out, console, args.teller, work)
        return 0 if caught and torn_caught else 1
    n, acked, lost, torn, problems, sampled, entries, marked = check(base, os.path.join(args.out, "log.img"), console, args.teller,
                                                                     args.max_states, work, args.keep,
                                                                     not args.durable_points_only)
    # The reader's own check: every logged write applied gives the disk the guest left.
    log(f"{len(entries)} log entries, {len(marked)} receipts marked, checked in {time.time() - started:.0f} s")
    if sampled:
        print(sampled)
    print(f"crash_states_checked: {n}")
    print(f"acknowledged_rows_checked: {acked}")
    print(f"acknowledged_lost: {lost}")
    print(f"torn_files: {torn}")
    for p in problems[:20]:
        log("FAIL " + p)
    if len(problems) > 20:
        log(f"... and {len(problems) - 20} more")
    return 0 if (lost == 0 and torn == 0 and n >= 500 and not problems) else 1


if __name__ == "__main__":
    sys.exit(main())
