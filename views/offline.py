"""The service worker, served from the top of the site so that it looks after every page, and
the page it shows offline for a page the phone never kept."""

import hashlib

from flask import Blueprint, abort, current_app, render_template, url_for
from flask_babel import force_locale

from .api.docs import VIEWER as API_VIEWER
from .assets import DIGEST_LENGTH, all_hashed_urls

bp = Blueprint("offline", __name__)


@bp.get("/sw.js")
def worker():
    """The worker with today's list of static files: a release changes the list, the phone
    sees a new worker and swaps its kept files for the new ones."""
    # The API viewer is megabytes that a phone at the table never needs.
    assets = all_hashed_urls(leaving_out=(API_VIEWER,))
    version = hashlib.sha256("\n".join(assets).encode()).hexdigest()[:DIGEST_LENGTH]
    pages = {lang: url_for("offline.page", lang=lang) for lang in current_app.config["LANGUAGES"]}
    body = render_template("offline/sw.js", assets=assets, version=version,
                           digest_length=DIGEST_LENGTH, offline_pages=pages)
    # Phones look for a new worker on every visit; the answer is never kept on the way.
    return body, 200, {"Content-Type": "text/javascript; charset=utf-8",
                       "Cache-Control": "no-cache"}


@bp.get("/offline/<lang>")
def page(lang):
    """What the worker shows for a page this phone has not kept, with the wifi gone: what
    works offline and what does not, in each language (the worker keeps both)."""
    if lang not in current_app.config["LANGUAGES"]:
        abort(404)
    with force_locale(lang):
        return render_template("offline/page.html")
