"""Terminal tokens: issue, refresh with rotation, expiry, and the 401 answers."""

import time
import unittest

from hostprocess import RICH, HostProcess, HostTestCase, body, new_key


class TokenTests(HostTestCase):

    def test_issue_returns_access_and_refresh_with_expiries(self):
        doc = self.host.tokens()
        self.assertEqual(doc["token_type"], "Bearer")
        self.assertEqual(doc["terminal_id"], "T-0001")
        self.assertTrue(doc["access_token"].startswith("tha_"))
        self.assertTrue(doc["refresh_token"].startswith("thr_"))
        self.assertEqual(doc["expires_in"], 900)
        self.assertEqual(doc["refresh_expires_in"], 30 * 86_400)
        self.assertRegex(doc["expires_at"], r"^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$")
        self.assertRegex(doc["refresh_expires_at"], r"^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$")
        self.assertEqual(self.host.stats()["token_issues"], 1)

    def test_wrong_secret_or_unknown_terminal_is_401(self):
        for terminal, secret in (("T-0001", "wrong-secret"), ("T-9999", "demo-secret-T-0001")):
            response = self.host.request("POST", "/v1/auth/token", {"terminal_id": terminal, "secret": secret})
            self.assertProblem(response, 401, "invalid_terminal_credentials")
            self.assertIsNotNone(response.header("WWW-Authenticate"))
        self.assertEqual(self.host.stats()["token_issues"], 0)

    def test_missing_fields_are_400_naming_the_field(self):
        self.assertProblem(self.host.request("POST", "/v1/auth/token", {"terminal_id": "T-0001"}), 400, "invalid_field", "secret")
        self.assertProblem(self.host.request("POST", "/v1/auth/token", {"secret": "x"}), 400, "invalid_field", "terminal_id")
        self.assertProblem(self.host.request("POST", "/v1/auth/refresh", {}), 400, "invalid_field", "refresh_token")

    def test_refresh_rotates_the_refresh_token(self):
        first = self.host.tokens()
        refreshed = self.host.request("POST", "/v1/auth/refresh", {"refresh_token": first["refresh_token"]})
        self.assertEqual(refreshed.status, 200)
        second = refreshed.json()
        self.assertNotEqual(second["access_token"], first["access_token"])
        self.assertNotEqual(second["refresh_token"], first["refresh_token"])
        self.assertEqual(self.host.get(second["access_token"], f"/v1/accounts/{RICH}").status, 200)
        # The old access token stays valid until it expires; the old refresh token is spent.
        self.assertEqual(self.host.get(first["access_token"], f"/v1/accounts/{RICH}").status, 200)
        self.assertProblem(self.host.request("POST", "/v1/auth/refresh", {"refresh_token": first["refresh_token"]}),
                           401, "refresh_token_invalid")
        self.assertEqual(self.host.stats()["refreshes"], 1)
        self.assertEqual(self.host.stats()["by_terminal"]["T-0001"]["refreshes"], 1)

    def test_missing_and_garbage_tokens_are_401(self):
        response = self.host.request("GET", f"/v1/accounts/{RICH}")
        self.assertProblem(response, 401, "token_missing")
        self.assertIn('error="invalid_token"', response.header("WWW-Authenticate"))
        response = self.host.request("GET", f"/v1/accounts/{RICH}", headers={"Authorization": "Basic abc"})
        self.assertProblem(response, 401, "token_missing")
        self.assertProblem(self.host.get("thr_" + "x" * 43, f"/v1/accounts/{RICH}"), 401, "token_invalid")
        # A refresh token is not an access token.
        self.assertProblem(self.host.get(self.host.tokens()["refresh_token"], f"/v1/accounts/{RICH}"), 401, "token_invalid")
        self.assertEqual(self.host.stats()["unauthorized"], 4)

    def test_admin_expiry_of_access_tokens_keeps_refresh_tokens(self):
        doc = self.host.tokens()
        self.assertGreaterEqual(self.host.admin("POST", "/admin/tokens/expire")["expired"], 1)
        self.assertProblem(self.host.get(doc["access_token"], f"/v1/accounts/{RICH}"), 401, "token_expired")
        refreshed = self.host.request("POST", "/v1/auth/refresh", {"refresh_token": doc["refresh_token"]})
        self.assertEqual(refreshed.status, 200)
        self.assertEqual(self.host.get(refreshed.json()["access_token"], f"/v1/accounts/{RICH}").status, 200)

    def test_admin_expiry_can_include_refresh_tokens(self):
        doc = self.host.tokens()
        self.host.admin("POST", "/admin/tokens/expire", {"include_refresh": True})
        self.assertProblem(self.host.request("POST", "/v1/auth/refresh", {"refresh_token": doc["refresh_token"]}),
                           401, "refresh_token_expired")
        self.assertEqual(self.host.tokens()["token_type"], "Bearer", "the terminal secret still works")

    def test_terminal_registered_through_admin(self):
        self.host.admin("POST", "/admin/terminals", {"terminal_id": "LAB-9", "secret": "lab-secret-9"})
        self.assertEqual(self.host.tokens("LAB-9", "lab-secret-9")["terminal_id"], "LAB-9")


class ShortLivedTokenTests(HostTestCase):
    host_args = ("--seed", "demo", "--access-ttl", "1", "--terminal", "LAB-1:lab-secret-1")

    def test_access_token_expires_after_access_ttl_and_refresh_recovers(self):
        doc = self.host.tokens("LAB-1", "lab-secret-1")
        self.assertEqual(doc["expires_in"], 1)
        self.assertEqual(self.host.submit(doc["access_token"], new_key(), body()).status, 201)
        time.sleep(1.2)
        key = new_key()
        response = self.host.submit(doc["access_token"], key, body())
        self.assertProblem(response, 401, "token_expired")
        self.assertIn("Bearer", response.header("WWW-Authenticate"))
        refreshed = self.host.request("POST", "/v1/auth/refresh", {"refresh_token": doc["refresh_token"]}).json()
        self.assertEqual(self.host.submit(refreshed["access_token"], key, body()).status, 201)
        stats = self.host.stats()["by_terminal"]["LAB-1"]
        self.assertEqual((stats["token_issues"], stats["refreshes"], stats["unauthorized"], stats["postings"]), (1, 1, 1, 2))


if __name__ == "__main__":
    unittest.main()
