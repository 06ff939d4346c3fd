#!/usr/bin/env python3
"""deploy/image/proof: the image proofs in the virtual device (qemu, TCG,
OVMF). Writes the image deploy/image/build made to a virtual disk of its
own, puts the technician's provisioning file on its boot partition, and
drives the terminal as a branch and a technician would: `teller ctl` over
the QA control channel (virtio-serial), SSH with the provisioned key on a
management link, the bank link cut and restored with qemu's set_link, keys
from a virtual USB keyboard, screendumps, and qemu killed for power cuts.

Prints TAP ("ok - ..." / "not ok - ...") and "N passed, N failed" last;
exits 1 when anything failed. Standard library only (plus vmtools.py).

Usage: proof.py --image-dir DIR --teller HOST_TELLER --out DIR [--phases LIST]
"""
import argparse
import json
import os
import re
import shutil
import signal
import socket
import subprocess
import sys
import time

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "vm"))
import vmtools  # noqa: E402
from teller_vm import control_channel, ctl  # noqa: E402

HERE = os.path.dirname(os.path.abspath(__file__))
REPO = os.path.abspath(os.path.join(HERE, "..", ".."))
ESP_OFFSET = "@@1M"
SECRET = "demo-secret-T-0001"
ACCOUNT = "DE54500105170426397158"
# UEFI firmware (code, variables template): OVMF on amd64, AAVMF on arm64.
FIRMWARE = {"amd64": ("/usr/share/OVMF/OVMF_CODE.fd", "/usr/share/OVMF/OVMF_VARS.fd"),
            "arm64": ("/usr/share/AAVMF/AAVMF_CODE.fd", "/usr/share/AAVMF/AAVMF_VARS.fd")}


def log(msg):
    print(f"# {msg}", flush=True)


class Failed(Exception):
    pass


def run(cmd, **kw):
    return subprocess.run(cmd, check=True, capture_output=True, text=True, **kw)


def free_port():
    s = socket.socket()
    s.bind(("127.0.0.1", 0))
    port = s.getsockname()[1]
    s.close()
    return port


# --- the boot partition, from outside (mtools on the disk image) ----------
def esp_put(disk, name, text):
    path = disk + ".esp-file"
    with open(path, "w") as f:
        f.write(text)
    run(["mcopy", "-o", "-i", disk + ESP_OFFSET, path, "::" + name])
    os.unlink(path)


def esp_get(disk, name):
    done = subprocess.run(["mtype", "-i", disk + ESP_OFFSET, "::" + name], capture_output=True)
    return done.stdout.decode(errors="replace") if done.returncode == 0 else None


def grubenv_read(disk):
    text = esp_get(disk, "EFI/teller/grubenv") or ""
    env = {}
    for line in text.splitlines():
        if line and not line.startswith("#") and "=" in line:
            k, v = line.split("=", 1)
            env[k] = v
    return env


def grubenv_write(disk, env):
    body = "# GRUB Environment Block\n" + "".join(f"{k}={v}\n" for k, v in env.items())
    body += "#" * (1024 - len(body))
    esp_put(disk, "EFI/teller/grubenv", body)


# --- the virtual device --------------------------------------------------
class Terminal:
    """One disk, booted as many times as the proof needs."""

    def __init__(self, out, disk, host_port, teller, arch="amd64"):
        self.out, self.disk, self.host_port, self.teller, self.arch = out, disk, host_port, teller, arch
        self.vars = os.path.join(out, "efivars.fd")
        shutil.copy(FIRMWARE[arch][1], self.vars)
        self.ctl_path = os.path.join(out, "ctl.sock")
        self.mon_path = os.path.join(out, "monitor.sock")
        self.ssh_port = free_port()
        self.proc = None
        self.boots = 0
        self.serial = None

    def start(self):
        self.boots += 1
        self.serial = os.path.join(self.out, f"serial-{self.boots}.log")
        for p in (self.ctl_path, self.mon_path):
            if os.path.exists(p):
                os.unlink(p)
        relay = f"cmd:python3 {os.path.join(REPO, 'deploy/vm/loopback-relay.py')} {self.host_port}"
        if self.arch == "arm64":
            # -M virt with AAVMF (UEFI) and virtio-gpu; the 64 MiB flash images Debian ships.
            machine = ["qemu-system-aarch64", "-accel", "tcg", "-machine", "virt", "-cpu", "max", "-m", "1536", "-smp", "2",
                       "-drive", f"if=pflash,format=raw,readonly=on,file={FIRMWARE['arm64'][0]}",
                       "-drive", f"if=pflash,format=raw,file={self.vars}",
                       "-device", "virtio-gpu-pci,xres=1280,yres=800"]
        else:
            machine = ["qemu-system-x86_64", "-accel", "tcg", "-machine", "q35", "-m", "1536", "-smp", "2",
                       "-drive", f"if=pflash,format=raw,readonly=on,file={FIRMWARE['amd64'][0]}",
                       "-drive", f"if=pflash,format=raw,file={self.vars}", "-vga", "std"]
        cmd = [*machine,
               "-drive", f"file={self.disk},format=raw,if=virtio,cache=unsafe",
               "-display", "none", "-no-reboot",
               "-serial", f"file:{self.serial}",
               "-monitor", f"unix:{self.mon_path},server=on,wait=off",
               # The bank link: it reaches the reference host and nothing else.
               "-netdev", f"user,id=net0,restrict=on,net=10.0.2.0/24,guestfwd=tcp:10.0.2.100:80-{relay}",
               "-device", "virtio-net-pci,netdev=net0,id=nic0",
               # The technician's link: SSH from this machine's loopback only.
               "-netdev", f"user,id=net1,restrict=on,net=10.0.3.0/24,hostfwd=tcp:127.0.0.1:{self.ssh_port}-:22",
               "-device", "virtio-net-pci,netdev=net1,id=nic1",
               "-device", "qemu-xhci", "-device", "usb-kbd",
               *control_channel(self.ctl_path)]
        self.proc = subprocess.Popen(cmd, stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL, stderr=open(os.path.join(self.out, "qemu.err"), "a"))
        self.mon = vmtools.connect(self.mon_path, time.time() + 30)
        vmtools.monitor_command(self.mon, "")
        self.started = time.time()

    def monitor(self, command):
        return vmtools.monitor_command(self.mon, command)

    def kill(self):
        """A power cut: qemu gone at once, nothing flushed by the guest."""
        if self.proc and self.proc.poll() is None:
            self.proc.send_signal(signal.SIGKILL)
            self.proc.wait()
        self.proc = None

    def stop(self, timeout=120):
        if self.proc is None:
            return
        try:
            self.proc.wait(timeout)
        except subprocess.TimeoutExpired:
            self.kill()
        self.proc = None

    def console(self):
        with open(self.serial, errors="replace") as f:
            return f.read()

    def ctl(self, *words, timeout=120):
        # 120 s: in a clean-clone run beside the other lanes, a tap while
        # rolling-update.yml rolled out slot B went unanswered for ctl's 30 s.
        return ctl(self.teller, self.ctl_path, *words, timeout=timeout)

    def wait_ready(self, timeout=600):
        """Until `teller ctl status` answers: the terminal is up and READY."""
        deadline = time.time() + timeout
        while time.time() < deadline:
            if self.proc.poll() is not None:
                raise Failed(f"qemu stopped (exit {self.proc.returncode}) before the terminal was READY")
            rc, out, _ = self.ctl("status", timeout=10)
            if rc == 0:
                return json.loads(out)
            time.sleep(3)
        raise Failed(f"the terminal was not READY within {timeout} s of boot {self.boots}")

    def ssh(self, command, timeout=600, check=True):
        done = subprocess.run(["ssh", "-i", self.key, "-p", str(self.ssh_port), "-o", "StrictHostKeyChecking=no",
                               "-o", "UserKnownHostsFile=/dev/null", "-o", "LogLevel=ERROR", "-o", "ConnectTimeout=10",
                               "-o", "BatchMode=yes", "root@127.0.0.1", command], capture_output=True, text=True, timeout=timeout)
        if check and done.returncode != 0:
            raise Failed(f"ssh '{command}' exit {done.returncode}: {done.stderr.strip()[-400:]} {done.stdout.strip()[-400:]}")
        return done

    def scp(self, local, remote):
        subprocess.run(["scp", "-q", "-i", self.key, "-P", str(self.ssh_port), "-o", "StrictHostKeyChecking=no",
                        "-o", "UserKnownHostsFile=/dev/null", "-o", "LogLevel=ERROR", local, f"root@127.0.0.1:{remote}"],
                       check=True, timeout=600)

    def wait_ssh(self, timeout=300):
        deadline = time.time() + timeout
        while time.time() < deadline:
            try:
                if self.ssh("true", timeout=30, check=False).returncode == 0:
                    return
            except subprocess.TimeoutExpired:
                pass
            time.sleep(3)
        raise Failed("SSH with the provisioned key did not answer")

    def screendump(self, name):
        ppm = os.path.join(self.out, name + ".ppm")
        self.monitor(f"screendump {ppm}")
        for _ in range(50):
            if os.path.exists(ppm) and os.path.getsize(ppm) > 0:
                break
            time.sleep(0.1)
        time.sleep(0.3)
        w, h, rows = vmtools.read_ppm(ppm)
        vmtools.write_png(os.path.join(self.out, name + ".png"), w, h, rows)
        os.unlink(ppm)
        return w, h, rows


# --- the fleet: the teller.fleet collection over SSH ---------------------
PIN = "86420"


def playbook(args, term, name, playbook_file, extra=None, timeout=2400):
    """Runs deploy/ansible's PLAYBOOK_FILE against TERM over SSH with the real
    ansible-core, restarting qemu whenever the guest reboots (-no-reboot), as
    a board's firmware would. Returns (exit status, log, PLAY RECAP changed)."""
    work = os.path.join(term.out, f"ansible-{name}")
    os.makedirs(work, exist_ok=True)
    host = {"ansible_host": "127.0.0.1", "ansible_port": term.ssh_port, "ansible_user": "root",
            "ansible_ssh_private_key_file": term.key,
            "ansible_ssh_common_args": "-o StrictHostKeyChecking=no -o UserKnownHostsFile=/dev/null -o ConnectTimeout=20",
            **(extra or {})}
    with open(os.path.join(work, "inventory.json"), "w") as f:
        json.dump({"all": {"children": {"terminals": {"hosts": {"image-terminal": host}}}}}, f)
    # The secrets in a file of their own (what a vault holds), never on a command line.
    fd = os.open(os.path.join(work, "secrets.json"), os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o600)
    with os.fdopen(fd, "w") as f:
        json.dump({"teller_terminal_secret": SECRET, "teller_technician_pin": PIN}, f)
    env = dict(os.environ, PATH=args.ansible + ":" + os.environ["PATH"], ANSIBLE_NOCOLOR="1", ANSIBLE_FORCE_COLOR="0")
    logf = os.path.join(work, "ansible.log")
    with open(logf, "w") as out:
        proc = subprocess.Popen(["ansible-playbook", "-i", os.path.join(work, "inventory.json"), "-e", "@" + os.path.join(work, "secrets.json"),
                                 playbook_file], cwd=os.path.join(REPO, "deploy/ansible"), env=env,
                                stdin=subprocess.DEVNULL, stdout=out, stderr=subprocess.STDOUT)
        deadline = time.time() + timeout
        while proc.poll() is None:
            if time.time() > deadline:
                proc.kill()
                proc.wait()
                raise Failed(f"ansible-playbook {playbook_file} did not finish within {timeout} s ({logf})")
            if term.proc is not None and term.proc.poll() is not None:
                term.proc = None
                term.start()
            time.sleep(1)
    text = open(logf).read()
    changed = re.findall(r"^image-terminal\s*:.*\bchanged=([0-9]+)", text, re.M)
    return proc.returncode, text, int(changed[-1]) if changed else None


# --- the counter ----------------------------------------------------------
def wait_for(term, ident, timeout=60):
    deadline = time.time() + timeout
    while time.time() < deadline:
        rc, out, _ = term.ctl("ui", timeout=20)
        if rc == 0 and f'"{ident}"' in out:
            return out
        time.sleep(1)
    raise Failed(f"{ident} did not appear on the screen within {timeout} s")


def tap(term, ident):
    rc, out, err = term.ctl("tap", ident)
    if rc != 0:
        raise Failed(f"teller ctl tap {ident}: {err.strip() or out.strip()}")
    term.ctl("settle")


def sign_in(term):
    """Operator 1001, PIN 1234 (the reference host's demo data)."""
    wait_for(term, "sign-in.pin", 120)
    for d in "1001":
        tap(term, f"sign-in.pin.{d}")
    tap(term, "sign-in.pin.enter")
    for d in "1234":
        tap(term, f"sign-in.pin.{d}")
    tap(term, "sign-in.pin.enter")
    wait_for(term, "home.find-account", 60)


def deposit(term, keys, expect):
    """A deposit of KEYS on the keypad (cents included) to the demo account;
    returns the receipt's text and fails unless it says EXPECT."""
    tap(term, "home.find-account")
    rc, _, err = term.ctl("type", ACCOUNT + "\n")
    if rc != 0:
        raise Failed(f"teller ctl type: {err}")
    wait_for(term, "account.deposit", 30)
    tap(term, "account.deposit")
    wait_for(term, "amount.keys.1", 30)
    for k in keys:
        tap(term, f"amount.keys.{k}")
    tap(term, "amount.review")
    wait_for(term, "review.confirm", 30)
    tap(term, "review.confirm")
    ui = wait_for(term, "receipt.done", 60)
    if expect not in ui:
        raise Failed(f"the receipt does not say {expect}: {ui[-600:]}")
    tap(term, "receipt.done")
    wait_for(term, "home.find-account", 30)
    return ui


def outbox(term):
    """The terminal's own count of rows (teller status, as the service user)."""
    out = term.ssh("setpriv --reuid=teller --regid=teller --init-groups teller status").stdout
    status = json.loads(out)
    counts = status.get("counts") or {}
    return status, sum(v for v in counts.values() if isinstance(v, int))


def rauc_state(term):
    out = term.ssh("rauc status --output-format=json").stdout
    return json.loads(out)


def booted_slot(term):
    out = term.ssh("cat /proc/cmdline").stdout
    for word in out.split():
        if word.startswith("rauc.slot="):
            return word.split("=", 1)[1]
    return None


# --- the proof -------------------------------------------------------------
class Proof:
    def __init__(self, args):
        self.args = args
        self.passed = self.failed = 0
        self.figures = {}

    def check(self, name, fn):
        started = time.time()
        try:
            fn()
        except (Failed, subprocess.CalledProcessError, subprocess.TimeoutExpired, OSError, ValueError, KeyError) as e:
            self.failed += 1
            print(f"not ok - {name} ({time.time() - started:.0f} s)")
            for line in str(e).splitlines()[-20:]:
                print(f"    # {line}")
            return False
        self.passed += 1
        print(f"ok - {name} ({time.time() - started:.0f} s)", flush=True)
        return True


def provisioning_file(pubkey):
    return f"""# The image proof's terminal (deploy/image/proof.py).
terminal_id = T-0001
branch = Image proof
host_url = http://10.0.2.100
allow_insecure_http = true
terminal_secret = {SECRET}
rotation = 0
ssh_authorized_key = {pubkey}
qa_control_channel = on
serial_console = on
health_gate_seconds = 60
health_gate = online-or-drained
"""


def ssh_only_file(pubkey):
    return f"""# Only SSH and the image's own settings: the teller.fleet collection provisions the rest.
ssh_authorized_key = {pubkey}
qa_control_channel = on
serial_console = on
"""


def bundle_named(out, bundles, name, version, arch):
    """BUNDLES/NAME as the role wants it named: teller-ARCH-VERSION.raucb (deploy/image/bundle's name)."""
    path = os.path.join(out, f"teller-{arch}-{version}.raucb")
    if not os.path.exists(path):
        try:
            os.link(os.path.join(bundles, name), path)
        except OSError:
            shutil.copy(os.path.join(bundles, name), path)
    return path


def run_all(args, p):
    out = args.out
    os.makedirs(out, exist_ok=True)
    disk = os.path.join(out, "disk.img")
    image = os.path.join(args.image_dir, f"teller-{args.arch}.img")
    bundles = args.bundles
    host = subprocess.Popen([os.path.join(REPO, "deploy/reference-host/teller-host"), "--port", "0", "--data", os.path.join(out, "host.db"),
                             "--seed", "demo"], stdout=open(os.path.join(out, "host.out"), "w"), stderr=open(os.path.join(out, "host.log"), "w"))
    port = None
    for _ in range(100):
        text = open(os.path.join(out, "host.out")).read()
        if "listening on" in text:
            port = int(text.split("http://", 1)[1].split()[0].rsplit(":", 1)[1].rstrip("/"))
            break
        time.sleep(0.1)
    if port is None:
        raise Failed("the reference host did not start")
    term = Terminal(out, disk, port, args.teller, args.arch)
    term.key = os.path.join(out, "technician")
    if not os.path.exists(term.key):
        run(["ssh-keygen", "-q", "-t", "ed25519", "-N", "", "-f", term.key])
    pub = open(term.key + ".pub").read().strip()
    state = {}

    def write_card():
        # What a technician does: bmaptool copy to the card, the provisioning file on its boot partition.
        if os.path.exists(disk):
            os.unlink(disk)
        run(["bmaptool", "-q", "copy", image, disk])
        esp_put(disk, "teller-provision.conf", provisioning_file(pub))
        # The proof reads the first boot's console too (the file turns it on only from the next boot).
        env = grubenv_read(disk)
        env["TELLER_SERIAL"] = "1"
        grubenv_write(disk, env)
    p.check("bmaptool writes the image to a virtual disk; the provisioning file goes on its boot partition", write_card)

    def bad_file():
        # A technician's mistakes: every one named on the screen, nothing applied, teller not started.
        bad_out = os.path.join(out, "bad-provisioning")
        os.makedirs(bad_out, exist_ok=True)
        bad_disk = os.path.join(bad_out, "disk.img")
        run(["bmaptool", "-q", "copy", image, bad_disk])
        text = provisioning_file(pub).replace("rotation = 0", "rotation = 45").replace("health_gate_seconds = 60", "health_gate_seconds = soon")
        text += "wifi_ssid = Branch\nthis line has no equals sign\n"
        esp_put(bad_disk, "teller-provision.conf", text)
        env = grubenv_read(bad_disk)
        env["TELLER_SERIAL"] = "1"
        grubenv_write(bad_disk, env)
        bad = Terminal(bad_out, bad_disk, port, args.teller, args.arch)
        bad.start()
        deadline = time.time() + 300
        while time.time() < deadline and "Fix teller-provision.conf" not in bad.console():
            time.sleep(2)
        # Long enough for teller to have started, had it been let.
        time.sleep(15)
        rc, _, _ = bad.ctl("status", timeout=10)
        bad.screendump("bad-provisioning-screen")
        bad.kill()
        if rc == 0:
            raise Failed("the terminal started with a provisioning file that has errors")
        left = esp_get(bad_disk, "teller-provision.conf")
        if left is None or "rotation = 45" not in left:
            raise Failed("the bad provisioning file did not stay on the boot partition as it was")
        if esp_get(bad_disk, "teller-provision.applied") is not None:
            raise Failed("a bad provisioning file was applied")
        console = bad.console()
        for want in ("health_gate_seconds", "wifi_ssid", "not 'key = value'"):
            if want not in console:
                raise Failed(f"the problems shown do not name {want} (bad-provisioning/serial-1.log)")
        state["bad"] = bad
    full = args.arch == "amd64"
    if full:
        p.check("a provisioning file with mistakes: each named on the screen and the console, nothing applied, teller not started", bad_file)

    def over_ssh():
        # The same card with a file that only turns SSH on: the collection provisions the terminal instead.
        bad = state.pop("bad")
        esp_put(bad.disk, "teller-provision.conf", ssh_only_file(pub))
        bad.key = term.key
        bad.start()
        bad.wait_ssh()
        deadline = time.time() + 120
        while time.time() < deadline and "provisioned over SSH" not in bad.console():
            time.sleep(2)
        if "provisioned over SSH" not in bad.console():
            raise Failed("the screen does not say the terminal waits to be provisioned over SSH (bad-provisioning/serial-2.log)")
        if bad.ctl("status", timeout=10)[0] == 0:
            raise Failed("teller started on a terminal that is not provisioned")
        bad.screendump("waiting-for-ssh")
        inventory = {"teller_terminal_id": "T-0001", "teller_host_url": "http://10.0.2.100", "teller_branch": "Provisioned over SSH",
                     "teller_settings": {"allow_insecure_http": True, "rotation": 0}}
        rc, text, changed = playbook(args, bad, "provision", "site.yml", inventory)
        if rc != 0 or not changed:
            raise Failed(f"site.yml exit {rc}, changed={changed}: " + " | ".join(text.strip().splitlines()[-8:]))
        log(f"site.yml: changed={changed}")
        running = bad.wait_ready(300)
        got = bad.ssh("teller config --config /etc/teller/teller.conf get branch").stdout.strip()
        if got != "Provisioned over SSH":
            raise Failed(f"the branch is '{got}' after site.yml")
        if SECRET in bad.ssh("cat /etc/teller/teller.conf; ls -la /root /root/.ansible 2>/dev/null; find /root /var/tmp /tmp -type f -exec cat {} + 2>/dev/null").stdout:
            raise Failed("the secret is in the clear on the terminal after site.yml")
        deadline = time.time() + 120
        while not running.get("online") and time.time() < deadline:
            time.sleep(3)
            running = json.loads(bad.ctl("status")[1] or "{}")
        if not running.get("online"):
            raise Failed(f"the terminal provisioned over SSH does not reach the bank with its sealed secret: {running}")
        lock = bad.ssh("teller console-lock --check --tty /dev/tty1", check=False)
        if lock.returncode != 0:
            raise Failed(f"the console is not locked after provisioning over SSH: {lock.stdout.strip()} {lock.stderr.strip()}")
        bad.screendump("provisioned-over-ssh")
        pid = bad.ssh("systemctl show -p MainPID --value teller").stdout.strip()
        rc, text, changed = playbook(args, bad, "provision-again", "site.yml", inventory)
        if rc != 0 or changed != 0:
            raise Failed(f"the second site.yml: exit {rc}, changed={changed}: " + " | ".join(text.strip().splitlines()[-8:]))
        if bad.ssh("systemctl show -p MainPID --value teller").stdout.strip() != pid:
            raise Failed("the second site.yml restarted teller")
        bad.kill()
        os.unlink(bad.disk)
    if full:
        p.check("a file that only turns SSH on: the screen says so, site.yml (teller.fleet) provisions the terminal over SSH, it reaches the bank with the sealed secret, console locked; the second run changes nothing", over_ssh)

    def first_boot():
        t0 = time.time()
        term.start()
        term.wait_ready(900)
        p.figures["first_boot_to_ready_s"] = round(time.time() - t0)
        log(f"first boot to READY: {p.figures['first_boot_to_ready_s']} s (TCG)")
        term.wait_ssh()
        got = term.ssh("teller config --config /etc/teller/teller.conf get terminal_id").stdout.strip()
        if got != "T-0001":
            raise Failed(f"the provisioned terminal_id is '{got}', not T-0001")
        left = term.ssh("ls /boot/efi").stdout.split()
        if "teller-provision.conf" in left:
            raise Failed("the provisioning file is still on the boot partition")
        applied = term.ssh("cat /boot/efi/teller-provision.applied").stdout
        if SECRET in applied or "terminal_secret" in applied:
            raise Failed("teller-provision.applied still has the secret")
        raw = term.ssh(f"grep -c {SECRET} /dev/disk/by-partlabel/boot || true").stdout.strip()
        if raw not in ("0", ""):
            raise Failed(f"the secret is still in the boot partition's blocks ({raw} matches)")
        cred = term.ssh("stat -c '%a %U' /etc/teller/terminal-secret.cred").stdout.strip()
        if cred != "600 root":
            raise Failed(f"terminal-secret.cred is {cred}, not 600 root")
        if SECRET in term.ssh("cat /etc/teller/terminal-secret.cred | base64 -d 2>/dev/null | strings; cat /etc/teller/teller.conf").stdout:
            raise Failed("the secret is stored in the clear")
        mounts = term.ssh("findmnt -n -o OPTIONS /; findmnt -n -o FSTYPE /").stdout
        if "ro" not in mounts.split("\n")[0].split(",") or "squashfs" not in mounts:
            raise Failed(f"the root is not read-only squashfs: {mounts}")
        # Sealed secrets stay readable across boots only with the same machine id and host key.
        mid = term.ssh("cat /etc/machine-id").stdout.strip()
        env = term.ssh("grub-editenv /boot/efi/EFI/teller/grubenv list").stdout
        if f"TELLER_MACHINE_ID={mid}" not in env:
            raise Failed(f"the machine id {mid} is not kept for the next boot: {env}")
        term.ssh("test -s /var/lib/systemd/credential.secret")
        state["machine_id"] = mid
        term.screendump("first-boot-ready")
    p.check("first boot: provisioned from the file (checked, secret sealed with systemd-creds and wiped from the boot partition), READY, root read-only squashfs", first_boot)

    def confirmed():
        sign_in(term)
        deposit(term, "1100", "Confirmed")
        term.screendump("deposit-confirmed")
    p.check("a deposit is Confirmed by the bank", confirmed)

    def lockdown():
        before = term.screendump("lockdown-before")
        pid = term.ssh("systemctl show -p MainPID --value teller").stdout.strip()
        boot_id = term.ssh("cat /proc/sys/kernel/random/boot_id").stdout.strip()
        keys = [f"ctrl-alt-f{n}" for n in range(1, 13)] + ["alt-sysrq-b", "alt-sysrq-e", "alt-sysrq-i", "ctrl-alt-delete"]
        for k in keys:
            term.monitor(f"sendkey {k}")
            time.sleep(0.4)
        for ch in "root":
            term.monitor(f"sendkey {ch}")
        term.monitor("sendkey ret")
        time.sleep(3)
        after = term.screendump("lockdown-after")
        if term.ssh("cat /proc/sys/kernel/random/boot_id").stdout.strip() != boot_id:
            raise Failed("the terminal rebooted")
        if term.ssh("systemctl show -p MainPID --value teller").stdout.strip() != pid:
            raise Failed("teller restarted")
        log(term.ssh("teller console-lock --check --tty /dev/tty1").stdout.strip())
        vt = term.ssh("cat /sys/class/tty/tty0/active").stdout.strip()
        if vt != "tty1":
            raise Failed(f"the active VT is {vt}, not tty1")
        logins = term.ssh("ps -eo comm | grep -cE '^(agetty|login|sulogin)$' || true").stdout.strip()
        if logins != "0":
            raise Failed(f"{logins} getty/login process(es) running")
        changed = vmtools.differing_pixels(before[2], after[2]) if before[:2] == after[:2] else None
        if changed is None or changed > before[0] * before[1] // 50:
            raise Failed(f"the screen changed: {changed} pixels differ (lockdown-before.png, lockdown-after.png)")
    if full:
        p.check("lockdown: Ctrl+Alt+F1..F12, Alt+SysRq+b/e/i, Ctrl+Alt+Del and typed text from a USB keyboard change nothing: same boot, same teller, tty1, no login, the screen Teller's", lockdown)

    def queued_then_update():
        good = bundle_named(out, bundles, "good.raucb", "proof-v2", args.arch)
        p.figures["bundle_mib"] = os.path.getsize(good) // 1048576
        term.monitor("set_link nic0 off")
        time.sleep(5)
        deposit(term, "2200", "Queued")
        state["rows"] = outbox(term)[1]
        log(f"rows before the update: {state['rows']}")
        # The fleet's way: rolling-update.yml copies the bundle, rauc installs it, the terminal reboots into B,
        # and the play waits for the image's health gate.
        started = time.time()
        rc, text, changed = playbook(args, term, "update", "rolling-update.yml", {"teller_bundle_file": good, "teller_gate_timeout": 300})
        if rc != 0:
            raise Failed(f"rolling-update.yml exit {rc}: " + " | ".join(text.strip().splitlines()[-10:]))
        p.figures["rolling_update_s"] = round(time.time() - started)
        log(f"rolling-update.yml: changed={changed}, {p.figures['rolling_update_s']} s from the copy to the gate's verdict")
        term.wait_ready(900)
        term.wait_ssh()
        # From the kernel's start to READY=1 on the updated slot (TCG; for comparing builds).
        ready_us = term.ssh("systemctl show -p ActiveEnterTimestampMonotonic --value teller").stdout.strip()
        p.figures["updated_slot_kernel_to_ready_s"] = round(int(ready_us) / 1e6) if ready_us.isdigit() else None
        # RAUC writes the whole slot image: the new squashfs's size is what it wrote.
        said = term.ssh("unsquashfs -s /dev/disk/by-partlabel/root-b").stdout
        written = re.search(r"Filesystem size ([0-9]+) bytes", said)
        p.figures["update_bytes_written_mib"] = round(int(written.group(1)) / 1048576) if written else None
        if booted_slot(term) != "B":
            raise Failed(f"booted slot {booted_slot(term)}, not B")
        if term.ssh("cat /etc/machine-id").stdout.strip() != state["machine_id"]:
            raise Failed("slot B booted with another machine id")
        term.monitor("set_link nic0 on")
        sign_in(term)
        deadline = time.time() + 180
        while time.time() < deadline:
            status, rows = outbox(term)
            if status.get("pending_count") == 0:
                break
            time.sleep(5)
        else:
            raise Failed(f"the queued deposit did not drain: {status}")
        if rows != state["rows"]:
            raise Failed(f"{state['rows']} rows before the update, {rows} after")
        wait_gate(term, "B", "good")
        term.screendump("after-update")
    p.check("with the link down a deposit is Queued; rolling-update.yml (teller.fleet) rolls out bundle v2: rauc writes slot B, the terminal reboots into B, the deposit drains, the gate marks B good, no row lost", queued_then_update)

    def refuse(name, why):
        def f():
            term.scp(os.path.join(bundles, name), f"/data/{name}")
            before = term.ssh("sha256sum /dev/disk/by-partlabel/root-a; grub-editenv /boot/efi/EFI/teller/grubenv list").stdout
            done = term.ssh(f"rauc install /data/{name} 2>&1", check=False)
            if done.returncode == 0:
                raise Failed(f"rauc installed {name}")
            if why not in done.stdout:
                raise Failed(f"rauc's refusal does not say '{why}': {done.stdout[-500:]}")
            said = [l for l in done.stdout.splitlines() if why in l and "rror" in l] or [l for l in done.stdout.splitlines() if why in l]
            log(f"{name}: " + said[-1].strip())
            after = term.ssh("sha256sum /dev/disk/by-partlabel/root-a; grub-editenv /boot/efi/EFI/teller/grubenv list").stdout
            if before != after:
                raise Failed("the refused bundle changed slot A or the boot state")
            term.ssh(f"rm -f /data/{name}")
        return f
    if full:
        p.check("a bundle signed by another key is refused before anything is written", refuse("foreign-key.raucb", "signature"))
        p.check("a bundle for the other architecture is refused before anything is written", refuse("foreign-arch.raucb", "ompatible"))

    def fallback(name, label, via_ansible=False):
        def f():
            status, rows = outbox(term)
            if via_ansible:
                # rolling-update.yml must see the terminal go back, and stop the rollout.
                bundle = bundle_named(out, bundles, name, "proof-" + name.split(".")[0], args.arch)
                rc, text, _ = playbook(args, term, name.split(".")[0], "rolling-update.yml", {"teller_bundle_file": bundle})
                said = [l.strip() for l in text.splitlines() if "did not keep update" in l or "The health gate failed" in l]
                if rc == 0 or not said:
                    raise Failed(f"rolling-update.yml exit {rc} with {name}, and no word of the fallback: " + " | ".join(text.strip().splitlines()[-8:]))
                log(f"rolling-update.yml: {said[-1][:300]}")
                term.wait_ready(600)
                term.wait_ssh()
            else:
                term.scp(os.path.join(bundles, name), f"/data/{name}")
                started = time.time()
                term.ssh(f"rauc install /data/{name} >/dev/null 2>&1; rc=$?; rm -f /data/{name}; exit $rc", timeout=1200)
                state["install_seconds"] = time.time() - started
                p.figures["bundle_install_s"] = round(state["install_seconds"])
                env = term.ssh("grub-editenv /boot/efi/EFI/teller/grubenv list").stdout
                if "ORDER=A B" not in env:
                    raise Failed(f"after rauc install the primary slot is not A: {env}")
                term.ssh("systemctl reboot", check=False)
                term.stop(300)
            # The new slot A fails: the gate or GRUB goes back to B by itself, in one or more boots.
            deadline = time.time() + 1200
            while not via_ansible:
                if time.time() > deadline:
                    raise Failed("the terminal did not come back on slot B")
                term.start()
                try:
                    term.wait_ready(600)
                    term.wait_ssh()
                    if booted_slot(term) == "B":
                        break
                    log(f"{label}: booted {booted_slot(term)}; waiting for the gate to reboot")
                    term.stop(300)
                except Failed as e:
                    log(f"{label}: {e}; waiting for the reboot")
                    term.stop(400)
            if booted_slot(term) != "B":
                raise Failed(f"the terminal runs slot {booted_slot(term)} after the {label} bundle, not B")
            wait_gate(term, "B", "good")
            st = rauc_state(term)
            a = [s for s in slots(st) if s.get("bootname") == "A"][0]
            if a.get("boot_status") != "bad":
                raise Failed(f"slot A is not marked bad: {a}")
            status2, rows2 = outbox(term)
            if rows2 != rows or status2.get("pending_count") != status.get("pending_count"):
                raise Failed(f"rows {rows} -> {rows2}, pending {status.get('pending_count')} -> {status2.get('pending_count')}")
            log(term.ssh("tail -n 2 /var/lib/teller-image/history").stdout.strip())
        return f
    p.check("a bundle whose teller exits on start, rolled out by rolling-update.yml: slot A fails its health gate, the terminal is back on B, A marked bad, the queue intact, the play fails and says so", fallback("broken-teller.raucb", "broken teller", via_ansible=True))
    if full:
        p.check("a bundle whose kernel does not boot: GRUB falls back to B by itself, A marked bad, the queue intact", fallback("broken-kernel.raucb", "broken kernel"))

    def power_cuts():
        status, rows = outbox(term)
        term.scp(os.path.join(bundles, "good.raucb"), "/data/good.raucb")
        total = state.get("install_seconds", 120)
        results = []
        for i in range(args.power_cuts):
            at = total * (i + 0.5) / args.power_cuts
            term.ssh("nohup rauc install /data/good.raucb >/dev/null 2>&1 &", check=False)
            time.sleep(at)
            term.kill()
            t0 = time.time()
            term.start()
            term.wait_ready(900)
            p.figures.setdefault("power_cut_to_ready_s", round(time.time() - t0))
            term.wait_ssh()
            slot = booted_slot(term)
            st = rauc_state(term)
            mine = [s for s in slots(st) if s.get("bootname") == slot][0]
            status2, rows2 = outbox(term)
            results.append(f"cut {i + 1} at {at:.0f} s: booted {slot} ({mine.get('boot_status')}), rows {rows2}")
            log(results[-1])
            if rows2 != rows:
                raise Failed(f"cut {i + 1}: {rows} rows before, {rows2} after")
            wait_gate(term, slot, "good")
        term.ssh("rm -f /data/good.raucb")
    if full:
        p.check(f"{args.power_cuts} power cuts (qemu killed) during rauc install: every boot comes up on a good slot, READY, no row lost", power_cuts)

    term.ssh("poweroff", check=False)
    term.stop(120)
    host.terminate()
    p.figures["boots"] = term.boots


def slots(status):
    found = []
    for entry in status.get("slots", []):
        for _, slot in entry.items():
            found.append(slot)
    return found


def wait_gate(term, slot, want, timeout=240):
    deadline = time.time() + timeout
    while time.time() < deadline:
        for s in slots(rauc_state(term)):
            if s.get("bootname") == slot and s.get("boot_status") == want:
                return
        time.sleep(3)
    raise Failed(f"slot {slot} was not marked {want} within {timeout} s: {rauc_state(term)}")


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--image-dir", required=True)
    ap.add_argument("--arch", default="amd64")
    ap.add_argument("--teller", required=True)
    ap.add_argument("--out", required=True)
    ap.add_argument("--bundles", required=True, help="a folder with good.raucb, broken-teller.raucb, broken-kernel.raucb, foreign-key.raucb, foreign-arch.raucb")
    ap.add_argument("--power-cuts", type=int, default=10)
    ap.add_argument("--ansible", required=True, help="the bin folder of a venv with ansible-core (tools/lib.sh, ensure_ansible_venv)")
    args = ap.parse_args()
    p = Proof(args)
    try:
        run_all(args, p)
    except Failed as e:
        p.failed += 1
        print(f"not ok - the proof stopped: {e}")
    print(f"# figures: {json.dumps(p.figures)}")
    print(f"{p.passed} passed, {p.failed} failed")
    return 1 if p.failed else 0


if __name__ == "__main__":
    sys.exit(main())
