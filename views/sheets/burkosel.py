"""The Burkosel sheet's panel: each side's card points and tricks, or who won at once."""

from scoring import burkosel

from ..template_helpers import unit_labels
from .sheet import Sheet


def hand_from_form(form, match) -> dict:
    units = len(burkosel.units_of(len(match.players)))
    if form.get("instant_win", "") != "":
        return {"instant_win": form["instant_win"]}
    return {"card_points": [form.get(f"u{unit}_points", "") for unit in range(units)],
            "tricks": [form.get(f"u{unit}_tricks", "") for unit in range(units)]}


def draft_from_form(form, match) -> dict:
    """What was typed, to show again with a refusal."""
    typed = {"card_points": [], "tricks": []}
    for unit in range(burkosel.MAX_PLAYERS):
        if f"u{unit}_points" in form:
            typed["card_points"].append(form[f"u{unit}_points"][:6])
            typed["tricks"].append(form.get(f"u{unit}_tricks", "")[:6])
    return typed


def side_names(match, form) -> list[str]:
    """The sides a refusal names: the players, or the partnerships with four."""
    return unit_labels(burkosel.units_of(len(match.players)), match.players)


def context(match, options, standings, number, draft) -> dict:
    """The panel's fields: what was just typed, else the hand being corrected."""
    stored = match.hands[number - 1] if number and 1 <= number <= len(match.hands) else {}
    entered = draft or stored
    # Nothing posted: an unsaved entry kept on the phone may take the panel's place.
    return {"entered": entered, "fresh": draft is None, "all_points": burkosel.ALL_POINTS,
            "losing_total": options.losing_total}


SHEET = Sheet(hand_from_form, context, draft_from_form, side_names=side_names)
