"""Fault injection switches and test counters, shared by every handler thread."""

import threading
from collections import Counter, defaultdict

# 'transactions' and 'till_events': POST to that idempotent write only; 'v1': any /v1 request.
FAIL_SCOPES = ("transactions", "till_events", "v1")


class Faults:
    """What the next requests should suffer. Every read-and-consume is atomic."""

    def __init__(self):
        self._lock = threading.Lock()
        self.clear()

    def clear(self):
        with self._lock:
            self.drop_after_commit = 0
            self.fail_count = 0
            self.fail_status = 503
            self.fail_retry_after = 1
            self.fail_scope = "transactions"
            self.delay_ms = 0
            self.processing_delay_ms = 0

    def update(self, doc):
        """Applies a partial document of POST /admin/faults; raises ValueError on a bad value."""
        def count(name):
            value = doc[name]
            if isinstance(value, bool) or not isinstance(value, int) or value < 0:
                raise ValueError(f"'{name}' must be a non-negative integer")
            return value

        with self._lock:
            if "drop_after_commit" in doc:
                self.drop_after_commit = count("drop_after_commit")
            if "delay_ms" in doc:
                self.delay_ms = count("delay_ms")
            if "processing_delay_ms" in doc:
                self.processing_delay_ms = count("processing_delay_ms")
            if "fail" in doc:
                fail = doc["fail"]
                if not isinstance(fail, dict):
                    raise ValueError("'fail' must be an object")
                status = fail.get("status", 503)
                if status not in (429, 503):
                    raise ValueError("'fail.status' must be 429 or 503")
                scope = fail.get("scope", "transactions")
                if scope not in FAIL_SCOPES:
                    raise ValueError("'fail.scope' must be 'transactions', 'till_events' or 'v1'")
                retry_after = fail.get("retry_after", 1)
                if isinstance(retry_after, bool) or not isinstance(retry_after, int) or retry_after < 0:
                    raise ValueError("'fail.retry_after' must be a non-negative integer")
                times = fail.get("count", 1)
                if isinstance(times, bool) or not isinstance(times, int) or times < 0:
                    raise ValueError("'fail.count' must be a non-negative integer")
                self.fail_count, self.fail_status, self.fail_scope, self.fail_retry_after = times, status, scope, retry_after

    def take_failure(self, write):
        """(status, retry_after) when this request must fail, consuming one; else None.
        `write` is the idempotent write the request is ('transactions', 'till_events') or None."""
        with self._lock:
            if self.fail_count == 0 or (self.fail_scope != "v1" and self.fail_scope != write):
                return None
            self.fail_count -= 1
            return self.fail_status, self.fail_retry_after

    def take_drop(self):
        with self._lock:
            if self.drop_after_commit == 0:
                return False
            self.drop_after_commit -= 1
            return True

    def snapshot(self):
        with self._lock:
            return {
                "drop_after_commit": self.drop_after_commit,
                "fail": {"count": self.fail_count, "status": self.fail_status,
                         "retry_after": self.fail_retry_after, "scope": self.fail_scope},
                "delay_ms": self.delay_ms,
                "processing_delay_ms": self.processing_delay_ms,
            }


STAT_NAMES = (
    "connections", "requests", "token_issues", "refreshes", "unauthorized", "pin_verifications",
    "pin_failures", "submissions", "postings", "rejections", "replays", "conflicts",
    "key_mismatches", "bad_requests", "injected_failures", "dropped_responses",
    "till_event_submissions", "till_events_recorded", "handshakes_refused", "certificate_mismatches",
    "rescue_imports", "rescue_signatures_refused",
)


class Stats:
    """Counters since start or the last reset, in total and per terminal."""

    def __init__(self):
        self._lock = threading.Lock()
        self.reset()

    def reset(self):
        with self._lock:
            self._totals = Counter()
            self._by_terminal = defaultdict(Counter)

    def add(self, name, terminal_id=None):
        assert name in STAT_NAMES, name
        with self._lock:
            self._totals[name] += 1
            if terminal_id is not None:
                self._by_terminal[terminal_id][name] += 1

    def snapshot(self):
        with self._lock:
            doc = {name: self._totals[name] for name in STAT_NAMES}
            doc["by_terminal"] = {terminal: dict(counts) for terminal, counts in sorted(self._by_terminal.items())}
            return doc
