"""Command line: `teller-host --port 8480 --data /tmp/host.db --seed demo`."""

import argparse
import re
import signal
import sys
import threading

from . import VERSION, tls
from .seed import seed_demo
from .server import Config, HostServer
from .store import Store

_TERMINAL = re.compile(r"^[A-Za-z0-9][A-Za-z0-9._-]{0,31}$")


def _terminal(text):
    terminal_id, sep, secret = text.partition(":")
    if not sep or not _TERMINAL.match(terminal_id) or len(secret) < 8:
        raise argparse.ArgumentTypeError("expected ID:SECRET, an id of letters, digits, '.', '_' or '-' and a secret of 8+ characters")
    return terminal_id, secret


def _branch(text):
    terminal_id, sep, branch = text.partition(":")
    if not sep or not _TERMINAL.match(terminal_id) or not branch:
        raise argparse.ArgumentTypeError("expected ID:BRANCH, a terminal id and a branch name")
    return terminal_id, branch


def build_parser():
    parser = argparse.ArgumentParser(prog="teller-host", description="Teller reference bank host (docs/host-api.md).")
    parser.add_argument("--port", type=int, default=8480, help="TCP port; 0 picks a free one (default 8480)")
    parser.add_argument("--bind", default="127.0.0.1", help="address to listen on (default 127.0.0.1; ::1 for IPv6)")
    parser.add_argument("--data", default="teller-host.db", help="SQLite file, created if missing (default ./teller-host.db)")
    parser.add_argument("--seed", choices=["demo"], help="insert the demo data set (idempotent)")
    parser.add_argument("--terminal", action="append", type=_terminal, default=[], metavar="ID:SECRET",
                        help="register a terminal or replace its secret (repeatable)")
    parser.add_argument("--branch", action="append", type=_branch, default=[], metavar="ID:BRANCH",
                        help="put a registered terminal in a branch (repeatable): a rescue file is imported by a terminal of its branch")
    parser.add_argument("--access-ttl", type=float, default=900, metavar="SECONDS", help="access token lifetime (default 900)")
    parser.add_argument("--refresh-ttl", type=float, default=30 * 86_400, metavar="SECONDS",
                        help="refresh token lifetime (default 2592000 = 30 days)")
    parser.add_argument("--key-retention-days", type=float, default=30, metavar="DAYS",
                        help="how long idempotency keys are kept (default 30)")
    parser.add_argument("--expire-tokens", action="store_true", help="expire every issued access token at start")
    parser.add_argument("--drop-after-commit", type=int, default=0, metavar="N",
                        help="fault: commit the next N submissions, then reset the connection without answering")
    parser.add_argument("--fail", type=int, default=0, metavar="N", help="fault: answer the next N submissions with --fail-status")
    parser.add_argument("--fail-status", type=int, choices=[429, 503], default=503)
    parser.add_argument("--fail-scope", choices=["transactions", "till_events", "v1"], default="transactions",
                        help="which requests --fail hits: submissions only, till events only, or every /v1 request")
    parser.add_argument("--retry-after", type=int, default=1, metavar="SECONDS", help="Retry-After of injected failures (default 1)")
    parser.add_argument("--delay-ms", type=int, default=0, metavar="MS", help="fault: delay every /v1 response")
    parser.add_argument("--processing-delay-ms", type=int, default=0, metavar="MS",
                        help="fault: hold each new submission in flight this long (to provoke 409)")
    parser.add_argument("--no-admin", action="store_true", help="switch the /admin API off")
    parser.add_argument("--log-requests", action="store_true", help="one stderr line per request")
    tls.add_arguments(parser, client_ca=True)
    parser.add_argument("--version", action="version", version=f"teller-host {VERSION}")
    return parser


def parse_arguments(argv):
    return build_parser().parse_args(argv)


def main(argv=None):
    parser = build_parser()
    args = parser.parse_args(sys.argv[1:] if argv is None else argv)
    tls_context = tls.context_from_arguments(parser, args)
    store = Store(args.data)
    if args.seed == "demo":
        seed_demo(store)
    for terminal_id, secret in args.terminal:
        store.set_terminal(terminal_id, secret)
    for terminal_id, branch in args.branch:
        if not store.set_branch(terminal_id, branch):
            parser.error(f"--branch {terminal_id}:{branch}: no terminal {terminal_id} is registered (--terminal or --seed demo)")
    discarded = store.discard_in_flight()
    if discarded:
        print(f"teller-host: discarded {discarded} in-flight marker(s) left by a previous run", file=sys.stderr)
    retention = args.key_retention_days * 86_400
    store.purge(retention)
    if args.expire_tokens:
        store.expire_tokens(include_refresh=False)

    config = Config(access_ttl=args.access_ttl, refresh_ttl=args.refresh_ttl, key_retention=retention,
                    log_requests=args.log_requests, admin=not args.no_admin)
    server = HostServer((args.bind, args.port), store, config, tls=tls_context)
    server.faults.update({
        "drop_after_commit": args.drop_after_commit,
        "delay_ms": args.delay_ms,
        "processing_delay_ms": args.processing_delay_ms,
        "fail": {"count": args.fail, "status": args.fail_status, "scope": args.fail_scope, "retry_after": args.retry_after},
    })

    stop = threading.Event()

    def purge_hourly():
        while not stop.wait(3600):
            store.purge(retention)

    threading.Thread(target=purge_hourly, daemon=True).start()
    signal.signal(signal.SIGTERM, lambda *_: threading.Thread(target=server.shutdown, daemon=True).start())
    print(f"teller-host: listening on {server.url()}", flush=True)
    try:
        server.serve_forever(poll_interval=0.2)
    except KeyboardInterrupt:
        pass
    finally:
        stop.set()
        server.server_close()
        store.close()
    return 0
