"""Matches: started or imported whole, read by either of their links with their players and
live hands, renamed, deleted (restorable for 30 days) and purged.

Only what the players entered is stored; standings are derived by ``scoring`` on each read.
"""

import json
import time
from dataclasses import dataclass
from datetime import UTC, datetime, timedelta

from . import backend, damage, news
from .backend import address_of, writing
from .connection import path_of
from .errors import Damaged, MatchDeleted
from .schema import ACTIVE, new_token


def clock() -> datetime:
    """The time now, in UTC (a test sets its own clock here)."""
    return datetime.now(UTC)


def now() -> str:
    """The time now as stored, to the second."""
    return clock().isoformat(timespec="seconds")


@dataclass(frozen=True)
class Match:
    id: int
    token: str
    game: str
    options: dict
    players: tuple[str, ...]
    hands: tuple[dict, ...]
    created_at: str
    version: int
    view_token: str
    # The table's own name for the match; None: the pages name it by its game and date.
    title: str | None = None
    # When a match file brought it here; None: started here.
    imported_at: str | None = None


def create_match(db, game: str, players, options: dict, key: str | None = None) -> Match:
    """A new match; with a ``key`` (a client's idempotency key) seen before, the match that
    key created. It is written as an import of no entries, beginning now."""
    return import_match(db, game, players, options, now(), (), key=key, imported=False)


def import_match(db, game: str, players, options: dict, created_at: str,
                 entries, title: str | None = None, key: str | None = None,
                 imported: bool = True) -> Match:
    """A new match with a link of its own holding these entries (statuses and times kept),
    written whole or not at all, marked as imported now unless ``imported`` is false; with a
    ``key`` seen before, the match that key created."""
    token = new_token()
    try:
        with writing(db):
            made = _created_with(db, key)
            if made:
                return get_match(db, made)
            _insert_match(db, token, game, players, options, created_at, entries, title, key,
                          imported)
    except backend.INTEGRITY_ERRORS:
        # On PostgreSQL, another server process saved the match of this key meanwhile.
        made = _created_with(db, key)
        if not made:
            raise
        token = made
    return get_match(db, token)


def _insert_match(db, token: str, game: str, players, options: dict, created_at: str,
                  entries, title: str | None, key: str | None, imported: bool) -> int:
    match_id = backend.insert_row(db, "matches", {
        "token": token, "view_token": new_token(), "game": game,
        "options": json.dumps(options), "created_at": created_at, "title": title,
        "creation_key": key, "imported_at": now() if imported else None,
    })
    backend.insert_rows(db, "players", (
        {"match_id": match_id, "seat": seat, "name": name} for seat, name in enumerate(players)
    ))
    backend.insert_rows(db, "entries", (
        {**entry, "match_id": match_id, "data": json.dumps(entry["data"])} for entry in entries
    ))
    return match_id


def _created_with(db, key: str | None) -> str | None:
    """The edit token of the match this key created, if it created one."""
    row = key and next(select(db, "SELECT token FROM matches WHERE creation_key = ?", [key]),
                       None)
    return row and row["token"]


def match_created_with(db, key: str | None) -> Match | None:
    """The match a request with this key already created (a retry finds it)."""
    token = _created_with(db, key)
    return token and get_match(db, token)


def get_match(db, token: str) -> Match | None:
    """The match this (edit) link opens."""
    return _match_where(db, "token", token)


def get_watched_match(db, view_token: str) -> Match | None:
    """The match this read-only link shows."""
    return _match_where(db, "view_token", view_token)


# Unknown links are cheap to send and a scan of the matches is not: one scan a database in
# this long, the other unknown links meanwhile answered 404 at once.
SCAN_EVERY = 10.0  # seconds
_scanned_at: dict[str, float] = {}


def verify_unknown(db, link: str) -> None:
    """Raise ``Damaged`` if the matches table holds this link though its indexes find none:
    a damaged index page would answer a match's link as unknown. It reads the whole table,
    only for a link about to be answered 404, and at most every ``SCAN_EVERY``."""
    if backend.on_postgres(db):  # PostgreSQL keeps its indexes itself
        return
    now, path = time.monotonic(), path_of(db)
    if now - _scanned_at.get(path, -SCAN_EVERY) < SCAN_EVERY:
        return
    _scanned_at[path] = now
    scanned = db.execute("SELECT token = :link FROM matches NOT INDEXED "
                         "WHERE token = :link OR view_token = :link", {"link": link}).fetchone()
    if scanned is None:
        return
    column = "token" if scanned[0] else "view_token"
    if db.execute(f"SELECT 1 FROM matches WHERE {column} = ?", [link]).fetchone() is None:
        problem = f"the index of the matches' {column}s misses one"
        damage.remember(path_of(db), problem)
        raise Damaged(path_of(db), problem)


def match_state(db, link: str, read_only: bool) -> tuple[int, int, str | None, bool] | None:
    """The id, version, title and whether it is deleted of the match behind an edit link
    (or, ``read_only``, a view link): one indexed lookup, for the news of a match. A match
    deleted longer ago than can be undone is none."""
    column = "view_token" if read_only else "token"
    row = db.execute(f"SELECT id, version, title, deleted_at FROM matches "
                     f"WHERE {column} = ?", [link]).fetchone()
    if row is None or (row[3] and row[3] < restorable_since()):
        return None
    return row[0], row[1], row[2], bool(row[3])


def shown_version(db, link: str) -> int | None:
    """The version of the match behind a link, unless it was deleted: the version the
    API's answer for that link is kept by."""
    row = db.execute("SELECT version FROM matches WHERE (token = :link OR "
                     "view_token = :link) AND deleted_at IS NULL", {"link": link}).fetchone()
    return row and row[0]


def select(db, sql: str, params=()):
    """The rows a read gives, as dicts. Read through ``execute``, which a handle of either
    database has: sqlite-utils' ``query`` wraps each read in a savepoint, two statements
    more for every read."""
    cursor = db.execute(sql, params)
    names = [column[0] for column in cursor.description]
    return (dict(zip(names, row)) for row in cursor)


def _match_where(db, column: str, value: str) -> Match | None:
    """The match whose ``column`` holds ``value``; a deleted one raises ``MatchDeleted``, and
    one deleted longer ago than can be undone is gone (None), purged or not yet."""
    with backend.one_snapshot(db):
        # One read for the match and its players.
        rows = list(select(db, "SELECT matches.*, players.name AS player FROM matches "
                           "LEFT JOIN players ON players.match_id = matches.id "
                           f"WHERE matches.{column} = ? ORDER BY players.seat", [value]))
        if not rows:
            return None
        row = rows[0]
        if row["deleted_at"]:
            if row["deleted_at"] < restorable_since():
                return None
            raise MatchDeleted(match_from_rows(db, rows), column == "view_token",
                               restorable_until(row["deleted_at"]))
        return match_from_rows(db, rows)


def match_from_rows(db, rows: list[dict], hands: tuple[dict, ...] | None = None) -> Match:
    """The match read as a row for each of its players (or one row, if it has none), in
    seat order, the name in ``player``; its live ``hands`` read here unless given."""
    row = rows[0]
    return Match(row["id"], row["token"], row["game"], json.loads(row["options"]),
                 tuple(r["player"] for r in rows if r["player"] is not None),
                 active_hands(db, row["id"]) if hands is None else hands, row["created_at"],
                 row["version"], row["view_token"], row["title"], row["imported_at"])


def active_hands(db, match_id: int) -> tuple[dict, ...]:
    """The live hands of the match, in order."""
    return tuple(json.loads(r["data"]) for r in select(db,
        "SELECT data FROM entries WHERE match_id = ? AND status = ? ORDER BY number",
        [match_id, ACTIVE]))


# --- A match's title and its deletion ------------------------------------------------------

# How long a deleted match can be restored before it is removed for good.
KEPT_DELETED = timedelta(days=30)


def restorable_since() -> str:
    """Matches deleted before this moment can no longer be restored."""
    return (clock() - KEPT_DELETED).isoformat(timespec="seconds")


def restorable_until(deleted_at: str) -> str:
    """Until when a match deleted at ``deleted_at`` can be restored."""
    return (datetime.fromisoformat(deleted_at) + KEPT_DELETED).isoformat(timespec="seconds")


def rename_match(db, match: Match, title: str) -> None:
    """Give the match the title every phone will show."""
    with writing(db):
        db.execute("UPDATE matches SET title = ? WHERE id = ?", [title, match.id])
    news.publish(address_of(db), match.id)


def delete_match(db, match: Match, device: str) -> None:
    """Delete the match on every phone, restorable for 30 days (the device that deleted it
    is offered the undo); matches deleted longer ago go for good now."""
    with writing(db):
        # A new version: a phone that asks whether the match changed finds out.
        db.execute("UPDATE matches SET deleted_at = ?, deleted_by = ?, version = version + 1 "
                   "WHERE id = ?", [now(), device, match.id])
    news.publish(address_of(db), match.id)
    purge_deleted(db)


def restore_match(db, token: str) -> bool:
    """Bring back the deleted match behind this edit link, if it can still be restored."""
    with writing(db):
        return db.execute(
            "UPDATE matches SET deleted_at = NULL, deleted_by = NULL "
            "WHERE token = ? AND deleted_at >= ?", [token, restorable_since()]).rowcount == 1


def purge_deleted(db) -> int:
    """Remove the matches deleted longer ago than can be undone, with everything stored of
    them; how many went."""
    doomed = [row["id"] for row in select(db, "SELECT id FROM matches WHERE deleted_at < ?",
                                           [restorable_since()])]
    if not doomed:
        return 0
    marks = ", ".join("?" * len(doomed))
    with writing(db):
        for table, column in backend.references_to_matches(db):
            db.execute(f'DELETE FROM "{table}" WHERE "{column}" IN ({marks})', doomed)
        db.execute(f"DELETE FROM matches WHERE id IN ({marks})", doomed)
    return len(doomed)
