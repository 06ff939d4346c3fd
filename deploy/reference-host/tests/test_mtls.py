"""--tls-client-ca: mutual TLS. The handshake refuses a client without a certificate, with one another
CA signed, or with one out of its validity period; a verified certificate's commonName is the terminal
id, and a request for another terminal (token issue, refresh, any Bearer request) is
403 certificate_terminal_mismatch with nothing issued, spent or stored. make-test-pki makes the
certificates here (it needs `cryptography`; without it the tests fail, they are never skipped)."""

import datetime
import http.client
import ipaddress
import os
import shutil
import socket
import ssl
import stat
import subprocess
import sys
import tempfile
import time
import unittest

from hostprocess import HOST, HOST_DIR, RICH, HostProcess, HostTestCase, body, new_key

MAKE_TEST_PKI = os.path.join(HOST_DIR, "make-test-pki")
SECRETS = {"T-0001": "demo-secret-T-0001", "T-0002": "demo-secret-T-0002"}
HEALTH = b"GET /v1/health HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n"

CERTIFICATES = ("ca", "host", "T-0001", "T-0002", "T-0001-expired", "T-0001-expiring", "T-0001-not-yet-valid",
                "other-ca", "T-0001-other-ca")


def make_test_pki(directory, *options):
    result = subprocess.run([sys.executable, MAKE_TEST_PKI, *options, directory], capture_output=True, text=True,
                            timeout=60)
    if result.returncode != 0:
        raise AssertionError(f"make-test-pki failed ({result.returncode}): {result.stderr}")
    return result


def client_context(pki, certificate=None, maximum=None):
    """Trusts the test CA (the host certificate's issuer) and presents `certificate` (a stem in pki), if any."""
    context = ssl.create_default_context(cafile=os.path.join(pki, "ca.pem"))
    if certificate is not None:
        context.load_cert_chain(os.path.join(pki, certificate + ".pem"), os.path.join(pki, certificate + ".key"))
    if maximum is not None:
        context.maximum_version = maximum
    return context


def run_host(*args):
    return subprocess.run([sys.executable, HOST, "--port", "0", *args], capture_output=True, text=True, timeout=20)


class MutualTlsTests(HostTestCase):

    @classmethod
    def setUpClass(cls):
        cls.pki = tempfile.mkdtemp(prefix="teller-host-mtls-")
        make_test_pki(cls.pki)
        cls.host = HostProcess("--seed", "demo", "--tls-cert", cls.file("host.pem"), "--tls-key", cls.file("host.key"),
                               "--tls-client-ca", cls.file("ca.pem"),
                               client_tls=client_context(cls.pki, "T-0001")).start()

    @classmethod
    def tearDownClass(cls):
        cls.host.cleanup()
        shutil.rmtree(cls.pki, ignore_errors=True)

    @classmethod
    def file(cls, name):
        return os.path.join(cls.pki, name)

    def connection(self, certificate):
        """One keep-alive connection presenting `certificate`."""
        return http.client.HTTPSConnection("127.0.0.1", self.host.port, timeout=10,
                                           context=client_context(self.pki, certificate))

    def tokens(self, terminal, certificate=None, secret=None):
        connection = self.connection(certificate or terminal)
        try:
            response = self.host.request("POST", "/v1/auth/token",
                                         {"terminal_id": terminal, "secret": secret or SECRETS[terminal]},
                                         connection=connection)
        finally:
            connection.close()
        self.assertEqual(response.status, 200, response.body)
        return response.json()

    def refused_handshake(self, certificate=None, maximum=None):
        """The alert a client gets that sends a request at once (as a terminal does): with TLS 1.3 its side
        of the handshake ends before the host has judged the certificate, so the alert comes on the read,
        and it must not be lost to a reset for the request the host never read (tls.linger)."""
        context = client_context(self.pki, certificate, maximum)
        with socket.create_connection(("127.0.0.1", self.host.port), timeout=10) as raw:
            with self.assertRaises(ssl.SSLError) as caught:
                with context.wrap_socket(raw, server_hostname="127.0.0.1") as tls:
                    tls.sendall(HEALTH)
                    time.sleep(0.1)  # a reset after the alert, if the host sends one, has arrived by now
                    answer = tls.recv(1024)
                    self.fail(f"the host answered {answer[:40]!r}")
        return caught.exception.reason

    def assertLogged(self, text):
        path = os.path.join(self.host.dir, "stderr.log")

        def logged():
            with open(path, encoding="utf-8", errors="replace") as log:
                return text in log.read()
        self.assertTrue(self.wait_for(logged), f"{text!r} not in {path}")

    def assertMismatch(self, response, certified, requested):
        doc = self.assertProblem(response, 403, "certificate_terminal_mismatch")
        self.assertEqual(doc["detail"], f"The client certificate is for {certified}; this request is for {requested}.")
        return doc

    # MARK: The handshake

    def test_a_terminal_certificate_gets_a_token_and_posts_on_one_connection(self):
        connection = self.connection("T-0001")
        tokens = self.host.request("POST", "/v1/auth/token", {"terminal_id": "T-0001", "secret": SECRETS["T-0001"]},
                                   connection=connection)
        self.assertEqual(tokens.status, 200, tokens.body)
        sock = connection.sock
        self.assertIn(sock.version(), ("TLSv1.2", "TLSv1.3"))
        self.assertEqual(sock.getpeercert()["subject"], ((("commonName", "127.0.0.1"),),))
        key = new_key()
        posted = self.host.submit(tokens.json()["access_token"], key, body(reference=key[:8].upper()), connection=connection)
        self.assertEqual(posted.status, 201, posted.body)
        self.assertEqual(posted.json()["outcome"], "posted")
        self.assertIs(connection.sock, sock, "keep-alive under mutual TLS")
        connection.close()
        self.assertEqual([entry["idempotency_key"] for entry in self.host.journal(terminal_id="T-0001")
                          if entry["idempotency_key"] == key], [key])

    def test_tls_1_2_with_a_certificate_is_accepted(self):
        context = client_context(self.pki, "T-0001", ssl.TLSVersion.TLSv1_2)
        with socket.create_connection(("127.0.0.1", self.host.port), timeout=10) as raw:
            with context.wrap_socket(raw, server_hostname="127.0.0.1") as tls:
                self.assertEqual(tls.version(), "TLSv1.2")
                tls.sendall(HEALTH)
                self.assertTrue(tls.recv(1024).startswith(b"HTTP/1.1 200 "))

    def test_no_client_certificate_is_refused_by_the_handshake(self):
        self.assertEqual(self.refused_handshake(None), "TLSV13_ALERT_CERTIFICATE_REQUIRED")
        # TLS 1.2 has no "certificate required" alert; OpenSSL sends handshake_failure.
        self.assertEqual(self.refused_handshake(None, ssl.TLSVersion.TLSv1_2), "SSLV3_ALERT_HANDSHAKE_FAILURE")
        self.assertLogged("TLS handshake refused: no client certificate")
        self.assertEqual(self.host.stats()["handshakes_refused"], 2)

    def test_the_alert_is_not_lost_to_a_reset_for_the_unread_request(self):
        # Without tls.linger about half of these lose the alert (an EOF instead); ten in a row catch that.
        reasons = [self.refused_handshake(None) for _ in range(10)]
        self.assertEqual(reasons, ["TLSV13_ALERT_CERTIFICATE_REQUIRED"] * 10)

    def test_a_certificate_another_ca_signed_is_refused(self):
        self.assertEqual(self.refused_handshake("T-0001-other-ca"), "TLSV1_ALERT_UNKNOWN_CA")
        self.assertEqual(self.refused_handshake("T-0001-other-ca", ssl.TLSVersion.TLSv1_2), "TLSV1_ALERT_UNKNOWN_CA")
        self.assertLogged("TLS handshake refused: client certificate refused: unable to get local issuer certificate")

    def test_an_expired_certificate_is_refused(self):
        self.assertEqual(self.refused_handshake("T-0001-expired"), "SSLV3_ALERT_CERTIFICATE_EXPIRED")
        self.assertEqual(self.refused_handshake("T-0001-expired", ssl.TLSVersion.TLSv1_2), "SSLV3_ALERT_CERTIFICATE_EXPIRED")
        self.assertLogged("TLS handshake refused: client certificate refused: certificate has expired")

    def test_a_certificate_not_yet_valid_is_refused(self):
        self.assertEqual(self.refused_handshake("T-0001-not-yet-valid"), "SSLV3_ALERT_BAD_CERTIFICATE")
        self.assertLogged("TLS handshake refused: client certificate refused: certificate is not yet valid")

    def test_a_certificate_without_client_auth_usage_is_refused(self):
        # host.pem: the same CA, but extendedKeyUsage serverAuth only.
        self.assertEqual(self.refused_handshake("host"), "SSLV3_ALERT_UNSUPPORTED_CERTIFICATE")
        self.assertLogged("TLS handshake refused: client certificate refused: unsuitable certificate purpose")

    def test_a_certificate_expiring_soon_still_works(self):
        self.assertEqual(self.tokens("T-0001", certificate="T-0001-expiring")["terminal_id"], "T-0001")

    def test_the_admin_api_needs_a_certificate_too_and_the_host_survives_refusals(self):
        self.refused_handshake(None)
        self.refused_handshake("T-0001-other-ca")
        self.assertEqual(self.host.stats()["handshakes_refused"], 2)  # over a T-0001 connection
        connection = self.connection("T-0002")
        self.assertEqual(self.host.request("GET", "/v1/health", connection=connection).status, 200)
        self.assertEqual(self.host.request("GET", "/admin/stats", connection=connection).status, 200)
        connection.close()

    # MARK: The certificate names the terminal

    def test_a_token_for_another_terminal_than_the_certificates_is_403_and_nothing_is_issued(self):
        connection = self.connection("T-0002")
        for secret in (SECRETS["T-0001"], "a-wrong-secret"):  # 403 before the secret: no oracle for T-0001's
            response = self.host.request("POST", "/v1/auth/token", {"terminal_id": "T-0001", "secret": secret},
                                         connection=connection)
            doc = self.assertMismatch(response, "T-0002", "T-0001")
            self.assertEqual(doc["instance"], "/v1/auth/token")
            self.assertNotIn("access_token", response.json())
        self.assertEqual(self.host.request("POST", "/v1/auth/token", {"terminal_id": "T-0002", "secret": SECRETS["T-0002"]},
                                           connection=connection).status, 200, "the same connection, its own terminal")
        connection.close()
        stats = self.host.stats()
        self.assertEqual((stats["token_issues"], stats["certificate_mismatches"]), (1, 2))
        self.assertEqual(stats["by_terminal"]["T-0002"]["certificate_mismatches"], 2)
        self.assertNotIn("T-0001", stats["by_terminal"])

    def test_another_terminals_access_token_is_403_and_nothing_is_posted(self):
        access = self.tokens("T-0001")["access_token"]
        balance = self.balance(RICH)
        key = new_key()
        payment = body(reference=key[:8].upper())
        connection = self.connection("T-0002")
        self.assertMismatch(self.host.submit(access, key, payment, connection=connection), "T-0002", "T-0001")
        self.assertMismatch(self.host.get(access, f"/v1/accounts/{RICH}", connection=connection), "T-0002", "T-0001")
        self.assertMismatch(self.host.get(access, f"/v1/transactions/{key}", connection=connection), "T-0002", "T-0001")
        self.assertMismatch(self.host.request("POST", "/v1/till-events", {"event": "opened"}, connection=connection,
                                              headers={"Authorization": "Bearer " + access, "Idempotency-Key": new_key()}),
                            "T-0002", "T-0001")
        self.assertMismatch(self.host.request("POST", "/v1/operators/verify", {"operator_id": "1001", "pin": "0000"},
                                              headers={"Authorization": "Bearer " + access}, connection=connection),
                            "T-0002", "T-0001")
        connection.close()
        self.assertEqual(self.balance(RICH), balance)
        self.assertEqual([entry for entry in self.host.journal() if entry["idempotency_key"] == key], [])
        stats = self.host.stats()
        self.assertEqual((stats["submissions"], stats["postings"], stats["pin_failures"]), (0, 0, 0))
        # The key was never claimed: the same request over T-0001's own connection posts, once.
        posted = self.host.submit(access, key, payment)
        self.assertEqual(posted.status, 201, posted.body)
        self.assertNotIn("idempotent-replayed", posted.headers)

    def test_the_mapping_is_per_connection(self):
        own = self.tokens("T-0002")["access_token"]
        other = self.tokens("T-0001")["access_token"]
        connection = self.connection("T-0002")
        self.assertEqual(self.host.get(own, f"/v1/accounts/{RICH}", connection=connection).status, 200)
        sock = connection.sock
        self.assertMismatch(self.host.get(other, f"/v1/accounts/{RICH}", connection=connection), "T-0002", "T-0001")
        self.assertEqual(self.host.get(own, f"/v1/accounts/{RICH}", connection=connection).status, 200)
        self.assertIs(connection.sock, sock, "a 403 keeps the connection")
        connection.close()
        # T-0001's own certificate, another connection: its token works.
        self.assertEqual(self.host.get(other, f"/v1/accounts/{RICH}").status, 200)

    def test_another_terminals_refresh_token_is_403_and_stays_unspent(self):
        refresh = self.tokens("T-0001")["refresh_token"]
        connection = self.connection("T-0002")
        self.assertMismatch(self.host.request("POST", "/v1/auth/refresh", {"refresh_token": refresh}, connection=connection),
                            "T-0002", "T-0001")
        connection.close()
        self.assertEqual(self.host.stats()["refreshes"], 0)
        refreshed = self.host.request("POST", "/v1/auth/refresh", {"refresh_token": refresh})
        self.assertEqual(refreshed.status, 200, refreshed.body)
        self.assertEqual(refreshed.json()["terminal_id"], "T-0001")

    def test_a_certificate_without_a_common_name_acts_for_no_terminal(self):
        from cryptography import x509
        from cryptography.hazmat.primitives import hashes, serialization
        from cryptography.hazmat.primitives.asymmetric import ec
        from cryptography.x509.oid import ExtendedKeyUsageOID, NameOID
        with open(self.file("ca.key"), "rb") as file:
            ca_key = serialization.load_pem_private_key(file.read(), None)
        with open(self.file("ca.pem"), "rb") as file:
            ca = x509.load_pem_x509_certificate(file.read())
        key = ec.generate_private_key(ec.SECP256R1())
        now = datetime.datetime.now(datetime.timezone.utc)
        certificate = (x509.CertificateBuilder()
                       .subject_name(x509.Name([x509.NameAttribute(NameOID.ORGANIZATION_NAME, "T-0001")]))
                       .issuer_name(ca.subject).public_key(key.public_key()).serial_number(x509.random_serial_number())
                       .not_valid_before(now - datetime.timedelta(hours=1)).not_valid_after(now + datetime.timedelta(days=1))
                       .add_extension(x509.ExtendedKeyUsage([ExtendedKeyUsageOID.CLIENT_AUTH]), critical=False)
                       .sign(ca_key, hashes.SHA256()))
        with open(self.file("no-cn.pem"), "wb") as file:
            file.write(certificate.public_bytes(serialization.Encoding.PEM))
        with open(self.file("no-cn.key"), "wb") as file:
            file.write(key.private_bytes(serialization.Encoding.PEM, serialization.PrivateFormat.PKCS8,
                                         serialization.NoEncryption()))
        access = self.tokens("T-0001")["access_token"]
        connection = self.connection("no-cn")
        self.assertEqual(self.host.request("GET", "/v1/health", connection=connection).status, 200)
        doc = self.assertProblem(self.host.request("POST", "/v1/auth/token", {"terminal_id": "T-0001", "secret": SECRETS["T-0001"]},
                                                   connection=connection), 403, "certificate_terminal_mismatch")
        self.assertIn("names no terminal", doc["detail"])
        self.assertProblem(self.host.get(access, f"/v1/accounts/{RICH}", connection=connection), 403,
                           "certificate_terminal_mismatch")
        connection.close()

    def test_token_errors_come_before_the_certificate_check(self):
        connection = self.connection("T-0002")
        self.assertProblem(self.host.get("tha_" + "x" * 43, f"/v1/accounts/{RICH}", connection=connection), 401, "token_invalid")
        self.assertProblem(self.host.request("POST", "/v1/auth/refresh", {"refresh_token": "thr_unknown"}, connection=connection),
                           401, "refresh_token_invalid")
        self.assertProblem(self.host.request("POST", "/v1/auth/token", {"terminal_id": "T-0002"}, connection=connection),
                           400, "invalid_field", "secret")
        connection.close()


class WithoutClientCaTests(unittest.TestCase):
    """Without --tls-client-ca a client certificate is neither asked for nor looked at."""

    @classmethod
    def setUpClass(cls):
        cls.pki = tempfile.mkdtemp(prefix="teller-host-mtls-")
        make_test_pki(cls.pki)
        cls.host = HostProcess("--seed", "demo", "--tls-cert", os.path.join(cls.pki, "host.pem"),
                               "--tls-key", os.path.join(cls.pki, "host.key"),
                               client_tls=client_context(cls.pki)).start()

    @classmethod
    def tearDownClass(cls):
        cls.host.cleanup()
        shutil.rmtree(cls.pki, ignore_errors=True)

    def test_no_certificate_and_any_certificate_work_as_before(self):
        self.assertEqual(self.host.tokens()["terminal_id"], "T-0001")
        for certificate in ("T-0002", "T-0001-other-ca", "T-0001-expired"):
            connection = http.client.HTTPSConnection("127.0.0.1", self.host.port, timeout=10,
                                                     context=client_context(self.pki, certificate))
            response = self.host.request("POST", "/v1/auth/token", {"terminal_id": "T-0001", "secret": SECRETS["T-0001"]},
                                         connection=connection)
            self.assertEqual(response.status, 200, (certificate, response.body))
            access = response.json()["access_token"]
            self.assertEqual(self.host.submit(access, new_key(), body(), connection=connection).status, 201)
            connection.close()
        stats = self.host.request("GET", "/admin/stats").json()
        self.assertEqual((stats["handshakes_refused"], stats["certificate_mismatches"]), (0, 0))


class ClientCaArgumentTests(unittest.TestCase):

    @classmethod
    def setUpClass(cls):
        cls.pki = tempfile.mkdtemp(prefix="teller-host-mtls-")
        make_test_pki(cls.pki)
        cls.data = os.path.join(cls.pki, "x.db")

    @classmethod
    def tearDownClass(cls):
        shutil.rmtree(cls.pki, ignore_errors=True)

    def tls(self, ca):
        return ("--data", self.data, "--tls-cert", os.path.join(self.pki, "host.pem"),
                "--tls-key", os.path.join(self.pki, "host.key"), "--tls-client-ca", ca)

    def test_client_ca_without_tls_cert_is_a_usage_error(self):
        result = run_host("--data", self.data, "--tls-client-ca", os.path.join(self.pki, "ca.pem"))
        self.assertEqual(result.returncode, 2, result.stderr)
        self.assertIn("--tls-client-ca needs --tls-cert and --tls-key", result.stderr)
        self.assertEqual(result.stdout, "")

    def test_a_garbage_ca_file_is_a_clear_error_naming_it(self):
        garbage = os.path.join(self.pki, "garbage.pem")
        with open(garbage, "w") as file:
            file.write("-----BEGIN CERTIFICATE-----\nnot base64 at all\n-----END CERTIFICATE-----\n")
        result = run_host(*self.tls(garbage))
        self.assertEqual(result.returncode, 2, result.stderr)
        self.assertIn(f"--tls-client-ca: cannot load {garbage}", result.stderr)
        self.assertNotIn("listening", result.stdout)

    def test_a_missing_ca_file_is_a_clear_error_naming_it(self):
        missing = os.path.join(self.pki, "missing.pem")
        result = run_host(*self.tls(missing))
        self.assertEqual(result.returncode, 2, result.stderr)
        self.assertIn(f"--tls-client-ca: cannot load {missing}", result.stderr)

    def test_a_file_without_a_ca_certificate_is_refused(self):
        for name in ("T-0001.pem", "ca.key"):
            path = os.path.join(self.pki, name)
            result = run_host(*self.tls(path))
            self.assertEqual(result.returncode, 2, result.stderr)
            self.assertIn("--tls-client-ca: ", result.stderr)
            self.assertIn(path, result.stderr)


class MakeTestPkiTests(unittest.TestCase):

    @classmethod
    def setUpClass(cls):
        from cryptography import x509  # a missing package fails here: never a skip
        cls.x509 = x509
        cls.pki = tempfile.mkdtemp(prefix="teller-test-pki-")
        cls.started = datetime.datetime.now(datetime.timezone.utc)
        cls.result = make_test_pki(cls.pki)

    @classmethod
    def tearDownClass(cls):
        shutil.rmtree(cls.pki, ignore_errors=True)

    def load(self, stem):
        with open(os.path.join(self.pki, stem + ".pem"), "rb") as file:
            return self.x509.load_pem_x509_certificate(file.read())

    def common_name(self, name):
        from cryptography.x509.oid import NameOID
        return [attribute.value for attribute in name.get_attributes_for_oid(NameOID.COMMON_NAME)]

    def days_from_now(self, instant):
        return (instant - self.started).total_seconds() / 86_400

    def test_it_writes_every_file_quietly_with_private_keys(self):
        self.assertEqual(self.result.stdout + self.result.stderr, "")
        self.assertEqual(sorted(os.listdir(self.pki)),
                         sorted(stem + suffix for stem in CERTIFICATES for suffix in (".pem", ".key")))
        for stem in CERTIFICATES:
            path = os.path.join(self.pki, stem + ".key")
            self.assertEqual(stat.S_IMODE(os.stat(path).st_mode), 0o600, path)
            with open(path) as file:
                self.assertEqual(file.readline(), "-----BEGIN PRIVATE KEY-----\n", "PKCS#8")

    def test_names_issuers_and_keys(self):
        from cryptography.hazmat.primitives.asymmetric import ec
        ca, other = self.load("ca"), self.load("other-ca")
        self.assertEqual(self.common_name(ca.subject), ["Teller Test Terminal CA"])
        self.assertTrue(ca.extensions.get_extension_for_class(self.x509.BasicConstraints).value.ca)
        expected = {"host": "127.0.0.1", "T-0001": "T-0001", "T-0002": "T-0002", "T-0001-expired": "T-0001",
                    "T-0001-expiring": "T-0001", "T-0001-not-yet-valid": "T-0001", "T-0001-other-ca": "T-0001"}
        for stem, name in expected.items():
            certificate = self.load(stem)
            self.assertEqual(self.common_name(certificate.subject), [name], stem)
            issuer = other if stem == "T-0001-other-ca" else ca
            self.assertEqual(certificate.issuer, issuer.subject, stem)
            certificate.verify_directly_issued_by(issuer)
            self.assertIsInstance(certificate.public_key(), ec.EllipticCurvePublicKey)
            self.assertEqual(certificate.public_key().curve.name, "secp256r1")
            usage = certificate.extensions.get_extension_for_class(self.x509.ExtendedKeyUsage).value
            wanted = self.x509.oid.ExtendedKeyUsageOID.SERVER_AUTH if stem == "host" else self.x509.oid.ExtendedKeyUsageOID.CLIENT_AUTH
            self.assertEqual(list(usage), [wanted], stem)
        alt = self.load("host").extensions.get_extension_for_class(self.x509.SubjectAlternativeName).value
        self.assertEqual(alt.get_values_for_type(self.x509.IPAddress),
                         [ipaddress.ip_address("127.0.0.1"), ipaddress.ip_address("::1")])
        self.assertEqual(alt.get_values_for_type(self.x509.DNSName), ["localhost"])

    def test_validity_periods(self):
        def period(stem):
            certificate = self.load(stem)
            return (round(self.days_from_now(certificate.not_valid_before_utc), 1),
                    round(self.days_from_now(certificate.not_valid_after_utc)))
        for stem in ("host", "T-0001", "T-0002", "T-0001-other-ca"):
            self.assertEqual(period(stem), (-0.0, 30), stem)
        self.assertEqual(period("T-0001-expired"), (-30.0, -1))
        self.assertEqual(period("T-0001-expiring"), (-0.0, 10))
        self.assertEqual(period("T-0001-not-yet-valid")[0], 10.0)
        before = self.days_from_now(self.load("T-0001").not_valid_before_utc) * 24
        self.assertAlmostEqual(before, -1, delta=0.05, msg="valid from an hour ago")

    def test_days_option_and_failure(self):
        directory = os.path.join(self.pki, "..", os.path.basename(self.pki) + "-days")
        try:
            make_test_pki(directory, "--days", "5")
            self.assertEqual(round(self.days_from_now(self.load_from(directory, "T-0002").not_valid_after_utc)), 5)
            self.assertEqual(round(self.days_from_now(self.load_from(directory, "host").not_valid_after_utc)), 5)
        finally:
            shutil.rmtree(directory, ignore_errors=True)
        blocker = os.path.join(self.pki, "ca.pem")  # a file where DIR should be a directory
        result = subprocess.run([sys.executable, MAKE_TEST_PKI, os.path.join(blocker, "sub")],
                                capture_output=True, text=True, timeout=30)
        self.assertEqual(result.returncode, 1)
        self.assertIn("make-test-pki: cannot write into", result.stderr)
        self.assertEqual(result.stdout, "")

    def load_from(self, directory, stem):
        with open(os.path.join(directory, stem + ".pem"), "rb") as file:
            return self.x509.load_pem_x509_certificate(file.read())


if __name__ == "__main__":
    unittest.main()
