"""Club nights: the organiser's setup and the pairs' codes, each turn's seating as it was
opened with one match per table, and the confirmations of the tables' results.

What the tables entered stays in their matches; the standings are derived by ``scoring`` on
each read. A confirmation is a change to its match (a new version, news for every phone of
it): it counts until a hand of the match changes or the organiser reopens the result."""

import hmac
import json
import secrets
from dataclasses import dataclass

from . import backend, news
from .backend import address_of, writing
from .errors import ResultConfirmed, StaleEntry
from .matches import Match, _insert_match, match_from_rows, now, select
from .schema import ACTIVE, REPLACED, new_token

CONFIRMED, REOPENED = "confirmed", "reopened"
# A pair's code: four signs that cannot be mistaken for each other when read out in a room.
CODE_SIGNS = "ACDEFHJKLMNPRTUVWXY34679"
CODE_LENGTH = 4
ORGANISER = None  # the side of a confirmation the organiser made for the whole table


def new_code() -> str:
    """A pair's code, shown to the organiser only."""
    return "".join(secrets.choice(CODE_SIGNS) for _ in range(CODE_LENGTH))


@dataclass(frozen=True)
class Confirmation:
    side: int | None
    kind: str
    version: int
    made_at: str


@dataclass(frozen=True)
class Correction:
    """A game of a table's match corrected: its number, when, and the version it made."""

    number: int
    made_at: str
    version: int


@dataclass(frozen=True)
class Table:
    """One table of a turn: its number (from 1) and its match, with what confirmed it and
    the games corrected."""

    number: int
    match: Match
    confirmations: tuple[Confirmation, ...]
    # The version of the last change to the match's hands: a confirmation before it is void.
    changed_at: int
    corrections: tuple[Correction, ...] = ()

    @property
    def confirmed_by(self) -> frozenset:
        """The sides whose confirmation counts now (ORGANISER for the organiser's)."""
        return confirmed_by(self.confirmations, self.changed_at)

    @property
    def confirmed(self) -> bool:
        """Whether the result counts: both pairs or the organiser confirmed it."""
        return is_confirmed(self.confirmed_by)


def confirmed_by(confirmations, changed_at: int) -> frozenset:
    """The sides whose confirmation stands: made after the hands' last change, and after
    the organiser last reopened the result."""
    sides: set = set()
    for confirmation in confirmations:
        if confirmation.kind == REOPENED:
            sides.clear()
        elif confirmation.version > changed_at:
            sides.add(confirmation.side)
    return frozenset(sides)


def is_confirmed(sides) -> bool:
    return ORGANISER in sides or {0, 1} <= set(sides)


@dataclass(frozen=True)
class Turn:
    number: int  # from 0
    seating: dict
    opened_at: str
    tables: tuple[Table, ...]


@dataclass(frozen=True)
class Event:
    id: int
    token: str
    view_token: str
    game: str
    title: str
    setup: dict
    codes: tuple[str, ...]
    created_at: str
    turns: tuple[Turn, ...]
    imported_at: str | None = None

    def code_fits(self, pair: int, code: str) -> bool:
        """Whether ``code`` is pair ``pair``'s (case and spaces aside)."""
        typed = "".join(code.split()).upper().encode()
        return 0 <= pair < len(self.codes) and hmac.compare_digest(typed,
                                                                   self.codes[pair].encode())


@dataclass(frozen=True)
class Seat:
    """Where a match sits in a club night, as its sheet needs it: the night without its turns
    (``get_event`` reads those), the turn with its seating and only this table."""

    event: Event
    turn: Turn
    table: Table


def create_event(db, game: str, title: str, setup: dict, key: str | None = None) -> Event:
    """A new club night, no turn opened yet, with a code for each pair; with a ``key`` seen
    before, the one that key created."""
    return _new_event(db, key, {
        "game": game, "title": title, "setup": json.dumps(setup),
        "codes": json.dumps([new_code() for _ in setup["pairs"]]), "created_at": now(),
        "imported_at": None})


def _new_event(db, key: str | None, fields: dict, write_more=None) -> Event:
    """The night of ``fields`` under new links, written with what ``write_more(event_id)``
    writes in one transaction; the night a ``key`` seen before created, if it did."""
    token = new_token()
    try:
        with writing(db):
            made = _event_created_with(db, key)
            if made:
                return get_event(db, made)
            event_id = backend.insert_row(db, "events", {
                **fields, "token": token, "view_token": new_token(), "creation_key": key})
            if write_more is not None:
                write_more(event_id)
    except backend.INTEGRITY_ERRORS:
        # On PostgreSQL, another server process saved the night of this key meanwhile.
        made = _event_created_with(db, key)
        if not made:
            raise
        token = made
    return get_event(db, token)


def _event_created_with(db, key: str | None) -> str | None:
    row = key and next(select(db, "SELECT token FROM events WHERE creation_key = ?", [key]),
                       None)
    return row and row["token"]


def event_created_with(db, key: str | None) -> Event | None:
    """The club night a request with this key already created (a retry finds it)."""
    token = _event_created_with(db, key)
    return token and get_event(db, token)


def open_turn(db, event: Event, number: int, seating: dict, tables) -> bool:
    """Open turn ``number`` with this seating: one new match per table, ``tables`` giving
    each its (game, players, options, title). Whether this call opened it: two phones
    confirming the last result of the turn before at once open it once."""
    try:
        with writing(db):
            if number != len(_opened_turns(db, event.id)):
                return False
            backend.insert_rows(db, "event_turns", [{
                "event_id": event.id, "turn": number, "seating": json.dumps(seating),
                "opened_at": now()}])
            for table_no, (game, players, options, title) in enumerate(tables, start=1):
                match_id = _insert_match(db, new_token(), game, players, options, now(), (),
                                         title, None, False)
                backend.insert_rows(db, "event_tables", [{
                    "event_id": event.id, "turn": number, "table_no": table_no,
                    "match_id": match_id}])
            # News on the turn before's matches, versions unchanged: a page that follows the
            # night hears of them only, and may have looked just before this turn opened.
            db.execute("UPDATE matches SET version = version WHERE id IN (SELECT match_id "
                       "FROM event_tables WHERE event_id = ? AND turn = ?)",
                       [event.id, number - 1])
    except backend.INTEGRITY_ERRORS:
        return False
    return True


def _opened_turns(db, event_id: int) -> list[dict]:
    return list(select(db, "SELECT * FROM event_turns WHERE event_id = ? ORDER BY turn",
                       [event_id]))


def get_event(db, token: str) -> Event | None:
    """The club night the organiser's link opens."""
    return _event_where(db, "token", token)


def get_watched_event(db, view_token: str) -> Event | None:
    """The club night its watch-only link (the room's screen) shows."""
    return _event_where(db, "view_token", view_token)


def _event_where(db, column: str, value: str) -> Event | None:
    with backend.one_snapshot(db):
        row = next(select(db, f"SELECT * FROM events WHERE {column} = ?", [value]), None)
        if row is None:
            return None
        return _event_from_row(db, row)


def _event_from_row(db, row: dict) -> Event:
    """The event with its turns, tables and their matches, in a few reads for the night."""
    event_id = row["id"]
    rows = list(select(db,
        "SELECT event_tables.turn, event_tables.table_no, matches.*, players.name AS player "
        "FROM event_tables JOIN matches ON matches.id = event_tables.match_id "
        "LEFT JOIN players ON players.match_id = matches.id WHERE event_tables.event_id = ? "
        "ORDER BY event_tables.turn, event_tables.table_no, players.seat", [event_id]))
    hands: dict[int, list] = {}
    changed: dict[int, int] = {}
    corrected: dict[int, list[Correction]] = {}
    for entry in select(db,
            "SELECT entries.match_id, entries.number, entries.data, entries.status, "
            "entries.version, entries.ended_version, entries.ended_at FROM entries "
            "JOIN event_tables ON event_tables.match_id = entries.match_id "
            "WHERE event_tables.event_id = ? ORDER BY entries.number", [event_id]):
        match_id = entry["match_id"]
        if entry["status"] == ACTIVE:
            hands.setdefault(match_id, []).append(json.loads(entry["data"]))
        elif entry["status"] == REPLACED:
            corrected.setdefault(match_id, []).append(Correction(
                entry["number"], entry["ended_at"], entry["ended_version"]))
        changed[match_id] = max(changed.get(match_id, 0), entry["version"] or 0,
                                entry["ended_version"] or 0)
    confirmations: dict[int, list[Confirmation]] = {}
    for found in select(db,
            "SELECT confirmations.* FROM confirmations JOIN event_tables "
            "ON event_tables.match_id = confirmations.match_id "
            "WHERE event_tables.event_id = ? ORDER BY confirmations.version, confirmations.id",
            [event_id]):
        confirmations.setdefault(found["match_id"], []).append(Confirmation(
            found["side"], found["kind"], found["version"], found["made_at"]))
    by_table: dict[tuple[int, int], list[dict]] = {}
    for match_row in rows:
        by_table.setdefault((match_row["turn"], match_row["table_no"]), []).append(match_row)
    turns = []
    for turn_row in _opened_turns(db, event_id):
        tables = []
        for (turn, table_no), match_rows in by_table.items():
            if turn != turn_row["turn"]:
                continue
            match = match_from_rows(db, match_rows, tuple(hands.get(match_rows[0]["id"], ())))
            tables.append(Table(table_no, match, tuple(confirmations.get(match.id, ())),
                                changed.get(match.id, 0), tuple(corrected.get(match.id, ()))))
        turns.append(Turn(turn_row["turn"], json.loads(turn_row["seating"]),
                          turn_row["opened_at"], tuple(tables)))
    return _event_of(row, tuple(turns))


def _event_of(row: dict, turns: tuple[Turn, ...]) -> Event:
    return Event(row["id"], row["token"], row["view_token"], row["game"], row["title"],
                 json.loads(row["setup"]), tuple(json.loads(row["codes"])), row["created_at"],
                 turns, row["imported_at"])


def seat_of(db, match: Match) -> Seat | None:
    """The club night, turn and table a match is played for, if it is one's: a few reads
    of its own, as every view of its sheet and every tap on its panel asks."""
    row = next(select(db,
        "SELECT events.*, event_tables.turn, event_tables.table_no, event_turns.seating, "
        "event_turns.opened_at FROM event_tables JOIN events ON events.id = event_tables.event_id "
        "JOIN event_turns ON event_turns.event_id = event_tables.event_id "
        "AND event_turns.turn = event_tables.turn WHERE event_tables.match_id = ?",
        [match.id]), None)
    if row is None:
        return None
    confirmations, changed_at = _confirmations_of(db, match.id)
    table = Table(row["table_no"], match, confirmations, changed_at)
    return Seat(_event_of(row, ()), Turn(row["turn"], json.loads(row["seating"]),
                                         row["opened_at"], (table,)), table)


def remember_event(db, device: str, event: Event) -> None:
    """Keep the night on the device's home page; one opened before writes nothing."""
    if db.execute("SELECT 1 FROM device_events WHERE device = ? AND event_id = ?",
                  [device, event.id]).fetchone() is not None:
        return
    with writing(db):
        db.execute("INSERT INTO device_events (device, event_id, opened_at) VALUES (?, ?, ?) "
                   "ON CONFLICT (device, event_id) DO NOTHING", [device, event.id, now()])


def device_events(db, device: str) -> list[dict]:
    """The nights the device opened as organiser, newest first: token, title, created_at."""
    return list(select(db, "SELECT events.token, events.title, events.created_at "
                       "FROM device_events JOIN events ON events.id = device_events.event_id "
                       "WHERE device = ? ORDER BY events.created_at DESC, events.id DESC",
                       [device]))


def night_news(db, event: Event) -> tuple[int, int]:
    """How many tables the night has and the sum of their versions: one read that changes
    with every game saved, every confirmation and every turn opened (a version only grows)."""
    row = db.execute("SELECT count(*), coalesce(sum(matches.version), 0) FROM event_tables "
                     "JOIN matches ON matches.id = event_tables.match_id "
                     "WHERE event_tables.event_id = ?", [event.id]).fetchone()
    return int(row[0]), int(row[1])


def event_ids_of(db, event: Event) -> list[int]:
    """The ids of the night's matches: its news is theirs."""
    return [row[0] for row in db.execute("SELECT match_id FROM event_tables WHERE event_id = ?",
                                         [event.id])]


def confirm(db, match: Match, side: int | None, version: int) -> bool:
    """Confirm the match's result as shown at ``version``, for a side (0 or 1) or, with
    ORGANISER, for the table. A result changed since then is a stale confirmation; one the
    side (or the organiser) has already confirmed is confirmed again without a change.
    Whether this call changed anything."""
    return _confirmation(db, match, CONFIRMED, side, version)


def reopen(db, match: Match) -> bool:
    """The organiser takes the table's result back for a correction: every confirmation of
    it ends, and the table's phones may change its hands again."""
    return _confirmation(db, match, REOPENED, ORGANISER, None)


def _confirmation(db, match: Match, kind: str, side: int | None, version: int | None) -> bool:
    try:
        _write_confirmation(db, match, kind, side, version)
    except _NothingToDo:
        return False
    news.publish(address_of(db), match.id)
    return True


def _write_confirmation(db, match: Match, kind: str, side: int | None,
                        version: int | None) -> None:
    with writing(db):
        # Taken first: on PostgreSQL the row's lock makes two phones confirming take turns.
        current = db.execute("UPDATE matches SET version = version + 1 WHERE id = ? "
                             "RETURNING version", [match.id]).fetchone()[0]
        table = _table_state(db, match.id)
        if version is not None and table["changed_at"] > version:
            raise StaleEntry()
        sides = table["sides"]
        if kind == CONFIRMED and (side in sides or is_confirmed(sides)):
            raise _NothingToDo()
        if kind == REOPENED and not sides:
            raise _NothingToDo()
        backend.insert_rows(db, "confirmations", [{
            "match_id": match.id, "side": side, "kind": kind, "version": current,
            "made_at": now()}])


class _NothingToDo(Exception):
    """The confirmation asked for stands already: the write is rolled back."""


def _confirmations_of(db, match_id: int) -> tuple[tuple[Confirmation, ...], int]:
    """A match's confirmations, and the version of its hands' last change."""
    changed_at = db.execute(
        f"SELECT coalesce(max({backend.greatest(db)}(coalesce(version, 0), "
        "coalesce(ended_version, 0))), 0) FROM entries WHERE match_id = ?",
        [match_id]).fetchone()[0]
    confirmations = tuple(Confirmation(row["side"], row["kind"], row["version"], row["made_at"])
                          for row in select(db, "SELECT * FROM confirmations "
                                            "WHERE match_id = ? ORDER BY version, id",
                                            [match_id]))
    return confirmations, changed_at


def _table_state(db, match_id: int) -> dict:
    """What counts of a match's confirmations within a write: the sides, and the version
    of its hands' last change."""
    confirmations, changed_at = _confirmations_of(db, match_id)
    return {"changed_at": changed_at, "sides": confirmed_by(confirmations, changed_at)}


def refuse_if_confirmed(db, match_id: int) -> None:
    """Within a write to a match's hands: a result both pairs (or the organiser) confirmed
    changes only once the organiser reopened it."""
    if db.execute("SELECT 1 FROM confirmations WHERE match_id = ? LIMIT 1",
                  [match_id]).fetchone() is None:
        return
    if is_confirmed(_table_state(db, match_id)["sides"]):
        raise ResultConfirmed()


# --- A club night as one file: its export and its import ----------------------------------

def night_entries(db, event: Event) -> dict[int, list[dict]]:
    """Every entry of the night's matches as entered, by match id, oldest first: statuses and
    times, and the versions that tell which confirmations of a table still count."""
    found: dict[int, list[dict]] = {}
    for row in select(db,
            "SELECT entries.* FROM entries JOIN event_tables "
            "ON event_tables.match_id = entries.match_id WHERE event_tables.event_id = ? "
            "ORDER BY entries.id", [event.id]):
        found.setdefault(row["match_id"], []).append({
            "number": row["number"], "status": row["status"], "data": json.loads(row["data"]),
            "created_at": row["created_at"], "ended_at": row["ended_at"],
            "version": row["version"], "ended_version": row["ended_version"]})
    return found


def import_event(db, game: str, title: str, setup: dict, codes, created_at: str, turns,
                 key: str | None = None) -> Event:
    """A club night from a file, with links of its own, marked as imported now and written
    whole or not at all: each turn's seating and opening as exported, and each table's match
    with its entries and confirmations, their versions kept so that the same confirmations
    count. ``turns``: each a dict of ``seating``, ``opened_at`` and ``tables``, a table a
    dict of ``match`` (the arguments of ``_insert_match`` and its ``version``) and
    ``confirmations``. With a ``key`` seen before, the night that key created."""
    def write_turns(event_id: int) -> None:
        for number, turn in enumerate(turns):
            backend.insert_rows(db, "event_turns", [{
                "event_id": event_id, "turn": number, "seating": json.dumps(turn["seating"]),
                "opened_at": turn["opened_at"]}])
            for table_no, table in enumerate(turn["tables"], start=1):
                _import_table(db, event_id, number, table_no, table)

    return _new_event(db, key, {
        "game": game, "title": title, "setup": json.dumps(setup),
        "codes": json.dumps(list(codes)), "created_at": created_at, "imported_at": now()},
        write_turns)


def _import_table(db, event_id: int, turn: int, table_no: int, table: dict) -> None:
    match, confirmations = table["match"], table["confirmations"]
    match_id = _insert_match(db, new_token(), match["game"], match["players"], match["options"],
                             match["created_at"], match["entries"], match["title"], None, True)
    # The match's version is never behind a change to it: the next one counts on from there.
    version = max([match["version"], *(confirmation["version"] for confirmation in confirmations),
                   *(entry[at] or 0 for entry in match["entries"]
                     for at in ("version", "ended_version"))])
    db.execute("UPDATE matches SET version = ? WHERE id = ?", [version, match_id])
    backend.insert_rows(db, "event_tables", [{"event_id": event_id, "turn": turn,
                                              "table_no": table_no, "match_id": match_id}])
    backend.insert_rows(db, "confirmations", ({**confirmation, "match_id": match_id}
                                              for confirmation in confirmations))
