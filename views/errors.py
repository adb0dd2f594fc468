"""One error handler: an error page, a message fragment for htmx, or JSON under /api/."""

from flask import current_app, jsonify, make_response, render_template, request
from flask_babel import format_timedelta
from flask_babel import gettext as _
from flask_limiter import RateLimitExceeded
from flask_wtf.csrf import CSRFError
from jinja2_fragments.flask import render_block
from werkzeug.exceptions import HTTPException, InternalServerError, ServiceUnavailable

import store

from . import is_fragment_request, quotas
from .hosts import MalformedHost
from .template_helpers import number

# The endpoints that hand a match out as a file.
EXPORTS = ("export_csv", "export_match")
# How long a client waits before it sends a refused write again.
RETRY_AFTER_SECONDS = 10


def _explanation(error: HTTPException) -> str:
    if isinstance(error, CSRFError):
        return _("This form has expired or did not come from this page. Reload the page and "
                 "try again; nothing was saved.")
    if isinstance(error, MalformedHost):
        return _("The address is malformed (its host name or port), so no link can be built on "
                 "it. Open the link the table shares; nothing was saved.")
    return {
        400: _("The request could not be read; nothing was saved."),
        403: _forbidden(),
        404: _("There is no such page. A match link only works when copied whole."),
        405: _("That action is not possible here."),
        409: _("The match changed meanwhile; load it again before you change it."),
        413: _too_large(),
        503: _("The server cannot store anything just now, so nothing was saved. Try again "
               "in a moment."),
    }.get(error.code, _("Something went wrong on our side; nothing was saved."))


def _forbidden() -> str:
    """A read-only link asked for what only the players' link gives: said for what was
    asked (a download saves nothing, so "nothing was saved" would not answer it)."""
    if request.endpoint and request.endpoint.rpartition(".")[2] in EXPORTS:
        return _("This link only shows the score: the match can be downloaded from the "
                 "players' link.")
    if request.method in ("GET", "HEAD"):
        return _("This link only shows the score: the players' link opens this page.")
    return _("This link only shows the score: the players' link changes it. Nothing was "
             "saved.")


def _too_large() -> str:
    """A body beyond its request's limit: the limit, and what a match to import may hold."""
    size = number((request.max_content_length or 0) // 1024)
    if request.endpoint in quotas.IMPORTS:
        return _("A match to import may be at most %(num)s KB with at most %(entries)s "
                 "entries here; this one is larger, so nothing was saved.", num=size,
                 entries=number(store.MAX_ENTRIES))
    return _("That is more than %(num)s KB, the most one request may send here; nothing "
             "was saved.", num=size)


def _beyond_quota(error: RateLimitExceeded, seconds: int) -> str:
    wait = format_timedelta(seconds)
    if error.limit.scope == quotas.CONFIRMING:
        return _("Many wrong codes were typed on this network in a short time. Try again "
                 "in %(wait)s; nothing was saved.", wait=wait)
    if error.limit.scope == quotas.IMPORTING:
        return _("Many matches were imported from this network in a short time. Try again "
                 "in %(wait)s; nothing was saved.", wait=wait)
    return _("Many matches were started from this network in a short time. Try again in "
             "%(wait)s; nothing was saved.", wait=wait)


def handle_http_error(error: HTTPException, message: str | None = None):
    """Render an HTTP error in the form the request asked for, with the error's own headers
    (a 405's ``Allow``)."""
    status, message = error.code, message or _explanation(error)
    headers = [(name, value) for name, value in error.get_headers()
               if name.lower() != "content-type"]
    if request.path.startswith("/api/"):
        return jsonify(error=message), status, headers
    if is_fragment_request():
        # The page stays as it is; the message shows in its flash area.
        headers += [("HX-Retarget", "#flash"), ("HX-Reswap", "innerHTML")]
        return render_block("error.html", "message", message=message), status, headers
    return render_template("error.html", status=status, message=message), status, headers


def handle_unexpected_error(error: Exception):
    """A bug must not show a trace; it is logged, and the player sees a plain message. A
    storage fault met while reading is answered as one met while writing."""
    fault = store.storage_fault(error, current_app.config["DATABASE"])
    if fault is not None:
        return handle_unavailable(fault)
    current_app.logger.exception("Unhandled error", exc_info=error)
    return handle_http_error(InternalServerError())


def handle_unavailable(error: store.Unavailable):
    """A full disk, a read-only, missing or damaged database: a 503 saying nothing was
    saved, and one line in the log (not a traceback for every request while it lasts)."""
    current_app.logger.error("Nothing saved, the database is unavailable: %s", error)
    store.close_db()
    response = make_response(handle_http_error(ServiceUnavailable()))
    response.retry_after = RETRY_AFTER_SECONDS
    return response


def beyond_quota(error: RateLimitExceeded) -> tuple[str, int]:
    """Why a start or import beyond the client's quota is refused, and in how many seconds
    it may be tried again."""
    seconds = quotas.retry_after()
    return _beyond_quota(error, seconds), seconds


def handle_beyond_quota(error: RateLimitExceeded):
    """A client that started or imported more matches than its quota: a 429 saying when it
    may try again, in words and in ``Retry-After``."""
    message, seconds = beyond_quota(error)
    response = make_response(handle_http_error(error, message))
    response.retry_after = seconds
    return response


def register(app) -> None:
    app.register_error_handler(HTTPException, handle_http_error)
    app.register_error_handler(RateLimitExceeded, handle_beyond_quota)
    app.register_error_handler(store.Unavailable, handle_unavailable)
    app.register_error_handler(Exception, handle_unexpected_error)
