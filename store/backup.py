"""Backups: the database copied as it stands at one moment, also while the app writes, and
put back whole in place of the live one."""

import os
import sqlite3
import urllib.parse
from contextlib import closing

import sqlite_utils

from . import damage, postgres
from .connection import connect, exclusive, storage_faults, writing
from .errors import BadBackup, Unavailable
from .schema import verify_ours

# Where the live database cannot tell the versions it gave out (damaged, missing), the
# restored ones start above any a match reaches: one a change, and MAX_ENTRIES entries.
VERSIONS_UNKNOWN = 10**6


def backup(path: str, target: str) -> int:
    """Copy the database to ``target`` as it stands at one moment, also while the app writes
    (SQLite's online backup), as one self-contained file written beside and renamed into
    place; how many matches it holds."""
    _refuse_postgres(path)
    source, draft = connect(path, create=False), f"{target}.partial"
    try:
        with storage_faults(path):
            # What a backup cut short left behind is no start for this one.
            if os.path.exists(draft):
                os.remove(draft)
            with closing(sqlite3.connect(draft)) as copy:
                source.conn.backup(copy)
                # A backup is one file: no journal beside it to lose when it is copied on.
                copy.execute("PRAGMA journal_mode = DELETE")
                matches = verify_backup(copy)
            os.replace(draft, target)
    finally:
        source.close()
    return matches


def _refuse_postgres(database: str) -> None:
    if postgres.is_url(database):
        raise Unavailable("a PostgreSQL database is backed up and restored by its own tools "
                          "(pg_dump, pg_restore, or a streaming replica)")


def verify_backup(copy: sqlite3.Connection) -> int:
    """Raise ``BadBackup`` unless ``copy`` is a Tablemate database that passes SQLite's
    integrity check; how many matches it holds."""
    try:
        db = sqlite_utils.Database(copy)
        verify_ours(db)
        problems = [row[0] for row in copy.execute("PRAGMA integrity_check")]
        matches = db.execute("SELECT count(*) FROM matches").fetchone()[0]
    except (Unavailable, sqlite3.DatabaseError) as error:
        raise BadBackup(f"it is not a Tablemate database ({error})") from error
    if problems != ["ok"]:
        raise BadBackup(f"it fails SQLite's integrity check ({'; '.join(problems[:3])})")
    return matches


def restore(path: str, backup_path: str) -> int:
    """Put the backup at ``backup_path`` in place of the database, whole, and bring it up to
    date; how many matches it holds. The copy is written through SQLite into the live file,
    so that a running app sees either all of the old database or all of the restored one
    (a file renamed over the live one would meet the old one's write-ahead log). A live
    file that is missing, cut short or damaged is written over all the same; one that is
    sound but not Tablemate's is left alone."""
    _refuse_postgres(path)
    with closing(sqlite3.connect(f"file:{urllib.parse.quote(backup_path)}?mode=ro",
                                 uri=True)) as copy:
        matches = verify_backup(copy)
        with storage_faults(path), exclusive(path):
            with closing(sqlite3.connect(path)) as live:
                # Else SQLite refuses to open a file shorter than its header says.
                live.execute("PRAGMA writable_schema = ON")
                used = _versions_given_out(live)
                copy.backup(live)
            restored = connect(path)
            try:
                _count_versions_on_from(restored, used)
            finally:
                restored.close()
            damage.forget(path)
    return matches


def _versions_given_out(live: sqlite3.Connection) -> int:
    """The highest version the live database gave out to any match; raise ``Unavailable``
    if it is a sound database that is not Tablemate's."""
    try:
        db = sqlite_utils.Database(live)
        verify_ours(db)
        return db.execute("SELECT coalesce(max(version), 0) FROM matches").fetchone()[0]
    except sqlite3.DatabaseError:
        return VERSIONS_UNKNOWN


def _count_versions_on_from(db, used: int) -> None:
    """Move every version of the restored matches above ``used``, the highest the live
    database had given out: the running app keeps what it derived per match and version, and
    the hands entered after a restore must not meet what was derived from those it undid."""
    shift = used + 1
    with writing(db):
        db.execute("UPDATE matches SET version = version + ?", [shift])
        db.execute("UPDATE entries SET version = version + ?, ended_version = ended_version + ?",
                   [shift, shift])
