"""The till-event body (docs/host-api.md, "Till events"): parsing and
validation into a `TillEvent`.

Like a submission, a body that breaks a rule is a 400 naming the field and
is never stored under the idempotency key. The host records every valid
event as it comes and judges none: a closing for a till it never saw
opened is recorded too (the terminal may have been offline, or its opening
may still be on the way).
"""

import json
from dataclasses import dataclass

from .problems import Problem
from .submission import _CURRENCY, _OPERATOR, MAX_AMOUNT, _string, parse_approver, parse_json_object, parse_timestamp

EVENTS = ("opened", "closed")
MAX_DENOMINATIONS = 64  # so that any count adds up to less than 2^53 (docs/host-api.yaml TillCount)
MAX_PIECES = 99_999  # per denomination: more is a typing error (TellerCore's TillCount.maximumPieces)


@dataclass(frozen=True)
class TillEvent:
    event: str
    till_id: int
    operator_id: str
    currency: str
    at: str
    # Denomination in minor units, as the decimal text of the wire, to pieces.
    count: dict
    total: int
    expected: "int | None" = None
    over_short: "int | None" = None
    approved_by: "str | None" = None
    clock_unverified: bool = False

    def count_json(self):
        return json.dumps(self.count, separators=(",", ":"), sort_keys=True)


def _integer(doc, field, low, high, what):
    value = doc.get(field)
    if isinstance(value, bool) or not isinstance(value, int) or not low <= value <= high:
        raise Problem("invalid_field", f"'{field}' must be {what}.", field=field)
    return value


def _count(doc):
    count = doc.get("count")
    if not isinstance(count, dict):
        raise Problem("invalid_field", "'count' must be an object of denomination (minor units, as text) to pieces.", field="count")
    total = 0
    if len(count) > MAX_DENOMINATIONS:
        raise Problem("invalid_field", f"'count' has {len(count)} denominations; at most {MAX_DENOMINATIONS}.", field="count")
    for denomination, pieces in count.items():
        if not denomination.isdigit() or not denomination.isascii() or denomination.startswith("0") or len(denomination) > 9:
            raise Problem("invalid_field", f"'count' has the denomination '{denomination}'; a key is a positive integer of minor units, at most 9 digits.",
                          field="count")
        if isinstance(pieces, bool) or not isinstance(pieces, int) or not 0 <= pieces <= MAX_PIECES:
            raise Problem("invalid_field", f"'count' has {pieces!r} pieces of {denomination}; pieces are 0 to {MAX_PIECES}.", field="count")
        total += int(denomination) * pieces
    return count, total


def parse_till_event(raw):
    """Parses and validates a till-event body; raises a 400 Problem naming the first bad field,
    in the order of the table in docs/host-api.md."""
    doc = parse_json_object(raw)
    event = _string(doc, "event")
    if event not in EVENTS:
        raise Problem("invalid_field", "'event' must be opened or closed.", field="event")
    till_id = _integer(doc, "till_id", 1, MAX_AMOUNT, f"the terminal's till number, an integer from 1 to {MAX_AMOUNT}")
    operator = _string(doc, "operator_id")
    if not _OPERATOR.match(operator):
        raise Problem("invalid_field", "'operator_id' must be 4 to 8 digits.", field="operator_id")
    currency = _string(doc, "currency")
    if not _CURRENCY.match(currency):
        raise Problem("invalid_field", "'currency' must be an ISO 4217 code of three upper-case letters.", field="currency")
    at = _string(doc, "at")
    parse_timestamp(at, "at")
    count, counted = _count(doc)
    total = _integer(doc, "total", 0, MAX_AMOUNT, f"the count's value, 0 to {MAX_AMOUNT} minor units")
    if total != counted:
        raise Problem("invalid_field", f"'total' is {total}, but 'count' adds up to {counted} minor units.", field="total")
    expected = over_short = None
    if event == "closed":
        expected = _integer(doc, "expected", -MAX_AMOUNT, MAX_AMOUNT, "the expected cash position, an integer of minor units")
        over_short = _integer(doc, "over_short", -MAX_AMOUNT, MAX_AMOUNT, "counted minus expected, an integer of minor units")
        if over_short != total - expected:
            raise Problem("invalid_field", f"'over_short' is {over_short}, but total minus expected is {total - expected}.",
                          field="over_short")
        approved_by = parse_approver(doc, operator)
    else:
        for field in ("expected", "over_short", "approved_by"):
            if doc.get(field) is not None:
                raise Problem("invalid_field", f"'{field}' belongs to a closing only.", field=field)
        approved_by = None
    # Absent, or a JSON boolean, as on a transaction.
    if "clock_unverified" in doc and not isinstance(doc["clock_unverified"], bool):
        raise Problem("invalid_field", "'clock_unverified' must be true or false when present.", field="clock_unverified")
    return TillEvent(event, till_id, operator, currency, at, count, total, expected, over_short, approved_by,
                     doc.get("clock_unverified") is True)
