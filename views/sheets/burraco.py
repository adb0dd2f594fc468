"""The Burraco sheet. Its entry panel is a form: each side's hand as numbers, as taps on the
card counter, or as a total counted on paper. On the phone a script presses the buttons at once
(static/panel.js); without it every button posts the whole form and ``press`` does the same
here, so the panel works either way."""

from dataclasses import dataclass, field

from flask_babel import gettext

from scoring import burraco
from scoring.errors import ScoringError
from scoring.values import parse_int

from ..messages import describe
from ..template_helpers import unit_labels
from .sheet import Sheet

PILES = ("table", "hand", "unseen")          # where tapped cards lie
COUNTS = ("clean", "dirty", "semi")          # burraco steppers
_COUNT_FIELDS = {"clean": "clean_burracos", "dirty": "dirty_burracos",
                 "semi": "semiclean_burracos"}
_PILE_FIELDS = {"table": "table_points", "hand": "hand_points",
                "unseen": "unseen_pozzetto_points"}
# A generous cap on taps: more cards of a class than two packs hold is a stuck finger.
MAX_TAPS = 60
# Three players, "who played alone?": nobody, the stock ran out or play stalled (B6).
NOBODY = "none"


def _int(text, default: int = 0) -> int:
    number = parse_int(text)
    return default if number is None else number


@dataclass
class SideDraft:
    """One side's half-filled entry, exactly as the form holds it."""

    mode: str = "parts"                                  # "parts" or "total"
    total: str = ""
    typed: dict = field(default_factory=lambda: {pile: "" for pile in PILES})
    taps: dict = field(default_factory=lambda: {pile: {name: 0 for name, _v in
                                                       burraco.TAP_CLASSES} for pile in PILES})
    counts: dict = field(default_factory=lambda: {name: 0 for name in COUNTS})
    pozzetto: str = burraco.Pozzetto.TAKEN.value

    def tapped(self, pile: str) -> bool:
        return any(self.taps[pile].values())

    def points(self, pile: str):
        """The pile's points: what was typed, plus the tapped cards (a typed 185 is where
        the taps start counting); typed text that is no number stays, to be refused."""
        if not self.tapped(pile):
            return self.typed[pile]
        base = parse_int(self.typed[pile] or "0")
        if base is None:
            return self.typed[pile]
        return base + burraco.tapped_points(self.taps[pile])

    def tap_summary(self, pile: str) -> str:
        """"185 + 3×10 + 1×30 = 245" for the tap counter's running line (static/panel.js
        writes the same line as the taps come)."""
        values = dict(burraco.TAP_CLASSES)
        base = parse_int(self.typed[pile] or "0")
        parts = [self.typed[pile]] if base else []
        parts += [f"{count}×{values[name]}" for name, count in self.taps[pile].items() if count]
        return " + ".join(parts) + f" = {self.points(pile)}"


@dataclass
class Draft:
    sides: list
    closer: str = "none"                                 # "none", "0" or "1"
    alone: str = ""                                      # a seat, NOBODY, or not yet said

    @property
    def nobody_ran_out(self) -> bool:
        return self.alone == NOBODY


def _side_count(alone: str) -> int:
    """Every player is a side of their own when nobody of three ran out (B6)."""
    return 3 if alone == NOBODY else 2


def blank_draft() -> Draft:
    return Draft([SideDraft(), SideDraft()])


def shown_sides(draft: Draft, players: int) -> list:
    """The side cards the panel holds: with three players always three, the third shown
    only while nobody ran out (so the choice can change on the phone at once)."""
    return [*draft.sides, *[SideDraft()] * ((3 if players == 3 else 2) - len(draft.sides))]


def draft_from_form(form) -> Draft:
    """Read the panel's fields (``s0_…``, ``s1_…``, with nobody out of three also ``s2_…``)."""
    alone = form.get("alone", "")
    sides = []
    for side in range(_side_count(alone)):
        prefix = f"s{side}_"
        draft = SideDraft(
            mode="total" if form.get(prefix + "mode") == "total" else "parts",
            total=form.get(prefix + "total", "").strip()[:12],
            pozzetto=form.get(prefix + "pozzetto", burraco.Pozzetto.TAKEN.value),
        )
        for pile in PILES:
            draft.typed[pile] = form.get(f"{prefix}{pile}", "").strip()[:12]
            for name, _value in burraco.TAP_CLASSES:
                draft.taps[pile][name] = min(max(_int(form.get(f"{prefix}{pile}_{name}")), 0),
                                             MAX_TAPS)
        for name in COUNTS:
            draft.counts[name] = max(_int(form.get(prefix + name)), 0)
        sides.append(draft)
    return Draft(sides, form.get("closer", "none"), alone)


def draft_from_hand(hand: dict) -> Draft:
    """A stored hand back in the panel, for its correction."""
    alone = NOBODY if "alone" in hand and hand["alone"] is None else str(hand.get("alone", ""))
    draft = Draft([SideDraft() for _entry in hand["sides"]], alone=alone)
    for index, entry in enumerate(hand["sides"]):
        side = draft.sides[index]
        if "total" in entry:
            side.mode, side.total = "total", str(entry["total"])
            continue
        for pile, name in _PILE_FIELDS.items():
            side.typed[pile] = str(entry.get(name, 0))
        for count, name in _COUNT_FIELDS.items():
            side.counts[count] = entry.get(name, 0)
        side.pozzetto = entry.get("pozzetto", burraco.Pozzetto.TAKEN.value)
        if entry.get("closed"):
            draft.closer = str(index)
    return draft


def press(draft: Draft, button: str) -> None:
    """A panel button: ``tap:0:table:joker:1``, ``step:1:clean:-1``, ``sign:0``, ``mode:1:total``,
    ``clear:0:hand``. Anything else changes nothing."""
    parts = button.split(":")
    if len(parts) < 2 or parts[1] not in [str(index) for index in range(len(draft.sides))]:
        return
    side = draft.sides[int(parts[1])]
    match parts:
        case ["tap", _, pile, name, step] if pile in PILES and name in side.taps[pile]:
            side.taps[pile][name] = min(max(side.taps[pile][name] + _int(step), 0), MAX_TAPS)
        case ["step", _, name, step] if name in COUNTS:
            side.counts[name] = min(max(side.counts[name] + _int(step), 0),
                                    burraco.MAX_BURRACOS)
        case ["sign", _]:
            # Phone number pads often lack a minus: the ± key turns the total around.
            side.total = side.total[1:] if side.total.startswith("-") else "-" + side.total
        case ["mode", _, mode] if mode in ("parts", "total"):
            side.mode = mode
        case ["clear", _, pile] if pile in PILES:
            side.taps[pile] = {name: 0 for name in side.taps[pile]}
            side.typed[pile] = ""


def hand_from_draft(draft: Draft, players: int) -> dict:
    """The hand as ``scoring.burraco.verify_hand`` reads it (and the API sends it)."""
    sides = []
    for index, side in enumerate(draft.sides):
        if side.mode == "total":
            sides.append({"total": side.total})
            continue
        entry = {name: side.points(pile) for pile, name in _PILE_FIELDS.items()}
        entry.update({name: side.counts[count] for count, name in _COUNT_FIELDS.items()})
        entry.update(pozzetto=side.pozzetto, closed=draft.closer == str(index))
        sides.append(entry)
    hand = {"sides": sides}
    if players == 3:
        hand["alone"] = None if draft.nobody_ran_out else draft.alone
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
    for choice in [*map(str, range(3)), NOBODY]:
        alone = None if choice == NOBODY else int(choice)
        for side, name in enumerate(unit_labels(burraco.sides_of(3, alone), match.players)):
            labels[side][choice] = name
    return labels


def preview(match, options, draft) -> dict:
    """The hand's scores per side as the panel stands ("N/S +410 · E/W +155"), or why the
    entry cannot be saved yet."""
    hand = hand_from_draft(draft, len(match.players))
    try:
        sides = burraco.verify_hand_sides(hand, options.semipulito)
    except ScoringError as error:
        return {"scores": None, "problem": describe(error, side_names(match, draft))}
    return {"scores": [side.score for side in sides], "problem": None}


def context(match, options, standings, number, draft) -> dict:
    """The template's Burraco values: the draft, its sides' names, its preview."""
    fresh = draft is None
    if fresh:
        draft = (draft_from_hand(match.hands[number - 1])
                 if number and 1 <= number <= len(match.hands) else blank_draft())
    return {
        "draft": draft,
        # Nothing posted: an unsaved entry kept on the phone may take the panel's place.
        "fresh": fresh,
        "panel_sides": shown_sides(draft, len(match.players)),
        "side_labels": side_names(match, draft),
        "tap_classes": burraco.TAP_CLASSES,
        "preview": preview(match, options, draft),
        "scores_of": lambda hand: burraco.hand_scores(hand, options.semipulito),
        "nobody": NOBODY,
        "max_taps": MAX_TAPS,
        "max_burracos": burraco.MAX_BURRACOS,
        "alone_labels": alone_labels(match),
    }


def _draft(form) -> Draft:
    draft = draft_from_form(form)
    press(draft, form.get("press", ""))
    return draft


SHEET = Sheet(
    hand_from_form=lambda form, players: hand_from_draft(draft_from_form(form), players),
    context=context, draft_from_form=_draft,
    side_names=lambda match, form: side_names(match, draft_from_form(form)))
