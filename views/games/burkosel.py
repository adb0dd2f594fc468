"""The Burkosel sheet's panel: each side's card points and tricks, or who won at once."""

from flask_babel import lazy_gettext as _l
from pydantic import Field

from scoring import burkosel

from ..api.models import Seat, Whole
from ..presets import Preset
from ..template_helpers import unit_labels
from .game import Game, why_sections


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


WHY = why_sections({
    "variant-burkosel": (
        "player_count", "burkosel_entry", "card_points_range", "tricks_range",
        "card_points_sum", "card_points_missing", "points_without_trick", "dealing"
    ),
    "burkosel-end": (
        "hand_after_end", "match_finished", "end", "losing_total_choice", "variant-12",
        "variant-8", "variant-6"
    ),
})

MESSAGES = {
    "burkosel_entry": _l("Enter the card points and tricks of each side, or who won at "
                         "once."),
    "losing_total_choice": _l("A Burkosel match is lost at 12, 8 or 6 penalty points."),
    "card_points_range": _l("Card points are whole numbers from %(low)s to %(high)s."),
    "card_points_missing": _l("%(side)s: the card points are missing (only one side's may "
                              "be left out: they follow from the others')."),
    "tricks_range": _l("Tricks are whole numbers from %(low)s to %(high)s."),
    "card_points_sum": _l("The card points add up to %(total)s, but all cards together "
                          "count %(expected)s."),
    "points_without_trick": _l("Card points without a trick are impossible: only tricks hold "
                               "cards."),
}

GAME = Game(
    slug="burkosel", name="Burkosel",
    tile=_l("A cousin of Bura with 4 cards, played for penalty points: 12 or more loses."),
    player_order=_l("List the players in the order of play, clockwise. With four, partners "
                    "sit opposite: the 1st and 3rd play against the 2nd and 4th."),
    hand_from_form=hand_from_form, context=context, draft_from_form=draft_from_form,
    side_names=side_names, rules_document="bura",
    why=WHY, messages=MESSAGES,
    preset_field="losing_total",
    presets=(
        Preset("12", _l("Lost at 12"), _l("pagat.com")),
        Preset("8", _l("Lost at 8"), _l("the Burkosel apps"), _l("A shorter evening.")),
        Preset("6", _l("Lost at 6"), _l("the Burkosel apps"), _l("The shortest.")),
    ),
    hand_fields={
        "card_points": (list[Whole] | None, Field(None, max_length=4, description="Burkosel.")),
        "tricks": (list[Whole] | None, Field(None, max_length=4, description="Burkosel.")),
        "instant_win": (Seat | None, Field(None, description="Burkosel: the side that won at "
                                                             "once.")),
    },
)
