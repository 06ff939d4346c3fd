"""Rescue files (docs/host-api.md §12): a dead terminal's payments imported by
another terminal of its branch, each posted once under its original key and
the dead terminal's id, whatever the dead terminal had sent; the signature
checked with the dead terminal's key; a second import posts nothing."""

import hashlib
import hmac
import json
import unittest

from hostprocess import LOW, RICH, HostProcess, HostTestCase, body, encode, new_key

DEAD, DEAD_SECRET = "T-0001", "demo-secret-T-0001"
IMPORTER, IMPORTER_SECRET = "T-0002", "demo-secret-T-0002"


def rescue_file(payments, terminal=DEAD, secret=DEAD_SECRET, till_events=(), journal=()):
    """A rescue file as Sources/TellerData/Rescue/RescueFile.swift writes one: the document's exact
    bytes signed with HMAC-SHA256 under HMAC-SHA256(secret, "teller rescue file v1")."""
    doc = {"format": "teller-rescue", "version": 1, "terminal_id": terminal, "created_at": "2026-12-04T10:00:00.000Z",
           "teller_version": "test", "source": {"directory": "/mnt/card/var/lib/teller", "schema_version": 5, "log": "recovered",
                                                "log_bytes": 4096},
           "counts": {"payments": len(payments), "till_events": len(till_events), "journal_entries": len(journal)},
           "payments": [{"idempotency_key": key, "state": "queued", "body": raw.decode(), "created_at": "2026-12-04T09:00:00.000Z",
                         "attempts": 0} for key, raw in payments],
           "till_events": [{"idempotency_key": key, "till_id": 1, "event": "opened", "body": raw.decode(),
                            "created_at": "2026-12-04T08:00:00.000Z", "attempts": 0} for key, raw in till_events],
           "journal_scope": {"since": "whole_journal", "after_sequence": 0}, "journal": list(journal)}
    signed = json.dumps(doc, separators=(",", ":"), sort_keys=True).encode()
    key = hmac.new(secret.encode(), b"teller rescue file v1", hashlib.sha256).digest()
    tag = hmac.new(key, signed, hashlib.sha256).hexdigest()
    return b'{"hmac_sha256":"' + tag.encode() + b'","rescue":' + signed + b"}\n"


def frozen(doc):
    return json.dumps(doc, separators=(",", ":"), sort_keys=True).encode()


class RescueImportTests(HostTestCase):

    def setUp(self):
        super().setUp()
        self.importer = self.host.tokens(IMPORTER, IMPORTER_SECRET)["access_token"]

    def import_file(self, raw, access=None):
        return self.host.request("POST", "/v1/rescues", raw, {"Authorization": "Bearer " + (access or self.importer),
                                                                 "Content-Type": "application/json"})

    def payments(self, count, account=RICH, amount=100):
        return [(new_key(), frozen(body(account=account, amount=amount))) for _ in range(count)]

    def postings(self, keys):
        entries = self.host.journal(terminal_id=DEAD, outcome="posted")
        return [entry["idempotency_key"] for entry in entries if entry["idempotency_key"] in keys]

    def test_each_payment_is_posted_once_whatever_the_dead_terminal_sent_and_a_second_import_is_nothing_new(self):
        payments = self.payments(10)
        for key, raw in payments[:4]:  # the dead terminal had sent these; its card never heard back
            self.assertEqual(self.host.submit(self.access, key, raw).status, 201)
        raw = rescue_file(payments)
        first = self.import_file(raw)
        self.assertEqual(first.status, 200, first.body)
        report = first.json()
        self.assertEqual(report["terminal_id"], DEAD)
        self.assertEqual(report["imported_by"], IMPORTER)
        self.assertTrue(report["first_import"])
        self.assertEqual(report["payments"], {"posted": 6, "already_posted": 4, "refused": 0, "already_refused": 0})
        second = self.import_file(raw).json()
        self.assertFalse(second["first_import"])
        self.assertEqual(second["payments"], {"posted": 0, "already_posted": 10, "refused": 0, "already_refused": 0})
        keys = {key for key, _ in payments}
        self.assertEqual(sorted(self.postings(keys)), sorted(keys), "each key posted exactly once, under the dead terminal")

    def test_a_key_past_the_retention_is_found_in_the_journal_and_not_posted_again(self):
        host = HostProcess("--seed", "demo", "--key-retention-days", "0.00001").start()
        try:
            access = host.tokens()["access_token"]
            importer = host.tokens(IMPORTER, IMPORTER_SECRET)["access_token"]
            key, raw = new_key(), frozen(body(amount=300))
            self.assertEqual(host.submit(access, key, raw).status, 201)
            import time
            time.sleep(1.2)
            self.assertEqual(host.admin("POST", "/admin/purge")["purged_keys"], 1)
            self.assertEqual(host.get(access, f"/v1/transactions/{key}").status, 404, "the key's record is gone")
            answer = host.request("POST", "/v1/rescues", rescue_file([(key, raw)]),
                                  {"Authorization": "Bearer " + importer, "Content-Type": "application/json"})
            self.assertEqual(answer.json()["payments"]["already_posted"], 1, answer.body)
            self.assertEqual(len(host.journal(terminal_id=DEAD, outcome="posted")), 1, "posted once, not again")
        finally:
            host.cleanup()

    def test_a_rejection_is_refused_with_its_reason_and_reported_as_decided_before_on_the_second_import(self):
        payments = [(new_key(), frozen(body("withdrawal", account=LOW, amount=10**9)))]
        raw = rescue_file(payments)
        report = self.import_file(raw).json()
        self.assertEqual(report["payments"]["refused"], 1)
        self.assertEqual(report["refusals"][0]["reason"], "insufficient_funds")
        self.assertFalse(report["refusals"][0]["decided_before"])
        again = self.import_file(raw).json()
        self.assertEqual(again["payments"], {"posted": 0, "already_posted": 0, "refused": 0, "already_refused": 1})
        self.assertTrue(again["refusals"][0]["decided_before"])

    def test_an_altered_byte_is_refused_by_name_and_posts_nothing(self):
        payments = self.payments(3)
        raw = bytearray(rescue_file(payments))
        where = raw.index(b'\\"amount\\":100') + len(b'\\"amount\\":')
        raw[where] = ord("9")  # 100 becomes 900
        doc = self.assertProblem(self.import_file(bytes(raw)), 403, "rescue_signature_invalid")
        self.assertIn(DEAD, doc["detail"])
        self.assertEqual(self.postings({key for key, _ in payments}), [])

    def test_another_terminals_secret_is_refused(self):
        self.assertProblem(self.import_file(rescue_file(self.payments(1), secret=IMPORTER_SECRET)), 403, "rescue_signature_invalid")

    def test_a_terminal_of_another_branch_may_not_import(self):
        self.host.admin("POST", "/admin/terminals", {"terminal_id": "T-0900", "secret": "other-branch-secret", "branch": "north"})
        other = self.host.tokens("T-0900", "other-branch-secret")["access_token"]
        self.assertProblem(self.import_file(rescue_file(self.payments(1)), access=other), 403, "rescue_branch_mismatch")

    def test_an_unknown_terminal_and_a_file_that_is_not_a_rescue_file_are_refused(self):
        self.assertProblem(self.import_file(rescue_file(self.payments(1), terminal="T-9999")), 403, "rescue_terminal_unknown")
        self.assertProblem(self.import_file(encode({"rescue": {}})), 400, "invalid_json")
        self.assertProblem(self.host.request("POST", "/v1/rescues", rescue_file(self.payments(1)), {"Content-Type": "application/json"}),
                           401, "token_missing")

    def test_a_file_re_encoded_after_signing_cannot_be_checked_and_is_refused_as_unsigned(self):
        payments = self.payments(2)
        written = rescue_file(payments)
        reencoded = json.dumps(json.loads(written), indent=1).encode()
        self.assertProblem(self.import_file(reencoded), 403, "rescue_signature_invalid")
        self.assertEqual(self.postings({key for key, _ in payments}), [])

    def test_till_events_are_recorded_once(self):
        event = frozen({"event": "opened", "till_id": 1, "operator_id": "1001", "currency": "EUR",
                        "at": "2026-12-04T08:00:00.000Z", "count": {"5000": 2}, "total": 10000})
        raw = rescue_file([], till_events=[(new_key(), event)], journal=[{"sequence": 1}])
        report = self.import_file(raw).json()
        self.assertEqual(report["till_events"], {"recorded": 1, "already_recorded": 0, "refused": 0})
        self.assertEqual(report["journal_entries"], 1)
        self.assertEqual(self.import_file(raw).json()["till_events"], {"recorded": 0, "already_recorded": 1, "refused": 0})


if __name__ == "__main__":
    unittest.main()
