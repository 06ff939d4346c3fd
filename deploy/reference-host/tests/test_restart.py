"""What survives a restart: seed idempotency, balances, tokens, keys; and what a
killed process leaves behind."""

import os
import shutil
import tempfile
import threading
import time
import unittest

from hostprocess import RICH, HostProcess, body, encode, new_key


class RestartTests(unittest.TestCase):

    def setUp(self):
        self.dir = tempfile.mkdtemp(prefix="teller-host-restart-")
        self.data = os.path.join(self.dir, "host.db")
        self.host = None

    def tearDown(self):
        if self.host is not None:
            self.host.stop()
        shutil.rmtree(self.dir, ignore_errors=True)

    def start(self, *args):
        self.host = HostProcess("--seed", "demo", *args, data=self.data).start()
        return self.host

    def test_seed_is_idempotent_and_keeps_balances_tokens_and_keys(self):
        host = self.start()
        tokens = host.tokens()
        counts = host.stats()["store"]
        self.assertEqual((counts["accounts"], counts["operators"], counts["terminals"]), (8, 5, 2))
        key, raw = new_key(), encode(body(amount=5000))
        first = host.submit(tokens["access_token"], key, raw)
        balance = first.json()["balance_after"]
        host.stop()

        host = self.start()
        counts = host.stats()["store"]
        self.assertEqual((counts["accounts"], counts["operators"], counts["terminals"], counts["journal"]), (8, 5, 2, 1))
        self.assertEqual(host.get(tokens["access_token"], f"/v1/accounts/{RICH}").json()["balance"], balance,
                         "re-seeding must not reset balances; the access token survives the restart")
        again = host.submit(tokens["access_token"], key, raw)
        self.assertEqual((again.status, again.body, again.header("Idempotent-Replayed")), (201, first.body, "true"))
        self.assertEqual(host.request("POST", "/v1/auth/refresh", {"refresh_token": tokens["refresh_token"]}).status, 200)

    def test_killed_mid_processing_leaves_no_posting_and_frees_the_key(self):
        host = self.start("--processing-delay-ms", "3000")
        access = host.tokens()["access_token"]
        before = host.get(access, f"/v1/accounts/{RICH}").json()["balance"]
        key, raw = new_key(), encode(body(amount=900))
        errors = []

        def submit():
            try:
                host.submit(access, key, raw)
            except Exception as error:  # the host dies under this request
                errors.append(error)

        thread = threading.Thread(target=submit)
        thread.start()
        deadline = time.monotonic() + 5
        while host.stats()["submissions"] < 1 and time.monotonic() < deadline:
            time.sleep(0.02)
        host.stop(kill=True)
        thread.join()
        self.assertTrue(errors)

        host = self.start()
        self.assertEqual(host.get(access, f"/v1/transactions/{key}").status, 404)
        self.assertEqual(host.get(access, f"/v1/accounts/{RICH}").json()["balance"], before)
        self.assertEqual(host.submit(access, key, raw).status, 201)
        self.assertEqual(len([e for e in host.journal() if e["idempotency_key"] == key]), 1)

    def test_keys_are_forgotten_after_the_retention(self):
        host = self.start("--key-retention-days", "0.00001")  # 0.864 s
        access = host.tokens()["access_token"]
        key = new_key()
        host.submit(access, key, body())
        self.assertEqual(host.get(access, f"/v1/transactions/{key}").status, 200)
        time.sleep(1.0)
        self.assertGreaterEqual(host.admin("POST", "/admin/purge")["purged_keys"], 1)
        self.assertEqual(host.get(access, f"/v1/transactions/{key}").status, 404)
        self.assertEqual(len(host.journal()), 1, "the journal is the ledger and is never purged")


if __name__ == "__main__":
    unittest.main()
