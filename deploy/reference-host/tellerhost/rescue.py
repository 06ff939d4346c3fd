"""Rescue files (docs/host-api.md §12): a dead terminal's unacknowledged
payments and till events, read off its card by `teller rescue` and signed
with HMAC-SHA256 under a key derived from that terminal's secret.

The file's layout is fixed, so the signed bytes are found by position and
never re-encoded:

    {"hmac_sha256":"<64 lower-case hex>","rescue":<document>}\\n

The tag covers the document's exact bytes under
HMAC-SHA256(key=secret, msg=b"teller rescue file v1") (Sources/TellerData/Rescue/RescueFile.swift).
"""

import hashlib
import hmac
import json
import re

from .problems import Problem

FORMAT = "teller-rescue"
VERSION = 1
KEY_PURPOSE = b"teller rescue file v1"
MAX_FILE = 16 * 1024 * 1024
_PREFIX = b'{"hmac_sha256":"'
_MIDDLE = b'","rescue":'
_SUFFIX = b"}\n"
_HEX = re.compile(rb"^[0-9a-f]{64}$")
_TERMINAL = re.compile(r"^[A-Za-z0-9._-]{1,32}$")


def signing_key(secret):
    """The key rescue files of the terminal with `secret` are signed with; the host keeps this, not the secret."""
    return hmac.new(secret.encode(), KEY_PURPOSE, hashlib.sha256).digest()


def split(raw):
    """(tag bytes, signed document bytes) by the fixed layout; 400 invalid_json when it is not a rescue file."""
    tag_end = len(_PREFIX) + 64
    if (not raw.startswith(_PREFIX) or raw[tag_end:tag_end + len(_MIDDLE)] != _MIDDLE or not raw.endswith(_SUFFIX)
            or len(raw) <= tag_end + len(_MIDDLE) + len(_SUFFIX) or not _HEX.match(raw[len(_PREFIX):tag_end])):
        if _shaped_like_a_file(raw):
            # JSON in the file's shape, but not its bytes (re-encoded, re-indented): the tag covers the bytes
            # teller rescue wrote, so it cannot be checked, and the file cannot be trusted.
            raise Problem("rescue_signature_invalid", "The body is a rescue file's JSON but not the bytes teller rescue wrote "
                                                      "(it was re-encoded): its hmac_sha256 covers those exact bytes. Send the file as written.")
        raise Problem("invalid_json", 'Not a rescue file: it must be {"hmac_sha256":"<64 hex>","rescue":{…}} and a line feed, '
                                      "exactly as teller rescue wrote it.")
    return bytes.fromhex(raw[len(_PREFIX):tag_end].decode()), raw[tag_end + len(_MIDDLE):-len(_SUFFIX)]


def _shaped_like_a_file(raw):
    try:
        parsed = json.loads(raw.decode("utf-8"))
    except (UnicodeDecodeError, json.JSONDecodeError):
        return False
    return (isinstance(parsed, dict) and set(parsed) == {"hmac_sha256", "rescue"} and isinstance(parsed["rescue"], dict)
            and isinstance(parsed["hmac_sha256"], str) and _HEX.match(parsed["hmac_sha256"].encode()) is not None)


def terminal_of(signed):
    """The document and the terminal it names, read before the signature is checked (its key depends on it)."""
    try:
        doc = json.loads(signed.decode("utf-8"))
    except (UnicodeDecodeError, json.JSONDecodeError) as error:
        raise Problem("invalid_json", f"The rescue document is not UTF-8 JSON: {error}.")
    if not isinstance(doc, dict):
        raise Problem("invalid_json", "The rescue document must be a JSON object.")
    terminal_id = doc.get("terminal_id")
    if not isinstance(terminal_id, str) or not _TERMINAL.match(terminal_id):
        raise Problem("invalid_field", "'terminal_id' must be the dead terminal's id.", field="terminal_id")
    return doc, terminal_id


def verify(tag, signed, key):
    return key is not None and hmac.compare_digest(hmac.new(key, signed, hashlib.sha256).digest(), tag)


def items(doc):
    """The payments and till events as (key, body bytes) lists, after the format's checks."""
    if doc.get("format") != FORMAT:
        raise Problem("invalid_field", f"'format' must be {FORMAT}.", field="format")
    if doc.get("version") != VERSION:
        raise Problem("invalid_field", f"'version' {doc.get('version')!r} is not one this host reads ({VERSION}).", field="version")

    def listed(name):
        entries = doc.get(name)
        if not isinstance(entries, list):
            raise Problem("invalid_field", f"'{name}' must be a list.", field=name)
        result = []
        for entry in entries:
            if not isinstance(entry, dict) or not isinstance(entry.get("idempotency_key"), str) or not isinstance(entry.get("body"), str):
                raise Problem("invalid_field", f"Each of '{name}' needs 'idempotency_key' and 'body' strings.", field=name)
            result.append((entry["idempotency_key"], entry["body"].encode("utf-8")))
        return result

    journal = doc.get("journal")
    if not isinstance(journal, list):
        raise Problem("invalid_field", "'journal' must be a list.", field="journal")
    return listed("payments"), listed("till_events"), len(journal)
