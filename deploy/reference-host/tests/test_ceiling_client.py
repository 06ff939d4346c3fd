"""The ceiling client the Swift benchmark calls: prints host_ceiling_tx_per_s."""

import os
import re
import subprocess
import sys
import unittest

from hostprocess import CEILING_CLIENT, HostTestCase, body, encode


class CeilingClientTests(HostTestCase):

    def run_client(self, *args, stdin=None):
        result = subprocess.run([sys.executable, CEILING_CLIENT, "--url", self.host.url, *args],
                                input=stdin, capture_output=True, text=True, timeout=60)
        self.assertEqual(result.returncode, 0, result.stderr)
        match = re.fullmatch(r"host_ceiling_tx_per_s: (\d+\.\d)\n", result.stdout)
        self.assertIsNotNone(match, result.stdout)
        return float(match.group(1))

    def test_generated_deposits(self):
        rate = self.run_client("--count", "200", "--warmup", "5")
        self.assertGreater(rate, 0)
        stats = self.host.stats()
        self.assertEqual((stats["postings"], stats["connections"] - 1), (205, 1),
                         "one keep-alive connection for all submissions (besides the stats call)")

    def test_bodies_file_is_sent_verbatim_under_fresh_keys(self):
        path = os.path.join(self.host.dir, "bodies.jsonl")
        raws = [encode(body(amount=10 + i, reference=f"FILE-{i}")) for i in range(3)]
        with open(path, "wb") as file:
            file.write(b"\n".join(raws) + b"\n")
        self.run_client("--bodies", path, "--count", "6", "--warmup", "0")
        references = [e["client_reference"] for e in self.host.journal()][-6:]
        self.assertEqual(references, [f"FILE-{i % 3}" for i in range(6)])


class CeilingClientStdinTests(HostTestCase):

    def test_bodies_from_stdin(self):
        raws = b"\n".join(encode(body(amount=5, reference=f"IN-{i}")) for i in range(2)).decode()
        result = subprocess.run([sys.executable, CEILING_CLIENT, "--url", self.host.url, "--bodies", "-",
                                 "--count", "2", "--warmup", "0"], input=raws, capture_output=True, text=True, timeout=60)
        self.assertEqual(result.returncode, 0, result.stderr)
        self.assertTrue(result.stdout.startswith("host_ceiling_tx_per_s: "))
        self.assertEqual([e["client_reference"] for e in self.host.journal()][-2:], ["IN-0", "IN-1"])

    def test_a_failing_submission_exits_1(self):
        result = subprocess.run([sys.executable, CEILING_CLIENT, "--url", self.host.url, "--bodies", "-",
                                 "--count", "1", "--warmup", "0"], input="{}", capture_output=True, text=True, timeout=60)
        self.assertEqual(result.returncode, 1)
        self.assertIn("400", result.stderr)


if __name__ == "__main__":
    unittest.main()
