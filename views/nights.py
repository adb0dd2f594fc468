"""A club night as its pages and the API show it: the organiser's setup read by the rules,
each table's state from its match, the results that count (confirmed by both pairs or the
organiser), the night replayed from those, and the turns opened as the movement seats them."""

import re
from dataclasses import dataclass
from datetime import datetime

from flask_babel import format_time
from flask_babel import gettext as _

import store
from scoring.games import GAMES, tournament_games
from scoring.movements import Seating
from scoring.tournament import Night, Setup, read_setup, replay
from scoring.victory_points import VictoryPoints

from .loaders import scored
from .titles import verify_title

PLAYERS = 4  # a table is two pairs; partners sit opposite (seats 0 and 2, 1 and 3)
# What joins a pair's two names: "Anna & Carla", "Anna / Carla", "Anna and Carla".
_JOINED = re.compile(r"\s*(?:&|/|\+| and | und | e | y )\s*", re.IGNORECASE)

# The standard table of Victory Points, as a setup names it.
FIBUR = "FIBUR"
# A table's state, as the organiser's page and the room's screen tell it.
NOT_STARTED, PLAYING, TO_CONFIRM, CONFIRMED = "not_started", "playing", "to_confirm", "confirmed"


def night_game() -> str:
    """The game club nights are played in: the one whose rules have Victory Points."""
    return tournament_games()[0]


def night_title(typed: str | None) -> str:
    """The night's title as every page shows it (checked as a match's title is, else
    ``TitleRefused``), or the one every night has where none was typed."""
    return verify_title(typed) if (typed or "").strip() else _("Club night")


def tournament_options(game: str, setup: dict):
    """The options every table's match of the night is kept with, checked by the game's
    rules: its hands a turn and its Victory Points table."""
    return GAMES[game].verify_options(
        {"hands": setup.get("hands"), "victory_points": setup.get("victory_points")}, PLAYERS)


def read_night(game: str, raw: dict) -> tuple[Setup, VictoryPoints]:
    """The organiser's setup and the Victory Points table it names; refused with the rule it
    breaks (a ``ScoringError``)."""
    return read_setup(raw), tournament_options(game, raw).victory_points


def night_setup(game: str, raw: dict) -> dict:
    """The organiser's setup as a night keeps it: read by the rules (a ``ScoringError``
    names the rule it breaks), the pairs' names as every page shows them, the Victory Points
    table as given (its rules read it again with every read)."""
    setup, _table = read_night(game, raw)
    return {"pairs": list(setup.pairs), "movement": setup.movement.value, "turns": setup.turns,
            "hands": setup.hands, "step": setup.step, "bye_vp": setup.bye_vp,
            "victory_points": raw.get("victory_points") or FIBUR}


def pair_players(name: str) -> tuple[str, str]:
    """The two players of a pair named "Anna & Carla"; a pair named otherwise ("Rossi") sits
    as two of that name, told apart by their seats.

    >>> pair_players("Anna & Carla"), pair_players("Rossi")
    (('Anna', 'Carla'), ('Rossi 1', 'Rossi 2'))
    """
    parts = [part for part in _JOINED.split(name.strip()) if part]
    return (parts[0], parts[1]) if len(parts) == 2 else (f"{name} 1", f"{name} 2")


def seating_data(seating: Seating) -> dict:
    return {"tables": [list(pairs) for pairs in seating.tables], "bye": seating.bye}


def seating_of(data: dict) -> Seating:
    return Seating(tables=tuple(tuple(pairs) for pairs in data["tables"]), bye=data["bye"])


@dataclass(frozen=True)
class TableState:
    """One table of a turn as the room sees it."""

    turn: int  # from 0
    number: int  # from 1
    pairs: tuple[int, int]  # (North–South, East–West)
    match: store.Match
    state: str
    game: int  # the game being played (from 1), or the last one when finished
    games: int
    confirmed_by: frozenset  # pairs, and store.events.ORGANISER for the organiser's
    match_points: tuple[int, int] | None
    victory_points: tuple[int, int] | None


@dataclass(frozen=True)
class NightView:
    event: store.events.Event
    setup: Setup
    table: VictoryPoints
    night: Night
    tables: tuple[tuple[TableState, ...], ...]  # by opened turn

    @property
    def current(self) -> int:
        """The turn being played (from 0): the first opened one not complete, else the last."""
        for number, tables in enumerate(self.tables):
            if any(table.state != CONFIRMED for table in tables):
                return number
        return max(len(self.tables) - 1, 0)

    @property
    def finished(self) -> bool:
        return self.night.finished

    def pair_name(self, pair: int | None) -> str:
        return self.setup.pairs[pair] if pair is not None else ""


def _table_state(turn: int, seating: Seating, table: store.events.Table) -> TableState:
    _game, options, standings = scored(table.match)
    played = len(table.match.hands)
    pairs = seating.tables[table.number - 1]
    sides = table.confirmed_by
    by_pairs = frozenset(pairs[side] if side is not None else side for side in sides)
    if table.confirmed and standings.finished:
        state = CONFIRMED
    elif standings.finished:
        state = TO_CONFIRM
    else:
        state = PLAYING if played else NOT_STARTED
    finished = standings.finished
    return TableState(
        turn=turn, number=table.number, pairs=pairs, match=table.match, state=state,
        game=min(played + (0 if finished else 1), options.hands), games=options.hands,
        confirmed_by=by_pairs,
        match_points=tuple(standings.totals) if finished else None,
        victory_points=tuple(standings.victory_points) if finished else None)


def night_of(event: store.events.Event) -> NightView:
    """The night as it stands: every opened table's state and the standings from the
    results that count."""
    setup, table = read_night(event.game, event.setup)
    seated = [seating_of(turn.seating) for turn in event.turns]
    states = tuple(tuple(_table_state(turn.number, seated[turn.number], found)
                         for found in turn.tables) for turn in event.turns)
    counted = {}
    for tables in states:
        for state in tables:
            if state.state == CONFIRMED:
                counted.setdefault(state.turn, {})[state.number - 1] = state.match_points
    return NightView(event, setup, table, replay(setup, table, counted, seated), states)


def open_seated_turns(db, event: store.events.Event) -> store.events.Event:
    """Open the next turn once every table of the one before counts (the first at once):
    one match per table, its pairs seated by the movement. The event as it is then."""
    while True:
        view = night_of(event)
        opened = len(event.turns)
        if opened == len(view.night.turns) or opened == view.setup.turns:
            return event
        if event.turns and any(state.state != CONFIRMED for state in view.tables[-1]):
            return event
        seating = view.night.turns[opened].seating
        options = tournament_options(event.game, event.setup).to_dict()
        tables = []
        for number, (north_south, east_west) in enumerate(seating.tables, start=1):
            (first, third), (second, fourth) = (pair_players(view.setup.pairs[north_south]),
                                                pair_players(view.setup.pairs[east_west]))
            title = _("%(event)s: turn %(turn)s, table %(table)s", event=event.title,
                      turn=opened + 1, table=number)
            tables.append((event.game, (first, second, third, fourth), options, title))
        store.events.open_turn(db, event, opened, seating_data(seating), tables)
        event = store.events.get_event(db, event.token)


def seat_at(event: store.events.Event, turn: int, table: int) -> store.events.Seat | None:
    """Table ``table`` of turn ``turn`` (both from 1), if the night has opened it."""
    if not 1 <= turn <= len(event.turns):
        return None
    opened = event.turns[turn - 1]
    found = next((found for found in opened.tables if found.number == table), None)
    return found and store.events.Seat(event, opened, found)


@dataclass(frozen=True)
class NotConfirmed:
    """Why a table's result was not confirmed: a stable code, the reason in the reader's
    language, and the status that answers it."""

    code: str
    message: str
    status: int


def confirm_result(db, seat: store.events.Seat, side: int | None, version: int,
                   code: str = "") -> NotConfirmed | None:
    """Confirm a table's result as shown at ``version``: for a pair (side 0 or 1) with its
    code, or for the whole table (store.events.ORGANISER); the next turn opens once the
    turn counts. None when it stands confirmed, else why not; a refusal changes nothing."""
    table = seat.table.number
    state = _table_state(seat.turn.number, seating_of(seat.turn.seating), seat.table)
    by_organiser = side is store.events.ORGANISER
    if state.match_points is None:
        return NotConfirmed("result_not_finished", _(
            "Table %(table)s has not played its last game yet.", table=table)
            if by_organiser else _("The result can be confirmed after the last game."), 422)
    if not by_organiser:
        pair = seat.turn.seating["tables"][table - 1][side]
        if not seat.event.code_fits(pair, code):
            return NotConfirmed("wrong_code", _(
                "That is not the code of %(pair)s. The organiser has it.",
                pair=seat.event.setup["pairs"][pair]), 422)
    try:
        store.events.confirm(db, seat.table.match, side, version)
    except store.StaleEntry:
        return NotConfirmed("result_changed", _(
            "Table %(table)s changed its result meanwhile: check it and confirm again.",
            table=table) if by_organiser else _(
            "The result changed on another phone: check it and confirm again."), 409)
    open_seated_turns(db, store.events.get_event(db, seat.event.token))
    return None


@dataclass(frozen=True)
class LogLine:
    at: str  # ISO 8601, UTC
    time: str  # as the reader's clock shows it
    text: str


def event_log(event: store.events.Event) -> list[LogLine]:
    """The night's confirmations and what changed after them, newest first: every reopening
    and every game corrected after the table's first confirmation."""
    setup = read_setup(event.setup)
    lines = []
    for turn in event.turns:
        for table in turn.tables:
            where = {"turn": turn.number + 1, "table": table.number}
            pairs = turn.seating["tables"][table.number - 1]
            for made in table.confirmations:
                if made.kind == store.events.REOPENED:
                    text = _("Turn %(turn)s, table %(table)s: the organiser reopened the "
                             "result.", **where)
                elif made.side is None:
                    text = _("Turn %(turn)s, table %(table)s: the organiser confirmed the "
                             "result.", **where)
                else:
                    text = _("Turn %(turn)s, table %(table)s: %(pair)s confirmed the result.",
                             pair=setup.pairs[pairs[made.side]], **where)
                lines.append((made.made_at, made.version, text))
            first = min((made.version for made in table.confirmations), default=None)
            for correction in table.corrections:
                if first is not None and correction.version > first:
                    lines.append((correction.made_at, correction.version, _(
                        "Turn %(turn)s, table %(table)s: game %(game)s corrected.",
                        game=correction.number, **where)))
    # A table's changes within one second in the order its versions say.
    lines.sort(key=lambda line: line[:2], reverse=True)
    return [LogLine(at, format_time(datetime.fromisoformat(at), "short"), text)
            for at, _version, text in lines]
