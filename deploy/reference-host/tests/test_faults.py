"""Fault injection: lost response after commit, 503/429 with Retry-After, delays."""

import http.client
import time
import unittest

from hostprocess import LOW, RICH, HostProcess, HostTestCase, body, encode, new_key


class FaultTests(HostTestCase):

    def test_drop_after_commit_then_retry_posts_exactly_once(self):
        self.host.admin("POST", "/admin/faults", {"drop_after_commit": 1})
        before = self.balance(RICH)
        key = new_key()
        raw = encode(body(amount=777))
        connection = self.host.connection()
        with self.assertRaises((http.client.HTTPException, ConnectionError)):
            self.host.submit(self.access, key, raw, connection)
        connection.close()
        self.assertEqual(self.balance(RICH), before + 777, "the posting committed before the drop")
        self.assertEqual(self.host.admin("GET", "/admin/faults")["drop_after_commit"], 0)
        retry = self.host.submit(self.access, key, raw)
        self.assertEqual((retry.status, retry.header("Idempotent-Replayed")), (201, "true"))
        self.assertEqual(retry.json()["balance_after"], before + 777)
        self.assertEqual(self.balance(RICH), before + 777)
        self.assertEqual(len([e for e in self.host.journal() if e["idempotency_key"] == key]), 1)
        stats = self.host.stats()
        self.assertEqual((stats["postings"], stats["dropped_responses"], stats["replays"]), (1, 1, 1))

    def test_drop_applies_to_the_next_n_new_submissions_only(self):
        self.host.admin("POST", "/admin/faults", {"drop_after_commit": 2})
        keys = [new_key() for _ in range(3)]
        raws = [encode(body(amount=1, reference=f"D{i}")) for i in range(3)]
        for key, raw in zip(keys[:2], raws[:2]):
            with self.assertRaises((http.client.HTTPException, ConnectionError)):
                self.host.submit(self.access, key, raw)
        self.assertEqual(self.host.submit(self.access, keys[2], raws[2]).status, 201)
        for key, raw in zip(keys, raws):
            self.assertEqual(self.host.submit(self.access, key, raw).header("Idempotent-Replayed"), "true")
        self.assertEqual(self.host.stats()["postings"], 3)

    def test_503_with_retry_after_n_times_then_success(self):
        self.host.admin("POST", "/admin/faults", {"fail": {"count": 2, "status": 503, "retry_after": 3}})
        key = new_key()
        raw = encode(body(amount=42))
        for _ in range(2):
            response = self.host.submit(self.access, key, raw)
            self.assertProblem(response, 503, "service_unavailable")
            self.assertEqual(response.header("Retry-After"), "3")
        # Reads are not hit by the default 'transactions' scope.
        self.assertEqual(self.host.get(self.access, f"/v1/accounts/{RICH}").status, 200)
        self.assertEqual(self.host.submit(self.access, key, raw).status, 201)
        stats = self.host.stats()
        self.assertEqual((stats["injected_failures"], stats["postings"], stats["submissions"]), (2, 1, 1))

    def test_429_variant_and_v1_scope(self):
        self.host.admin("POST", "/admin/faults", {"fail": {"count": 2, "status": 429, "retry_after": 5, "scope": "v1"}})
        health = self.host.request("GET", "/v1/health")
        self.assertProblem(health, 429, "too_many_requests")
        self.assertEqual(health.header("Retry-After"), "5")
        self.assertProblem(self.host.get(self.access, f"/v1/accounts/{RICH}"), 429, "too_many_requests")
        self.assertEqual(self.host.request("GET", "/v1/health").status, 200)

    def test_bad_fault_documents_are_400(self):
        for doc in ({"drop_after_commit": -1}, {"fail": {"status": 500}}, {"delay_ms": "5"}, {"fail": {"scope": "all"}}):
            with self.subTest(doc=doc):
                response = self.host.request("POST", "/admin/faults", doc)
                self.assertEqual(response.status, 400)

    def test_delay_slows_v1_responses(self):
        self.host.admin("POST", "/admin/faults", {"delay_ms": 300})
        started = time.monotonic()
        self.assertEqual(self.host.request("GET", "/v1/health").status, 200)
        self.assertGreaterEqual(time.monotonic() - started, 0.3)
        self.host.admin("DELETE", "/admin/faults")
        started = time.monotonic()
        self.host.request("GET", "/v1/health")
        self.assertLess(time.monotonic() - started, 0.25)

    def test_reset_clears_faults_and_counters(self):
        self.host.admin("POST", "/admin/faults", {"drop_after_commit": 3, "delay_ms": 10,
                                                  "fail": {"count": 4}, "processing_delay_ms": 5})
        self.host.request("GET", "/v1/health")
        self.host.admin("POST", "/admin/reset")
        self.assertEqual(self.host.admin("GET", "/admin/faults"),
                         {"drop_after_commit": 0, "delay_ms": 0, "processing_delay_ms": 0,
                          "fail": {"count": 0, "status": 503, "retry_after": 1, "scope": "transactions"}})
        self.assertEqual(self.host.stats()["requests"], 2, "the faults and stats requests only")


class FaultFlagTests(HostTestCase):
    host_args = ("--seed", "demo", "--drop-after-commit", "1", "--fail", "2", "--fail-status", "503",
                 "--retry-after", "2", "--delay-ms", "1", "--processing-delay-ms", "2")

    def setUp(self):
        pass  # keep the faults the flags set

    def test_flags_set_the_initial_faults(self):
        self.assertEqual(self.host.admin("GET", "/admin/faults"),
                         {"drop_after_commit": 1, "delay_ms": 1, "processing_delay_ms": 2,
                          "fail": {"count": 2, "status": 503, "retry_after": 2, "scope": "transactions"}})
        access = self.host.tokens()["access_token"]
        key, raw = new_key(), encode(body("withdrawal", LOW, amount=1))
        self.assertEqual(self.host.submit(access, key, raw).header("Retry-After"), "2")
        self.assertEqual(self.host.submit(access, key, raw).status, 503)
        with self.assertRaises((http.client.HTTPException, ConnectionError)):
            self.host.submit(access, key, raw)
        self.assertEqual(self.host.submit(access, key, raw).header("Idempotent-Replayed"), "true")


if __name__ == "__main__":
    unittest.main()
