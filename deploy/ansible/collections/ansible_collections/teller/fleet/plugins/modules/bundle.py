#!/usr/bin/python
# -*- coding: utf-8 -*-
# Teller: installs a signed RAUC bundle into the other root slot of a
# terminal that runs the Teller image (deploy/image), unless the booted slot
# already holds exactly that root. rauc checks the signature and the
# compatible before it writes anything; the role then reboots, and the
# image's own health gate decides (docs/deploy.md, "Updates and rollback").

from __future__ import annotations

DOCUMENTATION = r"""
---
module: bundle
short_description: Install a Teller image update bundle (RAUC) into the other root slot
description:
  - Reads the bundle with C(rauc info) (which checks its signature against the image's keyring) and compares its root
    image with the booted slot. When the booted slot already holds that root (the same SHA-256 over the same bytes),
    nothing is written and the task reports C(changed=false).
  - Otherwise runs C(rauc install), which refuses a bundle signed by another key or made for the other architecture
    before it writes anything; the refusal is the task's message. The slot written boots next, on trial.
  - Does not reboot. The C(teller) role's C(bundle.yml) reboots and waits for the image's health gate.
version_added: "0.2.0"
author: Teller maintainers
options:
  path:
    description: The bundle, on the terminal (the data partition has room; the root slots do not).
    type: path
    required: true
attributes:
  check_mode:
    support: full
  diff_mode:
    support: none
"""

EXAMPLES = r"""
- name: Install the bundle into the other slot
  teller.fleet.bundle:
    path: /data/teller-update.raucb
  register: teller_bundle
"""

RETURN = r"""
version:
  description: The bundle's version (its manifest).
  type: str
  returned: always
booted:
  description: The slot the terminal runs now (A or B).
  type: str
  returned: always
slot:
  description: The slot that holds the bundle's root now (written by this task, or the booted slot when unchanged).
  type: str
  returned: always
"""

import hashlib
import json

from ansible.module_utils.basic import AnsibleModule
from ansible_collections.teller.fleet.plugins.module_utils.rauc import booted_slot, primary_bootname, rauc_json


def root_image(info):
    """The bundle's one root image as (sha256, size)."""
    for entry in info.get("images") or []:
        for image in entry.values() if isinstance(entry, dict) else []:
            if isinstance(image, dict) and image.get("checksum"):
                return image["checksum"], int(image["size"])
    return None, None


def holds(device, sha256, size):
    """Whether the first SIZE bytes of DEVICE are the image with SHA256."""
    digest = hashlib.sha256()
    left = size
    with open(device, "rb") as f:
        while left > 0:
            chunk = f.read(min(left, 4 << 20))
            if not chunk:
                return False
            digest.update(chunk)
            left -= len(chunk)
    return digest.hexdigest() == sha256


def main():
    module = AnsibleModule(argument_spec=dict(path=dict(type="path", required=True)), supports_check_mode=True)
    path = module.params["path"]
    info = rauc_json(module, "info", path)
    sha256, size = root_image(info)
    if sha256 is None:
        module.fail_json(msg="%s holds no root image (rauc info: %s)" % (path, json.dumps(info)[:300]))
    status = rauc_json(module, "status", "--detailed")
    booted = status.get("booted")
    running = booted_slot(status)
    if running is None:
        module.fail_json(msg="rauc status names no booted slot: is this terminal running the Teller image?")
    result = dict(changed=False, version=info.get("version"), booted=booted, slot=booted)
    if holds(running["device"], sha256, size):
        module.exit_json(**result)
    result["changed"] = True
    if module.check_mode:
        result["slot"] = "B" if booted == "A" else "A"
        module.exit_json(**result)
    rc, out, err = module.run_command(["rauc", "install", path])
    if rc != 0:
        said = [line for line in (out + err).splitlines() if "rror" in line or "ailed" in line] or (out + err).splitlines()[-3:]
        module.fail_json(msg="rauc install refused %s, nothing was written to the booted slot: %s" % (path, " | ".join(said[-3:])), rc=rc)
    result["slot"] = primary_bootname(rauc_json(module, "status"))
    module.exit_json(**result)


if __name__ == "__main__":
    main()
