"""Which database a ``DATABASE`` setting or a handle is: a SQLite file (``connection``) by
default, a PostgreSQL server (``postgres``) for a ``postgresql://`` URL. The store's modules
write their SQL once and ask here for what the two do differently."""

import sqlite3

from flask import current_app, g

from . import connection, postgres, postgres_schema, schema

# A unique index refused a row: two phones saving the same hand, a key seen before.
INTEGRITY_ERRORS = (sqlite3.IntegrityError, postgres.INTEGRITY_ERROR)


def on_postgres(db) -> bool:
    return isinstance(db, postgres.Database)


def connect(database: str, create: bool = True):
    """A handle of its own on ``database`` (a path or a URL), its schema up to date: close it
    when done."""
    if postgres.is_url(database):
        db = postgres.connect(database)
        try:
            with postgres.faults():
                postgres_schema.migrate(db)
        except BaseException:
            db.close()
            raise
        return db
    return connection.connect(database, create)


def prepare(database: str) -> bool:
    """At start: make the database ready (see ``connection.prepare``); whether a new, empty
    one was made where one had been, which only a file can tell."""
    if postgres.is_url(database):
        connect(database).close()
        return False
    return connection.prepare(database)


def schema_steps(database: str) -> int:
    """How many migration steps a database of this kind is brought up to."""
    return len(postgres_schema.STEPS if postgres.is_url(database) else schema.STEPS)


def storage_fault(error: BaseException, database: str):
    """The ``Unavailable`` behind an error met on ``database``, if it is one."""
    if postgres.is_url(database):
        return postgres.storage_fault(error)
    return connection.storage_fault(error, database)


def get_db():
    """The request's database handle: a waiting connection, else a new one."""
    if "db" not in g:
        database = current_app.config["DATABASE"]
        g.db = (postgres.open_connection(database) if postgres.is_url(database)
                else connection.open_connection(database))
    return g.db


def release_db(error=None) -> None:
    """At the end of a request, give its handle back for the next request; a SQLite
    connection that met an error is closed."""
    db = g.pop("db", None)
    if db is None:
        return
    if on_postgres(db) or error is not None:
        _close(db)
    else:
        connection.put_back(db)


def close_db(_error=None) -> None:
    """Close the handle for good, so that the next request opens the database afresh (after
    a fault, and outside requests: at start-up, in a command)."""
    db = g.pop("db", None)
    if db is not None:
        _close(db)


def _close(db) -> None:
    if on_postgres(db):
        db.close()
    else:
        connection.close(db)


def writing(db):
    """The write transaction (see ``connection.writing``, ``postgres.writing``)."""
    return (postgres if on_postgres(db) else connection).writing(db)


def writers_held_off(db):
    """No other writer meanwhile (see ``connection.writers_held_off``)."""
    return (postgres if on_postgres(db) else connection).writers_held_off(db)


def one_snapshot(db):
    """Reads that see the database as of one moment."""
    return (postgres if on_postgres(db) else connection).one_snapshot(db)


def address_of(db) -> str:
    """The database a handle opened, as the news names it: a path or a URL."""
    return db.url if on_postgres(db) else connection.path_of(db)


def insert_row(db, table: str, row: dict) -> int:
    """Insert ``row`` into ``table``; its id."""
    if on_postgres(db):
        return postgres.insert_row(db, table, row)
    return db[table].insert(row).last_pk


def insert_rows(db, table: str, rows) -> None:
    """Insert every row (dicts with the same keys) into ``table``."""
    if on_postgres(db):
        postgres.insert_rows(db, table, rows)
    else:
        db[table].insert_all(rows)


def references_to_matches(db) -> list[tuple[str, str]]:
    """The tables whose rows belong to a match, each with the column naming it."""
    if on_postgres(db):
        return postgres.references_to_matches(db)
    return [(table.name, key.column) for table in db.tables for key in table.foreign_keys
            if key.other_table == "matches"]


def greatest(db) -> str:
    """The function giving the greater of two values."""
    return postgres.GREATEST if on_postgres(db) else "max"
