"""Static files under names that change with their content, cached by phones for a year.

``url_for("static", filename="app.css")`` gives ``/static/app.1f2e3d4c5b.css``: a phone keeps
that file without asking again, and a new release, with new names, is fetched at once. The
plain name still answers (the manifest's icons, an old page), but is checked each time.
"""

import hashlib
import os
import re

from flask import Flask, abort, current_app, send_from_directory
from werkzeug.security import safe_join

# A year, and "immutable": a named version never changes, so a phone need not even ask.
LONG_LIVED = 365 * 24 * 3600
DIGEST_LENGTH = 10
HASHED_NAME = re.compile(rf"^(?P<stem>.+)\.(?P<digest>[0-9a-f]{{{DIGEST_LENGTH}}})(?P<suffix>\.[^./]+)$")

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
