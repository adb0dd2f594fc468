"""Reading the numbers players type or send: whole numbers in a range, yes/no."""

from .errors import ScoringError


def whole_number(value, code: str, low: int, high: int, error=ScoringError, **params) -> int:
    """An int in [low, high]; digits in a string count (forms send text), bools do not.

    >>> whole_number("7", "x", 1, 9), whole_number(-5, "x", -10, 10)
    (7, -5)
    """
    if isinstance(value, str) and value.strip().lstrip("-").isdigit():
        value = int(value.strip())
    if isinstance(value, bool) or not isinstance(value, int) or not low <= value <= high:
        raise error(code, value=str(value)[:20], low=low, high=high, **params)
    return value


def yes_no(value) -> bool:
    """A checkbox or JSON flag: true, "true", "on", "1", "yes" are yes; absent is no."""
    if isinstance(value, bool):
        return value
    return str(value).strip().lower() in {"true", "on", "1", "yes"}
