"""Reversals (docs/host-api.md §6, `reverses`): a posting undone by a new
transaction that names it, mirrors it and is posted at most once."""

import unittest

from hostprocess import (EMPTY, LOW, RICH, HostTestCase, body, new_key)


class ReversalTests(HostTestCase):

    def post(self, doc, key=None):
        key = key or new_key()
        response = self.host.submit(self.access, key, doc)
        return key, response

    def test_a_deposit_is_reversed_by_a_withdrawal_that_names_it_and_is_echoed(self):
        before = self.balance(RICH)
        original, first = self.post(body(amount=1500))
        self.assertEqual(first.status, 201, first.body)
        self.assertNotIn("reverses", first.json(), "an ordinary payment echoes no reverses")
        key, response = self.post(body(kind="withdrawal", amount=1500, reverses=original))
        self.assertEqual(response.status, 201, response.body)
        doc = response.json()
        self.assertEqual(doc["outcome"], "posted")
        self.assertEqual(doc["reverses"], original)
        self.assertEqual(self.balance(RICH), before)
        posted = [e for e in self.host.journal(outcome="posted") if e["idempotency_key"] == key]
        self.assertEqual([e["reverses"] for e in posted], [original])

    def test_a_transfer_is_reversed_by_a_transfer_back(self):
        original, first = self.post(body(kind="transfer", account=RICH, counterparty=EMPTY, amount=300))
        self.assertEqual(first.status, 201, first.body)
        _, wrong_way = self.post(body(kind="transfer", account=RICH, counterparty=EMPTY, amount=300, reverses=original))
        self.assertEqual(wrong_way.json()["reason"], "reversal_mismatch", wrong_way.body)
        _, back = self.post(body(kind="transfer", account=EMPTY, counterparty=RICH, amount=300, reverses=original))
        self.assertEqual(back.status, 201, back.body)

    def test_a_reversal_must_mirror_its_original(self):
        original, _ = self.post(body(amount=1500))
        for doc in (body(kind="withdrawal", amount=1499, reverses=original),
                    body(kind="deposit", amount=1500, reverses=original),
                    body(kind="withdrawal", account=LOW, amount=1500, reverses=original)):
            _, response = self.post(doc)
            self.assertEqual(response.status, 200, response.body)
            self.assertEqual(response.json()["outcome"], "rejected")
            self.assertEqual(response.json()["reason"], "reversal_mismatch")
            self.assertEqual(response.json()["reverses"], original, "a rejection echoes reverses too")

    def test_a_posting_is_reversed_once_and_only_a_posting_of_this_terminal(self):
        original, _ = self.post(body(amount=900))
        _, once = self.post(body(kind="withdrawal", amount=900, reverses=original))
        self.assertEqual(once.status, 201, once.body)
        _, twice = self.post(body(kind="withdrawal", amount=900, reverses=original))
        self.assertEqual(twice.json()["reason"], "already_reversed", twice.body)
        _, unknown = self.post(body(kind="withdrawal", amount=900, reverses=new_key()))
        self.assertEqual(unknown.json()["reason"], "reversal_not_found", unknown.body)
        refused, _ = self.post(body(kind="withdrawal", account=EMPTY, amount=100))
        _, of_rejected = self.post(body(kind="deposit", account=EMPTY, amount=100, reverses=refused))
        self.assertEqual(of_rejected.json()["reason"], "reversal_not_found", "a rejected transaction posted nothing to reverse")

    def test_a_malformed_reverses_is_a_400_naming_it(self):
        for value in ("not-a-key", new_key().upper(), 42):
            _, response = self.post(body(kind="withdrawal", amount=100, reverses=value))
            self.assertEqual(response.status, 400, response.body)
            self.assertEqual(response.json()["field"], "reverses")
        _, null = self.post(body(amount=100, reverses=None))
        self.assertEqual(null.status, 201, "null is an ordinary payment")


if __name__ == "__main__":
    unittest.main()
