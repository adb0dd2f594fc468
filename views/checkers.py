"""Checkers: settle a question at the table. Burro: who won this trick?"""

from flask import Blueprint, redirect, request, url_for

from scoring import burro
from scoring.cards import split_tokens
from scoring.errors import ScoringError

from . import is_fragment_request, render
from .messages import refusal, trick_reason
from .rules import why_url
from .template_helpers import card_label

bp = Blueprint("checkers", __name__)


def _next_plays(text: str, args) -> str | None:
    """Apply a picker button to the typed trick, in card codes for a clean address;
    None when no button was pressed."""
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
        return " ".join(play.code if play else "-" for play in burro.parse_plays(" ".join(tokens)))
    except ScoringError:
        return " ".join(tokens)


@bp.get("/burro/trick")
def burro_trick():
    """Who wins the trick and leads next; the picker's buttons edit the trick in the URL."""
    text = request.args.get("plays", "")[:200]
    try:
        deck = burro.verify_deck(request.args.get("deck") or None)
    except ScoringError:
        deck = burro.DECKS[0]
    changed = _next_plays(text, request.args)
    if changed is not None:
        canonical = url_for("checkers.burro_trick", deck=deck, plays=changed or None)
        if not is_fragment_request():
            return redirect(canonical, 303)
        text = changed
    trick, refused = None, {}
    try:
        plays = burro.parse_plays(text)
        # Shown back the way this reader writes cards: "B♥" in German, "J♥" in English.
        text = " ".join(card_label(play) if play else "-" for play in plays)
        if len(plays) >= burro.MIN_PLAYERS:
            trick = burro.trick_winner(deck, plays)
    except ScoringError as problem:
        plays, refused = [], refusal(problem, "burro")
    body, status = render("checkers/burro_trick.html", "checker", deck=deck, text=text,
                          plays=plays, trick=trick, reason=trick and trick_reason(trick),
                          rule=why_url("burro", "trick_winner"),
                          picker=burro.cards_by_suit(deck), **refused)
    headers = {"HX-Push-Url": canonical} if changed is not None else {}
    return body, status, headers
