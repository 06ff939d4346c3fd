"""In-process checks of the pieces that need no running host, and of the admin
gate for peers that a loopback-only test machine cannot produce."""

import http.client
import json
import os
import sys
import tempfile
import threading
import unittest

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))

from tellerhost import iban  # noqa: E402
from tellerhost.seed import ACCOUNTS, seed_demo  # noqa: E402
from tellerhost.server import Config, HostHandler, HostServer, is_loopback_peer  # noqa: E402
from tellerhost.store import MIGRATIONS, Store  # noqa: E402


class IbanTests(unittest.TestCase):

    def test_demo_ibans_pass_mod97_and_country_length(self):
        for account in ACCOUNTS:
            with self.subTest(iban=account[0]):
                self.assertTrue(iban.is_valid(account[0]))
                self.assertEqual(len(account[0]), iban.COUNTRY_LENGTHS[account[0][:2]])

    def test_rejects_bad_check_digits_length_and_shape(self):
        self.assertTrue(iban.is_valid("GB82WEST12345698765432"))
        for bad in ("GB82WEST12345698765431", "DE5450010517042639715", "de54500105170426397158",
                    "DE54 5001 0517 0426 3971 58", "", "XX", None):
            with self.subTest(bad=bad):
                self.assertFalse(iban.is_valid(bad))
        self.assertEqual(iban.normalize("de54 5001 0517 0426 3971 58"), "DE54500105170426397158")


class LoopbackGateTests(unittest.TestCase):

    def test_is_loopback_peer(self):
        for address in ("127.0.0.1", "127.1.2.3", "::1", "::ffff:127.0.0.1"):
            self.assertTrue(is_loopback_peer(address), address)
        for address in ("10.0.0.5", "192.168.1.2", "192.0.2.10", "::ffff:10.0.0.5", "fe80::1%eth0", "2001:db8::1", "", "junk"):
            self.assertFalse(is_loopback_peer(address), address)

    def test_admin_refuses_a_remote_peer_but_v1_serves_it(self):
        class RemotePeerHandler(HostHandler):
            def setup(self):
                super().setup()
                self.client_address = ("192.0.2.10", 40000)  # as if it came from the branch network

        with tempfile.TemporaryDirectory() as directory:
            store = Store(os.path.join(directory, "host.db"))
            seed_demo(store)
            server = HostServer(("127.0.0.1", 0), store, Config(), handler=RemotePeerHandler)
            thread = threading.Thread(target=server.serve_forever, daemon=True)
            thread.start()
            try:
                connection = http.client.HTTPConnection("127.0.0.1", server.server_address[1], timeout=5)
                for method, path in (("GET", "/admin/stats"), ("POST", "/admin/faults"), ("GET", "/admin/journal")):
                    connection.request(method, path, body=b"{}" if method == "POST" else None)
                    response = connection.getresponse()
                    doc = json.loads(response.read())
                    self.assertEqual((response.status, doc["code"]), (403, "admin_loopback_only"), path)
                connection.request("GET", "/v1/health")
                response = connection.getresponse()
                response.read()
                self.assertEqual(response.status, 200)
                connection.close()
            finally:
                server.shutdown()
                server.server_close()
                store.close()

    def test_no_admin_switches_the_admin_api_off(self):
        with tempfile.TemporaryDirectory() as directory:
            store = Store(os.path.join(directory, "host.db"))
            server = HostServer(("127.0.0.1", 0), store, Config(admin=False))
            thread = threading.Thread(target=server.serve_forever, daemon=True)
            thread.start()
            try:
                connection = http.client.HTTPConnection("127.0.0.1", server.server_address[1], timeout=5)
                connection.request("GET", "/admin/stats")
                response = connection.getresponse()
                self.assertEqual(json.loads(response.read())["code"], "not_found")
                connection.close()
            finally:
                server.shutdown()
                server.server_close()
                store.close()


class StoreTests(unittest.TestCase):

    def test_migrations_are_recorded_and_seed_twice_is_a_no_op(self):
        with tempfile.TemporaryDirectory() as directory:
            path = os.path.join(directory, "host.db")
            store = Store(path)
            seed_demo(store)
            seed_demo(store)
            self.assertEqual(store.counts()["accounts"], len(ACCOUNTS))
            store.close()
            store = Store(path)  # a second open runs no migration again
            self.assertEqual(store._db.execute("PRAGMA user_version").fetchone()[0], len(MIGRATIONS))
            self.assertEqual(store._db.execute("PRAGMA journal_mode").fetchone()[0], "wal")
            store.close()

    def test_a_version_1_file_gains_the_reverses_column(self):
        import sqlite3
        with tempfile.TemporaryDirectory() as directory:
            path = os.path.join(directory, "host.db")
            old = sqlite3.connect(path, isolation_level=None)
            for statement in MIGRATIONS[0].split(";"):
                if statement.strip():
                    old.execute(statement)
            old.execute("INSERT INTO journal(terminal_id, idempotency_key, outcome, kind, account_iban, amount, currency,"
                        " operator_id, client_reference, created_at, recorded_at)"
                        " VALUES('t', 'k', 'posted', 'deposit', 'x', 1, 'EUR', '1001', 'r', 'c', 0)")
            old.execute("PRAGMA user_version=1")
            old.close()
            store = Store(path)
            rows = store.journal()
            self.assertEqual([(row["idempotency_key"], row["reverses"]) for row in rows], [("k", None)])
            store.close()


if __name__ == "__main__":
    unittest.main()
