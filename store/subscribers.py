"""Who in this server process waits for news of which match: the bookkeeping every reader of
the news (``news`` on SQLite, ``postgres_news``) shares."""

import threading
from abc import ABC, abstractmethod


class Subscription:
    """One waiter's interest in some matches (a sheet's one, a club night's tables): ``wait``
    returns True once one of them has news."""

    def __init__(self, subscribers: "Subscribers", match_ids: tuple[int, ...]):
        self._subscribers, self.match_ids = subscribers, match_ids
        self._news = threading.Event()

    def wait(self, timeout: float) -> bool:
        """Whether news came within ``timeout`` seconds (or before this call)."""
        told = self._news.wait(timeout)
        self._news.clear()
        return told

    def tell(self) -> None:
        self._news.set()

    def close(self) -> None:
        self._subscribers.leave(self)

    def __enter__(self):
        return self

    def __exit__(self, *_exc):
        self.close()


class Subscribers(ABC):
    """The subscriptions of one database, by match; a reader of its news tells them."""

    def __init__(self):
        self._subscribers: dict[int, set[Subscription]] = {}
        self._lock = threading.Lock()

    def join(self, *match_ids: int) -> Subscription:
        subscription = Subscription(self, match_ids)
        with self._lock:
            for match_id in match_ids:
                self._subscribers.setdefault(match_id, set()).add(subscription)
            self.started()
        return subscription

    @abstractmethod
    def started(self) -> None:
        """Start reading the news, if nothing reads it yet (with the subscribers locked)."""

    def leave(self, subscription: Subscription) -> None:
        with self._lock:
            for match_id in subscription.match_ids:
                waiting = self._subscribers.get(match_id)
                if waiting is not None:
                    waiting.discard(subscription)
                    if not waiting:
                        del self._subscribers[match_id]

    def _tell(self, match_ids) -> None:
        with self._lock:
            told = {subscription for match_id in match_ids
                    for subscription in self._subscribers.get(match_id, ())}
        for subscription in told:
            subscription.tell()

    def _tell_everyone(self) -> None:
        with self._lock:
            told = [subscription for waiting in self._subscribers.values()
                    for subscription in waiting]
        for subscription in told:
            subscription.tell()
