"""The Host a request names: a host name or address, and perhaps a port, as a link can carry
them. A request naming any other (an empty or over-long label, a character no host name has,
a port no server has) is refused with a 400 before anything is built on it. Which hosts the
app answers for at all is ``TRUSTED_HOSTS``'s say (Flask's own check)."""

import ipaddress

from flask import Flask, request
from werkzeug.exceptions import BadRequest, SecurityError
from werkzeug.wsgi import host_is_trusted

# The limits of a name in DNS (RFC 1035): 63 octets a label, 253 for the name written out.
LONGEST_LABEL = 63
LONGEST_NAME = 253
# Stands in for a malformed Host, so that Flask can bind its routes and build the refusal's
# page: a name that no server has (RFC 6761), which no view ever sees.
STAND_IN = "host.invalid"
# Where the request keeps the Host it came with.
SET_ASIDE = "tablemate.malformed_host"


class MalformedHost(BadRequest):
    """The request's Host is no host a link could name."""


def well_formed(host: str | None) -> bool:
    """``host``, a Host header, names a host (and perhaps a port) a link could carry; no
    header at all (HTTP/1.0) leaves the server's own name in its place.

    >>> [well_formed(host) for host in ("scores.example.org", "192.168.1.23:5000",
    ...                                 "[::1]:5000", "laptop.local.", None)]
    [True, True, True, True, True]
    >>> [well_formed(host) for host in ("a..b", "x" * 64 + ".org", "ex_ample.org",
    ...                                 "example.org:65536", "example.org:", "[::g]", "")]
    [False, False, False, False, False, False, False]
    """
    if host is None:
        return True
    # Werkzeug's check of the characters and the port, given no names to match.
    if not host_is_trusted(host):
        return False
    if host.startswith("["):
        try:
            ipaddress.IPv6Address(host[1:host.index("]")])
        except ValueError:
            return False
        return True
    name = host.partition(":")[0].removesuffix(".")
    return (len(name) <= LONGEST_NAME
            and all(0 < len(label) <= LONGEST_LABEL for label in name.split(".")))


class SetAsideMalformedHost:
    """WSGI middleware: a malformed Host is set aside before Flask binds its routes to it
    (where it would fail, and leave even the error page without links)."""

    def __init__(self, wsgi_app):
        self.wsgi_app = wsgi_app

    def __call__(self, environ, start_response):
        host = environ.get("HTTP_HOST")
        if not well_formed(host):
            environ[SET_ASIDE] = host
            environ["HTTP_HOST"] = STAND_IN
        return self.wsgi_app(environ, start_response)


def refuse_malformed_host() -> None:
    """A request that came with a malformed Host is refused, whatever it asks."""
    # Under TRUSTED_HOSTS, Flask has refused the stand-in already.
    if SET_ASIDE in request.environ and not isinstance(request.routing_exception,
                                                         SecurityError):
        raise MalformedHost()


def register(app: Flask) -> None:
    """Check every request's Host; called before ``ProxyFix`` wraps the app, so that a
    forwarded Host is checked too."""
    app.wsgi_app = SetAsideMalformedHost(app.wsgi_app)
    app.before_request(refuse_malformed_host)
