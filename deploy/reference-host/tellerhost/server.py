"""HTTP layer: ThreadingHTTPServer with HTTP/1.1 keep-alive, routing of /v1 and
/admin, fault injection and response writing.

Every response goes out in one write (status line, headers and body) on a
socket with Nagle disabled, so keep-alive clients never wait on a delayed ACK.
"""

import email.utils
import hashlib
import ipaddress
import json
import socket
import struct
import sys
import threading
import time
import traceback
import urllib.parse
from collections import defaultdict, deque
from dataclasses import dataclass
from http import HTTPStatus
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

from . import VERSION, clock, tls
from . import iban as ibans
from . import rescue as rescues
from .faults import Faults, Stats
from .problems import Problem
from .store import _dump
from .submission import parse_idempotency_key, parse_json_object, parse_path_key, parse_submission
from .tillevent import parse_till_event

MAX_BODY = 64 * 1024
PIN_ATTEMPTS = 5
PIN_WINDOW = 300.0


@dataclass
class Config:
    access_ttl: float = 900
    refresh_ttl: float = 30 * 86_400
    key_retention: float = 30 * 86_400
    log_requests: bool = False
    admin: bool = True


def is_loopback_peer(address):
    """True only for 127.0.0.0/8, ::1 and IPv4-mapped loopback: the admin API's gate."""
    try:
        ip = ipaddress.ip_address(address.split("%", 1)[0])
    except ValueError:
        return False
    if getattr(ip, "ipv4_mapped", None) is not None:
        ip = ip.ipv4_mapped
    return ip.is_loopback


class PinThrottle:
    """At most PIN_ATTEMPTS wrong PINs per terminal and operator in PIN_WINDOW seconds."""

    def __init__(self):
        self._lock = threading.Lock()
        self._failures = defaultdict(deque)

    def retry_after(self, terminal_id, operator_id):
        with self._lock:
            failures = self._failures[(terminal_id, operator_id)]
            now = time.monotonic()
            while failures and failures[0] <= now - PIN_WINDOW:
                failures.popleft()
            if len(failures) < PIN_ATTEMPTS:
                return None
            return max(1, int(failures[0] + PIN_WINDOW - now) + 1)

    def failed(self, terminal_id, operator_id):
        with self._lock:
            self._failures[(terminal_id, operator_id)].append(time.monotonic())

    def succeeded(self, terminal_id, operator_id):
        with self._lock:
            self._failures.pop((terminal_id, operator_id), None)

    def clear(self):
        with self._lock:
            self._failures.clear()


class HostServer(ThreadingHTTPServer):
    daemon_threads = True
    allow_reuse_address = True
    request_queue_size = 128

    def __init__(self, address, store, config, handler=None, tls=None):
        if ":" in address[0]:
            self.address_family = socket.AF_INET6
        self.store = store
        self.config = config
        self.tls = tls  # an ssl.SSLContext to serve https, or None
        self.faults = Faults()
        self.stats = Stats()
        self.pins = PinThrottle()
        super().__init__(address, handler or HostHandler)

    def get_request(self):
        connection, peer = super().get_request()
        connection.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)
        self.stats.add("connections")
        if self.tls is not None:
            # The handshake runs in the connection's own thread (tls.handshake), not here in accept.
            connection = self.tls.wrap_socket(connection, server_side=True, do_handshake_on_connect=False)
        return connection, peer

    def url(self):
        return tls.url(self.server_address, self.tls is not None)


def _segments(path):
    return [urllib.parse.unquote(part) for part in path.strip("/").split("/")] if path.strip("/") else []


def v1_route(path):
    """(route name, allowed methods, path arguments) for a /v1 path, or None if there is no such resource.
    `/v1/transactions/` and `/v1/transactions/%20` are the status route with a blank key, not the submit route."""
    raw = [urllib.parse.unquote(part) for part in path[1:].split("/")]
    if len(raw) == 3 and raw[:2] == ["v1", "transactions"]:
        return "status", ("GET",), raw[2:]
    parts = _segments(path)
    if parts == ["v1", "health"]:
        return "health", ("GET",), []
    if parts == ["v1", "auth", "token"]:
        return "token", ("POST",), []
    if parts == ["v1", "auth", "refresh"]:
        return "refresh", ("POST",), []
    if parts == ["v1", "operators", "verify"]:
        return "verify", ("POST",), []
    if parts == ["v1", "transactions"]:
        return "submit", ("POST",), []
    if parts == ["v1", "till-events"]:
        return "till-event", ("POST",), []
    if parts == ["v1", "rescues"]:
        return "rescue", ("POST",), []
    if len(parts) == 3 and parts[:2] == ["v1", "accounts"]:
        return "account", ("GET",), parts[2:]
    if len(parts) == 4 and parts[:2] == ["v1", "accounts"] and parts[3] == "transactions":
        return "recent", ("GET",), parts[2:3]
    return None


# Admin paths and the methods each one answers.
ADMIN_ROUTES = {
    "/admin/stats": ("GET",),
    "/admin/reset": ("POST",),
    "/admin/faults": ("GET", "POST", "DELETE"),
    "/admin/tokens/expire": ("POST",),
    "/admin/journal": ("GET",),
    "/admin/till-events": ("GET",),
    "/admin/accounts": ("GET", "POST"),
    "/admin/terminals": ("POST",),
    "/admin/purge": ("POST",),
}


def method_not_allowed(method, allowed):
    return Problem("method_not_allowed", f"{method} is not supported here; use {' or '.join(allowed) or 'nothing'}.",
                   headers={"Allow": ", ".join(allowed)})


class HostHandler(BaseHTTPRequestHandler):
    protocol_version = "HTTP/1.1"
    server_version = "teller-host/" + VERSION
    sys_version = ""
    timeout = 300  # idle keep-alive connections are closed after this many seconds
    # Under mutual TLS (--tls-client-ca) the terminal id the connection's client certificate names
    # ("" if it names none), for every request on the connection; None without mutual TLS.
    _certificate_terminal = None

    # MARK: Entry points

    def __getattr__(self, name):
        """Every method, TRACE, OPTIONS, HEAD, CONNECT and made-up ones included, reaches _dispatch
        (http.server would answer an HTML 501 for a method without a do_* attribute)."""
        if name.startswith("do_"):
            return lambda: self._dispatch(self.command)
        raise AttributeError(name)

    def handle(self):
        mutual = tls.requires_client_certificate(self.connection)
        if tls.handshake(self.connection, self._handshake_refused if mutual else None):
            self._certificate_terminal = tls.peer_terminal(self.connection)
            super().handle()

    def _handshake_refused(self, reason):
        self.server.stats.add("handshakes_refused")
        sys.stderr.write(f"teller-host: {self.client_address[0]} TLS handshake refused: {reason}\n")

    def log_message(self, format, *args):
        if self.server.config.log_requests:
            sys.stderr.write(f"teller-host: {self.client_address[0]} {format % args}\n")

    def _dispatch(self, method):
        server = self.server
        server.stats.add("requests")
        self._delay = False
        self._terminal = None
        path, _, query = self.path.partition("?")
        self._route = path
        try:
            self._body = self._read_body()
            if not path.startswith("/"):
                # CONNECT host:port, OPTIONS *: no resource here answers any method on such a target.
                raise method_not_allowed(method, ())
            if path == "/admin" or path.startswith("/admin/"):
                self._admin(method, path, urllib.parse.parse_qs(query))
            elif path == "/v1" or path.startswith("/v1/"):
                self._delay = True
                self._v1(method, path, urllib.parse.parse_qs(query))
            else:
                raise Problem("not_found", f"No resource at {path}; the API lives under /v1.")
        except Problem as problem:
            self._send_problem(problem)
        except Exception:
            traceback.print_exc(file=sys.stderr)
            self._send_problem(Problem("internal_error", "The host failed; see its log. Retrying later is safe."))

    def _read_body(self):
        """The request body by Content-Length; none without it (RFC 9112 §6.3)."""
        if self.headers.get("Transfer-Encoding"):
            self.close_connection = True
            raise Problem("length_required", "Chunked bodies are not accepted; send Content-Length.")
        length = self.headers.get("Content-Length")
        if length is None:
            return b""
        if not length.strip().isdigit():
            self.close_connection = True
            raise Problem("length_required", "Content-Length is not a non-negative integer.")
        length = int(length)
        # A rescue file carries a dead terminal's whole queue and journal (docs/host-api.md §12).
        limit = rescues.MAX_FILE if v1_route(self.path.partition("?")[0]) == ("rescue", ("POST",), []) else MAX_BODY
        if length > limit:
            self.close_connection = True
            raise Problem("payload_too_large", f"Bodies are limited to {limit} bytes here.")
        return self.rfile.read(length)

    # MARK: Responses

    def _send(self, status, body, headers):
        if self._delay:
            delay = self.server.faults.delay_ms
            if delay:
                time.sleep(delay / 1000)
        lines = [
            f"HTTP/1.1 {status} {HTTPStatus(status).phrase}",
            f"Date: {email.utils.formatdate(usegmt=True)}",
            f"Server: {self.server_version}",
            f"Content-Length: {len(body)}",
            "Cache-Control: no-store",
        ]
        lines.extend(f"{name}: {value}" for name, value in headers.items())
        if self.close_connection:
            lines.append("Connection: close")
        if self.command == "HEAD":
            body = b""  # a HEAD answer has the headers of the full answer and no body
        self.wfile.write(("\r\n".join(lines) + "\r\n\r\n").encode("latin-1") + body)
        self.log_request(status)

    def _send_json(self, status, doc, headers=None):
        self._send(status, _dump(doc), {"Content-Type": "application/json", **(headers or {})})

    def _send_problem(self, problem):
        stats = self.server.stats
        if problem.status == 401:
            stats.add("unauthorized", self._terminal or problem.terminal_id)
            problem.headers.setdefault("WWW-Authenticate", 'Bearer realm="teller", error="invalid_token"')
        elif problem.status == 400:
            stats.add("bad_requests", self._terminal)
        elif problem.code == "certificate_terminal_mismatch":
            stats.add("certificate_mismatches", self._certificate_terminal or None)
        self._send(problem.status, problem.body(instance=self._route), problem.response_headers())

    def _drop(self):
        """Closes with a TCP reset and no response: the 'lost response' fault."""
        self.close_connection = True
        self.connection.setsockopt(socket.SOL_SOCKET, socket.SO_LINGER, struct.pack("ii", 1, 0))

    # MARK: /v1

    def _v1(self, method, path, query):
        server = self.server
        # The idempotent writes a 'fail' fault scoped to them hits (faults.FAIL_SCOPES).
        write = {("v1", "transactions"): "transactions", ("v1", "till-events"): "till_events"}.get(
            tuple(_segments(path))) if method == "POST" else None
        failure = server.faults.take_failure(write)
        if failure is not None:
            status, retry_after = failure
            server.stats.add("injected_failures")
            code = "service_unavailable" if status == 503 else "too_many_requests"
            raise Problem(code, "Injected fault: try again after Retry-After seconds.", retry_after=retry_after)

        route = v1_route(path)
        if route is None:
            raise Problem("not_found", f"No resource at {path}.")
        name, allowed, arguments = route
        if method not in allowed:
            raise method_not_allowed(method, allowed)
        if name == "health":
            return self._send_json(200, {"status": "ok", "api_version": "v1", "host_version": VERSION,
                                         "time": clock.iso(clock.now())})
        if name == "token":
            return self._issue_token()
        if name == "refresh":
            return self._refresh_token()
        self._terminal = self._authenticate()
        self._match_certificate(self._terminal)
        if name == "verify":
            return self._verify_operator()
        if name == "submit":
            return self._submit()
        if name == "till-event":
            return self._till_event()
        if name == "rescue":
            return self._rescue()
        if name == "status":
            return self._status(arguments[0])
        iban = self._path_iban(arguments[0])
        if name == "account":
            snapshot = server.store.account(iban)
            if snapshot is None:
                raise Problem("account_not_found", f"No account {iban} at this bank.")
            return self._send_json(200, snapshot)
        return self._recent(iban, query)

    def _json_body(self):
        content_type = (self.headers.get("Content-Type") or "").split(";", 1)[0].strip().lower()
        if content_type != "application/json":
            raise Problem("unsupported_media_type", "Send the body as application/json.")
        return parse_json_object(self._body)

    @staticmethod
    def _field(doc, name):
        value = doc.get(name)
        if not isinstance(value, str) or value == "":
            raise Problem("invalid_field", f"'{name}' is required and must be a non-empty string.", field=name)
        return value

    def _authenticate(self):
        header = self.headers.get("Authorization") or ""
        scheme, _, token = header.partition(" ")
        if scheme.lower() != "bearer" or not token.strip():
            raise Problem("token_missing", "Send 'Authorization: Bearer <access_token>'.")
        return self.server.store.authenticate(token.strip())

    def _match_certificate(self, terminal_id):
        """Under mutual TLS a request acts only for the terminal its connection's client certificate
        names: a token issue for another terminal id, or another terminal's refresh or access token,
        is 403 before anything is issued, spent or stored. Nothing to check without mutual TLS."""
        certified = self._certificate_terminal
        if certified is None or certified == terminal_id:
            return
        if certified == "":
            detail = f"The client certificate names no terminal (no single commonName); this request is for {terminal_id}."
        else:
            detail = f"The client certificate is for {certified}; this request is for {terminal_id}."
        raise Problem("certificate_terminal_mismatch", detail)

    def _issue_token(self):
        doc = self._json_body()
        terminal_id = self._field(doc, "terminal_id")
        secret = self._field(doc, "secret")
        # Before the secret: a certificate for one terminal cannot be used to test another's secret.
        self._match_certificate(terminal_id)
        server = self.server
        if not server.store.check_terminal_secret(terminal_id, secret):
            raise Problem("invalid_terminal_credentials", "Terminal id or secret is wrong.")
        server.stats.add("token_issues", terminal_id)
        tokens = server.store.issue_tokens(terminal_id, server.config.access_ttl, server.config.refresh_ttl)
        self._send_json(200, tokens)

    def _refresh_token(self):
        doc = self._json_body()
        refresh_token = self._field(doc, "refresh_token")
        server = self.server
        terminal_id = server.store.redeem_refresh_token(refresh_token, check=self._match_certificate)
        server.stats.add("refreshes", terminal_id)
        tokens = server.store.issue_tokens(terminal_id, server.config.access_ttl, server.config.refresh_ttl)
        self._send_json(200, tokens)

    def _verify_operator(self):
        doc = self._json_body()
        operator_id = self._field(doc, "operator_id")
        pin = self._field(doc, "pin")
        server = self.server
        server.stats.add("pin_verifications", self._terminal)
        wait = server.pins.retry_after(self._terminal, operator_id)
        if wait is not None:
            raise Problem("too_many_requests", f"Too many wrong PINs for operator {operator_id}; wait {wait} s.", retry_after=wait)
        try:
            name = server.store.verify_operator(operator_id, pin)
        except Problem as problem:
            if problem.code == "pin_incorrect":
                server.pins.failed(self._terminal, operator_id)
                server.stats.add("pin_failures", self._terminal)
            raise
        server.pins.succeeded(self._terminal, operator_id)
        self._send_json(200, {"operator_id": operator_id, "display_name": name, "verified_at": clock.iso(clock.now())})

    @staticmethod
    def _path_iban(text):
        iban = ibans.normalize(text)
        if not ibans.is_valid(iban):
            raise Problem("invalid_iban", f"'{text}' is not a valid IBAN.", field="iban")
        return iban

    def _recent(self, iban, query):
        server = self.server
        snapshot = server.store.account(iban)
        if snapshot is None:
            raise Problem("account_not_found", f"No account {iban} at this bank.")
        raw = query.get("limit", ["20"])[-1]
        if not raw.isdigit() or not 1 <= int(raw) <= 100:
            raise Problem("invalid_parameter", "'limit' must be an integer from 1 to 100.", field="limit")
        lines = server.store.recent_transactions(iban, int(raw))
        self._send_json(200, {"iban": iban, "currency": snapshot["currency"], "as_of": snapshot["as_of"],
                              "transactions": lines})

    # MARK: The idempotent writes: submitting a transaction, recording a till event

    def _submit(self):
        server, terminal = self.server, self._terminal
        server.stats.add("submissions", terminal)

        def settle(key, submission):
            status, body, outcome = server.store.settle(terminal, key, submission)
            return status, body, "postings" if outcome == "posted" else "rejections"

        self._idempotent_write("transactions", parse_submission, settle)

    def _till_event(self):
        server, terminal = self.server, self._terminal
        server.stats.add("till_event_submissions", terminal)

        def record(key, event):
            status, body = server.store.record_till_event(terminal, key, event)
            return status, body, "till_events_recorded"

        self._idempotent_write("till-events", parse_till_event, record)

    def _idempotent_write(self, resource, parse, settle):
        """docs/host-api.md §7 for any idempotent write: the key, the raw body's hash, a replay
        of a stored final answer, 409 while in flight, 422 for another body (or a key first used
        for another resource); a new key's body is validated before anything is stored.
        `settle(key, parsed)` commits the final answer: (status, body, the counter to add)."""
        server, terminal = self.server, self._terminal
        if (self.headers.get("Content-Type") or "").split(";", 1)[0].strip().lower() != "application/json":
            raise Problem("unsupported_media_type", "Send the body as application/json.")
        key = parse_idempotency_key(self.headers.get("Idempotency-Key"))
        digest = hashlib.sha256(self._body).digest()
        existing = server.store.find_submission(terminal, key)
        if existing is None:
            parsed = parse(self._body)
            existing = server.store.claim(terminal, key, digest, resource)
            if existing is None:
                return self._settle(key, lambda: settle(key, parsed))
        self._answer_existing(key, existing, digest, resource)

    @staticmethod
    def existing_refusal(key, row, digest, resource):
        """docs/host-api.md §7 for a key seen before: the Problem its request gets (another
        resource's key or another body: 422; still in flight: 409), or None when its stored final
        answer is replayed. One rule for the idempotent writes and for rescue imports."""
        if row["resource"] != resource:
            return Problem("idempotency_key_reused",
                           f"Key {key} was first used for /v1/{row['resource']}; a key names one request, once.")
        if row["body_sha256"] != digest:
            return Problem("idempotency_key_reused",
                           f"Key {key} was first sent with a different body; a retry must resend the identical bytes.")
        if row["state"] == "processing":
            return Problem("request_in_progress", f"Key {key} is still being processed; retry later with the same key.",
                           retry_after=1)
        return None

    def _answer_existing(self, key, row, digest, resource):
        stats = self.server.stats
        refusal = self.existing_refusal(key, row, digest, resource)
        if refusal is not None:
            stats.add("conflicts" if refusal.code == "request_in_progress" else "key_mismatches", self._terminal)
            raise refusal
        stats.add("replays", self._terminal)
        self._send(row["status_code"], row["response"],
                   {"Content-Type": "application/json", "Idempotent-Replayed": "true"})

    # MARK: Rescue files (docs/host-api.md §12)

    def _rescue(self):
        """Imports a dead terminal's rescue file for a terminal of its branch: each payment and till
        event under its original key and the dead terminal's id, in the same key space its own
        requests used, so what it had sent is found and nothing is posted twice."""
        server, importer = self.server, self._terminal
        if (self.headers.get("Content-Type") or "").split(";", 1)[0].strip().lower() != "application/json":
            raise Problem("unsupported_media_type", "Send the rescue file as application/json.")
        tag, signed = rescues.split(self._body)
        doc, dead = rescues.terminal_of(signed)
        record = server.store.terminal(dead)
        if record is None or record["rescue_key"] is None:
            raise Problem("rescue_terminal_unknown", f"The bank keeps no rescue key for terminal {dead}"
                          + (" (registered before rescue files; register its secret again)." if record is not None else "."))
        mine = server.store.terminal(importer)
        if record["branch"] is None or mine is None or mine["branch"] != record["branch"]:
            raise Problem("rescue_branch_mismatch", f"Terminal {importer} (branch {mine['branch'] if mine else None}) may not import "
                          f"the rescue of {dead} (branch {record['branch']}): a rescue is imported by a terminal of its own branch.")
        if not rescues.verify(tag, signed, record["rescue_key"]):
            server.stats.add("rescue_signatures_refused", importer)
            raise Problem("rescue_signature_invalid", f"The file's hmac_sha256 does not match its contents under {dead}'s key: "
                          "a byte was changed, or it was signed with another terminal's secret. Nothing was posted.")
        payments, events, journal_entries = rescues.items(doc)
        file_sha256 = hashlib.sha256(self._body).digest()
        first = server.store.find_rescue(file_sha256) is None
        server.stats.add("rescue_imports", importer)
        counts = {"posted": 0, "already_posted": 0, "refused": 0, "already_refused": 0}
        event_counts = {"recorded": 0, "already_recorded": 0, "refused": 0}
        refusals = []
        for key, body in payments:
            verdict, reason, detail = self._rescue_payment(dead, key, body)
            counts[verdict] += 1
            if reason is not None:
                refusals.append({"item": "payment", "idempotency_key": key, "reason": reason, "detail": detail,
                                 "decided_before": verdict == "already_refused"})
        for key, body in events:
            verdict, reason, detail = self._rescue_till_event(dead, key, body)
            event_counts[verdict] += 1
            if reason is not None:
                refusals.append({"item": "till_event", "idempotency_key": key, "reason": reason, "detail": detail,
                                 "decided_before": False})
        report = {"terminal_id": dead, "imported_by": importer, "first_import": first, "payments": counts,
                  "till_events": event_counts, "journal_entries": journal_entries,
                  "refusals": refusals[:100], "refusals_omitted": max(0, len(refusals) - 100)}
        server.store.record_rescue(file_sha256, dead, importer, report, self._body)
        self._send_json(200, report)

    def _rescue_payment(self, terminal, raw_key, body):
        """(verdict, reason, detail) for one payment: posted now, already posted, refused now or
        refused before. A key whose idempotency record was purged is found in the journal, which
        keeps every final outcome for good: it is never posted a second time."""
        server = self.server
        try:
            key = parse_idempotency_key(raw_key)
        except Problem as problem:
            return "refused", problem.code, problem.detail
        digest = hashlib.sha256(body).digest()
        existing = server.store.find_submission(terminal, key)
        if existing is None:
            decided = server.store.ledger_outcome(terminal, key)
            if decided is not None:
                if decided["outcome"] == "posted":
                    return "already_posted", None, None
                return "already_refused", decided["reason"], "Rejected by the bank before this import."
            try:
                parsed = parse_submission(body)
            except Problem as problem:
                return "refused", problem.code, problem.detail
            existing = server.store.claim(terminal, key, digest, "transactions")
            if existing is None:
                try:
                    status, answer, outcome = server.store.settle(terminal, key, parsed)
                except BaseException:
                    server.store.release(terminal, key)
                    raise
                server.stats.add("postings" if outcome == "posted" else "rejections", terminal)
                if outcome == "posted":
                    return "posted", None, None
                stored = json.loads(answer)
                return "refused", stored["reason"], stored["detail"]
        refusal = self.existing_refusal(key, existing, digest, "transactions")
        if refusal is not None:
            return "refused", refusal.code, refusal.detail
        stored = json.loads(existing["response"])
        if stored["outcome"] == "posted":
            return "already_posted", None, None
        return "already_refused", stored["reason"], stored.get("detail", "")

    def _rescue_till_event(self, terminal, raw_key, body):
        """(verdict, reason, detail) for one till event: recorded now, recorded before, or refused."""
        server = self.server
        try:
            key = parse_idempotency_key(raw_key)
        except Problem as problem:
            return "refused", problem.code, problem.detail
        digest = hashlib.sha256(body).digest()
        existing = server.store.find_submission(terminal, key)
        if existing is None:
            if server.store.recorded_till_event(terminal, key) is not None:
                return "already_recorded", None, None
            try:
                event = parse_till_event(body)
            except Problem as problem:
                return "refused", problem.code, problem.detail
            existing = server.store.claim(terminal, key, digest, "till-events")
            if existing is None:
                try:
                    server.store.record_till_event(terminal, key, event)
                except BaseException:
                    server.store.release(terminal, key)
                    raise
                server.stats.add("till_events_recorded", terminal)
                return "recorded", None, None
        refusal = self.existing_refusal(key, existing, digest, "till-events")
        if refusal is not None:
            return "refused", refusal.code, refusal.detail
        return "already_recorded", None, None

    def _settle(self, key, commit):
        """Runs `commit` for a claimed key; the marker goes if it fails before committing."""
        server, terminal = self.server, self._terminal
        try:
            pause = server.faults.processing_delay_ms
            if pause:
                time.sleep(pause / 1000)
            status, body, counter = commit()
        except BaseException:
            server.store.release(terminal, key)
            raise
        server.stats.add(counter, terminal)
        if server.faults.take_drop():
            server.stats.add("dropped_responses", terminal)
            return self._drop()
        self._send(status, body, {"Content-Type": "application/json"})

    def _status(self, raw_key):
        key = parse_path_key(raw_key)
        row = self.server.store.find_submission(self._terminal, key)
        if row is None or row["resource"] != "transactions":
            raise Problem("transaction_not_found", f"Terminal {self._terminal} has no transaction with key {key}.")
        if row["state"] == "processing":
            raise Problem("request_in_progress", f"Key {key} is still being processed.", retry_after=1)
        self._send(200, row["response"], {"Content-Type": "application/json"})

    # MARK: /admin (loopback peers only)

    def _admin(self, method, path, query):
        server = self.server
        if not server.config.admin:
            raise Problem("not_found", "The admin API is disabled (--no-admin).")
        if not is_loopback_peer(self.client_address[0]):
            raise Problem("admin_loopback_only", "The admin API answers only 127.0.0.1 and ::1.")
        allowed = ADMIN_ROUTES.get(path.rstrip("/"))
        if allowed is None:
            raise Problem("not_found", f"No admin resource {path}.")
        if method not in allowed:
            raise method_not_allowed(method, allowed)
        route = (method, path.rstrip("/"))
        if route == ("GET", "/admin/stats"):
            return self._send_json(200, {**server.stats.snapshot(), "store": server.store.counts()})
        if route == ("POST", "/admin/reset"):
            server.stats.reset()
            server.faults.clear()
            server.pins.clear()
            return self._send_json(200, {"reset": True})
        if route == ("GET", "/admin/faults"):
            return self._send_json(200, server.faults.snapshot())
        if route == ("POST", "/admin/faults"):
            try:
                server.faults.update(self._admin_doc())
            except ValueError as error:
                raise Problem("invalid_field", str(error))
            return self._send_json(200, server.faults.snapshot())
        if route == ("DELETE", "/admin/faults"):
            server.faults.clear()
            return self._send_json(200, server.faults.snapshot())
        if route == ("POST", "/admin/tokens/expire"):
            include_refresh = self._admin_doc().get("include_refresh", False) is True
            return self._send_json(200, {"expired": server.store.expire_tokens(include_refresh)})
        if route == ("GET", "/admin/journal"):
            try:
                after = int(query.get("after_seq", ["0"])[-1])
            except ValueError:
                raise Problem("invalid_parameter", "'after_seq' must be an integer.", field="after_seq")
            entries = server.store.journal(query.get("terminal_id", [None])[-1], after, query.get("outcome", [None])[-1])
            return self._send_json(200, {"entries": entries})
        if route == ("GET", "/admin/till-events"):
            try:
                after = int(query.get("after_seq", ["0"])[-1])
            except ValueError:
                raise Problem("invalid_parameter", "'after_seq' must be an integer.", field="after_seq")
            return self._send_json(200, {"events": server.store.till_events(query.get("terminal_id", [None])[-1], after)})
        if route == ("GET", "/admin/accounts"):
            return self._send_json(200, {"accounts": server.store.accounts()})
        if route == ("POST", "/admin/accounts"):
            self._put_account(self._admin_doc())
            return self._send_json(200, server.store.account(self._admin_doc()["iban"]))
        if route == ("POST", "/admin/terminals"):
            doc = self._admin_doc()
            branch = doc.get("branch")
            if branch is not None and (not isinstance(branch, str) or branch == ""):
                raise Problem("invalid_field", "'branch' must be a non-empty string when given.", field="branch")
            server.store.set_terminal(self._field(doc, "terminal_id"), self._field(doc, "secret"), branch)
            return self._send_json(200, {"terminal_id": doc["terminal_id"]})
        if route == ("POST", "/admin/purge"):
            return self._send_json(200, {"purged_keys": server.store.purge(server.config.key_retention)})
        raise Problem("not_found", f"No admin resource {method} {path}.")

    def _put_account(self, doc):
        iban = doc.get("iban")
        if not ibans.is_valid(iban):
            raise Problem("invalid_field", "'iban' must be a valid IBAN.", field="iban")
        holder = self._field(doc, "holder")
        currency = doc.get("currency", "EUR")
        if not isinstance(currency, str) or len(currency) != 3 or not currency.isupper():
            raise Problem("invalid_field", "'currency' must be an ISO 4217 code.", field="currency")
        amounts = {}
        for name in ("balance", "hold"):
            value = doc.get(name, 0)
            if isinstance(value, bool) or not isinstance(value, int):
                raise Problem("invalid_field", f"'{name}' must be an integer of minor units.", field=name)
            amounts[name] = value
        status = doc.get("status", "active")
        if status not in ("active", "blocked"):
            raise Problem("invalid_field", "'status' must be active or blocked.", field="status")
        self.server.store.put_account(iban, holder, currency, amounts["balance"], amounts["hold"], status)

    def _admin_doc(self):
        return parse_json_object(self._body) if self._body.strip() else {}
