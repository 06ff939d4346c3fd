# -*- coding: utf-8 -*-
# Teller: what the teller.fleet modules read from RAUC on a terminal that
# runs the Teller image (deploy/image): one place that runs rauc with JSON
# output and walks its slots, so the facts and the bundle module agree on
# which slot booted and which boots next.

from __future__ import annotations

import json


def rauc_json(module, *args):
    """rauc ARGS --output-format=json, parsed; fails the task with rauc's last line when rauc refuses."""
    rc, out, err = module.run_command(["rauc", *args, "--output-format=json"])
    if rc != 0:
        said = (err.strip() or out.strip()).splitlines()[-1:] or ["no message"]
        module.fail_json(msg="rauc %s refused: %s" % (args[0], said[0]), rc=rc)
    return json.loads(out)


def slots(status):
    """(name, slot) for each root slot with a boot name in a parsed `rauc status`, e.g. ("rootfs.0", {...})."""
    for entry in status.get("slots") or []:
        for name, slot in entry.items():
            if isinstance(slot, dict) and slot.get("bootname"):
                yield name, slot


def booted_slot(status):
    """The slot the terminal runs now, or None."""
    for _, slot in slots(status):
        if slot["bootname"] == status.get("booted"):
            return slot
    return None


def primary_bootname(status):
    """The boot name (A or B) of the slot the bootloader tries next, or None."""
    for name, slot in slots(status):
        if name == status.get("boot_primary"):
            return slot["bootname"]
    return None
