"""What the Burraco sheet shows besides the standings: side names, the panel's draft and
the live preview of the hand being entered."""

from flask_babel import gettext

from scoring import burraco
from scoring.errors import ScoringError
from scoring.values import parse_int

from . import burraco_panel
from .messages import describe
from .template_helpers import unit_labels


def _alone(draft, players: int) -> int | None:
    seat = parse_int(draft.alone)
    return seat if players == 3 and seat is not None and 0 <= seat < players else None


def side_names(match, draft) -> list[str] | None:
    """The two sides of the hand being entered, by their players; with three players only
    once the table has said who played alone."""
    players = len(match.players)
    alone = _alone(draft, players)
    if players == 3 and alone is None and not draft.nobody_ran_out:
        return None
    return unit_labels(burraco.sides_of(players, alone), match.players)


def alone_labels(match) -> list[dict] | None:
    """Three players: each side's name for every answer to "who played alone?" (the panel
    renames its sides at once when the answer changes); "" is the name before any answer."""
    if len(match.players) != 3:
        return None
    unanswered = [gettext("The player alone"), gettext("The partners"), ""]
    labels = [{"": name} for name in unanswered]
    for choice in [*map(str, range(3)), burraco_panel.NOBODY]:
        alone = None if choice == burraco_panel.NOBODY else int(choice)
        for side, name in enumerate(unit_labels(burraco.sides_of(3, alone), match.players)):
            labels[side][choice] = name
    return labels


def preview(match, options, draft) -> dict:
    """The hand's scores per side as the panel stands ("N/S +410 · E/W +155"), or why the
    entry cannot be saved yet."""
    hand = burraco_panel.hand_from_draft(draft, len(match.players))
    try:
        sides = burraco.verify_hand_sides(hand, options.semipulito)
    except ScoringError as error:
        return {"scores": None, "problem": describe(error, side_names(match, draft))}
    return {"scores": [side.score for side in sides], "problem": None}


def context(match, options, standings, number, draft) -> dict:
    """The template's Burraco values: the draft, its sides' names, its preview."""
    fresh = draft is None
    if fresh:
        draft = (burraco_panel.draft_from_hand(match.hands[number - 1])
                 if number and 1 <= number <= len(match.hands) else burraco_panel.blank_draft())
    return {
        "draft": draft,
        # Nothing posted: an unsaved entry kept on the phone may take the panel's place.
        "fresh": fresh,
        "panel_sides": burraco_panel.shown_sides(draft, len(match.players)),
        "side_labels": side_names(match, draft),
        "tap_classes": burraco.TAP_CLASSES,
        "preview": preview(match, options, draft),
        "scores_of": lambda hand: burraco.hand_scores(hand, options.semipulito),
        "nobody": burraco_panel.NOBODY,
        "max_taps": burraco_panel.MAX_TAPS,
        "max_burracos": burraco.MAX_BURRACOS,
        "alone_labels": alone_labels(match),
    }
