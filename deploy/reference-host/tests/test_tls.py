"""--tls-cert/--tls-key: the reference host serves https (TLS 1.2 or later) with a self-signed
certificate that openssl makes here. No openssl is a failure, not a skip."""

import os
import shutil
import socket
import ssl
import subprocess
import sys
import tempfile
import unittest

from hostprocess import HOST, RICH, HostProcess, body, make_self_signed_certificate, new_key


class TlsTests(unittest.TestCase):

    @classmethod
    def setUpClass(cls):
        cls.dir = tempfile.mkdtemp(prefix="teller-host-tls-")
        cls.cert, cls.key = make_self_signed_certificate(cls.dir)
        cls.client = ssl.create_default_context(cafile=cls.cert)
        cls.host = HostProcess("--seed", "demo", "--tls-cert", cls.cert, "--tls-key", cls.key,
                               client_tls=cls.client).start()

    @classmethod
    def tearDownClass(cls):
        cls.host.cleanup()
        shutil.rmtree(cls.dir, ignore_errors=True)

    def test_listening_line_says_https(self):
        self.assertEqual(self.host.url, f"https://127.0.0.1:{self.host.port}")

    def test_whole_flow_over_verified_https_on_one_connection(self):
        connection = self.host.connection()
        self.assertEqual(self.host.request("GET", "/v1/health", connection=connection).status, 200)
        sock = connection.sock
        self.assertIsInstance(sock, ssl.SSLSocket)
        self.assertIn(sock.version(), ("TLSv1.2", "TLSv1.3"))
        access = self.host.request("POST", "/v1/auth/token", {"terminal_id": "T-0001", "secret": "demo-secret-T-0001"},
                                   connection=connection).json()["access_token"]
        key = new_key()
        posted = self.host.submit(access, key, body(reference=key[:8].upper()), connection=connection)
        self.assertEqual(posted.status, 201, posted.body)
        self.assertEqual(posted.json()["client_reference"], key[:8].upper())
        self.assertEqual(self.host.get(access, f"/v1/accounts/{RICH}", connection=connection).status, 200)
        self.assertIs(connection.sock, sock, "keep-alive over TLS")
        connection.close()

    def test_tls_1_2_is_accepted_and_is_the_floor(self):
        client = ssl.SSLContext(ssl.PROTOCOL_TLS_CLIENT)
        client.load_verify_locations(self.cert)
        client.minimum_version = ssl.TLSVersion.TLSv1_2
        client.maximum_version = ssl.TLSVersion.TLSv1_2
        with socket.create_connection(("127.0.0.1", self.host.port), timeout=5) as raw:
            with client.wrap_socket(raw, server_hostname="127.0.0.1") as tls:
                self.assertEqual(tls.version(), "TLSv1.2", "TLS 1.2 is accepted")
        # The server context itself is what enforces the floor.
        sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
        from tellerhost.tls import server_context
        self.assertEqual(server_context(self.cert, self.key).minimum_version, ssl.TLSVersion.TLSv1_2)

    def test_untrusted_client_fails_and_plain_http_gets_no_answer(self):
        with self.assertRaises(ssl.SSLCertVerificationError):
            with socket.create_connection(("127.0.0.1", self.host.port), timeout=5) as raw:
                ssl.create_default_context().wrap_socket(raw, server_hostname="127.0.0.1")
        with socket.create_connection(("127.0.0.1", self.host.port), timeout=5) as raw:
            raw.sendall(b"GET /v1/health HTTP/1.1\r\nHost: x\r\n\r\n")
            try:
                data = raw.recv(1024)
            except ConnectionResetError:
                data = b""
            self.assertFalse(data.startswith(b"HTTP/1.1 200"), data)
        # The host survives both and still answers.
        self.assertEqual(self.host.request("GET", "/v1/health").status, 200)

    def test_cert_without_key_is_a_usage_error(self):
        result = subprocess.run([sys.executable, HOST, "--port", "0", "--data", os.path.join(self.dir, "x.db"),
                                 "--tls-cert", self.cert], capture_output=True, text=True, timeout=10)
        self.assertEqual(result.returncode, 2)
        self.assertIn("--tls-cert and --tls-key go together", result.stderr)


if __name__ == "__main__":
    unittest.main()
