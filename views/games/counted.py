"""The entry panel of the games counted in card points (Burraco, Buraco), as a form: each
side's hand as numbers, as taps on the card counter, by meld (where the game scores melds),
or as a total counted on paper.

On the phone a script presses the buttons at once (static/panel/controls.js); without it
every button posts the whole form and ``press`` does the same here, so the panel works
either way. One mechanism, a ``CountedPanel`` per rule set: which piles are counted, the
steppers, the choice each side makes (pozzetto, dead pile) and how a side's end is written.
"""

import re
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

from flask_babel import lazy_gettext as _l
from pydantic import Field

from scoring.cards import parse_card, parse_cards
from scoring.errors import ScoringError
from scoring.melds import naturals_of, set_ranks, split_melds
from scoring.values import parse_int

from ..checkers import picked_cards, shown

MINUS = "\u2212"  # typed points below the taps' show as "3×10 − 5 = 25"

# A generous cap on taps: more cards of a class than two packs hold is a stuck finger.
MAX_TAPS = 60
# Room for every card of two packs typed, a slash between melds.
MAX_MELDS_TEXT = 800
MAX_HAND_TEXT = 400

# The ready melds both games lay, as the panel's chips name them (each game adds its own).
READY_LABELS = {
    "clean_run": _l("Clean run (7)"), "dirty_run": _l("Dirty run (7)"),
    "clean_set": _l("Clean set (7)"), "dirty_set": _l("Dirty set (7)"),
}

# A counted hand in the API: one entry per side, as each game's hand checker takes it.
SIDES_FIELD = (list[dict[str, Any]] | None, Field(
    None, max_length=3, description="Burraco, Buraco: one entry per side, as "
                                    "`POST /api/v1/burraco/hand` and `/buraco/hand` take."))


def _int(text, default: int = 0) -> int:
    number = parse_int(text)
    return default if number is None else number


def _count(text):
    """A stepper's count as the form sent it: none is 0, and anything but a whole number in
    range reaches the rules as sent, to be refused with its message there, as the API's is.

    >>> _count(None), _count(" 2 "), _count("-3"), _count("9" * 40), _count("two")
    (0, 2, -3, '999999999999', 'two')
    """
    if not (text or "").strip():
        return 0
    number = parse_int(text)
    return text.strip()[:12] if number is None else number


@dataclass(frozen=True)
class CountedPanel:
    """What a game's panel holds for each side, and the names its hands use for them."""

    piles: Mapping[str, str]        # where tapped cards lie → the hand's field
    counts: Mapping[str, str]       # a stepper → the hand's field
    choice: str                     # the side's one choice, e.g. "pozzetto"
    choice_default: str
    closer_field: str               # "closed" (Burraco) or "went_out" (Buraco)
    max_count: int                  # steppers stop here
    tap_classes: tuple[tuple[str, int], ...]
    # The piles and steppers a side entered by meld counts from its melds and cards in hand
    # (none: the game takes no hand by meld), and the melds laid with one tap, by name.
    by_meld: frozenset = frozenset()
    ready_melds: Mapping[str, list] = field(default_factory=dict)
    # The sets laid one tap a card by rank ("K"), each as the cards it takes in turn.
    sets: Mapping[str, list] = field(default_factory=dict)

    @property
    def modes(self) -> tuple[str, ...]:
        return ("parts", "total", "melds") if self.by_meld else ("parts", "total")

    def blank_side(self) -> "SideDraft":
        return SideDraft(
            values=dict(self.tap_classes), choice=self.choice_default,
            typed={pile: "" for pile in self.piles},
            taps={pile: {name: 0 for name, _value in self.tap_classes} for pile in self.piles},
            counts={name: 0 for name in self.counts})

    def read_side(self, form, side: int) -> "SideDraft":
        """One side's fields (``s0_…``) as the form holds them."""
        prefix = f"s{side}_"
        draft = self.blank_side()
        draft.mode = form.get(prefix + "mode") if form.get(prefix + "mode") in self.modes \
            else "parts"
        draft.total = form.get(prefix + "total", "").strip()[:12]
        draft.choice = form.get(prefix + self.choice, self.choice_default)
        for pile in self.piles:
            draft.typed[pile] = form.get(f"{prefix}{pile}", "").strip()[:12]
            for name in draft.taps[pile]:
                draft.taps[pile][name] = min(max(_int(form.get(f"{prefix}{pile}_{name}")), 0),
                                             MAX_TAPS)
        for name in self.counts:
            draft.counts[name] = _count(form.get(prefix + name))
        if self.by_meld:
            self._read_melds(form, prefix, draft)
        return draft

    @staticmethod
    def _read_melds(form, prefix: str, draft: "SideDraft") -> None:
        """The side's melds and cards in hand as typed, and a card picker's button (without
        JavaScript it posts the form) applied to the list its cards go to."""
        draft.melds = form.get(prefix + "melds", "")[:MAX_MELDS_TEXT]
        draft.in_hand = form.get(prefix + "in_hand", "")[:MAX_HAND_TEXT]
        draft.into = "in_hand" if form.get(prefix + "into") == prefix + "in_hand" else "melds"
        pressed = {name: form[prefix + name] for name in ("add", "back", "clear")
                   if prefix + name in form}
        picked = picked_cards(getattr(draft, draft.into), pressed)
        if picked is not None:
            setattr(draft, draft.into, _as_written(picked))

    def side_from_entry(self, entry: Mapping) -> "SideDraft":
        """A stored side back in the panel, for its correction."""
        side = self.blank_side()
        if "total" in entry:
            side.mode, side.total = "total", str(entry["total"])
            return side
        if "melds" in entry and self.by_meld:
            side.mode = "melds"
            side.melds = " / ".join(shown(map(parse_card, meld)) for meld in entry["melds"])
            side.in_hand = shown(map(parse_card, entry.get("in_hand", ())))
        for pile, name in self.piles.items():
            side.typed[pile] = str(entry.get(name, ""))
        for count, name in self.counts.items():
            side.counts[count] = entry.get(name, 0)
        side.choice = entry.get(self.choice, self.choice_default)
        return side

    def entry(self, side: "SideDraft", closed: bool) -> dict:
        """A side as the game's rules read it (and the API sends it)."""
        if side.mode == "total":
            return {"total": side.total}
        if side.mode == "melds":
            # Read as the API reads a meld given as one line of text.
            entry = {name: side.points(pile) for pile, name in self.piles.items()
                     if pile not in self.by_meld}
            entry.update({name: side.counts[count] for count, name in self.counts.items()
                          if count not in self.by_meld})
            entry.update(melds=split_melds(side.melds), in_hand=side.in_hand)
            entry.update({self.choice: side.choice, self.closer_field: closed})
            return entry
        entry = {name: side.points(pile) for pile, name in self.piles.items()}
        entry.update({name: side.counts[count] for count, name in self.counts.items()})
        entry.update({self.choice: side.choice, self.closer_field: closed})
        return entry

    def press(self, draft: "Draft", button: str) -> None:
        """A panel button: ``tap:0:table:joker:1``, ``step:1:clean:-1``, ``sign:0``,
        ``mode:1:total``, ``clear:0:hand``, ``meld:0:clean_run`` (a ready meld),
        ``set:0:K`` (a set of three, again: one card more), ``newmeld:1``. Anything else changes nothing."""
        parts = button.split(":")
        if len(parts) < 2 or parts[1] not in [str(index) for index in range(len(draft.sides))]:
            return
        side = draft.sides[int(parts[1])]
        match parts:
            case ["tap", _, pile, name, step] if pile in self.piles and name in side.taps[pile]:
                before, points = side.taps[pile][name], str(side.points(pile))
                side.taps[pile][name] = min(max(before + _int(step), 0), MAX_TAPS)
                side.typed[pile] = tapped_on(points,
                                             (side.taps[pile][name] - before) * side.values[name])
            case ["step", _, name, step] if name in self.counts:
                side.counts[name] = min(max(_int(side.counts[name]) + _int(step), 0),
                                        self.max_count)
            case ["sign", _]:
                # Phone number pads often lack a minus: the ± key turns the total around.
                side.total = side.total[1:] if side.total.startswith("-") else "-" + side.total
            case ["mode", _, mode] if mode in self.modes:
                side.mode = mode
            case ["meld", _, name] if name in self.ready_melds:
                side.melds = tidy_melds(f"{side.melds} / {shown(self.ready_melds[name])} /")
            case ["set", _, rank] if rank in self.sets:
                side.melds = laid_set(side.melds, shown(self.sets[rank]).split())
            case ["newmeld", _] if self.by_meld:
                side.melds = tidy_melds(side.melds + " /")
            case ["clear", _, pile] if pile in self.piles:
                side.taps[pile] = {name: 0 for name in side.taps[pile]}
                side.typed[pile] = ""


def tap_sum(typed: str, taps: Mapping[str, int], values: Mapping[str, int]) -> int | None:
    """A pile's points: the number in its field, which every tap adds its card to (so the
    field and the tapped cards never disagree); with nothing typed, the tapped cards; None
    when the text is no number. Its pair in the browser is ``tapSum`` in
    static/panel/controls.js.

    >>> tap_sum("215", {"high": 3}, {"high": 10}), tap_sum("", {"high": 3}, {"high": 10})
    (215, 30)
    """
    if typed.strip():
        return parse_int(typed)
    return sum(count * values[name] for name, count in taps.items())


def tapped_on(typed: str, points: int) -> str:
    """A pile's field, showing its points ``typed``, after a tap worth ``points`` (negative
    for "−"): text that is no number stays, to be refused; nothing left is an empty field.

    >>> tapped_on("185", 30), tapped_on("", 10), tapped_on("10", -10), tapped_on("1x", 5)
    ('215', '10', '', '1x')
    """
    base = parse_int(typed or "0")
    if base is None:
        return typed
    total = max(base + points, 0)
    return str(total) if total else ""


def sets_by_rank(can_meld) -> dict[str, list]:
    """The sets a side lays by rank, as the game's checker takes them: ``{"K": [K♠, …]}``."""
    return {rank.value: naturals_of(rank) for rank in set_ranks(can_meld)}


def tidy_melds(text: str) -> str:
    """Melds as a picker leaves them: one slash between two, none in front; a slash at the
    end starts the next meld. Its pair in the browser is ``tidy`` in static/panel/controls.js.

    >>> tidy_melds(" / 3H 4H 5H / / QS /"), tidy_melds("/")
    ('3H 4H 5H / QS /', '')
    """
    return re.sub(r"^\s*/\s*", "", re.sub(r"(\s*/)+", " /", text)).strip()


def laid_set(text: str, cards: list[str]) -> str:
    """Melds after a set's tap: three of its ``cards`` as a new meld, or, when the meld just
    laid is that set, its next card. Its pair is ``laid`` in static/panel/controls.js.

    >>> laid_set("7H 8H 9H", ["KS", "KH", "KD", "KC"])
    '7H 8H 9H / KS KH KD /'
    >>> laid_set("7H 8H 9H / KS KH KD /", ["KS", "KH", "KD", "KC"])
    '7H 8H 9H / KS KH KD KC /'
    >>> laid_set("", ["KS", "KH", "KD", "KC"]), laid_set("KS KH KD", ["KS", "KH", "KD", "KC"])
    ('KS KH KD /', 'KS KH KD / KS KH KD /')
    """
    melds = [meld.split() for meld in tidy_melds(text).split("/")]
    # A slash at the end: the last meld is finished, and it may be this set.
    last = melds[-2] if len(melds) > 1 and not melds[-1] else []
    if 3 <= len(last) < len(cards) and last == cards[:len(last)]:
        melds[-2:] = [cards[:len(last) + 1]]
    else:
        melds.append(cards[:3])
    return tidy_melds(" / ".join(map(" ".join, melds)) + " /")


def _as_written(text: str) -> str:
    """Picked cards as this reader writes them, meld by meld; a meld that holds something
    other than cards stays as typed, to be refused with its reason."""
    def written(meld: str) -> str:
        try:
            return shown(parse_cards(meld))
        except ScoringError:
            return meld.strip()
    return tidy_melds(" / ".join(map(written, text.split("/"))))


@dataclass
class SideDraft:
    """One side's half-filled entry, exactly as the form holds it."""

    values: dict                      # the tap counter's classes → card points
    typed: dict
    taps: dict
    counts: dict
    choice: str
    mode: str = "parts"               # "parts", "total" or "melds"
    total: str = ""
    melds: str = ""                   # "7♥ 8♥ 9♥ / Q♠ Q♥ Q♦", as typed and tapped
    in_hand: str = ""
    into: str = "melds"               # where the card picker's taps go

    def tapped(self, pile: str) -> bool:
        return any(self.taps[pile].values())

    def points(self, pile: str):
        """The pile's points: its field (taps add to it); typed text that is no number
        stays, to be refused."""
        if not self.tapped(pile):
            return self.typed[pile]
        total = tap_sum(self.typed[pile], self.taps[pile], self.values)
        return self.typed[pile] if total is None else total

    def tap_summary(self, pile: str) -> str:
        """"185 + 3×10 + 1×30 = 245" for the tap counter's running line: what was typed
        besides the taps, the taps, and the field's number (static/panel/controls.js writes
        the same line as the taps come)."""
        tapped = sum(count * self.values[name] for name, count in self.taps[pile].items())
        line = " + ".join(f"{count}×{self.values[name]}"
                          for name, count in self.taps[pile].items() if count)
        total = self.points(pile)
        typed = total - tapped if isinstance(total, int) else 0
        if typed > 0:
            line = f"{typed} + {line}"
        elif typed < 0:
            line = f"{line} {MINUS} {-typed}"
        return f"{line} = {total}"


@dataclass
class Draft:
    """The panel: every side's entry, who closed (or went out), and with three Burraco
    players who played alone."""

    sides: list = field(default_factory=list)
    closer: str = "none"              # "none" or a side's index
    alone: str = ""


def read_draft(form, panel: CountedPanel, sides: int, alone: str = "") -> Draft:
    """The panel's fields (``s0_…``, ``s1_…``, …) for ``sides`` sides."""
    return Draft([panel.read_side(form, side) for side in range(sides)],
                 form.get("closer", "none"), alone)


def draft_of_hand(hand: Mapping, panel: CountedPanel, alone: str = "") -> Draft:
    """A stored hand back in the panel, for its correction."""
    draft = Draft([panel.side_from_entry(entry) for entry in hand["sides"]], alone=alone)
    for index, entry in enumerate(hand["sides"]):
        if entry.get(panel.closer_field):
            draft.closer = str(index)
    return draft


def sides_of_draft(draft: Draft, panel: CountedPanel) -> list[dict]:
    """Every side as the game's rules read it."""
    return [panel.entry(side, draft.closer == str(index))
            for index, side in enumerate(draft.sides)]
