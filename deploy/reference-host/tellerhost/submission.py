"""The submit-transaction body: parsing and validation into a `Submission`.

Validation failures raise a 400 problem naming the field, and are never
stored under the idempotency key (docs/host-api.md, "Submitting").
"""

import datetime
import json
import re
import uuid
from dataclasses import dataclass

from . import iban as ibans
from .problems import Problem

KINDS = ("deposit", "withdrawal", "transfer")
MAX_AMOUNT = 9_007_199_254_740_991  # 2^53 - 1: exact in every JSON parser
_CURRENCY = re.compile(r"^[A-Z]{3}$")
_OPERATOR = re.compile(r"^[0-9]{4,8}$")
_UUID = re.compile(r"^[0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{12}$")


@dataclass(frozen=True)
class Submission:
    kind: str
    account_iban: str
    counterparty_iban: "str | None"
    amount: int
    currency: str
    operator_id: str
    created_at: str
    client_reference: str
    # The idempotency key (lower case) of a posting of this terminal that this one reverses.
    reverses: "str | None" = None
    # The supervisor who approved it over a counter limit; None when none had to.
    approved_by: "str | None" = None


def parse_idempotency_key(value):
    """Returns the key in lower case; 400 when absent or not a UUID."""
    if value is None or value.strip() == "":
        raise Problem("idempotency_key_missing", "Send an Idempotency-Key header with a UUID, the same one on every retry.")
    value = value.strip()
    if not _UUID.match(value):
        raise Problem("idempotency_key_malformed", "Idempotency-Key must be a UUID like 123e4567-e89b-12d3-a456-426614174000.")
    return str(uuid.UUID(value))


def parse_path_key(value):
    """The key of a status URL, in lower case; a blank one is malformed (the path has no key to be missing)."""
    if value.strip() == "":
        raise Problem("idempotency_key_malformed", "The status URL has a blank key; put the transaction's UUID after /v1/transactions/.")
    return parse_idempotency_key(value)


def parse_json_object(raw):
    """Decodes a UTF-8 JSON object, or raises invalid_json."""
    try:
        doc = json.loads(raw.decode("utf-8"))
    except UnicodeDecodeError:
        raise Problem("invalid_json", "Request body is not UTF-8.")
    except json.JSONDecodeError as error:
        raise Problem("invalid_json", f"Request body is not valid JSON: {error.msg} at line {error.lineno} column {error.colno}.")
    if not isinstance(doc, dict):
        raise Problem("invalid_json", "Request body must be a JSON object.")
    return doc


def _string(doc, field, required=True):
    value = doc.get(field)
    if value is None:
        if required:
            raise Problem("invalid_field", f"'{field}' is required.", field=field)
        return None
    if not isinstance(value, str):
        raise Problem("invalid_field", f"'{field}' must be a string.", field=field)
    return value


def _iban(doc, field, required=True):
    value = _string(doc, field, required)
    if value is None:
        return None
    if not ibans.is_valid(value):
        raise Problem("invalid_field", f"'{field}' is not a valid IBAN (upper case, no spaces, right length, mod-97 check).", field=field)
    return value


_RFC3339 = re.compile(r"^(\d{4})-(\d{2})-(\d{2})[Tt](\d{2}):(\d{2}):(\d{2})(\.\d+)?([Zz]|[+-]\d{2}:\d{2})$")


def parse_timestamp(value, field):
    """RFC 3339 date-time with a zone offset ('Z' or +hh:mm), any fraction digits.
    Parsed by hand so every Python version accepts the same strings."""
    match = _RFC3339.match(value)
    try:
        if match is None:
            raise ValueError(value)
        year, month, day, hour, minute, second = (int(part) for part in match.groups()[:6])
        offset = match.group(8)
        if offset in ("Z", "z"):
            zone = datetime.timezone.utc
        else:
            sign = 1 if offset[0] == "+" else -1
            offset_hours, offset_minutes = int(offset[1:3]), int(offset[4:6])
            if offset_hours > 23 or offset_minutes > 59:
                raise ValueError(offset)
            zone = datetime.timezone(sign * datetime.timedelta(hours=offset_hours, minutes=offset_minutes))
        # RFC 3339 allows year 0000, which datetime does not; 2000 has the same leap-year rule (divisible by 400).
        # Second 60 is a leap second.
        return datetime.datetime(year or 2000, month, day, hour, minute, min(second, 59), tzinfo=zone)
    except ValueError:
        raise Problem("invalid_field", f"'{field}' must be an RFC 3339 date-time with offset, like 2026-11-29T14:05:00Z.", field=field)


def parse_submission(raw):
    """Parses and validates a submit body; raises a 400 Problem naming the bad field."""
    doc = parse_json_object(raw)
    kind = _string(doc, "kind")
    if kind not in KINDS:
        raise Problem("invalid_field", "'kind' must be one of deposit, withdrawal, transfer.", field="kind")
    account = _iban(doc, "account_iban")
    counterparty = _iban(doc, "counterparty_iban", required=False)
    if kind == "transfer" and counterparty is None:
        raise Problem("invalid_field", "'counterparty_iban' is required for a transfer.", field="counterparty_iban")
    if kind != "transfer" and counterparty is not None:
        raise Problem("invalid_field", f"'counterparty_iban' is only allowed for a transfer, not a {kind}.", field="counterparty_iban")
    amount = doc.get("amount")
    if amount is None:
        raise Problem("invalid_field", "'amount' is required.", field="amount")
    if isinstance(amount, bool) or not isinstance(amount, int):
        raise Problem("invalid_field", "'amount' must be an integer number of minor units (cents), not a decimal or a string.", field="amount")
    if not 1 <= amount <= MAX_AMOUNT:
        raise Problem("invalid_field", f"'amount' must be between 1 and {MAX_AMOUNT} minor units.", field="amount")
    currency = _string(doc, "currency")
    if not _CURRENCY.match(currency):
        raise Problem("invalid_field", "'currency' must be an ISO 4217 code of three upper-case letters.", field="currency")
    operator = _string(doc, "operator_id")
    if not _OPERATOR.match(operator):
        raise Problem("invalid_field", "'operator_id' must be 4 to 8 digits.", field="operator_id")
    created_at = _string(doc, "created_at")
    parse_timestamp(created_at, "created_at")
    reference = _string(doc, "client_reference")
    if not 1 <= len(reference) <= 64:
        raise Problem("invalid_field", "'client_reference' must be 1 to 64 characters.", field="client_reference")
    # Absent, or a JSON boolean: null is not "absent" (docs/host-api.yaml says boolean).
    if "clock_unverified" in doc and not isinstance(doc["clock_unverified"], bool):
        raise Problem("invalid_field", "'clock_unverified' must be true or false when present.", field="clock_unverified")
    # Absent or null for an ordinary payment; for a reversal, the key of the posting it undoes.
    reverses = doc.get("reverses")
    if reverses is not None and (not isinstance(reverses, str) or not _UUID.match(reverses) or reverses != reverses.lower()):
        raise Problem("invalid_field", "'reverses' must be the lower-case idempotency key of the transaction it reverses.", field="reverses")
    approved_by = parse_approver(doc, operator)
    return Submission(kind, account, counterparty, amount, currency, operator, created_at, reference, reverses, approved_by)


def parse_approver(doc, operator):
    """`approved_by`: absent or null, or a supervisor's 4-8 digit id that is not the operator's own
    (nobody approves their own work); a 400 naming the field otherwise."""
    approved_by = doc.get("approved_by")
    if approved_by is None:
        return None
    if not isinstance(approved_by, str) or not _OPERATOR.match(approved_by):
        raise Problem("invalid_field", "'approved_by' must be the approving supervisor's id, 4 to 8 digits.", field="approved_by")
    if approved_by == operator:
        raise Problem("invalid_field", f"'approved_by' is the operator {operator} itself; nobody approves their own work.",
                      field="approved_by")
    return approved_by
