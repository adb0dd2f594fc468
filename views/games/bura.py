"""The Bura pot ledger's panel: how the game ended, who, and for a claim the trick cards."""

from dataclasses import dataclass
from typing import Annotated, Literal

from flask import Blueprint, jsonify, request, url_for
from flask_babel import lazy_gettext as _l
from flask_babel import ngettext
from pydantic import Field

from scoring import bura
from scoring.cards import Suit, parse_cards, parse_suit
from scoring.errors import HandError, ScoringError

from ..api import contract, models
from ..api.contract import REFUSED, refused
from ..api.contract import api as spec
from ..api.models import Answer, Body, Cards, Flag, Seat, Whole, examples
from ..checkers import checker_page, pick_into, picked_cards, shown, ticked, trump
from ..refusals import describe, refusal
from ..rule_search import why_url
from .game import Game, why_sections

# The outcomes the panel can hold; "claim" lets the trick cards decide.
OUTCOMES = tuple(outcome.value for outcome in bura.Outcome)


@dataclass
class Draft:
    outcome: str = ""
    player: str = ""
    cards: str = ""


def draft_from_form(form, match=None) -> Draft:
    """The panel's state; a picker button adds, takes back or clears a trick card."""
    # "choose" is the outcome button just pressed; "outcome" the one chosen before.
    outcome = form.get("choose") or form.get("outcome", "")
    draft = Draft(outcome if outcome in OUTCOMES else "", form.get("player", ""),
                  form.get("cards", "")[:300])
    draft.cards = picked_cards(draft.cards, form) or draft.cards
    return draft


def hand_from_form(form, match) -> dict:
    draft = draft_from_form(form)
    hand = {"outcome": draft.outcome, "player": draft.player}
    if draft.outcome == "claim":
        try:
            hand["cards"] = [card.code for card in parse_cards(draft.cards)]
        except ScoringError:
            hand["cards"] = None
    return hand


def _claim(draft: Draft) -> dict:
    """The inline claim checker: the tapped cards' points, right or wrong, or what is amiss."""
    if draft.outcome != "claim" or not draft.cards:
        return {"claim": None, "claim_cards": [], "claim_problem": None}
    try:
        cards = parse_cards(draft.cards)
        return {"claim": bura.check_claim(cards), "claim_cards": cards, "claim_problem": None}
    except ScoringError as error:
        return {"claim": None, "claim_cards": [], "claim_problem": describe(error)}


def _stored(hand: dict) -> Draft:
    """A saved game back in the panel, for its correction."""
    return Draft(hand["outcome"], str(hand.get("player", "")), " ".join(hand.get("cards", [])))


def _outcome_buttons(options) -> list[str]:
    """The ends of a game this table can book: three aces take the pot only with Moscow or
    "three aces win" agreed (one button, Moscow's name where both are)."""
    aces = ("moscow" if options.moscow else "three_aces" if options.three_aces_win else None)
    return ["right_claim", "wrong_claim", "bura", *([aces] if aces else []), "claim"]


def context(match, options, standings, number, draft) -> dict:
    # Nothing posted: an unsaved entry kept on the phone may take the panel's place.
    fresh = draft is None
    if draft is None:
        draft = (_stored(match.hands[number - 1]) if number and 1 <= number <= len(match.hands)
                 else Draft())
    return {"draft": draft, "fresh": fresh, "picker": bura.cards_by_suit(),
            "outcome_buttons": _outcome_buttons(options),
            "flags": [flag for flag in bura.VARIANT_FLAGS if getattr(options, flag)],
            **_claim(draft)}


# --- The checkers: a claim, a trick, a special hand ------------------------------------------

bp = Blueprint("bura", __name__)


@bp.get("/bura/claim")
def claim():
    """Is this 31 claim right? Tap the cards of the claimant's tricks."""
    fields = {"cards": request.args.get("cards", "")[:300]}
    pot = request.args.get("pot", type=int)
    canonical = pick_into("bura.claim", fields, "cards", {"pot": pot})
    checked, cards, refused = None, [], {}
    try:
        cards = parse_cards(fields["cards"])
        fields["cards"] = shown(cards)
        if cards:
            checked = bura.check_claim(cards)
    except ScoringError as problem:
        refused = refusal(problem, "bura")
    effect = None
    if checked and pot is not None:
        try:
            effect = bura.pot_after_claim(pot, checked.right)
        except ScoringError as problem:
            refused = refusal(problem, "bura")
    return checker_page(GAME.template("claim.html"), canonical, fields=fields, cards=cards,
                        claim=checked, pot=pot, effect=effect, picker=bura.cards_by_suit(),
                        rule=why_url("bura", "claiming"), **refused)


TRICK_FIELDS = ("lead", "front", "response")


@bp.get("/bura/trick")
def trick():
    """Does this response take the lead? Every card in front must be beaten by its own."""
    args = request.args
    trumps = trump()
    into = args.get("into") if args.get("into") in TRICK_FIELDS else "lead"
    fields = {name: args.get(name, "")[:100] for name in TRICK_FIELDS}
    declared = ticked(args.get("declared"))
    if args.get("clear"):
        # A new trick: every row and the declaration go, the trump of the game stays.
        into, declared = "lead", False
        fields = dict.fromkeys(TRICK_FIELDS, "")
        canonical = url_for("bura.trick", trump=trumps.value, into=into)
    else:
        canonical = pick_into("bura.trick", fields, into, {"trump": trumps.value, "into": into})
    verdict, refused, played = None, {}, []
    try:
        lead, front, response = (parse_cards(fields[name]) for name in TRICK_FIELDS)
        fields = {name: shown(cards) for name, cards in zip(TRICK_FIELDS,
                                                             (lead, front, response))}
        played = [*lead, *front, *response]
        if lead:
            bura.verify_lead(lead, "three_aces" if declared else None)
        if (front or lead) and response:
            verdict = bura.trick(trumps, front or lead, response)
    except ScoringError as problem:
        refused = refusal(problem, "bura")
    return checker_page(GAME.template("trick.html"), canonical, trump=trumps, into=into,
                        fields=fields, used=played, verdict=verdict,
                        declared=declared, suits=list(Suit),
                        picker=bura.cards_by_suit(), rule=why_url("bura", "trick"), **refused)


@bp.get("/bura/combination")
def combination():
    """Bura, three aces, Molodka or nothing: the special hands and their rank."""
    args = request.args
    trumps = trump()
    flags = {flag: ticked(args.get(flag))
             for flag in ("three_aces_win", "moscow", "little_moscow")}
    fields = {"cards": args.get("cards", "")[:100]}
    canonical = pick_into("bura.combination", fields, "cards",
                          {"trump": trumps.value,
                           **{flag: "on" if on else None for flag, on in flags.items()}})
    found, wins, cards, refused = None, False, [], {}
    try:
        cards = parse_cards(fields["cards"])
        fields["cards"] = shown(cards)
        if len(cards) == 3:
            found = bura.combination(trumps, cards, flags["little_moscow"]) or "none"
            wins = found != "none" and bura.wins_the_pot(found, flags["three_aces_win"],
                                                         flags["moscow"])
    except ScoringError as problem:
        refused = refusal(problem, "bura")
    return checker_page(GAME.template("combination.html"), canonical, trump=trumps,
                        fields=fields, used=cards, found=found, wins=wins, flags=flags,
                        suits=list(Suit),
                        together=found not in (None, "none") and bura.led_together(found),
                        order=bura.combination_order(flags["moscow"]),
                        picker=bura.cards_by_suit(), rule=why_url("bura", "combinations"),
                        **refused)


# --- The names the sheet and the checkers give ----------------------------------------------

COMBINATION_NAMES = {
    "bura": _l("Bura (three trumps)"), "three_aces": _l("Three aces"),
    "little_moscow": _l("Little Moscow"), "molodka": _l("Molodka (three of one non-trump suit)"),
    "none": _l("No special hand"),
}
OUTCOME_NAMES = {
    "right_claim": _l("Right claim"), "wrong_claim": _l("Wrong claim"),
    "bura": _l("Bura shown"), "moscow": _l("Moscow shown"),
    "three_aces": _l("Three aces shown"), "no_claim": _l("Nobody claimed"), "claim": _l("Claim"),
}
VARIANT_NAMES = {
    "three_aces_win": _l("Three aces win"), "moscow": _l("Moscow"),
    "little_moscow": _l("Little Moscow"), "claim_on_turn": _l("Claim only on your turn"),
    "redeal": _l("Redeal after a special hand"),
}


@bp.app_template_global()
def combination_name(name: str) -> str:
    return str(COMBINATION_NAMES[name])


@bp.app_template_global()
def outcome_name(name: str) -> str:
    return str(OUTCOME_NAMES[name])


@bp.app_template_global()
def variant_name(name: str) -> str:
    return str(VARIANT_NAMES[name])


# --- The JSON API's checkers -----------------------------------------------------------------

api_bp = contract.json_blueprint("bura_api", __name__)


class BuraClaimCheck(Body):
    model_config = examples({"cards": ["AS", "10S", "KH"], "pot": 4})
    cards: Cards
    pot: Whole | None = Field(None, description="The pot before the claim.")


class BuraClaimVerdict(Answer):
    model_config = examples({"points": 25, "valid": False, "claimant": -4, "pot": 8})
    points: int
    valid: bool
    claimant: int | None = Field(None, description="With `pot`: what the claimant gains.")
    pot: int | None = Field(None, description="With `pot`: the pot afterwards.")


SuitCode = Annotated[str, Field(max_length=2, examples=["H", "♥"])]


class BuraTrickCheck(Body):
    model_config = examples({"trump": "H", "front": ["KC", "9C"], "response": ["AC", "6H"]})
    trump: SuitCode
    front: Cards
    response: Cards


class BuraTrickVerdict(Answer):
    model_config = examples({"beats": True, "pairs": [["KC", "AC"], ["9C", "6H"]],
                             "unbeaten": []})
    beats: bool
    pairs: list[Annotated[list[str], Field(min_length=2, max_length=2)]] | None = Field(
        description="Each card in front with the card that beats it.")
    unbeaten: list[str]


class BuraLeadCheck(Body):
    model_config = examples({"cards": ["KC", "9C"]})
    cards: Cards
    declared: str | None = Field(None, description="`three_aces` to lead three aces.")


class BuraCombinationOptions(Body):
    little_moscow: Flag = False
    three_aces_win: Flag = False
    moscow: Flag = False


class BuraCombinationCheck(Body):
    model_config = examples({"trump": "H", "cards": ["6H", "9H", "AH"]})
    trump: SuitCode
    cards: Cards
    options: BuraCombinationOptions = BuraCombinationOptions()


class BuraCombination(Answer):
    model_config = examples({"combination": "bura", "wins_pot": True, "led_together": False})
    combination: Literal["bura", "three_aces", "molodka", "little_moscow"] | None
    wins_pot: bool
    led_together: bool


@api_bp.post("/bura/claim")
@spec.validate(json=BuraClaimCheck,
               resp=refused(*REFUSED, HTTP_200=BuraClaimVerdict), tags=["bura"])
def bura_claim():
    """Check a claim of 31

    The claimant's trick cards: their points and whether a claim of 31 would be right;
    with a ``pot``, what happens to it."""
    asked = contract.checked()
    claim = bura.check_claim(contract.cards(asked.cards))
    answer = {"points": claim.points, "valid": claim.right}
    if asked.pot is not None:
        change, after = bura.pot_after_claim(asked.pot, claim.right)
        answer.update(claimant=change, pot=after)
    return jsonify(answer)


@api_bp.post("/bura/trick")
@spec.validate(json=BuraTrickCheck,
               resp=refused(*REFUSED, HTTP_200=BuraTrickVerdict), tags=["bura"])
def bura_trick():
    """Does a response beat the cards in front

    The pairing that beats (``null`` when none does, with the unbeaten cards)."""
    asked = contract.checked()
    verdict = bura.trick(parse_suit(asked.trump), contract.cards(asked.front),
                         contract.cards(asked.response))
    pairs = verdict.pairs and [[ahead.code, card.code] for ahead, card in verdict.pairs]
    return jsonify(beats=verdict.beats, pairs=pairs,
                   unbeaten=[card.code for card in verdict.unbeaten])


@api_bp.post("/bura/lead")
@spec.validate(json=BuraLeadCheck, resp=refused(*REFUSED, HTTP_200=models.Verdict),
               tags=["bura"])
def bura_lead():
    """May these cards be led

    One card, or two or three of one suit; three aces only when declared."""
    asked = contract.checked()
    try:
        bura.verify_lead(contract.cards(asked.cards), asked.declared)
    except HandError as error:
        return jsonify(valid=False, reason=describe(error), code=error.code)
    return jsonify(valid=True, reason=None)


@api_bp.post("/bura/combination")
@spec.validate(json=BuraCombinationCheck,
               resp=refused(*REFUSED, HTTP_200=BuraCombination), tags=["bura"])
def bura_combination():
    """Name a combination of three cards

    ``bura``, ``three_aces``, ``molodka``, ``little_moscow`` (with that option) or
    ``null``, and whether it wins the pot at once or is led all three together."""
    asked = contract.checked()
    options = asked.options
    found = bura.combination(parse_suit(asked.trump), contract.cards(asked.cards),
                             options.little_moscow)
    if found is None:
        return jsonify(combination=None, wins_pot=False, led_together=False)
    return jsonify(combination=found.value,
                   wins_pot=bura.wins_the_pot(found, options.three_aces_win, options.moscow),
                   led_together=bura.led_together(found))


WHY = why_sections({
    "overview": ("player_count",),
    "cards": ("card_not_in_bura_deck", "card_twice"),
    "trick": ("card_count", "lead_one_suit", "response_count", "trick"),
    "setup": ("unknown_suit", "ante_range", "start_chips_range", "dealing"),
    "claiming": ("outcome_needed", "claim_needs_cards", "claiming", "pot_range"),
    "variant-moscow": ("outcome_variant_off", "moscow", "little_moscow"),
    "combinations": ("combinations",),
    "winning": ("winning",),
    "variant-three-aces-win": ("three_aces_win",),
    "variant-claim-on-turn": ("claim_on_turn",),
    "variant-redeal": ("redeal",),
})

MESSAGES = {
    "card_not_in_bura_deck": _l("%(card)s is not in Bura's 36 cards (6 to ace)."),
    "card_count": _l("Enter %(low)s to %(high)s cards, not %(count)s."),
    "lead_one_suit": _l("Two or three cards are led together only if they are of one suit "
                        "(three aces only as a declared combination)."),
    "response_count": lambda count, params: ngettext(
        "Answer the card in front with one card.",
        "Answer the %(num)s cards in front with as many cards.", count, **params),
    "outcome_needed": _l("Choose how the game ended."),
    "outcome_variant_off": _l("Three aces win the pot only where the table plays Moscow or "
                              "“three aces win”: switch the variant on for this match."),
    "claim_needs_cards": _l("Tap the cards of the claimant's tricks."),
    "chips_beyond_sheet": _l("Game %(number)s would take the pot or a player's chips past "
                             "%(high)s, more than the sheet can show: settle up and start "
                             "a new match."),
    "pot_range": _l("The pot holds a whole number of chips from %(low)s to %(high)s."),
    "ante_range": _l("The ante must be a whole number of chips from %(low)s to %(high)s."),
    "start_chips_range": _l("The starting chips must be a whole number from %(low)s to "
                            "%(high)s."),
}


GAME = Game(
    slug="bura", name="Bura", tile=_l("Russian ace-ten trick game played for a pot."),
    player_order=_l("List the players in the order of play, clockwise round the table: the "
                    "dealer's left-hand neighbour, next in the list, leads."),
    hand_from_form=hand_from_form, context=context, draft_from_form=draft_from_form,
    checkers=(("bura.claim", _l("Bura: is this 31 claim right?")),
              ("bura.trick", _l("Bura: does this beat the cards in front?")),
              ("bura.combination", _l("Bura: a special hand?"))),
    why=WHY, messages=MESSAGES, pages=bp, api=api_bp,
    hand_fields={
        "outcome": (str | None, Field(None, description="Bura: how the game ended "
                                      "(`right_claim`, `wrong_claim`, `bura`, `no_claim`, "
                                      "`claim`, `moscow`, `three_aces`).")),
        "player": (Seat | None, Field(None, description="Bura: who claimed or showed.")),
        "cards": (Cards | None, Field(None, description="Bura, outcome `claim`: the "
                                                        "claimant's trick cards.")),
    },
    hand_examples=({"outcome": "right_claim", "player": 1},),
)
