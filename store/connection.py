"""Connections to the database file: opened with foreign keys on, prepared (WAL, the schema)
once per file by one process at a time, kept between requests, and written through one
transaction at a time, each copied into the database file itself before it counts as saved.
SQLite's storage faults become ``Unavailable``, and a file found damaged ``Damaged``."""

import fcntl
import os
import sqlite3
import threading
import urllib.parse
import weakref
from contextlib import contextmanager
from dataclasses import dataclass

import sqlite_utils
from flask import current_app

from . import damage
from .errors import Damaged, Unavailable
from .schema import STEPS, migrate, schema_version

# The database path whose lock this thread holds: a write inside a restore takes it once.
_holding = threading.local()


@contextmanager
def exclusive(path: str):
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


def log_of(path: str) -> str:
    """The write-ahead log beside the database file."""
    return f"{path}-wal"


@dataclass(frozen=True)
class Opened:
    """The files a connection opened: the database file and its write-ahead log. SQLite
    goes on writing into either when it is deleted or replaced, and what it writes there
    is lost."""

    path: str
    database: tuple[int, int] | None
    log: tuple[int, int] | None

    def moved(self) -> str | None:
        """What happened to the files since they were opened, if anything did."""
        now = _file_identity(self.path)
        if now != self.database:
            how = "deleted" if now is None else "replaced"
            return f"the database file {self.path} was {how}"
        # SQLite makes a new log of its own where one is missing.
        if _file_identity(log_of(self.path)) != self.log:
            return f"the write-ahead log {log_of(self.path)} was deleted or replaced"
        return None


# The file each database path was last prepared in by this process: a file deleted or
# replaced since (a new inode under the same name) is prepared again.
_prepared: dict[str, tuple[int, int]] = {}
# The files each open connection opened.
_opened_files: "weakref.WeakKeyDictionary[sqlite_utils.Database, Opened]" = (
    weakref.WeakKeyDictionary())


def _address(path: str, create: bool) -> str:
    return f"file:{urllib.parse.quote(path)}?mode={'rwc' if create else 'rw'}"


def connect(path: str, create: bool = True) -> sqlite_utils.Database:
    """Open the database with foreign keys on. A file this process has not prepared yet (the
    first, or one deleted or replaced since) or not at the current schema version is
    switched to WAL journaling and migrated, by one process at a time. Unless ``create``,
    a file that is missing or empty is refused, not made anew: deleted while the app runs,
    it is to be restored, and hands entered into a new one would be lost to the restore."""
    if not create and _file_identity(path) is None:
        raise Unavailable(f"the database file {path} is missing: restore a backup "
                          "(flask restore)")
    with storage_faults(path):
        # Any thread may use it next, one at a time (a request's, a greenlet's).
        db = sqlite_utils.Database(sqlite3.connect(_address(path, create), uri=True,
                                                   check_same_thread=False))
        try:
            db.execute("PRAGMA foreign_keys = ON")
            # SQLite opens the log at the first read: the file named before and after it.
            log_before = _file_identity(log_of(path))
            opened = _file_identity(path)
            if _prepared.get(path) != opened or schema_version(db) != len(STEPS):
                _prepared.pop(path, None)
                with exclusive(path):
                    if not create and not db.table_names():
                        raise Unavailable(f"the database file {path} is empty: restore a "
                                          "backup (flask restore)")
                    migrate(db)
                    _copy_into_database(db)
                _prepared[path] = opened
            log = _file_identity(log_of(path))
            if log_before not in (None, log):
                raise Unavailable(f"the write-ahead log {log_of(path)} was replaced while "
                                  "it was opened")
            _opened_files[db] = Opened(path, opened, log)
        except BaseException:
            db.close()
            raise
    return db


def prepare(path: str) -> bool:
    """At start: make the database if there is none, bring it up to date and check it
    whole; raise ``Unavailable`` (``Damaged``) if it cannot be used. Whether a new, empty
    one was made where a database had been: its lock file outlives it."""
    had_one = os.path.exists(f"{path}.lock")
    # Of workers starting together, the first makes the database, the others find it.
    with storage_faults(path), exclusive(path):
        empty = _file_identity(path) is None or os.path.getsize(path) == 0
        connect(path).close()
    damaged = _damage_checked(path)
    if damaged:
        raise damaged
    return had_one and empty


# SQLite's answers for a database that cannot be written or read just now: once the disk,
# the permissions or the file are put right, the same request succeeds.
_STORAGE_FAULTS = {sqlite3.SQLITE_FULL, sqlite3.SQLITE_READONLY, sqlite3.SQLITE_IOERR,
                   sqlite3.SQLITE_CANTOPEN, sqlite3.SQLITE_BUSY, sqlite3.SQLITE_NOTADB}
# Text the app stored comes back as it went in: text SQLite cannot hand back is damage.
_UNDECODABLE = "Could not decode to UTF-8"


def storage_fault(error: BaseException, path: str) -> Unavailable | None:
    """The storage fault behind an error of SQLite's on the database at ``path``, if it is
    one: a full disk, a read-only file, a disk error, or a file SQLite finds malformed,
    which is checked whole and, if damaged, refused from then on (``Damaged``)."""
    if isinstance(error, Unavailable):
        return error
    if not isinstance(error, sqlite3.DatabaseError):
        return None
    code = getattr(error, "sqlite_errorcode", 0) & 0xFF
    if str(error).startswith(_UNDECODABLE):
        # The message quotes the damaged text, which is no line for the log.
        return _damage_checked(path) or Unavailable(f"the database file {path} holds text "
                                                    "that is not UTF-8 (a damaged record)")
    if code == sqlite3.SQLITE_CORRUPT:
        return _damage_checked(path) or Unavailable(f"{error}, though the database file "
                                                    f"{path} passes SQLite's quick check")
    if code in _STORAGE_FAULTS:
        return Unavailable(str(error))
    return None


@contextmanager
def storage_faults(path: str):
    """Turn SQLite's storage faults on the database at ``path``, and a lock file that cannot
    be opened, into ``Unavailable``."""
    try:
        yield
    except sqlite3.DatabaseError as error:
        fault = storage_fault(error, path)
        if fault is None:
            raise
        raise fault from error
    except OSError as error:
        raise Unavailable(str(error)) from error


def _damage_checked(path: str) -> Damaged | None:
    """The database checked whole, with writers held off (a change half copied out of the
    write-ahead log is no damage): ``Damaged`` if SQLite finds it malformed."""
    try:
        with exclusive(path):
            problem = damage.check(path)
    except (sqlite3.Error, OSError):
        return None
    return problem and Damaged(path, problem)


def refuse_if_damaged(path: str) -> None:
    """Raise ``Damaged`` while the database was found damaged and has not changed since;
    once it changed (a backup put back), it is checked again."""
    found = damage.found(path)
    if found is None:
        return
    problem, unchanged = found
    if unchanged:
        raise Damaged(path, problem)
    damaged = _damage_checked(path)
    if damaged:
        raise damaged


@contextmanager
def writers_held_off(db):
    """No other thread or process writes to the file meanwhile: a change read and written
    inside cannot be overtaken (its write is committed on its own)."""
    path = _opened_files[db].path
    with storage_faults(path), exclusive(path):
        yield


@contextmanager
def writing(db):
    """A write transaction that takes the write lock at once: a second phone saving at the
    same moment waits for the first, then finds the match changed (no "database is
    locked" halfway through). A database not at the current schema, a file no longer under
    its name or one made read-only takes no write, so that nothing written is lost or
    shaped anew; a change counts as saved once it is in the database file itself."""
    opened = _opened_files[db]
    with writers_held_off(db):
        db.execute("BEGIN IMMEDIATE")
        try:
            moved = opened.moved()
            if moved:
                raise Unavailable(f"{moved} while in use")
            # A connection opened before goes on writing into a file made read-only since.
            if not os.access(opened.path, os.W_OK):
                raise Unavailable(f"the database file {opened.path} is read-only")
            if schema_version(db) != len(STEPS):
                raise Unavailable("the database's schema changed since it was opened")
            yield
        except BaseException:
            # A full disk or an I/O error may have rolled the transaction back already.
            if db.conn.in_transaction:
                db.conn.rollback()
            raise
        db.conn.commit()
        _kept(db, opened)


@contextmanager
def one_snapshot(db):
    """Reads that see the file as of one moment. A match's row and its hands are read by
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


def _copy_into_database(db) -> bool:
    """Copy what the write-ahead log holds into the database file (a checkpoint that waits
    for readers of older versions); whether all of it went in."""
    try:
        busy, frames, copied = db.execute("PRAGMA wal_checkpoint(FULL)").fetchone()
    except sqlite3.Error:
        return False
    return not busy and frames == copied


def _kept(db, opened: Opened) -> None:
    """Raise ``Unavailable`` unless the change just committed is kept. It is copied into the
    database file at once: a log file deleted while open takes with it whatever lives in it
    alone, and the next connection would find the log index pointing into an empty file.
    Should the copy not finish, the change is as safe as SQLite keeps it, in the log in
    place; in a log deleted meanwhile, or in a database file deleted or replaced, it is
    lost."""
    copied = _copy_into_database(db)
    moved = opened.moved()
    if moved and (not copied or _file_identity(opened.path) != opened.database):
        raise Unavailable(f"{moved} while a change was saved into it")


# Connections wait between requests for the next one, of whichever thread or greenlet:
# opening one (the file, its schema, the write-ahead log's index) costs more than a read
# that uses it, and a server holding thousands of open streams has file descriptors for
# the streams, not for a connection each.
IDLE_CONNECTIONS = 8
_idle: list[tuple[str, sqlite_utils.Database]] = []
_idle_lock = threading.Lock()
# The files moved under this process's connections that the log was told of: once each.
_told: set[tuple[Opened, str]] = set()


def _still_usable(db, opened: Opened) -> bool:
    """The connection's files are still the ones under their names, at the schema this
    version knows. A log or a database file replaced under it is told once in the log; a
    database file deleted is refused when the next connection finds it missing."""
    moved = opened.moved()
    if moved:
        database = _file_identity(opened.path)
        if database is not None and (opened, moved) not in _told:
            _told.add((opened, moved))
            going_on = ("the app goes on with the file now in place"
                        if database != opened.database else
                        "every saved change is in the database file, and the app goes on "
                        "with a new log")
            current_app.logger.warning("%s%s while in use: %s.", moved[0].upper(), moved[1:],
                                       going_on)
        return False
    try:
        return schema_version(db) == len(STEPS)
    except sqlite3.Error:
        return False


def _idle_connection(path: str) -> sqlite_utils.Database | None:
    """A waiting connection to ``path`` if nothing happened to its files since it was
    opened: no deletion, no replacement, the schema this version knows. One whose file did
    change is closed; the next request opens, migrates and checks it afresh."""
    while True:
        with _idle_lock:
            found = next((item for item in reversed(_idle) if item[0] == path), None)
            if found is None:
                return None
            _idle.remove(found)
        db = found[1]
        if _still_usable(db, _opened_files[db]):
            return db
        close(db)


def open_connection(path: str) -> sqlite_utils.Database:
    """A waiting connection to ``path``, else a new one, unless the file is missing or
    damaged; give it back with ``put_back``."""
    refuse_if_damaged(path)
    return _idle_connection(path) or connect(path, create=False)


def put_back(db: sqlite_utils.Database) -> None:
    """Let the next request use the connection, unless enough wait already or it holds a
    transaction (a fault ended the request halfway); whether its files were moved meanwhile
    is asked when it is taken again."""
    opened = _opened_files.get(db)
    if opened and not db.conn.in_transaction:
        with _idle_lock:
            if len(_idle) < IDLE_CONNECTIONS:
                _idle.append((opened.path, db))
                return
    close(db)


def close(db: sqlite_utils.Database) -> None:
    """Close the connection; one whose files were moved with writers held off. The last
    connection to a database file to close copies what the log index lists into it and
    deletes the log and its index by name: names that may now be another file's, whose
    changes are all in its database file only between two writes."""
    opened = _opened_files.get(db)
    if opened is None or opened.moved() is None:
        db.close()
        return
    try:
        with exclusive(opened.path):
            db.close()
    except OSError:
        db.close()


def path_of(db: sqlite_utils.Database) -> str:
    """The database file the connection opened."""
    return _opened_files[db].path
