"""The Buraco sheet: the counted panel (views/sheets/counted.py) with this game's card values,
red threes, the dead pile and who went out; teams of two, or two or three players alone."""

from scoring import buraco
from scoring.errors import ScoringError

from ..messages import describe
from ..template_helpers import unit_labels
from .counted import MAX_TAPS, CountedPanel, Draft, draft_of_hand, read_draft, sides_of_draft
from .sheet import Sheet


def panel_for(options: buraco.Options) -> CountedPanel:
    """The panel for the table's variant: its tap counter counts the variant's values."""
    counts = {"clean": "clean_buracos", "dirty": "dirty_buracos", "red": "red_threes"}
    if options.canastras_reais:
        counts.update(real="real_buracos", ace="ace_to_ace_buracos")
    return CountedPanel(
        piles={"table": "table_points", "hand": "hand_points"},
        counts=counts,
        choice="dead_pile", choice_default=buraco.DeadPile.TAKEN.value,
        closer_field="went_out", max_count=buraco.MAX_BURACOS,
        tap_classes=buraco.tap_classes(options.variant))


def _match_rules(match) -> tuple[buraco.Options, CountedPanel, int]:
    options = buraco.verify_options(match.options, len(match.players))
    return options, panel_for(options), len(buraco.sides_of(len(match.players)))


def draft_from_form(form, match) -> Draft:
    """The panel's fields, after the button that was pressed (without JavaScript)."""
    _options, panel, sides = _match_rules(match)
    draft = read_draft(form, panel, sides)
    panel.press(draft, form.get("press", ""))
    return draft


def hand_from_form(form, match) -> dict:
    _options, panel, sides = _match_rules(match)
    return {"sides": sides_of_draft(read_draft(form, panel, sides), panel)}


def side_names(match, form=None) -> list[str]:
    """The sides by their players: "Anna & Carla", or each player alone."""
    return unit_labels(buraco.sides_of(len(match.players)), match.players)


def preview(match, options, panel, draft) -> dict:
    """The hand's scores per side as the panel stands, or why it cannot be saved yet."""
    try:
        sides = buraco.verify_sides(sides_of_draft(draft, panel), options, len(draft.sides),
                                    len(match.players))
    except ScoringError as error:
        return {"scores": None, "problem": describe(error, side_names(match))}
    return {"scores": [side.score for side in sides], "problem": None}


def context(match, options, standings, number, draft) -> dict:
    """The template's Buraco values: the draft, the sides' names, the preview."""
    panel = panel_for(options)
    fresh = draft is None
    if fresh:
        draft = (draft_of_hand(match.hands[number - 1], panel)
                 if number and 1 <= number <= len(match.hands)
                 else Draft([panel.blank_side() for _side in standings.units]))
    labels = side_names(match)
    return {
        "draft": draft, "fresh": fresh, "side_labels": labels,
        # "Who went out?" offers every side, and is not asked while all count on paper.
        "closer_names": [(str(side), label) for side, label in enumerate(labels)],
        "all_on_paper": "&".join(f"s{side}_mode=total" for side in range(len(labels))),
        "tap_classes": panel.tap_classes, "max_taps": MAX_TAPS,
        "max_count": buraco.MAX_BURACOS, "red_threes_max": buraco.RED_THREES,
        "preview": preview(match, options, panel, draft),
        "scores_of": lambda hand: buraco.hand_scores(hand, options),
    }


SHEET = Sheet(hand_from_form, context, draft_from_form, side_names=side_names,
              says_game=False)
