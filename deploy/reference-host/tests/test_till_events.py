"""Till events (docs/host-api.md, "Till events"): each opening and closing
recorded once under its idempotency key, replayed byte for byte, validated
before anything is stored, and hit by the same faults as transactions. Also
`approved_by` on a transaction (§6)."""

import json
import os
import unittest

from hostprocess import HostProcess, HostTestCase, RICH, body, encode, new_key


def opening(till_id=7, operator="1001", **extra):
    doc = {"event": "opened", "till_id": till_id, "operator_id": operator, "currency": "EUR",
           "at": "2026-12-02T08:00:00.000Z", "count": {"5000": 2, "1000": 5, "200": 10}, "total": 17_000}
    doc.update(extra)
    return doc


def closing(till_id=7, operator="1001", **extra):
    doc = {"event": "closed", "till_id": till_id, "operator_id": operator, "currency": "EUR",
           "at": "2026-12-02T17:30:00.000Z", "count": {"5000": 3, "1000": 4}, "total": 19_000,
           "expected": 19_500, "over_short": -500}
    doc.update(extra)
    return doc


def sorted_bytes(doc):
    """As the terminal freezes a body: sorted keys, compact."""
    return json.dumps(doc, separators=(",", ":"), sort_keys=True).encode()


class TillEventTests(HostTestCase):

    def send(self, key, doc, access=None, content_type="application/json"):
        raw = doc if isinstance(doc, bytes) else sorted_bytes(doc)
        headers = {"Authorization": "Bearer " + (access or self.access), "Content-Type": content_type}
        if key is not None:
            headers["Idempotency-Key"] = key
        return self.host.request("POST", "/v1/till-events", raw, headers)

    def recorded(self):
        return [event for event in self.host.admin("GET", "/admin/till-events?terminal_id=T-0001")["events"]]

    def test_an_opening_is_recorded_with_a_reference_and_echoes_key_event_and_till(self):
        key = new_key()
        response = self.send(key, opening())
        self.assertEqual(response.status, 201, response.body)
        self.assertIsNone(response.header("Idempotent-Replayed"))
        self.assertEqual(response.header("Content-Type"), "application/json")
        doc = response.json()
        self.assertEqual((doc["outcome"], doc["idempotency_key"], doc["event"], doc["till_id"]), ("recorded", key, "opened", 7))
        self.assertEqual((doc["operator_id"], doc["currency"], doc["total"]), ("1001", "EUR", 17_000))
        self.assertRegex(doc["host_reference"], r"^T\d{8}-\d{7}$")
        [event] = [e for e in self.recorded() if e["idempotency_key"] == key]
        self.assertEqual(event["count"], {"5000": 2, "1000": 5, "200": 10})
        self.assertEqual((event["host_reference"], event["expected"], event["approved_by"]), (doc["host_reference"], None, None))
        self.assertEqual(self.host.stats()["till_events_recorded"], 1)
        self.assertEqual(self.host.stats()["postings"], 0, "a till event moves no money")

    def test_the_same_key_and_bytes_replay_the_stored_answer_and_record_once(self):
        key = new_key()
        raw = sorted_bytes(closing(approved_by="1002", over_short=-500))
        first = self.send(key, raw)
        self.assertEqual(first.status, 201, first.body)
        for _ in range(2):
            again = self.send(key.upper(), raw)
            self.assertEqual((again.status, again.body, again.header("Idempotent-Replayed")), (201, first.body, "true"))
        self.assertEqual(len([e for e in self.recorded() if e["idempotency_key"] == key]), 1)
        stats = self.host.stats()
        self.assertEqual((stats["till_events_recorded"], stats["replays"]), (1, 2))

    def test_the_same_key_with_another_body_is_422_and_changes_nothing(self):
        key = new_key()
        self.assertEqual(self.send(key, opening()).status, 201)
        self.assertProblem(self.send(key, opening(till_id=8)), 422, "idempotency_key_reused")
        self.assertEqual([e["till_id"] for e in self.recorded() if e["idempotency_key"] == key], [7])

    def test_a_key_is_the_terminals_once_across_transactions_and_till_events(self):
        key, payment = new_key(), encode(body())
        self.assertEqual(self.host.submit(self.access, key, payment).status, 201)
        self.assertProblem(self.send(key, opening()), 422, "idempotency_key_reused")
        # Even the very same bytes: the stored answer is a transaction's, never a till event's.
        self.assertProblem(self.send(key, payment), 422, "idempotency_key_reused")
        other = new_key()
        self.assertEqual(self.send(other, opening(till_id=9)).status, 201)
        self.assertProblem(self.host.submit(self.access, other, body()), 422, "idempotency_key_reused")
        # Status by key is for transactions only.
        self.assertProblem(self.host.get(self.access, f"/v1/transactions/{other}"), 404, "transaction_not_found")

    def test_a_closing_the_host_never_saw_opened_is_recorded(self):
        key = new_key()
        response = self.send(key, closing(till_id=4242))
        self.assertEqual(response.status, 201, response.body)
        self.assertEqual([e["event"] for e in self.recorded() if e["till_id"] == 4242], ["closed"])

    def test_invalid_bodies_are_400_naming_the_field_and_not_stored(self):
        cases = [
            (opening(event="counted"), "event"),
            (opening(till_id=0), "till_id"),
            (opening(till_id="7"), "till_id"),
            (opening(operator="12"), "operator_id"),
            (opening(currency="eur"), "currency"),
            (opening(at="yesterday"), "at"),
            (opening(count=[1, 2]), "count"),
            (opening(count={"05": 1}, total=5), "count"),
            (opening(count={"500": -1}, total=-500), "count"),
            (opening(count={"500": 100_000}, total=50_000_000), "count"),
            # A denomination of 10 digits, and 65 denominations: counts that could pass 2^53.
            (opening(count={"1000000000": 1}, total=1_000_000_000), "count"),
            (opening(count={str(d): 1 for d in range(1, 66)}, total=sum(range(1, 66))), "count"),
            (opening(total=17_001), "total"),
            (opening(expected=100), "expected"),
            (closing(expected=None), "expected"),
            (closing(over_short=500), "over_short"),
            (closing(approved_by="1001"), "approved_by"),
            (closing(approved_by="12"), "approved_by"),
            (opening(clock_unverified="yes"), "clock_unverified"),
        ]
        for doc, field in cases:
            with self.subTest(field=field, doc=doc):
                key = new_key()
                self.assertProblem(self.send(key, doc), 400, "invalid_field", field=field)
                # Not stored: the corrected body may be sent under the same key.
                self.assertEqual(self.send(key, opening(till_id=100 + cases.index((doc, field)))).status, 201)

    def test_headers_are_checked_as_for_transactions(self):
        before = len(self.recorded())
        self.assertProblem(self.send(None, opening()), 400, "idempotency_key_missing")
        self.assertProblem(self.send("not-a-uuid", opening()), 400, "idempotency_key_malformed")
        self.assertProblem(self.send(new_key(), opening(), content_type="text/plain"), 415, "unsupported_media_type")
        self.assertProblem(self.send(new_key(), opening(), access="nope"), 401, "token_invalid")
        self.assertProblem(self.host.request("GET", "/v1/till-events"), 405, "method_not_allowed")
        self.assertEqual(len(self.recorded()), before)

    def test_a_lost_answer_is_replayed_on_the_retry(self):
        self.host.admin("POST", "/admin/faults", {"drop_after_commit": 1})
        key, raw = new_key(), sorted_bytes(opening(till_id=11))
        with self.assertRaises(OSError):
            self.send(key, raw)
        again = self.send(key, raw)
        self.assertEqual((again.status, again.header("Idempotent-Replayed")), (201, "true"))
        self.assertEqual(len([e for e in self.recorded() if e["idempotency_key"] == key]), 1)
        self.assertEqual(self.host.stats()["dropped_responses"], 1)

    def test_a_fail_fault_scoped_to_till_events_spares_transactions(self):
        self.host.admin("POST", "/admin/faults", {"fail": {"count": 1, "retry_after": 2, "scope": "till_events"}})
        self.assertEqual(self.host.submit(self.access, new_key(), body()).status, 201)
        key = new_key()
        failed = self.send(key, opening(till_id=12))
        self.assertProblem(failed, 503, "service_unavailable")
        self.assertEqual(failed.header("Retry-After"), "2")
        self.assertEqual(self.send(key, opening(till_id=12)).status, 201)
        # And the default scope spares till events.
        self.host.admin("POST", "/admin/faults", {"fail": {"count": 1}})
        self.assertEqual(self.send(new_key(), opening(till_id=13)).status, 201)
        self.assertProblem(self.host.submit(self.access, new_key(), body()), 503, "service_unavailable")


class ApprovedByTests(HostTestCase):

    def test_a_payment_approved_by_a_supervisor_posts_and_echoes_the_approval(self):
        key = new_key()
        response = self.host.submit(self.access, key, body(amount=900, approved_by="1002"))
        self.assertEqual(response.status, 201, response.body)
        self.assertEqual(response.json()["approved_by"], "1002")
        [entry] = [e for e in self.host.journal() if e["idempotency_key"] == key]
        self.assertEqual(entry["approved_by"], "1002")
        plain = self.host.submit(self.access, new_key(), body())
        self.assertNotIn("approved_by", plain.json(), "a payment nobody approved echoes no approval")

    def test_an_approval_by_the_operator_or_a_malformed_id_is_400(self):
        for value in ("1001", "12", "123456789", 1002, ""):
            with self.subTest(value=value):
                self.assertProblem(self.host.submit(self.access, new_key(), body(approved_by=value)), 400, "invalid_field",
                                   field="approved_by")
        self.assertEqual(self.host.stats()["postings"], 0)

    def test_null_is_no_approval(self):
        response = self.host.submit(self.access, new_key(), body(approved_by=None))
        self.assertEqual(response.status, 201, response.body)


class TillEventRestartTests(unittest.TestCase):

    def test_a_recorded_event_survives_a_restart_and_replays(self):
        host = HostProcess("--seed", "demo").start()
        try:
            access = host.tokens()["access_token"]
            key, raw = new_key(), sorted_bytes(opening())
            headers = {"Authorization": "Bearer " + access, "Content-Type": "application/json", "Idempotency-Key": key}
            first = host.request("POST", "/v1/till-events", raw, headers)
            self.assertEqual(first.status, 201, first.body)
            host.stop()
            host.start()
            headers["Authorization"] = "Bearer " + host.tokens()["access_token"]
            again = host.request("POST", "/v1/till-events", raw, headers)
            self.assertEqual((again.status, again.body, again.header("Idempotent-Replayed")), (201, first.body, "true"))
            self.assertEqual(len(host.admin("GET", "/admin/till-events")["events"]), 1)
        finally:
            host.cleanup()


if __name__ == "__main__":
    unittest.main()
