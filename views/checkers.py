"""Checkers: settle a question at the table. Burro: who won this trick?"""

from flask import Blueprint, redirect, request, url_for

from scoring import burraco, burro
from scoring.cards import JOKER, parse_cards, split_tokens
from scoring.errors import ScoringError
from scoring.values import yes_no

from . import is_fragment_request, render
from .messages import refusal, trick_reason
from .rules import why_url
from .template_helpers import card_label

bp = Blueprint("checkers", __name__)


def _picked(text: str, args) -> str | None:
    """Apply a picker button (add a card, a pass, remove the last, clear) to typed cards,
    in card codes for a clean address; None when no button was pressed."""
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


def _shown(cards) -> str:
    """Cards typed back the way this reader writes them: "B♥" in German, "J♥" in English."""
    return " ".join(card_label(card) if card else "-" for card in cards)


@bp.get("/burro/trick")
def burro_trick():
    """Who wins the trick and leads next; the picker's buttons edit the trick in the URL."""
    text = request.args.get("plays", "")[:200]
    try:
        deck = burro.verify_deck(request.args.get("deck") or None)
    except ScoringError:
        deck = burro.DECKS[0]
    changed = _picked(text, request.args)
    if changed is not None:
        canonical = url_for("checkers.burro_trick", deck=deck, plays=changed or None)
        if not is_fragment_request():
            return redirect(canonical, 303)
        text = changed
    trick, refused = None, {}
    try:
        plays = burro.parse_plays(text)
        text = _shown(plays)
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


MELD_MODES = ("check", "add", "swap")


@bp.get("/burraco/meld")
def burraco_meld():
    """Is this a legal Burraco meld, what is it worth, is it a burraco? Also: may these
    cards be added to a meld on the table, may this card take its wildcard's place?"""
    args = request.args
    mode = args.get("mode") if args.get("mode") in MELD_MODES else MELD_MODES[0]
    semipulito = yes_no(args.get("semipulito"))
    into = "table" if mode != "check" and args.get("into") == "table" else "cards"
    fields = {name: args.get(name, "")[:300] for name in ("cards", "table")}
    changed = _picked(fields[into], args)
    if changed is not None:
        fields[into] = changed
        canonical = url_for("checkers.burraco_meld", mode=mode, into=into,
                            semipulito="on" if semipulito else None,
                            **{name: value or None for name, value in fields.items()})
        if not is_fragment_request():
            return redirect(canonical, 303)
    meld, refused, cards, table = None, {}, [], []
    try:
        cards = parse_cards(fields["cards"])
        table = parse_cards(fields["table"]) if mode != "check" else []
        fields = {"cards": _shown(cards), "table": _shown(table)}
        if mode == "check" and cards:
            meld = burraco.verify_meld(cards, semipulito)
        elif mode == "add" and table and cards:
            meld = burraco.verify_addition(table, cards, semipulito)
        elif mode == "swap" and table and cards:
            meld = burraco.verify_swap(table, cards, semipulito)
    except ScoringError as problem:
        refused = refusal(problem, "burraco")
    body, status = render("checkers/burraco_meld.html", "checker", mode=mode, into=into,
                          semipulito=semipulito, fields=fields, cards=cards, table=table,
                          meld=meld, picker=burraco.cards_by_suit(), joker=JOKER,
                          rule=why_url("burraco", "melds"), **refused)
    headers = {"HX-Push-Url": canonical} if changed is not None else {}
    return body, status, headers
