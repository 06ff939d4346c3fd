"""The crash-state checker's journal checks (deploy/vm/crash_states.py) on
real SQLite files, without a VM: the chain as Teller writes it, the first
broken entry named, acknowledged entries lost, and an acknowledged entry
changed across states. Run: python3 -m unittest discover -s deploy/vm/tests"""

import json
import os
import sqlite3
import sys
import tempfile
import unittest

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."))
import crash_states  # noqa: E402

# The journal table and its guards as schema version 5 makes them (Sources/TellerData/Store/Schema.swift).
SCHEMA = """
CREATE TABLE journal (
    sequence INTEGER PRIMARY KEY AUTOINCREMENT, time_ms INTEGER NOT NULL, kind TEXT NOT NULL, operator_id TEXT NOT NULL,
    supervisor_id TEXT, payload TEXT NOT NULL, prev_hash TEXT NOT NULL, hash TEXT NOT NULL);
CREATE TRIGGER journal_never_updated BEFORE UPDATE ON journal BEGIN
    SELECT RAISE(ABORT, 'the journal is append-only: entries are never changed'); END;
CREATE TRIGGER journal_never_deleted BEFORE DELETE ON journal BEGIN
    SELECT RAISE(ABORT, 'the journal is append-only: entries are never deleted'); END;
"""

KEYS = ["0b6f3c52-8a43-4b8e-9d6a-3f1a2b4c5de1", "5d0e7a1c-2f64-4b9a-8c11-77e0c3a9b402", "7e110000-1111-4c00-8000-000000000003"]


class JournalFile:
    """A teller.db's journal written as TellerStore.appendJournal writes it."""

    def __init__(self, directory):
        self.path = os.path.join(directory, "teller.db")
        self.db = sqlite3.connect(self.path, isolation_level=None)
        self.db.row_factory = sqlite3.Row
        self.db.executescript(SCHEMA)

    def append(self, kind, payload, operator="1001", supervisor=None, time_ms=1_795_000_000_000):
        last = self.db.execute("SELECT sequence, hash FROM journal ORDER BY sequence DESC LIMIT 1").fetchone()
        sequence, previous = (last["sequence"] + 1, last["hash"]) if last else (1, crash_states.JOURNAL_GENESIS)
        row = {"sequence": sequence, "time_ms": time_ms + sequence, "kind": kind, "operator_id": operator, "supervisor_id": supervisor,
               "payload": json.dumps(payload, separators=(",", ":"), sort_keys=True)}
        row["prev_hash"], row["hash"] = previous, crash_states.journal_hash(previous, row)
        self.db.execute("INSERT INTO journal (sequence, time_ms, kind, operator_id, supervisor_id, payload, prev_hash, hash)"
                        " VALUES (:sequence, :time_ms, :kind, :operator_id, :supervisor_id, :payload, :prev_hash, :hash)", row)

    def day(self):
        """A sign-in, three deposits, a confirmation."""
        self.append("sign_in", {"mode": "online"})
        for index, key in enumerate(KEYS):
            self.append("payment_enqueued", {"key": key, "transaction": "deposit", "amount": 1000 * (index + 1), "currency": "EUR"})
        self.append("payment_confirmed", {"key": KEYS[0], "host_reference": "H20261129-0000042"})

    def prune(self, through, day="2026-01-01"):
        """As TellerStore.pruneStep removes entries 1..THROUGH: a checkpoint
        naming the last one's sequence and hash, appended to the chain, then
        the prefix deleted (the test's schema has no delete trigger to ask)."""
        last = self.db.execute("SELECT hash FROM journal WHERE sequence = ?", (through,)).fetchone()
        first = self.db.execute("SELECT min(sequence) FROM journal").fetchone()[0]
        self.append("checkpoint", {"first": first, "through": through, "through_hash": last["hash"], "through_day": day,
                                   "entries": through - first + 1}, operator="0000")
        self.db.execute("DROP TRIGGER IF EXISTS journal_never_deleted")
        self.db.execute("DELETE FROM journal WHERE sequence <= ?", (through,))

    def tamper(self, sql, trigger):
        self.db.execute(f"DROP TRIGGER {trigger}")
        self.db.execute(sql)

    def read(self):
        return crash_states.read_journal(self.db)


class JournalChecksTests(unittest.TestCase):

    def setUp(self):
        self.directory = tempfile.TemporaryDirectory()
        self.file = JournalFile(self.directory.name)

    def tearDown(self):
        self.file.db.close()
        self.directory.cleanup()

    def test_the_hash_is_the_one_the_swift_writer_makes(self):
        # The same vectors as JournalTests.theChainIsSHA256AsDocumented (Swift).
        first = {"sequence": 1, "time_ms": 1_795_000_000_123, "kind": "sign_in", "operator_id": "1001", "supervisor_id": None,
                 "payload": '{"mode":"online"}'}
        first_hash = crash_states.journal_hash(crash_states.JOURNAL_GENESIS, first)
        self.assertEqual(first_hash, "8e9743525ef000b93495a9329b2214baa42cc625dbecb1b6626e3cb0ecc7affb")
        second = {"sequence": 2, "time_ms": 1_795_000_000_456, "kind": "supervisor_approval", "operator_id": "1001",
                  "supervisor_id": "2002", "payload": '{"note":"café \\"q\\""}'}
        self.assertEqual(crash_states.journal_hash(first_hash, second), "9da51eea4a80ca86db877f2a9ed19e395f3c87bbdfae3183ffabe6fc3c5b499c")
        self.assertIsNone(crash_states.journal_hash("not hex", second))

    def test_an_intact_journal_verifies(self):
        self.file.day()
        rows, highest = self.file.read()
        self.assertEqual(crash_states.verify_journal(rows, highest), (5, None))

    def test_one_changed_byte_is_named(self):
        self.file.day()
        self.file.tamper("UPDATE journal SET payload = replace(payload, '\"amount\":2000', '\"amount\":2001') WHERE sequence = 3",
                         "journal_never_updated")
        rows, highest = self.file.read()
        self.assertEqual(crash_states.verify_journal(rows, highest), (2, "entry 3: hash mismatch"))

    def test_a_deleted_middle_entry_is_a_gap(self):
        self.file.day()
        self.file.tamper("DELETE FROM journal WHERE sequence = 3", "journal_never_deleted")
        rows, highest = self.file.read()
        self.assertEqual(crash_states.verify_journal(rows, highest), (2, "entry 3: gap in the sequence (entry 4 follows entry 2)"))

    def test_removed_newest_entries_are_a_gap_too(self):
        self.file.day()
        self.file.tamper("DELETE FROM journal WHERE sequence >= 4", "journal_never_deleted")
        rows, highest = self.file.read()
        count, broken = crash_states.verify_journal(rows, highest)
        self.assertEqual(count, 3)
        self.assertIn("entry 4: gap in the sequence", broken)

    def test_a_rewritten_link_is_a_prev_hash_mismatch(self):
        self.file.day()
        self.file.tamper("UPDATE journal SET prev_hash = (SELECT hash FROM journal WHERE sequence = 1) WHERE sequence = 4",
                         "journal_never_updated")
        rows, highest = self.file.read()
        self.assertEqual(crash_states.verify_journal(rows, highest)[1], "entry 4: prev_hash mismatch")

    def test_every_marked_receipt_needs_its_enqueue_entry(self):
        self.file.append("sign_in", {"mode": "online"})
        self.file.append("payment_enqueued", {"key": KEYS[0], "amount": 100})
        self.file.append("reversal", {"key": KEYS[1], "reverses": KEYS[0], "amount": 100})
        rows, highest = self.file.read()
        by_receipt = {key[:8].upper(): key for key in KEYS}
        found = crash_states.journal_check(rows, highest, {"0B6F3C52", "5D0E7A1C"}, by_receipt)
        self.assertEqual((found["checked"], found["lost"], found["problems"]), (2, [], []))
        self.assertEqual(sorted(found["acked"]), [1, 2, 3], "the newest acknowledged entry and every entry before it")
        # A third receipt marked whose commit is not in this state: its entry is lost.
        found = crash_states.journal_check(rows, highest, {"0B6F3C52", "5D0E7A1C", "7E110000"}, by_receipt)
        self.assertEqual(found["lost"], ["7E110000"])
        self.assertTrue(any("acknowledged journal entries lost" in p and "7E110000" in p for p in found["problems"]), found["problems"])

    def test_a_file_without_a_journal_loses_every_marked_receipt(self):
        db = sqlite3.connect(os.path.join(self.directory.name, "old.db"))
        db.execute("CREATE TABLE outbox (id INTEGER PRIMARY KEY)")
        rows, highest = crash_states.read_journal(db)
        db.close()
        self.assertEqual((rows, highest), (None, None))
        self.assertEqual(crash_states.journal_check(None, None, {"0B6F3C52"}, {})["lost"], ["0B6F3C52"])
        self.assertEqual(crash_states.journal_check(None, None, set(), {})["problems"], [], "nothing acknowledged, nothing lost")

    def test_a_broken_chain_is_a_problem_of_the_state(self):
        self.file.day()
        self.file.tamper("UPDATE journal SET kind = 'void' WHERE sequence = 2", "journal_never_updated")
        rows, highest = self.file.read()
        found = crash_states.journal_check(rows, highest, set(), {})
        self.assertEqual(found["problems"], ["journal chain broken: entry 2: hash mismatch"])

    def test_an_acknowledged_entry_must_not_change_in_a_later_state(self):
        states = [{"state": n, "token": None, "rows": {}, "journal": j} for n, j in enumerate([{1: "a", 2: "b"}, {1: "a", 2: "b", 3: "c"}, {1: "a", 2: "x"}])]
        problems = crash_states.across_states(states)
        self.assertEqual(problems, ["state after log entry 2: acknowledged journal entry 2 differs from an earlier state's"])
        # Entries past the newest acknowledged one (a confirmation not yet made durable) may differ: they are not listed.
        self.assertEqual(crash_states.across_states([{"state": 0, "token": None, "rows": {}, "journal": {1: "a"}},
                                                     {"state": 1, "token": None, "rows": {}, "journal": {1: "a"}}]), [])


class CheckpointTests(unittest.TestCase):
    """Schema 6: retention removes a prefix behind a checkpoint entry."""

    def setUp(self):
        self.directory = tempfile.TemporaryDirectory()
        self.file = JournalFile(self.directory.name)
        self.file.day()
        self.file.day()

    def tearDown(self):
        self.file.db.close()
        self.directory.cleanup()

    def test_a_pruned_journal_verifies_from_its_checkpoint(self):
        self.file.prune(5)
        rows, highest = self.file.read()
        self.assertEqual(rows[0]["sequence"], 6)
        self.assertEqual(crash_states.verify_journal(rows, highest), (6, None), "entries 6 to 11, the checkpoint last")
        first, _, carrier, broken = crash_states.journal_start(rows)
        self.assertEqual((first, carrier["sequence"], broken), (6, 11, None))
        # A second prune carries over the first checkpoint too.
        self.file.append("sign_in", {"mode": "online"})
        self.file.prune(11)
        rows, highest = self.file.read()
        self.assertEqual(crash_states.verify_journal(rows, highest), (2, None))

    def test_one_changed_byte_after_pruning_is_named(self):
        self.file.prune(5)
        self.file.tamper("UPDATE journal SET payload = replace(payload, '\"amount\":2000', '\"amount\":2001') WHERE sequence = 8",
                         "journal_never_updated")
        rows, highest = self.file.read()
        self.assertEqual(crash_states.verify_journal(rows, highest), (2, "entry 8: hash mismatch"))

    def test_a_checkpoint_that_names_another_hash_is_caught(self):
        self.file.prune(5)
        self.file.tamper("UPDATE journal SET payload = replace(payload, '\"through_hash\":\"', '\"through_hash\":\"0') WHERE kind = 'checkpoint'",
                         "journal_never_updated")
        rows, highest = self.file.read()
        self.assertEqual(crash_states.verify_journal(rows, highest), (0, "entry 6: prev_hash mismatch"))

    def test_a_prefix_removed_without_a_checkpoint_is_a_gap(self):
        self.file.tamper("DELETE FROM journal WHERE sequence <= 3", "journal_never_deleted")
        rows, highest = self.file.read()
        count, broken = crash_states.verify_journal(rows, highest)
        self.assertEqual(count, 0)
        self.assertIn("entries 1 to 3 are missing and no checkpoint carries the chain", broken)

    def test_a_receipt_behind_the_checkpoint_is_pruned_not_lost_if_it_was_confirmed_below_it(self):
        by_receipt = {key[:8].upper(): key for key in KEYS}
        rows, highest = self.file.read()
        before = crash_states.journal_check(rows, highest, {"5D0E7A1C"}, by_receipt)
        self.assertEqual((before["lost"], before["enqueued"]), ([], {"5D0E7A1C": 8}))
        self.file.prune(10)
        rows, highest = self.file.read()
        after = crash_states.journal_check(rows, highest, {"5D0E7A1C"}, by_receipt)
        self.assertEqual((after["lost"], after["pruned"], after["carried"], after["problems"]), ([], ["5D0E7A1C"], 10, []))
        seen = {"state": 0, "token": None, "rows": {KEYS[1]: "confirmed"}, "journal": {}, "enqueued": before["enqueued"],
                "created": {KEYS[1]: 1_000}}
        gone = {"state": 1, "token": None, "rows": {}, "journal": {}, "pruned": ["5D0E7A1C"], "carried": 10, "keys": {"5D0E7A1C": KEYS[1]},
                "cutoff": 2_000}
        self.assertEqual(crash_states.across_states([seen, gone]), [])
        # Never seen confirmed, enqueued after what the checkpoint carries, not past retention, or
        # gone with no retention mark before: lost, not pruned.
        self.assertEqual(len(crash_states.across_states([dict(seen, rows={KEYS[1]: "queued"}), gone])), 1)
        self.assertEqual(len(crash_states.across_states([seen, dict(gone, carried=5)])), 1)
        self.assertEqual(len(crash_states.across_states([seen, dict(gone, cutoff=1_000)])), 1)
        self.assertEqual(len(crash_states.across_states([seen, dict(gone, cutoff=None)])), 1)
        self.assertEqual(len(crash_states.across_states([gone])), 1)


class RetentionAcrossStatesTests(unittest.TestCase):
    """A row gone after the retention mark (check_state's "gone") is
    prunable only if an earlier state saw it confirmed and made before the
    cutoff; the receipts that were not are LOST."""

    seen = {"state": 0, "token": None, "rows": {KEYS[0]: "confirmed", KEYS[1]: "queued"}, "journal": {},
            "created": {KEYS[0]: 1_000, KEYS[1]: 1_500}}
    receipts = {key[:8].upper(): key for key in KEYS}

    def gone(self, *keys, cutoff=2_000):
        return {"state": 1, "token": None, "rows": {}, "journal": {}, "gone": [k[:8].upper() for k in keys],
                "keys": {k[:8].upper(): k for k in keys}, "cutoff": cutoff}

    def test_a_confirmed_row_past_retention_may_go(self):
        lost = []
        self.assertEqual(crash_states.across_states([self.seen, self.gone(KEYS[0])], lost), [])
        self.assertEqual(lost, [])

    def test_a_queued_row_past_retention_must_stay(self):
        lost = []
        problems = crash_states.across_states([self.seen, self.gone(KEYS[1])], lost)
        self.assertEqual(lost, ["5D0E7A1C"])
        self.assertIn("no earlier state saw it confirmed", problems[0])

    def test_a_confirmed_row_not_yet_past_retention_must_stay(self):
        lost = []
        problems = crash_states.across_states([self.seen, self.gone(KEYS[0], cutoff=1_000)], lost)
        self.assertEqual(lost, ["0B6F3C52"])
        self.assertIn("not before retention's cutoff", problems[0])

    def test_a_row_never_seen_is_not_prunable(self):
        self.assertEqual(len(crash_states.across_states([self.gone(KEYS[2])])), 1)

    def test_the_cutoff_of_a_retention_mark(self):
        self.assertEqual(crash_states.retention_cutoff("retention-1800000000-30"), (1_800_000_000 - 30 * 86_400) * 1000)
        with self.assertRaises(crash_states.LogError):
            crash_states.retention_cutoff("retention-soon")


if __name__ == "__main__":
    unittest.main()
