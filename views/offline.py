"""The service worker, served from the top of the site so that it looks after every page."""

import hashlib

from flask import Blueprint, render_template

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
    body = render_template("offline/sw.js", assets=assets, version=version,
                           digest_length=DIGEST_LENGTH)
    # Phones look for a new worker on every visit; the answer is never kept on the way.
    return body, 200, {"Content-Type": "text/javascript; charset=utf-8",
                       "Cache-Control": "no-cache"}
