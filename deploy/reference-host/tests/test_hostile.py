"""teller-hostile-host: each mode really misbehaves the way docs/reference-host.md says.
Every test starts the hostile host as a subprocess on 127.0.0.1 and talks raw HTTP to it."""

import http.client
import json
import os
import select
import shutil
import signal
import socket
import ssl
import subprocess
import sys
import tempfile
import time
import unittest
import uuid

from hostprocess import HOST_DIR, make_self_signed_certificate

HOSTILE = os.path.join(HOST_DIR, "teller-hostile-host")
LISTENING = "teller-hostile-host: listening on "


class HostileProcess:
    def __init__(self, mode, *args, client_tls=None):
        self.args = ["--mode", mode, *args]
        self.client_tls = client_tls
        self.process = None

    def __enter__(self):
        self.process = subprocess.Popen([sys.executable, HOSTILE, "--port", "0", *self.args],
                                        stdout=subprocess.PIPE, stderr=subprocess.PIPE)
        ready, _, _ = select.select([self.process.stdout], [], [], 10)
        self.line = self.process.stdout.readline().decode() if ready else ""
        scheme = "https" if self.client_tls else "http"
        if not self.line.startswith(f"{LISTENING}{scheme}://127.0.0.1:"):
            self.stop()
            raise AssertionError(f"hostile host did not start: {self.line!r} {self.process.stderr.read()!r}")
        self.port = int(self.line.rsplit(":", 1)[1])
        return self

    def __exit__(self, *_):
        self.stop()

    def stop(self):
        if self.process.poll() is None:
            self.process.send_signal(signal.SIGTERM)
            try:
                self.process.wait(5)
            except subprocess.TimeoutExpired:
                self.process.kill()
                self.process.wait()
        if not self.process.stderr.closed:
            self.stderr_text = self.process.stderr.read().decode(errors="replace")
        self.process.stdout.close()
        self.process.stderr.close()

    def connection(self, timeout=10):
        if self.client_tls:
            return http.client.HTTPSConnection("127.0.0.1", self.port, timeout=timeout, context=self.client_tls)
        return http.client.HTTPConnection("127.0.0.1", self.port, timeout=timeout)

    def request(self, method, path, doc=None, headers=None, connection=None):
        own = connection is None
        connection = connection or self.connection()
        body = json.dumps(doc).encode() if doc is not None else None
        headers = {**({"Content-Type": "application/json"} if doc is not None else {}), **(headers or {})}
        try:
            connection.request(method, path, body=body, headers=headers)
            response = connection.getresponse()
            return response.status, {k.lower(): v for k, v in response.getheaders()}, response.read()
        finally:
            if own:
                connection.close()

    def submit(self, doc, key, connection=None):
        return self.request("POST", "/v1/transactions", doc,
                            {"Idempotency-Key": key, "Authorization": "Bearer hostile-access"}, connection)

    def raw(self, payload, timeout=10):
        sock = socket.create_connection(("127.0.0.1", self.port), timeout=timeout)
        sock.sendall(payload)
        return sock


def submission(kind="deposit", **extra):
    doc = {"kind": kind, "account_iban": "DE54500105170426397158", "amount": 2500, "currency": "EUR",
           "operator_id": "1001", "created_at": "2026-11-29T15:04:58.112+01:00", "client_reference": "0B6F3C52"}
    if kind == "transfer":
        doc["counterparty_iban"] = "ES9121000418450200051332"
    doc.update(extra)
    return doc


POST_BYTES = b"POST /v1/transactions HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nIdempotency-Key: %s\r\nContent-Length: %d\r\n\r\n%s"


def raw_post(key, doc):
    body = json.dumps(doc).encode()
    return POST_BYTES % (key.encode(), len(body), body)


def byte_times(sock, count, since):
    """Reads `count` bytes one recv at a time; returns (data, arrival time of each byte after `since`)."""
    data, times = b"", []
    while len(data) < count:
        chunk = sock.recv(1)
        if not chunk:
            break
        times.append(time.monotonic() - since)
        data += chunk
    return data, times


class PlainBankTests(unittest.TestCase):
    """echo and record-only: a plausible bank, with correct-looking outcomes."""

    def assertCorrectLooking(self, status, headers, body, key, doc, expected_status=201):
        self.assertEqual(status, expected_status, body)
        self.assertEqual(headers["content-type"], "application/json")
        self.assertEqual(int(headers["content-length"]), len(body))
        outcome = json.loads(body)
        self.assertEqual(outcome["outcome"], "posted")
        self.assertEqual(outcome["idempotency_key"], key)
        for name, value in doc.items():
            self.assertEqual(outcome[name], value, name)
        self.assertEqual((outcome["host_reference"], outcome["balance_after"], outcome["available_after"]),
                         ("HOSTILE-1", 0, 0))
        self.assertIn("posted_at", outcome)
        return outcome

    def test_echo_answers_like_a_bank_on_one_keep_alive_connection(self):
        with HostileProcess("echo") as host:
            connection = host.connection()
            status, headers, body = host.request("GET", "/v1/health", connection=connection)
            self.assertEqual((status, headers["content-type"], json.loads(body)), (200, "application/json", {"status": "ok"}))
            sock = connection.sock
            tokens = {"access_token": "hostile-access", "expires_in": 900, "refresh_token": "hostile-refresh",
                      "refresh_expires_in": 2592000}
            for path in ("/v1/auth/token", "/v1/auth/refresh"):
                status, _, body = host.request("POST", path, {"terminal_id": "T-0001", "secret": "s"}, connection=connection)
                self.assertEqual((status, json.loads(body)), (200, tokens))
            status, _, body = host.request("POST", "/v1/operators/verify", {"operator_id": "1002", "pin": "1"},
                                           connection=connection)
            self.assertEqual((status, json.loads(body)), (200, {"operator_id": "1002", "display_name": "Hostile"}))
            status, headers, body = host.request("GET", "/v1/accounts/DE54500105170426397158", connection=connection)
            self.assertEqual((status, headers["content-type"], json.loads(body)["code"]),
                             (404, "application/problem+json", "account_not_found"))
            for doc in (submission(), submission("transfer"), submission("withdrawal", amount=9007199254740991)):
                key = str(uuid.uuid4())
                outcome = self.assertCorrectLooking(*host.submit(doc, key, connection), key, doc)
                self.assertEqual("counterparty_iban" in outcome, doc["kind"] == "transfer")
                status_answer = host.request("GET", f"/v1/transactions/{key}", connection=connection)
                self.assertCorrectLooking(*status_answer, key, doc, expected_status=200)
            self.assertIs(connection.sock, sock, "keep-alive")
            connection.close()

    def test_record_appends_one_json_line_per_request(self):
        directory = tempfile.mkdtemp(prefix="teller-hostile-")
        self.addCleanup(shutil.rmtree, directory, ignore_errors=True)
        record = os.path.join(directory, "requests.jsonl")
        with HostileProcess("record-only", "--record", record) as host:
            key = str(uuid.uuid4())
            self.assertCorrectLooking(*host.submit(submission(), key), key, submission())
            host.request("GET", "/v1/health?x=1", headers={"X-Probe": "Yes"})
        with open(record, encoding="utf-8") as file:
            lines = [json.loads(line) for line in file]
        self.assertEqual([(line["method"], line["path"]) for line in lines],
                         [("POST", "/v1/transactions"), ("GET", "/v1/health?x=1")])
        self.assertEqual(json.loads(lines[0]["body"]), submission())
        self.assertEqual(lines[0]["headers"]["idempotency-key"], key)
        self.assertEqual(lines[1]["headers"]["x-probe"], "Yes")
        self.assertEqual(lines[1]["body"], "")
        self.assertEqual(set(lines[0]), {"method", "path", "headers", "body"})


class WrongOutcomeTests(unittest.TestCase):

    def test_each_wrong_mode_changes_exactly_one_member(self):
        cases = {
            "other-key": ("idempotency_key", None),
            "wrong-amount": ("amount", 25000),
            "wrong-account": ("account_iban", "DE89370400440532013000"),
            "wrong-kind": ("kind", "withdrawal"),
            "wrong-currency": ("currency", "GBP"),
        }
        for mode, (member, wrong) in cases.items():
            with self.subTest(mode=mode), HostileProcess(mode) as host:
                key = str(uuid.uuid4())
                for answer, expected_status in ((host.submit(submission(), key), 201),
                                                (host.request("GET", f"/v1/transactions/{key}"), 200)):
                    status, headers, body = answer
                    self.assertEqual((status, headers["content-type"]), (expected_status, "application/json"))
                    outcome = json.loads(body)
                    expected = {"outcome": "posted", "idempotency_key": key, **submission()}
                    differing = {name for name in expected if outcome.get(name) != expected[name]}
                    self.assertEqual(differing, {member})
                    if wrong is not None:
                        self.assertEqual(outcome[member], wrong)
                    else:
                        uuid.UUID(outcome[member])
        with HostileProcess("wrong-account") as host:
            doc = submission(account_iban="DE89370400440532013000")
            self.assertEqual(json.loads(host.submit(doc, str(uuid.uuid4()))[2])["account_iban"], "DE54500105170426397158")
        with HostileProcess("wrong-kind") as host:
            self.assertEqual(json.loads(host.submit(submission("withdrawal"), str(uuid.uuid4()))[2])["kind"], "deposit")

    def test_till_events_meet_the_same_faults_and_their_own_wrong_members(self):
        event = {"event": "opened", "till_id": 7, "operator_id": "1001", "currency": "EUR",
                 "at": "2026-12-02T08:00:00.000Z", "count": {"5000": 2}, "total": 10000}
        cases = {
            "echo": (None, None),
            "other-key": ("idempotency_key", None),
            "wrong-amount": ("total", 100000),
            "wrong-kind": ("event", "closed"),
            "wrong-currency": ("currency", "GBP"),
            "wrong-till": ("till_id", 8),
        }
        for mode, (member, wrong) in cases.items():
            with self.subTest(mode=mode), HostileProcess(mode) as host:
                key = str(uuid.uuid4())
                status, headers, body = host.request("POST", "/v1/till-events", event,
                                                     {"Idempotency-Key": key, "Authorization": "Bearer hostile-access"})
                self.assertEqual((status, headers["content-type"]), (201, "application/json"))
                outcome = json.loads(body)
                expected = {"outcome": "recorded", "idempotency_key": key,
                            **{name: event[name] for name in ("event", "till_id", "operator_id", "currency", "total", "at")}}
                differing = {name for name in expected if outcome.get(name) != expected[name]}
                self.assertEqual(differing, set() if member is None else {member})
                if wrong is not None:
                    self.assertEqual(outcome[member], wrong)
        with HostileProcess("html-500") as host:
            status, headers, _ = host.request("POST", "/v1/till-events", event,
                                              {"Idempotency-Key": str(uuid.uuid4()), "Authorization": "Bearer hostile-access"})
            self.assertEqual((status, headers["content-type"]), (500, "text/html; charset=iso-8859-1"))

    def test_wrong_content_types_carry_a_correct_outcome(self):
        for mode, content_type in (("wrong-content-type", "text/plain"), ("wrong-content-type-html", "text/html")):
            with self.subTest(mode=mode), HostileProcess(mode) as host:
                key = str(uuid.uuid4())
                status, headers, body = host.submit(submission(), key)
                self.assertEqual((status, headers["content-type"]), (201, content_type))
                self.assertEqual(json.loads(body)["idempotency_key"], key)

    def test_malformed_html_500_and_ok_text_plain(self):
        with HostileProcess("malformed-json") as host:
            status, headers, body = host.submit(submission(), str(uuid.uuid4()))
            self.assertEqual((status, headers["content-type"], int(headers["content-length"])), (200, "application/json", len(body)))
            self.assertTrue(body.startswith(b'{"outcome":"posted"'))
            with self.assertRaises(ValueError):
                json.loads(body)
        with HostileProcess("html-500") as host:
            status, headers, body = host.submit(submission(), str(uuid.uuid4()))
            self.assertEqual(status, 500)
            self.assertTrue(headers["content-type"].startswith("text/html"))
            self.assertIn(b"<html>", body)
            self.assertEqual(host.request("GET", "/v1/health")[0], 200, "only transactions fail")
        with HostileProcess("ok-text-plain") as host:
            status, headers, body = host.submit(submission(), str(uuid.uuid4()))
            self.assertEqual((status, headers["content-type"], body), (200, "text/plain", b"OK"))


class EveryPathTests(unittest.TestCase):

    def test_captive_portal_answers_html_everywhere(self):
        with HostileProcess("captive-portal") as host:
            for method, path in (("GET", "/v1/health"), ("POST", "/v1/auth/token"), ("POST", "/v1/auth/refresh"),
                                 ("POST", "/v1/transactions"), ("GET", "/v1/transactions/x"), ("GET", "/")):
                with self.subTest(path=path):
                    status, headers, body = host.request(method, path, {} if method == "POST" else None)
                    self.assertEqual(status, 200)
                    self.assertTrue(headers["content-type"].startswith("text/html"))
                    self.assertIn(b"<form", body)

    def test_unauthorized_forever(self):
        with HostileProcess("unauthorized") as host:
            expected = {"/v1/auth/token": "invalid_terminal_credentials", "/v1/auth/refresh": "refresh_token_invalid",
                        "/v1/health": "token_invalid", "/v1/transactions": "token_invalid",
                        "/v1/operators/verify": "token_invalid"}
            for _ in range(2):
                for path, code in expected.items():
                    status, headers, body = host.request("POST" if path != "/v1/health" else "GET", path,
                                                         {} if path != "/v1/health" else None)
                    self.assertEqual((status, headers["content-type"], json.loads(body)["code"]),
                                     (401, "application/problem+json", code))
                    self.assertIn("Bearer", headers["www-authenticate"])

    def test_redirects_point_at_the_target_port_and_nothing_reaches_it(self):
        directory = tempfile.mkdtemp(prefix="teller-hostile-")
        self.addCleanup(shutil.rmtree, directory, ignore_errors=True)
        record = os.path.join(directory, "target.jsonl")
        with HostileProcess("record-only", "--record", record) as target:
            for mode, status in (("redirect-302", 302), ("redirect-307", 307)):
                with self.subTest(mode=mode), HostileProcess(mode, "--redirect-to", str(target.port)) as host:
                    for method, path in (("POST", "/v1/transactions"), ("POST", "/v1/auth/token"),
                                         ("GET", "/v1/health"), ("GET", "/v1/accounts/X?limit=3")):
                        answer = host.request(method, path, submission() if method == "POST" else None)
                        self.assertEqual(answer[0], status)
                        self.assertEqual(answer[1]["location"], f"http://127.0.0.1:{target.port}{path}")
            self.assertFalse(os.path.exists(record) and os.path.getsize(record), "http.client follows nothing")
            target.request("GET", "/v1/health")
        with open(record) as file:
            self.assertEqual(len(file.readlines()), 1, "the target does record what reaches it")

    def test_redirect_needs_a_target_and_bind_is_loopback_only(self):
        for args, message in ((["--mode", "redirect-307"], "needs --redirect-to"),
                              (["--mode", "echo", "--bind", "0.0.0.0"], "127.0.0.1 only"),
                              (["--mode", "nonsense"], "invalid choice")):
            result = subprocess.run([sys.executable, HOSTILE, "--port", "0", *args], capture_output=True, text=True, timeout=10)
            self.assertEqual(result.returncode, 2)
            self.assertIn(message, result.stderr)
            self.assertEqual(result.stdout, "")


class SlowAndBrokenTests(unittest.TestCase):

    def test_drip_headers_sends_one_byte_per_second(self):
        with HostileProcess("drip-headers") as host:
            started = time.monotonic()
            with host.raw(b"GET /v1/health HTTP/1.1\r\nHost: x\r\n\r\n") as sock:
                data, times = byte_times(sock, 3, started)
            self.assertEqual(data, b"HTT")
            self.assertLess(times[0], 0.8, "the first byte comes at once")
            self.assertGreater(times[1] - times[0], 0.8)
            self.assertGreater(times[2] - times[0], 1.8)

    def test_drip_body_sends_headers_at_once_then_one_byte_per_second(self):
        with HostileProcess("drip-body") as host:
            key = str(uuid.uuid4())
            with host.raw(raw_post(key, submission())) as sock:
                started = time.monotonic()
                head = b""
                while b"\r\n\r\n" not in head:
                    head += sock.recv(1)
                self.assertLess(time.monotonic() - started, 0.8, "headers are not dripped")
                self.assertTrue(head.startswith(b"HTTP/1.1 201 "), head)
                length = int([line for line in head.split(b"\r\n") if line.lower().startswith(b"content-length:")][0].split(b":")[1])
                self.assertEqual(length, len(json.dumps({"outcome": "posted", "idempotency_key": key, **submission(),
                                                          "host_reference": "HOSTILE-1", "posted_at": "2026-11-29T14:05:00.000Z",
                                                          "balance_after": 0, "available_after": 0},
                                                         separators=(",", ":"))))
                data, times = byte_times(sock, 3, started)
            self.assertEqual(data, b'{"o')
            self.assertGreater(times[1] - times[0], 0.8)
            self.assertGreater(times[2] - times[0], 1.8)

    def test_reset_sends_half_an_answer_then_a_tcp_reset(self):
        with HostileProcess("reset") as host:
            with host.raw(raw_post(str(uuid.uuid4()), submission())) as sock:
                data, reset = b"", False
                try:
                    while chunk := sock.recv(65536):
                        data += chunk
                except ConnectionResetError:
                    reset = True
            self.assertTrue(reset, f"expected a reset, got a clean end after {data!r}")
            if data:  # Linux may drop unread data on a reset; what did arrive is half an answer
                head, _, body = data.partition(b"\r\n\r\n")
                self.assertTrue(head.startswith(b"HTTP/1.1 201 "))
                length = int([line for line in head.split(b"\r\n") if line.lower().startswith(b"content-length:")][0].split(b":")[1])
                self.assertLess(len(body), length)
            self.assertEqual(host.request("GET", "/v1/health")[0], 200, "other paths answer normally")

    def test_huge_body_is_50_mb_and_a_hang_up_is_quiet(self):
        with HostileProcess("huge-body") as host:
            with host.raw(b"GET /v1/health HTTP/1.1\r\nHost: x\r\n\r\n") as sock:
                sock.recv(4096)
            connection = host.connection(timeout=30)
            connection.request("POST", "/v1/transactions", body=b"{}", headers={"Content-Type": "application/json"})
            response = connection.getresponse()
            self.assertEqual((response.status, response.getheader("Content-Type"), response.getheader("Content-Length")),
                             (201, "application/json", str(50 * 1024 * 1024)))
            body = response.read()
            self.assertEqual(len(body), 50 * 1024 * 1024)
            self.assertEqual(json.loads(body)["outcome"], "posted")
            connection.close()
            self.assertEqual(host.request("GET", "/v1/health")[0], 201, "the host lived through the hang-up")
            host.stop()
            self.assertNotIn("Traceback", host.stderr_text)

    def test_sigterm_stops_promptly_while_a_client_is_being_dripped(self):
        with HostileProcess("drip-body") as host:
            with host.raw(b"GET /v1/health HTTP/1.1\r\nHost: x\r\n\r\n") as sock:
                sock.recv(1024)
                started = time.monotonic()
                host.process.send_signal(signal.SIGTERM)
                self.assertEqual(host.process.wait(5), 0)
                self.assertLess(time.monotonic() - started, 2.0)

    def test_https(self):
        directory = tempfile.mkdtemp(prefix="teller-hostile-tls-")
        self.addCleanup(shutil.rmtree, directory, ignore_errors=True)
        cert, key = make_self_signed_certificate(directory)
        client = ssl.create_default_context(cafile=cert)
        with HostileProcess("wrong-amount", "--tls-cert", cert, "--tls-key", key, client_tls=client) as host:
            self.assertEqual(host.line.strip(), f"{LISTENING}https://127.0.0.1:{host.port}")
            key_ = str(uuid.uuid4())
            status, _, body = host.submit(submission(), key_)
            self.assertEqual((status, json.loads(body)["amount"]), (201, 25000))


if __name__ == "__main__":
    unittest.main()
