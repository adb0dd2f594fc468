"""Connections to PostgreSQL (a ``postgresql://`` URL as ``DATABASE``): one pool of them per
server process, each in autocommit outside its write transactions, and the few places where
its dialect differs from SQLite's. Its faults become ``Unavailable``.

The store writes its SQL once, with SQLite's placeholders (``?`` and ``:name``); a handle
here turns them into psycopg's before a statement goes out."""

import atexit
import functools
import re
import threading
from contextlib import contextmanager

import psycopg
from psycopg import errors as pg_errors
from psycopg.pq import TransactionStatus
from psycopg_pool import ConnectionPool

from .errors import Unavailable

SCHEMES = ("postgresql://", "postgres://")
# Connections a server process keeps: its requests hold one only while they read or write
# (a waiting stream holds none), so a few carry thousands of open sheets.
POOL_SIZE = 10
# How long a request waits for a connection of the pool, or for the server to answer one
# being opened, before it answers 503.
WAIT_FOR_CONNECTION = 5.0  # seconds
# Every connection: in autocommit (``writing`` opens the transactions), given up when the
# server does not answer within WAIT_FOR_CONNECTION, and a server gone without a word over
# TCP (a host switched off) noticed within some 25 s.
CONNECTION = {"autocommit": True, "connect_timeout": int(WAIT_FOR_CONNECTION),
              "keepalives": 1, "keepalives_idle": 10, "keepalives_interval": 5,
              "keepalives_count": 3}
# Taken shared by every write and alone by a write that holds off all others (see
# ``writers_held_off``): a number of Tablemate's own among the session's advisory locks.
WRITERS_LOCK = 0x7AB1E
# SQLite's two-argument max() is PostgreSQL's greatest().
GREATEST = "greatest"
INTEGRITY_ERROR = psycopg.IntegrityError


def is_url(database: str) -> bool:
    """Whether the ``DATABASE`` setting names a PostgreSQL server.

    >>> is_url("postgresql://tablemate@db/tablemate"), is_url("/var/lib/tablemate.sqlite")
    (True, False)
    """
    return database.startswith(SCHEMES)


_PLACEHOLDERS = re.compile(r"::|'(?:[^']|'')*'|\?|:(\w+)|%")


@functools.lru_cache(maxsize=512)
def translated(sql: str) -> str:
    """SQLite's placeholders as psycopg's, which reads a ``%`` anywhere as one of its own:
    quoted text and casts keep their ``?`` and ``:``.

    >>> translated("SELECT id::text, '?:' FROM m WHERE a = ? AND b = :b AND c LIKE '%x'")
    "SELECT id::text, '?:' FROM m WHERE a = %s AND b = %(b)s AND c LIKE '%%x'"
    """
    def placeholder(found: re.Match) -> str:
        text = found.group(0)
        if text == "?":
            return "%s"
        if found.group(1):
            return f"%({found.group(1)})s"
        return text.replace("%", "%%")
    return _PLACEHOLDERS.sub(placeholder, sql)


class Database:
    """A connection to the database, in autocommit outside ``writing``: each statement else
    is a transaction of its own, as with SQLite."""

    def __init__(self, url: str, connection: psycopg.Connection, pool=None):
        self.url, self.connection, self._pool = url, connection, pool

    def execute(self, sql: str, params=None) -> psycopg.Cursor:
        return self.connection.execute(translated(sql), params or None)

    def query(self, sql: str, params=None):
        """The rows a read gives, as dicts."""
        cursor = self.execute(sql, params)
        names = [column.name for column in cursor.description]
        return (dict(zip(names, row)) for row in cursor)

    def in_transaction(self) -> bool:
        """Inside a transaction, failed or not (a broken connection is in none)."""
        return self.connection.info.transaction_status in (TransactionStatus.INTRANS,
                                                           TransactionStatus.INERROR)

    def close(self) -> None:
        """Give the connection back to its pool (which rolls back what a fault left open
        and drops it if it broke), or close it if it has none."""
        if self._pool is not None:
            self._pool.putconn(self.connection)
        else:
            self.connection.close()


def connect(url: str) -> Database:
    """A connection of its own (at start, in a command), outside any pool."""
    with faults():
        return Database(url, psycopg.connect(url, **CONNECTION))


_pools: dict[str, ConnectionPool] = {}
_pools_lock = threading.Lock()


def _pool(url: str) -> ConnectionPool:
    """The process's pool for ``url``, opened by its first request (never in a server's
    parent process, whose threads a fork would not take along). A connection is checked
    when it is taken: one the server dropped meanwhile is replaced."""
    def checked(connection: psycopg.Connection) -> None:
        try:
            ConnectionPool.check_connection(connection)
        except psycopg.Error:
            # A server that dropped one (a restart) dropped them all: checked one by one,
            # the pool waits longer before each next one, and a request times out.
            threading.Thread(target=pool.check, daemon=True).start()
            raise

    with _pools_lock:
        if url not in _pools:
            pool = ConnectionPool(url, min_size=1, max_size=POOL_SIZE, kwargs=CONNECTION,
                                  check=checked, timeout=WAIT_FOR_CONNECTION,
                                  name="tablemate", open=True)
            # Its threads stopped while the process can still stop them, not at its end.
            atexit.register(close_pool, url)
            _pools[url] = pool
        return _pools[url]


def close_pool(url: str) -> None:
    """Close the process's pool for ``url``, if it has one: its connections and the threads
    that open them anew."""
    with _pools_lock:
        pool = _pools.pop(url, None)
    if pool is not None:
        pool.close()


def open_connection(url: str) -> Database:
    """A connection of the pool; give it back with ``close``."""
    pool = _pool(url)
    with faults():
        return Database(url, pool.getconn(), pool)


# A server gone, restarting or refusing connections, a full disk, a replica that takes no
# writes, a pool whose connections are all busy: once it is back, the same request succeeds.
_FAULTS = (psycopg.OperationalError, pg_errors.ReadOnlySqlTransaction,
           pg_errors.InsufficientResources)


def storage_fault(error: BaseException) -> Unavailable | None:
    """The fault behind an error of PostgreSQL's, if it is one."""
    if isinstance(error, Unavailable):
        return error
    if isinstance(error, _FAULTS):
        return Unavailable(f"PostgreSQL: {str(error).strip() or type(error).__name__}")
    return None


@contextmanager
def faults():
    """Turn PostgreSQL's faults into ``Unavailable``."""
    try:
        yield
    except psycopg.Error as error:
        fault = storage_fault(error)
        if fault is None:
            raise
        raise fault from error


@contextmanager
def writing(db: Database):
    """A write transaction: committed whole at its end, rolled back by an error. Writes to
    one match take turns on its row, locked by the first change of it (the version
    claimed); every write takes the writers' lock shared, so one that holds off all others
    waits for those under way, and they for it."""
    with faults(), db.connection.transaction():
        db.execute("SELECT pg_advisory_xact_lock_shared(?)", [WRITERS_LOCK])
        yield


@contextmanager
def writers_held_off(db: Database):
    """No other connection writes meanwhile: a change read and written inside cannot be
    overtaken (its writes join this transaction)."""
    with faults(), db.connection.transaction():
        db.execute("SELECT pg_advisory_xact_lock(?)", [WRITERS_LOCK])
        yield


@contextmanager
def one_snapshot(db: Database):
    """Reads that see the database as of one moment (see ``connection.one_snapshot``)."""
    if db.in_transaction():
        yield
        return
    with faults():
        db.execute("BEGIN ISOLATION LEVEL REPEATABLE READ, READ ONLY")
    try:
        yield
    finally:
        if db.in_transaction():
            db.execute("ROLLBACK")


def insert_row(db: Database, table: str, row: dict) -> int:
    """Insert ``row``; its id."""
    columns = ", ".join(row)
    marks = ", ".join(f":{column}" for column in row)
    return db.execute(f"INSERT INTO {table} ({columns}) VALUES ({marks}) RETURNING id",
                      row).fetchone()[0]


def insert_rows(db: Database, table: str, rows) -> None:
    """Insert every row (dicts with the same keys), in one round of statements."""
    rows = list(rows)
    if not rows:
        return
    columns = ", ".join(rows[0])
    marks = ", ".join(f":{column}" for column in rows[0])
    with db.connection.cursor() as cursor:
        cursor.executemany(translated(f"INSERT INTO {table} ({columns}) VALUES ({marks})"),
                           rows)


def references_to_matches(db: Database) -> list[tuple[str, str]]:
    """The tables whose rows belong to a match, with the column that names it."""
    return [tuple(row) for row in db.execute(
        "SELECT c.conrelid::regclass::text, a.attname FROM pg_constraint c "
        "JOIN pg_attribute a ON a.attrelid = c.conrelid AND a.attnum = c.conkey[1] "
        "WHERE c.contype = 'f' AND c.confrelid = 'matches'::regclass")]
