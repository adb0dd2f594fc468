"""A database file found damaged: what SQLite's quick check finds wrong with it, kept until
the file changes (a restore, a copy put back), so that meanwhile nothing is read from it or
written into it."""

import os
import sqlite3
import threading
import urllib.parse
from contextlib import closing

# What was found wrong with each damaged database, and the file's state when it was.
_found: dict[str, tuple[tuple | None, str]] = {}
_found_lock = threading.Lock()


def _file_state(path: str) -> tuple[int, int, int, int] | None:
    """The file's identity, size and last change: putting a backup back changes one."""
    try:
        status = os.stat(path)
    except FileNotFoundError:
        return None
    return status.st_dev, status.st_ino, status.st_size, status.st_mtime_ns


def found(path: str) -> tuple[str, bool] | None:
    """What was found wrong with the database at ``path``, if anything, and whether the file
    is still as it was then."""
    with _found_lock:
        state, problem = _found.get(path, (None, None))
    return problem and (problem, _file_state(path) == state)


def check(path: str) -> str | None:
    """What SQLite's quick check of the whole file finds wrong (the first problems), kept for
    ``found``; None, and nothing kept, when the file is sound. A fault that keeps the check
    from reading the file (a disk error, a missing file) is raised as the ``sqlite3.Error``
    it is: it says nothing of the file's pages."""
    state = _file_state(path)
    try:
        with closing(sqlite3.connect(f"file:{urllib.parse.quote(path)}?mode=rw",
                                     uri=True)) as db:
            problems = [row[0] for row in db.execute("PRAGMA quick_check(3)")]
    except sqlite3.DatabaseError as error:
        if getattr(error, "sqlite_errorcode", 0) & 0xFF != sqlite3.SQLITE_CORRUPT:
            raise
        problems = [str(error)]
    # Told in one line of the log: the problems on one, without the name of the schema.
    problem = None if problems == ["ok"] else "; ".join(
        " ".join(found.split()).removeprefix("*** in database main *** ") for found in problems)
    with _found_lock:
        if problem:
            _found[path] = state, problem
        else:
            _found.pop(path, None)
    return problem


def remember(path: str, problem: str) -> None:
    """The database at ``path`` was found damaged in a way the quick check does not see."""
    with _found_lock:
        _found[path] = _file_state(path), problem


def forget(path: str) -> None:
    """The file at ``path`` was put right (a backup restored into it)."""
    with _found_lock:
        _found.pop(path, None)
