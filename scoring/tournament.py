"""A club night replayed from what was entered (RULES-NOTES B8): the organiser's setup and
each table's match points give every turn's seating, each result's Victory Points and the
standings after each turn. Nothing derived is stored: a corrected result re-scores the rest."""

import unicodedata
from collections.abc import Mapping, Sequence
from dataclasses import dataclass

from .errors import SetupError
from .movements import (
    BYE_VP,
    Movement,
    Result,
    Seating,
    Standing,
    check_event,
    danish,
    mitchell,
    round_robin,
    standings,
)
from .players import hides_characters
from .values import whole_number
from .victory_points import VictoryPoints

MAX_NAME = 60
HANDS = (2, 3, 4)


@dataclass(frozen=True)
class Setup:
    """What the organiser chose: the pairs' names in their numbered order, the movement, the
    turns and hands a turn, Mitchell's step and what a bye scores."""

    pairs: tuple[str, ...]
    movement: Movement
    turns: int
    hands: int
    step: int = 1
    bye_vp: int = BYE_VP


def read_setup(raw: Mapping) -> Setup:
    """The organiser's form or the API's body, refused with the rule it breaks."""
    names = raw.get("pairs")
    if not isinstance(names, Sequence) or isinstance(names, str):
        raise SetupError("event_pairs_unreadable")
    # As the players' names: NFKC, spaces collapsed (scoring.players).
    names = tuple(" ".join(unicodedata.normalize("NFKC", name).split())
                  if isinstance(name, str) else "" for name in names)
    for number, name in enumerate(names, start=1):
        if not name or len(name) > MAX_NAME:
            raise SetupError("event_pair_name", pair=number, most=MAX_NAME)
        if hides_characters(name):
            raise SetupError("event_pair_hidden", pair=number)
        if "<" in name or ">" in name:
            raise SetupError("event_pair_markup", pair=number)
    if len({name.casefold() for name in names}) < len(names):
        raise SetupError("event_pair_twice")
    try:
        movement = Movement(raw.get("movement"))
    except ValueError:
        raise SetupError("event_movement", known=", ".join(Movement)) from None
    hands = whole_number(raw.get("hands"), "event_hands", min(HANDS), max(HANDS), error=SetupError)
    turns = whole_number(raw.get("turns"), "event_turns_unreadable", 1, 99, error=SetupError)
    step = whole_number(raw.get("step", 1), "mitchell_step_unreadable", 1, 99, error=SetupError)
    bye_vp = whole_number(raw.get("bye_vp", BYE_VP), "event_bye_vp", 0, 1000, error=SetupError)
    check_event(movement, len(names), turns, step)
    return Setup(pairs=names, movement=movement, turns=turns, hands=hands, step=step,
                 bye_vp=bye_vp)


@dataclass(frozen=True)
class Turn:
    """A turn's seating and the results entered for it, by table (0-based)."""

    number: int
    seating: Seating
    results: Mapping[int, Result]

    @property
    def complete(self) -> bool:
        return len(self.results) == len(self.seating.tables)


@dataclass(frozen=True)
class Night:
    """Every turn seated so far; the standings from every result that counts (live), and
    after each turn that is complete along with all before it."""

    setup: Setup
    turns: tuple[Turn, ...]
    standings: tuple[Standing, ...]
    after_each: tuple[tuple[Standing, ...], ...]

    @property
    def finished(self) -> bool:
        return len(self.after_each) == self.setup.turns


DANISH = (Movement.DANISH, Movement.MODIFIED_DANISH)


def _seat(setup: Setup, turn: int, before: Sequence[Turn]) -> Seating:
    pairs = len(setup.pairs)
    if setup.movement is Movement.MITCHELL:
        return mitchell(pairs, turn, setup.step)
    if setup.movement is Movement.ROUND_ROBIN:
        return round_robin(pairs, turn)
    # Danish: the first turn in the listed order, then by the standings so far.
    order = [row.pair for row in _standings(setup, before)] if before else list(range(pairs))
    byes = [done.seating.bye for done in before if done.seating.bye is not None]
    last = before[-1].seating if before and setup.movement is Movement.MODIFIED_DANISH else None
    return danish(pairs, order, byes, last)


def _standings(setup: Setup, turns: Sequence[Turn]) -> list[Standing]:
    return standings(len(setup.pairs),
                     [(turn.seating, list(turn.results.values())) for turn in turns],
                     bye_vp=setup.bye_vp,
                     head_to_head=setup.movement is Movement.ROUND_ROBIN)


def replay(setup: Setup, table: VictoryPoints,
           match_points: Mapping[int, Mapping[int, Sequence[int]]],
           seated: Sequence[Seating] = ()) -> Night:
    """``match_points[turn][table]`` = the (North–South, East–West) match points of a table
    whose result counts (turns and tables from 0). A Danish turn is seated only once the
    turn before it is complete: its pairing comes from that turn's standings. ``seated``
    holds the seatings of the turns already opened, which stand whatever a later correction
    changes in the standings they were drawn from."""
    turns: list[Turn] = []
    for number in range(setup.turns):
        if number < len(seated):
            seating = seated[number]
        elif turns and not turns[-1].complete and setup.movement in DANISH:
            break
        else:
            seating = _seat(setup, number, turns)
        entered = match_points.get(number, {})
        results = {index: Result(pairs=pairs, match_points=tuple(entered[index]),
                                 victory_points=table.of(entered[index]))
                   for index, pairs in enumerate(seating.tables) if index in entered}
        turns.append(Turn(number=number, seating=seating, results=results))
    complete = 0
    while complete < len(turns) and turns[complete].complete:
        complete += 1
    # A turn counts in the live standings from its first result: a bye waiting in a turn
    # not yet played has scored nothing.
    under_way = [turn for turn in turns if turn.results]
    return Night(setup=setup, turns=tuple(turns), standings=tuple(_standings(setup, under_way)),
                 after_each=tuple(tuple(_standings(setup, turns[:count]))
                                  for count in range(1, complete + 1)))
