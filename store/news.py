"""News of the matches: that a match moved on, told to whatever waits for it in this server
process. A trigger writes each change of a match into ``match_news`` in the change's own
transaction; one watcher per process reads the new rows of every process, at most
``WATCH_EVERY`` after they were committed, and wakes that match's subscribers. A phone's
stream waits on its subscription, never on the database.

``subscribe(database, *match_ids)`` and ``publish(database, match_id)`` are the whole
interface; on PostgreSQL, ``postgres_news`` hears the news of every server instead."""

import hashlib
import os
import sqlite3
import threading
import urllib.parse
from contextlib import closing

from . import postgres, postgres_news
from .subscribers import Subscribers, Subscription

WATCH_EVERY = 0.1  # seconds between two looks at the database, when nothing wakes it sooner
# How many rows of news the trigger keeps: far more than all processes write in a look.
NEWS_KEPT = 10000


def create_news(db) -> None:
    """The table and its trigger (a migration step): a match's version, title or deletion
    changed is news; the oldest rows beyond ``NEWS_KEPT`` go with each new one."""
    db.execute("CREATE TABLE match_news (seq INTEGER PRIMARY KEY AUTOINCREMENT, "
               "match_id INTEGER NOT NULL)")
    db.execute("CREATE TRIGGER match_news_of_change AFTER UPDATE OF version, title, deleted_at "
               "ON matches BEGIN "
               "INSERT INTO match_news (match_id) VALUES (NEW.id); "
               f"DELETE FROM match_news WHERE seq <= (SELECT max(seq) FROM match_news) - "
               f"{NEWS_KEPT}; END")


def news_id(version: int, title: str | None, deleted: bool) -> str:
    """What a phone that has heard a match's news has heard: the version, and the title,
    which is no version of its own; "gone" for a deleted match.

    >>> news_id(7, None, False), news_id(7, "x", True)
    ('7.e3b0c442', '7.gone')
    """
    if deleted:
        return f"{version}.gone"
    return f"{version}.{hashlib.sha256((title or '').encode()).hexdigest()[:8]}"


class _Watcher(Subscribers):
    """The process's one reader of ``match_news`` for one database file."""

    def __init__(self, path: str):
        super().__init__()
        self.path = path
        self._look_now = threading.Event()
        self._thread: threading.Thread | None = None

    def started(self) -> None:
        # Started by the first subscriber, in the process that serves it (never in a
        # server's parent process, whose threads a fork would not take along).
        if self._thread is None or not self._thread.is_alive():
            # Read now, before the subscriber looks at its match: what is committed after
            # that look is news to it.
            self._thread = threading.Thread(target=self._watch, args=(self._newest(),),
                                            daemon=True, name="match-news")
            self._thread.start()

    def look_now(self) -> None:
        self._look_now.set()

    def _open(self) -> sqlite3.Connection:
        """A connection of the watcher's own; a database file that is missing stays so."""
        return sqlite3.connect(f"file:{urllib.parse.quote(self.path)}?mode=rw", uri=True,
                               timeout=0)

    def _files(self) -> tuple:
        """Which files are under the database's and its log's names just now."""
        identities = []
        for name in (self.path, f"{self.path}-wal"):
            try:
                status = os.stat(name)
                identities.append((status.st_dev, status.st_ino))
            except FileNotFoundError:
                identities.append(None)
        return tuple(identities)

    def _newest(self) -> int | None:
        try:
            with closing(self._open()) as db:
                return db.execute("SELECT coalesce(max(seq), 0) FROM match_news").fetchone()[0]
        except sqlite3.Error:
            return None

    def _watch(self, last: int | None) -> None:
        """Read the new news rows whenever another connection committed (SQLite's
        ``data_version`` says so), until the process ends. A database that cannot be read
        just now is looked at again next time; one restored or replaced (its news numbered
        anew) is news for every match. The connection is opened anew when the database file
        or its log was deleted or replaced: SQLite would go on reading the old ones."""
        while True:
            self._look_now.wait(WATCH_EVERY)
            self._look_now.clear()
            try:
                with closing(self._open()) as db:
                    # Each connection counts its own data versions.
                    seen_version = opened = None
                    while True:
                        version = db.execute("PRAGMA data_version").fetchone()[0]
                        # That read opened the log: the files from then on are these.
                        opened = opened or self._files()
                        if self._files() != opened:
                            break
                        if version != seen_version:
                            seen_version = version
                            last = self._read(db, last)
                        self._look_now.wait(WATCH_EVERY)
                        self._look_now.clear()
            except sqlite3.Error:
                pass

    def _read(self, db, last: int | None) -> int:
        newest = db.execute("SELECT coalesce(max(seq), 0) FROM match_news").fetchone()[0]
        if last is None or newest < last:
            self._tell_everyone()
            return newest
        if newest > last:
            self._tell({match_id for (match_id,) in db.execute(
                "SELECT DISTINCT match_id FROM match_news WHERE seq > ?", [last])})
        return newest


_watchers: dict[str, _Watcher] = {}
_watchers_lock = threading.Lock()


def _watcher(path: str) -> _Watcher:
    with _watchers_lock:
        if path not in _watchers:
            _watchers[path] = _Watcher(path)
        return _watchers[path]


def subscribe(database: str, *match_ids: int) -> Subscription:
    """Wait for news of any of these matches of the database at ``database`` (a file's path
    or a PostgreSQL URL); close the subscription when done (it is a context manager)."""
    if postgres.is_url(database):
        return postgres_news.listener(database).join(*match_ids)
    return _watcher(database).join(*match_ids)


def publish(database: str, match_id: int) -> None:
    """A change of the match was committed in this process: the watcher looks at once
    instead of at its next turn (the row itself the change's transaction wrote). PostgreSQL
    sends its news by itself when the change commits."""
    if not postgres.is_url(database):
        _watcher(database).look_now()
