"""Pages every reader sees alike but for the tokens of their forms (a version of a score
sheet, a search of the rules): rendered once per address, language and content, each
request's own CSRF token and entry keys put into the kept copy."""

import os
import re
import secrets
import threading
import time
from collections.abc import Callable
from contextlib import suppress
from hashlib import sha256

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
    parts = _kept_pages.get(key, lambda: _shared_or_rendered(key, template, block, context))
    # Without entry keys the same phone gets the same bytes again, and without a token
    # (fragments, the read-only sheet's blocks) every phone does.
    g.answer_may_repeat = _KEY_SLOT not in parts
    return "".join(map(_filled, parts)), 200


# A page one server process rendered, the other reads instead of rendering it again: the
# four phones asking for a new version of a sheet reach both. Each is a file in the folder
# ``SHARED_PAGES`` for as long as the phones take to ask, shorter than the kernel waits to
# write a file out. (While a restart lets old and new processes overlap, a page may come
# from the other release, as it does to a phone that opened it before the restart.)
SHARED_FOR = 20  # seconds
_SWEEP_EVERY = 5  # seconds
_next_sweep = 0.0
# What this module writes there: a digest, or one being written.
_SHARED_NAME = re.compile(r"[0-9a-f]{64}(\.draft-[0-9]+-[0-9]+)?")


def start_sharing(folder: str | None) -> None:
    """Make the folder of shared pages, with none of an earlier run: the database may have
    been replaced since. A folder that cannot be made leaves each process its own pages."""
    if folder:
        with suppress(OSError):
            os.makedirs(folder, exist_ok=True)
        _remove_shared(folder, older_than=time.time())


def _shared_or_rendered(key: tuple, template: str, block: str,
                        context: Callable[[], dict]) -> list[str]:
    """The parts of the page as the other process shared them, else rendered and shared."""
    folder = current_app.config["SHARED_PAGES"]
    path = folder and os.path.join(folder, sha256(repr(key).encode()).hexdigest())
    parts = path and _read_shared(path)
    if not parts:
        parts = _cut_at_slots(_rendered_with_slots(template, block, context()))
        if path:
            _share(path, parts)
    return parts


def _read_shared(path: str) -> list[str] | None:
    """A shared page's parts, its slots made this process's own; None when there is none.
    Its first line names the slots of the process that wrote it."""
    try:
        with open(path, encoding="utf-8") as file:
            slots = file.readline().split()
            page = file.read()
    except (OSError, UnicodeDecodeError):
        return None
    if len(slots) != 2:
        return None
    token_slot, key_slot = slots
    own = {token_slot: _TOKEN_SLOT, key_slot: _KEY_SLOT}
    return [own.get(part, part) for part in _cut_at(page, token_slot, key_slot)]


def _share(path: str, parts: list[str]) -> None:
    """Write the page for the other process; written beside and moved into place, so that
    no reader finds half of it. A page that cannot be written is rendered there instead."""
    draft = f"{path}.draft-{os.getpid()}-{threading.get_ident()}"
    try:
        with open(draft, "w", encoding="utf-8") as file:
            file.write(f"{_TOKEN_SLOT} {_KEY_SLOT}\n")
            file.writelines(parts)
        os.replace(draft, path)
    except OSError:
        with suppress(OSError):
            os.remove(draft)
    global _next_sweep
    now = time.time()
    if now >= _next_sweep:
        _next_sweep = now + _SWEEP_EVERY
        _remove_shared(os.path.dirname(path), older_than=now - SHARED_FOR)


def _remove_shared(folder: str, older_than: float) -> None:
    """Remove the shared pages written before ``older_than``; nothing else in the folder."""
    with suppress(OSError), os.scandir(folder) as entries:
        for entry in entries:
            if _SHARED_NAME.fullmatch(entry.name):
                with suppress(OSError):
                    if entry.stat().st_mtime < older_than:
                        os.remove(entry.path)


def _cut_at_slots(page: str) -> list[str]:
    """The page in parts, each slot a part of its own: a request fills them with a join
    instead of searching the 50 kB page for them again (a sixth of a kept sheet's cost)."""
    return _cut_at(page, _TOKEN_SLOT, _KEY_SLOT)


def _cut_at(page: str, token_slot: str, key_slot: str) -> list[str]:
    return re.split(f"({re.escape(token_slot)}|{re.escape(key_slot)})", page)


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
