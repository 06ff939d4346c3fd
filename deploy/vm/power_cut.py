#!/usr/bin/env python3
"""The power-cut test of the virtual teller device (teller-vm --power-cut N).

Each cycle boots the same ext4 disk, where the guest (guest/power-cut.sh)
signs in offline, says QUEUE on the serial channel once the queue screen is
up, waits while the host reads its accessibility tree with its own `teller ctl ui`
over the control channel (teller_vm.control_channel()), and enters
deposits through uinput. The terminal logs `outbox: committed KEY ...` on
the serial console only after each commit returned (log_commits). At a
random moment the harness kills qemu (SIGKILL: a power cut for the guest),
then checks the disk as the next boot will find it (journal replayed on a
copy): PRAGMA integrity_check is ok and every acknowledged transaction is in
the outbox with the kind, amount, currency and accounts the terminal
acknowledged, in the row's columns and in its frozen payload bytes. The next boot's queue screen must list every acknowledged deposit.
At the end the same disk's data directory is copied out (debugfs) and
drained natively to the reference host on loopback, whose journal must post
every transaction exactly once. Standard library only.
"""
import argparse
import json
import os
import random
import re
import shutil
import sqlite3
import subprocess
import sys
import tempfile
import time
import urllib.request

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from teller_vm import Guest, ctl, drawn  # noqa: E402

COMMITTED = re.compile(r"outbox: committed ([0-9a-f-]{36}) (\w+) ([0-9.,]+) ([A-Z]{3}) ([A-Z0-9]+) ([A-Z0-9]+|-)\s*$")


def log(text):
    print(f"power-cut: {text}", flush=True)


def acknowledged(console):
    """key -> what the terminal acknowledged after the commit returned:
    {"kind", "amount" ("3.07 EUR"), "minor", "currency", "account", "counterparty"}."""
    keys = {}
    for line in console.splitlines():
        m = COMMITTED.search(line.strip())
        if m:
            amount = m.group(3).replace(",", "")
            whole, _, cents = amount.partition(".")
            keys[m.group(1)] = {
                "kind": m.group(2), "amount": f"{m.group(3)} {m.group(4)}", "minor": int(whole) * 100 + int(cents or 0),
                "currency": m.group(4), "account": m.group(5), "counterparty": None if m.group(6) == "-" else m.group(6)}
    return keys


def mismatches(key, ack, row):
    """How the stored row differs from what was acknowledged: its columns
    and its frozen payload bytes (what every retry sends to the bank)."""
    problems = []
    stored = {"kind": row["kind"], "minor": row["amount_minor"], "currency": row["currency"],
              "account": row["account_iban"], "counterparty": row["counterparty_iban"]}
    for field, value in stored.items():
        if value != ack[field]:
            problems.append(f"{key}: column {field} is {value!r}, the terminal acknowledged {ack[field]!r}")
    try:
        payload = json.loads(bytes(row["payload"]).decode("utf-8"))
    except (ValueError, UnicodeDecodeError) as e:
        return problems + [f"{key}: the frozen payload is not JSON: {e}"]
    sent = {"kind": payload.get("kind"), "minor": payload.get("amount"), "currency": payload.get("currency"),
            "account": payload.get("account_iban"), "counterparty": payload.get("counterparty_iban")}
    for field, value in sent.items():
        if value != ack[field]:
            problems.append(f"{key}: payload {field} is {value!r}, the terminal acknowledged {ack[field]!r}")
    if payload.get("client_reference") != key[:8].upper():
        problems.append(f"{key}: payload client_reference {payload.get('client_reference')!r} is not the receipt number {key[:8].upper()}")
    return problems


def copy_out(disk, work):
    """The data directory as the next boot finds it: a copy of the disk with
    its ext4 journal replayed (e2fsck), read out with debugfs."""
    image = os.path.join(work, "copy.img")
    shutil.copyfile(disk, image)
    fsck = subprocess.run(["e2fsck", "-fy", image], capture_output=True, text=True)
    if fsck.returncode >= 4:
        raise RuntimeError(f"e2fsck found errors it could not fix ({fsck.returncode}): {fsck.stdout[-500:]}")
    target = os.path.join(work, "data")
    shutil.rmtree(target, ignore_errors=True)
    os.makedirs(target)
    subprocess.run(["debugfs", "-R", f"rdump /teller {target}", image], check=True, capture_output=True)
    os.unlink(image)
    return os.path.join(target, "teller")


def check_database(directory):
    """(integrity_check answer, {key: row}) of the outbox, each row a dict of
    its columns and frozen payload."""
    db = sqlite3.connect(os.path.join(directory, "teller.db"))
    db.row_factory = sqlite3.Row
    try:
        integrity = db.execute("PRAGMA integrity_check").fetchone()[0]
        rows = db.execute("SELECT idempotency_key, kind, amount_minor, currency, account_iban, counterparty_iban, payload FROM outbox").fetchall()
    finally:
        db.close()
    return integrity, {row["idempotency_key"]: dict(row) for row in rows}


def queue_amounts(tree):
    """Every "Deposit 3.07 EUR"-style row title on the queue screen."""
    labels = []

    def walk(node):
        ident = node.get("identifier") or ""
        if re.fullmatch(r"queue\.row\.\d+", ident):
            labels.append(node.get("label") or "")
        for child in node.get("children", []):
            walk(child)
    walk(tree)
    return labels


def boot(args, job_boot, disk, out, kill_after=None):
    """One boot. Returns (queue tree or None, killed, console, failures)."""
    guest = Guest(args.kernel, args.initrd, disk, out, "none", "power-cut", f"teller.boot={job_boot}",
                  control_socket=args.control_socket)
    failures, tree, killed = [], None, False
    deadline = time.time() + args.boot_timeout
    kill_at = None
    try:
        for line in guest.lines(deadline):
            if line == "ENTERING" and kill_after is not None:
                kill_at = time.time() + kill_after
                break
            if line.startswith("SCREENDUMP "):
                name = line.split()[1]
                time.sleep(0.3)
                png, w, h, rows = guest.screendump(f"{name}-{job_boot}")
                if not drawn(rows):
                    failures.append(f"boot {job_boot}: the queue screendump is blank")
                guest.reply("OK")
            elif line == "QUEUE":
                # A guest under TCG on a loaded host can take longer than
                # ctl's own 30 s; the answer is tagged, so a late one for an
                # earlier try is skipped and asking again is safe.
                for _ in range(3):
                    status, stdout, stderr = ctl(args.teller, args.control_socket, "ui")
                    if status == 0 or "did not answer within" not in stderr:
                        break
                if status == 0:
                    tree = json.loads(stdout)
                else:
                    failures.append(f"boot {job_boot}: `teller ctl ui` over the control channel failed (exit {status}): {stderr.strip()[-300:]}")
                guest.reply("OK")
            elif line.startswith("DONE"):
                status = line.split()[1] if len(line.split()) > 1 else "?"
                if status != "0" or kill_after is not None:
                    failures.append(f"boot {job_boot}: the guest job ended ({line}) before the power cut")
                break
        # lines() only yields when the guest writes; wait out the rest of the delay.
        while kill_at is not None and time.time() < kill_at and guest.proc.poll() is None:
            time.sleep(0.05)
        if kill_after is not None:
            if kill_at is None:
                failures.append(f"boot {job_boot}: the guest never started entering (console {guest.console})")
            guest.kill()
            killed = True
        else:
            guest.close(timeout=30)
    finally:
        if guest.proc.poll() is None:
            guest.kill()
        guest.close(timeout=5)
    return tree, killed, guest.console_text(), failures


def drain(args, data, work):
    """Drains the copied data directory natively to a reference host on loopback."""
    host_out = os.path.join(work, "host.out")
    with open(host_out, "w") as out, open(os.path.join(work, "host.log"), "w") as err:
        host = subprocess.Popen([args.reference_host, "--port", "0", "--data", args.host_db, "--seed", "demo"], stdout=out, stderr=err)
    try:
        url = None
        for _ in range(100):
            m = re.search(r"http://[0-9.:]+", open(host_out).read())
            if m:
                url = m.group(0)
                break
            time.sleep(0.1)
        if not url:
            raise RuntimeError("the reference host did not start")
        secret = os.path.join(work, "secret")
        with open(secret, "w") as f:
            f.write("demo-secret-T-0001\n")
        os.chmod(secret, 0o600)
        conf = os.path.join(work, "drain.conf")
        with open(conf, "w") as f:
            f.write(f"terminal_id = T-0001\nhost_url = {url}\nsecret_file = {secret}\ndata_dir = {data}\nruntime_dir = {work}/run\n")
        started = time.time()
        result = subprocess.run([args.teller, "drain", "--until-empty", "--config", conf], capture_output=True, text=True, timeout=300)
        log(f"drained with `teller drain --until-empty` in {time.time() - started:.1f} s (exit {result.returncode})")
        if result.returncode != 0:
            raise RuntimeError(f"teller drain failed: {result.stderr[-1000:]}")
        with urllib.request.urlopen(f"{url}/admin/journal?terminal_id=T-0001&outcome=posted") as answer:
            return json.load(answer)["entries"]
    finally:
        host.terminate()
        host.wait(timeout=10)


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--kernel", required=True)
    ap.add_argument("--initrd", required=True)
    ap.add_argument("--disk", required=True)
    ap.add_argument("--out", required=True)
    ap.add_argument("--cycles", type=int, default=10)
    ap.add_argument("--teller", required=True, help="the teller binary that drains natively and asks the guest over ctl")
    ap.add_argument("--control-socket", required=True, help="the host end of the control channel")
    ap.add_argument("--reference-host", required=True)
    ap.add_argument("--host-db", required=True, help="the reference host's database from provisioning")
    ap.add_argument("--seed", type=int, default=None)
    ap.add_argument("--boot-timeout", type=int, default=240)
    args = ap.parse_args()
    seed = args.seed if args.seed is not None else random.randrange(1 << 30)
    rng = random.Random(seed)
    log(f"{args.cycles} cycles, seed {seed} (--seed {seed} repeats the kill moments)")
    work = tempfile.mkdtemp(prefix="power-cut-")
    acked, failures, started = {}, [], time.time()
    previous = {}
    try:
        for cycle in range(1, args.cycles + 2):
            final = cycle == args.cycles + 1
            delay = None if final else round(rng.uniform(1.0, 16.0), 2)
            tree, killed, console, boot_failures = boot(args, "final" if final else cycle, args.disk, args.out, delay)
            failures += boot_failures
            # The queue screen at this boot's start lists what earlier boots acknowledged.
            if tree is None:
                failures.append(f"boot {cycle}: no queue screen from the guest")
            else:
                shown = queue_amounts(tree)
                missing = [f"{k} ({a['amount']})" for k, a in previous.items()
                           if not any(re.search(r"(?<![0-9.,])" + re.escape(a["amount"]), label) for label in shown)]
                if missing:
                    failures.append(f"boot {cycle}: the queue screen does not show {len(missing)} acknowledged: {missing[:3]}")
            if final:
                log(f"final boot: the queue screen lists {len(queue_amounts(tree or {}))} rows; {len(acked)} acknowledged")
                break
            new = acknowledged(console)
            acked.update(new)
            try:
                data = copy_out(args.disk, work)
                integrity, rows = check_database(data)
            except Exception as e:  # noqa: BLE001 - every failure is reported
                failures.append(f"cycle {cycle}: cannot check the disk: {e}")
                continue
            lost = [k for k in acked if k not in rows]
            log(f"cycle {cycle}: power cut {delay:.2f} s into entering; {len(new)} acknowledged this boot, "
                f"{len(acked)} in all; outbox has {len(rows)} rows; integrity_check {integrity}; lost {len(lost)}")
            if integrity != "ok":
                failures.append(f"cycle {cycle}: PRAGMA integrity_check: {integrity}")
            if lost:
                failures.append(f"cycle {cycle}: {len(lost)} acknowledged transactions lost: {lost[:3]}")
            changed = [p for k in acked if k in rows for p in mismatches(k, acked[k], rows[k])]
            if changed:
                failures.append(f"cycle {cycle}: {len(changed)} differences from what was acknowledged: {changed[:3]}")
            # What the next boot's queue screen must list: what the terminal acknowledged, not what the disk says.
            previous = dict(acked)
        # Drain the same disk's queue to the reference host.
        data = copy_out(args.disk, work)
        integrity, rows = check_database(data)
        entries = drain(args, data, work)
        posted = {}
        for entry in entries:
            posted[entry["idempotency_key"]] = posted.get(entry["idempotency_key"], 0) + 1
        twice = [k for k, n in posted.items() if n != 1]
        not_posted = [k for k in rows if k not in posted]
        unknown = [k for k in posted if k not in rows]
        lost = [k for k in acked if k not in rows]
        log(f"host journal: {len(entries)} postings for {len(rows)} outbox rows; "
            f"{len(twice)} posted more than once, {len(not_posted)} not posted, {len(unknown)} unknown")
        if twice or not_posted or unknown:
            failures.append(f"drain: not exactly once: twice {twice[:3]}, not posted {not_posted[:3]}, unknown {unknown[:3]}")
        if lost:
            failures.append(f"drain: {len(lost)} acknowledged transactions are not in the outbox")
        if not acked:
            failures.append("no transaction was acknowledged in any cycle: the test proved nothing")
    finally:
        shutil.rmtree(work, ignore_errors=True)
    lost_count = len([k for k in acked if k not in rows]) if acked else 0
    log(f"{args.cycles} power cuts in {time.time() - started:.0f} s; {len(acked)} acknowledged transactions, "
        f"{lost_count} acknowledged transactions lost; each posted exactly once: {'yes' if not failures else 'see failures'}")
    if failures:
        log("FAIL")
        for f in failures:
            print("  " + f, flush=True)
        return 1
    log("PASS")
    return 0


if __name__ == "__main__":
    sys.exit(main())
