"""Schemathesis hooks for deploy/reference-host/schemathesis-check.

docs/host-api.yaml marks IBANs `format: iban`: the mod-97 check digits cannot be
written as a JSON Schema pattern, so without this a "schema-valid" IBAN is almost
never a valid one. This generates IBANs that really pass the check: the demo
accounts (so positive cases can post), the known valid IBAN that is not at the
bank, and random ones with correct check digits and country lengths.

A well-formed Idempotency-Key is replaced by a fresh random UUID before each call: the
host answers 422 `idempotency_key_reused` to a key sent again with another body,
which is right but is a rule between requests that a schema cannot state, and
Hypothesis likes to send 00000000-0000-0000-0000-000000000000 every time.

Integral floats in a JSON body (`10885914196391.0`) are sent as integer literals:
JSON Schema counts them as integers, the contract does not (host-api.md §1: no
decimals on the wire, `2500.0` is 400 `invalid_field`). That changes no case's
validity in the schema's eyes; non-integral floats are left for negative cases.

Rules between members of one body that a schema cannot state are made to hold
where each member involved is already valid on its own (so a negative case keeps
what makes it negative): a till event's `total` is what its `count` adds up to,
its `over_short` is `total - expected`, and `approved_by` is never `operator_id`
(host-api.md §6 and §11).
"""

import os
import re
import sys
import uuid

import schemathesis
from hypothesis import strategies as st

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))

from tellerhost.iban import COUNTRY_LENGTHS  # noqa: E402
from tellerhost.seed import ACCOUNTS  # noqa: E402

BANK_IBANS = [account[0] for account in ACCOUNTS] + ["DE89370400440532013000"]
_BBAN = "0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZ"


def with_check_digits(country, bban):
    digits = "".join(str(int(ch, 36)) for ch in bban + country + "00")
    return f"{country}{98 - int(digits) % 97:02d}{bban}"


@st.composite
def random_iban(draw):
    country = draw(st.sampled_from(sorted(COUNTRY_LENGTHS)))
    length = COUNTRY_LENGTHS[country] - 4
    bban = draw(st.text(alphabet=_BBAN, min_size=length, max_size=length))
    return with_check_digits(country, bban)


schemathesis.openapi.format("iban", st.one_of(st.sampled_from(BANK_IBANS), random_iban()))


_UUID = re.compile(r"^[0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{12}$")


def _integer_literals(value):
    if isinstance(value, float) and value.is_integer():
        return int(value)
    if isinstance(value, dict):
        return {name: _integer_literals(item) for name, item in value.items()}
    if isinstance(value, list):
        return [_integer_literals(item) for item in value]
    return value


MAX = 9_007_199_254_740_991
_DENOMINATION = re.compile(r"^[1-9][0-9]*$")


def _is_int(value, low=-MAX, high=MAX):
    return isinstance(value, int) and not isinstance(value, bool) and low <= value <= high


def _between_members(body):
    count, total = body.get("count"), body.get("total")
    if isinstance(count, dict) and _is_int(total, 0) and all(
            isinstance(name, str) and _DENOMINATION.match(name) and _is_int(pieces, 0, 99_999) for name, pieces in count.items()):
        counted = sum(int(name) * pieces for name, pieces in count.items())
        if counted <= MAX:
            body["total"] = total = counted
    expected, over_short = body.get("expected"), body.get("over_short")
    if _is_int(total, 0) and _is_int(expected) and _is_int(over_short) and _is_int(total - expected):
        body["over_short"] = total - expected
    operator, approver = body.get("operator_id"), body.get("approved_by")
    if isinstance(operator, str) and operator == approver:
        body["approved_by"] = "1002" if operator != "1002" else "1003"


@schemathesis.hook
def before_call(context, case, kwargs):
    """A well-formed Idempotency-Key becomes a fresh one (in the same case); malformed keys,
    which the negative cases are about, are left alone. Integral floats become integers."""
    if isinstance(case.body, (dict, list)):
        case.body = _integer_literals(case.body)
    if isinstance(case.body, dict):
        _between_members(case.body)
    headers = case.headers or {}
    for name in list(headers):
        if name.lower() == "idempotency-key" and isinstance(headers[name], str) and _UUID.match(headers[name]):
            key = str(uuid.uuid4())
            headers[name] = key.upper() if headers[name].isupper() else key
