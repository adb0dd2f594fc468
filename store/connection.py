"""Connections to the database file: opened with foreign keys on, prepared (WAL, the schema)
once per file by one process at a time, kept between requests, and written through one
transaction at a time. SQLite's storage faults become ``Unavailable``."""

import fcntl
import os
import sqlite3
import threading
import weakref
from contextlib import contextmanager

import sqlite_utils
from flask import current_app, g

from .errors import Unavailable
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
    with storage_faults():
        # Any thread may use it next, one at a time (a request's, a greenlet's).
        db = sqlite_utils.Database(sqlite3.connect(path, check_same_thread=False))
        try:
            db.execute("PRAGMA foreign_keys = ON")
            opened = _file_identity(path)
            if _prepared.get(path) != opened or schema_version(db) != len(STEPS):
                _prepared.pop(path, None)
                with exclusive(path):
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
def storage_faults():
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


@contextmanager
def writers_held_off(db):
    """No other thread or process writes to the file meanwhile: a change read and written
    inside cannot be overtaken (its write is committed on its own)."""
    with storage_faults(), exclusive(_opened_files[db][0]):
        yield


@contextmanager
def writing(db):
    """A write transaction that takes the write lock at once: a second phone saving at the
    same moment waits for the first, then finds the match changed (no "database is
    locked" halfway through). A database not at the current schema, or a file no longer
    under its name, takes no write, so that nothing written is lost or shaped anew."""
    with writers_held_off(db):
        db.execute("BEGIN IMMEDIATE")
        try:
            if schema_version(db) != len(STEPS) or not _still_in_place(db):
                raise Unavailable("the database file changed since it was opened")
            yield
        except BaseException:
            # A full disk or an I/O error may have rolled the transaction back already.
            if db.conn.in_transaction:
                db.conn.rollback()
            raise
        db.conn.commit()


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
            if _file_state(path) == state and schema_version(db) == len(STEPS):
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


def path_of(db: sqlite_utils.Database) -> str:
    """The database file the connection opened."""
    return _opened_files[db][0]
