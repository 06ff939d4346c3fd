#!/usr/bin/env python3
"""Boots the virtual teller device (deploy/vm/teller-vm) in qemu TCG and
serves the guest: screendumps asked for on the second serial port, power
cuts, and the end of a job. Standard library only; run by teller-vm.

Guest -> host lines on the serial channel (ttyS1):
  READY                  teller answers on its control socket
  SCREENDUMP NAME        take a monitor screendump now; the host answers OK
  POWERCUT LINE          kill qemu now, as a power cut (scenario line LINE)
  LINK down|up           cut or restore the guest's network link; the host answers OK
  PROBE ADDR:PORT GOT WANTED  a connection the guest tried (isolation.sh): open or closed
  DONE STATUS            the job is over

Host -> guest requests go the other way, over the control channel: a
virtio-serial port whose host end is a UNIX socket (control_channel()),
served in the guest by `teller ctl-bridge` (guest/ctl-bridge.sh), so
`TELLER_CONTROL_SOCKET=<socket> teller ctl ...` works on the host as it does
against a local terminal. What stays on ttyS1 is what only the guest can
time: the moment a screen is ready for a screendump, the moment to cut the
power, the end of a job.
"""
import argparse
import os
import re
import select
import shutil
import signal
import socket
import subprocess
import sys
import tempfile
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from vmtools import connect, differing_pixels, monitor_command, read_png, read_ppm, report_failures, write_png  # noqa: E402


# The guest's network card and its netdev, as `set_link` names them.
NETDEV = "net0"


def network_arguments(network):
    """qemu's network arguments. Without `network` none at all. With it
    (a dict: host_port, relay, link_monitor): qemu user networking with
    restrict=on, so the guest reaches nothing but the guestfwd address
    10.0.2.100:80, which loopback-relay.py joins to the reference host on
    127.0.0.1:host_port; and a second monitor at link_monitor for
    `teller-vm link down|up`."""
    if not network:
        # No network at all: the guest has its loopback and nothing else.
        return ["-nic", "none"]
    relay = f"cmd:python3 {network['relay']} {network['host_port']}"
    return [
        "-netdev", f"user,id={NETDEV},restrict=on,net=10.0.2.0/24,guestfwd=tcp:10.0.2.100:80-{relay}",
        "-device", f"virtio-net-pci,netdev={NETDEV},id=nic0",
        "-monitor", f"unix:{network['link_monitor']},server=on,wait=off",
    ]


def set_link(monitor, up):
    """Cuts or restores the guest's network link through a monitor; returns
    qemu's complaint, or "" when it took."""
    answer = monitor_command(monitor, f"set_link {NETDEV} {'on' if up else 'off'}")
    # The monitor echoes the command as it is typed, ending in erase-line
    # and a newline; what it says comes after that, before the next prompt.
    said = answer.rsplit("\x1b[K\r\n", 1)[-1]
    return said.replace("(qemu)", "").strip()


def control_channel(path):
    """qemu arguments for the control channel: a virtio-serial port named
    org.teller.control whose host end is a listening UNIX socket at `path`
    (one client at a time; wait=off, so qemu boots without one)."""
    return ["-device", "virtio-serial-pci",
            "-chardev", f"socket,id=tctl,path={path},server=on,wait=off",
            "-device", "virtserialport,chardev=tctl,name=org.teller.control"]


def printer_channel(arch, port):
    """qemu arguments for the receipt printer: a serial line whose host end
    connects to the virtual printer (deploy/printer/printer-capture) on
    127.0.0.1:`port`. amd64: the third UART (ttyS2); arm64: a second virtio
    console on the harness bus (hvc1)."""
    chardev = ["-chardev", f"socket,id=printer,host=127.0.0.1,port={port}"]
    if arch == "arm64":
        return chardev + ["-device", "virtconsole,chardev=printer,bus=harness.0"]
    return chardev + ["-serial", "chardev:printer"]


def ctl(teller, socket_path, *words, timeout=60):
    """Runs the host's `teller ctl WORDS` against the guest over the control
    channel; returns (exit status, stdout, stderr). ctl itself waits for the
    answer up to 5 s less than `timeout` (`--timeout`), not its own 30 s: a
    guest under TCG on a loaded machine once took longer than that to answer
    a tap (the image proof, 2026-12-06)."""
    env = dict(os.environ, TELLER_CONTROL_SOCKET=socket_path)
    try:
        done = subprocess.run([teller, "ctl", "--timeout", str(max(1, timeout - 5)), *words],
                              capture_output=True, text=True, env=env, timeout=timeout)
    except subprocess.TimeoutExpired:
        return 124, "", f"teller ctl {' '.join(words)} did not return within {timeout} s"
    return done.returncode, done.stdout, done.stderr


def amd64_command(kernel, initrd, disk, job, extra_append, network, extra_disks, console, ctl_path, mon_path):
    """qemu for the amd64 guest: the pc machine, ttyS0 the console and ttyS1 the host channel."""
    append = f"console=ttyS0 panic=-1 loglevel=4 teller.job={job} {extra_append}".strip()
    return [
        "qemu-system-x86_64", "-machine", "pc", "-accel", "tcg", "-m", "1024", "-smp", "1",
        # bochs DRM at the 7-inch panel's 800x480, offered as the preferred mode through EDID.
        "-vga", "none", "-device", "VGA,edid=on,xres=800,yres=480",
        "-usb", "-device", "usb-tablet",
        *network_arguments(network), "-no-reboot",
        "-drive", f"file={disk},format=raw,if=virtio,cache=writeback",
        # Further raw disks (vdb, ...): the crash-states recording's log device.
        *[a for extra in extra_disks for a in ("-drive", f"file={extra},format=raw,if=virtio,cache=writeback")],
        "-kernel", kernel, "-initrd", initrd, "-append", append,
        "-serial", f"file:{console}",
        "-chardev", f"socket,id=ctl,path={ctl_path},server=on,wait=off", "-serial", "chardev:ctl",
        "-monitor", f"unix:{mon_path},server=on,wait=off",
    ]


def arm64_command(kernel, initrd, disk, job, extra_append, network, extra_disks, console, ctl_path, mon_path):
    """qemu for the arm64 guest: -M virt (TCG, Cortex-A72), whose one UART
    (ttyAMA0) is the console; the host channel is a virtio console (hvc0,
    which the guest's init links to /dev/ttyS1). virtio-gpu at the 7-inch
    panel's 800x480 (preferred through EDID), the USB tablet on xhci."""
    append = f"console=ttyAMA0 panic=-1 loglevel=4 teller.job={job} {extra_append}".strip()
    return [
        "qemu-system-aarch64", "-machine", "virt", "-accel", "tcg", "-cpu", "cortex-a72", "-m", "1024", "-smp", "2",
        "-device", "virtio-gpu-pci,edid=on,xres=800,yres=480",
        "-device", "qemu-xhci", "-device", "usb-tablet",
        *network_arguments(network), "-no-reboot",
        "-drive", f"file={disk},format=raw,if=virtio,cache=writeback",
        *[a for extra in extra_disks for a in ("-drive", f"file={extra},format=raw,if=virtio,cache=writeback")],
        "-kernel", kernel, "-initrd", initrd, "-append", append,
        "-serial", f"file:{console}",
        "-device", "virtio-serial-pci,id=harness",
        "-chardev", f"socket,id=ctl,path={ctl_path},server=on,wait=off", "-device", "virtconsole,chardev=ctl,bus=harness.0",
        "-monitor", f"unix:{mon_path},server=on,wait=off",
    ]


class Guest:
    """One boot of the virtual device."""

    def __init__(self, kernel, initrd, disk, out, display="none", job="interactive", extra_append="", network=None, control_socket=None,
                 extra_disks=(), arch="amd64", printer_port=None):
        self.out = out
        os.makedirs(out, exist_ok=True)
        self.console = os.path.join(out, "console.log")
        self.sockets = tempfile.mkdtemp(prefix="teller-vm-")
        ctl_path = os.path.join(self.sockets, "ctl.sock")
        mon_path = os.path.join(self.sockets, "monitor.sock")
        if arch == "arm64":
            self.command = arm64_command(kernel, initrd, disk, job, extra_append, network, extra_disks, self.console, ctl_path, mon_path)
        else:
            self.command = amd64_command(kernel, initrd, disk, job, extra_append, network, extra_disks, self.console, ctl_path, mon_path)
        if printer_port:
            self.command += printer_channel(arch, printer_port)
        if control_socket:
            if os.path.exists(control_socket):
                os.unlink(control_socket)
            self.command += control_channel(control_socket)
        if display == "window":
            pass  # qemu's default display: a GTK or SDL window
        elif display.startswith("vnc"):
            self.command += ["-display", "vnc=127.0.0.1:" + display.split(":", 1)[1]]
        else:
            self.command += ["-display", "none"]
        if os.path.exists(self.console):
            os.unlink(self.console)
        self.started = time.time()
        self.proc = subprocess.Popen(self.command, stdin=subprocess.DEVNULL)
        self.monitor = connect(mon_path, time.time() + 30)
        monitor_command(self.monitor, "")
        self.ctl = connect(ctl_path, time.time() + 30)
        self.pending = b""

    def lines(self, deadline):
        """Yields control-serial lines until qemu exits or the deadline passes."""
        while self.proc.poll() is None and time.time() < deadline:
            r, _, _ = select.select([self.ctl], [], [], 0.2)
            if not r:
                continue
            data = self.ctl.recv(4096)
            if not data:
                time.sleep(0.1)
                continue
            self.pending += data
            while b"\n" in self.pending:
                line, self.pending = self.pending.split(b"\n", 1)
                yield line.strip().decode(errors="replace")

    def reply(self, text):
        self.ctl.sendall(text.encode() + b"\n")

    def screendump(self, name):
        """Takes a monitor screendump; returns (png path, w, h, rows)."""
        ppm = os.path.join(self.out, f"{name}.ppm")
        if os.path.exists(ppm):
            os.unlink(ppm)
        monitor_command(self.monitor, f"screendump {ppm}")
        for _ in range(100):
            if os.path.exists(ppm) and os.path.getsize(ppm) > 0:
                break
            time.sleep(0.05)
        w, h, rows = read_ppm(ppm)
        png = os.path.join(self.out, f"{name}.png")
        write_png(png, w, h, rows)
        os.unlink(ppm)
        return png, w, h, rows

    def kill(self):
        """Pulls the plug: SIGKILL, no shutdown, no flush."""
        if self.proc.poll() is None:
            self.proc.kill()
        self.proc.wait()

    def close(self, timeout=20):
        try:
            self.proc.wait(timeout=timeout)
        except subprocess.TimeoutExpired:
            self.kill()
        shutil.rmtree(self.sockets, ignore_errors=True)

    def console_text(self):
        try:
            with open(self.console, errors="replace") as f:
                return f.read()
        except OSError:
            return ""


def compare_with_golden(png, rows, w, h, goldens, name, tolerance):
    """None when there is no golden; otherwise (ok, message)."""
    golden = os.path.join(goldens, f"{name}.png") if goldens else None
    if not golden or not os.path.exists(golden):
        return None
    gw, gh, grows = read_png(golden)
    if (gw, gh) != (w, h):
        return False, f"{name}: screendump is {w}x{h}, golden {golden} is {gw}x{gh}"
    differ = differing_pixels(rows, grows)
    ratio = differ / float(w * h)
    verdict = ratio <= tolerance
    return verdict, f"{name}: {differ} of {w * h} pixels ({ratio:.2%}) differ from {golden} (tolerance {tolerance:.1%})"


def drawn(rows):
    """A frame the terminal drew has many colours; a blank or console screen has few."""
    colours = set()
    for row in rows[::8]:
        colours.update(row[::8])
        if len(colours) > 16:
            return True
    return False


def compare_with_ctl_screenshot(teller, socket_path, out, name, rows, w, h, tolerance):
    """The terminal's own picture of the screen (`teller ctl screenshot`,
    over the control channel) against qemu's screendump of the display
    (taken just before, the guest waiting): (ok, message)."""
    path = os.path.join(out, f"{name}.ctl.png")
    if os.path.exists(path):
        os.unlink(path)
    status, stdout, stderr = ctl(teller, socket_path, "screenshot", path)
    if status != 0 or not os.path.exists(path):
        return False, f"{name}: teller ctl screenshot failed (exit {status}): {(stderr or stdout).strip()[-300:]}"
    cw, ch, crows = read_png(path)
    if (cw, ch) != (w, h):
        return False, f"{name}: screendump is {w}x{h}, teller ctl screenshot {path} is {cw}x{ch}"
    differ = differing_pixels(rows, crows)
    ratio = differ / float(w * h)
    return ratio <= tolerance, f"{name} against teller ctl screenshot {path}: {differ} of {w * h} pixels ({ratio:.2%}) differ (tolerance {tolerance:.1%})"


def check_control_channel(teller, socket_path):
    """The host's own `teller ctl status` and `ui` over the control channel,
    answered by the terminal in the guest. Returns failures."""
    failures = []
    for words, expect in ((["status"], '"screen"'), (["ui"], '"identifier"')):
        status, stdout, stderr = ctl(teller, socket_path, *words)
        name = f"ctl {' '.join(words)} over the control channel"
        if status == 0 and expect in stdout:
            print(f"teller-vm: {name}: ok ({len(stdout)} bytes from the guest)", flush=True)
        else:
            print(f"teller-vm: {name}: FAILED (exit {status}): {(stderr or stdout).strip()[-300:]}", flush=True)
            failures.append(f"{name}: exit {status}: {(stderr or stdout).strip()[-300:]}")
    # A client that hangs up before its answer, with the next already
    # waiting in qemu's queue: qemu hands the port to it at once, before the
    # guest has looked, so the first one's answer can only go to the next.
    # The next, the host's own `teller ctl status`, must take its own answer.
    # (The pauses only set the order: with a slower guest or host the check
    # gets weaker, never wrongly red.)
    name = "ctl status after a client left before its ui answer"
    try:
        impatient = connect(socket_path, time.time() + 10)
        time.sleep(0.3)  # qemu has taken the impatient client
        env = dict(os.environ, TELLER_CONTROL_SOCKET=socket_path)
        waiting = subprocess.Popen([teller, "ctl", "status"], stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, env=env)
        time.sleep(0.3)  # the next has connected and written its request
        impatient.sendall(b"ui\n")
        impatient.close()
        try:
            stdout, stderr = waiting.communicate(timeout=60)
            status = waiting.returncode
        except subprocess.TimeoutExpired:
            waiting.kill()
            stdout, stderr, status = "", "no answer within 60 s", 124
        if status == 0 and '"queued_count"' in stdout:
            print(f"teller-vm: {name}: ok", flush=True)
        else:
            print(f"teller-vm: {name}: FAILED (exit {status}): {(stderr or stdout).strip()[:200]}", flush=True)
            failures.append(f"{name}: exit {status}: {(stderr or stdout).strip()[:200]}")
    except OSError as e:
        failures.append(f"{name}: {e}")
    return failures


def run_job(args):
    network, decoy, append, probes = None, None, "", []
    if args.host_port:
        network = {"host_port": args.host_port, "relay": os.path.join(os.path.dirname(os.path.abspath(__file__)), "loopback-relay.py"),
                   "link_monitor": args.link_monitor}
    if args.probe_isolation:
        # A listener on the host's loopback that the guest must never reach.
        decoy = socket.socket()
        decoy.bind(("127.0.0.1", 0))
        decoy.listen(16)
        decoy.setblocking(False)
        append = f"teller.probe={decoy.getsockname()[1]},{args.host_port}"
    guest = Guest(args.kernel, args.initrd, args.disk, args.out, args.display, args.job, append, network,
                  control_socket=args.control_socket, arch=args.arch, printer_port=args.printer_port)
    print(f"teller-vm: qemu {' '.join(guest.command)}", flush=True)
    deadline = time.time() + args.timeout
    failures, status, ready_at, boots, logs = [], None, None, 1, []
    try:
        while True:
            cut = None
            for line in guest.lines(deadline):
                if line == "READY":
                    ready_at = time.time() - guest.started
                    print(f"teller-vm: terminal ready after {ready_at:.1f} s", flush=True)
                    if args.job == "check" and args.teller:
                        failures += check_control_channel(args.teller, args.control_socket)
                    if args.job == "interactive":
                        png, w, h, rows = guest.screendump("screen")
                        print(f"teller-vm: screendump {png} ({w}x{h}); the terminal keeps running (Ctrl-C stops qemu)", flush=True)
                elif line.startswith("SCREENDUMP "):
                    name = line.split()[1]
                    time.sleep(0.3)  # the page flip after the last input
                    png, w, h, rows = guest.screendump(name)
                    result = compare_with_golden(png, rows, w, h, args.goldens, name, args.tolerance)
                    if not drawn(rows):
                        failures.append(f"screendump {name}: the screen is blank (no DRM frame)")
                    if args.ctl_screenshots:
                        ok, message = compare_with_ctl_screenshot(args.teller, args.control_socket, args.out, name, rows, w, h, args.tolerance)
                        print(f"teller-vm: screendump {message}: {'ok' if ok else 'DIFFERS'}", flush=True)
                        if not ok:
                            failures.append("screendump " + message)
                    if result is None:
                        print(f"teller-vm: screendump {name}: {png} ({w}x{h})", flush=True)
                    else:
                        ok, message = result
                        print(f"teller-vm: screendump {message}: {'ok' if ok else 'DIFFERS'}", flush=True)
                        if not ok:
                            failures.append("screendump " + message)
                    guest.reply("OK")
                elif line.startswith("LINK "):
                    up = line.split()[1] == "up"
                    complaint = set_link(guest.monitor, up)
                    print(f"teller-vm: link {'up' if up else 'down'}{': ' + complaint if complaint else ''}", flush=True)
                    if complaint:
                        failures.append(f"set_link: {complaint}")
                    guest.reply("FAIL " + complaint if complaint else "OK")
                elif line.startswith("PROBE "):
                    _, where, got, wanted = line.split()
                    print(f"teller-vm: isolation: {where} {got} ({'ok' if got == wanted else 'WANTED ' + wanted})", flush=True)
                    probes.append(where)
                    if got != wanted:
                        failures.append(f"isolation: the guest's connection to {where} is {got}, wanted {wanted}")
                elif line.startswith("POWERCUT "):
                    _, path, number = line.split()
                    cut = f"{path}:{int(number) + 1}"
                    break
                elif line.startswith("DONE"):
                    status = int(line.split()[1]) if len(line.split()) > 1 else 0
                    break
                elif line:
                    print(f"  guest: {line}", flush=True)
            if cut is None:
                break
            # The scenario asked for a power cut: pull the plug and boot the same disk again.
            guest.kill()
            guest.close()
            logs.append(guest.console_text())
            boots += 1
            print(f"teller-vm: power cut at {cut.rsplit(':', 1)[0]} line {int(cut.rsplit(':', 1)[1]) - 1}; boot {boots} resumes at line {cut.rsplit(':', 1)[1]}", flush=True)
            guest = Guest(args.kernel, args.initrd, args.disk, args.out, args.display, args.job, f"teller.from={cut} {append}".strip(), network,
                          control_socket=args.control_socket, arch=args.arch, printer_port=args.printer_port)
        if status is None and args.job != "interactive" and guest.proc.poll() is None:
            failures.append(f"the guest did not finish within {args.timeout} s")
    except KeyboardInterrupt:
        pass
    finally:
        if args.job == "interactive" or status is None:
            guest.kill()
        guest.close()
    logs.append(guest.console_text())
    log = "\n".join(logs)
    # console.log is the last boot's; this is every boot's, in order (log_latency's lines, deploy/vm/latency.py).
    with open(os.path.join(args.out, "console-all.log"), "w") as f:
        f.write(log)
    for line in log.splitlines():
        if line.startswith(("scenario", "teller-vm guest")) or "ready:" in line:
            print("  console: " + line.strip(), flush=True)
    if args.job == "interactive":
        return 0
    if args.job == "scenario":
        results = re.findall(r"^scenario: [^ :]+: (PASS|FAIL)", log, re.M)
        print(f"teller-vm: scenarios over {boots} boot{'s' if boots > 1 else ''}: "
              f"{results.count('PASS')} passed, {results.count('FAIL')} failed", flush=True)
    if decoy is not None:
        reached = 0
        while True:
            try:
                decoy.accept()[0].close()
                reached += 1
            except BlockingIOError:
                break
        print(f"teller-vm: isolation: {len(probes)} connections tried; the host-side decoy on 127.0.0.1:{decoy.getsockname()[1]} was reached {reached} times", flush=True)
        if reached:
            failures.append(f"isolation: the guest reached a listener on the host's loopback {reached} times")
        if len(probes) != 5 and not any(f.startswith("isolation: the guest's") for f in failures):
            failures.append(f"isolation: {len(probes)} of 5 probes reported (isolation.sh did not run to its end)")
    if ready_at is None:
        failures.append("the terminal never became ready")
    if status != 0:
        failures.append(f"the guest job ended with status {status}")
    print(f"teller-vm: guest ran {time.time() - guest.started:.1f} s", flush=True)
    if report_failures("teller-vm", failures, guest.console, log, tail=30):
        return 1
    print(f"teller-vm: PASS ({args.job})", flush=True)
    return 0


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--arch", choices=("amd64", "arm64"), default="amd64")
    ap.add_argument("--kernel", required=True)
    ap.add_argument("--initrd", required=True)
    ap.add_argument("--disk", required=True)
    ap.add_argument("--out", required=True)
    ap.add_argument("--display", default="none")
    ap.add_argument("--job", default="interactive")
    ap.add_argument("--goldens")
    ap.add_argument("--tolerance", type=float, default=0.01)
    ap.add_argument("--timeout", type=int, default=600)
    ap.add_argument("--host-port", type=int, help="the reference host's port on 127.0.0.1: the guest gets a network to it")
    ap.add_argument("--link-monitor", help="a second monitor socket, for teller-vm link down|up")
    ap.add_argument("--probe-isolation", action="store_true", help="the guest tries forbidden connections (isolation.sh)")
    ap.add_argument("--control-socket", help="the host end of the control channel (control_channel())")
    ap.add_argument("--teller", help="the host's teller, for `teller ctl` over the control channel (--job check)")
    ap.add_argument("--printer-port", type=int, help="the virtual receipt printer's port on 127.0.0.1 (printer_channel())")
    ap.add_argument("--ctl-screenshots", action="store_true",
                    help="compare every screendump with `teller ctl screenshot` over the control channel (arm64)")
    args = ap.parse_args()
    if args.job == "interactive":
        args.timeout = 10 ** 9
    # teller-vm runs this job in the background and passes SIGTERM on (for
    # its own SIGINT, SIGTERM and SIGHUP): stop the guest as Ctrl-C does.
    signal.signal(signal.SIGTERM, stop_on_signal)
    signal.signal(signal.SIGHUP, stop_on_signal)
    return run_job(args)


def stop_on_signal(signum, frame):
    raise KeyboardInterrupt


if __name__ == "__main__":
    sys.exit(main())
