"""Persistence on SQLite through sqlite-utils: matches, their players, and every entry made.

Only what the players entered is stored; standings are derived by ``scoring`` on each read.
An entry is never deleted: an edit or an undo marks it replaced or undone and keeps it. A
deleted match can be restored for 30 days; then it goes, with its entries, for good.
"""

import fcntl
import itertools
import json
import os
import secrets
import sqlite3
import struct
import threading
import urllib.parse
import weakref
import zlib
from contextlib import closing, contextmanager, suppress
from dataclasses import dataclass, replace
from datetime import UTC, datetime, timedelta

import sqlite_utils
from flask import current_app, g

from . import news

ACTIVE, REPLACED, UNDONE = "active", "replaced", "undone"


class StaleEntry(Exception):
    """The match changed since the form was shown (another phone entered, took back or
    corrected a hand)."""


class Unavailable(Exception):
    """The database cannot be used just now (a full disk, a read-only file, a file that is
    not Tablemate's): nothing was saved, and the next request tries afresh."""


class MatchFull(Exception):
    """The match holds ``MAX_ENTRIES`` entries: no more can be added to it."""


class BadBackup(Exception):
    """A file offered for a restore is not a sound Tablemate database."""


class MatchDeleted(Exception):
    """The match behind the link was deleted; until ``restorable_until`` its edit link can
    restore it."""

    def __init__(self, match: "Match", read_only: bool, restorable_until: str):
        super().__init__(match.id)
        self.match, self.read_only, self.restorable_until = match, read_only, restorable_until


def _create_tables(db: sqlite_utils.Database) -> None:
    db["matches"].create(
        {"id": int, "token": str, "game": str, "options": str, "created_at": str},
        pk="id", not_null={"token", "game", "options", "created_at"},
    )
    db["matches"].create_index(["token"], unique=True)
    db["players"].create(
        {"id": int, "match_id": int, "seat": int, "name": str},
        pk="id", foreign_keys=[("match_id", "matches", "id")],
        not_null={"match_id", "seat", "name"},
    )
    db["players"].create_index(["match_id", "seat"], unique=True)
    db["entries"].create(
        {"id": int, "match_id": int, "number": int, "data": str, "status": str,
         "created_at": str, "ended_at": str},
        pk="id", foreign_keys=[("match_id", "matches", "id")],
        not_null={"match_id", "number", "data", "status", "created_at"},
    )
    # One live entry per hand: two phones saving the same hand at once cannot both win.
    db.execute("CREATE UNIQUE INDEX entries_live ON entries (match_id, number) "
               "WHERE status = 'active'")


def _create_rules_index(db: sqlite_utils.Database) -> None:
    db["rule_sections"].create(
        {"id": int, "game": str, "lang": str, "section": str, "title": str, "level": int,
         "position": int, "text": str, "folded_title": str, "folded_text": str},
        pk="id",
    )
    # Trigram: any part of a word from three letters on matches ("stapel" in Ablagestapel).
    db["rule_sections"].enable_fts(["folded_title", "folded_text"], tokenize="trigram")
    db["settings"].create({"key": str, "value": str}, pk="key")


def _add_match_versions(db: sqlite_utils.Database) -> None:
    # Every change to a match's entries counts up its version; a form names the version it
    # was shown, so a change made meanwhile on another phone is noticed, not overwritten.
    db["matches"].add_column("version", int, not_null_default=0)


def _add_entry_keys(db: sqlite_utils.Database) -> None:
    # Each entry form carries a random key: the same form sent twice (a double tap, a resend
    # after the wifi dropped) finds its entry instead of storing the hand again. The match
    # versions that created and ended an entry tell a phone with an outdated sheet what
    # changed meanwhile.
    for column in ("request_key", "ended_key"):
        db["entries"].add_column(column, str)
    for column in ("version", "ended_version"):
        db["entries"].add_column(column, int)
    db.execute("CREATE UNIQUE INDEX entries_request_key ON entries (match_id, request_key) "
               "WHERE request_key IS NOT NULL")
    db.execute("CREATE UNIQUE INDEX entries_ended_key ON entries (match_id, ended_key) "
               "WHERE ended_key IS NOT NULL")


def _add_view_tokens(db: sqlite_utils.Database) -> None:
    # A second secret link per match that only shows the sheet: spectators and a screen at
    # the bar can follow the score without being able to change it.
    db["matches"].add_column("view_token", str)
    for (match_id,) in db.execute("SELECT id FROM matches").fetchall():
        db.execute("UPDATE matches SET view_token = ? WHERE id = ?", [new_token(), match_id])
    db["matches"].create_index(["view_token"], unique=True)


def _add_titles_deletion_and_device_lists(db: sqlite_utils.Database) -> None:
    # A title every phone sees; a deletion that can be taken back (and by which device, whose
    # home page offers the undo); and each device's list of matches, kept here under a
    # random device id so that no cookie carries match links.
    for column in ("title", "deleted_at", "deleted_by"):
        db["matches"].add_column(column, str)
    db["device_matches"].create(
        {"device": str, "match_id": int, "opened_at": str, "archived_at": str},
        pk=("device", "match_id"), foreign_keys=[("match_id", "matches", "id")],
        not_null={"device", "match_id", "opened_at"},
    )
    db["device_matches"].create_index(["match_id"])


def _add_creation_keys(db: sqlite_utils.Database) -> None:
    # A client that sends "start this match" again after a lost answer gets the match it
    # started, not a second one. Counting a match's entries (at most MAX_ENTRIES) and
    # reading them want an index on their match.
    db["matches"].add_column("creation_key", str)
    db.execute("CREATE UNIQUE INDEX matches_creation_key ON matches (creation_key) "
               "WHERE creation_key IS NOT NULL")
    db["entries"].create_index(["match_id"])


def _index_entry_versions(db: sqlite_utils.Database) -> None:
    # Saving a hand into a long match reads a few index entries, not every row of the
    # match: the entries changed since the version a server process knows (another process
    # saved them), and how many entries there are, live (the highest number in
    # entries_live) and replaced or undone (few, and in an index of their own).
    db.execute("CREATE INDEX entries_version ON entries (match_id, version)")
    db.execute("CREATE INDEX entries_retired ON entries (match_id, ended_version) "
               f"WHERE status != '{ACTIVE}'")


def _add_rule_section_leads(db: sqlite_utils.Database) -> None:
    # The search ranks a section that defines a term (its title, first sentence, words in
    # bold) above one that mentions it in passing; the index is refilled at start-up.
    db["rule_sections"].add_column("folded_lead", str, not_null_default="")


# Append only: a released schema changes by a new step, never by editing an old one.
MIGRATIONS = (_create_tables, _create_rules_index, _add_match_versions, _add_entry_keys,
              _add_view_tokens, _add_titles_deletion_and_device_lists, _add_creation_keys,
              _index_entry_versions, _add_rule_section_leads, news.create_news)


def schema_version(db: sqlite_utils.Database) -> int:
    """The number of migrations the database has seen."""
    return db.execute("PRAGMA user_version").fetchone()[0]


# The tables every Tablemate database has had since its first migration.
OWN_TABLES = {"matches", "players", "entries"}


def verify_ours(db: sqlite_utils.Database) -> None:
    """Raise ``Unavailable`` unless the database is Tablemate's at a schema this version
    knows, or still empty."""
    version, tables = schema_version(db), set(db.table_names())
    if version > len(MIGRATIONS):
        raise Unavailable(f"schema version {version} is newer than this Tablemate knows")
    if tables and (version == 0 or not OWN_TABLES <= tables):
        raise Unavailable("the database file is not Tablemate's")


def migrate(db: sqlite_utils.Database) -> None:
    """Switch the database to WAL journaling and apply the migrations it has not seen yet,
    each in its own transaction; a file that is not Tablemate's is left alone."""
    verify_ours(db)
    db.enable_wal()
    for version, step in enumerate(MIGRATIONS, start=1):
        if version <= schema_version(db):
            continue
        with db.atomic():
            step(db)
            db.execute(f"PRAGMA user_version = {version:d}")


# The database path whose lock this thread holds: a write inside a restore takes it once.
_holding = threading.local()


@contextmanager
def _exclusive(path: str):
    """Held by one thread of one process at a time: of several workers starting on an empty
    database one migrates and the others wait, and writers take turns. A lock file rather
    than SQLite's own lock: switching to WAL cannot happen inside a transaction, the kernel
    frees the lock of a process that dies, and it wakes the next writer at once, where
    SQLite's busy handler sleeps up to 100 ms between looks."""
    if getattr(_holding, "path", None) == path:
        yield
        return
    with open(f"{path}.lock", "a") as lock:
        fcntl.flock(lock, fcntl.LOCK_EX)
        _holding.path = path
        try:
            yield
        finally:
            _holding.path = None


def _file_identity(path: str) -> tuple[int, int] | None:
    try:
        status = os.stat(path)
    except FileNotFoundError:
        return None
    return status.st_dev, status.st_ino


# The file each database path was last prepared in by this process: a file deleted or
# replaced since (a new inode under the same name) is prepared again.
_prepared: dict[str, tuple[int, int]] = {}
# The path and file each open connection opened.
_opened_files = weakref.WeakKeyDictionary()


def _still_in_place(db: sqlite_utils.Database) -> bool:
    """The file the connection opened is still the one under its name: SQLite goes on
    writing into a file deleted while open, and whatever it writes there is lost."""
    path, opened = _opened_files.get(db, (None, None))
    return path is None or _file_identity(path) == opened


def connect(path: str) -> sqlite_utils.Database:
    """Open the database with foreign keys on. A file this process has not prepared yet (the
    first, or one deleted or replaced since) or not at the current schema version is
    switched to WAL journaling and migrated, by one process at a time."""
    with _storage_faults():
        # Any thread may use it next, one at a time (a request's, a greenlet's).
        db = sqlite_utils.Database(sqlite3.connect(path, check_same_thread=False))
        try:
            db.execute("PRAGMA foreign_keys = ON")
            opened = _file_identity(path)
            if _prepared.get(path) != opened or schema_version(db) != len(MIGRATIONS):
                _prepared.pop(path, None)
                with _exclusive(path):
                    migrate(db)
                _prepared[path] = opened
            _opened_files[db] = path, opened
        except BaseException:
            db.close()
            raise
    return db


# SQLite's answers for a database that cannot be written or read just now: once the disk,
# the permissions or the file are put right, the same request succeeds.
_STORAGE_FAULTS = {sqlite3.SQLITE_FULL, sqlite3.SQLITE_READONLY, sqlite3.SQLITE_IOERR,
                   sqlite3.SQLITE_CANTOPEN, sqlite3.SQLITE_BUSY, sqlite3.SQLITE_NOTADB}


@contextmanager
def _storage_faults():
    """Turn SQLite's storage faults, and a lock file that cannot be opened, into
    ``Unavailable``."""
    try:
        yield
    except sqlite3.DatabaseError as error:
        if getattr(error, "sqlite_errorcode", 0) & 0xFF not in _STORAGE_FAULTS:
            raise
        raise Unavailable(str(error)) from error
    except OSError as error:
        raise Unavailable(str(error)) from error


def backup(path: str, target: str) -> int:
    """Copy the database to ``target`` as it stands at one moment, also while the app writes
    (SQLite's online backup), as one self-contained file written beside and renamed into
    place; how many matches it holds."""
    source, draft = connect(path), f"{target}.partial"
    try:
        with _storage_faults():
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
    (a file renamed over the live one would meet the old one's write-ahead log)."""
    with closing(sqlite3.connect(f"file:{urllib.parse.quote(backup_path)}?mode=ro",
                                 uri=True)) as copy:
        matches = verify_backup(copy)
        live = connect(path)
        try:
            with _storage_faults(), _exclusive(path):
                used = live.execute("SELECT coalesce(max(version), 0) FROM matches").fetchone()[0]
                copy.backup(live.conn)
                migrate(live)
                _count_versions_on_from(live, used)
        finally:
            live.close()
    return matches


def _count_versions_on_from(db, used: int) -> None:
    """Move every version of the restored matches above ``used``, the highest the live
    database had given out: the running app keeps what it derived per match and version, and
    the hands entered after a restore must not meet what was derived from those it undid."""
    shift = used + 1
    with _writing(db):
        db.execute("UPDATE matches SET version = version + ?", [shift])
        db.execute("UPDATE entries SET version = version + ?, ended_version = ended_version + ?",
                   [shift, shift])


# The writers of one match take turns, by stripes of matches: the threads of this process
# on a lock each, the server's processes on a byte each of a file beside the database.
# Writers who did not name the version they saw would otherwise read the same version, and
# all but one find it stale and do their work again (half the hands of 16 phones at four
# tables did, served by two processes).
MATCH_STRIPES = 64
_MATCH_TURNS = tuple(threading.Lock() for _ in range(MATCH_STRIPES))
# A lock of an open file description (Linux): the kernel frees it with the description,
# when its process dies too. A process's own record locks (``lockf``) would not do: the
# kernel would take two threads of one process, each holding a byte, for a deadlock.
_OPEN_FILE_LOCK = getattr(fcntl, "F_OFD_SETLKW", None)


@contextmanager
def one_writer_per_match(db, token: str):
    """Held by one thread of one process at a time for the match of this (edit) link. The
    writer still checks the version (``StaleEntry``): where the file beside the database
    cannot be opened or locked, only the threads of each process take turns."""
    stripe = zlib.crc32(token.encode()) % MATCH_STRIPES
    with _MATCH_TURNS[stripe], _turn_across_processes(f"{_opened_files[db][0]}.turns", stripe):
        yield


@contextmanager
def _turn_across_processes(path: str, stripe: int):
    """Byte ``stripe`` of the file at ``path`` locked for writing until the block ends."""
    if _OPEN_FILE_LOCK is None:
        yield
        return
    try:
        descriptor = os.open(path, os.O_RDWR | os.O_CREAT | os.O_CLOEXEC, 0o666)
    except OSError:
        yield
        return
    try:
        # A file system that refuses the lock leaves the threads' turns alone to serve.
        with suppress(OSError):
            # struct flock: type, whence, start, length, pid (0 for these locks)
            fcntl.fcntl(descriptor, _OPEN_FILE_LOCK,
                        struct.pack("hhqqi", fcntl.F_WRLCK, os.SEEK_SET, stripe, 1, 0))
        yield
    finally:
        os.close(descriptor)  # which frees the lock


@contextmanager
def writers_held_off(db):
    """No other thread or process writes to the file meanwhile: a change read and written
    inside cannot be overtaken (its write is committed on its own)."""
    with _storage_faults(), _exclusive(_opened_files[db][0]):
        yield


def _file_changed() -> Unavailable:
    return Unavailable("the database file changed since it was opened")


@contextmanager
def _writing(db):
    """A write transaction that takes the write lock at once: a second phone saving at the
    same moment waits for the first, then finds the match changed (no "database is
    locked" halfway through). A database not at the current schema takes no write, so
    that no insert can create a table of its own shape."""
    with writers_held_off(db):
        db.execute("BEGIN IMMEDIATE")
        try:
            if schema_version(db) != len(MIGRATIONS) or not _still_in_place(db):
                raise _file_changed()
            yield
        except BaseException:
            # A full disk or an I/O error may have rolled the transaction back already.
            if db.conn.in_transaction:
                db.conn.rollback()
            raise
        db.conn.commit()


class _Pending:
    """A change waiting to be written by the thread that commits for its group."""

    def __init__(self, db, work):
        self.db, self.work = db, work
        self.finished = False
        self.result = self.error = None


class _WriteGroup:
    """The writers of this process to one database: one commits, the others gather."""

    def __init__(self):
        self.turn = threading.Condition()
        self.waiting: list[_Pending] = []
        self.committing = False


_write_groups: dict[str, _WriteGroup] = {}


def _grouped_write(db, work):
    """``work(writer)``'s result, once it is committed. A commit waits for the disk: the
    changes that gather meanwhile are written after it by one of their threads, each in a
    savepoint of its own, and committed together, so that one wait serves several phones.
    A change that fails is undone alone, and its error raised in its own thread."""
    path = _opened_files[db][0]
    # A restore, or a change with other writers held off: it holds the lock already.
    if getattr(_holding, "path", None) == path:
        with _writing(db):
            return work(db)
    group = _write_groups.setdefault(path, _WriteGroup())
    pending = _Pending(db, work)
    with group.turn:
        group.waiting.append(pending)
        while group.committing and not pending.finished:
            group.turn.wait()
        leading = not pending.finished
        if leading:
            batch, group.waiting, group.committing = group.waiting, [], True
    if leading:
        try:
            _write_batch(db, batch)
        finally:
            with group.turn:
                group.committing = False
                group.turn.notify_all()
    if pending.error is not None:
        raise pending.error
    return pending.result


def _write_batch(db, batch: list[_Pending]) -> None:
    """Write the changes of ``batch`` through ``db`` in one transaction, each in a
    savepoint; a fault that ends the transaction fails them all."""
    try:
        with _writing(db):
            for pending in batch:
                db.execute("SAVEPOINT change")
                try:
                    with _storage_faults():
                        if _opened_files[pending.db][1] != _opened_files[db][1]:
                            raise _file_changed()
                        pending.result = pending.work(db)
                except Exception as error:
                    if not db.conn.in_transaction:
                        raise  # SQLite rolled the whole transaction back (a full disk)
                    db.execute("ROLLBACK TO change")
                    pending.error = error
                db.execute("RELEASE change")
    except BaseException as error:
        for pending in batch:
            pending.error = error
        raise
    finally:
        for pending in batch:
            pending.finished = True


# Connections wait between requests for the next one, of whichever thread or greenlet:
# opening one (the file, its schema, the write-ahead log's index) costs more than a read
# that uses it, and a server holding thousands of open streams has file descriptors for
# the streams, not for a connection each.
IDLE_CONNECTIONS = 8
_idle: list[tuple[str, tuple, sqlite_utils.Database]] = []
_idle_lock = threading.Lock()


def _file_state(path: str) -> tuple[int, int, int] | None:
    """The file's identity and the time its data or metadata last changed: a chmod, a
    chattr or a checkpoint moves it (committed hands go to the write-ahead log, not here)."""
    try:
        status = os.stat(path)
    except FileNotFoundError:
        return None
    return status.st_dev, status.st_ino, status.st_ctime_ns


def _idle_connection(path: str) -> sqlite_utils.Database | None:
    """A waiting connection to ``path`` if nothing happened to the file since it was put
    back: no replacement, no new permissions, the schema this version knows. One whose
    file did change is closed; the next request opens, migrates and checks it afresh."""
    while True:
        with _idle_lock:
            found = next((item for item in reversed(_idle) if item[0] == path), None)
            if found is None:
                return None
            _idle.remove(found)
        _path, state, db = found
        try:
            if _file_state(path) == state and schema_version(db) == len(MIGRATIONS):
                return db
        except sqlite3.Error:
            pass
        db.close()


def get_db() -> sqlite_utils.Database:
    """The request's database handle: a waiting connection, else a new one."""
    if "db" not in g:
        g.db = open_connection(current_app.config["DATABASE"])
    return g.db


def open_connection(path: str) -> sqlite_utils.Database:
    """A waiting connection to ``path``, else a new one; give it back with
    ``put_back``."""
    return _idle_connection(path) or connect(path)


def put_back(db: sqlite_utils.Database) -> None:
    """Let the next request use the connection, unless enough wait already or it holds a
    transaction (a fault ended the request halfway)."""
    path, opened = _opened_files.get(db, (None, None))
    state = path and _file_state(path)
    with _idle_lock:
        if (state and state[:2] == opened and not db.conn.in_transaction
                and len(_idle) < IDLE_CONNECTIONS):
            _idle.append((path, state, db))
            return
    db.close()


def release_db(error=None) -> None:
    """At the end of a request, give its handle back for the next request; after an error,
    close it."""
    db = g.pop("db", None)
    if db is None:
        return
    if error is not None:
        db.close()
    else:
        put_back(db)


def close_db(_error=None) -> None:
    """Close the handle for good, so that the next request opens the database afresh (after
    a full disk or a read-only file, and outside requests: at start-up, in a command)."""
    db = g.pop("db", None)
    if db is not None:
        db.close()


def clock() -> datetime:
    """The time now, in UTC (a test sets its own clock here)."""
    return datetime.now(UTC)


def _now() -> str:
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


@dataclass(frozen=True)
class PastEntry:
    """An entry an edit replaced or an undo took back, kept for the match's history."""

    id: int
    number: int
    data: dict
    status: str
    created_at: str
    ended_at: str


def new_token() -> str:
    """The match's secret link: 192 random bits."""
    return secrets.token_urlsafe(24)


def create_match(db, game: str, players, options: dict, key: str | None = None) -> Match:
    """A new match; with a ``key`` (a client's idempotency key) seen before, the match that
    key created. It is written as an import of no entries, beginning now."""
    return import_match(db, game, players, options, _now(), (), key=key)


def _created_with(db, key: str | None) -> str | None:
    """The edit token of the match this key created, if it created one."""
    row = key and next(_select(db, "SELECT token FROM matches WHERE creation_key = ?", [key]),
                       None)
    return row and row["token"]


def match_created_with(db, key: str | None) -> Match | None:
    """The match a request with this key already created (a retry finds it)."""
    token = _created_with(db, key)
    return token and get_match(db, token)


def get_match(db, token: str) -> Match | None:
    """The match this (edit) link opens."""
    return _match_where(db, "token", token)


def match_state(db, link: str, read_only: bool) -> tuple[int, int, str | None, bool] | None:
    """The id, version, title and whether it is deleted of the match behind an edit link
    (or, ``read_only``, a view link): one indexed lookup, for the news of a match. A match
    deleted longer ago than can be undone is none."""
    column = "view_token" if read_only else "token"
    row = db.conn.execute(f"SELECT id, version, title, deleted_at FROM matches "
                          f"WHERE {column} = ?", [link]).fetchone()
    if row is None or (row[3] and row[3] < _restorable_since()):
        return None
    return row[0], row[1], row[2], bool(row[3])


def shown_version(db, link: str) -> int | None:
    """The version of the match behind a link, unless it was deleted: the version the
    API's answer for that link is kept by."""
    row = db.conn.execute("SELECT version FROM matches WHERE (token = :link OR "
                          "view_token = :link) AND deleted_at IS NULL", {"link": link}).fetchone()
    return row and row[0]


def get_watched_match(db, view_token: str) -> Match | None:
    """The match this read-only link shows."""
    return _match_where(db, "view_token", view_token)


def _select(db, sql: str, params=()):
    """The rows a read gives, as dicts. Read through the connection itself: sqlite-utils'
    ``query`` wraps each read in a savepoint, two statements more for every read."""
    cursor = db.conn.execute(sql, params)
    names = [column[0] for column in cursor.description]
    return (dict(zip(names, row)) for row in cursor)


def _match_where(db, column: str, value: str) -> Match | None:
    """The match whose ``column`` holds ``value``; a deleted one raises ``MatchDeleted``, and
    one deleted longer ago than can be undone is gone (None), purged or not yet."""
    with _one_snapshot(db):
        # One read for the match and its players.
        rows = list(_select(db, "SELECT matches.*, players.name AS player FROM matches "
                            "LEFT JOIN players ON players.match_id = matches.id "
                            f"WHERE matches.{column} = ? ORDER BY players.seat", [value]))
        if not rows:
            return None
        row = rows[0]
        if row["deleted_at"]:
            if row["deleted_at"] < _restorable_since():
                return None
            raise MatchDeleted(_match_from_rows(db, rows), column == "view_token",
                               _restorable_until(row["deleted_at"]))
        return _match_from_rows(db, rows)


@contextmanager
def _one_snapshot(db):
    """Reads that see the file as of one moment. The match's row and its hands are read by
    separate statements: a hand another process commits between them would otherwise be
    read as part of the version before it."""
    if db.conn.in_transaction:  # inside a write, which sees one moment already
        yield
        return
    db.execute("BEGIN")
    try:
        yield
    finally:
        if db.conn.in_transaction:  # else a fault ended it already
            db.conn.rollback()  # it wrote nothing


def _match_from_rows(db, rows: list[dict]) -> Match:
    """The match read as a row for each of its players (or one row, if it has none), in
    seat order, the name in ``player``."""
    row = rows[0]
    return Match(row["id"], row["token"], row["game"], json.loads(row["options"]),
                 tuple(r["player"] for r in rows if r["player"] is not None),
                 _active_hands(db, row), row["created_at"],
                 row["version"], row["view_token"], row["title"])


def _active_hands(db, row: dict) -> tuple[dict, ...]:
    return tuple(json.loads(r["data"]) for r in _select(db,
        "SELECT data FROM entries WHERE match_id = ? AND status = ? ORDER BY number",
        [row["id"], ACTIVE]))


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


def _live_count(db, match_id: int) -> int:
    return db.execute(_LIVE_COUNT, {"match": match_id}).fetchone()[0]


def past_entries(db, match: Match) -> list[PastEntry]:
    """What edits and undos replaced up to the match's version, newest first: a change
    another process made since the match was read is not part of its history yet."""
    return [PastEntry(r["id"], r["number"], json.loads(r["data"]), r["status"],
                      r["created_at"], r["ended_at"])
            for r in _select(db,
                f"SELECT * FROM entries WHERE match_id = :match AND status != '{ACTIVE}' "
                "AND coalesce(ended_version, 0) <= :version "
                "ORDER BY ended_at DESC, id DESC", {"match": match.id, "version": match.version})]


def _claim_version(db, match: Match, version: int) -> int:
    """Count up the match's version, if it still is the one the form was shown; the new
    version."""
    changed = db.execute("UPDATE matches SET version = version + 1 "
                         "WHERE id = ? AND version = ?", [match.id, version]).rowcount
    if not changed:
        raise StaleEntry()
    return version + 1


# A long evening is a few hundred entries; far more is no match played at a table, and
# every page re-scores the whole match.
MAX_ENTRIES = 5000


def _insert_entry(db, match: Match, number: int | None, data: dict, version: int,
                  key: str | None) -> None:
    """Store ``data`` as hand ``number``; None numbers it after the live hands. One
    statement numbers the hand and inserts it, unless the match is full."""
    inserted = db.execute(
        "INSERT INTO entries (match_id, number, data, status, created_at, version, "
        f"request_key) SELECT :match, coalesce(:number, ({_LIVE_COUNT}) + 1), :data, :active, "
        f":now, :version, :key WHERE {_ENTRY_COUNT} < :most",
        {"match": match.id, "number": number, "data": json.dumps(data), "active": ACTIVE,
         "now": _now(), "version": version, "key": key, "most": MAX_ENTRIES}).rowcount
    if not inserted:
        raise MatchFull()


def _retire(db, match: Match, number: int, status: str, version: int,
            key: str | None = None) -> None:
    db.execute("UPDATE entries SET status = ?, ended_at = ?, ended_version = ?, ended_key = ? "
               "WHERE match_id = ? AND number = ? AND status = ?",
               [status, _now(), version, key, match.id, number, ACTIVE])


def _change_entries(db, match: Match, version: int, change) -> int:
    """One change to the match's entries, written together with those of other phones
    saving at the same moment: the version claimed, then ``change(writer, new_version)``.
    A key seen before or a hand saved meanwhile is a stale change. The new version."""
    def claimed_and_changed(writer) -> int:
        new_version = _claim_version(writer, match, version)
        change(writer, new_version)
        return new_version

    try:
        return _grouped_write(db, claimed_and_changed)
    except sqlite3.IntegrityError as error:
        raise StaleEntry() from error


def add_hand(db, match: Match, data: dict, version: int,
             key: str | None = None) -> Match | None:
    """Store the next hand, unless the match changed since ``version`` was shown; the match
    as it left it (see ``_changed``)."""
    new_version = _change_entries(db, match, version, lambda writer, new_version:
                                  _insert_entry(writer, match, None, data, new_version, key))
    return _changed(match, version, new_version, (*match.hands, _as_read(data)))


def replace_hand(db, match: Match, number: int, data: dict, version: int,
                 key: str | None = None) -> Match | None:
    """Put a corrected entry in place of hand ``number``; the old one is kept. The match as
    it left it (see ``_changed``)."""
    def correct(writer, new_version: int) -> None:
        _retire(writer, match, number, REPLACED, new_version)
        _insert_entry(writer, match, number, data, new_version, key)

    new_version = _change_entries(db, match, version, correct)
    return _changed(match, version, new_version,
                    (*match.hands[:number - 1], _as_read(data), *match.hands[number:]))


def undo_last_hand(db, match: Match, version: int, key: str | None = None) -> Match | None:
    """Take back the last hand; it stays in the history as undone. The match as it left it
    (see ``_changed``)."""
    new_version = _change_entries(db, match, version, lambda writer, new_version: _retire(
        writer, match, _live_count(writer, match.id), UNDONE, new_version, key))
    return _changed(match, version, new_version, match.hands[:-1])


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


@dataclass(frozen=True)
class Change:
    """What one change did to a match: ``saved``, ``corrected`` or ``undone`` hand
    ``number``; ``data`` is the entry saved (for an undo, the entry taken back)."""

    kind: str
    number: int
    data: dict


def change_made_with(db, match: Match, key: str) -> Change | None:
    """The change a form with this key already made, if it made one."""
    if not key:
        return None
    row = next(_select(db,
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
    rows = list(_select(db, f"{_CHANGED_SINCE} ORDER BY version, id",
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


# --- A match's title, its deletion, and each device's list of matches ---------------------

# How long a deleted match can be restored before it is removed for good.
KEPT_DELETED = timedelta(days=30)


def _restorable_since() -> str:
    """Matches deleted before this moment can no longer be restored."""
    return (clock() - KEPT_DELETED).isoformat(timespec="seconds")


def _restorable_until(deleted_at: str) -> str:
    return (datetime.fromisoformat(deleted_at) + KEPT_DELETED).isoformat(timespec="seconds")


def rename_match(db, match: Match, title: str) -> None:
    """Give the match the title every phone will show."""
    with _writing(db):
        db.execute("UPDATE matches SET title = ? WHERE id = ?", [title, match.id])


def delete_match(db, match: Match, device: str) -> None:
    """Delete the match on every phone, restorable for 30 days (the device that deleted it
    is offered the undo); matches deleted longer ago go for good now."""
    with _writing(db):
        # A new version: a phone that asks whether the match changed finds out.
        db.execute("UPDATE matches SET deleted_at = ?, deleted_by = ?, version = version + 1 "
                   "WHERE id = ?", [_now(), device, match.id])
    purge_deleted(db)


def restore_match(db, token: str) -> bool:
    """Bring back the deleted match behind this edit link, if it can still be restored."""
    with _writing(db):
        return db.execute(
            "UPDATE matches SET deleted_at = NULL, deleted_by = NULL "
            "WHERE token = ? AND deleted_at >= ?", [token, _restorable_since()]).rowcount == 1


def purge_deleted(db) -> int:
    """Remove the matches deleted longer ago than can be undone, with everything stored of
    them; how many went."""
    doomed = [row["id"] for row in _select(db, "SELECT id FROM matches WHERE deleted_at < ?",
                                            [_restorable_since()])]
    if not doomed:
        return 0
    marks = ", ".join("?" * len(doomed))
    with _writing(db):
        for table in db.tables:
            for key in table.foreign_keys:
                if key.other_table == "matches":
                    db.execute(f"DELETE FROM [{table.name}] WHERE [{key.column}] IN ({marks})",
                               doomed)
        db.execute(f"DELETE FROM matches WHERE id IN ({marks})", doomed)
    return len(doomed)


def remember_match(db, device: str, token: str) -> None:
    """Put the match behind this edit link at the top of the device's list (an archived
    match stays archived). A sheet opened again, already at the top, writes nothing: every
    view of a sheet passes here, and a write would queue it behind the table's saves."""
    latest = next(_select(db, "SELECT matches.token FROM device_matches "
                           "JOIN matches ON matches.id = device_matches.match_id "
                           "WHERE device = ? ORDER BY opened_at DESC, device_matches.rowid DESC "
                           "LIMIT 1", [device]), None)
    if latest and latest["token"] == token:
        return
    with _writing(db):
        # To the microsecond: two sheets opened within a second keep their order.
        db.execute("INSERT INTO device_matches (device, match_id, opened_at) "
                   "SELECT ?, id, ? FROM matches WHERE token = ? "
                   "ON CONFLICT (device, match_id) DO UPDATE SET opened_at = excluded.opened_at",
                   [device, clock().isoformat(timespec="microseconds"), token])


def archive_match(db, device: str, match: Match, archived: bool) -> bool:
    """Move the match into the device's archive or back; False if it is not on the list."""
    with _writing(db):
        return db.execute("UPDATE device_matches SET archived_at = ? "
                          "WHERE device = ? AND match_id = ?",
                          [_now() if archived else None, device, match.id]).rowcount == 1


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
    rows = _select(db,
        "SELECT m.*, p.name AS player, d.opened_at, d.archived_at, max(m.created_at, coalesce("
        "  (SELECT max(max(created_at, coalesce(ended_at, ''))) FROM entries "
        "   WHERE match_id = m.id), '')) AS changed_at "
        "FROM device_matches d JOIN matches m ON m.id = d.match_id "
        "LEFT JOIN players p ON p.match_id = m.id "
        "WHERE d.device = :device AND (m.deleted_at IS NULL "
        "  OR (m.deleted_by = :device AND m.deleted_at >= :since)) "
        "ORDER BY d.opened_at DESC, d.rowid DESC, p.seat",
        {"device": device, "since": _restorable_since()})
    listed = []
    for _id, match_rows in itertools.groupby(rows, key=lambda row: row["id"]):
        match_rows = list(match_rows)
        row = match_rows[0]
        listed.append(ListedMatch(_match_from_rows(db, match_rows), row["opened_at"],
                                  row["archived_at"], row["changed_at"], row["deleted_at"],
                                  row["deleted_at"] and _restorable_until(row["deleted_at"])))
    return listed


# --- The rules' search index -------------------------------------------------------------

RULES_DIGEST = "rules_digest"


def rules_index_digest(db) -> str | None:
    """The fingerprint of the documents the search index was built from."""
    row = next(_select(db, "SELECT value FROM settings WHERE key = ?", [RULES_DIGEST]), None)
    return row and row["value"]


def replace_rules_index(db, digest: str, sections) -> None:
    """Put a new set of sections in the search index, all at once."""
    with _writing(db):
        db["rule_sections"].delete_where()
        db["rule_sections"].insert_all(sections)
        db["rule_sections"].rebuild_fts()
        db["settings"].upsert({"key": RULES_DIGEST, "value": digest}, pk="key")


def _narrowed(game: str | None, lang: str | None) -> tuple[list[str], dict]:
    where, params = [], {}
    for column, value in (("game", game), ("lang", lang)):
        if value:
            where.append(f"s.{column} = :{column}")
            params[column] = value
    return where, params


def search_rules(db, match: str, game: str | None = None,
                 lang: str | None = None) -> list[dict]:
    """Every section matching an FTS query (already quoted), in bm25's order: title words
    count five times, as the search's own ranking then weighs them."""
    where, params = _narrowed(game, lang)
    return list(_select(db,
        "SELECT s.*, bm25(rule_sections_fts, 5.0, 1.0) AS rank "
        "FROM rule_sections_fts JOIN rule_sections s ON s.id = rule_sections_fts.rowid "
        f"WHERE {' AND '.join(['rule_sections_fts MATCH :match', *where])} "
        "ORDER BY rank", {**params, "match": match}))


def rule_sections(db, game: str | None = None, lang: str | None = None) -> list[dict]:
    """Every indexed section, in the documents' order."""
    where, params = _narrowed(game, lang)
    return list(_select(db, "SELECT s.* FROM rule_sections s "
                            f"WHERE {' AND '.join(where) or '1'} ORDER BY s.id", params))


# --- Moving a match to another device ----------------------------------------------------

def match_entries(db, match: Match) -> list[dict]:
    """Every entry of the match as entered, oldest first: active, replaced and undone, each
    with its times."""
    return [{"number": row["number"], "status": row["status"], "data": json.loads(row["data"]),
             "created_at": row["created_at"], "ended_at": row["ended_at"]}
            for row in _select(db, "SELECT * FROM entries WHERE match_id = ? ORDER BY id",
                                [match.id])]


def import_match(db, game: str, players, options: dict, created_at: str,
                 entries, title: str | None = None, key: str | None = None) -> Match:
    """A new match with a link of its own holding these entries (statuses and times kept),
    written whole or not at all; with a ``key`` seen before, the match that key created."""
    token = new_token()
    with _writing(db):
        made = _created_with(db, key)
        if made:
            return get_match(db, made)
        match_id = db["matches"].insert({
            "token": token, "view_token": new_token(), "game": game,
            "options": json.dumps(options), "created_at": created_at, "title": title,
            "creation_key": key,
        }).last_pk
        db["players"].insert_all(
            {"match_id": match_id, "seat": seat, "name": name}
            for seat, name in enumerate(players)
        )
        db["entries"].insert_all(
            {**entry, "match_id": match_id, "data": json.dumps(entry["data"])}
            for entry in entries
        )
    return get_match(db, token)
