"""A bounded memory of results that cost work to derive, shared by the threads of a
process: the last ones asked for are kept, the oldest go first."""

import threading
from collections import OrderedDict
from collections.abc import Callable, Hashable


class Kept:
    """Results by key, at most ``size`` of them."""

    def __init__(self, size: int):
        self.size = size
        self._results: OrderedDict = OrderedDict()
        self._lock = threading.Lock()

    def get(self, key: Hashable, derive: Callable):
        """The result kept for ``key``, else ``derive()``'s, kept from now on."""
        with self._lock:
            if key in self._results:
                self._results.move_to_end(key)
                return self._results[key]
        result = derive()
        self.keep(key, result)
        return result

    def find(self, key: Hashable, absent=None):
        """The result kept for ``key``, or ``absent``."""
        with self._lock:
            return self._results.get(key, absent)

    def keep(self, key: Hashable, result) -> None:
        """Keep ``result`` for ``key``, in place of any kept before."""
        with self._lock:
            self._results[key] = result
            self._results.move_to_end(key)
            if len(self._results) > self.size:
                self._results.popitem(last=False)
