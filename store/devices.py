"""Each device's list of matches, kept under a random device id so that no cookie carries
match links: last opened first, archived or not, with those it deleted while they can still
be restored."""

import itertools
from dataclasses import dataclass
from datetime import datetime, timedelta

from . import backend, matches
from .backend import writing
from .matches import Match, match_from_rows, restorable_since, restorable_until, select


def remember_match(db, device: str, token: str) -> None:
    """Put the match behind this edit link at the top of the device's list (an archived
    match stays archived). A sheet opened again, already at the top, writes nothing: every
    view of a sheet passes here, and a write would queue it behind the table's saves."""
    latest = next(select(db, "SELECT matches.token, opened_at FROM device_matches "
                          "JOIN matches ON matches.id = device_matches.match_id "
                          "WHERE device = ? ORDER BY opened_at DESC, device_matches.rowid DESC "
                          "LIMIT 1", [device]), None)
    if latest and latest["token"] == token:
        return
    opened = matches.clock()
    if latest:
        # Past the top one even if the clock stepped back: the list's order is the order opened.
        opened = max(opened, datetime.fromisoformat(latest["opened_at"]) + timedelta(microseconds=1))
    with writing(db):
        # To the microsecond: two sheets opened within a second keep their order.
        db.execute("INSERT INTO device_matches (device, match_id, opened_at) "
                   "SELECT ?, id, ? FROM matches WHERE token = ? "
                   "ON CONFLICT (device, match_id) DO UPDATE SET opened_at = excluded.opened_at",
                   [device, opened.isoformat(timespec="microseconds"), token])


def archive_match(db, device: str, match: Match, archived: bool) -> bool:
    """Move the match into the device's archive or back; False if it is not on the list."""
    with writing(db):
        return db.execute("UPDATE device_matches SET archived_at = ? "
                          "WHERE device = ? AND match_id = ?",
                          [matches.now() if archived else None, device, match.id]).rowcount == 1


@dataclass(frozen=True)
class ListedMatch:
    """A match on a device's list, with when it was opened and archived there, when its
    hands last changed, and when it was deleted (by this device; None while it is not)."""

    match: Match
    opened_at: str
    archived_at: str | None
    changed_at: str
    deleted_at: str | None
    restorable_until: str | None


def device_matches(db, device: str) -> list[ListedMatch]:
    """The device's list, last opened first: its matches, and those it deleted that can still
    be restored (a match another device deleted is left out until it is restored)."""
    greatest = backend.greatest(db)
    rows = select(db,
        f"SELECT m.*, p.name AS player, d.opened_at, d.archived_at, {greatest}(m.created_at, "
        f"  coalesce((SELECT max({greatest}(created_at, coalesce(ended_at, ''))) FROM entries "
        "   WHERE match_id = m.id), '')) AS changed_at "
        "FROM device_matches d JOIN matches m ON m.id = d.match_id "
        "LEFT JOIN players p ON p.match_id = m.id "
        "WHERE d.device = :device AND (m.deleted_at IS NULL "
        "  OR (m.deleted_by = :device AND m.deleted_at >= :since)) "
        "ORDER BY d.opened_at DESC, d.rowid DESC, p.seat",
        {"device": device, "since": restorable_since()})
    listed = []
    for _id, match_rows in itertools.groupby(rows, key=lambda row: row["id"]):
        match_rows = list(match_rows)
        row = match_rows[0]
        listed.append(ListedMatch(match_from_rows(db, match_rows), row["opened_at"],
                                  row["archived_at"], row["changed_at"], row["deleted_at"],
                                  row["deleted_at"] and restorable_until(row["deleted_at"])))
    return listed
