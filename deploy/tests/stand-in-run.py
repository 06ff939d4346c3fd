#!/usr/bin/env python3
"""Stand-in for `teller run` until it lands in main (tests only).

Behaves like the terminal towards systemd and deploy/diagnose: sends
READY=1 once "the first frame" is up, WATCHDOG=1 at half of WATCHDOG_USEC,
serves `status` and `screenshot PATH` on runtime_dir/control.sock, and
exits cleanly on SIGTERM.
"""
import json, os, signal, socket, struct, sys, threading, time, zlib

def notify(message):
    path = os.environ.get("NOTIFY_SOCKET")
    if not path:
        return
    if path.startswith("@"):
        path = "\0" + path[1:]
    with socket.socket(socket.AF_UNIX, socket.SOCK_DGRAM) as s:
        s.sendto(message.encode(), path)

def png(width=8, height=8):
    raw = b"".join(b"\0" + b"\x20\x40\x80" * width for _ in range(height))
    chunk = lambda kind, data: struct.pack(">I", len(data)) + kind + data + struct.pack(">I", zlib.crc32(kind + data))
    return b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", struct.pack(">IIBBBBB", width, height, 8, 2, 0, 0, 0)) + chunk(b"IDAT", zlib.compress(raw)) + chunk(b"IEND", b"")

def runtime_dir(args):
    directory = "/run/teller"
    config = "/etc/teller/teller.conf"
    if "--config" in args:
        config = args[args.index("--config") + 1]
    try:
        for line in open(config):
            key, _, value = line.partition("=")
            if key.strip() == "runtime_dir":
                directory = value.strip()
    except OSError:
        pass
    return directory

def serve(path):
    if os.path.exists(path):
        os.unlink(path)
    server = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
    server.bind(path)
    server.listen(4)
    while True:
        connection, _ = server.accept()
        with connection:
            line = connection.makefile().readline().strip()
            verb, _, rest = line.partition(" ")
            if verb == "status":
                answer = {"ok": True, "result": {"stand_in": True}}
            elif verb == "screenshot":
                with open(rest, "wb") as f:
                    f.write(png())
                answer = {"ok": True, "result": None}
            elif verb == "ui":
                answer = {"ok": True, "result": {"identifier": "root", "children": []}}
            else:
                answer = {"ok": False, "error": "stand-in does not do " + verb}
            connection.sendall((json.dumps(answer) + "\n").encode())

stop = threading.Event()
signal.signal(signal.SIGTERM, lambda *_: stop.set())
threading.Thread(target=serve, args=(os.path.join(runtime_dir(sys.argv), "control.sock"),), daemon=True).start()
time.sleep(0.5)
notify("READY=1\nSTATUS=stand-in terminal ready")
print("stand-in teller run: ready", flush=True)
usec = int(os.environ.get("WATCHDOG_USEC", "0"))
interval = usec / 2e6 if usec else 3600
while not stop.wait(interval):
    notify("WATCHDOG=1")
notify("STOPPING=1")
print("stand-in teller run: stopped", flush=True)
