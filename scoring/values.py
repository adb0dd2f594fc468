"""Reading the numbers players type or send: whole numbers in a range, yes/no."""

import re

from .errors import ScoringError

# ASCII digits only ("²" is a digit to str.isdigit, not to int), and few enough that no
# honest count comes near the limit int() puts on long strings.
_WHOLE = re.compile(r"-?[0-9]{1,9}")
# The largest number anyone enters or a sheet shows (a version, a hand's number, points,
# chips): nine digits, as typed text may have; SQLite and number formatting stay far off.
LARGEST = 999_999_999


def parse_int(value):
    """A whole number from a form's text or JSON within ±``LARGEST``, else None.

    >>> parse_int(" 12 "), parse_int("-5"), parse_int("²"), parse_int("9" * 5000), parse_int(True)
    (12, -5, None, None, None)
    >>> parse_int(2 ** 63), parse_int(-LARGEST)
    (None, -999999999)
    """
    if isinstance(value, bool):
        return None
    if isinstance(value, int):
        return value if -LARGEST <= value <= LARGEST else None
    if isinstance(value, str) and _WHOLE.fullmatch(value.strip()):
        return int(value.strip())
    return None


def whole_number(value, code: str, low: int, high: int, error=ScoringError, **params) -> int:
    """An int in [low, high]; digits in a string count (forms send text), bools do not.

    >>> whole_number("7", "x", 1, 9), whole_number(-5, "x", -10, 10)
    (7, -5)
    """
    number = parse_int(value)
    if number is None or not low <= number <= high:
        raise error(code, value=str(value)[:20], low=low, high=high, **params)
    return number


def yes_no(value, name: str, error: type[ScoringError] = ScoringError) -> bool:
    """A yes/no value: true or false (a page reads its own ticked boxes into these)."""
    if isinstance(value, bool):
        return value
    raise error("flag_type", field=name)
