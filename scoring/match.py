"""What every game's standings say, whatever the game counts: the shape the sheets and the
API read."""

from dataclasses import dataclass, field


@dataclass(frozen=True)
class Standings:
    """Totals per unit (a player, a side, a partnership), the end, the next deal, the rows.

    ``winners``, ``losers`` and ``ahead`` are unit indices; ``dealer`` and ``leader`` are
    seats (None once the match is over); ``to_go`` is each unit's distance to the end, or
    None where a game has no fixed end; ``tied_at`` is the target the leaders have reached
    level, so that the match goes on, or None; ``hands_to_play`` is the number of hands of a
    match that ends after a fixed number of them, or None.
    """

    units: tuple[tuple[int, ...], ...]
    totals: tuple
    finished: bool
    winners: tuple[int, ...]
    losers: tuple[int, ...]
    ahead: tuple[int, ...]
    dealer: int | None
    leader: int | None
    to_go: tuple | None
    rows: tuple
    # Keyword-only, so that a game's own standings may add fields without defaults.
    tied_at: int | None = field(default=None, kw_only=True)
    hands_to_play: int | None = field(default=None, kw_only=True)


def each_alone(players: int) -> tuple[tuple[int, ...], ...]:
    """Every player a unit of their own."""
    return tuple((seat,) for seat in range(players))
