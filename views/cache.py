"""The one thing the server keeps of what it derived: the sheet each version of a match is
sent as to its waiting phones (and the board each state of a club night is sent as). Keyed by the match's link and version with everything else
the rendering reads (the language, the version the phones had seen, the path the app is
served under, never the Host a request names); a version never changes once written, and a
release starts a new process with nothing kept. At most ``size`` results, the oldest going
first."""

import threading
from collections import OrderedDict
from collections.abc import Callable, Hashable


class Cache:
    """Results by key, at most ``size`` of them, shared by the threads of a process."""

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
        with self._lock:
            self._results[key] = result
            if len(self._results) > self.size:
                self._results.popitem(last=False)
        return result
