"""Moving a running installation to another database (a SQLite file to PostgreSQL): every
match copied with its links, versions, keys, players, entries, deletion and the device lists
that hold it. A match already there (by its link) is brought to the source's state, so a
second run copies what changed since the first and duplicates nothing."""

from . import backend
from .matches import select

MATCH_COLUMNS = ("token", "view_token", "game", "options", "created_at", "version", "title",
                 "deleted_at", "deleted_by", "creation_key", "imported_at")
PLAYER_COLUMNS = ("seat", "name")
ENTRY_COLUMNS = ("number", "data", "status", "created_at", "ended_at", "request_key",
                 "ended_key", "version", "ended_version")
DEVICE_COLUMNS = ("device", "opened_at", "archived_at")


def copy_matches(source, target) -> int:
    """Copy every match of ``source`` into ``target`` (two handles), one match a
    transaction; how many were copied."""
    copied = 0
    for match in list(select(source, "SELECT * FROM matches ORDER BY id")):
        _copy_match(source, target, match)
        copied += 1
    return copied


def _rows_of(source, table: str, columns, match_id: int, order: str) -> list[dict]:
    return [{column: row[column] for column in columns} for row in select(
        source, f"SELECT * FROM {table} WHERE match_id = ? ORDER BY {order}", [match_id])]


def _copy_match(source, target, match: dict) -> None:
    """The match in ``target`` as it is in ``source``, whole, in one transaction; what
    belongs to it there already is replaced, in the source's order."""
    players = _rows_of(source, "players", PLAYER_COLUMNS, match["id"], "seat")
    entries = _rows_of(source, "entries", ENTRY_COLUMNS, match["id"], "id")
    devices = _rows_of(source, "device_matches", DEVICE_COLUMNS, match["id"], "rowid")
    fields = {column: match[column] for column in MATCH_COLUMNS}
    with backend.writing(target):
        found = next(select(target, "SELECT id FROM matches WHERE token = ?",
                            [match["token"]]), None)
        if found is None:
            match_id = backend.insert_row(target, "matches", fields)
        else:
            match_id = found["id"]
            for table in ("players", "entries", "device_matches"):
                target.execute(f"DELETE FROM {table} WHERE match_id = ?", [match_id])
            target.execute(f"UPDATE matches SET {', '.join(f'{c} = :{c}' for c in fields)} "
                           "WHERE id = :id", {**fields, "id": match_id})
        for table, rows in (("players", players), ("entries", entries),
                            ("device_matches", devices)):
            backend.insert_rows(target, table, ({**row, "match_id": match_id} for row in rows))
