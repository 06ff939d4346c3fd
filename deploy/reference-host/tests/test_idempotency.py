"""Submitting under an Idempotency-Key: replay, 409, 422, 400, per-terminal scope."""

import threading
import unittest

from hostprocess import (BLOCKED, EMPTY, GBP, LOW, RICH, UNKNOWN, HostTestCase, body, encode, new_key)


class SubmitTests(HostTestCase):

    def test_posted_deposit_returns_201_with_reference_and_balance(self):
        before = self.balance(RICH)
        key = new_key()
        response = self.host.submit(self.access, key, body(amount=1234))
        self.assertEqual(response.status, 201, response.body)
        self.assertIsNone(response.header("Idempotent-Replayed"))
        doc = response.json()
        self.assertEqual(doc["outcome"], "posted")
        self.assertEqual(doc["idempotency_key"], key)
        self.assertRegex(doc["host_reference"], r"^H\d{8}-\d{7}$")
        self.assertEqual(doc["balance_after"], before + 1234)
        self.assertEqual(doc["available_after"], before + 1234)
        self.assertEqual(doc["currency"], "EUR")
        self.assertEqual(self.balance(RICH), before + 1234)
        self.assertEqual(self.host.stats()["postings"], 1)

    def test_retry_with_identical_body_replays_identical_status_body_and_header(self):
        key = new_key()
        raw = encode(body(amount=700))
        first = self.host.submit(self.access, key, raw)
        self.assertEqual(first.status, 201)
        before = self.balance(RICH)
        for _ in range(3):
            again = self.host.submit(self.access, key, raw)
            self.assertEqual(again.status, 201)
            self.assertEqual(again.body, first.body)
            self.assertEqual(again.header("Idempotent-Replayed"), "true")
            self.assertEqual(again.header("Content-Type"), "application/json")
        self.assertEqual(self.balance(RICH), before, "a replay must not move money")
        self.assertEqual(len([e for e in self.host.journal(outcome="posted") if e["idempotency_key"] == key]), 1)
        stats = self.host.stats()
        self.assertEqual((stats["postings"], stats["replays"]), (1, 3))

    def test_key_is_case_insensitive(self):
        key = new_key()
        raw = encode(body())
        self.assertEqual(self.host.submit(self.access, key, raw).status, 201)
        again = self.host.submit(self.access, key.upper(), raw)
        self.assertEqual((again.status, again.header("Idempotent-Replayed")), (201, "true"))

    def test_same_key_different_body_is_422_and_changes_nothing(self):
        key = new_key()
        self.assertEqual(self.host.submit(self.access, key, body(amount=100, reference="A")).status, 201)
        before = self.balance(RICH)
        other = self.host.submit(self.access, key, body(amount=999, reference="A"))
        self.assertProblem(other, 422, "idempotency_key_reused")
        # Same JSON meaning, different bytes: still a different body.
        raw = encode(body(amount=100, reference="B"))
        self.host.submit(self.access, key, raw)
        self.assertProblem(self.host.submit(self.access, key, raw + b" "), 422, "idempotency_key_reused")
        self.assertEqual(self.balance(RICH), before)
        self.assertEqual(self.host.stats()["key_mismatches"], 3)

    def test_missing_key_is_400(self):
        self.assertProblem(self.host.submit(self.access, None, body()), 400, "idempotency_key_missing")
        self.assertProblem(self.host.submit(self.access, "  ", body()), 400, "idempotency_key_missing")

    def test_malformed_key_is_400(self):
        for key in ("abc", "12345678-1234-1234-1234-1234567890", "{" + new_key() + "}",
                    "urn:uuid:" + new_key(), new_key().replace("-", ""), "g" * 8 + new_key()[8:]):
            with self.subTest(key=key):
                self.assertProblem(self.host.submit(self.access, key, body()), 400, "idempotency_key_malformed")
        self.assertEqual(self.host.stats()["postings"], 0)

    def test_a_400_does_not_consume_the_key(self):
        key = new_key()
        self.assertProblem(self.host.submit(self.access, key, b"{not json"), 400, "invalid_json")
        self.assertEqual(self.host.submit(self.access, key, body()).status, 201)

    def test_expired_or_invalid_token_is_401_and_not_recorded(self):
        key = new_key()
        response = self.host.submit("tha_not-a-token", key, body())
        self.assertProblem(response, 401, "token_invalid")
        self.assertIn("Bearer", response.header("WWW-Authenticate"))
        self.host.admin("POST", "/admin/tokens/expire")
        self.assertProblem(self.host.submit(self.access, key, body()), 401, "token_expired")
        fresh = self.host.tokens()["access_token"]
        self.assertEqual(self.host.submit(fresh, key, body()).status, 201, "the key was not consumed by the 401s")
        self.assertEqual(self.host.stats()["unauthorized"], 2)

    def test_concurrent_duplicate_is_409_then_replays(self):
        self.host.admin("POST", "/admin/faults", {"processing_delay_ms": 800})
        key = new_key()
        raw = encode(body(amount=4321))
        results = {}
        first = threading.Thread(target=lambda: results.setdefault("first", self.host.submit(self.access, key, raw)))
        first.start()
        self.assertTrue(self.wait_for(lambda: self.host.stats()["submissions"] == 1))
        second = self.host.submit(self.access, key, raw)
        self.assertProblem(second, 409, "request_in_progress")
        self.assertEqual(second.header("Retry-After"), "1")
        self.assertProblem(self.host.submit(self.access, key, encode(body(amount=1))), 422, "idempotency_key_reused")
        self.assertProblem(self.host.get(self.access, f"/v1/transactions/{key}"), 409, "request_in_progress")
        first.join()
        self.assertEqual(results["first"].status, 201)
        self.host.admin("DELETE", "/admin/faults")
        third = self.host.submit(self.access, key, raw)
        self.assertEqual((third.status, third.body, third.header("Idempotent-Replayed")),
                         (201, results["first"].body, "true"))
        self.assertEqual(len([e for e in self.host.journal() if e["idempotency_key"] == key]), 1)

    def test_twenty_simultaneous_duplicates_post_once(self):
        self.host.admin("POST", "/admin/faults", {"processing_delay_ms": 300})
        key = new_key()
        raw = encode(body(amount=11))
        before = self.balance(RICH)
        barrier = threading.Barrier(20)
        responses = []

        def send():
            barrier.wait()
            responses.append(self.host.submit(self.access, key, raw))

        threads = [threading.Thread(target=send) for _ in range(20)]
        for thread in threads:
            thread.start()
        for thread in threads:
            thread.join()
        fresh = [r for r in responses if r.status == 201 and r.header("Idempotent-Replayed") is None]
        self.assertEqual(len(fresh), 1)
        self.assertTrue(all(r.status in (201, 409) for r in responses), [r.status for r in responses])
        self.assertEqual(self.balance(RICH), before + 11)
        self.assertEqual(len([e for e in self.host.journal() if e["idempotency_key"] == key]), 1)

    def test_idempotency_is_scoped_per_terminal(self):
        other = self.host.tokens("T-0002", "demo-secret-T-0002")["access_token"]
        key = new_key()
        raw = encode(body(amount=5))
        self.assertEqual(self.host.submit(self.access, key, raw).status, 201)
        self.assertProblem(self.host.get(other, f"/v1/transactions/{key}"), 404, "transaction_not_found")
        response = self.host.submit(other, key, raw)
        self.assertEqual(response.status, 201)
        self.assertIsNone(response.header("Idempotent-Replayed"))
        entries = [e for e in self.host.journal() if e["idempotency_key"] == key]
        self.assertEqual(sorted(e["terminal_id"] for e in entries), ["T-0001", "T-0002"])
        by_terminal = self.host.stats()["by_terminal"]
        self.assertEqual((by_terminal["T-0001"]["postings"], by_terminal["T-0002"]["postings"]), (1, 1))

    def test_status_by_key_returns_stored_outcome(self):
        key = new_key()
        posted = self.host.submit(self.access, key, body())
        status = self.host.get(self.access, f"/v1/transactions/{key}")
        self.assertEqual((status.status, status.body), (200, posted.body))
        self.assertProblem(self.host.get(self.access, f"/v1/transactions/{new_key()}"), 404, "transaction_not_found")
        self.assertProblem(self.host.get(self.access, "/v1/transactions/not-a-uuid"), 400, "idempotency_key_malformed")

    def test_status_with_a_blank_key_is_malformed_not_missing(self):
        for path in ("/v1/transactions/", "/v1/transactions/%20", "/v1/transactions/%20%20"):
            with self.subTest(path=path):
                self.assertProblem(self.host.get(self.access, path), 400, "idempotency_key_malformed")

    def test_outcomes_echo_the_submission_exactly_in_post_replay_and_status(self):
        echoed = ("kind", "account_iban", "counterparty_iban", "amount", "currency", "operator_id",
                  "client_reference", "created_at")
        key = new_key()
        cases = [
            (201, body("transfer", RICH, amount=7, counterparty=EMPTY, reference=key[:8].upper(),
                       created_at="2026-11-29T15:05:00.5+01:00")),
            (201, body("deposit", RICH, amount=3)),
            (200, body("withdrawal", LOW, amount=9_007_199_254_740_991, reference="x" * 64)),
            (200, body("deposit", GBP, amount=1, currency="EUR", reference="ü €")),
        ]
        for status, doc in cases:
            key = new_key().upper()
            with self.subTest(doc=doc):
                answers = [self.host.submit(self.access, key, doc), self.host.submit(self.access, key, doc),
                           self.host.get(self.access, f"/v1/transactions/{key}")]
                self.assertEqual([a.status for a in answers], [status, status, 200])
                self.assertEqual(len({a.body for a in answers}), 1, "replay and status are the stored bytes")
                outcome = answers[0].json()
                self.assertEqual(outcome["idempotency_key"], key.lower())
                for name in echoed:
                    self.assertEqual(outcome.get(name), doc.get(name), name)
                    self.assertEqual(type(outcome.get(name)), type(doc.get(name)), name)
                self.assertEqual("counterparty_iban" in outcome, doc["kind"] == "transfer")

    def test_transactions_are_journaled_in_order(self):
        after = max([e["seq"] for e in self.host.journal()] or [0])
        references = [f"ORDER-{i:03d}" for i in range(30)]
        connection = self.host.connection()
        for reference in references:
            self.assertEqual(self.host.submit(self.access, new_key(), body(reference=reference), connection).status, 201)
        connection.close()
        entries = self.host.journal(after_seq=after)
        self.assertEqual([e["client_reference"] for e in entries], references)
        self.assertEqual([e["seq"] for e in entries], sorted(e["seq"] for e in entries))


class RejectionTests(HostTestCase):

    def reject(self, doc, reason):
        key = new_key()
        response = self.host.submit(self.access, key, doc)
        self.assertEqual(response.status, 200, response.body)
        outcome = response.json()
        self.assertEqual((outcome["outcome"], outcome["reason"]), ("rejected", reason))
        self.assertTrue(outcome["detail"])
        self.assertNotIn("host_reference", outcome)
        return key, response

    def test_insufficient_funds_is_a_final_rejection_that_replays(self):
        before = self.balance(LOW)
        raw = encode(body("withdrawal", LOW, amount=before + 1))
        key, first = self.reject(raw, "insufficient_funds")
        self.assertEqual(self.balance(LOW), before)
        # Even once money arrives, the key keeps its final outcome.
        self.host.submit(self.access, new_key(), body("deposit", LOW, amount=100_000))
        again = self.host.submit(self.access, key, raw)
        self.assertEqual((again.status, again.body, again.header("Idempotent-Replayed")), (200, first.body, "true"))
        self.assertEqual(self.host.get(self.access, f"/v1/transactions/{key}").body, first.body)
        self.assertEqual([e["outcome"] for e in self.host.journal() if e["idempotency_key"] == key], ["rejected"])

    def test_hold_reduces_what_can_be_withdrawn(self):
        snapshot = self.host.get(self.access, "/v1/accounts/FR7630004008230001038247191").json()
        self.assertEqual(snapshot["available"], snapshot["balance"] - 30_000)
        self.reject(body("withdrawal", snapshot["iban"], amount=snapshot["available"] + 1), "insufficient_funds")
        self.assertEqual(self.host.submit(self.access, new_key(), body("withdrawal", snapshot["iban"], amount=snapshot["available"])).status, 201)

    def test_each_reason(self):
        cases = [
            (body("deposit", UNKNOWN), "account_not_found"),
            (body("deposit", BLOCKED), "account_blocked"),
            (body("deposit", GBP, currency="EUR"), "currency_mismatch"),
            (body("transfer", RICH, counterparty=GBP), "currency_mismatch"),
            (body("transfer", RICH, counterparty=UNKNOWN), "counterparty_not_found"),
            (body("transfer", RICH, counterparty=BLOCKED), "counterparty_blocked"),
            (body("transfer", RICH, counterparty=RICH), "same_account"),
            (body("withdrawal", EMPTY, amount=1), "insufficient_funds"),
            (body("transfer", EMPTY, counterparty=RICH, amount=1), "insufficient_funds"),
            (body(operator_id="9999"), "operator_not_found"),
        ]
        for doc, reason in cases:
            with self.subTest(reason=reason, doc=doc):
                self.reject(doc, reason)
        self.assertEqual(self.host.stats()["rejections"], len(cases))
        self.assertEqual(self.host.stats()["postings"], 0)

    def test_a_balance_beyond_2_pow_53_minus_1_is_rejected_not_posted(self):
        iban = "NL91ABNA0417164300"
        top = 9_007_199_254_740_991
        self.host.admin("POST", "/admin/accounts", {"iban": iban, "holder": "Full", "balance": top - 10})
        self.reject(body("deposit", iban, amount=11), "balance_limit_exceeded")
        self.reject(body("transfer", RICH, counterparty=iban, amount=11), "balance_limit_exceeded")
        self.assertEqual(self.host.submit(self.access, new_key(), body("deposit", iban, amount=10)).status, 201)
        self.assertEqual(self.balance(iban), top)
        self.reject(body("deposit", iban, amount=top), "balance_limit_exceeded")
        self.assertEqual(self.host.submit(self.access, new_key(), body("withdrawal", iban, amount=top)).status, 201)

    def test_transfer_moves_money_between_two_accounts(self):
        source, target = self.balance(RICH), self.balance(EMPTY)
        response = self.host.submit(self.access, new_key(), body("transfer", RICH, counterparty=EMPTY, amount=2500, reference="RENT"))
        self.assertEqual(response.status, 201)
        self.assertEqual(response.json()["counterparty_iban"], EMPTY)
        self.assertEqual((self.balance(RICH), self.balance(EMPTY)), (source - 2500, target + 2500))
        credit = self.host.get(self.access, f"/v1/accounts/{EMPTY}/transactions?limit=1").json()["transactions"][0]
        self.assertEqual((credit["direction"], credit["amount"], credit["counterparty_iban"], credit["client_reference"]),
                         ("credit", 2500, RICH, "RENT"))
        debit = self.host.get(self.access, f"/v1/accounts/{RICH}/transactions?limit=1").json()["transactions"][0]
        self.assertEqual((debit["direction"], debit["counterparty_iban"], debit["balance_after"]), ("debit", EMPTY, source - 2500))


class BodyValidationTests(HostTestCase):

    def test_malformed_json_is_400(self):
        for raw in (b"{", b"[]", b'"text"', b"\xff\xfe", b""):
            with self.subTest(raw=raw):
                self.assertProblem(self.host.submit(self.access, new_key(), raw), 400, "invalid_json")

    def test_each_bad_field_is_named(self):
        base = body()
        cases = [
            ({"kind": "refund"}, "kind"),
            ({"kind": None}, "kind"),
            ({"account_iban": "DE00500105170426397158"}, "account_iban"),
            ({"account_iban": "de54 5001 0517 0426 3971 58"}, "account_iban"),
            ({"account_iban": 12}, "account_iban"),
            ({"amount": None}, "amount"),
            ({"amount": "500"}, "amount"),
            ({"amount": 5.5}, "amount"),
            ({"amount": 0}, "amount"),
            ({"amount": -1}, "amount"),
            ({"amount": True}, "amount"),
            ({"currency": "eur"}, "currency"),
            ({"currency": "EURO"}, "currency"),
            ({"operator_id": "12"}, "operator_id"),
            ({"operator_id": 1001}, "operator_id"),
            ({"created_at": "yesterday"}, "created_at"),
            ({"created_at": "2026-11-29T14:05:00"}, "created_at"),
            ({"created_at": "2026-11-29T14:05:00+00:60"}, "created_at"),
            ({"created_at": "2026-11-29T14:05:00+24:00"}, "created_at"),
            ({"created_at": "2026-02-29T14:05:00Z"}, "created_at"),
            ({"client_reference": ""}, "client_reference"),
            ({"client_reference": "x" * 65}, "client_reference"),
            ({"counterparty_iban": LOW}, "counterparty_iban"),
            ({"kind": "transfer"}, "counterparty_iban"),
            ({"clock_unverified": None}, "clock_unverified"),
            ({"clock_unverified": "yes"}, "clock_unverified"),
            ({"clock_unverified": 1}, "clock_unverified"),
        ]
        for change, field in cases:
            with self.subTest(change=change):
                doc = {**base, **change}
                if change.get("kind") is None and "kind" in change:
                    del doc["kind"]
                self.assertProblem(self.host.submit(self.access, new_key(), doc), 400, "invalid_field", field)
        self.assertEqual(self.host.stats()["postings"], 0)

    def test_a_clock_unverified_row_is_taken(self):
        self.assertEqual(self.host.submit(self.access, new_key(), body(clock_unverified=True)).status, 201)

    def test_wrong_content_type_is_415(self):
        self.assertProblem(self.host.submit(self.access, new_key(), body(), content_type="text/plain"),
                           415, "unsupported_media_type")
        self.assertEqual(self.host.submit(self.access, new_key(), body(), content_type="application/json; charset=utf-8").status, 201)

    def test_every_rfc3339_date_time_is_accepted_and_echoed(self):
        for created_at in ("0000-02-29T00:00:00Z", "9999-12-31T23:59:60.123456789012Z", "2026-11-29t14:05:00z",
                           "2026-11-29T14:05:00-23:59"):
            with self.subTest(created_at=created_at):
                response = self.host.submit(self.access, new_key(), body(created_at=created_at))
                self.assertEqual((response.status, response.json()["created_at"]), (201, created_at), response.body)

    def test_unknown_members_are_ignored(self):
        self.assertEqual(self.host.submit(self.access, new_key(), body(note="for the till")).status, 201)


if __name__ == "__main__":
    unittest.main()
