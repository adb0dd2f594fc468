"""Checkers: settle a question at the table with a tap on the cards: a Burro trick, a
Burraco or Buraco meld, a Bura claim, trick or special hand."""

from flask import Blueprint, redirect, request, url_for

from scoring import bura, buraco, burraco, burro
from scoring.cards import JOKER, Suit, parse_cards, parse_suit
from scoring.errors import ScoringError
from scoring.values import yes_no

from . import is_fragment_request, picked_cards, render
from .messages import refusal, trick_reason
from .rule_search import why_url
from .template_helpers import card_label

bp = Blueprint("checkers", __name__)


def _shown(cards) -> str:
    """Cards typed back the way this reader writes them: "B♥" in German, "J♥" in English."""
    return " ".join(card_label(card) if card else "-" for card in cards)


@bp.get("/check")
def index():
    """Every checker, by game."""
    return render("checkers/index.html", "main")


def _pick_into(endpoint: str, fields: dict, into: str, keep: dict) -> str | None:
    """Apply a picker button to ``fields[into]``; the checker's new address, or None when
    no button was pressed. The address holds the whole state, so it can be shared."""
    changed = picked_cards(fields[into], request.args)
    if changed is None:
        return None
    fields[into] = changed
    return url_for(endpoint, **keep, **{name: value or None for name, value in fields.items()})


def _checker(template: str, canonical: str | None, **context):
    """A checker page or, for htmx, its form; after a picker tap the address follows."""
    if canonical and not is_fragment_request():
        return redirect(canonical, 303)
    body, status = render(template, "checker", **context)
    headers = {"HX-Push-Url": canonical} if canonical else {}
    if context.get("error"):
        # A refusal must be read whole, wherever the thumb was on the picker.
        headers["HX-Reswap"] = "outerHTML show:#outcome:top"
    return body, status, headers


@bp.get("/burro/trick")
def burro_trick():
    """Who wins the trick and leads next; the picker's buttons edit the trick in the URL."""
    try:
        deck = burro.verify_deck(request.args.get("deck") or None)
    except ScoringError:
        deck = burro.DECKS[0]
    fields = {"plays": request.args.get("plays", "")[:200]}
    canonical = _pick_into("checkers.burro_trick", fields, "plays", {"deck": deck})
    trick, refused = None, {}
    try:
        plays = burro.parse_plays(fields["plays"])
        fields["plays"] = _shown(plays)
        if len(plays) >= burro.MIN_PLAYERS:
            trick = burro.trick_winner(deck, plays)
    except ScoringError as problem:
        plays, refused = [], refusal(problem, "burro")
    return _checker("checkers/burro_trick.html", canonical, deck=deck, text=fields["plays"],
                    plays=plays, trick=trick, reason=trick and trick_reason(trick),
                    rule=why_url("burro", "trick_winner"), picker=burro.cards_by_suit(deck),
                    **refused)


MELD_MODES = ("check", "add", "swap")


def _meld_request(endpoint: str, modes: tuple[str, ...], keep: dict):
    """A meld checker's state: what to check, where a tap goes, the typed cards (new and on
    the table), and the checker's new address after a picker tap."""
    args = request.args
    mode = args.get("mode") if args.get("mode") in modes else modes[0]
    into = "table" if mode != "check" and args.get("into") == "table" else "cards"
    fields = {name: args.get(name, "")[:300] for name in ("cards", "table")}
    canonical = _pick_into(endpoint, fields, into, {"mode": mode, "into": into, **keep})
    return mode, into, fields, canonical


def _meld_cards(fields: dict, mode: str):
    """The typed cards and the meld on the table (none when checking a meld alone), and
    the fields written back as this reader writes cards."""
    cards = parse_cards(fields["cards"])
    table = parse_cards(fields["table"]) if mode != "check" else []
    return cards, table, {"cards": _shown(cards), "table": _shown(table)}


@bp.get("/burraco/meld")
def burraco_meld():
    """Is this a legal Burraco meld, what is it worth, is it a burraco? Also: may these
    cards be added to a meld on the table, may this card take its wildcard's place?"""
    try:
        variant = burraco.variant_of(request.args.get("variant"))
    except ScoringError:
        variant = burraco.Variant.CLASSIC
    semipulito = yes_no(request.args.get("semipulito")) and variant is burraco.Variant.CLASSIC
    mode, into, fields, canonical = _meld_request(
        "checkers.burraco_meld", MELD_MODES,
        {"variant": None if variant is burraco.Variant.CLASSIC else variant.value,
         "semipulito": "on" if semipulito else None})
    meld, refused, cards, table = None, {}, [], []
    rules = {"semipulito": semipulito, "variant": variant}
    try:
        cards, table, fields = _meld_cards(fields, mode)
        if mode == "check" and cards:
            meld = burraco.verify_meld(cards, **rules)
        elif mode == "add" and table and cards:
            meld = burraco.verify_addition(table, cards, **rules)
        elif mode == "swap" and table and cards:
            meld = burraco.verify_swap(table, cards, **rules)
    except ScoringError as problem:
        refused = refusal(problem, "burraco")
    return _checker("checkers/burraco_meld.html", canonical, mode=mode, into=into,
                    variant=variant, semipulito=semipulito, fields=fields, cards=cards,
                    table=table, meld=meld,
                    picker=burraco.cards_by_suit(), joker=JOKER,
                    rule=why_url("burraco", "melds" if variant is burraco.Variant.CLASSIC
                                 else "variant-reale"), **refused)


# Buraco's rules know no swap of a wildcard for its card.
BURACO_MELD_MODES = MELD_MODES[:2]


@bp.get("/buraco/meld")
def buraco_meld():
    """Is this a legal Buraco meld in the chosen variant, what is it worth, is it a buraco?
    Also: may these cards be added to a meld on the table?"""
    try:
        variant = buraco.variant_of(request.args.get("variant"))
    except ScoringError:
        variant = buraco.Variant.SEED
    reais = yes_no(request.args.get("canastras_reais")) and variant is not buraco.Variant.SEED
    mode, into, fields, canonical = _meld_request(
        "checkers.buraco_meld", BURACO_MELD_MODES,
        {"variant": variant.value, "canastras_reais": "on" if reais else None})
    meld, refused, cards, table = None, {}, [], []
    try:
        cards, table, fields = _meld_cards(fields, mode)
        if mode == "check" and cards:
            meld = buraco.verify_meld(cards, variant, reais)
        elif mode == "add" and table and cards:
            meld = buraco.verify_addition(table, cards, variant, reais)
    except ScoringError as problem:
        refused = refusal(problem, "buraco")
    return _checker("checkers/buraco_meld.html", canonical, mode=mode, into=into,
                    variant=variant, canastras_reais=reais, fields=fields,
                    cards=cards, table=table, meld=meld, picker=buraco.cards_by_suit(),
                    joker=JOKER, buraco_length=buraco.BURACO_LENGTH,
                    rule=why_url("buraco", f"melds_{variant.value}"), **refused)


def _trump() -> Suit:
    try:
        return parse_suit(request.args.get("trump") or "H")
    except ScoringError:
        return Suit.HEARTS


@bp.get("/bura/claim")
def bura_claim():
    """Is this 31 claim right? Tap the cards of the claimant's tricks."""
    fields = {"cards": request.args.get("cards", "")[:300]}
    pot = request.args.get("pot", type=int)
    canonical = _pick_into("checkers.bura_claim", fields, "cards", {"pot": pot})
    claim, cards, refused = None, [], {}
    try:
        cards = parse_cards(fields["cards"])
        fields["cards"] = _shown(cards)
        if cards:
            claim = bura.check_claim(cards)
    except ScoringError as problem:
        refused = refusal(problem, "bura")
    effect = None
    if claim and pot is not None:
        try:
            effect = bura.pot_after_claim(pot, claim.right)
        except ScoringError as problem:
            refused = refusal(problem, "bura")
    return _checker("checkers/bura_claim.html", canonical, fields=fields, cards=cards,
                    claim=claim, pot=pot, effect=effect, picker=bura.cards_by_suit(),
                    rule=why_url("bura", "claiming"), **refused)


TRICK_FIELDS = ("lead", "front", "response")


@bp.get("/bura/trick")
def bura_trick():
    """Does this response take the lead? Every card in front must be beaten by its own."""
    args = request.args
    trump = _trump()
    into = args.get("into") if args.get("into") in TRICK_FIELDS else "lead"
    fields = {name: args.get(name, "")[:100] for name in TRICK_FIELDS}
    canonical = _pick_into("checkers.bura_trick", fields, into,
                           {"trump": trump.value, "into": into})
    verdict, refused, played = None, {}, []
    try:
        lead, front, response = (parse_cards(fields[name]) for name in TRICK_FIELDS)
        fields = {name: _shown(cards) for name, cards in zip(TRICK_FIELDS,
                                                              (lead, front, response))}
        played = [*lead, *front, *response]
        if lead:
            bura.verify_lead(lead, "three_aces" if yes_no(args.get("declared")) else None)
        if (front or lead) and response:
            verdict = bura.trick(trump, front or lead, response)
    except ScoringError as problem:
        refused = refusal(problem, "bura")
    return _checker("checkers/bura_trick.html", canonical, trump=trump, into=into,
                    fields=fields, used=played, verdict=verdict,
                    declared=yes_no(args.get("declared")), suits=list(Suit),
                    picker=bura.cards_by_suit(), rule=why_url("bura", "trick"), **refused)


@bp.get("/bura/combination")
def bura_combination():
    """Bura, three aces, Molodka or nothing: the special hands and their rank."""
    args = request.args
    trump = _trump()
    flags = {flag: yes_no(args.get(flag))
             for flag in ("three_aces_win", "moscow", "little_moscow")}
    fields = {"cards": args.get("cards", "")[:100]}
    canonical = _pick_into("checkers.bura_combination", fields, "cards",
                           {"trump": trump.value,
                            **{flag: "on" if on else None for flag, on in flags.items()}})
    found, wins, cards, refused = None, False, [], {}
    try:
        cards = parse_cards(fields["cards"])
        fields["cards"] = _shown(cards)
        if len(cards) == 3:
            found = bura.combination(trump, cards, flags["little_moscow"]) or "none"
            wins = found != "none" and bura.wins_the_pot(found, flags["three_aces_win"],
                                                         flags["moscow"])
    except ScoringError as problem:
        refused = refusal(problem, "bura")
    return _checker("checkers/bura_combination.html", canonical, trump=trump, fields=fields,
                    used=cards, found=found, wins=wins, flags=flags, suits=list(Suit),
                    together=found not in (None, "none") and bura.led_together(found),
                    order=bura.combination_order(flags["moscow"]),
                    picker=bura.cards_by_suit(), rule=why_url("bura", "combinations"),
                    **refused)
