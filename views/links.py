"""Absolute links, for QR codes, the share box and the API: built on the configured
``BASE_URL``, never on the Host header a request brings."""

from flask import current_app, url_for


def absolute_url(endpoint: str, **values) -> str:
    """The full address of ``endpoint``: on ``BASE_URL`` where it is set, else on the
    address the request came to (a laptop serving a table's wifi has no fixed name)."""
    base_url = current_app.config["BASE_URL"]
    if not base_url:
        return url_for(endpoint, _external=True, **values)
    return base_url + url_for(endpoint, **values)
