"""Static files under names that change with their content, cached by phones for a year.

``url_for("static", filename="app.css")`` gives ``/static/app.1f2e3d4c5b.css``: a phone keeps
that file without asking again, and a new release, with new names, is fetched at once. The
plain name still answers (the manifest's icons, an old page), but is checked each time.
The entry panel's ES modules import each other by plain names (``./controls.js``); the
page's import map sends those to the versioned names too.
"""

import base64
import glob
import hashlib
import os
import re

from flask import Flask, abort, current_app, g, request, send_from_directory
from jinja2.utils import htmlsafe_json_dumps
from markupsafe import Markup
from werkzeug.security import safe_join

# A year, and "immutable": a named version never changes, so a phone need not even ask.
LONG_LIVED = 365 * 24 * 3600
DIGEST_LENGTH = 10
HASHED_NAME = re.compile(rf"^(?P<stem>.+)\.(?P<digest>[0-9a-f]{{{DIGEST_LENGTH}}})(?P<suffix>\.[^./]+)$")

# The folder of the entry panel's ES modules (no build step: the browser loads them as written).
MODULES = "panel"

# filename -> (modification time, digest): a file edited while the app runs gets a new name.
_digests: dict[str, tuple[float, str]] = {}


def digest(filename: str) -> str | None:
    """The first characters of the file's SHA-256, or None for a file that is not there
    (or a name that leaves the static folder)."""
    path = safe_join(current_app.static_folder, filename)
    if path is None or not os.path.isfile(path):
        return None
    modified = os.stat(path).st_mtime
    known = _digests.get(path)
    if known and known[0] == modified:
        return known[1]
    with open(path, "rb") as file:
        value = hashlib.sha256(file.read()).hexdigest()[:DIGEST_LENGTH]
    _digests[path] = (modified, value)
    return value


def hashed_name(filename: str) -> str:
    """``app.css`` as ``app.<digest>.css`` (a file with no suffix or not there keeps its name)."""
    stem, suffix = os.path.splitext(filename)
    value = digest(filename)
    if not value or not suffix or "/" in suffix:
        return filename
    return f"{stem}.{value}{suffix}"


def all_hashed_urls(leaving_out: tuple[str, ...] = ()) -> list[str]:
    """Every static file's versioned address but those in the folders ``leaving_out``, for
    the service worker to keep offline."""
    root = current_app.static_folder
    left_out = tuple(f"{folder}/" for folder in leaving_out)
    names = sorted(os.path.relpath(os.path.join(folder, name), root).replace(os.sep, "/")
                   for folder, _dirs, files in os.walk(root) for name in files)
    prefix = current_app.static_url_path
    return [f"{prefix}/{hashed_name(name)}" for name in names if not name.startswith(left_out)]


def module_urls() -> dict[str, str]:
    """Each module's plain address, as a module importing it by a relative name asks for
    it, mapped to its versioned address; read once for a page, which names them three
    times (the import map, the preloads, the CSP)."""
    if "module_urls" not in g:
        prefix = f"{request.script_root}{current_app.static_url_path}/"
        names = sorted(glob.glob(f"{MODULES}/*.js", root_dir=current_app.static_folder))
        g.module_urls = {prefix + name: prefix + hashed_name(name) for name in names}
    return g.module_urls


def import_map() -> Markup:
    """The page's ``<script type="importmap">``: every module comes by its versioned name,
    which a phone keeps a year and the service worker keeps offline."""
    return htmlsafe_json_dumps({"imports": module_urls()})


def import_map_source() -> str | None:
    """The import map of the page being answered as the Content-Security-Policy allows it,
    by the hash of its text; None for an answer that holds none (a fragment, a file)."""
    if "module_urls" not in g:
        return None
    digest = hashlib.sha256(str(import_map()).encode()).digest()
    return f"'sha256-{base64.b64encode(digest).decode()}'"


def _versioned(endpoint: str, values: dict) -> None:
    if endpoint == "static" and "filename" in values:
        values["filename"] = hashed_name(values["filename"])


def serve(filename: str):
    """A versioned name is served for a year; a plain or outdated one is checked each time."""
    named = HASHED_NAME.match(filename)
    if named:
        plain = named["stem"] + named["suffix"]
        if digest(plain) == named["digest"]:
            response = send_from_directory(current_app.static_folder, plain, max_age=LONG_LIVED)
            response.cache_control.immutable = True
            return response
        if digest(plain) is not None:
            # An outdated version asked for by an old page: today's file, not kept for long.
            return send_from_directory(current_app.static_folder, plain, max_age=0)
    if digest(filename) is None:
        abort(404)
    return send_from_directory(current_app.static_folder, filename, max_age=0)


def register(app: Flask) -> None:
    app.url_defaults(_versioned)
    app.view_functions["static"] = serve
    app.add_template_global(import_map)
    app.add_template_global(module_urls)
