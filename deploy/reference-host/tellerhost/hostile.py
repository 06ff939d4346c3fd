"""teller-hostile-host: a host that answers the Teller host API wrongly, on purpose, one way per
--mode, so the terminal's client can be tested against broken, malicious or misconfigured hosts
(captive portals, proxies that redirect, truncated or dripping answers, echoes of another
transaction). See docs/reference-host.md, "Hostile host".

Standard library only. Listens on 127.0.0.1 only. Not a bank: nothing is stored except, in memory,
the submitted bodies by key (so status by key can echo them).
"""

import argparse
import copy
import email.utils
import json
import signal
import socket
import struct
import sys
import threading
import time
import urllib.parse
import uuid
from dataclasses import dataclass, field
from http import HTTPStatus
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

from . import clock, tls

PROG = "teller-hostile-host"

MODES = {
    "echo": "the plain bank: correct-looking answers everywhere",
    "record-only": "like echo; meant as the --record target of a redirect",
    "malformed-json": "transactions and till events: 200 application/json with a truncated JSON body",
    "huge-body": "every /v1 path: 201 application/json with a 50 MB body, streamed",
    "html-500": "transactions and till events: 500 text/html",
    "captive-portal": "every path: 200 text/html login page",
    "drip-headers": "every /v1 path: status line and headers one byte per second",
    "drip-body": "every /v1 path: headers at once, then the body one byte per second",
    "wrong-content-type": "transactions and till events: correct-looking outcome as text/plain",
    "wrong-content-type-html": "transactions and till events: correct-looking outcome as text/html",
    "unauthorized": "every path: 401 problem, forever (token endpoints too)",
    "reset": "transactions and till events: status line, headers and half the body, then a TCP reset",
    "other-key": "transactions and till events: correct-looking outcome echoing another idempotency key",
    "wrong-amount": "transactions: correct-looking outcome with amount * 10; till events: total * 10",
    "wrong-account": "transactions: correct-looking outcome with another valid account IBAN",
    "wrong-kind": "transactions: deposit and withdrawal swapped; till events: opened and closed swapped",
    "wrong-currency": "transactions and till events: correct-looking outcome with another currency",
    "wrong-till": "till events: correct-looking record for another till_id (transactions answered as by echo)",
    "ok-text-plain": "transactions and till events: 200 text/plain 'OK'",
    "redirect-302": "every /v1 path: 302 to 127.0.0.1:--redirect-to, same path",
    "redirect-307": "every /v1 path: 307 to 127.0.0.1:--redirect-to, same path",
}

HUGE_BODY_BYTES = 50 * 1024 * 1024
DRIP_INTERVAL = 1.0
RESET_PAUSE = 0.2  # between the half body and the reset, so the client has read the half
ECHOED = ("kind", "account_iban", "counterparty_iban", "amount", "currency", "operator_id",
          "client_reference", "created_at", "reverses", "approved_by")
TILL_ECHOED = ("event", "till_id", "operator_id", "currency", "total", "at")
OTHER_ACCOUNT = "DE89370400440532013000"
OTHER_ACCOUNT_2 = "DE54500105170426397158"
# What status by key echoes for a key that was never submitted here.
DEFAULT_SUBMISSION = {"kind": "deposit", "account_iban": "DE54500105170426397158", "amount": 100, "currency": "EUR",
                      "operator_id": "1001", "client_reference": "HOSTILE", "created_at": "2026-11-29T14:05:00Z"}
TOKENS = {"access_token": "hostile-access", "expires_in": 900, "refresh_token": "hostile-refresh",
          "refresh_expires_in": 2592000}
CAPTIVE_PORTAL = (b"<!DOCTYPE html>\n<html><head><title>Guest Wi-Fi</title></head>\n<body><h1>Welcome to Guest Wi-Fi</h1>\n"
                  b"<form method=\"post\" action=\"/login\"><label>Room number <input name=\"room\"></label>\n"
                  b"<label>Surname <input name=\"surname\"></label><button>Connect</button></form>\n</body></html>\n")
HTML_500 = (b"<!DOCTYPE html>\n<html><head><title>500 Internal Server Error</title></head>\n"
            b"<body><h1>Internal Server Error</h1><p>The server encountered an internal error.</p>\n"
            b"<hr><address>Apache/2.4.57 (Unix)</address></body></html>\n")


def dump(doc):
    return json.dumps(doc, separators=(",", ":"), ensure_ascii=False).encode()


def problem(status, code, title, detail, path, headers=None):
    doc = {"type": "urn:teller:problem:" + code, "title": title, "status": status, "detail": detail, "code": code,
           "instance": path}
    return Answer(status, "application/problem+json", dump(doc), dict(headers or {}))


@dataclass
class Answer:
    status: int
    content_type: "str | None"
    body: bytes = b""
    headers: dict = field(default_factory=dict)
    # normal | drip-headers | drip-body | reset | huge
    delivery: str = "normal"


class HostileServer(ThreadingHTTPServer):
    daemon_threads = True
    block_on_close = False  # SIGTERM must not wait for a dripping or streaming connection
    allow_reuse_address = True
    request_queue_size = 64

    def __init__(self, port, mode, redirect_to=None, record=None, tls_context=None):
        self.mode = mode
        self.redirect_to = redirect_to
        self.record_file = record
        self.tls = tls_context
        self.stopping = threading.Event()
        self._lock = threading.Lock()
        self._submissions = {}
        super().__init__(("127.0.0.1", port), HostileHandler)

    def get_request(self):
        connection, peer = super().get_request()
        connection.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)
        if self.tls is not None:
            connection = self.tls.wrap_socket(connection, server_side=True, do_handshake_on_connect=False)
        return connection, peer

    def url(self):
        return tls.url(self.server_address, self.tls is not None)

    def record(self, method, path, headers, body):
        if self.record_file is None:
            return
        line = json.dumps({"method": method, "path": path,
                           "headers": {name.lower(): value for name, value in headers.items()},
                           "body": body.decode("utf-8", errors="replace")}, ensure_ascii=False)
        with self._lock, open(self.record_file, "a", encoding="utf-8") as file:
            file.write(line + "\n")

    def remember(self, key, doc):
        with self._lock:
            self._submissions[key.lower()] = doc

    def recall(self, key):
        with self._lock:
            return self._submissions.get(key.lower(), DEFAULT_SUBMISSION)

    # MARK: Answers

    def answer(self, method, target, headers, body):
        path = target.partition("?")[0]
        mode = self.mode
        is_v1 = path == "/v1" or path.startswith("/v1/")
        if mode == "captive-portal":
            return Answer(200, "text/html; charset=utf-8", CAPTIVE_PORTAL)
        if mode == "unauthorized":
            if path in ("/v1/auth/token", "/v1/auth/refresh"):
                code, title = (("invalid_terminal_credentials", "Terminal id or secret is wrong") if path == "/v1/auth/token"
                               else ("refresh_token_invalid", "Refresh token is not valid"))
            else:
                code, title = "token_invalid", "Access token is not valid"
            return problem(401, code, title, "Hostile host: every credential is refused.", path,
                           {"WWW-Authenticate": 'Bearer realm="teller", error="invalid_token"'})
        if mode in ("redirect-302", "redirect-307") and is_v1:
            return Answer(int(mode[-3:]), None, b"", {"Location": f"http://127.0.0.1:{self.redirect_to}{target}"})
        if mode == "huge-body" and is_v1:
            return Answer(201, "application/json", b"", delivery="huge")
        answer = self.bank(method, path, headers, body)
        if mode in ("drip-headers", "drip-body") and is_v1:
            answer.delivery = mode
        return answer

    def bank(self, method, path, headers, body):
        parts = [urllib.parse.unquote(part) for part in path[1:].split("/")]
        if parts == ["v1", "health"]:
            return self.only(method, "GET", path) or Answer(200, "application/json", dump({"status": "ok"}))
        if parts in (["v1", "auth", "token"], ["v1", "auth", "refresh"]):
            return self.only(method, "POST", path) or Answer(200, "application/json", dump(TOKENS))
        if parts == ["v1", "operators", "verify"]:
            operator_id = _json_object(body).get("operator_id")
            return self.only(method, "POST", path) or Answer(200, "application/json",
                                                             dump({"operator_id": operator_id, "display_name": "Hostile"}))
        if parts[:2] == ["v1", "accounts"] and len(parts) in (3, 4):
            return self.only(method, "GET", path) or problem(404, "account_not_found", "Account not found",
                                                             "Hostile host: no accounts here.", path)
        if parts == ["v1", "transactions"]:
            if method != "POST":
                return self.only(method, "POST", path)
            submitted = _json_object(body)
            key = headers.get("Idempotency-Key", "")
            self.remember(key, submitted)
            return self.transaction(key, submitted, 201)
        if parts == ["v1", "till-events"]:
            if method != "POST":
                return self.only(method, "POST", path)
            return self.transaction(headers.get("Idempotency-Key", ""), _json_object(body), 201, till_event=True)
        if len(parts) == 3 and parts[:2] == ["v1", "transactions"]:
            return self.only(method, "GET", path) or self.transaction(parts[2], self.recall(parts[2]), 200)
        return problem(404, "not_found", "No such resource", f"Hostile host: nothing at {path}.", path)

    @staticmethod
    def only(method, allowed, path):
        if method == allowed:
            return None
        return problem(405, "method_not_allowed", "Method not allowed", f"Use {allowed}.", path, {"Allow": allowed})

    def transaction(self, key, submitted, status, till_event=False):
        """The mode's answer to POST /v1/transactions (status 201), GET /v1/transactions/{key} (200)
        or, with `till_event`, POST /v1/till-events (201)."""
        mode = self.mode
        doc = recorded_outcome(key, submitted) if till_event else posted_outcome(key, submitted)
        if mode == "malformed-json":
            full = dump(doc)
            return Answer(200, "application/json", full[:len(full) // 2])
        if mode == "html-500":
            return Answer(500, "text/html; charset=iso-8859-1", HTML_500)
        if mode == "ok-text-plain":
            return Answer(200, "text/plain", b"OK")
        if mode == "other-key":
            other = str(uuid.uuid4())
            doc["idempotency_key"] = other if other != key.lower() else str(uuid.uuid4())
        elif mode == "wrong-amount":
            member = "total" if till_event else "amount"
            doc[member] = doc[member] * 10 if isinstance(doc.get(member), int) and doc[member] else 1000
        elif mode == "wrong-account" and not till_event:
            doc["account_iban"] = OTHER_ACCOUNT if doc.get("account_iban") != OTHER_ACCOUNT else OTHER_ACCOUNT_2
        elif mode == "wrong-kind" and till_event:
            doc["event"] = "closed" if doc.get("event") == "opened" else "opened"
        elif mode == "wrong-kind":
            doc["kind"] = {"deposit": "withdrawal", "withdrawal": "deposit"}.get(doc.get("kind"), "deposit")
        elif mode == "wrong-till" and till_event:
            doc["till_id"] = doc["till_id"] + 1 if isinstance(doc.get("till_id"), int) else 1
        elif mode == "wrong-currency":
            doc["currency"] = "GBP" if doc.get("currency") == "EUR" else "EUR"
        content_type = {"wrong-content-type": "text/plain", "wrong-content-type-html": "text/html"}.get(mode, "application/json")
        answer = Answer(status, content_type, dump(doc))
        if mode == "reset":
            answer.delivery = "reset"
        return answer


def posted_outcome(key, submitted):
    """A correct-looking posted outcome for this key and submitted body."""
    doc = {"outcome": "posted", "idempotency_key": key.lower()}
    for name in ECHOED:
        if name in submitted:
            doc[name] = copy.deepcopy(submitted[name])
    doc.update(host_reference="HOSTILE-1", posted_at=clock.iso(clock.now()), balance_after=0, available_after=0)
    return doc


def recorded_outcome(key, submitted):
    """A correct-looking till-event record for this key and submitted body."""
    doc = {"outcome": "recorded", "idempotency_key": key.lower()}
    for name in TILL_ECHOED:
        if name in submitted:
            doc[name] = copy.deepcopy(submitted[name])
    doc.update(host_reference="HOSTILE-T1", recorded_at=clock.iso(clock.now()))
    return doc


def _json_object(body):
    try:
        doc = json.loads(body.decode("utf-8"))
    except (UnicodeDecodeError, ValueError):
        return {}
    return doc if isinstance(doc, dict) else {}


class HostileHandler(BaseHTTPRequestHandler):
    protocol_version = "HTTP/1.1"
    server_version = "teller-hostile-host"
    sys_version = ""
    timeout = 300

    def __getattr__(self, name):
        if name.startswith("do_"):
            return self._handle
        raise AttributeError(name)

    def handle(self):
        if tls.handshake(self.connection):
            super().handle()

    def log_message(self, format, *args):
        pass

    def _handle(self):
        if self.headers.get("Transfer-Encoding"):
            self.close_connection = True  # chunked request bodies are not read; the framing is lost
        length = self.headers.get("Content-Length", "0").strip()
        body = self.rfile.read(int(length)) if length.isdigit() else b""
        self.server.record(self.command, self.path, self.headers, body)
        answer = self.server.answer(self.command, self.path, self.headers, body)
        try:
            self._deliver(answer)
        except (BrokenPipeError, ConnectionResetError, ConnectionAbortedError, socket.timeout, OSError):
            self.close_connection = True  # the client hung up: stop quietly

    def _head(self, answer, length):
        lines = [f"HTTP/1.1 {answer.status} {HTTPStatus(answer.status).phrase}",
                 f"Date: {email.utils.formatdate(usegmt=True)}",
                 f"Server: {self.server_version}",
                 f"Content-Length: {length}"]
        if answer.content_type:
            lines.append(f"Content-Type: {answer.content_type}")
        lines.extend(f"{name}: {value}" for name, value in answer.headers.items())
        if self.close_connection:
            lines.append("Connection: close")
        return ("\r\n".join(lines) + "\r\n\r\n").encode("latin-1")

    def _drip(self, data):
        for index in range(len(data)):
            if index and self.server.stopping.wait(DRIP_INTERVAL):
                raise ConnectionAbortedError("stopping")
            self.wfile.write(data[index:index + 1])

    def _deliver(self, answer):
        body = b"" if self.command == "HEAD" else answer.body
        if answer.delivery == "huge":
            self._stream_huge(answer)
        elif answer.delivery == "drip-headers":
            self._drip(self._head(answer, len(body)))
            self.wfile.write(body)
        elif answer.delivery == "drip-body":
            self.wfile.write(self._head(answer, len(body)))
            self._drip(body)
        elif answer.delivery == "reset":
            self.wfile.write(self._head(answer, len(body)) + body[:len(body) // 2])
            time.sleep(RESET_PAUSE)
            self._reset()
        else:
            self.wfile.write(self._head(answer, len(body)) + body)

    def _stream_huge(self, answer):
        prefix, suffix = b'{"outcome":"posted","padding":"', b'"}'
        padding = HUGE_BODY_BYTES - len(prefix) - len(suffix)
        self.wfile.write(self._head(answer, HUGE_BODY_BYTES))
        if self.command == "HEAD":
            return
        self.wfile.write(prefix)
        chunk = b"x" * (1 << 20)
        while padding > 0:
            if self.server.stopping.is_set():
                raise ConnectionAbortedError("stopping")
            self.wfile.write(chunk[:padding])
            padding -= min(padding, len(chunk))
        self.wfile.write(suffix)

    def _reset(self):
        """SO_LINGER on with a zero timeout, then close: the kernel sends RST, not FIN."""
        self.close_connection = True
        self.connection.setsockopt(socket.SOL_SOCKET, socket.SO_LINGER, struct.pack("ii", 1, 0))
        self.connection.close()
        self.rfile.close()  # the last reference: the descriptor closes now, with the reset


def build_parser():
    modes = "\n".join(f"  {name:24} {text}" for name, text in MODES.items())
    parser = argparse.ArgumentParser(prog=PROG, formatter_class=argparse.RawDescriptionHelpFormatter,
                                     description="A deliberately broken Teller bank host for client tests (loopback only).",
                                     epilog="modes:\n" + modes)
    parser.add_argument("--port", type=int, default=0, help="TCP port on 127.0.0.1; 0 picks a free one (default)")
    parser.add_argument("--bind", default="127.0.0.1", help="must be 127.0.0.1: the hostile host never leaves loopback")
    parser.add_argument("--mode", required=True, choices=list(MODES), metavar="MODE", help="how to misbehave (below)")
    parser.add_argument("--redirect-to", type=int, metavar="PORT", help="Location port of redirect-302/redirect-307")
    parser.add_argument("--record", metavar="FILE", help="append one JSON line per request received")
    tls.add_arguments(parser)
    return parser


def main(argv=None):
    parser = build_parser()
    args = parser.parse_args(sys.argv[1:] if argv is None else argv)
    if args.bind != "127.0.0.1":
        parser.error(f"--bind {args.bind}: the hostile host listens on 127.0.0.1 only")
    if args.mode.startswith("redirect-") and args.redirect_to is None:
        parser.error(f"--mode {args.mode} needs --redirect-to PORT")
    if args.redirect_to is not None and not 1 <= args.redirect_to <= 65535:
        parser.error("--redirect-to must be a port number")
    tls_context = tls.context_from_arguments(parser, args)
    server = HostileServer(args.port, args.mode, args.redirect_to, args.record, tls_context)

    def stop(*_):
        server.stopping.set()
        threading.Thread(target=server.shutdown, daemon=True).start()

    signal.signal(signal.SIGTERM, stop)
    print(f"{PROG}: listening on {server.url()}", flush=True)
    try:
        server.serve_forever(poll_interval=0.1)
    except KeyboardInterrupt:
        pass
    finally:
        server.stopping.set()
        server.server_close()
    return 0
