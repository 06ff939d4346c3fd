#!/usr/bin/env python3
"""Power loss below the filesystem (deploy/vm/crash-states, docs/qa.md).

record  boots the virtual device (teller_vm.Guest) with its data disk behind
        a dm-log-writes target and a second disk for the log; the guest
        (guest/crash-states.sh) drives the real terminal through uinput with
        the link cut and marks the log `ack-<receipt>` whenever a receipt
        says Queued; every ten deposits and at the end the link comes back,
        the queue drains to the reference host (rows sending, then
        confirmed, the refresh token rotated) and the guest marks
        `drained-N` once the terminal counts none queued (the outcomes are committed without fsync by design, so the
        mark promises nothing about them); then, the link cut, the clock a
        day on and the terminal started again, one more deposit Queued,
        and the mark retention-<clock>-<days> before the clock moves past
        retention and `teller ctl prune` removes what the bank settled
        (confirmed rows, the journal's first day behind a checkpoint,
        incremental vacuum after each batch); then config writes marked `cfg-N`. The
        console's `outbox: committed` lines (log_commits) are what the
        terminal acknowledged, with their exact payloads.
check   our own reader of the log format (the kernel's
        Documentation/admin-guide/device-mapper/log-writes.rst): the disk as
        provisioned, then every logged write applied in log order; the disk
        is rebuilt after every flush, every FUA write and every mark (the
        crash states counted: what an SD card that honours flushes may hold
        after a power cut there), and unless --durable-points-only after
        every other logged write too (write-prefix states, counted apart: the
        device wrote in log order and lost power between two flushes).
        Each state: the ext4 journal replayed as the next mount would
        (e2fsck -E journal_only), e2fsck -fn clean, the data directory read
        out with debugfs rdump (no mount), PRAGMA integrity_check with the
        sqlite3 CLI, the real `teller status --data-dir` (read-only JSON, its
        counts those of the outbox), and the outbox: every receipt marked
        before that point present with the payload the terminal acknowledged,
        and in no state the bank rejects, no row that was never committed;
        the journal's hash chain intact and, for every receipt marked, the
        journal entry of its enqueue (same commit) present; the refresh
        token and the config whole; `teller journal verify` as well as the
        Python walk. After the retention mark a row may be gone only if an
        earlier state saw it confirmed and made before the mark's cutoff. Across states: the refresh
        token never back at a replaced version, a confirmed row never
        unconfirmed again, an acknowledged journal entry never changed.
selftest  writes a copy of the log with everything the device was asked to
        write between one acknowledgement's mark and the one before it
        dropped (the mark kept), as a card that acknowledges flushes it never
        did would; the same check must report the receipt lost. Then a torn
        and a missing refresh token, and the sequence checks fed a token and
        a confirmed row going back: each must be reported.
pack-fixture, unpack-fixture  the recording as the committed, xz-compressed
        fixture (qa/crash-states/fixture) and back; unpacking replays the
        whole log and compares the disk with the recorded one's sha256.
Standard library only.
"""
import argparse
import ctypes
import hashlib
import hmac
import ctypes.util
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


def durable(entry):
    """A flush, a FUA write or a mark: a point the issue counts as a crash state."""
    return bool(entry[2] & (FLUSH | FUA | MARK))


def state_points(entries, every_write=True):
    """Indices after which the disk is rebuilt: every flush, FUA and mark,
    and with EVERY_WRITE after every other logged write too (the device wrote in
    log order and lost power between two flushes: a prefix of the unflushed
    writes landed, which a card that honours flushes is free to do); those
    are counted apart, as write-prefix states."""
    if every_write:
        return list(range(len(entries)))
    return [i for i, e in enumerate(entries) if durable(e)]


def run(command, **kw):
    return subprocess.run(command, capture_output=True, text=True, **kw)


# The data directory's files besides the database that are JSON documents
# (the refresh token, TokenVault), or any *.json.
JSON_FILES = {"refresh-token"}


# A temporary of DurableFile.write: the file's name, a dot and a random
# UInt64 in base 36 (8 to 13 digits but once in 200 million). A cut between its creation and the rename leaves it
# behind (empty or whole) while the file itself keeps its old content; the
# terminal removes it when it next starts (DurableFile.removeLeftovers).
TEMPORARY = re.compile(r"^(refresh-token)\.[0-9a-z]{8,13}$")


# The terminal secret teller-vm provisions (as tools/run): the refresh token
# is sealed under a key derived from it (TellerData's SealedBox).
TERMINAL_SECRET = b"demo-secret-T-0001"
SEALED_MAGIC = b"TLSB\x01"


def _sodium():
    library = ctypes.CDLL(ctypes.util.find_library("sodium") or "libsodium.so.23")
    library.crypto_generichash.argtypes = [ctypes.c_char_p, ctypes.c_size_t, ctypes.c_char_p, ctypes.c_ulonglong,
                                           ctypes.c_char_p, ctypes.c_size_t]
    library.crypto_secretbox_open_easy.argtypes = [ctypes.c_char_p, ctypes.c_char_p, ctypes.c_ulonglong,
                                                   ctypes.c_char_p, ctypes.c_char_p]
    if library.sodium_init() < 0:
        raise RuntimeError("sodium_init failed")
    return library


def unseal(content, secret=TERMINAL_SECRET, purpose=b"refresh-token"):
    """The plaintext of a SealedBox file, or None when it is not one, was
    sealed under another secret, or was changed (torn)."""
    if not content.startswith(SEALED_MAGIC) or len(content) < len(SEALED_MAGIC) + 24 + 16:
        return None
    sodium = _sodium()
    key = ctypes.create_string_buffer(32)
    material = b"teller " + purpose + b" seal v1\x00" + secret
    sodium.crypto_generichash(key, 32, material, len(material), None, 0)
    nonce, sealed = content[len(SEALED_MAGIC):len(SEALED_MAGIC) + 24], content[len(SEALED_MAGIC) + 24:]
    plain = ctypes.create_string_buffer(len(sealed) - 16)
    if sodium.crypto_secretbox_open_easy(plain, sealed, len(sealed), nonce, key.raw) != 0:
        return None
    return plain.raw


def torn_files(directory, token_expected=False):
    """Every file beside the database that is torn: empty, or for a JSON one,
    not a JSON object; the refresh token also when it is gone while the disk
    as provisioned had one, or holds no token. A write's leftover temporary
    is not a file of the terminal's (TEMPORARY). Returns (torn names, the
    refresh token or None)."""
    torn = []
    token = None
    path = os.path.join(directory, "refresh-token")
    if os.path.isfile(path):
        content = open(path, "rb").read()
        # Sealed (SealedBox) since #28; the committed fixture was recorded in the clear.
        if content.startswith(SEALED_MAGIC):
            content = unseal(content) or b""
        try:
            stored = json.loads(content)
            token = stored.get("token") if isinstance(stored, dict) else None
        except ValueError:
            pass
        if not isinstance(token, str) or not token:
            token = None
            torn.append("refresh-token")
    elif token_expected:
        torn.append("refresh-token")
    for name in sorted(os.listdir(directory)):
        if name == "refresh-token" or TEMPORARY.match(name):
            continue
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
    return torn, token


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


PENDING = ("queued", "sending")

# The electronic journal (docs/architecture.md, "Journal"): each entry's hash
# is SHA-256 over the previous entry's hash (32 bytes; 32 zero bytes before
# the first) and its canonical bytes. Sources/TellerData/Journal/JournalChain.swift
# writes the same: change one, change both (both test the same vectors).
JOURNAL_GENESIS = "0" * 64
# The kinds whose entry commits with an enqueue: acknowledged with its receipt.
ENQUEUE_KINDS = ("payment_enqueued", "reversal")


def journal_canonical(row):
    """An entry's canonical bytes: sequence, time_ms, kind, operator_id and
    supervisor_id (empty when none), each followed by a line feed, then the payload."""
    head = f"{row['sequence']}\n{row['time_ms']}\n{row['kind']}\n{row['operator_id']}\n{row['supervisor_id'] or ''}\n"
    return head.encode("utf-8") + row["payload"].encode("utf-8")


def journal_hash(previous, row):
    """The hash an entry must have after PREVIOUS (hex); None when PREVIOUS is not 64 hex digits."""
    import hashlib
    try:
        previous_bytes = bytes.fromhex(previous)
    except (TypeError, ValueError):
        return None
    if len(previous_bytes) != 32 or previous != previous.lower():
        return None
    return hashlib.sha256(previous_bytes + journal_canonical(row)).hexdigest()


def journal_start(rows):
    """Where ROWS' chain begins: (first sequence, the hash its prev_hash must
    be, the checkpoint row that carries it or None, a break or None). From
    entry 1 at the genesis hash; once retention removed entries 1 to N
    (schema 6, docs/architecture.md "Retention"), at entry N+1 from the
    hash named by the checkpoint whose payload says "through": N (the
    oldest such after N). JournalStore.verify in Swift does the same."""
    if not rows or rows[0]["sequence"] == 1:
        return 1, JOURNAL_GENESIS, None, None
    first = rows[0]["sequence"]
    for row in rows:
        if row["kind"] != "checkpoint" or row["sequence"] <= first - 1:
            continue
        try:
            payload = json.loads(row["payload"])
        except ValueError:
            continue
        if isinstance(payload, dict) and payload.get("through") == first - 1:
            return first, str(payload.get("through_hash", "")), row, None
    return first, None, None, (f"entry 1: gap in the sequence (entries 1 to {first - 1} are missing and no checkpoint carries the chain over them)")


def verify_journal(rows, highest=None):
    """Walks ROWS (dicts in sequence order) as `teller journal verify` does.
    HIGHEST is the largest sequence number ever given (sqlite_sequence), or
    None. Returns (entries intact, the first break as text or None); a
    journal retention pruned counts from its oldest entry kept."""
    first, previous, _, broken = journal_start(rows)
    if broken:
        return 0, broken
    expected = first
    for row in rows:
        sequence = row["sequence"]
        if sequence != expected:
            return expected - first, f"entry {expected}: gap in the sequence (entry {sequence} follows entry {expected - 1})"
        if row["prev_hash"] != previous:
            return expected - first, f"entry {sequence}: prev_hash mismatch"
        if journal_hash(previous, row) != row["hash"]:
            return expected - first, f"entry {sequence}: hash mismatch"
        previous = row["hash"]
        expected += 1
    if highest is not None and highest >= expected:
        return expected - first, f"entry {expected}: gap in the sequence (entries {expected} to {highest} were removed from the end)"
    return expected - first, None


def read_journal(db):
    """The journal's rows in sequence order and sqlite_sequence's high-water
    mark, or (None, None) when the file has no journal (a schema before 5)."""
    if db.execute("SELECT 1 FROM sqlite_schema WHERE type = 'table' AND name = 'journal'").fetchone() is None:
        return None, None
    rows = [dict(row) for row in db.execute(
        "SELECT sequence, time_ms, kind, operator_id, supervisor_id, payload, prev_hash, hash FROM journal ORDER BY sequence")]
    highest = db.execute("SELECT seq FROM sqlite_sequence WHERE name = 'journal'").fetchone()
    return rows, (highest[0] if highest else None)


def journal_check(rows, highest, marked, by_receipt):
    """The journal of one state: the chain intact, and for every receipt
    marked acknowledged the entry of its enqueue (same commit) present, or
    removed by retention behind a checkpoint. Returns {"checked", "lost"
    (receipts), "pruned" (receipts whose entry is gone behind a checkpoint:
    across_states checks each was settled and below it), "carried" (the
    last sequence retention removed, 0 if none), "enqueued" ({receipt:
    sequence}), "problems", "acked" ({sequence: hash} up to the newest
    acknowledged entry, which no later state may change)}."""
    found = {"checked": 0, "lost": [], "pruned": [], "carried": 0, "enqueued": {}, "problems": [], "acked": {}}
    if rows is None:
        found["checked"] = len(marked)
        found["lost"] = sorted(marked)
        if marked:
            found["problems"].append(f"no journal with {len(marked)} receipts acknowledged")
        return found
    _, broken = verify_journal(rows, highest)
    if broken:
        found["problems"].append(f"journal chain broken: {broken}")
    first, _, carrier, _ = journal_start(rows)
    if carrier is not None:
        found["carried"] = first - 1
    entry_of = {}
    for row in rows:
        if row["kind"] in ENQUEUE_KINDS:
            try:
                key = json.loads(row["payload"]).get("key")
            except (ValueError, AttributeError):
                key = None
            if isinstance(key, str):
                entry_of[key] = row["sequence"]
    newest = 0
    for receipt in sorted(marked):
        found["checked"] += 1
        sequence = entry_of.get(by_receipt.get(receipt))
        if sequence is None:
            found["pruned" if found["carried"] else "lost"].append(receipt)
        else:
            found["enqueued"][receipt] = sequence
            newest = max(newest, sequence)
    found["acked"] = {row["sequence"]: row["hash"] for row in rows if row["sequence"] <= newest}
    if found["lost"]:
        found["problems"].append(f"acknowledged journal entries lost (the enqueues of receipts {', '.join(found['lost'])})")
    return found


def check_state(job):
    """One crash state (JOB: a dict, see check()): returns a dict of what was found. Runs in a worker."""
    image, number, marked, committed = job["image"], job["state"], job["marked"], job["committed"]
    work = tempfile.mkdtemp(prefix=f"state-{number}-", dir=os.path.dirname(image))
    found = {"state": number, "durable": job.get("durable", True), "problems": [], "acked_checked": 0, "lost": [], "torn": [],
             "token": None, "rows": {}, "journal_checked": 0, "journal_lost": [], "journal": {}, "pruned": [], "carried": 0, "enqueued": {},
             "created": {}, "gone": [], "cutoff": job.get("cutoff"), "kept_past_cutoff": 0, "through_checkpoint": False}
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
        if job.get("cfg_reference") is not None:
            config_check(image, job.get("cfg_marked", 0), job["cfg_reference"], found)
        directory = os.path.join(data, "teller")
        if not os.path.isdir(directory):
            # Before provisioning's directory reached the disk there is nothing to lose.
            if marked:
                found["lost"] = sorted(marked)
                found["journal_checked"], found["journal_lost"] = len(marked), sorted(marked)
                problems.append(f"no data directory (debugfs: {dump.stderr.strip()[-200:]}) with {len(marked)} receipts acknowledged")
            return found
        db_path = os.path.join(directory, "teller.db")
        # The real terminal reads it first, on its own copy (read-only, JSON).
        status_dir = os.path.join(work, "status")
        shutil.copytree(directory, status_dir)
        status = run([job["teller"], "status", "--data-dir", status_dir], timeout=60)
        status_json = None
        if status.returncode != 0:
            problems.append(f"teller status exit {status.returncode}: {status.stderr.strip()[-300:]}")
        else:
            try:
                status_json = json.loads(status.stdout)
            except ValueError as e:
                problems.append(f"teller status printed no JSON: {e}")
        # The terminal's own verifier walks the chain (from its checkpoint once
        # retention removed a prefix); journal_check below walks it again in
        # Python, a second oracle on purpose: a bug shared by the writer and
        # JournalStore.verify would pass the first and not the second.
        verified = run([job["teller"], "journal", "verify", "--data-dir", status_dir], timeout=60)
        if verified.returncode != 0:
            problems.append(f"teller journal verify exit {verified.returncode}: {(verified.stdout + verified.stderr).strip()[-300:]}")
        found["through_checkpoint"] = verified.returncode == 0 and "checkpoint" in verified.stdout
        integrity = run(["sqlite3", db_path, "PRAGMA integrity_check;"])
        if integrity.returncode != 0 or integrity.stdout.strip() != "ok":
            problems.append(f"PRAGMA integrity_check: {(integrity.stdout + integrity.stderr).strip()[-300:]}")
        rows = {}
        journal, highest = None, None
        try:
            db = sqlite3.connect(f"file:{db_path}?mode=ro", uri=True)
            db.row_factory = sqlite3.Row
            try:
                for row in db.execute("SELECT idempotency_key, kind, amount_minor, currency, account_iban, counterparty_iban, payload, state, "
                                      "created_at_ms FROM outbox"):
                    rows[row["idempotency_key"]] = dict(row)
                journal, highest = read_journal(db)
            finally:
                db.close()
        except sqlite3.Error as e:
            if marked:
                problems.append(f"cannot read the outbox or the journal: {e}")
        from power_cut import mismatches
        by_receipt = {key[:8].upper(): key for key in committed}
        in_journal = journal_check(journal, highest, marked, by_receipt)
        found["journal_checked"], found["journal_lost"], found["journal"] = in_journal["checked"], in_journal["lost"], in_journal["acked"]
        found["pruned"], found["carried"], found["enqueued"] = in_journal["pruned"], in_journal["carried"], in_journal["enqueued"]
        problems += in_journal["problems"]
        cutoff = job.get("cutoff")
        for receipt in sorted(marked):
            key = by_receipt.get(receipt)
            found["acked_checked"] += 1
            if key is None:
                problems.append(f"mark ack-{receipt} names no commit the terminal logged")
            elif key not in rows and cutoff is not None:
                # After the retention mark a row may be gone, but only one retention
                # could remove: across_states holds it to what earlier states saw.
                found["gone"].append(receipt)
            elif key not in rows and receipt not in found["pruned"]:
                found["lost"].append(receipt)
            elif rows[key]["state"] not in PENDING + ("confirmed",):
                problems.append(f"receipt {receipt} is {rows[key]['state']}: the reference host rejects none of these")
        found["keys"] = {receipt: by_receipt.get(receipt) for receipt in set(found["pruned"]) | set(found["gone"])}
        for key, row in rows.items():
            found["rows"][key] = row["state"]
            found["created"][key] = row["created_at_ms"]
            if cutoff is not None and row["state"] in UNACKNOWLEDGED and row["created_at_ms"] < cutoff:
                found["kept_past_cutoff"] += 1
            if key not in committed:
                problems.append(f"row {key} was never committed (no log_commits line)")
            else:
                problems += mismatches(key, committed[key], row)
        if status_json is not None:
            pending = sum(1 for row in rows.values() if row["state"] in PENDING)
            if status_json.get("pending_count") != pending:
                problems.append(f"teller status says {status_json.get('pending_count')} pending, the outbox has {pending} queued or sending")
            counts = {}
            for row in rows.values():
                counts[row["state"]] = counts.get(row["state"], 0) + 1
            if {k: v for k, v in (status_json.get("counts") or {}).items() if v} != counts:
                problems.append(f"teller status counts {status_json.get('counts')}, the outbox has {counts}")
        if marked or rows:
            rescued = rescue_check(job["teller"], directory, work, rows, marked, by_receipt)
            problems += rescued["problems"]
            found["rescues"], found["rescued"] = 1, rescued["payments"]
        torn, found["token"] = torn_files(directory, job.get("token_expected", False))
        found["torn"] += torn
        if found["lost"]:
            problems.append(f"acknowledged receipts lost: {', '.join(found['lost'])}")
        return found
    finally:
        if not job.get("keep") or not found["problems"]:
            shutil.rmtree(work, ignore_errors=True)
            os.unlink(image)


UNACKNOWLEDGED = PENDING + ("needsReview",)


def tree_digest(directory):
    """Every file's name and sha256 under DIRECTORY: what a reader must leave as it found it."""
    digest = {}
    for root, _, files in os.walk(directory):
        for name in files:
            path = os.path.join(root, name)
            digest[os.path.relpath(path, directory)] = sha256(path)
    return digest


def rescue_check(teller, directory, work, rows, marked, by_receipt):
    """`teller rescue` of this state's card, as a technician would run it on
    a dead terminal's card (docs/deploy.md): it must leave the card as it
    found it, sign the file with the terminal's key (checked here with
    hmac, not with Teller's code), carry every row the bank has not
    acknowledged (queued, sending, needs review) with its frozen payload
    (which check_state holds to what the terminal acknowledged), every
    receipt marked and not yet settled among them, and no other row.
    Returns {"problems": [...], "payments": how many the file carried}."""
    problems = []
    secret = os.path.join(work, "secret")
    with open(os.open(secret, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o600), "wb") as f:
        f.write(TERMINAL_SECRET + b"\n")
    out = os.path.join(work, "rescue.json")
    before = tree_digest(directory)
    result = run([teller, "rescue", "--from", directory, "--out", out, "--terminal-id", "T-0001", "--secret-file", secret], timeout=60)
    if tree_digest(directory) != before:
        problems.append("teller rescue changed the card's files")
    if result.returncode != 0:
        return {"problems": problems + [f"teller rescue exit {result.returncode}: {result.stderr.strip()[-300:]}"], "payments": 0}
    with open(out, "rb") as f:
        content = f.read()
    carried = re.search(rb'"payments":(\d+)', content)
    return {"problems": problems + rescue_problems(content, rows, marked, by_receipt), "payments": int(carried.group(1)) if carried else 0}


def rescue_problems(content, rows, marked, by_receipt):
    """What is wrong with rescue file CONTENT for a card whose outbox is ROWS."""
    framed = re.fullmatch(rb'\{"hmac_sha256":"([0-9a-f]{64})","rescue":(.*)\}\n', content, re.S)
    if framed is None:
        return ["the rescue file is not {\"hmac_sha256\":…,\"rescue\":…}"]
    problems = []
    key = hmac.new(TERMINAL_SECRET, b"teller rescue file v1", hashlib.sha256).digest()
    if not hmac.compare_digest(hmac.new(key, framed.group(2), hashlib.sha256).hexdigest().encode(), framed.group(1)):
        problems.append("the rescue file's hmac_sha256 does not match its document under the terminal's key")
    try:
        document = json.loads(framed.group(2))
        rescued = {payment["idempotency_key"]: payment for payment in document["payments"]}
    except (ValueError, KeyError, TypeError) as e:
        return problems + [f"the rescue document is not what docs/host-api.md says: {e!r}"]
    owed = {key for key, row in rows.items() if row["state"] in UNACKNOWLEDGED}
    if set(rescued) != owed:
        problems.append(f"the rescue carries {len(rescued)} payments, the outbox has {len(owed)} the bank has not acknowledged: "
                        f"missing {sorted(owed - set(rescued))[:3]}, extra {sorted(set(rescued) - owed)[:3]}")
    for key in sorted(owed & set(rescued)):
        if rescued[key]["body"].encode("utf-8") != bytes(rows[key]["payload"]):
            problems.append(f"the rescue carries {key} with another body than the outbox row's frozen payload")
    missed = sorted(receipt for receipt in marked if by_receipt.get(receipt) in owed and by_receipt[receipt] not in rescued)
    if missed:
        problems.append(f"receipts acknowledged and not settled, missing from the rescue: {', '.join(missed)}")
    return problems


def prunable(key, confirmed, created, cutoff):
    """Why retention could not have removed the row KEY in a state whose
    retention cutoff (the retention mark's clock less retention_days, in
    ms; None before the mark) is CUTOFF, given the rows seen CONFIRMED and
    the CREATED times (ms) of earlier states; None when it could: the bank
    confirmed it and it was older than retention_days."""
    if cutoff is None:
        return "no retention ran before this state"
    if key is None or key not in confirmed:
        return "no earlier state saw it confirmed (the bank never acknowledged it)"
    if key not in created:
        return "no earlier state saw it"
    if created[key] >= cutoff:
        return f"it was made at {created[key]} ms, not before retention's cutoff {cutoff} ms"
    return None


def across_states(results, lost=None):
    """What only a sequence of states shows (RESULTS in log order): the
    refresh token never goes back to a version an earlier state had left
    behind, a row the bank confirmed stays confirmed, a journal entry
    once acknowledged (up to the newest enqueue marked) never changes, and
    a receipt whose row or journal entry is gone was one retention could
    remove (prunable: confirmed, past retention at the retention mark)
    and, for its entry, behind its checkpoint. Returns problems; receipts
    gone that retention could not have removed are also added to LOST."""
    problems = []
    retired, current = set(), None
    confirmed = set()
    journal = {}
    enqueued = {}
    created = {}
    for r in results:
        # A receipt whose entry retention removed must have been seen before, confirmed, past
        # retention, with its enqueue at or below the last entry the checkpoint carries; anything
        # else was lost. The same for a receipt whose outbox row is gone after the retention mark.
        for receipt in sorted(set(r.get("pruned", [])) | set(r.get("gone", []))):
            key = r.get("keys", {}).get(receipt)
            why = prunable(key, confirmed, created, r.get("cutoff"))
            if why is None and receipt in r.get("pruned", []) and (receipt not in enqueued or enqueued[receipt] > r.get("carried", 0)):
                why = "its journal entry is not behind the checkpoint"
            if why is not None:
                problems.append(f"state after log entry {r['state']}: receipt {receipt} is gone but retention could not have removed it: {why}")
                if lost is not None:
                    lost.append(receipt)
        enqueued.update(r.get("enqueued", {}))
        created.update(r.get("created", {}))
        token = r["token"]
        if token is not None and token != current:
            if token in retired:
                problems.append(f"state after log entry {r['state']}: the refresh token went back to a version it had replaced")
            if current is not None:
                retired.add(current)
            current = token
        for key in confirmed:
            if key in r["rows"] and r["rows"][key] != "confirmed":
                problems.append(f"state after log entry {r['state']}: row {key} was confirmed in an earlier state, now {r['rows'][key]}")
        confirmed |= {key for key, state in r["rows"].items() if state == "confirmed"}
        # Journal entries up to the newest acknowledged one are durable: no later state may change them
        # (one that lost them reports them lost on its own).
        for sequence, digest in r.get("journal", {}).items():
            if journal.get(sequence, digest) != digest:
                problems.append(f"state after log entry {r['state']}: acknowledged journal entry {sequence} differs from an earlier state's")
        journal.update(r.get("journal", {}))
    return problems


def retention_cutoff(mark):
    """The cutoff (ms) of a mark retention-<clock, epoch s>-<retention_days>
    (guest/crash-states.sh puts it before it sets the clock and prunes): a
    row made before it is past retention at any prune after the mark."""
    m = re.fullmatch(r"retention-([0-9]+)-([0-9]+)", mark)
    if m is None:
        raise LogError(f"mark {mark} is not retention-<epoch s>-<days>")
    return (int(m.group(1)) - int(m.group(2)) * 86_400) * 1000


def retention_summary(results):
    """What the states after the retention mark show of the prune: the
    most rows and journal entries seen removed in one state, the states
    whose journal verified through a checkpoint (teller journal verify's
    word for it, and the Python walk's carried prefix), and the fewest
    unsettled rows past retention kept. A recording with the mark must
    show a prune that removed both and kept those; problems otherwise."""
    after = [r for r in results if r.get("cutoff") is not None]
    summary = {"states": len(after), "rows": max((len(r["gone"]) for r in after), default=0),
               "entries": max((r.get("carried", 0) for r in after), default=0),
               "checkpointed": sum(1 for r in after if r.get("through_checkpoint") and r.get("carried")),
               "kept": min((r["kept_past_cutoff"] for r in after), default=0), "problems": []}
    if after:
        last = after[-1]
        if not last["gone"] or not last.get("carried") or not last.get("through_checkpoint"):
            summary["problems"].append(f"the last state has {len(last['gone'])} rows and {last.get('carried', 0)} journal entries removed by "
                                       f"retention{'' if last.get('through_checkpoint') else ', and no journal verified through a checkpoint'}: "
                                       "the recording's prune did not happen")
        if not summary["kept"]:
            summary["problems"].append("a state after the retention mark keeps no unsettled row past retention: the prune's other half is untested")
    return summary


def replay_all(base, logpath, out):
    """The disk the guest left: BASE with every entry of LOGPATH applied, written to OUT."""
    entries, _ = read_log(logpath)
    shutil.copyfile(base, out)
    with open(out, "r+b") as image, open(logpath, "rb") as logfile:
        for entry in entries:
            apply(image, entry, logfile)
    return entries


def check(base, logpath, console, teller, max_states, work, keep=False, every_write=True, window=None):
    """Replays LOGPATH over BASE and checks the states. Returns a dict:
    durable (states at flushes, FUAs and marks), prefix (write-prefix states),
    acked, lost, torn, problems, sampled (a note or None), entries, marked,
    tokens (refresh token versions seen), confirmed (rows seen confirmed)."""
    from power_cut import acknowledged
    entries, sectorsize = read_log(logpath)
    committed = acknowledged(open(console, errors="replace").read())
    points = state_points(entries, every_write)
    if window:
        points = [i for i in points if window[0] <= i <= window[1]]
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
    cutoff = None
    final = os.path.join(os.path.dirname(os.path.abspath(logpath)), "final.img")
    cfg_reference = None
    if os.path.exists(final):
        text = run(["debugfs", "-R", f"cat {CONFIG}", final]).stdout
        cfg_reference = text.splitlines() if text else None
    # The disk as provisioned had a refresh token: every state must have one, whole.
    token_expected = "Inode:" in run(["debugfs", "-R", "stat /teller/refresh-token", base]).stdout
    with open(current, "r+b") as image, open(logpath, "rb") as logfile, ProcessPoolExecutor(max_workers=os.cpu_count() or 2) as pool:
        pending = []
        for i, entry in enumerate(entries):
            apply(image, entry, logfile)
            if entry[3] is not None and entry[3].startswith("ack-"):
                marked.add(entry[3][4:])
            if entry[3] is not None and entry[3].startswith("cfg-"):
                cfg_marked = max(cfg_marked, int(entry[3][4:]))
            if entry[3] is not None and entry[3].startswith("retention-"):
                cutoff = retention_cutoff(entry[3])
            if i in wanted:
                image.flush()
                snapshot = os.path.join(work, f"state-{i:06d}.img")
                shutil.copyfile(current, snapshot)
                pending.append(pool.submit(check_state, {
                    "image": snapshot, "state": i, "durable": durable(entry), "marked": frozenset(marked), "committed": committed,
                    "teller": teller, "keep": keep, "cfg_marked": cfg_marked, "cfg_reference": cfg_reference,
                    "token_expected": token_expected, "cutoff": cutoff}))
                # Keep the disk use bounded: a few states in flight.
                while len([p for p in pending if not p.done()]) > 6:
                    time.sleep(0.02)
        for p in pending:
            results.append(p.result())
    whole = None
    if os.path.exists(final) and os.path.basename(logpath) == "log.img":
        whole = run(["cmp", "-s", current, final]).returncode == 0
    os.unlink(current)
    problems = [f"state after log entry {r['state']}: {p}" for r in results for p in r["problems"]]
    gone_unprunable = []
    problems += across_states(results, gone_unprunable)
    retention = retention_summary(results)
    if not window:
        problems += retention["problems"]
    if whole is False:
        problems.append("the whole log replayed is not the disk the guest left: the log reader is wrong")
    return {
        "durable": sum(1 for r in results if r["durable"]), "prefix": sum(1 for r in results if not r["durable"]),
        "acked": sum(r["acked_checked"] for r in results), "lost": sum(len(r["lost"]) for r in results) + len(gone_unprunable),
        "retention": retention,
        "torn": sum(len(r["torn"]) for r in results), "problems": problems,
        "rescues": sum(r.get("rescues", 0) for r in results), "rescued": sum(r.get("rescued", 0) for r in results), "sampled": sampled, "entries": entries, "marked": marked,
        "journal_acked": sum(r.get("journal_checked", 0) for r in results),
        "journal_lost": sum(len(r.get("journal_lost", [])) for r in results),
        "tokens": len({r["token"] for r in results if r["token"]}),
        "confirmed": len({k for r in results for k, v in r["rows"].items() if v == "confirmed"}),
    }


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
    dropped = target - previous - 1 - sum(1 for e in entries[previous + 1:target] if e[3] is not None)
    # The states worth checking in the cut log: from the mark before to the next acknowledgement after.
    after = [m for m in marks if m > target]
    lo = previous
    hi = (after[0] if after else len(entries) - 1) - dropped
    return entries[target][3][4:], dropped, (lo, hi)


def edited(final, work, name, edit):
    """A copy of FINAL with its /teller/NAME replaced by EDIT(its bytes) (or removed when EDIT returns None)."""
    image = os.path.join(work, f"{name}-edited.img")
    shutil.copyfile(final, image)
    extracted = os.path.join(work, f"{name}.old")
    run(["debugfs", "-R", f"dump /teller/{name} {extracted}", image])
    with open(extracted, "rb") as f:
        content = edit(f.read())
    run(["debugfs", "-w", "-R", f"rm /teller/{name}", image])
    if content is not None:
        replacement = os.path.join(work, f"{name}.new")
        with open(replacement, "wb") as f:
            f.write(content)
        result = run(["debugfs", "-w", "-R", f"write {replacement} /teller/{name}", image])
        if result.returncode != 0:
            raise LogError(f"cannot write /teller/{name} with debugfs: {result.stderr.strip()[-200:]}")
    return image


def file_selftests(out, console, teller, work):
    """The checks beside the outbox, each fed a case it must report. Returns
    the number of cases caught out of the number tried, printing a line each."""
    from power_cut import acknowledged
    os.makedirs(work, exist_ok=True)
    final = os.path.join(out, "final.img")
    committed = acknowledged(open(console, errors="replace").read())
    results = []

    def case(name, caught):
        print(f"self-test: {'the checker reported' if caught else 'the checker did NOT report'} {name}")
        results.append(caught)

    def state(image, **extra):
        return check_state({"image": image, "state": "self-test", "marked": frozenset(), "committed": committed, "teller": teller,
                            "token_expected": True, **extra})

    # A rewrite without its fsync: the refresh token torn in half, or gone.
    found = state(edited(final, work, "refresh-token", lambda b: b[:len(b) // 2]))
    print(f"self-test torn_files: {len(found['torn'])} ({', '.join(found['torn']) or 'none'})")
    case("the refresh token torn in half", "refresh-token" in found["torn"])
    found = state(edited(final, work, "refresh-token", lambda b: None))
    case("the refresh token gone", "refresh-token" in found["torn"])
    # The journal the terminal wrote (final.img's), with one byte of one payload changed.
    case("one changed byte in a journal entry", journal_tampered(final, work))
    # What only a sequence of states shows.
    seq = [{"state": n, "token": t, "rows": r, "journal": j} for n, (t, r, j) in enumerate([
        ("A", {"k": "queued"}, {1: "a", 2: "b"}), ("B", {"k": "confirmed"}, {1: "a", 2: "b"}), ("A", {"k": "queued"}, {1: "a", 2: "c"})])]
    problems = across_states(seq)
    case("the refresh token back at a replaced version", any("went back" in p for p in problems))
    case("a confirmed row queued again in a later state", any("was confirmed in an earlier state" in p for p in problems))
    case("an acknowledged journal entry changed in a later state", any("acknowledged journal entry 2 differs" in p for p in problems))
    # The rescue's cases need confirmed rows: on the card before the recording's prune removed them.
    for name, caught in rescue_selftests(disk_at_retention_mark(out, work) or final, work, teller):
        case(name, caught)
    for name, caught in retention_selftests(out, console, teller, work):
        case(name, caught)
    return sum(results), len(results)


def rescue_selftests(final, work, teller):
    """rescue_check on the final card with one confirmed row put back to
    queued (as a card that lost the bank's answer holds it): the sound file
    must pass, and a changed byte, a changed body and a row left out must
    each be reported. Yields (case, caught)."""
    card = os.path.join(work, "rescue-card")
    shutil.rmtree(card, ignore_errors=True)
    os.makedirs(card)
    run(["debugfs", "-R", f"rdump /teller {card}", final])
    directory = os.path.join(card, "teller")
    db = sqlite3.connect(os.path.join(directory, "teller.db"))
    try:
        confirmed = [key for (key,) in db.execute("SELECT idempotency_key FROM outbox WHERE state = 'confirmed' ORDER BY id")]
        if len(confirmed) < 2:
            raise LogError(f"the final card has {len(confirmed)} confirmed rows; the rescue self-test needs 2")
        with db:
            db.execute("UPDATE outbox SET state = 'queued', host_reference = NULL WHERE idempotency_key = ?", (confirmed[0],))
        db.row_factory = sqlite3.Row
        rows = {row["idempotency_key"]: dict(row) for row in db.execute("SELECT idempotency_key, payload, state FROM outbox")}
    finally:
        db.close()
    marked = frozenset({confirmed[0][:8].upper()})
    by_receipt = {confirmed[0][:8].upper(): confirmed[0]}
    sound = rescue_check(teller, directory, work, rows, marked, by_receipt)["problems"]
    if sound:
        raise LogError(f"the rescue of a sound card was reported: {'; '.join(sound)}")
    with open(os.path.join(work, "rescue.json"), "rb") as f:
        content = f.read()
    changed = content.replace(b'"attempts":', b'"attempts":1', 1)
    yield "a rescue file with one byte changed", any("hmac_sha256 does not match" in p for p in rescue_problems(changed, rows, marked, by_receipt))
    other = {key: dict(row) for key, row in rows.items()}
    other[confirmed[0]]["payload"] = bytes(other[confirmed[0]]["payload"]).replace(b'"amount":', b'"amount":9', 1)
    yield "a rescued payment whose body is not the frozen payload", any("another body" in p for p in rescue_problems(content, other, marked, by_receipt))
    other = {key: dict(row) for key, row in rows.items()}
    other[confirmed[1]]["state"] = "sending"
    yield "a payment not acknowledged that the rescue left out", any("missing" in p for p in rescue_problems(content, other, marked, by_receipt))


def edited_database(image, work, name, statements):
    """A copy of IMAGE whose /teller/teller.db had STATEMENTS run on it,
    each table's triggers named first dropped ((table, sql) pairs), as
    someone editing the card would: read out with debugfs, changed with
    Python's sqlite3 (which folds any -wal into the file), written back in
    place of the database, its -wal and its -shm."""
    directory = os.path.join(work, f"{name}-card")
    shutil.rmtree(directory, ignore_errors=True)
    os.makedirs(directory)
    run(["debugfs", "-R", f"rdump /teller {directory}", image])
    db_path = os.path.join(directory, "teller", "teller.db")
    db = sqlite3.connect(db_path, isolation_level=None)
    try:
        for table, sql in statements:
            for (trigger,) in db.execute("SELECT name FROM sqlite_schema WHERE type = 'trigger' AND tbl_name = ?", (table,)).fetchall():
                db.execute(f"DROP TRIGGER {trigger}")
            if db.execute(sql).rowcount == 0:
                raise LogError(f"{name}: {sql} changed nothing")
    finally:
        db.close()
    copy = os.path.join(work, f"{name}.img")
    shutil.copyfile(image, copy)
    for leftover in ("teller.db", "teller.db-wal", "teller.db-shm"):
        run(["debugfs", "-w", "-R", f"rm /teller/{leftover}", copy])
    result = run(["debugfs", "-w", "-R", f"write {db_path} /teller/teller.db", copy])
    if result.returncode != 0:
        raise LogError(f"cannot write /teller/teller.db with debugfs: {result.stderr.strip()[-200:]}")
    return copy


def disk_at_retention_mark(out, work):
    """The disk rebuilt from base.img up to the recording's retention-… mark
    (a crash state there: before the prune, every drained row confirmed),
    its path; None when the recording has no such mark."""
    logpath = os.path.join(out, "log.img")
    entries, _ = read_log(logpath)
    at = [i for i, e in enumerate(entries) if e[3] and e[3].startswith("retention-")]
    if not at:
        return None
    image_path = os.path.join(work, "retention-mark.img")
    shutil.copyfile(os.path.join(out, "base.img"), image_path)
    with open(image_path, "r+b") as image, open(logpath, "rb") as logfile:
        for entry in entries[:at[0] + 1]:
            apply(image, entry, logfile)
    # The ext4 journal replayed as the next mount would, before debugfs reads or edits it.
    replay = run(["e2fsck", "-E", "journal_only", "-y", image_path])
    if replay.returncode >= 4:
        raise LogError(f"the disk at the retention mark: the ext4 journal replay failed ({replay.returncode})")
    return image_path


def retention_selftests(out, console, teller, work):
    """The prune's checks, each fed a state it must report. States of the
    real recording: the disk at its retention mark (before the prune; the
    rows the prune removes seen there, confirmed) and final.img (after it).
    The sound pair must pass; then an unacknowledged row deleted after the
    prune, a confirmed row gone before any retention, a confirmed row gone
    while not yet past retention, a checkpoint naming another hash, and the
    oldest entry kept removed behind the checkpoint's back (each of the
    last two for teller journal verify and for this checker's own walk).
    Yields (case, caught)."""
    from power_cut import acknowledged
    logpath, final = os.path.join(out, "log.img"), os.path.join(out, "final.img")
    entries, _ = read_log(logpath)
    at = [i for i, e in enumerate(entries) if e[3] and e[3].startswith("retention-")]
    if len(at) != 1:
        raise LogError(f"the recording has {len(at)} retention marks, not 1: record it again (deploy/vm/crash-states --record-fixture)")
    cutoff = retention_cutoff(entries[at[0]][3])
    acks = [(i, e[3][4:]) for i, e in enumerate(entries) if e[3] and e[3].startswith("ack-")]
    marked, marked_before = frozenset(r for _, r in acks), frozenset(r for i, r in acks if i < at[0])
    committed = acknowledged(open(console, errors="replace").read())
    by_receipt = {key[:8].upper(): key for key in committed}
    pre = disk_at_retention_mark(out, work)

    def state(image, name, **job):
        copy = os.path.join(work, f"{name}-state.img")
        shutil.copyfile(image, copy)
        return check_state({"image": copy, "state": name, "marked": marked, "committed": committed, "teller": teller,
                            "token_expected": True, "cutoff": cutoff, **job})

    before = state(pre, "at-the-retention-mark", marked=marked_before)
    after = state(final, "final")
    sound = before["problems"] + after["problems"] + across_states([before, after])
    if sound or not after["gone"] or not after["carried"] or not after["kept_past_cutoff"]:
        raise LogError(f"the recording's own prune ({len(after['gone'])} rows, {after['carried']} journal entries gone, "
                       f"{after['kept_past_cutoff']} unsettled kept) was reported or is missing: {'; '.join(sound)[:600]}")
    print(f"self-test retention: at the mark {len(before['rows'])} rows; after the prune receipts {', '.join(after['gone'])} gone, "
          f"journal entries to {after['carried']} behind the checkpoint, {after['kept_past_cutoff']} unsettled past retention kept: no problem")

    def reported(name, problems, needle):
        hits = [p for p in problems if needle in p]
        print(f"self-test retention reported: {hits[0] if hits else 'nothing about ' + repr(needle)} ({name})")
        return bool(hits)

    # An unacknowledged (queued) row deleted after the prune: nothing but a prune removes a row, and no prune may remove this one.
    queued = sorted(r for r in marked if after["rows"].get(by_receipt.get(r)) in UNACKNOWLEDGED)
    bad = state(edited_database(final, work, "unacknowledged-deleted",
                                [("outbox", f"DELETE FROM outbox WHERE idempotency_key = '{by_receipt[queued[0]]}'")]), "unacknowledged-deleted")
    lost = []
    problems = across_states([before, bad], lost)
    yield (f"an unacknowledged row deleted after the prune (receipt {queued[0]})",
           reported("unacknowledged row deleted", problems, f"receipt {queued[0]} is gone but retention could not") and lost == [queued[0]])
    # A confirmed row gone from the disk before the retention mark.
    victim = after["gone"][0]
    bad = state(edited_database(pre, work, "confirmed-deleted-early",
                                [("outbox", f"DELETE FROM outbox WHERE idempotency_key = '{by_receipt[victim]}'")]),
                "confirmed-deleted-early", marked=marked_before, cutoff=None)
    yield (f"a confirmed row gone before any retention ran (receipt {victim})",
           reported("confirmed row gone early", bad["problems"], "acknowledged receipts lost: ") and bad["lost"] == [victim])
    # The same prune judged against a cutoff before the rows were made: they were not past retention.
    young = dict(after, cutoff=min(before["created"][after["keys"][r]] for r in after["gone"]))
    yield ("confirmed rows gone while not yet past retention",
           reported("rows gone too young", across_states([before, young]), "not before retention's cutoff"))
    # The checkpoint naming another hash than the last entry it removed.
    bad = state(edited_database(final, work, "checkpoint-changed", [("journal", "UPDATE journal SET payload = replace(payload, "
                                                                                 "'\"through_hash\":\"', '\"through_hash\":\"0') WHERE kind = 'checkpoint'")]),
                "checkpoint-changed")
    yield ("a checkpoint naming another hash: teller journal verify", reported("checkpoint changed", bad["problems"], "teller journal verify exit"))
    yield ("a checkpoint naming another hash: the checker's own walk", reported("checkpoint changed", bad["problems"], "journal chain broken"))
    # The oldest entry kept removed: a prefix no checkpoint carries.
    bad = state(edited_database(final, work, "uncarried", [("journal", "DELETE FROM journal WHERE sequence = (SELECT min(sequence) FROM journal)")]),
                "uncarried")
    yield ("the oldest journal entry kept removed behind the checkpoint's back: teller journal verify",
           reported("uncarried", bad["problems"], "teller journal verify exit"))
    yield ("the oldest journal entry kept removed behind the checkpoint's back: the checker's own walk",
           reported("uncarried", bad["problems"], "journal chain broken: entry 1: gap in the sequence"))


def journal_tampered(final, work):
    """Whether the chain check reports final.img's journal with one byte of
    its last enqueue's payload changed (read out with debugfs, edited in a
    copy with the guarding trigger dropped, as someone editing it would)."""
    copy = os.path.join(work, "journal-tamper")
    shutil.rmtree(copy, ignore_errors=True)
    os.makedirs(copy)
    run(["debugfs", "-R", f"rdump /teller {copy}", final])
    db_path = os.path.join(copy, "teller", "teller.db")
    if not os.path.exists(db_path):
        return False
    db = sqlite3.connect(db_path, isolation_level=None)
    try:
        db.row_factory = sqlite3.Row
        before, highest = read_journal(db)
        if not before or verify_journal(before, highest)[1] is not None:
            return False
        target = max(row["sequence"] for row in before if row["kind"] in ENQUEUE_KINDS)
        db.execute("DROP TRIGGER journal_never_updated")
        db.execute("UPDATE journal SET payload = replace(payload, '\"amount\":', '\"amount\":9') WHERE sequence = ?", (target,))
        after, highest = read_journal(db)
    finally:
        db.close()
    return verify_journal(after, highest)[1] == f"entry {target}: hash mismatch"


def record(args):
    from teller_vm import Guest, set_link
    from power_cut import acknowledged
    logdisk = os.path.join(args.out, "log.img")
    with open(logdisk, "wb") as f:
        f.truncate(args.log_mib * 1024 * 1024)
    network = None
    if args.host_port:
        network = {"host_port": args.host_port, "relay": args.relay, "link_monitor": args.link_monitor}
    guest = Guest(args.kernel, args.initrd, args.disk, args.out, "none", "crash-states", f"teller.deposits={args.deposits}",
                  network=network, control_socket=args.control_socket, extra_disks=[logdisk])
    failures, done = [], False
    marks = []
    links = []
    pruned, journal = None, None
    try:
        for line in guest.lines(time.time() + args.timeout):
            if line.startswith("MARKED "):
                marks.append(line.split()[1])
            elif line.startswith("PRUNED "):
                try:
                    pruned = json.loads(line[len("PRUNED "):])
                except ValueError:
                    failures.append(f"teller ctl prune answered no JSON: {line[:300]}")
            elif line.startswith("JOURNAL "):
                journal = line[len("JOURNAL "):].strip()
            elif line.startswith("LINK "):
                up = line.split()[1] == "up"
                complaint = set_link(guest.monitor, up) if network else "the recording has no network"
                links.append(line.split()[1])
                log(f"link {line.split()[1]}{': ' + complaint if complaint else ''}")
                if complaint:
                    failures.append(f"set_link: {complaint}")
                guest.reply("FAIL " + complaint if complaint else "OK")
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
    log(f"recorded in {time.time() - guest.started:.0f} s: {len(committed)} commits logged, {len(marks)} marks, link {' then '.join(links) or 'never cut'}")
    if not done:
        failures.append(f"the guest session did not finish (console {guest.console})")
    acks = [m for m in marks if m.startswith("ack-")]
    if len(acks) != len(committed):
        failures.append(f"{len(acks)} receipt marks for {len(committed)} logged commits")
    if len([m for m in marks if m.startswith("cfg-")]) != 5:
        failures.append(f"{len([m for m in marks if m.startswith('cfg-')])} config write marks, not 5")
    drains = [m for m in marks if m.startswith("drained-")]
    if len(drains) != (args.deposits - 1) // 10 + 1:
        failures.append(f"{len(drains)} drained marks for {args.deposits} deposits: the queue was not seen drained every ten and at the end")
    # Then cut once more for retention: the moved clock must not meet the bank's.
    if links != ["down", "up"] * len(drains) + ["down"] or not drains:
        failures.append(f"the link went {' then '.join(links) or 'nowhere'}, not down then up once per drain, then down")
    if [m for m in marks if m.startswith("retention-")] == [] or "pruned" not in marks:
        failures.append("no retention-… and pruned marks: the session's prune did not run")
    removed = (pruned or {}).get("removed") or {}
    log(f"teller ctl prune: {json.dumps(pruned)}")
    if not removed.get("outbox_rows") or not removed.get("journal_entries"):
        failures.append(f"teller ctl prune removed {removed.get('outbox_rows')} payments and {removed.get('journal_entries')} journal entries; "
                        "the recording needs both")
    log(f"teller journal verify after the prune: {journal}")
    if not journal or not journal.startswith("ok") or "checkpoint" not in journal:
        failures.append(f"teller journal verify after the prune did not say ok through a checkpoint: {journal}")
    for f in failures:
        log("FAIL " + f)
    return 1 if failures else 0


FIXTURE_FILES = ("base.img", "log.img", "console.log")


def used_length(logpath):
    """Bytes of LOGPATH that hold its super block and entries (the rest of the log disk is unused)."""
    entries, sectorsize = read_log(logpath)
    position = 1
    for sector, nr_sectors, flags, mark, offset in entries:
        data = 0 if (mark is not None or flags & DISCARD) else (nr_sectors * 512 + sectorsize - 1) // sectorsize
        position += 1 + data
    return position * sectorsize


def sha256(path):
    import hashlib
    h = hashlib.sha256()
    with open(path, "rb") as f:
        for block in iter(lambda: f.read(1 << 20), b""):
            h.update(block)
    return h.hexdigest()


def pack_fixture(args):
    """The recording in ARGS.out as the committed fixture in ARGS.fixture: the
    disk as provisioned, the log cut to its used length and the console,
    each xz-compressed, and fixture.txt with what the replay must give."""
    os.makedirs(args.fixture, exist_ok=True)
    logpath = os.path.join(args.out, "log.img")
    entries, _ = read_log(logpath)
    used = used_length(logpath)
    for name in FIXTURE_FILES:
        source = os.path.join(args.out, name)
        length = used if name == "log.img" else os.path.getsize(source)
        with open(source, "rb") as src, open(os.path.join(args.fixture, name + ".xz"), "wb") as dst:
            xz = subprocess.Popen(["xz", "-9", "-T1", "-c"], stdin=subprocess.PIPE, stdout=dst)
            left = length
            while left:
                block = src.read(min(left, 1 << 20))
                if not block:
                    break
                xz.stdin.write(block)
                left -= len(block)
            xz.stdin.close()
            if xz.wait() != 0:
                raise LogError(f"xz failed on {source}")
    marks = [e[3] for e in entries if e[3]]
    with open(os.path.join(args.fixture, "fixture.txt"), "w") as f:
        f.write("# The crash-states fixture (deploy/vm/crash-states --fixture checks it; --record-fixture writes it again).\n")
        f.write(f"recorded {time.strftime('%Y-%m-%d %H:%M UTC', time.gmtime())} from commit {args.commit}\n")
        f.write(f"base.img bytes {os.path.getsize(os.path.join(args.out, 'base.img'))}\n")
        f.write(f"log.img bytes {used} (of {os.path.getsize(logpath)}), {len(entries)} entries, "
                f"{len(state_points(entries, False))} flush, FUA and mark points, {len(marks)} marks\n")
        f.write(f"final.img sha256 {sha256(os.path.join(args.out, 'final.img'))}\n")
    log(f"fixture written to {args.fixture}: " + ", ".join(f"{n} {os.path.getsize(os.path.join(args.fixture, n))} bytes"
                                                          for n in sorted(os.listdir(args.fixture))))
    return 0


def unpack_fixture(args):
    """The fixture in ARGS.fixture as a recording in ARGS.out; final.img
    rebuilt by replaying the whole log, which must give the recorded disk's sha256."""
    os.makedirs(args.out, exist_ok=True)
    info = open(os.path.join(args.fixture, "fixture.txt")).read()
    for name in FIXTURE_FILES:
        with open(os.path.join(args.fixture, name + ".xz"), "rb") as src, open(os.path.join(args.out, name), "wb") as dst:
            if subprocess.run(["xz", "-dc"], stdin=src, stdout=dst).returncode != 0:
                raise LogError(f"xz cannot read {name}.xz in {args.fixture}")
    base_bytes = int(re.search(r"^base.img bytes ([0-9]+)$", info, re.M).group(1))
    if os.path.getsize(os.path.join(args.out, "base.img")) != base_bytes:
        raise LogError(f"base.img.xz gives {os.path.getsize(os.path.join(args.out, 'base.img'))} bytes, fixture.txt says {base_bytes}")
    final = os.path.join(args.out, "final.img")
    replay_all(os.path.join(args.out, "base.img"), os.path.join(args.out, "log.img"), final)
    want = re.search(r"^final.img sha256 ([0-9a-f]{64})$", info, re.M).group(1)
    got = sha256(final)
    if got != want:
        raise LogError(f"the whole log replayed gives a disk with sha256 {got}, fixture.txt says {want}: the reader or the fixture is wrong")
    log(f"fixture {args.fixture} unpacked to {args.out}; the whole log replayed gives the recorded disk (sha256 {want[:12]}…)")
    return 0


def main():
    ap = argparse.ArgumentParser()
    sub = ap.add_subparsers(dest="command", required=True)
    r = sub.add_parser("record")
    r.add_argument("--kernel", required=True)
    r.add_argument("--initrd", required=True)
    r.add_argument("--disk", required=True)
    r.add_argument("--out", required=True)
    r.add_argument("--control-socket", required=True)
    r.add_argument("--host-port", type=int, help="the reference host on 127.0.0.1 (the drain)")
    r.add_argument("--link-monitor", help="qemu's second monitor, for the link")
    r.add_argument("--relay", help="loopback-relay.py")
    r.add_argument("--deposits", type=int, default=int(os.environ.get("CRASH_STATES_DEPOSITS", "64")))
    r.add_argument("--log-mib", type=int, default=512)
    r.add_argument("--timeout", type=int, default=int(os.environ.get("CRASH_STATES_TIMEOUT", "3600")))
    for name in ("pack-fixture", "unpack-fixture"):
        f = sub.add_parser(name)
        f.add_argument("--out", required=True, help="the recording")
        f.add_argument("--fixture", required=True, help="the fixture directory (qa/crash-states/fixture)")
        f.add_argument("--commit", default="unknown")
    for name in ("check", "selftest"):
        c = sub.add_parser(name)
        c.add_argument("--out", required=True, help="the recording: base.img, log.img, console.log")
        c.add_argument("--teller", required=True)
        c.add_argument("--max-states", type=int, default=2000)
        c.add_argument("--keep", action="store_true", help="keep the data directories of failing states")
        c.add_argument("--durable-points-only", action="store_true",
                       help="rebuild the disk only at flushes, FUAs and marks, not after every other write too")
        c.add_argument("--min-states", type=int, default=500, help="fail with fewer states at flushes, FUAs and marks (default 500)")
    args = ap.parse_args()
    args.out = os.path.abspath(args.out)  # teller status wants an absolute --data-dir
    if args.command == "record":
        return record(args)
    if args.command == "pack-fixture":
        return pack_fixture(args)
    if args.command == "unpack-fixture":
        return unpack_fixture(args)
    base = os.path.join(args.out, "base.img")
    console = os.path.join(args.out, "console.log")
    work = os.path.join(args.out, "work")
    shutil.rmtree(work, ignore_errors=True)
    started = time.time()
    if args.command == "selftest":
        cut = os.path.join(args.out, "cut-log.img")
        receipt, dropped, window = cut_log(os.path.join(args.out, "log.img"), cut)
        log(f"self-test: {dropped} log entries before mark ack-{receipt} dropped, the mark kept; "
            f"states at the flushes, FUAs and marks of entries {window[0]} to {window[1]}")
        result = check(base, cut, console, args.teller, 0, work, args.keep, False, window)
        print(f"self-test crash_states_checked: {result['durable']}")
        print(f"self-test acknowledged_lost: {result['lost']}")
        for p in result["problems"][:5]:
            print(f"self-test reported: {p}")
        caught = result["lost"] > 0 and any(receipt in p for p in result["problems"])
        print(f"self-test: {'the checker reported' if caught else 'the checker did NOT report'} the loss of receipt {receipt}")
        print(f"self-test acknowledged_journal_entries_lost: {result['journal_lost']}")
        journal_caught = result["journal_lost"] > 0 and any("journal" in p and receipt in p for p in result["problems"])
        print(f"self-test: {'the checker reported' if journal_caught else 'the checker did NOT report'} the loss of receipt {receipt}'s journal entry")
        others, tried = file_selftests(args.out, console, args.teller, work)
        print(f"self-test: {others + caught + journal_caught} of {tried + 2} bad cases reported")
        return 0 if caught and journal_caught and others == tried else 1
    result = check(base, os.path.join(args.out, "log.img"), console, args.teller, args.max_states, work, args.keep,
                   not args.durable_points_only)
    log(f"{len(result['entries'])} log entries, {len(result['marked'])} receipts marked, {result['confirmed']} rows seen confirmed, "
        f"{result['tokens']} refresh token versions seen; checked in {time.time() - started:.0f} s")
    if result["sampled"]:
        print(result["sampled"])
    print(f"crash_states_checked: {result['durable']}")
    print(f"acknowledged_rows_checked: {result['acked']}")
    print(f"acknowledged_lost: {result['lost']}")
    print(f"acknowledged_journal_entries_checked: {result['journal_acked']}")
    print(f"acknowledged_journal_entries_lost: {result['journal_lost']}")
    print(f"torn_files: {result['torn']}")
    print(f"rescues_checked: {result['rescues']} (teller rescue of the state's card: the card unchanged, the file's hmac, "
          f"every payment not acknowledged with its frozen body; {result['rescued']} payments carried in all)")
    retention = result["retention"]
    print(f"retention_states_checked: {retention['states']} (after the retention mark: up to {retention['rows']} acknowledged rows and "
          f"{retention['entries']} journal entries gone, each confirmed and past retention; the journal verified through its checkpoint "
          f"by teller journal verify and by this checker's own walk in {retention['checkpointed']}; at least {retention['kept']} "
          f"unsettled rows past retention kept in every one)")
    if not args.durable_points_only:
        print(f"write_prefix_states_checked: {result['prefix']} (besides the above: after every other logged write)")
    for p in result["problems"][:20]:
        log("FAIL " + p)
    if len(result["problems"]) > 20:
        log(f"... and {len(result['problems']) - 20} more")
    if result["durable"] < args.min_states:
        log(f"FAIL {result['durable']} crash states at flushes, FUAs and marks, fewer than {args.min_states}")
    ok = (result["lost"] == 0 and result["journal_lost"] == 0 and result["torn"] == 0 and result["durable"] >= args.min_states
          and not result["problems"])
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
