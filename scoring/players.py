"""The players of a match: names as the table will read them on the sheet."""

from collections.abc import Sequence

from .errors import SetupError

MAX_NAME_LENGTH = 30


def verify_players(names: Sequence[str], low: int, high: int) -> list[str]:
    """Trimmed names, low to high of them, none empty, none twice, no markup.

    Markup is refused rather than shown escaped: a name like ``<b>Ann`` is a slip, and
    the table should fix it while it is typing.
    """
    if not low <= len(names) <= high:
        raise SetupError("player_count", count=len(names), low=low, high=high)
    for seat, name in enumerate(names, start=1):
        if not isinstance(name, str):
            raise SetupError("player_name_empty", seat=seat)
    names = [" ".join(name.split()) for name in names]
    seen = set()
    for seat, name in enumerate(names, start=1):
        if not name:
            raise SetupError("player_name_empty", seat=seat)
        if len(name) > MAX_NAME_LENGTH:
            raise SetupError("player_name_long", seat=seat, high=MAX_NAME_LENGTH)
        if "<" in name or ">" in name:
            raise SetupError("player_name_markup", seat=seat)
        if name.casefold() in seen:
            raise SetupError("player_name_twice", name=name)
        seen.add(name.casefold())
    return names
