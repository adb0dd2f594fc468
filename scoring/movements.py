"""Movements: which pair plays which at which table, turn by turn, and the standings they
are drawn from (RULES-NOTES B8). Pairs are numbered from 0 in the order the organiser lists
them; tables from 1. A pair left without opponents in a turn has the bye."""

from collections.abc import Sequence
from dataclasses import dataclass, field
from enum import StrEnum
from math import gcd

from .errors import SetupError

MIN_PAIRS = 2
MAX_PAIRS = 200
MAX_TURNS = 30
BYE_VP = 12  # B8: "the pair without opponents scores 12 VP and 0 MP"


class Movement(StrEnum):
    MITCHELL = "mitchell"
    DANISH = "danish"
    MODIFIED_DANISH = "modified_danish"
    ROUND_ROBIN = "round_robin"


@dataclass(frozen=True)
class Seating:
    """One turn: ``tables[i]`` is the (North–South, East–West) pair at table i + 1; ``bye``
    the pair that sits out, if any."""

    tables: tuple[tuple[int, int], ...]
    bye: int | None = None

    def opponent(self, pair: int) -> int | None:
        for north_south, east_west in self.tables:
            if pair in (north_south, east_west):
                return east_west if pair == north_south else north_south
        return None


@dataclass(frozen=True)
class Result:
    """A table's result in a turn: both pairs' match points and Victory Points."""

    pairs: tuple[int, int]
    match_points: tuple[int, int]
    victory_points: tuple[int, int]


@dataclass
class Standing:
    pair: int
    victory_points: int = 0
    match_points: int = 0
    played: int = 0
    byes: int = 0
    rank: int = 0
    met: list[int] = field(default_factory=list)


def tables_for(pairs: int) -> int:
    return (pairs + 1) // 2


def most_turns(movement: Movement, pairs: int, step: int = 1) -> int:
    """How many turns the movement plays before a pair would meet another a second time
    (Mitchell, round robin); Danish may go on, its rematches being the standings' own."""
    tables = tables_for(pairs)
    if movement is Movement.MITCHELL:
        return tables // gcd(step, tables)
    if movement is Movement.ROUND_ROBIN:
        return 2 * tables - 1
    return MAX_TURNS


def check_event(movement: Movement, pairs: int, turns: int, step: int = 1) -> None:
    """The organiser's choices, refused with the rule they break."""
    if not MIN_PAIRS <= pairs <= MAX_PAIRS:
        raise SetupError("event_pairs", least=MIN_PAIRS, most=MAX_PAIRS)
    tables = tables_for(pairs)
    if movement is Movement.MITCHELL:
        if tables % 2:
            raise SetupError("mitchell_even_tables", tables=tables)
        if not 1 <= step < tables:
            raise SetupError("mitchell_step", most=tables - 1)
    elif step != 1:
        raise SetupError("step_mitchell_only")
    most = min(most_turns(movement, pairs, step), MAX_TURNS)
    if not 1 <= turns <= most:
        raise SetupError("event_turns", most=most)


def mitchell(pairs: int, turn: int, step: int = 1) -> Seating:
    """North–South pairs (the first half of the list) stay at their table; East–West pairs
    move up ``step`` tables each turn, the last table's to the first. ``turn`` from 0."""
    tables = tables_for(pairs)
    seats = [[north_south, None] for north_south in range(tables)]
    for place in range(tables):
        east_west = tables + place
        seats[(place + turn * step) % tables][1] = east_west
    return _seating(seats, pairs)


def round_robin(pairs: int, turn: int) -> Seating:
    """Each pair meets each other once, by the circle: the first pair stays, the others
    turn round it one place a turn. ``turn`` from 0."""
    places = 2 * tables_for(pairs)
    circle = [0, *((index - 1 + turn) % (places - 1) + 1 for index in range(1, places))]
    seats = []
    for table in range(places // 2):
        one, other = circle[table], circle[places - 1 - table]
        # Who sits North–South alternates, so no pair keeps the same seat all evening.
        seats.append([one, other] if (turn + table) % 2 == 0 else [other, one])
    return _seating(seats, pairs)


def danish(pairs: int, order: Sequence[int], byes_had: Sequence[int] = (),
           last: Seating | None = None) -> Seating:
    """By the standings (``order``, best first): 1st meets 2nd, 3rd meets 4th …; with an odd
    number of pairs the lowest placed pair that has not sat out yet has the bye. ``last``
    (modified Danish): no pair meets its opponent of the last turn again where any pairing
    avoids it."""
    bye = None
    playing = list(order)
    if pairs % 2:
        bye = next((pair for pair in reversed(playing) if pair not in byes_had), playing[-1])
        playing.remove(bye)
    paired = _pair_down(playing, last) if last else None
    if paired is None:
        paired = [(playing[index], playing[index + 1]) for index in range(0, len(playing), 2)]
    return Seating(tables=tuple(paired), bye=bye)


def _pair_down(playing: list[int], last: Seating) -> list[tuple[int, int]] | None:
    """The pairing closest to the standings' order with no rematch of ``last``: the top
    free pair takes the next free pair it did not just meet, backing up where it must."""
    if not playing:
        return []
    top, rest = playing[0], playing[1:]
    for index, other in enumerate(rest):
        if last.opponent(top) == other:
            continue
        below = _pair_down(rest[:index] + rest[index + 1:], last)
        if below is not None:
            return [(top, other), *below]
    return None


def _seating(seats: list[list[int | None]], pairs: int) -> Seating:
    """A pair numbered beyond the list is nobody: its opponent has the bye."""
    tables, bye = [], None
    for north_south, east_west in seats:
        if north_south >= pairs or east_west >= pairs:
            bye = north_south if east_west >= pairs else east_west
        else:
            tables.append((north_south, east_west))
    return Seating(tables=tuple(tables), bye=bye)


def standings(pairs: int, turns: Sequence[tuple[Seating, Sequence[Result]]],
              bye_vp: int = BYE_VP, head_to_head: bool = False) -> list[Standing]:
    """Every pair by total VP, then total match points; ``head_to_head`` (round robin) puts
    the VP the tied pairs took from each other before the match points. Pairs that stay
    level share a rank."""
    rows = [Standing(pair) for pair in range(pairs)]
    between: dict[tuple[int, int], int] = {}
    for seating, results in turns:
        if seating.bye is not None:
            rows[seating.bye].victory_points += bye_vp
            rows[seating.bye].byes += 1
        for result in results:
            for own, other, mp, vp in zip(result.pairs, reversed(result.pairs),
                                          result.match_points, result.victory_points, strict=True):
                rows[own].victory_points += vp
                rows[own].match_points += mp
                rows[own].played += 1
                rows[own].met.append(other)
                between[own, other] = between.get((own, other), 0) + vp

    def key(row: Standing, tied: Sequence[Standing]) -> tuple:
        mutual = sum(between.get((row.pair, other.pair), 0) for other in tied)
        return (-row.victory_points, -mutual if head_to_head else 0, -row.match_points)

    groups: dict[int, list[Standing]] = {}
    for row in rows:
        groups.setdefault(row.victory_points, []).append(row)
    ordered = sorted(rows, key=lambda row: (key(row, groups[row.victory_points]), row.pair))
    for place, row in enumerate(ordered):
        before = ordered[place - 1] if place else None
        level = before is not None and key(before, groups[before.victory_points]) == key(
            row, groups[row.victory_points])
        row.rank = before.rank if level else place + 1
    return ordered
