"""What every form of a page carries: the phone's CSRF token and, on an entry form, a key
of its own. A page rendered once for every phone (the news a match's streams send) carries
neither: the phone puts in its own token and makes its own keys (static/panel/live.js)."""

import secrets
from contextlib import contextmanager

from flask import g
from flask_wtf.csrf import generate_csrf


def csrf_token() -> str:
    """This phone's CSRF token (Flask-WTF's), or none on a page every phone shares."""
    return "" if g.get("shared_render") else generate_csrf()


def entry_key() -> str:
    """A fresh key for an entry form: unguessable, so two phones never share one; none on a
    page every phone shares."""
    return "" if g.get("shared_render") else secrets.token_urlsafe(12)


@contextmanager
def shared_render():
    """Render a page for every phone alike: no phone's token or keys in it."""
    g.shared_render = True
    try:
        yield
    finally:
        g.shared_render = False


def register(app) -> None:
    """Both as template globals (``csrf_token`` in place of Flask-WTF's own)."""
    app.add_template_global(csrf_token)
    app.add_template_global(entry_key)
