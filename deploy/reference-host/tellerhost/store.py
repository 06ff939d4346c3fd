"""The host's SQLite file: accounts, operators, terminals, tokens, idempotency
records, the journal and the till events.

One connection guarded by one lock: Python's sqlite3 holds the GIL anyway,
and a single writer makes every read-check-write below trivially atomic.
WAL with synchronous=NORMAL keeps a commit cheap (no fsync per commit) while
a crash of the host process still never loses a committed posting.
"""

import hashlib
import hmac
import json
import secrets
import sqlite3
import threading
from contextlib import contextmanager

from . import clock
from .problems import Problem
from .rescue import signing_key

PIN_ITERATIONS = 20_000
MAX_BALANCE = 9_007_199_254_740_991  # 2^53 - 1: larger balances would not survive every JSON parser

# Each entry moves the schema one version forward; user_version records
# which ones ran.
MIGRATIONS = [
    """
    CREATE TABLE accounts(
        iban TEXT PRIMARY KEY,
        holder TEXT NOT NULL,
        currency TEXT NOT NULL,
        balance INTEGER NOT NULL,
        hold INTEGER NOT NULL DEFAULT 0,
        status TEXT NOT NULL DEFAULT 'active' CHECK(status IN ('active', 'blocked')),
        updated_at REAL NOT NULL);
    CREATE TABLE operators(
        operator_id TEXT PRIMARY KEY,
        display_name TEXT NOT NULL,
        pin_salt BLOB NOT NULL,
        pin_hash BLOB NOT NULL,
        active INTEGER NOT NULL DEFAULT 1);
    CREATE TABLE terminals(
        terminal_id TEXT PRIMARY KEY,
        secret_salt BLOB NOT NULL,
        secret_hash BLOB NOT NULL);
    CREATE TABLE tokens(
        token_hash BLOB PRIMARY KEY,
        kind TEXT NOT NULL CHECK(kind IN ('access', 'refresh')),
        terminal_id TEXT NOT NULL,
        expires_at REAL NOT NULL,
        revoked INTEGER NOT NULL DEFAULT 0);
    CREATE TABLE submissions(
        terminal_id TEXT NOT NULL,
        idempotency_key TEXT NOT NULL,
        body_sha256 BLOB NOT NULL,
        state TEXT NOT NULL CHECK(state IN ('processing', 'done')),
        status_code INTEGER,
        response BLOB,
        first_seen REAL NOT NULL,
        PRIMARY KEY(terminal_id, idempotency_key));
    CREATE TABLE journal(
        seq INTEGER PRIMARY KEY AUTOINCREMENT,
        terminal_id TEXT NOT NULL,
        idempotency_key TEXT NOT NULL,
        outcome TEXT NOT NULL CHECK(outcome IN ('posted', 'rejected')),
        reason TEXT,
        host_reference TEXT UNIQUE,
        kind TEXT NOT NULL,
        account_iban TEXT NOT NULL,
        counterparty_iban TEXT,
        amount INTEGER NOT NULL,
        currency TEXT NOT NULL,
        operator_id TEXT NOT NULL,
        client_reference TEXT NOT NULL,
        created_at TEXT NOT NULL,
        recorded_at REAL NOT NULL);
    CREATE TABLE entries(
        id INTEGER PRIMARY KEY AUTOINCREMENT,
        seq INTEGER NOT NULL REFERENCES journal(seq),
        iban TEXT NOT NULL,
        direction TEXT NOT NULL CHECK(direction IN ('credit', 'debit')),
        amount INTEGER NOT NULL,
        balance_after INTEGER NOT NULL,
        booked_at REAL NOT NULL);
    CREATE INDEX entries_by_iban ON entries(iban, id);
    """,
    # Reversals (docs/host-api.md §6): the key of the posting a transaction
    # reverses, and at most one posted reversal per posting.
    """
    ALTER TABLE journal ADD COLUMN reverses TEXT;
    CREATE UNIQUE INDEX journal_one_reversal ON journal(terminal_id, reverses) WHERE reverses IS NOT NULL AND outcome = 'posted';
    """,
    # Till events (docs/host-api.md, "Till events") under the same idempotency
    # records as transactions: one key space per terminal, each key naming the
    # resource it was first used for. And the supervisor who approved a
    # transaction over a counter limit.
    """
    ALTER TABLE submissions ADD COLUMN resource TEXT NOT NULL DEFAULT 'transactions'
        CHECK(resource IN ('transactions', 'till-events'));
    ALTER TABLE journal ADD COLUMN approved_by TEXT;
    CREATE TABLE till_events(
        seq INTEGER PRIMARY KEY AUTOINCREMENT,
        terminal_id TEXT NOT NULL,
        idempotency_key TEXT NOT NULL,
        event TEXT NOT NULL CHECK(event IN ('opened', 'closed')),
        till_id INTEGER NOT NULL,
        operator_id TEXT NOT NULL,
        currency TEXT NOT NULL,
        at TEXT NOT NULL,
        count TEXT NOT NULL,
        total INTEGER NOT NULL,
        expected INTEGER,
        over_short INTEGER,
        approved_by TEXT,
        clock_unverified INTEGER NOT NULL,
        host_reference TEXT UNIQUE,
        recorded_at REAL NOT NULL,
        UNIQUE(terminal_id, idempotency_key));
    """,
    # Rescue files (docs/host-api.md §12): each terminal's branch (a rescue is
    # imported by a terminal of the same branch), the key its rescue files are
    # signed with (derived from its secret, rescue.signing_key: the secret
    # itself stays hashed), and every file imported, kept with its journal.
    """
    ALTER TABLE terminals ADD COLUMN branch TEXT;
    ALTER TABLE terminals ADD COLUMN rescue_key BLOB;
    CREATE TABLE rescues(
        file_sha256 BLOB PRIMARY KEY,
        terminal_id TEXT NOT NULL,
        imported_by TEXT NOT NULL,
        imported_at REAL NOT NULL,
        report TEXT NOT NULL,
        file BLOB NOT NULL);
    """,
]


def _digest(secret, salt):
    return hashlib.sha256(salt + secret.encode()).digest()


def _pin_hash(pin, salt):
    return hashlib.pbkdf2_hmac("sha256", pin.encode(), salt, PIN_ITERATIONS)


def _token_hash(token):
    return hashlib.sha256(token.encode()).digest()


def _dump(doc):
    return json.dumps(doc, separators=(",", ":"), ensure_ascii=False).encode()


class Store:
    """Not thread-safe by itself beyond its own lock: every public method takes it."""

    def __init__(self, path):
        self._lock = threading.Lock()
        self._db = sqlite3.connect(path, check_same_thread=False, isolation_level=None)
        self._db.row_factory = sqlite3.Row
        self._db.execute("PRAGMA journal_mode=WAL")
        self._db.execute("PRAGMA synchronous=NORMAL")
        self._db.execute("PRAGMA foreign_keys=ON")
        self._migrate()

    def close(self):
        with self._lock:
            self._db.execute("PRAGMA wal_checkpoint(TRUNCATE)")
            self._db.close()

    @contextmanager
    def _tx(self):
        """One IMMEDIATE write transaction under the lock; rolls back if the body raises."""
        with self._lock:
            self._db.execute("BEGIN IMMEDIATE")
            try:
                yield self._db
            except BaseException:
                self._db.execute("ROLLBACK")
                raise
            self._db.execute("COMMIT")

    @contextmanager
    def _read(self):
        with self._lock:
            yield self._db

    def _migrate(self):
        with self._tx() as db:
            version = db.execute("PRAGMA user_version").fetchone()[0]
            for number, script in enumerate(MIGRATIONS[version:], start=version + 1):
                for statement in script.split(";"):
                    if statement.strip():
                        db.execute(statement)
                db.execute(f"PRAGMA user_version={number}")

    # MARK: Provisioning

    def add_account(self, iban, holder, currency, balance, hold=0, status="active"):
        """Inserts an account unless it exists; an existing one is left as it is."""
        with self._tx() as db:
            db.execute(
                "INSERT OR IGNORE INTO accounts(iban, holder, currency, balance, hold, status, updated_at)"
                " VALUES(?, ?, ?, ?, ?, ?, ?)",
                (iban, holder, currency, balance, hold, status, clock.now()))

    def put_account(self, iban, holder, currency, balance, hold=0, status="active"):
        """Creates an account or overwrites it (admin API: lab set-ups and QA scenarios)."""
        with self._tx() as db:
            db.execute(
                "INSERT INTO accounts(iban, holder, currency, balance, hold, status, updated_at)"
                " VALUES(?, ?, ?, ?, ?, ?, ?) ON CONFLICT(iban) DO UPDATE SET holder=excluded.holder,"
                " currency=excluded.currency, balance=excluded.balance, hold=excluded.hold,"
                " status=excluded.status, updated_at=excluded.updated_at",
                (iban, holder, currency, balance, hold, status, clock.now()))

    def add_operator(self, operator_id, display_name, pin, active=True):
        """Inserts an operator unless it exists (so a re-seed keeps PIN salts stable)."""
        salt = secrets.token_bytes(16)
        with self._tx() as db:
            db.execute(
                "INSERT OR IGNORE INTO operators(operator_id, display_name, pin_salt, pin_hash, active)"
                " VALUES(?, ?, ?, ?, ?)",
                (operator_id, display_name, salt, _pin_hash(pin, salt), int(active)))

    def set_terminal(self, terminal_id, secret, branch=None):
        """Registers a terminal, or replaces its secret; `branch` None keeps the branch it had."""
        salt = secrets.token_bytes(16)
        with self._tx() as db:
            db.execute(
                "INSERT INTO terminals(terminal_id, secret_salt, secret_hash, branch, rescue_key) VALUES(?, ?, ?, ?, ?)"
                " ON CONFLICT(terminal_id) DO UPDATE SET secret_salt=excluded.secret_salt, secret_hash=excluded.secret_hash,"
                " branch=coalesce(excluded.branch, terminals.branch), rescue_key=excluded.rescue_key",
                (terminal_id, salt, _digest(secret, salt), branch, signing_key(secret)))

    def set_branch(self, terminal_id, branch):
        """Puts a registered terminal in `branch`; False when there is no such terminal."""
        with self._tx() as db:
            return db.execute("UPDATE terminals SET branch=? WHERE terminal_id=?", (branch, terminal_id)).rowcount == 1

    def terminal(self, terminal_id):
        """The terminal's branch and rescue key, or None when the bank does not know it."""
        with self._read() as db:
            return db.execute("SELECT terminal_id, branch, rescue_key FROM terminals WHERE terminal_id=?", (terminal_id,)).fetchone()

    # MARK: Tokens

    def check_terminal_secret(self, terminal_id, secret):
        with self._read() as db:
            row = db.execute("SELECT secret_salt, secret_hash FROM terminals WHERE terminal_id=?", (terminal_id,)).fetchone()
        return row is not None and hmac.compare_digest(_digest(secret, row["secret_salt"]), row["secret_hash"])

    def issue_tokens(self, terminal_id, access_ttl, refresh_ttl):
        """A fresh access + refresh pair; returns the wire document of docs/host-api.md."""
        now = clock.now()
        access = "tha_" + secrets.token_urlsafe(32)
        refresh = "thr_" + secrets.token_urlsafe(32)
        with self._tx() as db:
            self._insert_token(db, access, "access", terminal_id, now + access_ttl)
            self._insert_token(db, refresh, "refresh", terminal_id, now + refresh_ttl)
        return {
            "token_type": "Bearer",
            "terminal_id": terminal_id,
            "access_token": access,
            "expires_in": int(access_ttl),
            "expires_at": clock.iso(now + access_ttl),
            "refresh_token": refresh,
            "refresh_expires_in": int(refresh_ttl),
            "refresh_expires_at": clock.iso(now + refresh_ttl),
        }

    @staticmethod
    def _insert_token(db, token, kind, terminal_id, expires_at):
        db.execute("INSERT INTO tokens(token_hash, kind, terminal_id, expires_at) VALUES(?, ?, ?, ?)",
                   (_token_hash(token), kind, terminal_id, expires_at))

    def redeem_refresh_token(self, refresh_token, check=None):
        """Revokes a refresh token (rotation) and returns its terminal id; raises 401 problems.
        `check(terminal_id)` runs for a known, unused token before anything else and may raise
        (mutual TLS: another terminal's token); the token is then left unspent."""
        with self._tx() as db:
            row = db.execute("SELECT terminal_id, expires_at, revoked FROM tokens WHERE token_hash=? AND kind='refresh'",
                             (_token_hash(refresh_token),)).fetchone()
            if row is None or row["revoked"]:
                raise Problem("refresh_token_invalid", "Unknown or already used refresh token: authenticate again with the terminal secret.")
            if check is not None:
                check(row["terminal_id"])
            if row["expires_at"] <= clock.now():
                raise Problem("refresh_token_expired", "Refresh token has expired: authenticate again with the terminal secret.")
            db.execute("UPDATE tokens SET revoked=1 WHERE token_hash=?", (_token_hash(refresh_token),))
            return row["terminal_id"]

    def authenticate(self, access_token):
        """Returns the terminal id for a live access token; raises 401 problems."""
        with self._read() as db:
            row = db.execute("SELECT terminal_id, expires_at, revoked FROM tokens WHERE token_hash=? AND kind='access'",
                             (_token_hash(access_token),)).fetchone()
        if row is None or row["revoked"]:
            raise Problem("token_invalid", "Access token is unknown: refresh it or authenticate again.")
        if row["expires_at"] <= clock.now():
            expired = Problem("token_expired", "Access token has expired: refresh it and retry the request.")
            expired.terminal_id = row["terminal_id"]
            raise expired
        return row["terminal_id"]

    def expire_tokens(self, include_refresh):
        """Fault injection: every token issued so far stops working now."""
        kinds = ("access", "refresh") if include_refresh else ("access",)
        with self._tx() as db:
            cursor = db.execute(
                f"UPDATE tokens SET expires_at=? WHERE expires_at>? AND kind IN ({','.join('?' * len(kinds))})",
                (clock.now() - 1, clock.now(), *kinds))
            return cursor.rowcount

    # MARK: Operators

    def verify_operator(self, operator_id, pin):
        """Returns the display name, or raises pin_incorrect / operator_disabled."""
        with self._read() as db:
            row = db.execute("SELECT display_name, pin_salt, pin_hash, active FROM operators WHERE operator_id=?",
                             (operator_id,)).fetchone()
        if row is None:
            # Spend the same time as a real check so timing does not reveal which ids exist.
            _pin_hash(pin, b"0" * 16)
            raise Problem("pin_incorrect", "Operator id or PIN is wrong.")
        if not hmac.compare_digest(_pin_hash(pin, row["pin_salt"]), row["pin_hash"]):
            raise Problem("pin_incorrect", "Operator id or PIN is wrong.")
        if not row["active"]:
            raise Problem("operator_disabled", f"Operator {operator_id} is disabled at the bank; ask a supervisor.")
        return row["display_name"]

    def operator_exists(self, db, operator_id):
        return db.execute("SELECT 1 FROM operators WHERE operator_id=?", (operator_id,)).fetchone() is not None

    # MARK: Accounts

    def account(self, iban):
        with self._read() as db:
            row = db.execute("SELECT * FROM accounts WHERE iban=?", (iban,)).fetchone()
        return None if row is None else self._snapshot(row)

    @staticmethod
    def _snapshot(row):
        return {
            "iban": row["iban"],
            "holder": row["holder"],
            "currency": row["currency"],
            "balance": row["balance"],
            "available": row["balance"] - row["hold"],
            "status": row["status"],
            "as_of": clock.iso(clock.now()),
        }

    def accounts(self):
        with self._read() as db:
            return [self._snapshot(row) for row in db.execute("SELECT * FROM accounts ORDER BY iban")]

    def recent_transactions(self, iban, limit):
        """Newest first: one line per journal entry that touched the account."""
        with self._read() as db:
            rows = db.execute(
                "SELECT e.direction, e.amount, e.balance_after, e.booked_at, j.host_reference, j.kind,"
                " j.account_iban, j.counterparty_iban, j.currency, j.client_reference"
                " FROM entries e JOIN journal j ON j.seq = e.seq WHERE e.iban=? ORDER BY e.id DESC LIMIT ?",
                (iban, limit)).fetchall()
        lines = []
        for row in rows:
            other = row["counterparty_iban"] if row["account_iban"] == iban else row["account_iban"]
            line = {
                "host_reference": row["host_reference"],
                "kind": row["kind"],
                "direction": row["direction"],
                "amount": row["amount"],
                "currency": row["currency"],
                "balance_after": row["balance_after"],
                "booked_at": clock.iso(row["booked_at"]),
                "client_reference": row["client_reference"],
            }
            if other is not None:
                line["counterparty_iban"] = other
            lines.append(line)
        return lines

    # MARK: Idempotency

    def find_submission(self, terminal_id, key):
        """The idempotency record of a key, whichever resource it was first used for
        (its `resource`: 'transactions' or 'till-events')."""
        with self._read() as db:
            return db.execute("SELECT * FROM submissions WHERE terminal_id=? AND idempotency_key=?",
                              (terminal_id, key)).fetchone()

    def ledger_outcome(self, terminal_id, key):
        """The journal's final outcome for a key, which the journal keeps for good after the key's
        idempotency record is purged; None when the bank never decided it."""
        with self._read() as db:
            return db.execute("SELECT outcome, reason, host_reference FROM journal WHERE terminal_id=? AND idempotency_key=?"
                              " ORDER BY seq LIMIT 1", (terminal_id, key)).fetchone()

    def recorded_till_event(self, terminal_id, key):
        """The till event recorded under a key, kept for good as the journal is; None when there is none."""
        with self._read() as db:
            return db.execute("SELECT host_reference FROM till_events WHERE terminal_id=? AND idempotency_key=?",
                              (terminal_id, key)).fetchone()

    def find_rescue(self, file_sha256):
        with self._read() as db:
            return db.execute("SELECT * FROM rescues WHERE file_sha256=?", (file_sha256,)).fetchone()

    def record_rescue(self, file_sha256, terminal_id, imported_by, report, raw):
        """Keeps a rescue file the first time it is imported (its journal is the bank's copy)."""
        with self._tx() as db:
            db.execute("INSERT OR IGNORE INTO rescues(file_sha256, terminal_id, imported_by, imported_at, report, file)"
                       " VALUES(?, ?, ?, ?, ?, ?)", (file_sha256, terminal_id, imported_by, clock.now(), _dump(report), raw))

    def claim(self, terminal_id, key, body_sha256, resource="transactions"):
        """Sets the in-flight marker for a key of `resource`. Returns None when claimed, else the
        existing row (which may be another resource's: a key is one terminal's, once)."""
        with self._tx() as db:
            row = db.execute("SELECT * FROM submissions WHERE terminal_id=? AND idempotency_key=?",
                             (terminal_id, key)).fetchone()
            if row is not None:
                return row
            db.execute("INSERT INTO submissions(terminal_id, idempotency_key, body_sha256, state, first_seen, resource)"
                       " VALUES(?, ?, ?, 'processing', ?, ?)", (terminal_id, key, body_sha256, clock.now(), resource))
            return None

    def release(self, terminal_id, key):
        """Drops an in-flight marker whose processing failed before any commit."""
        with self._tx() as db:
            db.execute("DELETE FROM submissions WHERE terminal_id=? AND idempotency_key=? AND state='processing'",
                       (terminal_id, key))

    def discard_in_flight(self):
        """At start-up: markers left by a killed process never posted anything (the posting
        and the final outcome commit together), so the key is free again."""
        with self._tx() as db:
            return db.execute("DELETE FROM submissions WHERE state='processing'").rowcount

    def purge(self, retention_seconds):
        """Forgets idempotency records older than the retention and long-dead tokens."""
        now = clock.now()
        with self._tx() as db:
            keys = db.execute("DELETE FROM submissions WHERE state='done' AND first_seen<?",
                              (now - retention_seconds,)).rowcount
            db.execute("DELETE FROM tokens WHERE expires_at<?", (now - 86_400,))
        return keys

    def settle(self, terminal_id, key, sub):
        """Decides and records the final outcome of a claimed submission in one transaction:
        balances, journal, entries and the stored response commit together.
        Returns (status_code, response_bytes, outcome)."""
        now = clock.now()
        with self._tx() as db:
            reason, detail = self._rejection(db, terminal_id, sub)
            cursor = db.execute(
                "INSERT INTO journal(terminal_id, idempotency_key, outcome, reason, kind, account_iban, counterparty_iban,"
                " amount, currency, operator_id, client_reference, created_at, recorded_at, reverses, approved_by)"
                " VALUES(?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
                (terminal_id, key, "rejected" if reason else "posted", reason, sub.kind, sub.account_iban,
                 sub.counterparty_iban, sub.amount, sub.currency, sub.operator_id, sub.client_reference,
                 sub.created_at, now, sub.reverses, sub.approved_by))
            seq = cursor.lastrowid
            doc = {
                "outcome": "rejected" if reason else "posted",
                "idempotency_key": key,
                "kind": sub.kind,
                "account_iban": sub.account_iban,
            }
            if sub.counterparty_iban is not None:
                doc["counterparty_iban"] = sub.counterparty_iban
            doc.update(amount=sub.amount, currency=sub.currency, operator_id=sub.operator_id,
                       client_reference=sub.client_reference, created_at=sub.created_at)
            if sub.reverses is not None:
                doc["reverses"] = sub.reverses
            if sub.approved_by is not None:
                doc["approved_by"] = sub.approved_by
            if reason:
                doc.update(reason=reason, detail=detail, rejected_at=clock.iso(now))
                status = 200
            else:
                reference = f"H{clock.iso(now)[:10].replace('-', '')}-{seq:07d}"
                db.execute("UPDATE journal SET host_reference=? WHERE seq=?", (reference, seq))
                account = self._book(db, seq, sub.account_iban, "credit" if sub.kind == "deposit" else "debit", sub.amount, now)
                if sub.kind == "transfer":
                    self._book(db, seq, sub.counterparty_iban, "credit", sub.amount, now)
                doc.update(host_reference=reference, balance_after=account["balance"],
                           available_after=account["balance"] - account["hold"], posted_at=clock.iso(now))
                status = 201
            body = _dump(doc)
            db.execute("UPDATE submissions SET state='done', status_code=?, response=? WHERE terminal_id=? AND idempotency_key=?",
                       (status, body, terminal_id, key))
        return status, body, doc["outcome"]

    def record_till_event(self, terminal_id, key, event):
        """Records a claimed till event and its stored answer in one transaction. Every valid
        event is recorded: the host does not judge the till (docs/host-api.md, "Till events").
        Returns (status_code, response_bytes)."""
        now = clock.now()
        with self._tx() as db:
            seq = db.execute(
                "INSERT INTO till_events(terminal_id, idempotency_key, event, till_id, operator_id, currency, at, count, total,"
                " expected, over_short, approved_by, clock_unverified, recorded_at) VALUES(?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
                (terminal_id, key, event.event, event.till_id, event.operator_id, event.currency, event.at, event.count_json(),
                 event.total, event.expected, event.over_short, event.approved_by, int(event.clock_unverified), now)).lastrowid
            reference = f"T{clock.iso(now)[:10].replace('-', '')}-{seq:07d}"
            db.execute("UPDATE till_events SET host_reference=? WHERE seq=?", (reference, seq))
            doc = {"outcome": "recorded", "idempotency_key": key, "event": event.event, "till_id": event.till_id,
                   "operator_id": event.operator_id, "currency": event.currency, "total": event.total, "at": event.at,
                   "host_reference": reference, "recorded_at": clock.iso(now)}
            body = _dump(doc)
            db.execute("UPDATE submissions SET state='done', status_code=201, response=? WHERE terminal_id=? AND idempotency_key=?",
                       (body, terminal_id, key))
        return 201, body

    def _rejection(self, db, terminal_id, sub):
        """The business rules, in the order they are checked. (reason, detail) or (None, None)."""
        account = db.execute("SELECT * FROM accounts WHERE iban=?", (sub.account_iban,)).fetchone()
        if account is None:
            return "account_not_found", f"No account {sub.account_iban} at this bank."
        if account["status"] == "blocked":
            return "account_blocked", f"Account {sub.account_iban} is blocked."
        if account["currency"] != sub.currency:
            return "currency_mismatch", f"Account {sub.account_iban} is held in {account['currency']}, not {sub.currency}."
        if not self.operator_exists(db, sub.operator_id):
            return "operator_not_found", f"Operator {sub.operator_id} is not known to the bank."
        if sub.reverses is not None:
            reversal = self._reversal_rejection(db, terminal_id, sub)
            if reversal is not None:
                return reversal
        other = None
        if sub.kind == "transfer":
            if sub.counterparty_iban == sub.account_iban:
                return "same_account", "A transfer needs two different accounts."
            other = db.execute("SELECT * FROM accounts WHERE iban=?", (sub.counterparty_iban,)).fetchone()
            if other is None:
                return "counterparty_not_found", f"No account {sub.counterparty_iban} at this bank."
            if other["status"] == "blocked":
                return "counterparty_blocked", f"Account {sub.counterparty_iban} is blocked."
            if other["currency"] != sub.currency:
                return "currency_mismatch", f"Account {sub.counterparty_iban} is held in {other['currency']}, not {sub.currency}."
        if sub.kind in ("withdrawal", "transfer"):
            available = account["balance"] - account["hold"]
            if available < sub.amount:
                return "insufficient_funds", f"Available {available} is less than the amount {sub.amount} (minor units of {sub.currency})."
        credited = account if sub.kind == "deposit" else other if sub.kind == "transfer" else None
        if credited is not None and credited["balance"] + sub.amount > MAX_BALANCE:
            return "balance_limit_exceeded", (f"Account {credited['iban']} would hold more than {MAX_BALANCE} minor units, "
                                              "beyond what every JSON parser reads exactly.")
        return None, None

    @staticmethod
    def _reversal_rejection(db, terminal_id, sub):
        """A reversal must undo a posting of the same terminal that nothing
        has reversed yet, and mirror it: the same amount and currency, a
        deposit by a withdrawal from its account (and back), a transfer by
        one from its counterparty to its account. (reason, detail) or None."""
        original = db.execute("SELECT * FROM journal WHERE terminal_id=? AND idempotency_key=? AND outcome='posted'",
                              (terminal_id, sub.reverses)).fetchone()
        if original is None:
            return "reversal_not_found", f"No posted transaction {sub.reverses} of this terminal to reverse."
        if original["reverses"] is not None:
            return "reversal_mismatch", f"Transaction {sub.reverses} is itself a reversal; enter a new transaction instead."
        if db.execute("SELECT 1 FROM journal WHERE terminal_id=? AND reverses=? AND outcome='posted'",
                      (terminal_id, sub.reverses)).fetchone() is not None:
            return "already_reversed", f"Transaction {sub.reverses} has already been reversed."
        mirror = {"deposit": ("withdrawal", original["account_iban"], None),
                  "withdrawal": ("deposit", original["account_iban"], None),
                  "transfer": ("transfer", original["counterparty_iban"], original["account_iban"])}[original["kind"]]
        if (sub.kind, sub.account_iban, sub.counterparty_iban) != mirror or (sub.amount, sub.currency) != (original["amount"], original["currency"]):
            return "reversal_mismatch", (f"A reversal of {sub.reverses} must be a {mirror[0]} of {original['amount']} {original['currency']}"
                                         f" on {mirror[1]}" + (f" to {mirror[2]}" if mirror[2] else "") + ".")
        return None

    @staticmethod
    def _book(db, seq, iban, direction, amount, now):
        delta = amount if direction == "credit" else -amount
        db.execute("UPDATE accounts SET balance=balance+?, updated_at=? WHERE iban=?", (delta, now, iban))
        account = db.execute("SELECT balance, hold FROM accounts WHERE iban=?", (iban,)).fetchone()
        db.execute("INSERT INTO entries(seq, iban, direction, amount, balance_after, booked_at) VALUES(?, ?, ?, ?, ?, ?)",
                   (seq, iban, direction, amount, account["balance"], now))
        return account

    # MARK: Admin views

    def journal(self, terminal_id=None, after_seq=0, outcome=None, limit=10_000):
        query = "SELECT * FROM journal WHERE seq>?"
        params = [after_seq]
        if terminal_id:
            query += " AND terminal_id=?"
            params.append(terminal_id)
        if outcome:
            query += " AND outcome=?"
            params.append(outcome)
        query += " ORDER BY seq LIMIT ?"
        params.append(limit)
        with self._read() as db:
            rows = db.execute(query, params).fetchall()
        return [{**dict(row), "recorded_at": clock.iso(row["recorded_at"])} for row in rows]

    def till_events(self, terminal_id=None, after_seq=0, limit=10_000):
        query, params = "SELECT * FROM till_events WHERE seq>?", [after_seq]
        if terminal_id:
            query += " AND terminal_id=?"
            params.append(terminal_id)
        query += " ORDER BY seq LIMIT ?"
        params.append(limit)
        with self._read() as db:
            rows = db.execute(query, params).fetchall()
        return [{**dict(row), "count": json.loads(row["count"]), "clock_unverified": bool(row["clock_unverified"]),
                 "recorded_at": clock.iso(row["recorded_at"])} for row in rows]

    def counts(self):
        with self._read() as db:
            return {table: db.execute(f"SELECT count(*) FROM {table}").fetchone()[0]
                    for table in ("accounts", "operators", "terminals", "submissions", "journal", "till_events", "rescues")}
