"""The database's schema as ordered migrations (sqlite-utils ``Migrations``), applied at
start-up and by ``flask init-db``; applying them twice changes nothing.

A database of a release from before the named steps counts the steps it has seen in
``PRAGMA user_version``; it is adopted by recording that many steps as applied. The pragma
goes on counting the applied steps: a write checks the schema with one read, and an older
release refuses a database newer than it knows.
"""

import secrets

import sqlite_utils
from sqlite_utils.migrations import Migrations

from . import news
from .errors import Unavailable

# What an entry is: the live hand, or one an edit replaced or an undo took back.
ACTIVE, REPLACED, UNDONE = "active", "replaced", "undone"


def new_token() -> str:
    """A match's secret link (either of its two): 192 random bits."""
    return secrets.token_urlsafe(24)


def create_tables(db: sqlite_utils.Database) -> None:
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


def create_rules_index(db: sqlite_utils.Database) -> None:
    # Dropped again below: the index moved into a file of its own (rules_content.index).
    db["rule_sections"].create(
        {"id": int, "game": str, "lang": str, "section": str, "title": str, "level": int,
         "position": int, "text": str, "folded_title": str, "folded_text": str},
        pk="id",
    )
    db["rule_sections"].enable_fts(["folded_title", "folded_text"], tokenize="trigram")
    db["settings"].create({"key": str, "value": str}, pk="key")


def add_match_versions(db: sqlite_utils.Database) -> None:
    # Every change to a match's entries counts up its version; a form names the version it
    # was shown, so a change made meanwhile on another phone is noticed, not overwritten.
    db["matches"].add_column("version", int, not_null_default=0)


def add_entry_keys(db: sqlite_utils.Database) -> None:
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


def add_view_tokens(db: sqlite_utils.Database) -> None:
    # A second secret link per match that only shows the sheet: spectators and a screen at
    # the bar can follow the score without being able to change it.
    db["matches"].add_column("view_token", str)
    for (match_id,) in db.execute("SELECT id FROM matches").fetchall():
        db.execute("UPDATE matches SET view_token = ? WHERE id = ?", [new_token(), match_id])
    db["matches"].create_index(["view_token"], unique=True)


def add_titles_deletion_and_device_lists(db: sqlite_utils.Database) -> None:
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


def add_creation_keys(db: sqlite_utils.Database) -> None:
    # A client that sends "start this match" again after a lost answer gets the match it
    # started, not a second one. Counting a match's entries (at most MAX_ENTRIES) and
    # reading them want an index on their match.
    db["matches"].add_column("creation_key", str)
    db.execute("CREATE UNIQUE INDEX matches_creation_key ON matches (creation_key) "
               "WHERE creation_key IS NOT NULL")
    db["entries"].create_index(["match_id"])


def index_entry_versions(db: sqlite_utils.Database) -> None:
    # Saving a hand into a long match reads a few index entries, not every row of the
    # match: the entries changed since the version a server process knows (another process
    # saved them), and how many entries there are, live (the highest number in
    # entries_live) and replaced or undone (few, and in an index of their own).
    db.execute("CREATE INDEX entries_version ON entries (match_id, version)")
    db.execute("CREATE INDEX entries_retired ON entries (match_id, ended_version) "
               f"WHERE status != '{ACTIVE}'")


def add_rule_section_leads(db: sqlite_utils.Database) -> None:
    db["rule_sections"].add_column("folded_lead", str, not_null_default="")


def drop_rules_index(db: sqlite_utils.Database) -> None:
    # The rules are content, not what players entered: their index is a file of its own,
    # which every server builds for itself from the documents.
    # The full-text table first: dropping it drops the tables it keeps its index in.
    for table in ("rule_sections_fts", "rule_sections", "settings"):
        db.execute(f"DROP TABLE IF EXISTS [{table}]")


def add_import_dates(db: sqlite_utils.Database) -> None:
    # An imported match keeps its original's start: when it came to this server tells it
    # apart from that original on a phone's list. Older imports cannot be told, and stay NULL.
    db["matches"].add_column("imported_at", str)


def add_events(db: sqlite_utils.Database) -> None:
    # Club nights: the organiser's setup and the pairs' codes; each turn's seating as it was
    # opened (a Danish seating drawn from standings a later correction changes stays the one
    # the pairs sat at), with one match per table; and the confirmations of each table's
    # result (side 0 or 1 as the match orders its sides, NULL for the organiser's).
    db.execute("CREATE TABLE events (id INTEGER PRIMARY KEY, token TEXT NOT NULL UNIQUE, "
               "view_token TEXT NOT NULL UNIQUE, game TEXT NOT NULL, title TEXT NOT NULL, "
               "setup TEXT NOT NULL, codes TEXT NOT NULL, created_at TEXT NOT NULL, "
               "creation_key TEXT, imported_at TEXT)")
    db.execute("CREATE UNIQUE INDEX events_creation_key ON events (creation_key) "
               "WHERE creation_key IS NOT NULL")
    db.execute("CREATE TABLE event_turns (event_id INTEGER NOT NULL REFERENCES events (id), "
               "turn INTEGER NOT NULL, seating TEXT NOT NULL, opened_at TEXT NOT NULL, "
               "PRIMARY KEY (event_id, turn))")
    db.execute("CREATE TABLE event_tables (event_id INTEGER NOT NULL REFERENCES events (id), "
               "turn INTEGER NOT NULL, table_no INTEGER NOT NULL, "
               "match_id INTEGER NOT NULL UNIQUE REFERENCES matches (id), "
               "PRIMARY KEY (event_id, turn, table_no))")
    db.execute("CREATE TABLE confirmations (id INTEGER PRIMARY KEY, "
               "match_id INTEGER NOT NULL REFERENCES matches (id), side INTEGER, "
               "kind TEXT NOT NULL, version INTEGER NOT NULL, made_at TEXT NOT NULL)")
    db.execute("CREATE INDEX confirmations_match ON confirmations (match_id)")
    # The nights an organiser opened on a device, for its home page (as device_matches).
    db.execute("CREATE TABLE device_events (device TEXT NOT NULL, "
               "event_id INTEGER NOT NULL REFERENCES events (id), opened_at TEXT NOT NULL, "
               "PRIMARY KEY (device, event_id))")


# Append only: a released schema changes by a new step, never by editing an old one.
STEPS = (create_tables, create_rules_index, add_match_versions, add_entry_keys, add_view_tokens,
         add_titles_deletion_and_device_lists, add_creation_keys, index_entry_versions,
         add_rule_section_leads, news.create_news, drop_rules_index, add_import_dates,
         add_events)
MIGRATIONS = Migrations("tablemate")


def _counted(number: int, step):
    """``step``, counting itself into ``user_version`` in its own transaction."""
    def counted_step(db: sqlite_utils.Database) -> None:
        step(db)
        db.execute(f"PRAGMA user_version = {number:d}")
    return counted_step


for _number, _step in enumerate(STEPS, start=1):
    MIGRATIONS(name=_step.__name__)(_counted(_number, _step))

# The tables every Tablemate database has had since its first migration.
OWN_TABLES = {"matches", "players", "entries"}


def schema_version(db: sqlite_utils.Database) -> int:
    """How many migration steps the database has seen."""
    return db.execute("PRAGMA user_version").fetchone()[0]


def _applied(db: sqlite_utils.Database) -> list[str]:
    return [step.name for step in MIGRATIONS.applied(db)]


def verify_ours(db: sqlite_utils.Database) -> None:
    """Raise ``Unavailable`` unless the database is Tablemate's at a schema this version
    knows, or still empty."""
    version, tables = schema_version(db), set(db.table_names())
    unknown = set(_applied(db)) - {step.__name__ for step in STEPS}
    if version > len(STEPS) or unknown:
        raise Unavailable(f"schema version {version} is newer than this Tablemate knows")
    if tables and (version == 0 or not OWN_TABLES <= tables):
        raise Unavailable("the database file is not Tablemate's")


def migrate(db: sqlite_utils.Database) -> None:
    """Switch the database to WAL journaling and apply the migrations it has not seen yet,
    each in its own transaction; a file that is not Tablemate's is left alone."""
    verify_ours(db)
    db.enable_wal()
    counted = schema_version(db)
    if counted and not _applied(db):
        _adopt(db, counted)
    MIGRATIONS.apply(db)


def _adopt(db: sqlite_utils.Database, counted: int) -> None:
    """Record the first ``counted`` steps as applied, all at once, without running them: a
    database of a release that counted its steps in ``user_version`` has them already."""
    adopted = Migrations(MIGRATIONS.name)
    for step in STEPS[:counted]:
        adopted(name=step.__name__)(lambda _db: None)
    with db.atomic():
        adopted.apply(db)
