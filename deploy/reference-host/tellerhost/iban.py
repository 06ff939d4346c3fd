"""IBAN syntax: normalisation, country length and the ISO 13616 mod-97 check."""

import re

# Lengths for the countries a demo or lab is likely to use; an unlisted
# country is accepted on the mod-97 check alone (length 15..34).
COUNTRY_LENGTHS = {
    "AT": 20, "BE": 16, "CH": 21, "CZ": 24, "DE": 22, "DK": 18, "ES": 24,
    "FI": 18, "FR": 27, "GB": 22, "IE": 22, "IT": 27, "LU": 20, "NL": 18,
    "NO": 15, "PL": 28, "PT": 25, "SE": 24,
}

_SHAPE = re.compile(r"^[A-Z]{2}[0-9]{2}[A-Z0-9]{11,30}$")


def normalize(text):
    """Upper-cases and removes spaces, the two liberties a typed IBAN takes."""
    return text.replace(" ", "").upper()


def is_valid(iban):
    """True for an already normalised IBAN with the right shape, length and check digits."""
    if not isinstance(iban, str) or not _SHAPE.match(iban):
        return False
    expected = COUNTRY_LENGTHS.get(iban[:2])
    if expected is not None and len(iban) != expected:
        return False
    rearranged = iban[4:] + iban[:4]
    digits = "".join(str(int(ch, 36)) for ch in rearranged)
    return int(digits) % 97 == 1
