"""Starts teller-host as a real subprocess on 127.0.0.1 with a free port and a
temporary data file, and talks to it over real HTTP."""

import http.client
import json
import os
import select
import shutil
import signal
import subprocess
import sys
import tempfile
import time
import unittest
import uuid

HERE = os.path.dirname(os.path.abspath(__file__))
HOST_DIR = os.path.dirname(HERE)
HOST = os.path.join(HOST_DIR, "teller-host")
CEILING_CLIENT = os.path.join(HOST_DIR, "ceiling-client")

TERMINAL = "T-0001"
SECRET = "demo-secret-T-0001"
RICH = "DE54500105170426397158"      # Anna Schmidt, EUR 12,500.00
LOW = "DE98100700002431457802"       # Jonas Weber, EUR 42.50
HELD = "FR7630004008230001038247191"  # Camille Martin, balance 8,300.00, hold 300.00
GBP = "GB45BARC20035874120364"       # Oliver Brown, GBP
BLOCKED = "BE66001482756043"         # Lukas Peeters, blocked
EMPTY = "ES9121000418450200051332"   # Lucía García, 0.00
UNKNOWN = "DE89370400440532013000"   # valid IBAN, not at this bank


class Response:
    def __init__(self, status, headers, body):
        self.status = status
        self.headers = headers
        self.body = body

    def json(self):
        return json.loads(self.body)

    def header(self, name):
        return self.headers.get(name.lower())


class HostProcess:
    def __init__(self, *args, data=None, client_tls=None):
        self.args = list(args)
        self.client_tls = client_tls  # an ssl.SSLContext to talk https, or None for http
        self._own_dir = data is None
        self.dir = tempfile.mkdtemp(prefix="teller-host-test-") if data is None else os.path.dirname(data)
        self.data = data or os.path.join(self.dir, "host.db")
        self.process = None

    def start(self, timeout=10):
        self.stderr = open(os.path.join(self.dir, "stderr.log"), "ab")
        self.process = subprocess.Popen(
            [sys.executable, HOST, "--port", "0", "--data", self.data, *self.args],
            stdout=subprocess.PIPE, stderr=self.stderr)
        ready, _, _ = select.select([self.process.stdout], [], [], timeout)
        line = self.process.stdout.readline().decode() if ready else ""
        scheme = "https" if self.client_tls is not None else "http"
        if f"listening on {scheme}://127.0.0.1:" not in line:
            self.stop()
            raise RuntimeError(f"teller-host did not start: {line!r}; see {self.stderr.name}")
        self.url = line.rsplit(" ", 1)[1].strip()
        self.port = int(self.url.rsplit(":", 1)[1])
        return self

    def stop(self, kill=False):
        if self.process is not None and self.process.poll() is None:
            self.process.send_signal(signal.SIGKILL if kill else signal.SIGTERM)
            try:
                self.process.wait(10)
            except subprocess.TimeoutExpired:
                self.process.kill()
                self.process.wait()
        if self.process is not None:
            self.process.stdout.close()
            self.stderr.close()
        self.process = None

    def cleanup(self):
        self.stop()
        if self._own_dir:
            shutil.rmtree(self.dir, ignore_errors=True)

    # MARK: HTTP

    def connection(self, timeout=10):
        if self.client_tls is not None:
            return http.client.HTTPSConnection("127.0.0.1", self.port, timeout=timeout, context=self.client_tls)
        return http.client.HTTPConnection("127.0.0.1", self.port, timeout=timeout)

    def request(self, method, path, body=None, headers=None, connection=None):
        own = connection is None
        connection = connection or self.connection()
        if isinstance(body, (dict, list)):
            body = json.dumps(body).encode()
            headers = {"Content-Type": "application/json", **(headers or {})}
        try:
            connection.request(method, path, body=body, headers=headers or {})
            response = connection.getresponse()
            payload = response.read()
            return Response(response.status, {k.lower(): v for k, v in response.getheaders()}, payload)
        finally:
            if own:
                connection.close()

    def admin(self, method, path, doc=None):
        response = self.request(method, path, body=doc if doc is not None else None)
        if response.status != 200:
            raise AssertionError(f"admin {method} {path}: {response.status} {response.body!r}")
        return response.json()

    def tokens(self, terminal=TERMINAL, secret=SECRET):
        response = self.request("POST", "/v1/auth/token", {"terminal_id": terminal, "secret": secret})
        if response.status != 200:
            raise AssertionError(f"token issue: {response.status} {response.body!r}")
        return response.json()

    def submit(self, access_token, key, body, connection=None, content_type="application/json"):
        """Posts raw bytes exactly (a dict is encoded compactly first)."""
        if isinstance(body, dict):
            body = encode(body)
        headers = {"Authorization": "Bearer " + access_token, "Content-Type": content_type}
        if key is not None:
            headers["Idempotency-Key"] = key
        return self.request("POST", "/v1/transactions", body, headers, connection)

    def get(self, access_token, path, connection=None):
        return self.request("GET", path, headers={"Authorization": "Bearer " + access_token}, connection=connection)

    def journal(self, **filters):
        query = "&".join(f"{k}={v}" for k, v in filters.items())
        return self.admin("GET", "/admin/journal" + ("?" + query if query else ""))["entries"]

    def stats(self):
        return self.admin("GET", "/admin/stats")


def make_self_signed_certificate(directory):
    """A P-256 self-signed certificate for 127.0.0.1 made with openssl: (cert_file, key_file).
    Raises (so the test fails, never skips) when openssl is missing or fails."""
    openssl = shutil.which("openssl")
    if openssl is None:
        raise AssertionError("openssl is needed for the TLS tests and is not installed (apt-get install openssl)")
    cert, key = os.path.join(directory, "cert.pem"), os.path.join(directory, "key.pem")
    result = subprocess.run(
        [openssl, "req", "-x509", "-newkey", "ec", "-pkeyopt", "ec_paramgen_curve:P-256", "-nodes",
         "-subj", "/CN=127.0.0.1", "-addext", "subjectAltName=IP:127.0.0.1", "-days", "2",
         "-keyout", key, "-out", cert], capture_output=True, text=True, timeout=30)
    if result.returncode != 0:
        raise AssertionError(f"openssl req failed: {result.stderr}")
    return cert, key


def encode(doc):
    return json.dumps(doc, separators=(",", ":")).encode()


def body(kind="deposit", account=RICH, amount=500, currency="EUR", counterparty=None, reference=None, **extra):
    doc = {"kind": kind, "account_iban": account, "amount": amount, "currency": currency,
           "operator_id": "1001", "created_at": "2026-11-29T14:05:00Z",
           "client_reference": reference or "REF-" + uuid.uuid4().hex[:8]}
    if counterparty is not None:
        doc["counterparty_iban"] = counterparty
    doc.update(extra)
    return doc


def new_key():
    return str(uuid.uuid4())


class HostTestCase(unittest.TestCase):
    """One host per test class; counters and faults are reset before each test."""

    host_args = ("--seed", "demo")

    @classmethod
    def setUpClass(cls):
        cls.host = HostProcess(*cls.host_args).start()

    @classmethod
    def tearDownClass(cls):
        cls.host.cleanup()

    def setUp(self):
        self.access = self.host.tokens()["access_token"]
        self.host.admin("POST", "/admin/reset")

    def assertProblem(self, response, status, code, field=None):
        self.assertEqual(response.status, status, response.body)
        self.assertEqual(response.header("Content-Type"), "application/problem+json")
        doc = response.json()
        self.assertEqual(doc["status"], status)
        self.assertEqual(doc["code"], code)
        self.assertEqual(doc["type"], "urn:teller:problem:" + code)
        self.assertTrue(doc["title"])
        self.assertTrue(doc["detail"])
        if field is not None:
            self.assertEqual(doc.get("field"), field, doc)
        return doc

    def balance(self, iban):
        return self.host.get(self.access, f"/v1/accounts/{iban}").json()["balance"]

    def wait_for(self, predicate, timeout=5.0):
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            if predicate():
                return True
            time.sleep(0.02)
        return False
