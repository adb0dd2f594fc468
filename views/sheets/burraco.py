"""The Burraco sheet: its counted panel (views/sheets/counted.py) with the pozzetto, and with
three players who played alone; the side names and the live preview."""

from flask_babel import gettext

from scoring import burraco
from scoring.errors import ScoringError
from scoring.values import parse_int

from ..messages import describe
from ..template_helpers import unit_labels
from .counted import MAX_TAPS, CountedPanel, Draft, draft_of_hand, read_draft, sides_of_draft
from .sheet import Sheet


def panel_for(options: burraco.Options) -> CountedPanel:
    """Burraco's panel: the unseen pozzetto is a pile of its own, counted like the others;
    Burraco Reale counts its own values and its nobile and reale burracos."""
    counts = {"clean": "clean_burracos", "dirty": "dirty_burracos",
              "semi": "semiclean_burracos"}
    if options.variant is burraco.Variant.REALE:
        counts.update(nobile="nobile_burracos", reale="reale_burracos")
    return CountedPanel(
        piles={"table": "table_points", "hand": "hand_points",
               "unseen": "unseen_pozzetto_points"},
        counts=counts, choice="pozzetto", choice_default=burraco.Pozzetto.TAKEN.value,
        closer_field="closed", max_count=burraco.MAX_BURRACOS,
        tap_classes=burraco.tap_classes(options.variant))


def _panel(match) -> CountedPanel:
    return panel_for(burraco.verify_options(match.options, len(match.players)))
# Three players, "who played alone?": nobody, the stock ran out or play stalled (B6).
NOBODY = "none"


def nobody_ran_out(draft: Draft) -> bool:
    return draft.alone == NOBODY


def _side_count(alone: str) -> int:
    """Every player is a side of their own when nobody of three ran out (B6)."""
    return 3 if alone == NOBODY else 2


def blank_draft(panel: CountedPanel) -> Draft:
    return Draft([panel.blank_side(), panel.blank_side()])


def shown_sides(draft: Draft, players: int, panel: CountedPanel) -> list:
    """The side cards the panel holds: with three players always three, the third shown
    only while nobody ran out (so the choice can change on the phone at once)."""
    missing = (3 if players == 3 else 2) - len(draft.sides)
    return [*draft.sides, *[panel.blank_side() for _side in range(missing)]]


def draft_from_form(form, panel: CountedPanel) -> Draft:
    """Read the panel's fields (``s0_…``, ``s1_…``, with nobody out of three also ``s2_…``)."""
    alone = form.get("alone", "")
    return read_draft(form, panel, _side_count(alone), alone)


def draft_from_hand(hand: dict, panel: CountedPanel) -> Draft:
    """A stored hand back in the panel, for its correction."""
    alone = NOBODY if "alone" in hand and hand["alone"] is None else str(hand.get("alone", ""))
    return draft_of_hand(hand, panel, alone)


def hand_from_draft(draft: Draft, players: int, panel: CountedPanel) -> dict:
    """The hand as ``scoring.burraco.verify_hand`` reads it (and the API sends it)."""
    hand = {"sides": sides_of_draft(draft, panel)}
    if players == 3:
        hand["alone"] = None if nobody_ran_out(draft) else draft.alone
    return hand


# --- What the sheet shows besides the standings: side names, the draft, the preview ---


def _alone(draft, players: int) -> int | None:
    seat = parse_int(draft.alone)
    return seat if players == 3 and seat is not None and 0 <= seat < players else None


def side_names(match, draft) -> list[str] | None:
    """The two sides of the hand being entered, by their players; with three players only
    once the table has said who played alone."""
    players = len(match.players)
    alone = _alone(draft, players)
    if players == 3 and alone is None and not nobody_ran_out(draft):
        return None
    return unit_labels(burraco.sides_of(players, alone), match.players)


def alone_labels(match) -> list[dict] | None:
    """Three players: each side's name for every answer to "who played alone?" (the panel
    renames its sides at once when the answer changes); "" is the name before any answer."""
    if len(match.players) != 3:
        return None
    unanswered = [gettext("The player alone"), gettext("The partners"), ""]
    labels = [{"": name} for name in unanswered]
    for choice in [*map(str, range(3)), NOBODY]:
        alone = None if choice == NOBODY else int(choice)
        for side, name in enumerate(unit_labels(burraco.sides_of(3, alone), match.players)):
            labels[side][choice] = name
    return labels


def preview(match, options, draft) -> dict:
    """The hand's scores per side as the panel stands ("N/S +410 · E/W +155"), or why the
    entry cannot be saved yet."""
    players = len(match.players)
    hand = hand_from_draft(draft, players, panel_for(options))
    try:
        sides = burraco.verify_hand_sides(hand, options, players)
    except ScoringError as error:
        return {"scores": None, "problem": describe(error, side_names(match, draft))}
    return {"scores": [side.score for side in sides], "problem": None}


def context(match, options, standings, number, draft) -> dict:
    """The template's Burraco values: the draft, its sides' names, its preview."""
    fresh = draft is None
    panel = panel_for(options)
    if fresh:
        draft = (draft_from_hand(match.hands[number - 1], panel)
                 if number and 1 <= number <= len(match.hands) else blank_draft(panel))
    return {
        "draft": draft,
        # Nothing posted: an unsaved entry kept on the phone may take the panel's place.
        "fresh": fresh,
        "panel_sides": shown_sides(draft, len(match.players), panel),
        "side_labels": side_names(match, draft),
        "tap_classes": panel.tap_classes,
        "preview": preview(match, options, draft),
        "scores_of": lambda hand: burraco.hand_scores(hand, options),
        "nobody": NOBODY,
        "nobody_ran_out": nobody_ran_out(draft),
        "max_taps": MAX_TAPS,
        "max_count": burraco.MAX_BURRACOS,
        "alone_labels": alone_labels(match),
    }


def _draft(form, match) -> Draft:
    panel = _panel(match)
    draft = draft_from_form(form, panel)
    panel.press(draft, form.get("press", ""))
    return draft


def _hand_from_form(form, match) -> dict:
    panel = _panel(match)
    return hand_from_draft(draft_from_form(form, panel), len(match.players), panel)


SHEET = Sheet(
    hand_from_form=_hand_from_form, context=context, draft_from_form=_draft,
    side_names=lambda match, form: side_names(match, draft_from_form(form, _panel(match))))
