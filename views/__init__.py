"""The web layer: blueprints that parse input, ask ``scoring``, use ``store`` and render."""

from flask import current_app, render_template, request, session
from jinja2_fragments.flask import render_block


def is_fragment_request() -> bool:
    """htmx asked for part of a page (a boosted request still wants the whole page)."""
    return request.headers.get("HX-Request") == "true" and "HX-Boosted" not in request.headers


def render(template: str, block: str, status: int = 200, **context):
    """One URL, page or fragment: the whole template, or only ``block`` for htmx."""
    if is_fragment_request():
        return render_block(template, block, **context), status
    return render_template(template, **context), status


def remembered_matches() -> list[str]:
    """The links of the matches opened on this device, newest first (kept in its cookie)."""
    return list(session.get("matches", []))


def remember_match(token: str) -> None:
    recent = [token, *(t for t in remembered_matches() if t != token)]
    session["matches"] = recent[:current_app.config["RECENT_MATCHES"]]
