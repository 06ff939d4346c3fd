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
  - Reads C(teller status) (read-only; it never writes to the database), the state of C(teller.service), and,
    while the service runs, whether the running terminal reaches the bank (C(teller ctl status)).
  - Sets C(ansible_facts.teller) with the version, the queue (count, amount per currency, oldest age), rows that need
    review, the sync problem, whether the clock is verified, and the service's state and main PID.
version_added: "0.1.0"
author: Teller maintainers
options:
  teller:
    description: The teller executable.
    type: path
    default: /usr/bin/teller
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
    service (active_state, main_pid, restarts, live).
  returned: always
  type: dict
"""

import json
import os

from ansible.module_utils.basic import AnsibleModule

# `teller status` exit statuses for a database it refuses (docs/deploy.md).
NO_DATABASE = 3


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


def package_version(module):
    """The installed teller package's version (what update and a rollback switch), or None."""
    rc, out, _ = module.run_command(["dpkg-query", "-W", "-f=${Version}", "teller"])
    return (out.strip() or None) if rc == 0 else None


def main():
    module = AnsibleModule(argument_spec=dict(teller=dict(type="path", default="/usr/bin/teller")), supports_check_mode=True)
    teller = module.params["teller"]
    facts = dict(installed=os.access(teller, os.X_OK), version=None, package_version=package_version(module), terminal_id=None, database="missing",
                 queued_count=0, queued_amount={}, oldest_queued_age_seconds=None, needs_review=0,
                 unacknowledged_rejections=0, sync_problem="none", clock_verified=None, online=None, last_sync=None,
                 service=service_state(module))
    if facts["installed"]:
        rc, out, err = module.run_command([teller, "status"])
        if rc == 0:
            status = json.loads(out)
            problem = status.get("sync_problem") or {}
            facts.update(
                version=status.get("version"), terminal_id=status.get("terminal_id"), database="ok",
                queued_count=status.get("pending_count", 0),
                queued_amount={code: value.get("amount") for code, value in (status.get("pending") or {}).items()},
                oldest_queued_age_seconds=status.get("oldest_queued_age_seconds"),
                needs_review=(status.get("counts") or {}).get("needsReview", 0),
                unacknowledged_rejections=status.get("unacknowledged_rejections", 0),
                sync_problem=problem.get("kind", "none"), clock_verified=status.get("clock_verified"))
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
            facts["online"] = running.get("online")
            facts["last_sync"] = running.get("last_sync")
    module.exit_json(changed=False, ansible_facts=dict(teller=facts))


if __name__ == "__main__":
    main()
