"""One error handler: an error page, a message fragment for htmx, or JSON under /api/."""

from flask import current_app, jsonify, make_response, render_template, request
from flask_babel import gettext as _
from flask_wtf.csrf import CSRFError
from jinja2_fragments.flask import render_block
from werkzeug.exceptions import HTTPException, InternalServerError, ServiceUnavailable

import store

from . import is_fragment_request

# How long a client waits before it sends a refused write again.
RETRY_AFTER_SECONDS = 10


def _explanation(error: HTTPException) -> str:
    if isinstance(error, CSRFError):
        return _("This form has expired or did not come from this page. Reload the page and "
                 "try again; nothing was saved.")
    return {
        400: _("The request could not be read; nothing was saved."),
        403: _("This link only shows the score: the players' link changes it. Nothing was "
               "saved."),
        404: _("There is no such page. A match link only works when copied whole."),
        405: _("That action is not possible here."),
        409: _("The match changed meanwhile; load it again before you change it."),
        413: _("That is far too much text; nothing was saved."),
        503: _("The server cannot store anything just now, so nothing was saved. Try again "
               "in a moment."),
    }.get(error.code, _("Something went wrong on our side; nothing was saved."))


def handle_http_error(error: HTTPException):
    """Render an HTTP error in the form the request asked for, with the error's own headers
    (a 405's ``Allow``)."""
    status, message = error.code, _explanation(error)
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


def register(app) -> None:
    app.register_error_handler(HTTPException, handle_http_error)
    app.register_error_handler(store.Unavailable, handle_unavailable)
    app.register_error_handler(Exception, handle_unexpected_error)
