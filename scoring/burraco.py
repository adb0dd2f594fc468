"""Burraco: melds, a side's hand score, and the match (seed 002; RULES-NOTES B1–B5).

Players are numbered by their seats in the order of play. The deal and the play go
clockwise, so the next dealer is the next player in the list, who also leads the hand after.
With four players the partners sit opposite: seats 0 and 2 against 1 and 3.
"""

import math
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from enum import StrEnum

from . import melds
from .cards import Card, Rank
from .errors import HandError, MeldError, SetupError
from .match import Standings, each_alone
# MeldKind, cards_by_suit and row_json are part of this module's face (checker, API).
from .melds import (MeldKind, Shape, cards_by_suit, meld_shapes, one_wildcard_shapes,
                    verify_in_deck)
from .tally import (card_points, paper_total, read_target, replay, row_json,
                    verify_cards_together)
from .values import whole_number, yes_no

# --- Card values (RULES-NOTES B1) --------------------------------------------------------

CARD_VALUES = {
    Rank.JOKER: 30, Rank.TWO: 20, Rank.ACE: 15,
    Rank.KING: 10, Rank.QUEEN: 10, Rank.JACK: 10, Rank.TEN: 10, Rank.NINE: 10, Rank.EIGHT: 10,
    Rank.SEVEN: 5, Rank.SIX: 5, Rank.FIVE: 5, Rank.FOUR: 5, Rank.THREE: 5,
}


# The tap counter's buttons: one per value class, as players count cards (UX: "Joker 30 ·
# 2 20 · A 15 · K–8 10 · 7–3 5").
TAP_CLASSES = (("joker", CARD_VALUES[Rank.JOKER]), ("two", CARD_VALUES[Rank.TWO]),
               ("ace", CARD_VALUES[Rank.ACE]), ("high", CARD_VALUES[Rank.KING]),
               ("low", CARD_VALUES[Rank.SEVEN]))


def tapped_points(counts: Mapping[str, int]) -> int:
    """Card points from the tap counter: how many cards of each value class."""
    return sum(counts.get(name, 0) * value for name, value in TAP_CLASSES)


def card_value(card: Card) -> int:
    """A card's points; a wildcard counts its own value, whatever it stands for (B1)."""
    return CARD_VALUES[card.rank]


# --- Melds -------------------------------------------------------------------------------

class BurracoKind(StrEnum):
    PULITO = "pulito"
    SEMIPULITO = "semipulito"
    SPORCO = "sporco"


BONUS = {None: 0, BurracoKind.PULITO: 200, BurracoKind.SEMIPULITO: 150,
         BurracoKind.SPORCO: 100}
BURRACO_LENGTH = 7


@dataclass(frozen=True)
class Reading:
    """One way to read the cards as a legal meld."""

    kind: MeldKind
    order: tuple[Card, ...]
    wildcard: Card | None
    stands_for: Card | Rank | None
    burraco: BurracoKind | None

    @property
    def bonus(self) -> int:
        return BONUS[self.burraco]


class Meld(melds.Meld):
    """A legal meld: its best reading, its points, and the other readings a 2 allows."""

    wildcard = property(lambda self: self.readings[0].wildcard)
    burraco = property(lambda self: self.readings[0].burraco)


def _burraco(length: int, longest_natural_run: int, wild: bool,
             semipulito: bool) -> BurracoKind | None:
    """Seven cards or more: clean without a wildcard (200), else dirty (100); semi-clean
    (150, an option) with 8+ cards of which 7 natural ones stand unbroken (B4)."""
    if length < BURRACO_LENGTH:
        return None
    if not wild:
        return BurracoKind.PULITO
    if semipulito and length >= BURRACO_LENGTH + 1 and longest_natural_run >= BURRACO_LENGTH:
        return BurracoKind.SEMIPULITO
    return BurracoKind.SPORCO


def _reading(shape: Shape, semipulito: bool) -> Reading:
    """What Burraco makes of a legal shape: its one wildcard, and which burraco it is."""
    wildcard = shape.wildcards[0] if shape.wildcards else None
    return Reading(shape.kind, shape.order, wildcard, shape.stands_for,
                   _burraco(len(shape.order), shape.natural_run, wildcard is not None,
                            semipulito))


def _quality(reading: Reading) -> tuple:
    """Clean before semi-clean before dirty; a meld without a wildcard first (B5)."""
    order = [BurracoKind.PULITO, BurracoKind.SEMIPULITO, BurracoKind.SPORCO, None]
    return order.index(reading.burraco), reading.wildcard is not None


def verify_meld(cards: Sequence[Card], semipulito: bool = False) -> Meld:
    """Judge cards as a Burraco meld, in any order; raise MeldError with the rule broken.

    A 2 may be natural (in its own place in a sequence of its suit) or wild: every split
    is tried, and the clean reading wins (RULES-NOTES B5).
    """
    cards = list(cards)
    verify_in_deck(cards)
    readings = sorted((_reading(shape, semipulito)
                       for shape in meld_shapes(cards, one_wildcard_shapes)), key=_quality)
    return Meld(sum(card_value(card) for card in cards), tuple(readings))


def can_meld(cards: Sequence[Card], semipulito: bool = False) -> bool:
    try:
        verify_meld(cards, semipulito)
    except MeldError:
        return False
    return True


def verify_addition(table: Sequence[Card], added: Sequence[Card],
                    semipulito: bool = False) -> Meld:
    """Cards added to a legal meld on the table: the meld they make must be legal too."""
    return melds.verify_added(lambda cards: verify_meld(cards, semipulito), table, added)


def verify_swap(table: Sequence[Card], swapped: Sequence[Card],
                semipulito: bool = False) -> Meld:
    """A real card in place of the meld's wildcard, which moves to the low end; only the
    very card the wildcard stands for may be swapped in (seed: "genau die Karte")."""
    meld = verify_meld(table, semipulito)
    if len(swapped) != 1:
        raise MeldError("swap_one_card")
    card = swapped[0]
    if meld.wildcard is None:
        raise MeldError("swap_no_wildcard")
    wanted = meld.stands_for
    fits = card.rank is wanted if isinstance(wanted, Rank) else card == wanted
    if not fits:
        raise MeldError("swap_wrong_card", card=card, wanted=wanted)
    return verify_meld([*table, card], semipulito)


# --- A side's hand score (RULES-NOTES B2) --------------------------------------------------

class Pozzetto(StrEnum):
    TAKEN = "taken"
    NOT_TAKEN = "not_taken"
    UNSEEN = "unseen"


CLOSING_BONUS = 100
POZZETTO_PENALTY = 100
# All 108 cards together are worth 1080 points and hold at most 15 melds of seven: no honest
# count exceeds these, so anything larger is a slip of the thumb.
DECK_POINTS = 4 * 30 + 8 * 20 + 8 * 15 + 48 * 10 + 40 * 5
MAX_BURRACOS = 108 // BURRACO_LENGTH
MAX_HAND_SCORE = DECK_POINTS + MAX_BURRACOS * BONUS[BurracoKind.PULITO] + CLOSING_BONUS
# The cheapest burraco: seven cards of 5 points; the cheapest pozzetto: eleven, and with
# three players the lone player's pozzetto of eighteen (B6).
MIN_BURRACO_POINTS = BURRACO_LENGTH * 5
MIN_POZZETTO_POINTS = 11 * 5
MIN_LONE_POZZETTO_POINTS = 18 * 5
SIDE_FIELDS = ("table_points", "clean_burracos", "dirty_burracos", "semiclean_burracos",
               "hand_points", "pozzetto", "unseen_pozzetto_points", "closed")


@dataclass(frozen=True)
class SideHand:
    """What a side entered for one hand: its parts, or only a total counted on paper."""

    table_points: int = 0
    clean_burracos: int = 0
    dirty_burracos: int = 0
    semiclean_burracos: int = 0
    hand_points: int = 0
    pozzetto: Pozzetto = Pozzetto.TAKEN
    unseen_pozzetto_points: int = 0
    closed: bool = False
    total: int | None = None

    @property
    def burracos(self) -> int:
        return self.clean_burracos + self.dirty_burracos + self.semiclean_burracos

    @property
    def bonuses(self) -> int:
        return (self.clean_burracos * BONUS[BurracoKind.PULITO]
                + self.dirty_burracos * BONUS[BurracoKind.SPORCO]
                + self.semiclean_burracos * BONUS[BurracoKind.SEMIPULITO])

    @property
    def closing(self) -> int:
        return CLOSING_BONUS if self.closed else 0

    @property
    def pozzetto_penalty(self) -> int:
        """−100 without the pozzetto; picked up unseen, its cards' value instead (B2)."""
        return {Pozzetto.TAKEN: 0, Pozzetto.NOT_TAKEN: POZZETTO_PENALTY,
                Pozzetto.UNSEEN: self.unseen_pozzetto_points}[self.pozzetto]

    @property
    def score(self) -> int:
        """Cards on the table + burraco bonuses + closing − cards in hand − pozzetto (B2)."""
        if self.total is not None:
            return self.total
        return (self.table_points + self.bonuses + self.closing - self.hand_points
                - self.pozzetto_penalty)

    def as_dict(self) -> dict:
        if self.total is not None:
            return {"total": self.total}
        return {"table_points": self.table_points, "clean_burracos": self.clean_burracos,
                "dirty_burracos": self.dirty_burracos,
                "semiclean_burracos": self.semiclean_burracos,
                "hand_points": self.hand_points, "pozzetto": self.pozzetto.value,
                "unseen_pozzetto_points": self.unseen_pozzetto_points, "closed": self.closed}


def verify_side(raw: Mapping, side: int, semipulito: bool) -> SideHand:
    """One side's entry for a hand, checked against the scoring rules."""
    if not isinstance(raw, Mapping):
        raise HandError("side_needs_entry", side=side + 1)
    total = paper_total(raw, side, MAX_HAND_SCORE)
    if total is not None:
        return SideHand(total=total)
    counts = {field: whole_number(raw.get(field) or 0, "burracos_range", 0, MAX_BURRACOS,
                                  error=HandError, side=side + 1)
              for field in ("clean_burracos", "dirty_burracos", "semiclean_burracos")}
    if counts["semiclean_burracos"] and not semipulito:
        raise HandError("semiclean_off", side=side + 1)
    if raw.get("pozzetto") in (None, ""):
        # Silence is no answer: a missing field must not count as "taken".
        raise HandError("pozzetto_missing", side=side + 1)
    try:
        pozzetto = Pozzetto(raw["pozzetto"])
    except ValueError:
        raise HandError("unknown_pozzetto", side=side + 1) from None
    hand = SideHand(
        table_points=card_points(raw, "table_points", side, DECK_POINTS),
        hand_points=card_points(raw, "hand_points", side, DECK_POINTS),
        pozzetto=pozzetto, closed=yes_no(raw.get("closed", False)),
        # A pozzetto is at least eleven cards: an unseen one costs at least 55 (B2).
        unseen_pozzetto_points=(card_points(raw, "unseen_pozzetto_points", side, DECK_POINTS,
                                            MIN_POZZETTO_POINTS)
                                if pozzetto is Pozzetto.UNSEEN else 0),
        **counts,
    )
    if hand.table_points < hand.burracos * MIN_BURRACO_POINTS:
        raise HandError("burraco_needs_cards", side=side + 1, low=MIN_BURRACO_POINTS)
    if hand.closed and hand.pozzetto is Pozzetto.NOT_TAKEN:
        raise HandError("closing_needs_pozzetto", side=side + 1)
    if hand.closed and not hand.burracos:
        raise HandError("closing_needs_burraco", side=side + 1)
    if hand.table_points + hand.hand_points + hand.unseen_pozzetto_points > DECK_POINTS:
        raise HandError("side_points_exceed_cards", side=side + 1, high=DECK_POINTS,
                        total=hand.table_points + hand.hand_points
                        + hand.unseen_pozzetto_points)
    return hand


def verify_sides(raw_sides, semipulito: bool, count: int = 2) -> list[SideHand]:
    """Every side's entry (two sides, or three when nobody of three players ran out), at most
    one side closed (seed: "Schließen"), and no more points than the cards hold (B6)."""
    if not isinstance(raw_sides, Sequence) or isinstance(raw_sides, str) or \
            len(raw_sides) != count:
        if count == 3:
            raise HandError("hand_needs_three_sides")
        raise HandError("hand_needs_two_sides")
    sides = [verify_side(raw, side, semipulito) for side, raw in enumerate(raw_sides)]
    if sum(side.closed for side in sides) > 1:
        raise HandError("both_closed")
    verify_cards_together(sides, DECK_POINTS)
    return sides


# --- The match (seed: "Partieende"; RULES-NOTES B3) ----------------------------------------

MIN_PLAYERS = 2
MAX_PLAYERS = 4
OPTION_FIELDS = ("target", "target_choice", "semipulito", "round_halves")
TARGETS = (2005, 1005, 505)


@dataclass(frozen=True)
class Options:
    target: int = TARGETS[0]
    semipulito: bool = False
    first_dealer: int = 0
    round_halves: bool = False    # three players: the partners' half up to the next 5 (B6)

    def to_dict(self) -> dict:
        return {"target": self.target, "semipulito": self.semipulito,
                "first_dealer": self.first_dealer, "round_halves": self.round_halves}


def verify_options(raw: Mapping, players: int) -> Options:
    """Two, three or four players; a target (2005, 1005, 505 or any); semi-clean on or off."""
    if not MIN_PLAYERS <= players <= MAX_PLAYERS:
        raise SetupError("player_count", count=players, low=MIN_PLAYERS, high=MAX_PLAYERS)
    target = read_target(raw, TARGETS)
    first_dealer = whole_number(raw.get("first_dealer", 0), "seat_range", 0, players - 1,
                                error=SetupError)
    return Options(target, yes_no(raw.get("semipulito", False)), first_dealer,
                   yes_no(raw.get("round_halves", False)))


def sides_of(players: int, alone: int | None = None) -> tuple[tuple[int, ...], ...]:
    """The seats of each side: partners sit opposite with four; with three, the player who
    took the 18-card pozzetto plays alone against the other two (seed, Varianten), and when
    nobody ran out, everyone is a side of their own (B6)."""
    if players == 4:
        return (0, 2), (1, 3)
    if players == 2 or alone is None:
        return each_alone(players)
    return (alone,), tuple(seat for seat in range(players) if seat != alone)


def nobody_ran_out(raw: Mapping) -> bool:
    """Three players, ``"alone": null``: the stock ran out or play stalled before anyone took
    the 18-card pozzetto (B6)."""
    return "alone" in raw and raw["alone"] is None


def _verify_nobody_ran_out(parts: Sequence[SideHand]) -> None:
    """B6: "nobody played alone and nobody took a pozzetto; each player … pays the −100"."""
    for index, part in enumerate(parts):
        if part.total is None and part.pozzetto is not Pozzetto.NOT_TAKEN:
            raise HandError("nobody_took_pozzetto", side=index + 1)
        if part.closed:
            raise HandError("nobody_closed", side=index + 1)


def _verify_lone_player(part: SideHand) -> None:
    """B6: the lone player has taken the 18-card pozzetto by definition; unseen, it is worth
    at least 18 × 5."""
    if part.total is not None:
        return
    if part.pozzetto is Pozzetto.NOT_TAKEN:
        raise HandError("alone_took_pozzetto", side=1)
    if part.pozzetto is Pozzetto.UNSEEN and \
            part.unseen_pozzetto_points < MIN_LONE_POZZETTO_POINTS:
        raise HandError("unseen_lone_pozzetto", side=1, low=MIN_LONE_POZZETTO_POINTS)


def verify_hand_sides(raw: Mapping, semipulito: bool) -> list[SideHand]:
    """A hand's sides: two, or three when nobody of three players ran out (B6)."""
    if not isinstance(raw, Mapping):
        raise HandError("hand_needs_two_sides")
    if not nobody_ran_out(raw):
        return verify_sides(raw.get("sides"), semipulito)
    parts = verify_sides(raw.get("sides"), semipulito, count=3)
    _verify_nobody_ran_out(parts)
    return parts


def _read_hand(options: Options, players: int, raw: Mapping):
    """Every side's entry, checked, and with three players who played alone (or nobody)."""
    if not isinstance(raw, Mapping):
        raise HandError("hand_needs_two_sides")
    if players != 3:
        return verify_sides(raw.get("sides"), options.semipulito), None
    parts = verify_hand_sides(raw, options.semipulito)
    if nobody_ran_out(raw):
        return parts, None
    alone = whole_number(raw.get("alone"), "alone_needed", 0, players - 1, error=HandError)
    _verify_lone_player(parts[0])
    return parts, alone


def verify_hand(options: Options, players: int, raw: Mapping) -> dict:
    """A hand as stored: the sides' entries and, with three players, who played alone
    (``None``: nobody ran out)."""
    parts, alone = _read_hand(options, players, raw)
    hand = {"sides": [part.as_dict() for part in parts]}
    if players == 3:
        hand["alone"] = alone
    return hand


def hand_scores(hand: Mapping, semipulito: bool) -> list[int]:
    """Each side's score for a stored hand (a test pins the seed's 410 and 155)."""
    return [side.score for side in verify_sides(hand["sides"], semipulito,
                                                len(hand["sides"]))]


def partners_share(score: int, round_halves: bool):
    """B3: the two partners share their side's score equally; B6: the half is kept exactly,
    or, as a table's option, rounded up to the next 5.

    >>> partners_share(305, False), partners_share(305, True), partners_share(-305, True)
    (152.5, 155, -150)
    """
    half = score / 2
    return math.ceil(half / 5) * 5 if round_halves else half


def _gains(options: Options, players: int, sides, scores) -> list:
    """What each side (or, with three players, each player) gains from a hand."""
    if players != 3 or len(sides) == 3:
        return list(scores)
    (alone,), _partners = sides
    share = partners_share(scores[1], options.round_halves)
    return [scores[0] if seat == alone else share for seat in range(players)]


def standings(options: Options, players: int, hands: Sequence[Mapping],
              known: Standings | None = None) -> Standings:
    """Replay the hands: each one's parts and scores, running totals, the next deal, the end."""
    def score_hand(raw: Mapping):
        parts, alone = _read_hand(options, players, raw)
        sides = sides_of(players, alone)
        return sides, parts, _gains(options, players, sides, [part.score for part in parts])

    units = each_alone(players) if players == 3 else sides_of(players)
    return replay(hands, players, options.first_dealer, options.target, units, score_hand,
                  known)
