"""Persistence on SQLite through sqlite-utils, or on PostgreSQL through psycopg: matches,
their players, every entry made and each device's list, with the news that a match moved on.

The modules: ``backend`` (which of the two a setting or a handle is), ``schema``
(migrations), ``events`` (club nights), ``connection`` (a SQLite file: opening, faults, the write transaction),
``damage`` (a file found damaged), ``postgres``, ``postgres_schema`` and ``postgres_news``
(the same on PostgreSQL), ``matches``, ``hands``, ``devices``, ``backup``, ``subscribers``
and ``news``.
"""

from . import events, news
from .backend import (
    close_db,
    connect,
    get_db,
    prepare,
    release_db,
    schema_steps,
    storage_fault,
    writers_held_off,
)
from .backup import backup, restore
from .devices import ListedMatch, archive_match, device_matches, remember_match
from .errors import (
    BadBackup,
    Damaged,
    MatchDeleted,
    MatchFull,
    ResultConfirmed,
    StaleEntry,
    Unavailable,
)
from .hands import (
    MAX_ENTRIES,
    Change,
    PastEntry,
    add_hand,
    change_made_with,
    changes_since,
    match_entries,
    past_entries,
    replace_hand,
    undo_last_hand,
)
from .matches import (
    Match,
    create_match,
    delete_match,
    get_match,
    get_watched_match,
    import_match,
    match_created_with,
    match_state,
    purge_deleted,
    rename_match,
    restore_match,
    shown_version,
    verify_unknown,
)
from .moving import copy_matches
from .schema import (
    ACTIVE,
    MIGRATIONS,
    REPLACED,
    STEPS,
    UNDONE,
    migrate,
    new_token,
    schema_version,
)

__all__ = [
    "ACTIVE", "MAX_ENTRIES", "MIGRATIONS", "REPLACED", "STEPS", "UNDONE",
    "BadBackup", "Change", "Damaged", "ListedMatch", "Match", "MatchDeleted", "MatchFull", "PastEntry",
    "ResultConfirmed", "StaleEntry", "Unavailable", "add_hand", "archive_match", "backup", "change_made_with",
    "changes_since", "close_db", "connect", "copy_matches", "create_match", "delete_match",
    "device_matches", "events",
    "get_db", "get_match", "get_watched_match", "import_match", "match_created_with",
    "match_entries", "match_state", "migrate", "new_token", "news",
    "past_entries", "prepare", "purge_deleted", "release_db", "remember_match",
    "rename_match", "replace_hand", "restore", "restore_match", "schema_steps",
    "schema_version",
    "shown_version", "storage_fault", "undo_last_hand", "verify_unknown",
    "writers_held_off",
]
