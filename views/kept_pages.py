"""Pages every reader sees alike but for the tokens of their forms (a version of a score
sheet, a search of the rules): rendered once per address, language and content, each
request's own CSRF token and entry keys put into the kept copy."""

import re
import secrets
from collections.abc import Callable

from flask import current_app, g, request
from flask_compress import Compress

from . import is_fragment_request, render, vary_on
from .i18n import locale_name
from .kept import Kept
from .signing import csrf_token

# At a table night a hundred sheets change within one 3 s poll, each asked for by four
# phones; a sheet is some 50 kB.
_kept_pages = Kept(512)
# What stands for the tokens in a kept page: random, so no text a reader typed contains it.
_TOKEN_SLOT = secrets.token_hex(16)
_KEY_SLOT = secrets.token_hex(16)


def entry_key() -> str:
    """A fresh key for an entry form: unguessable, so two phones never share one."""
    return _KEY_SLOT if g.get("rendering_kept") else secrets.token_urlsafe(12)


def render_kept(content_key: tuple, template: str, block: str, context: Callable[[], dict]):
    """``render`` with a 200 of the template (or its ``block`` for htmx) with ``context()``,
    kept by ``content_key`` (what the context is derived from), the address, the language
    and whether the page or the block was asked for."""
    key = (content_key, template, is_fragment_request(), request.full_path,
           request.script_root, locale_name())
    parts = _kept_pages.get(key, lambda: _cut_at_slots(
        _rendered_with_slots(template, block, context())))
    # Without entry keys the same phone gets the same bytes again, and without a token
    # (fragments, the read-only sheet's blocks) every phone does.
    g.answer_may_repeat = _KEY_SLOT not in parts
    return "".join(map(_filled, parts)), 200


def _cut_at_slots(page: str) -> list[str]:
    """The page in parts, each slot a part of its own: a request fills them with a join
    instead of searching the 50 kB page for them again (a sixth of a kept sheet's cost)."""
    return re.split(f"({_TOKEN_SLOT}|{_KEY_SLOT})", page)


def _filled(part: str) -> str:
    """A part of a kept page as this request sends it. Each form its own key: a save and an
    undo on one page are two changes."""
    if part == _TOKEN_SLOT:
        return csrf_token()
    if part == _KEY_SLOT:
        return entry_key()
    return part


def _rendered_with_slots(template: str, block: str, context: dict) -> str:
    """The page with slots where its forms ask for a token: Flask-WTF hands every call
    within a request the token it keeps in ``g``."""
    field = current_app.config.get("WTF_CSRF_FIELD_NAME", "csrf_token")
    real = g.pop(field, None)
    setattr(g, field, _TOKEN_SLOT)
    g.rendering_kept = True
    try:
        return render(template, block, **context)[0]
    finally:
        g.rendering_kept = False
        g.pop(field)
        if real is not None:
            setattr(g, field, real)


# The compressed answers of kept pages, by the very bytes compressed and the encodings the
# phone accepts: compressing a rules page cost more than searching and rendering it.
_compressed_answers = Kept(256)


def compressing(compress: Compress):
    """An after-request handler: ``compress``'s, which compresses each kept page once for
    the encodings a phone accepts. (Flask-Compress's own cache is keyed by the request
    alone, and would keep every answer.)"""
    def compress_answer(response):
        if not g.get("answer_may_repeat"):
            return compress.after_request(response)
        key = (request.headers.get("Accept-Encoding", ""), response.status_code,
               response.mimetype, response.get_data())
        kept = _compressed_answers.find(key)
        if kept is None:
            response = compress.after_request(response)
            # An answer left plain (no encoding the phone takes) costs nothing to send again.
            if "Content-Encoding" in response.headers:
                _compressed_answers.keep(key, (response.get_data(),
                                               response.headers["Content-Encoding"]))
            return response
        body, encoding = kept
        response.set_data(body)
        response.headers["Content-Encoding"] = encoding
        vary_on(response, "Accept-Encoding")
        return response
    return compress_answer
