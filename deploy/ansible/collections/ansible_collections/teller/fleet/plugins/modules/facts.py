#!/usr/bin/python
# -*- coding: utf-8 -*-
# Teller: the terminal's state as Ansible facts, from `teller status` (the
# same report `teller metrics` and the fleet's Prometheus metrics use) and
# systemd. Reads only.

from __future__ import annotations

DOCUMENTATION = r"""
---
module: facts
short_description: Facts about a Teller counter terminal
description:
  - Reads C(teller status) by field name (read-only; it never writes to the database; a field it does not find fails the
    task by name rather than reading as 0), the state of C(teller.service), and,
    while the service runs, whether the running terminal reaches the bank (C(teller ctl status)).
  - Sets C(ansible_facts.teller) with the version, the queue (count, amount per currency, oldest age), rows that need
    review, the sync problem, whether the clock is verified, and the service's state and main PID.
  - On a terminal that runs the Teller image (C(deploy/image)), C(image) says which root slot booted, each slot's
    boot status and bundle version from C(rauc status), whether an update is still on trial, and the health gate's
    last verdict. It is null on a terminal with the Debian package on its own OS.
version_added: "0.1.0"
author: Teller maintainers
options:
  teller:
    description: The teller executable.
    type: path
    default: /usr/bin/teller
  gate:
    description:
      - Also judge the rolling update's health gate (C(rolling-update.yml)): C(gate_passed) is true when C(teller.service) is
        active (READY) and C(teller status --gate) passes (the running terminal online or its queue drained: teller's
        own rule, the one the image's health gate asks), and C(msg) says what the gate saw in one sentence,
        so a gate that is still not passed when C(until) gives up fails with that sentence, not C(Unknown error).
    type: bool
    default: false
attributes:
  check_mode:
    support: full
  diff_mode:
    support: none
  facts:
    support: full
"""

EXAMPLES = r"""
- name: Read the terminal's state
  teller.fleet.facts:

- name: Show the queue
  ansible.builtin.debug:
    msg: "{{ ansible_facts.teller.queued_count }} queued since {{ ansible_facts.teller.oldest_queued_age_seconds }} s"
"""

RETURN = r"""
ansible_facts:
  description: C(teller) with installed, version, package_version, terminal_id, database, queued_count, queued_amount, oldest_queued_age_seconds,
    needs_review, unacknowledged_rejections, sync_problem, clock_verified, online, last_sync,
    service (active_state, main_pid, restarts, live),
    image (null, or booted, primary, slots {A, B} with boot_status and bundle_version, trial, gate, last_gate_record).
  returned: always
  type: dict
gate_passed:
  description: With C(gate), whether the health gate passes now.
  returned: when gate
  type: bool
msg:
  description: With C(gate), what the health gate saw, for example
    C(The health gate has not passed: teller.service is active; gate not passed: offline, and 5 transaction(s) are still queued; …).
  returned: when gate
  type: str
"""

import json
import os

from ansible.module_utils.basic import AnsibleModule
from ansible_collections.teller.fleet.plugins.module_utils.rauc import primary_bootname, rauc_json, slots

# `teller status` exit statuses (`teller --help`; Sources/TellerCommands/DatabaseRefusal+ExitCode.swift is the
# table, and TellerCommandsTests holds these two to it): no database yet, and --gate's "not yet".
NO_DATABASE = 3
NOT_YET = 10


def service_state(module):
    live = os.path.isdir("/run/systemd/system")
    state = dict(live=live, active_state=None, main_pid=None, restarts=None)
    if not live:
        return state
    rc, out, _ = module.run_command(["systemctl", "show", "-p", "ActiveState", "-p", "MainPID", "-p", "NRestarts", "teller.service"])
    if rc == 0:
        fields = dict(line.split("=", 1) for line in out.splitlines() if "=" in line)
        state["active_state"] = fields.get("ActiveState")
        state["main_pid"] = int(fields.get("MainPID", "0") or 0)
        state["restarts"] = int(fields.get("NRestarts", "0") or 0)
    return state


# The Teller image (deploy/image): its first-boot script marks it, RAUC keeps its slots.
IMAGE_MARK = "/usr/lib/teller/image/firstboot"
IMAGE_STATE = "/var/lib/teller-image"


def image_state(module):
    """The image's root slots and health gate, or None when the terminal runs the package on its own OS."""
    if not os.path.exists(IMAGE_MARK):
        return None
    image = dict(booted=None, primary=None, slots={}, trial=None, gate=None, last_gate_record=None)
    status = rauc_json(module, "status", "--detailed")
    image["booted"] = status.get("booted")
    image["primary"] = primary_bootname(status)
    for _, slot in slots(status):
        bundle = (slot.get("slot_status") or {}).get("bundle") or {}
        image["slots"][slot["bootname"]] = dict(boot_status=slot.get("boot_status"), state=slot.get("state"),
                                                bundle_version=bundle.get("version"))
    try:
        with open(os.path.join(IMAGE_STATE, "trial")) as f:
            image["trial"] = f.read().strip() or None
    except FileNotFoundError:
        pass
    try:
        with open(os.path.join(IMAGE_STATE, "history")) as f:
            lines = [line.strip() for line in f if line.strip()]
            image["last_gate_record"] = lines[-1] if lines else None
    except FileNotFoundError:
        pass
    # active: the gate has marked this boot's slot good; activating: still deciding; failed: marked bad.
    rc, out, _ = module.run_command(["systemctl", "show", "-p", "ActiveState", "--value", "teller-health-gate.service"])
    image["gate"] = out.strip() if rc == 0 else None
    return image


def package_version(module):
    """The installed teller package's version (what update and a rollback switch), or None."""
    rc, out, _ = module.run_command(["dpkg-query", "-W", "-f=${Version}", "teller"])
    return (out.strip() or None) if rc == 0 else None


def health_gate(module, teller, facts):
    """(passed, sentence): the rolling update's health gate. systemd says whether the service is up (READY); teller
    judges the rest itself (`teller status --gate`: the running terminal online, or its queue drained), so the rule
    is written once, in Swift."""
    active = facts["service"]["active_state"]
    if not facts["installed"]:
        rc, verdict = NOT_YET, "teller is not installed"
    else:
        rc, out, err = module.run_command([teller, "status", "--gate"])
        if rc == NO_DATABASE:
            rc, verdict = NOT_YET, "there is no database yet: the terminal has not run"
        elif rc in (0, NOT_YET):
            verdict = out.strip()
        else:
            module.fail_json(msg="teller status --gate failed (exit %d): %s" % (rc, (err or out).strip()), rc=rc)
    seen = "teller.service is %s; %s" % (active or "not running under systemd", verdict)
    if active == "active" and rc == 0:
        return True, "The health gate passed: %s." % seen
    return False, ("The health gate has not passed: %s; it needs the service active (READY) and the terminal online "
                   "or its queue drained." % seen)


def field(module, report, name, *path):
    """report[name][path...], named when missing: a renamed or dropped field fails the task instead of reading as 0
    (a queue that seemed empty would let an update through)."""
    value = report
    for key in (name,) + path:
        if not isinstance(value, dict) or key not in value:
            module.fail_json(msg="teller status has no field '%s' (the keys are: %s): this collection and the installed "
                                 "teller disagree; refusing to guess" % (".".join((name,) + path), ", ".join(sorted(report))))
        value = value[key]
    return value


def main():
    module = AnsibleModule(argument_spec=dict(teller=dict(type="path", default="/usr/bin/teller"),
                                              gate=dict(type="bool", default=False)),
                           supports_check_mode=True)
    teller = module.params["teller"]
    image = image_state(module)
    # The image has no package manager to ask: its dpkg database stayed with the data partition's first build.
    facts = dict(installed=os.access(teller, os.X_OK), version=None, package_version=package_version(module) if image is None else None,
                 terminal_id=None, database="missing",
                 queued_count=0, queued_amount={}, oldest_queued_age_seconds=None, needs_review=0,
                 unacknowledged_rejections=0, sync_problem="none", clock_verified=None, online=None, last_sync=None,
                 service=service_state(module), image=image)
    if facts["installed"]:
        rc, out, err = module.run_command([teller, "status"])
        if rc == 0:
            status = json.loads(out)
            problem = field(module, status, "sync_problem")
            facts.update(
                version=field(module, status, "version"), terminal_id=field(module, status, "terminal_id"), database="ok",
                queued_count=int(field(module, status, "pending_count")),
                queued_amount={code: field(module, status, "pending", code, "amount") for code in field(module, status, "pending")},
                oldest_queued_age_seconds=field(module, status, "oldest_queued_age_seconds"),
                needs_review=int(field(module, status, "counts", "needsReview")),
                unacknowledged_rejections=int(field(module, status, "unacknowledged_rejections")),
                sync_problem=field(module, problem, "kind") if problem is not None else "none",
                clock_verified=field(module, status, "clock_verified"))
        elif rc == NO_DATABASE:
            # Installed, never started: nothing is queued. The version comes from the binary.
            rc, out, _ = module.run_command([teller, "--version"])
            facts["version"] = out.strip() if rc == 0 else None
        else:
            module.fail_json(msg="teller status refused the database (exit %d): %s" % (rc, err.strip()), rc=rc)
    if facts["installed"] and facts["service"]["active_state"] == "active":
        # Only the running terminal knows whether it reaches the bank now (its sync engine's evidence).
        rc, out, _ = module.run_command([teller, "ctl", "status"])
        if rc == 0:
            running = json.loads(out)
            facts["online"] = field(module, running, "online")
            facts["last_sync"] = field(module, running, "last_sync")
    result = dict(changed=False, ansible_facts=dict(teller=facts))
    if module.params["gate"]:
        result["gate_passed"], result["msg"] = health_gate(module, teller, facts)
    module.exit_json(**result)


if __name__ == "__main__":
    main()
