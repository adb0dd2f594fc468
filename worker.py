"""The worker gunicorn serves Tablemate with (``worker_class`` in `gunicorn.conf.py`): its
gevent worker, with the edge of the server held to what a phone can rely on. A phone that
stops sending its request, or taking the answer, for the app's ``STALL_TIMEOUT`` is
dropped; a body that cannot be read (a malformed chunk, a phone gone) is the app's 400,
not its 500; an answer after which the connection ends says so (``Connection: close``)."""

from gunicorn.workers.ggevent import GeventWorker


class Body:
    """A request's body as the app reads it (``wsgi.input``). Reading it fails as Werkzeug
    expects of a broken stream (``OSError`` or ``ValueError``, which it answers 400), and
    ends the connection after the answer: where the next request would start is unknown."""

    def __init__(self, request):
        self._request = request
        self._body = request.body

    def _reading(self, read, size):
        try:
            return read(size)
        except OSError:
            self._request.force_close()
            raise
        except Exception as error:  # gunicorn's own: a bad chunk size, a missing terminator
            self._request.force_close()
            raise ValueError(f"The request's body cannot be read: {error}") from error

    def read(self, size=None):
        return self._reading(self._body.read, size)

    def readline(self, size=None):
        return self._reading(self._body.readline, size)

    def readlines(self, size=None):
        return self._reading(self._body.readlines, size)

    def __iter__(self):
        return iter(self.readline, b"")


class Worker(GeventWorker):
    """gunicorn's gevent worker, bounded by the app's ``STALL_TIMEOUT``."""

    def load_wsgi(self):
        super().load_wsgi()
        self.stall_timeout = self.wsgi.config["STALL_TIMEOUT"]

    def handle_request(self, listener_name, req, sock, addr):
        req.body = Body(req)
        # The headers had gunicorn's keepalive; the body and the answer wait this long a step.
        sock.settimeout(self.stall_timeout)
        try:
            super().handle_request(listener_name, req, sock, addr)
        except TimeoutError:
            self.log.debug("Dropped a connection stalled for %s s", self.stall_timeout)
            raise StopIteration from None
        sock.settimeout(None)
