#!/usr/bin/python
# -*- coding: utf-8 -*-
# Teller: runs the terminal's own provision (/usr/lib/teller/provision) with
# its --json report, so Ansible's changed, check mode and diff say what the
# terminal itself decided. Secrets go to provision on stdin, never on argv.

from __future__ import annotations

DOCUMENTATION = r"""
---
module: provision
short_description: Provision a Teller counter terminal
description:
  - Runs C(/usr/lib/teller/provision --json) from the teller package with the given settings.
  - The terminal secret and the technician PIN reach provision on standard input, never on a command line,
    and are hidden from Ansible's output (C(no_log) on both options); a failure still shows provision's reason,
    which names the key and the line of C(/etc/teller/teller.conf).
  - Idempotent. With the same inputs the terminal writes nothing and restarts nothing (provision exits 6), and
    the task reports C(changed=false). A PIN is written only when it does not verify against the stored hash.
  - Check mode runs C(provision --dry-run). Diff mode shows the keys that change, each line as
    C(/etc/teller/teller.conf) holds it before and as it will hold it after (a value with C( #) in double quotes),
    with the values of keys that are not secret.
version_added: "0.1.0"
author: Teller maintainers
options:
  settings:
    description:
      - Keys of C(docs/configuration.md) and their values, for example C(terminal_id), C(branch), C(host_url),
        C(limit_daily). Keys not given keep their current value. C(data_dir) and C(technician_pin_hash) are refused.
    type: dict
    default: {}
  terminal_secret:
    description: The terminal secret for the host. Stored encrypted with systemd-creds.
    type: str
  technician_pin:
    description: The technician PIN (4 to 12 digits). Only its Argon2id hash is stored.
    type: str
  force:
    description: Provision although transactions are queued or rejections unacknowledged (they are kept).
    type: bool
    default: false
  restart:
    description: Restart the terminal when something changed.
    type: bool
    default: true
  executable:
    description: The provision script.
    type: path
    default: /usr/lib/teller/provision
attributes:
  check_mode:
    support: full
  diff_mode:
    support: full
"""

EXAMPLES = r"""
- name: Provision the terminal
  teller.fleet.provision:
    settings:
      terminal_id: T-0001
      branch: "Main #1"
      host_url: https://host.bank.example
    terminal_secret: "{{ vault_teller_terminal_secret }}"
    technician_pin: "{{ vault_teller_technician_pin }}"
"""

RETURN = r"""
keys:
  description: The configuration keys that changed (or would change in check mode); C(terminal_secret) for the secret.
  type: list
  elements: str
  returned: always
restarted:
  description: Whether the terminal was restarted.
  type: bool
  returned: always
exit:
  description: provision's exit status (0 changed, 6 unchanged; docs/deploy.md).
  type: int
  returned: always
"""

import json

from ansible.module_utils.basic import AnsibleModule

# provision's exit statuses (deploy/lib/common.sh).
CHANGED = 0
UNCHANGED = 6
# Keys whose value never appears in a diff.
SECRET_KEYS = {"terminal_secret", "technician_pin_hash"}


CONF = "/etc/teller/teller.conf"


# teller.conf's parser (Sources/TellerConfiguration/ConfigurationFile.swift),
# so the diff shows each line as the file holds it, quotes and all.
def strip_comment(line):
    """LINE without a # comment that is not inside double quotes."""
    in_quotes, previous = False, " "
    for offset, character in enumerate(line):
        if character == '"':
            in_quotes = not in_quotes
        if character == "#" and not in_quotes and (previous.isspace() or offset == 0):
            return line[:offset]
        previous = character
    return line


def parse_line(line):
    """(key, value) as the terminal reads LINE, or None for a blank or comment line."""
    line = strip_comment(line).strip()
    if "=" not in line:
        return None
    key, value = line.split("=", 1)
    key, value = key.strip(), value.strip()
    if len(value) >= 2 and value.startswith('"') and value.endswith('"'):
        value = value[1:-1]
    return key, value


def current_lines(keys):
    """The line of teller.conf that sets each of KEYS now, as the file holds it (missing: not set)."""
    try:
        with open(CONF, encoding="utf-8") as f:
            text = f.read()
    except (OSError, UnicodeDecodeError):
        return {}
    lines = {}
    for line in text.split("\n"):
        entry = parse_line(line)
        if entry and entry[0] in keys and entry[0] not in lines:
            lines[entry[0]] = line.strip()
    return lines


def setting_line(key, value):
    """The line teller config set writes: quoted only when the parser would otherwise read another value."""
    for candidate in ("%s = %s" % (key, value), '%s = "%s"' % (key, value)):
        if parse_line(candidate) == (key, value):
            return candidate
    return "%s = %s" % (key, value)


def setting_text(value):
    if isinstance(value, bool):
        return "true" if value else "false"
    return str(value)


def main():
    module = AnsibleModule(
        argument_spec=dict(
            settings=dict(type="dict", default={}),
            terminal_secret=dict(type="str", no_log=True),
            technician_pin=dict(type="str", no_log=True),
            force=dict(type="bool", default=False),
            restart=dict(type="bool", default=True),
            executable=dict(type="path", default="/usr/lib/teller/provision"),
        ),
        supports_check_mode=True,
    )
    p = module.params
    settings = {str(key): setting_text(value) for key, value in (p["settings"] or {}).items()}
    argv = [p["executable"], "--json"]
    for key, value in settings.items():
        argv += ["--set", "%s=%s" % (key, value)]
    stdin = ""
    # provision reads the secret while it parses its options and the PIN after, so this order.
    if p["terminal_secret"] is not None:
        argv.append("--secret-stdin")
        stdin += p["terminal_secret"] + "\n"
    if p["technician_pin"] is not None:
        argv.append("--technician-pin-stdin")
        stdin += p["technician_pin"] + "\n"
    if module.check_mode:
        argv.append("--dry-run")
    if p["force"]:
        argv.append("--force")
    if not p["restart"]:
        argv.append("--no-restart")

    before = current_lines(set(settings)) if module._diff else {}
    rc, out, err = module.run_command(argv, data=stdin or None, binary_data=False)
    report = None
    for line in reversed(out.splitlines()):
        if line.startswith("{"):
            try:
                report = json.loads(line)
            except ValueError:
                pass
            break
    stderr_lines = [line for line in err.splitlines() if line.strip()]
    if report is None:
        module.fail_json(msg="provision printed no report (exit %d): %s" % (rc, " | ".join(stderr_lines[-5:]) or "no message"),
                         rc=rc, stderr_lines=stderr_lines)
    keys = report.get("keys", [])
    if rc not in (CHANGED, UNCHANGED):
        # provision's own sentence names the key and the line; its other lines say what was kept.
        # When provision's sentence points at the lines above it, those lines (file:line: key: why) lead the message.
        reason = report.get("error") or "failed"
        problems = [line.split(": ", 1)[1] if line.startswith("teller config: ") else line
                    for line in stderr_lines if not line.startswith("provision:") and reason not in line]
        msg = "provision refused (exit %d): %s" % (rc, "; ".join(problems[-5:] + [reason]) if "above" in reason else reason)
        module.fail_json(msg=msg, rc=rc, exit=rc, keys=keys, stderr_lines=stderr_lines[-8:])

    result = dict(changed=bool(report.get("changed")), keys=keys, restarted=bool(report.get("restarted")), exit=rc)
    if module._diff and result["changed"]:
        old, new = [], []
        for key in keys:
            if key in SECRET_KEYS or key not in settings:
                old.append("%s = <secret>\n" % key)
                new.append("%s = <new secret>\n" % key)
            else:
                old.append("%s\n" % before.get(key, "%s = <not set>" % key))
                new.append("%s\n" % setting_line(key, settings[key]))
        result["diff"] = dict(before="".join(old), after="".join(new),
                              before_header="/etc/teller/teller.conf", after_header="/etc/teller/teller.conf")
    module.exit_json(**result)


if __name__ == "__main__":
    main()
