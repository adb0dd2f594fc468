"""The players of a match: names as the table will read them on the sheet."""

import unicodedata
from collections.abc import Sequence

from .errors import SetupError

MAX_NAME_LENGTH = 30


def hides_characters(text: str) -> bool:
    """Whether the text holds a character nobody sees as typed: control, invisible
    (zero-width space, soft hyphen), direction-changing (U+202E), a lone surrogate, or one
    Unicode has not assigned. Names holding them can look like another player's.

    >>> hides_characters("Anna"), hides_characters("An\u200bna"), hides_characters("\u202eanna")
    (False, True, True)
    """
    return any(unicodedata.category(char).startswith("C") for char in text)


def verify_players(names: Sequence[str], low: int, high: int) -> list[str]:
    """Names as the sheet shows them (NFKC, spaces collapsed), low to high of them, none
    empty, none twice, none hiding characters, no markup.

    Markup is refused rather than shown escaped: a name like ``<b>Ann`` is a slip, and
    the table should fix it while it is typing.
    """
    if not low <= len(names) <= high:
        raise SetupError("player_count", count=len(names), low=low, high=high)
    for seat, name in enumerate(names, start=1):
        if not isinstance(name, str):
            raise SetupError("player_name_empty", seat=seat)
    # NFKC first: full-width or ligature letters become the letters they look like.
    names = [" ".join(unicodedata.normalize("NFKC", name).split()) for name in names]
    seen = set()
    for seat, name in enumerate(names, start=1):
        if not name:
            raise SetupError("player_name_empty", seat=seat)
        if hides_characters(name):
            raise SetupError("player_name_hidden", seat=seat)
        if len(name) > MAX_NAME_LENGTH:
            raise SetupError("player_name_long", seat=seat, high=MAX_NAME_LENGTH)
        if "<" in name or ">" in name:
            raise SetupError("player_name_markup", seat=seat)
        if name.casefold() in seen:
            raise SetupError("player_name_twice", name=name)
        seen.add(name.casefold())
    return names
