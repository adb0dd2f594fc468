"""A match's hands as entries: saved, corrected and taken back against the version a phone
was shown, and the history of what each change did.

An entry is never deleted: an edit or an undo marks it replaced or undone and keeps it.
"""

import json
from dataclasses import dataclass, replace

from . import events, news
from .backend import INTEGRITY_ERRORS, address_of, writing
from .errors import MatchFull, StaleEntry
from .matches import Match, now, select
from .schema import ACTIVE, REPLACED, UNDONE

# A long evening is a few hundred entries; far more is no match played at a table, and
# every page re-scores the whole match.
MAX_ENTRIES = 5000

# The entries a change after :version created or ended, each found through its index of
# versions (an OR of the two would read every entry of the match). The status is written
# out where an index holds only the live entries or only the others, so that SQLite may
# use it.
_CHANGED_SINCE = ("SELECT * FROM entries WHERE match_id = :match AND version > :version "
                  "UNION SELECT * FROM entries WHERE match_id = :match "
                  f"AND status != '{ACTIVE}' AND ended_version > :version")
# How many hands a match has: they are numbered 1, 2, 3 … without gaps (a new hand goes
# after the last, an undo takes back the last, an import is checked for it), so the
# highest number, read off the end of entries_live, is their count.
_LIVE_COUNT = ("SELECT coalesce(max(number), 0) FROM entries "
               f"WHERE match_id = :match AND status = '{ACTIVE}'")
# How many entries a match has, live and replaced or undone.
_ENTRY_COUNT = (f"({_LIVE_COUNT}) + (SELECT count(*) FROM entries "
                f"WHERE match_id = :match AND status != '{ACTIVE}')")


@dataclass(frozen=True)
class PastEntry:
    """An entry an edit replaced or an undo took back, kept for the match's history."""

    id: int
    number: int
    data: dict
    status: str
    created_at: str
    ended_at: str


@dataclass(frozen=True)
class Change:
    """What one change did to a match: ``saved``, ``corrected`` or ``undone`` hand
    ``number``; ``data`` is the entry saved (for an undo, the entry taken back)."""

    kind: str
    number: int
    data: dict


def add_hand(db, match: Match, data: dict, version: int,
             key: str | None = None) -> Match | None:
    """Store the next hand, unless the match changed since ``version`` was shown; the match
    as it left it (see ``_changed``)."""
    new_version = _change_entries(db, match, version, lambda new_version:
                                  _insert_entry(db, match, None, data, new_version, key))
    return _changed(match, version, new_version, (*match.hands, _as_read(data)))


def replace_hand(db, match: Match, number: int, data: dict, version: int,
                 key: str | None = None) -> Match | None:
    """Put a corrected entry in place of hand ``number``; the old one is kept. The match as
    it left it (see ``_changed``)."""
    def correct(new_version: int) -> None:
        _retire(db, match, number, REPLACED, new_version)
        _insert_entry(db, match, number, data, new_version, key)

    new_version = _change_entries(db, match, version, correct)
    return _changed(match, version, new_version,
                    (*match.hands[:number - 1], _as_read(data), *match.hands[number:]))


def undo_last_hand(db, match: Match, version: int, key: str | None = None) -> Match | None:
    """Take back the last hand; it stays in the history as undone. The match as it left it
    (see ``_changed``)."""
    new_version = _change_entries(db, match, version, lambda new_version: _retire(
        db, match, _live_count(db, match.id), UNDONE, new_version, key))
    return _changed(match, version, new_version, match.hands[:-1])


def _change_entries(db, match: Match, version: int, change) -> int:
    """One change to the match's entries in one transaction: the version claimed, then
    ``change(new_version)``. A key seen before or a hand saved meanwhile is a stale
    change. The new version, whose news the other phones hear at once."""
    try:
        with writing(db):
            new_version = _claim_version(db, match, version)
            events.refuse_if_confirmed(db, match.id)
            change(new_version)
    except INTEGRITY_ERRORS as error:
        raise StaleEntry() from error
    news.publish(address_of(db), match.id)
    return new_version


def _claim_version(db, match: Match, version: int) -> int:
    """Count up the match's version, if it still is the one the form was shown; the new
    version."""
    changed = db.execute("UPDATE matches SET version = version + 1 "
                         "WHERE id = ? AND version = ?", [match.id, version]).rowcount
    if not changed:
        raise StaleEntry()
    return version + 1


def _live_count(db, match_id: int) -> int:
    return db.execute(_LIVE_COUNT, {"match": match_id}).fetchone()[0]


def _insert_entry(db, match: Match, number: int | None, data: dict, version: int,
                  key: str | None) -> None:
    """Store ``data`` as hand ``number``; None numbers it after the live hands. One
    statement numbers the hand and inserts it, unless the match is full."""
    inserted = db.execute(
        "INSERT INTO entries (match_id, number, data, status, created_at, version, "
        f"request_key) SELECT :match, coalesce(:number, ({_LIVE_COUNT}) + 1), :data, :active, "
        f":now, :version, :key WHERE {_ENTRY_COUNT} < :most",
        {"match": match.id, "number": number, "data": json.dumps(data), "active": ACTIVE,
         "now": now(), "version": version, "key": key, "most": MAX_ENTRIES}).rowcount
    if not inserted:
        raise MatchFull()


def _retire(db, match: Match, number: int, status: str, version: int,
            key: str | None = None) -> None:
    db.execute("UPDATE entries SET status = ?, ended_at = ?, ended_version = ?, ended_key = ? "
               "WHERE match_id = ? AND number = ? AND status = ?",
               [status, now(), version, key, match.id, number, ACTIVE])


def _as_read(data: dict) -> dict:
    """An entry as a read gives it back."""
    return json.loads(json.dumps(data))


def _changed(match: Match, version: int, new_version: int,
             hands: tuple[dict, ...]) -> Match | None:
    """The match as a change left it, with ``hands``: the answer to the change reads nothing
    again. None when the change was made as of another version than the match was read at:
    what it left is not known here."""
    if version != match.version:
        return None
    return replace(match, hands=hands, version=new_version)


def change_made_with(db, match: Match, key: str) -> Change | None:
    """The change a form with this key already made, if it made one."""
    if not key:
        return None
    row = next(select(db,
        "SELECT number, data, version, request_key = :key AS created FROM entries "
        "WHERE match_id = :match AND (request_key = :key OR ended_key = :key)",
        {"match": match.id, "key": key}), None)
    if row is None:
        return None
    if not row["created"]:
        return Change(UNDONE, row["number"], json.loads(row["data"]))
    corrected = db.execute("SELECT count(*) FROM entries WHERE match_id = ? AND number = ? "
                           "AND ended_version = ? AND status = ?",
                           [match.id, row["number"], row["version"], REPLACED]).fetchone()[0]
    return Change("corrected" if corrected else "saved", row["number"],
                  json.loads(row["data"]))


def changes_since(db, match: Match, version: int) -> list[Change]:
    """What the changes after ``version`` up to the match's own did, oldest first: hands
    saved, corrected or undone (by another phone, while this one's form waited). A change
    another process made since the match was read is told with the version it made."""
    changes = []
    rows = list(select(db, f"{_CHANGED_SINCE} ORDER BY version, id",
                       {"match": match.id, "version": version}))

    def shown(at: int | None) -> bool:
        return at is not None and version < at <= match.version

    for at in sorted({row["version"] for row in rows if shown(row["version"])}
                     | {row["ended_version"] for row in rows if shown(row["ended_version"])}):
        created = [row for row in rows if row["version"] == at]
        ended = [row for row in rows if row["ended_version"] == at]
        if created:
            kind = "corrected" if ended else "saved"
            changes.append(Change(kind, created[0]["number"], json.loads(created[0]["data"])))
        elif ended:
            changes.append(Change(UNDONE, ended[0]["number"], json.loads(ended[0]["data"])))
    return changes


def past_entries(db, match: Match) -> list[PastEntry]:
    """What edits and undos replaced up to the match's version, newest first: a change
    another process made since the match was read is not part of its history yet."""
    return [PastEntry(r["id"], r["number"], json.loads(r["data"]), r["status"],
                      r["created_at"], r["ended_at"])
            for r in select(db,
                f"SELECT * FROM entries WHERE match_id = :match AND status != '{ACTIVE}' "
                "AND coalesce(ended_version, 0) <= :version "
                "ORDER BY ended_at DESC, id DESC", {"match": match.id, "version": match.version})]


def match_entries(db, match: Match) -> list[dict]:
    """Every entry of the match as entered, oldest first: active, replaced and undone, each
    with its times."""
    return [{"number": row["number"], "status": row["status"], "data": json.loads(row["data"]),
             "created_at": row["created_at"], "ended_at": row["ended_at"]}
            for row in select(db, "SELECT * FROM entries WHERE match_id = ? ORDER BY id",
                              [match.id])]
