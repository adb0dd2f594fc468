"""News of the matches on PostgreSQL: a trigger sends ``NOTIFY match_news`` with the match's
id inside the transaction of each change, so every server process on the database hears it
when the change commits. One connection per process listens, and opens itself anew when the
server drops it; meanwhile, and once it is back, every subscriber is told to look again,
since news may have passed unheard."""

import threading
import time

import psycopg

from .postgres import CONNECTION
from .subscribers import Subscribers

CHANNEL = "match_news"
# How long a subscriber waits for the listener to be listening before it looks at its
# match: what commits after that look must reach it.
LISTENING_WITHIN = 5.0  # seconds
# Between two attempts to listen again while the server does not answer.
RETRY_EVERY = 1.0  # seconds


class Listener(Subscribers):
    """The process's one listening connection to one database."""

    def __init__(self, url: str):
        super().__init__()
        self.url = url
        self._listening = threading.Event()
        self._thread: threading.Thread | None = None

    def join(self, *match_ids: int):
        """A subscription, once the listener listens (or ``LISTENING_WITHIN`` passed)."""
        subscription = super().join(*match_ids)
        self._listening.wait(LISTENING_WITHIN)
        return subscription

    def started(self) -> None:
        # Started by the first subscriber, in the process that serves it.
        if self._thread is None or not self._thread.is_alive():
            self._thread = threading.Thread(target=self._listen, daemon=True,
                                            name="match-news")
            self._thread.start()

    def _listen(self) -> None:
        """Listen until the process ends, connecting again whenever the connection fails."""
        while True:
            try:
                with psycopg.connect(self.url, **CONNECTION) as connection:
                    connection.execute(f"LISTEN {CHANNEL}")
                    self._listening.set()
                    # What committed while nobody listened is news to everyone.
                    self._tell_everyone()
                    for notice in connection.notifies():
                        self._tell([int(notice.payload)])
            except psycopg.Error:
                pass  # the server dropped the connection, or is not there yet
            self._listening.clear()
            self._tell_everyone()
            time.sleep(RETRY_EVERY)


_listeners: dict[str, Listener] = {}
_listeners_lock = threading.Lock()


def listener(url: str) -> Listener:
    """The process's listener to the database at ``url``."""
    with _listeners_lock:
        if url not in _listeners:
            _listeners[url] = Listener(url)
        return _listeners[url]
