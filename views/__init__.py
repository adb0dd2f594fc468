"""The web layer: blueprints that parse input, ask ``scoring``, use ``store`` and render."""

import re
import secrets
import unicodedata
from datetime import datetime

from flask import after_this_request, current_app, g, render_template, request, session
from flask_babel import format_date
from flask_babel import gettext as _
from jinja2_fragments.flask import render_block

import store
from scoring.cards import parse_plays, split_tokens
from scoring.errors import ScoringError
from scoring.players import hides_characters


def is_fragment_request() -> bool:
    """htmx asked for part of a page. A boosted request, and a page the browser's history
    must restore, still want the whole page."""
    return (request.headers.get("HX-Request") == "true" and "HX-Boosted" not in request.headers
            and "HX-History-Restore-Request" not in request.headers)


def vary_on(response, *names: str) -> None:
    """Add to the answer's Vary the ``names`` it lacks, in one write: ``response.vary``
    reads the header into a set and writes it back for every change."""
    present = response.headers.get("Vary", "")
    known = {name.strip().lower() for name in present.split(",")}
    missing = [name for name in names if name.lower() not in known]
    if missing:
        response.headers["Vary"] = ", ".join([present, *missing] if present else missing)


def render(template: str, block: str, status: int = 200, **context):
    """One URL, page or fragment: the whole template, or only ``block`` for htmx."""
    if is_fragment_request():
        return render_block(template, block, **context), status
    return render_template(template, **context), status


# --- The matches on this device ------------------------------------------------------------

DEVICE_COOKIE = "device"
# Browsers keep a cookie at most 400 days; every visit that reads the list renews it.
DEVICE_COOKIE_AGE = 400 * 24 * 3600
DEVICE_ID = re.compile(r"[A-Za-z0-9_-]{43}")


def device_id() -> str:
    """This device's random id, which keys its list of matches on the server (the cookie
    holds nothing else). A list an older version kept in the session cookie moves over."""
    if "device_id" in g:
        return g.device_id
    device = request.cookies.get(DEVICE_COOKIE, "")
    if not DEVICE_ID.fullmatch(device):
        device = secrets.token_urlsafe(32)
    g.device_id = device

    @after_this_request
    def keep_device_cookie(response):
        response.set_cookie(DEVICE_COOKIE, device, max_age=DEVICE_COOKIE_AGE, httponly=True,
                            samesite="Lax", secure=current_app.config["SESSION_COOKIE_SECURE"])
        return response

    if "matches" in session:
        for token in reversed(session.pop("matches")):
            store.remember_match(store.get_db(), device, token)
    return device


def remembered_matches() -> list[store.ListedMatch]:
    """The matches opened on this device, last opened first, with those it deleted that can
    still be restored."""
    return store.device_matches(store.get_db(), device_id())


def remember_match(token: str) -> None:
    """Put the match behind this edit link at the top of this device's list."""
    store.remember_match(store.get_db(), device_id(), token)


# --- A match's title -----------------------------------------------------------------------

TITLE_LIMIT = 60


class TitleRefused(ValueError):
    """A title that cannot be shown as typed; the message says why."""


def verify_title(text) -> str:
    """The title as every phone will show it (NFKC, spaces collapsed), or ``TitleRefused``."""
    if not isinstance(text, str):
        raise TitleRefused(_("A title is text."))
    text = unicodedata.normalize("NFKC", text)
    # Control, invisible and direction-changing characters make titles that look alike.
    if hides_characters(text):
        raise TitleRefused(_("A title cannot hold control or invisible characters."))
    title = " ".join(text.split())
    if not title:
        raise TitleRefused(_("Give the match a title."))
    if len(title) > TITLE_LIMIT:
        raise TitleRefused(_("A title has at most %(num)s characters.", num=TITLE_LIMIT))
    return title


def day_of(moment: str) -> str:
    """The day of a stored time, in the reader's language ("May 3, 2025", "03.05.2025")."""
    return format_date(datetime.fromisoformat(moment), "medium")


def match_title(match: store.Match) -> str:
    """The match's title; without one, its game and the day it began ("Burro · May 3,
    2025")."""
    return match.title or f"{match.game.capitalize()} · {day_of(match.created_at)}"


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
