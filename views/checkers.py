"""The checkers: their index page, and what every game's checker page shares (each game's
checkers live with their game in views/games/): a picker's tap edits the cards in the
address, cards are typed back as the reader writes them, and a page answers whole or, for
htmx, its form."""

from flask import Blueprint, redirect, request, url_for

from scoring.cards import Suit, parse_cards, parse_plays, parse_suit, split_tokens
from scoring.errors import ScoringError

from . import is_fragment_request, render
from .template_helpers import card_label

bp = Blueprint("checkers", __name__)


@bp.get("/check")
def index():
    """Every checker, by game."""
    return render("checkers/index.html", "main")


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


def shown(cards) -> str:
    """Cards typed back the way this reader writes them: "B♥" in German, "J♥" in English."""
    return " ".join(card_label(card) if card else "-" for card in cards)


def pick_into(endpoint: str, fields: dict, into: str, keep: dict) -> str | None:
    """Apply a picker button to ``fields[into]``; the checker's new address, or None when
    no button was pressed. The address holds the whole state, so it can be shared."""
    changed = picked_cards(fields[into], request.args)
    if changed is None:
        return None
    fields[into] = changed
    return url_for(endpoint, **keep, **{name: value or None for name, value in fields.items()})


def checker_page(template: str, canonical: str | None, **context):
    """A checker page or, for htmx, its form; after a picker tap the address follows."""
    if canonical and not is_fragment_request():
        return redirect(canonical, 303)
    body, status = render(template, "checker", **context)
    headers = {"HX-Push-Url": canonical} if canonical else {}
    if context.get("error"):
        # A refusal must be read whole, wherever the thumb was on the picker.
        headers["HX-Reswap"] = "outerHTML show:#outcome:top"
    return body, status, headers


MELD_MODES = ("check", "add", "swap")


def meld_request(endpoint: str, modes: tuple[str, ...], keep: dict):
    """A meld checker's state: what to check, where a tap goes, the typed cards (new and on
    the table), and the checker's new address after a picker tap."""
    args = request.args
    mode = args.get("mode") if args.get("mode") in modes else modes[0]
    into = "table" if mode != "check" and args.get("into") == "table" else "cards"
    fields = {name: args.get(name, "")[:300] for name in ("cards", "table")}
    canonical = pick_into(endpoint, fields, into, {"mode": mode, "into": into, **keep})
    return mode, into, fields, canonical


def meld_cards(fields: dict, mode: str):
    """The typed cards and the meld on the table (none when checking a meld alone), and
    the fields written back as this reader writes cards."""
    cards = parse_cards(fields["cards"])
    table = parse_cards(fields["table"]) if mode != "check" else []
    return cards, table, {"cards": shown(cards), "table": shown(table)}


def ticked(value) -> bool:
    """A box ticked in a checker's address (``semipulito=on``); "true", "1" and "yes" too,
    so a link typed by hand reads as meant."""
    return str(value or "").strip().lower() in {"true", "on", "1", "yes"}


def trump() -> Suit:
    """The trump the address names, hearts when it names none."""
    try:
        return parse_suit(request.args.get("trump") or "H")
    except ScoringError:
        return Suit.HEARTS
