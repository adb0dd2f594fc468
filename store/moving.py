"""Moving a running installation to another database (a SQLite file to PostgreSQL): every
match copied with its links, versions, keys, players, entries, confirmations, deletion and
the device lists that hold it, then every club night with its turns and the tables that seat
those matches. A match or a night already there (by its link) is brought to the source's
state, so a second run copies what changed since the first and duplicates nothing."""

from . import backend
from .matches import select

MATCH_COLUMNS = ("token", "view_token", "game", "options", "created_at", "version", "title",
                 "deleted_at", "deleted_by", "creation_key", "imported_at")
PLAYER_COLUMNS = ("seat", "name")
ENTRY_COLUMNS = ("number", "data", "status", "created_at", "ended_at", "request_key",
                 "ended_key", "version", "ended_version")
DEVICE_COLUMNS = ("device", "opened_at", "archived_at")
CONFIRMATION_COLUMNS = ("side", "kind", "version", "made_at")
EVENT_COLUMNS = ("token", "view_token", "game", "title", "setup", "codes", "created_at",
                 "creation_key", "imported_at")
TURN_COLUMNS = ("turn", "seating", "opened_at")


def copy_matches(source, target) -> tuple[int, int]:
    """Copy every match of ``source`` into ``target`` (two handles), one match a
    transaction, then every club night, one a transaction; how many matches and nights
    were copied."""
    matches = list(select(source, "SELECT * FROM matches ORDER BY id"))
    for match in matches:
        _copy_match(source, target, match)
    nights = list(select(source, "SELECT * FROM events ORDER BY id"))
    for event in nights:
        _copy_event(source, target, event)
    return len(matches), len(nights)


def _rows_of(source, table: str, columns, owner: int, order: str,
             column: str = "match_id") -> list[dict]:
    return [{name: row[name] for name in columns} for row in select(
        source, f"SELECT * FROM {table} WHERE {column} = ? ORDER BY {order}", [owner])]


def _put(target, table: str, fields: dict, owned, column: str) -> int:
    """The row of ``table`` with the link ``fields["token"]`` made ``fields`` in ``target``,
    emptied of the rows of the tables ``owned`` that name it by ``column``; its id."""
    found = next(select(target, f"SELECT id FROM {table} WHERE token = ?", [fields["token"]]),
                 None)
    if found is None:
        return backend.insert_row(target, table, fields)
    for part in owned:
        target.execute(f"DELETE FROM {part} WHERE {column} = ?", [found["id"]])
    target.execute(f"UPDATE {table} SET {', '.join(f'{c} = :{c}' for c in fields)} "
                   "WHERE id = :id", {**fields, "id": found["id"]})
    return found["id"]


def _copy_match(source, target, match: dict) -> None:
    """The match in ``target`` as it is in ``source``, whole, in one transaction; what
    belongs to it there already is replaced, in the source's order."""
    parts = {"players": _rows_of(source, "players", PLAYER_COLUMNS, match["id"], "seat"),
             "entries": _rows_of(source, "entries", ENTRY_COLUMNS, match["id"], "id"),
             "device_matches": _rows_of(source, "device_matches", DEVICE_COLUMNS,
                                        match["id"], "rowid"),
             "confirmations": _rows_of(source, "confirmations", CONFIRMATION_COLUMNS,
                                       match["id"], "id")}
    with backend.writing(target):
        match_id = _put(target, "matches", {column: match[column] for column in MATCH_COLUMNS},
                        parts, "match_id")
        for table, rows in parts.items():
            backend.insert_rows(target, table, ({**row, "match_id": match_id} for row in rows))


def _copy_event(source, target, event: dict) -> None:
    """The club night in ``target`` as it is in ``source``, in one transaction: its turns,
    its tables seating the matches copied before it (found by their links), and the
    organisers' devices that list it."""
    turns = _rows_of(source, "event_turns", TURN_COLUMNS, event["id"], "turn", "event_id")
    devices = _rows_of(source, "device_events", ("device", "opened_at"), event["id"],
                       "device", "event_id")
    tables = list(select(source,
        "SELECT event_tables.turn, event_tables.table_no, matches.token FROM event_tables "
        "JOIN matches ON matches.id = event_tables.match_id WHERE event_tables.event_id = ? "
        "ORDER BY event_tables.turn, event_tables.table_no", [event["id"]]))
    with backend.writing(target):
        event_id = _put(target, "events", {column: event[column] for column in EVENT_COLUMNS},
                        ("event_tables", "event_turns", "device_events"), "event_id")
        backend.insert_rows(target, "device_events",
                            ({**device, "event_id": event_id} for device in devices))
        backend.insert_rows(target, "event_turns",
                            ({**turn, "event_id": event_id} for turn in turns))
        backend.insert_rows(target, "event_tables", ({
            "event_id": event_id, "turn": table["turn"], "table_no": table["table_no"],
            "match_id": target.execute("SELECT id FROM matches WHERE token = ?",
                                       [table["token"]]).fetchone()[0]} for table in tables))
