"""HTTP behaviour: keep-alive, framing errors, routing, health, accounts and operators."""

import socket
import unittest

from hostprocess import BLOCKED, HELD, LOW, RICH, UNKNOWN, HostTestCase, body, new_key


class KeepAliveTests(HostTestCase):

    def test_many_requests_share_one_connection(self):
        connection = self.host.connection()
        responses = [self.host.request("GET", "/v1/health", connection=connection)]
        sock = connection.sock
        self.assertIsNotNone(sock)
        key = new_key()
        calls = [
            lambda: self.host.get(self.access, f"/v1/accounts/{RICH}", connection),
            lambda: self.host.submit(self.access, key, body(reference="KA"), connection),
            lambda: self.host.submit(self.access, key, body(reference="KA"), connection),
            lambda: self.host.submit(self.access, "bad", body(), connection),
            lambda: self.host.get(self.access, f"/v1/accounts/{UNKNOWN}", connection),
            lambda: self.host.get("nope", f"/v1/accounts/{RICH}", connection),
            lambda: self.host.request("GET", "/nowhere", connection=connection),
            lambda: self.host.request("POST", "/v1/auth/token", {"terminal_id": "T-0001", "secret": "demo-secret-T-0001"},
                                      connection=connection),
            lambda: self.host.get(self.access, f"/v1/accounts/{RICH}/transactions?limit=3", connection),
        ]
        for call in calls:
            response = call()
            responses.append(response)
            self.assertIs(connection.sock, sock, "the host closed a keep-alive connection")
            self.assertEqual(int(response.header("Content-Length")), len(response.body))
            self.assertIsNone(response.header("Connection"))
        self.assertEqual([r.status for r in responses], [200, 200, 201, 201, 400, 404, 401, 404, 200, 200])
        connection.close()

    def test_connection_close_is_honoured(self):
        connection = self.host.connection()
        response = self.host.request("GET", "/v1/health", headers={"Connection": "close"}, connection=connection)
        self.assertEqual(response.header("Connection"), "close")
        self.assertIsNone(connection.sock)

    def raw(self, payload):
        with socket.create_connection(("127.0.0.1", self.host.port), timeout=5) as sock:
            sock.sendall(payload)
            data = b""
            while chunk := sock.recv(65536):
                data += chunk
        return data

    def test_post_without_content_length_has_an_empty_body(self):
        data = self.raw(b"POST /v1/auth/token HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\n"
                        b"Connection: close\r\n\r\n")
        self.assertTrue(data.startswith(b"HTTP/1.1 400 "), data)
        self.assertIn(b'"code":"invalid_json"', data)

    def test_negative_content_length_is_411_and_closes(self):
        data = self.raw(b"POST /v1/auth/token HTTP/1.1\r\nHost: x\r\nContent-Length: -1\r\n\r\n")
        self.assertTrue(data.startswith(b"HTTP/1.1 411 "), data)
        self.assertIn(b"Connection: close", data)

    def test_chunked_body_is_411_and_closes(self):
        data = self.raw(b"POST /v1/auth/token HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\n"
                        b"Transfer-Encoding: chunked\r\n\r\n0\r\n\r\n")
        self.assertTrue(data.startswith(b"HTTP/1.1 411 "), data)
        self.assertIn(b"Connection: close", data)
        self.assertIn(b'"code":"length_required"', data)

    def test_expect_100_continue_is_answered(self):
        # libcurl, under URLSession on Linux, may send Expect: 100-continue with a body.
        payload = b'{"terminal_id":"T-0001","secret":"demo-secret-T-0001"}'
        with socket.create_connection(("127.0.0.1", self.host.port), timeout=5) as sock:
            sock.sendall(b"POST /v1/auth/token HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\n"
                         b"Expect: 100-continue\r\nContent-Length: " + str(len(payload)).encode() + b"\r\n\r\n")
            self.assertTrue(sock.recv(1024).startswith(b"HTTP/1.1 100 Continue"))
            sock.sendall(payload)
            self.assertTrue(sock.recv(65536).startswith(b"HTTP/1.1 200 OK"))

    def test_oversized_body_is_413(self):
        response = self.host.request("POST", "/v1/auth/token", b"{" + b" " * 70_000 + b"}",
                                     {"Content-Type": "application/json"})
        self.assertProblem(response, 413, "payload_too_large")


class RoutingTests(HostTestCase):

    def test_health_needs_no_token(self):
        response = self.host.request("GET", "/v1/health")
        self.assertEqual(response.status, 200)
        self.assertEqual(response.header("Content-Type"), "application/json")
        doc = response.json()
        self.assertEqual((doc["status"], doc["api_version"]), ("ok", "v1"))
        self.assertIn("time", doc)

    def test_unknown_paths_are_404_problems(self):
        for path in ("/", "/v2/health", "/v1/nothing", "/v1/accounts"):
            with self.subTest(path=path):
                self.assertProblem(self.host.get(self.access, path), 404, "not_found")

    def test_wrong_method_is_405_with_allow(self):
        response = self.host.request("POST", "/v1/health", {})
        self.assertProblem(response, 405, "method_not_allowed")
        self.assertEqual(response.header("Allow"), "GET")
        response = self.host.request("GET", "/v1/transactions", headers={"Authorization": "Bearer " + self.access})
        self.assertEqual((response.status, response.header("Allow")), (405, "POST"))
        response = self.host.request("DELETE", f"/v1/accounts/{RICH}", headers={"Authorization": "Bearer " + self.access})
        self.assertEqual(response.status, 405)


class MethodTests(HostTestCase):
    """Any method a path does not support is a 405 problem with Allow, never http.server's HTML 501."""

    PATHS = {
        "/v1/health": "GET",
        "/v1/auth/token": "POST",
        "/v1/auth/refresh": "POST",
        "/v1/operators/verify": "POST",
        "/v1/transactions": "POST",
        "/v1/transactions/0b6f3c52-8a43-4b8e-9d6a-3f1a2b4c5de1": "GET",
        f"/v1/accounts/{RICH}": "GET",
        f"/v1/accounts/{RICH}/transactions": "GET",
        "/admin/stats": "GET",
        "/admin/faults": "GET, POST, DELETE",
    }
    METHODS = ("TRACE", "OPTIONS", "HEAD", "CONNECT", "PUT", "PATCH", "DELETE", "GET", "POST", "FOO", "get")

    def test_every_unsupported_method_is_405_problem_with_allow(self):
        connection = self.host.connection()
        for path, allow in self.PATHS.items():
            for method in self.METHODS:
                if method in allow.split(", "):
                    continue
                with self.subTest(method=method, path=path):
                    # With and without a token: the method is checked before authentication.
                    for headers in ({}, {"Authorization": "Bearer " + self.access}):
                        response = self.host.request(method, path, headers=headers, connection=connection)
                        self.assertEqual(response.status, 405, response.body)
                        self.assertEqual(response.header("Allow"), allow)
                        self.assertEqual(response.header("Content-Type"), "application/problem+json")
                        if method == "HEAD":
                            self.assertEqual(response.body, b"")
                            self.assertGreater(int(response.header("Content-Length")), 0)
                        else:
                            self.assertProblem(response, 405, "method_not_allowed")
        connection.close()

    def test_connect_and_options_star_are_405(self):
        for request_line in (f"CONNECT 127.0.0.1:{self.host.port} HTTP/1.1", "OPTIONS * HTTP/1.1"):
            with self.subTest(request_line=request_line):
                with socket.create_connection(("127.0.0.1", self.host.port), timeout=5) as sock:
                    sock.sendall(request_line.encode() + b"\r\nHost: x\r\nConnection: close\r\n\r\n")
                    data = b""
                    while chunk := sock.recv(65536):
                        data += chunk
                head, _, payload = data.partition(b"\r\n\r\n")
                self.assertTrue(head.startswith(b"HTTP/1.1 405 "), data)
                self.assertIn(b"\r\nContent-Type: application/problem+json", head)
                self.assertIn(b"\r\nAllow: \r\n", head)
                self.assertIn(b'"code":"method_not_allowed"', payload)

    def test_unknown_path_stays_404_for_any_method(self):
        self.assertProblem(self.host.request("FOO", "/v1/nothing"), 404, "not_found")

    def test_allowed_methods_still_work_on_the_same_connection_after_405s(self):
        connection = self.host.connection()
        self.assertEqual(self.host.request("TRACE", "/v1/health", connection=connection).status, 405)
        self.assertEqual(self.host.request("HEAD", "/v1/health", connection=connection).status, 405)
        self.assertEqual(self.host.request("GET", "/v1/health", connection=connection).status, 200)
        connection.close()


class AccountTests(HostTestCase):

    def test_snapshot_fields(self):
        doc = self.host.get(self.access, f"/v1/accounts/{HELD}").json()
        self.assertEqual(set(doc), {"iban", "holder", "currency", "balance", "available", "status", "as_of"})
        self.assertEqual((doc["holder"], doc["currency"], doc["balance"], doc["available"], doc["status"]),
                         ("Camille Martin", "EUR", 830_000, 800_000, "active"))
        self.assertRegex(doc["as_of"], r"Z$")
        self.assertEqual(self.host.get(self.access, f"/v1/accounts/{BLOCKED}").json()["status"], "blocked")

    def test_iban_in_path_is_normalised(self):
        spaced = "de98 1007 0000 2431 4578 02".replace(" ", "%20")
        self.assertEqual(self.host.get(self.access, f"/v1/accounts/{spaced}").json()["iban"], LOW)

    def test_bad_and_unknown_ibans(self):
        self.assertProblem(self.host.get(self.access, "/v1/accounts/DE00100700002431457802"), 400, "invalid_iban")
        self.assertProblem(self.host.get(self.access, f"/v1/accounts/{UNKNOWN}"), 404, "account_not_found")
        self.assertProblem(self.host.get(self.access, f"/v1/accounts/{UNKNOWN}/transactions"), 404, "account_not_found")

    def test_recent_transactions_newest_first_with_limit(self):
        iban = "NL11INGB0007312458"
        for i in range(4):
            self.host.submit(self.access, new_key(), body("deposit", iban, amount=100 + i, reference=f"N{i}"))
        doc = self.host.get(self.access, f"/v1/accounts/{iban}/transactions?limit=3").json()
        self.assertEqual((doc["iban"], doc["currency"]), (iban, "EUR"))
        lines = doc["transactions"]
        self.assertEqual([line["client_reference"] for line in lines], ["N3", "N2", "N1"])
        self.assertEqual(set(lines[0]), {"host_reference", "kind", "direction", "amount", "currency",
                                         "balance_after", "booked_at", "client_reference"})
        self.assertEqual(lines[1]["balance_after"] + 103, lines[0]["balance_after"])
        self.assertEqual(len(self.host.get(self.access, f"/v1/accounts/{iban}/transactions").json()["transactions"]), 4)
        for limit in ("0", "101", "x", "-1"):
            with self.subTest(limit=limit):
                self.assertProblem(self.host.get(self.access, f"/v1/accounts/{iban}/transactions?limit={limit}"),
                                   400, "invalid_parameter", "limit")

    def test_admin_can_put_an_account(self):
        iban = "NL91ABNA0417164300"
        self.host.admin("POST", "/admin/accounts", {"iban": iban, "holder": "Lab Account", "balance": 5, "hold": 2})
        doc = self.host.get(self.access, f"/v1/accounts/{iban}").json()
        self.assertEqual((doc["balance"], doc["available"], doc["currency"]), (5, 3, "EUR"))


class OperatorTests(HostTestCase):

    def verify(self, operator_id, pin):
        return self.host.request("POST", "/v1/operators/verify", {"operator_id": operator_id, "pin": pin},
                                 {"Authorization": "Bearer " + self.access})

    def test_right_pin_returns_display_name(self):
        response = self.verify("1001", "1234")
        self.assertEqual(response.status, 200)
        doc = response.json()
        self.assertEqual((doc["operator_id"], doc["display_name"]), ("1001", "Maria Keller"))
        self.assertIn("verified_at", doc)

    def test_wrong_pin_and_unknown_operator_look_the_same(self):
        wrong = self.assertProblem(self.verify("1001", "9999"), 403, "pin_incorrect")
        unknown = self.assertProblem(self.verify("7777", "1234"), 403, "pin_incorrect")
        self.assertEqual(wrong["detail"], unknown["detail"])
        self.assertEqual(self.host.stats()["pin_failures"], 2)

    def test_disabled_operator(self):
        self.assertProblem(self.verify("1004", "1111"), 403, "operator_disabled")
        self.assertProblem(self.verify("1004", "0000"), 403, "pin_incorrect")

    def test_too_many_wrong_pins_is_429_with_retry_after(self):
        for _ in range(5):
            self.assertProblem(self.verify("1002", "0000"), 403, "pin_incorrect")
        response = self.verify("1002", "2580")
        self.assertProblem(response, 429, "too_many_requests")
        self.assertGreater(int(response.header("Retry-After")), 0)
        self.assertEqual(self.verify("1003", "4711").status, 200, "other operators are not affected")
        self.host.admin("POST", "/admin/reset")
        self.assertEqual(self.verify("1002", "2580").status, 200)

    def test_requires_token_and_fields(self):
        response = self.host.request("POST", "/v1/operators/verify", {"operator_id": "1001", "pin": "1234"})
        self.assertProblem(response, 401, "token_missing")
        self.assertProblem(self.verify("1001", None), 400, "invalid_field", "pin")


if __name__ == "__main__":
    unittest.main()
