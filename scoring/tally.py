"""What Burraco and Buraco share in keeping score: card points as players type them, what
all the cards hold, a hand's row on the sheet, and a match played to a target (RULES-NOTES
B3, B6; C1 for Buraco)."""

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass

from .errors import HandError, SetupError
from .match import Standings
from .values import whole_number

MAX_TARGET = 10000


def _multiple_of_five(value: int, side: int) -> int:
    """Every card counts a multiple of 5, so every honest count is one."""
    if value % 5:
        raise HandError("points_multiple_of_five", value=value, side=side + 1)
    return value


def card_points(raw: Mapping, field: str, side: int, high: int, low: int = 0) -> int:
    """Card points typed for ``field``: whole, from ``low`` to ``high``, a multiple of 5."""
    value = whole_number(raw.get(field) or 0, f"{field}_range", low, high, error=HandError,
                         side=side + 1)
    return _multiple_of_five(value, side)


def paper_total(raw: Mapping, side: int, highest: int) -> int | None:
    """A side's score counted on paper (``{"total": -35}``), or None when it gave its parts."""
    if "total" not in raw:
        return None
    if raw["total"] in (None, ""):
        # A side switched to its total with the box left empty has said nothing yet.
        raise HandError("total_missing", side=side + 1)
    total = whole_number(raw["total"], "total_range", -highest, highest, error=HandError,
                         side=side + 1)
    return _multiple_of_five(total, side)


def verify_cards_together(sides: Sequence, high: int, table_high: int | None = None) -> None:
    """All sides' table points together, and all their hand points, come from the same
    cards: neither sum can pass their total ``high`` (B6), nor the table points what can be
    melded, ``table_high`` where that is less (C4). The side with the most is named."""
    counted = [(index, side) for index, side in enumerate(sides) if side.total is None]
    for field, most in (("table_points", table_high or high), ("hand_points", high)):
        values = {index: getattr(side, field) for index, side in counted}
        if sum(values.values()) <= most:
            continue
        index = max(values, key=values.get)
        found = {"side": index + 1, "value": values[index], "total": sum(values.values()),
                 "high": most}
        if field == "table_points":
            raise HandError("table_points_together", **found)
        raise HandError("hand_points_together", **found)


def read_target(raw: Mapping, usual: Sequence[int]) -> int:
    """The target, the first usual one by default."""
    chosen = raw.get("target")
    return whole_number(usual[0] if chosen in (None, "") else chosen, "target_range", 5,
                        MAX_TARGET, error=SetupError)


@dataclass(frozen=True)
class HandRow:
    number: int
    dealer: int
    sides: tuple[tuple[int, ...], ...]
    parts: tuple
    gains: tuple
    totals: tuple

    @property
    def scores(self) -> tuple[int, ...]:
        return tuple(side.score for side in self.parts)


def row_json(options, row: HandRow) -> dict:
    """A hand of the standings as plain data, as the API shows it."""
    return {"number": row.number, "dealer": row.dealer,
            "sides": [list(seats) for seats in row.sides],
            "entries": [part.as_dict() for part in row.parts], "scores": list(row.scores),
            "gains": list(row.gains), "totals": list(row.totals)}


def _exact(value):
    """Halves stay halves (three Burraco players share a side's score), whole numbers stay
    ints."""
    return int(value) if value == int(value) else float(value)


def tied_at_target(totals, target: int) -> bool:
    """The most points, at or over the target, are held by more than one: one more hand
    decides (seed 002, "Partieende").

    >>> tied_at_target((2010, 2010), 2005), tied_at_target((2010, 2005), 2005)
    (True, False)
    """
    best = max(totals)
    return best >= target and list(totals).count(best) > 1


def _winner(totals, target: int) -> int | None:
    """Once someone reaches the target, the most points win; a tie at the top plays on."""
    if max(totals) < target or tied_at_target(totals, target):
        return None
    return list(totals).index(max(totals))


# What one stored hand gives: the seats of its sides, their entries, and each unit's gain.
HandScorer = Callable[[Mapping], tuple[tuple[tuple[int, ...], ...], Sequence, Sequence]]


def _over(totals, target: int, played: int, fixed: int | None) -> bool:
    """A match of ``fixed`` hands ends after the last of them; one to a target once it has a
    winner."""
    return played >= fixed if fixed else _winner(totals, target) is not None


def replay(hands: Sequence[Mapping], players: int, first_dealer: int, target: int,
           units: tuple[tuple[int, ...], ...], score_hand: HandScorer,
           known: Standings | None = None, fixed: int | None = None) -> Standings:
    """Replay the hands: each one's parts and gains, running totals, the next deal, the end.

    The deal goes clockwise: the next player in the order of play deals, and the one after
    the dealer leads. Once a unit has reached the target the most points win, and a tie at
    the top plays one more hand (seed 002, "Partieende"). A match of ``fixed`` hands (a
    tournament's, B8) has no target: it ends after them, and the most points win, level
    ones together. ``known``, the standings of the first hands, lets the replay go on from
    them.
    """
    totals, rows, finished = [0] * len(units), [], False
    if known is not None:
        totals, rows, finished = list(known.totals), list(known.rows), known.finished
    for index, raw in enumerate(hands[len(rows):], start=len(rows)):
        if finished:
            raise HandError("hand_after_end", number=index + 1)
        sides, parts, gains = score_hand(raw)
        totals = [total + gain for total, gain in zip(totals, gains)]
        rows.append(HandRow(index + 1, (first_dealer + index) % players, sides, tuple(parts),
                            tuple(map(_exact, gains)), tuple(map(_exact, totals))))
        finished = _over(totals, target, len(rows), fixed)
    dealer = None if finished else (first_dealer + len(hands)) % players
    best = max(totals)
    ahead = tuple(unit for unit, total in enumerate(totals) if total == best)
    winners = ahead if finished else ()
    return Standings(
        units=units, totals=tuple(_exact(total) for total in totals), finished=finished,
        winners=winners,
        losers=tuple(unit for unit in range(len(units)) if finished and unit not in winners),
        ahead=ahead if hands else (),
        dealer=dealer, leader=None if dealer is None else (dealer + 1) % players,
        to_go=None if fixed else tuple(_exact(max(target - total, 0)) for total in totals),
        rows=tuple(rows),
        tied_at=target if not fixed and tied_at_target(totals, target) else None,
        hands_to_play=fixed,
    )
