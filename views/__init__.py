"""The web layer: blueprints that parse input, ask ``scoring``, use ``store`` and render."""

from flask import current_app, render_template, request, session
from jinja2_fragments.flask import render_block

from scoring.burro import parse_plays
from scoring.cards import split_tokens
from scoring.errors import ScoringError


def is_fragment_request() -> bool:
    """htmx asked for part of a page. A boosted request, and a page the browser's history
    must restore, still want the whole page."""
    return (request.headers.get("HX-Request") == "true" and "HX-Boosted" not in request.headers
            and "HX-History-Restore-Request" not in request.headers)


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


def picked_cards(text: str, args) -> str | None:
    """Apply a card picker's button (add a card, a pass, take back the last, clear) to typed
    cards, written as card codes for a clean address; None when no button was pressed."""
    tokens = split_tokens(text)
    if "add" in args:
        tokens.append(args["add"])
    elif "pass" in args:
        tokens.append("-")
    elif "back" in args:
        tokens = tokens[:-1]
    elif "clear" in args:
        tokens = []
    else:
        return None
    try:
        return " ".join(play.code if play else "-" for play in parse_plays(" ".join(tokens)))
    except ScoringError:
        return " ".join(tokens)
