"""How many matches one client may start, and import, and how many codes it may get wrong
confirming a result, in a while: Flask-Limiter counts the
requests of each client address against the quotas of the app's config, in each process's
memory or in the shared store ``RATELIMIT_STORAGE_URI`` names."""

import ipaddress
import math
import time

from flask import Flask, current_app, request
from flask_limiter import ApplicationLimit, Limiter
from limits import parse_many
from werkzeug.exceptions import HTTPException

# The requests that start matches (a club night through the page or the API too) and those
# that import one: the page's and the API's draw on one quota each.
STARTS = frozenset({"matches.create", "api.create_match", "events.create",
                    "api_events.create_event"})
IMPORTS = frozenset({"transfer.import_match", "api.import_match", "event_transfer.import_event",
                     "api_event_transfer.import_event"})
# A pair's confirmation with its code: only a refused one counts, so a room's tables
# confirming from one router never meet the quota, and guessing a code takes far more tries.
CONFIRMS = frozenset({"events.pair_confirms", "api_events.confirm_for_pair"})
STARTING, IMPORTING, CONFIRMING = "starts", "imports", "confirmations"


def counted_as(address: str) -> str:
    """The client an address stands for: an IPv6 address by its /64 network, which one
    device may roam at will, and an IPv4 one mapped into IPv6 as itself.

    >>> counted_as("2001:db8::1"), counted_as("::ffff:192.0.2.7"), counted_as("192.0.2.7")
    ('2001:db8::/64', '192.0.2.7', '192.0.2.7')
    """
    try:
        parsed = ipaddress.ip_address(address)
    except ValueError:
        return address or "unknown"
    if isinstance(parsed, ipaddress.IPv6Address):
        if parsed.ipv4_mapped:
            return str(parsed.ipv4_mapped)
        return str(ipaddress.IPv6Network((parsed, 64), strict=False))
    return str(parsed)


def client_address() -> str:
    """Who sent this request, as far as its address tells: the proxy's ``X-Forwarded-For``
    once ``BEHIND_PROXY`` trusts it (ProxyFix puts it in ``remote_addr``), else the peer's."""
    return counted_as(request.remote_addr or "")


def _starting_a_match() -> bool:
    # The new-match form also adds, removes and moves players' rows, which start nothing
    # (its CSRF check has read the form already).
    if request.endpoint not in STARTS:
        return False
    try:
        return request.form.get("action", "start") == "start"
    except HTTPException:
        # A form that cannot be read (too large) starts nothing; raised here, it would be
        # taken for a broken store of counts.
        return False


def _importing() -> bool:
    return request.endpoint in IMPORTS


def _confirming() -> bool:
    return request.endpoint in CONFIRMS


def _refused(response) -> bool:
    return response.status_code == 422


def _quota(app: Flask, name: str, scope: str, counted, deduct_when=None) -> ApplicationLimit:
    """The quota ``name`` of the config, read on every request so that a change applies at
    once, for the requests ``counted`` picks (those of them ``deduct_when`` picks by their
    answer, if given)."""
    try:
        parse_many(app.config[name])
    except ValueError:
        raise ValueError(f"{name} is a limit such as '60 per minute; 600 per hour', "
                         f"not {app.config[name]!r}") from None
    return ApplicationLimit(lambda: current_app.config[name], scope=scope,
                            exempt_when=lambda: not counted(), deduct_when=deduct_when)


def register(app: Flask) -> None:
    """Count every start and every import against its quota, for this app alone."""
    limiter = Limiter(client_address, application_limits=[
        _quota(app, "MATCHES_PER_CLIENT", STARTING, _starting_a_match),
        _quota(app, "IMPORTS_PER_CLIENT", IMPORTING, _importing),
        _quota(app, "CONFIRMS_PER_CLIENT", CONFIRMING, _confirming, deduct_when=_refused),
    ])
    # Any other request is waved through before a quota is even read: it costs nothing.
    limiter.request_filter(lambda: request.endpoint not in STARTS | IMPORTS | CONFIRMS)
    limiter.init_app(app)
    app.extensions["quotas"] = limiter


def retry_after() -> int:
    """Seconds until the quota this request went beyond has room again."""
    beyond = current_app.extensions["quotas"].current_limit
    return max(1, math.ceil(beyond.reset_at - time.time())) if beyond else 60
