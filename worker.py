"""The worker gunicorn serves Tablemate with (``worker_class`` in `gunicorn.conf.py`): its
gevent worker, with the edge of the server held to what a phone can rely on. A phone that
stops sending its request, or taking the answer, for the app's ``STALL_TIMEOUT`` is
dropped; a body over the app's ``MAX_CONTENT_LENGTH`` is refused unread and ends its
connection; a body that cannot be read (a malformed chunk, a phone gone) is the app's 400,
not its 500; an answer after which the connection ends says so (``Connection: close``);
and the ``Server`` header names no software."""

import socket
import time

from gunicorn.http import wsgi
from gunicorn.workers.ggevent import GeventWorker

# What the Server header says: nothing for a scanner to look up.
SERVER = ""


class Body:
    """A request's body as the app reads it (``wsgi.input``). Reading it fails as Werkzeug
    expects of a broken stream (``OSError`` or ``ValueError``, which it answers 400), and
    ends the connection after the answer: where the next request would start is unknown."""

    def __init__(self, request):
        self._request = request
        self._body = request.body
        self.received = 0

    def _reading(self, read, size):
        try:
            data = read(size)
        except OSError:
            self._request.force_close()
            raise
        except Exception as error:  # gunicorn's own: a bad chunk size, a missing terminator
            self._request.force_close()
            raise ValueError(f"The request's body cannot be read: {error}") from error
        self.received += len(data) if isinstance(data, bytes) else sum(map(len, data))
        return data

    def read(self, size=None):
        return self._reading(self._body.read, size)

    def readline(self, size=None):
        return self._reading(self._body.readline, size)

    def readlines(self, size=None):
        return self._reading(self._body.readlines, size)

    def __iter__(self):
        return iter(self.readline, b"")


class Worker(GeventWorker):
    """gunicorn's gevent worker, bounded by the app's ``STALL_TIMEOUT`` and
    ``MAX_CONTENT_LENGTH``."""

    def init_process(self):
        # gunicorn has no setting for its Server header: each answer takes this value.
        wsgi.SERVER = SERVER
        super().init_process()

    def load_wsgi(self):
        super().load_wsgi()
        self.stall_timeout = self.wsgi.config["STALL_TIMEOUT"]
        self.max_body = self.wsgi.config["MAX_CONTENT_LENGTH"]

    def handle_request(self, listener_name, req, sock, addr):
        declared = _declared_length(req)
        refused = declared > self.max_body
        if refused:
            # Refused unread, such a body leaves no place where a next request could start.
            req.force_close()
        req.body = Body(req)
        # The headers had gunicorn's keepalive; the body and the answer wait this long a step.
        sock.settimeout(self.stall_timeout)
        try:
            super().handle_request(listener_name, req, sock, addr)
        except TimeoutError:
            self.log.debug("Dropped a connection stalled for %s s", self.stall_timeout)
            raise StopIteration from None
        except StopIteration:
            if refused:
                self._discard_the_rest(sock, declared - req.body.received)
            raise
        sock.settimeout(None)

    def _discard_the_rest(self, sock, length: int) -> None:
        """Let a phone finish sending the body the server refused, within the stall
        timeout, so that it reads the answer: closing with its body unread would reset the
        connection under it."""
        deadline = time.monotonic() + self.stall_timeout
        try:
            sock.shutdown(socket.SHUT_WR)
            while length > 0 and (left := deadline - time.monotonic()) > 0:
                sock.settimeout(left)
                received = sock.recv(min(length, 65536))
                if not received:
                    return
                length -= len(received)
        except OSError:  # the phone gone, or stalled
            pass


def _declared_length(req) -> int:
    """The body's length as its Content-Length says (0 without one; gunicorn has checked
    that it is a number)."""
    return next((int(value) for name, value in req.headers if name == "CONTENT-LENGTH"), 0)
