"""The Bura pot ledger's panel: how the game ended, who, and for a claim the trick cards."""

from dataclasses import dataclass

from scoring import bura
from scoring.cards import parse_cards
from scoring.errors import ScoringError

from .. import picked_cards
from ..messages import describe
from .sheet import Sheet

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


SHEET = Sheet(hand_from_form, context, draft_from_form)
