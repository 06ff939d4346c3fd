#!/usr/bin/env python3
"""Boots the device-proof initramfs in qemu (TCG; amd64: -vga std, the bochs
DRM driver; arm64: -M virt with virtio-gpu-pci), serves the
guest's screendump requests through the qemu monitor, checks the PASS/FAIL
lines of device-smoke and compares every screendump with the expected
pattern. Exit status 0 only when everything passed.

Standard library only. Run by deploy/vm/device-proof; not meant to be run alone.
"""
import argparse
import os
import select
import shutil
import subprocess
import sys
import tempfile
import time

from vmtools import connect, monitor_command, read_ppm, report_failures, write_png

REQUIRED = [
    "modeset", "pageflip-nonblocking", "pageflip-event", "pattern-readback", "screendump-rot0",
    "buffer-age", "restore-crtc", "configured-mode", "master-busy", "mode-missing", "rotation-output", "screendump-rot90", "input-monitor", "hotplug-add",
    "tap-rot0", "tap-rot90", "tap-rot180", "tap-rot270", "multitouch", "grab", "syn-dropped",
    "evemu-replay", "replay-two-finger", "replay-two-taps", "replay-single-touch", "replay-qemu-usb-tablet",
    "replay-keyboard", "replay-scanner", "replay-unbranded-scanner", "keyboard", "scanner-by-speed", "scanner", "unplug", "fbdev", "screendump-fbdev",
    "loop-input", "vblank-paced", "presented-after-flip", "main-actor-task", "sigterm",
]

# Same picture as Sources/device-smoke/Pattern.swift, drawn independently here.
BACKGROUND = 0x202838
BARS = [0xFFFFFF, 0xFFFF00, 0x00FFFF, 0x00FF00, 0xFF00FF, 0xFF0000, 0x0000FF, 0x000000]
CORNER = 80


def expected_logical(w, h):
    img = [[BACKGROUND] * w for _ in range(h)]

    def fill(x, y, rw, rh, c):
        for yy in range(max(0, y), min(h, y + rh)):
            row = img[yy]
            for xx in range(max(0, x), min(w, x + rw)):
                row[xx] = c

    for i, c in enumerate(BARS):
        x0, x1 = i * w // 8, (i + 1) * w // 8
        fill(x0, h // 3, x1 - x0, 2 * h // 3 - h // 3, c)
    fill(0, 0, CORNER, CORNER, 0xFF0000)
    fill(w - CORNER, 0, CORNER, CORNER, 0x00FF00)
    fill(0, h - CORNER, CORNER, CORNER, 0x0000FF)
    fill(w - CORNER, h - CORNER, CORNER, CORNER, 0xFFFFFF)
    return img


def expected_physical(pw, ph, rotation):
    """The panel image for the pattern drawn at `rotation` (clockwise), physical size pw x ph."""
    if rotation in (90, 270):
        lw, lh = ph, pw
    else:
        lw, lh = pw, ph
    logical = expected_logical(lw, lh)
    out = [[0] * pw for _ in range(ph)]
    for ly in range(lh):
        for lx in range(lw):
            if rotation == 0:
                px, py = lx, ly
            elif rotation == 90:
                px, py = pw - 1 - ly, lx
            elif rotation == 180:
                px, py = pw - 1 - lx, ph - 1 - ly
            else:
                px, py = ly, ph - 1 - lx
            out[py][px] = logical[ly][lx]
    return out


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--kernel", required=True)
    ap.add_argument("--initrd", required=True)
    ap.add_argument("--out", required=True)
    ap.add_argument("--timeout", type=int, default=300)
    ap.add_argument("--arch", choices=("amd64", "arm64"), default="amd64")
    args = ap.parse_args()
    os.makedirs(args.out, exist_ok=True)
    console = os.path.join(args.out, "console.log")
    if os.path.exists(console):
        os.unlink(console)
    # Unix socket paths are limited to 108 bytes; a deep checkout must not break the proof.
    sockets = tempfile.mkdtemp(prefix="device-proof-")
    ctl_path = os.path.join(sockets, "ctl.sock")
    mon_path = os.path.join(sockets, "monitor.sock")

    if args.arch == "arm64":
        # -M virt has one UART (ttyAMA0, the console); the harness channel is
        # a virtio console (hvc0 in the guest). virtio-gpu at qemu's default
        # 1024x768, the mode configured-mode asks for.
        qemu = [
            "qemu-system-aarch64", "-machine", "virt", "-accel", "tcg", "-cpu", "cortex-a72", "-m", "512", "-smp", "2",
            "-device", "virtio-gpu-pci", "-display", "none", "-no-reboot", "-nic", "none",
            "-kernel", args.kernel, "-initrd", args.initrd,
            "-append", "console=ttyAMA0 panic=-1 loglevel=4",
            "-serial", f"file:{console}",
            "-device", "virtio-serial-pci,id=harness",
            "-chardev", f"socket,id=ctl,path={ctl_path},server=on,wait=off", "-device", "virtconsole,chardev=ctl,bus=harness.0",
            "-monitor", f"unix:{mon_path},server=on,wait=off",
        ]
    else:
        qemu = [
            "qemu-system-x86_64", "-machine", "pc", "-accel", "tcg", "-m", "512", "-smp", "1",
            "-vga", "std", "-display", "none", "-no-reboot", "-net", "none",
            "-kernel", args.kernel, "-initrd", args.initrd,
            "-append", "console=ttyS0 panic=-1 loglevel=4",
            "-serial", f"file:{console}",
            "-chardev", f"socket,id=ctl,path={ctl_path},server=on,wait=off", "-serial", "chardev:ctl",
            "-monitor", f"unix:{mon_path},server=on,wait=off",
        ]
    print("device-proof: " + " ".join(qemu), flush=True)
    started = time.time()
    deadline = started + args.timeout
    proc = subprocess.Popen(qemu, stdin=subprocess.DEVNULL)
    dumps = []
    try:
        monitor = connect(mon_path, time.time() + 30)
        monitor_command(monitor, "")
        ctl = connect(ctl_path, time.time() + 30)
        pending = b""
        while proc.poll() is None:
            if time.time() > deadline:
                print(f"device-proof: FAIL: guest still running after {args.timeout} s", flush=True)
                proc.kill()
                break
            r, _, _ = select.select([ctl], [], [], 0.5)
            if not r:
                continue
            data = ctl.recv(4096)
            if not data:
                time.sleep(0.2)
                continue
            pending += data
            while b"\n" in pending:
                line, pending = pending.split(b"\n", 1)
                line = line.strip().decode(errors="replace")
                if line.startswith("SCREENDUMP "):
                    label = line.split()[1]
                    path = os.path.join(args.out, f"screendump-{label}.ppm")
                    if os.path.exists(path):
                        os.unlink(path)
                    time.sleep(0.3)  # let fbdev's deferred flush reach the scanout buffer
                    monitor_command(monitor, f"screendump {path}")
                    for _ in range(100):
                        if os.path.exists(path) and os.path.getsize(path) > 0:
                            break
                        time.sleep(0.05)
                    dumps.append((label, path))
                    ctl.sendall(b"OK\n")
        proc.wait(timeout=10)
    finally:
        if proc.poll() is None:
            proc.kill()
        shutil.rmtree(sockets, ignore_errors=True)
    elapsed = time.time() - started
    print(f"device-proof: guest ran {elapsed:.1f} s", flush=True)

    failures = []
    with open(console, errors="replace") as f:
        log = f.read()
    passed = set()
    for line in log.splitlines():
        line = line.strip()
        if line.startswith("PASS "):
            passed.add(line[5:].split(":")[0])
        if line.startswith("FAIL"):
            failures.append(line)
        if line.startswith(("PASS", "FAIL", "SMOKE", "device-smoke")):
            print("  guest: " + line, flush=True)
    for name in REQUIRED:
        if name not in passed:
            failures.append(f"missing PASS {name}")
    if "SMOKE RESULT: PASS" not in log:
        failures.append("no 'SMOKE RESULT: PASS' on the console")

    rotations = {"rot0": 0, "rot90": 90, "fbdev": 0}
    tolerance = {"rot0": 0.0, "rot90": 0.0, "fbdev": 0.01}  # fbcon's cursor may blink on fbdev
    seen = {label for label, _ in dumps}
    for label in rotations:
        if label not in seen:
            failures.append(f"no screendump {label}")
    for label, path in dumps:
        try:
            w, h, rows = read_ppm(path)
        except (OSError, ValueError, IndexError) as e:
            failures.append(f"screendump {label}: {e}")
            continue
        png = path[:-4] + ".png"
        write_png(png, w, h, rows)
        want = expected_physical(w, h, rotations.get(label, 0))
        differ = sum(1 for y in range(h) for x in range(w) if rows[y][x] != want[y][x])
        ratio = differ / float(w * h)
        verdict = "matches" if ratio <= tolerance.get(label, 0.0) else "DIFFERS from"
        print(f"device-proof: screendump {label} {w}x{h} ({png}) {verdict} the expected pattern: {differ} of {w * h} pixels differ", flush=True)
        if ratio > tolerance.get(label, 0.0):
            failures.append(f"screendump {label}: {differ} pixels differ")

    if report_failures("device-proof", failures, console, log, tail=40):
        return 1
    print(f"device-proof: PASS ({len(passed)} checks, {len(dumps)} screendumps compared)", flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
