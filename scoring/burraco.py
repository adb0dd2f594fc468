"""Burraco: melds, a side's hand score, and the match (seed 002; RULES-NOTES B1–B7), with
Burraco Reale (B7) as a variant of its own.

Players are numbered by their seats in the order of play. The deal and the play go
clockwise, so the next dealer is the next player in the list, who also leads the hand after.
With four players the partners sit opposite: seats 0 and 2 against 1 and 3.
"""

import math
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, fields
from enum import StrEnum
from functools import partial

from . import melds
from .cards import Card, Rank, parse_cards, rummy_deck
from .errors import CardError, HandError, MeldError, SetupError
from .match import Standings, each_alone

# MeldKind, cards_by_suit and row_json are part of this module's face (checker, API).
from .melds import (
    MeldKind,
    Shape,
    meld_shapes,
    of_one_rank,
    one_wildcard_shapes,
    sequence_shapes,
    verify_in_deck,
)
from .melds import cards_by_suit as cards_by_suit
from .tally import card_points, paper_total, read_target, replay, verify_cards_together
from .tally import row_json as row_json
from .values import whole_number, yes_no
from .victory_points import Band, VictoryPoints, as_data, read_table


class Variant(StrEnum):
    CLASSIC = "classic"    # seed 002
    REALE = "reale"        # Burraco Reale (B7): no jokers, runs only, nobile and reale runs


def variant_of(value) -> Variant:
    """A variant by its name; "" or None is the seed's game."""
    try:
        return Variant(value or Variant.CLASSIC)
    except ValueError:
        raise SetupError("unknown_variant") from None


# --- Card values (RULES-NOTES B1, B7) ----------------------------------------------------

CARD_VALUES = {
    Rank.JOKER: 30, Rank.TWO: 20, Rank.ACE: 15,
    Rank.KING: 10, Rank.QUEEN: 10, Rank.JACK: 10, Rank.TEN: 10, Rank.NINE: 10, Rank.EIGHT: 10,
    Rank.SEVEN: 5, Rank.SIX: 5, Rank.FIVE: 5, Rank.FOUR: 5, Rank.THREE: 5,
}
# Burraco Reale: "Pinella: 10 punti (… si utilizzano solo le pinelle, non i jolly)" (B7).
REALE_VALUES = {rank: value for rank, value in {**CARD_VALUES, Rank.TWO: 10}.items()
                if rank is not Rank.JOKER}
VALUES = {Variant.CLASSIC: CARD_VALUES, Variant.REALE: REALE_VALUES}


def card_value(card: Card, variant: Variant | str = Variant.CLASSIC) -> int:
    """A card's points; a wildcard counts its own value, whatever it stands for (B1)."""
    return VALUES[variant_of(variant)][card.rank]


# --- Melds -------------------------------------------------------------------------------

class BurracoKind(StrEnum):
    PULITO = "pulito"
    SEMIPULITO = "semipulito"
    SPORCO = "sporco"
    NOBILE = "nobile"      # Burraco Reale: a clean run from ace to king (B7)
    REALE = "reale"        # Burraco Reale: a clean run from ace to ace (B7)


BONUS = {None: 0, BurracoKind.PULITO: 200, BurracoKind.SEMIPULITO: 150,
         BurracoKind.SPORCO: 100, BurracoKind.NOBILE: 500, BurracoKind.REALE: 1000}
BURRACO_LENGTH = 7
# The runs of one whole suit: ace to king (13 cards), ace to ace (14).
NOBILE_LENGTH, REALE_LENGTH = 13, 14


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


def _clean_kind(shape: Shape, variant: Variant) -> BurracoKind:
    """A clean burraco; in Burraco Reale the whole suit's runs are worth more: "Burraco
    nobile … sequenza da A a K senza pinelle", "Burraco reale … da A a A" (B7)."""
    if variant is Variant.REALE and shape.order[0].rank is Rank.ACE:
        if len(shape.order) == REALE_LENGTH:
            return BurracoKind.REALE
        if len(shape.order) == NOBILE_LENGTH and shape.order[-1].rank is Rank.KING:
            return BurracoKind.NOBILE
    return BurracoKind.PULITO


def _burraco(shape: Shape, semipulito: bool, variant: Variant) -> BurracoKind | None:
    """Seven cards or more: clean without a wildcard (200), else dirty (100); semi-clean
    (150, an option) with 8+ cards of which 7 natural ones stand unbroken (B4)."""
    length = len(shape.order)
    if length < BURRACO_LENGTH:
        return None
    if not shape.wildcards:
        return _clean_kind(shape, variant)
    if semipulito and length >= BURRACO_LENGTH + 1 and shape.natural_run >= BURRACO_LENGTH:
        return BurracoKind.SEMIPULITO
    return BurracoKind.SPORCO


def _reading(shape: Shape, semipulito: bool, variant: Variant) -> Reading:
    """What Burraco makes of a legal shape: its one wildcard, and which burraco it is."""
    wildcard = shape.wildcards[0] if shape.wildcards else None
    return Reading(shape.kind, shape.order, wildcard, shape.stands_for,
                   _burraco(shape, semipulito, variant))


_QUALITY = [BurracoKind.REALE, BurracoKind.NOBILE, BurracoKind.PULITO,
            BurracoKind.SEMIPULITO, BurracoKind.SPORCO, None]


def _quality(reading: Reading) -> tuple:
    """Clean before semi-clean before dirty; a meld without a wildcard first (B5)."""
    return _QUALITY.index(reading.burraco), reading.wildcard is not None


def _reale_shapes(naturals: list[Card], wilds: list[Card]) -> list[Shape]:
    """Burraco Reale: "non sono consentiti giochi con carte del medesimo valore", runs only,
    up to the whole suit from ace to ace (B7)."""
    if of_one_rank(naturals):
        raise MeldError("meld_sequences_only_reale")
    return sequence_shapes(naturals, wilds, ace_to_ace=True)


_SHAPES = {Variant.CLASSIC: one_wildcard_shapes, Variant.REALE: _reale_shapes}
REALE_DECK = 104  # two packs without their jokers (B7)


def verify_meld(cards: Sequence[Card], semipulito: bool = False,
                variant: Variant | str = Variant.CLASSIC) -> Meld:
    """Judge cards as a Burraco meld, in any order; raise MeldError with the rule broken.

    A 2 may be natural (in its own place in a sequence of its suit) or wild: every split
    is tried, and the clean reading wins (RULES-NOTES B5).
    """
    variant = variant_of(variant)
    cards = list(cards)
    verify_in_deck(cards)
    if variant is Variant.REALE:
        joker = next((card for card in cards if card.is_joker), None)
        if joker is not None:
            raise CardError("card_not_in_deck", card=joker, deck=REALE_DECK)
    semipulito = semipulito and variant is Variant.CLASSIC
    readings = sorted((_reading(shape, semipulito, variant)
                       for shape in meld_shapes(cards, _SHAPES[variant])), key=_quality)
    return Meld(sum(card_value(card, variant) for card in cards), tuple(readings))


def can_meld(cards: Sequence[Card], semipulito: bool = False,
             variant: Variant | str = Variant.CLASSIC) -> bool:
    """Whether the cards make a legal meld."""
    try:
        verify_meld(cards, semipulito, variant)
    except (MeldError, CardError):
        return False
    return True


def verify_addition(table: Sequence[Card], added: Sequence[Card], semipulito: bool = False,
                    variant: Variant | str = Variant.CLASSIC) -> Meld:
    """Cards added to a legal meld on the table: the meld they make must be legal too."""
    return melds.verify_added(partial(verify_meld, semipulito=semipulito, variant=variant),
                              table, added)


def verify_swap(table: Sequence[Card], swapped: Sequence[Card], semipulito: bool = False,
                variant: Variant | str = Variant.CLASSIC) -> Meld:
    """A real card in place of the meld's wildcard, which moves to the low end; only the
    very card the wildcard stands for may be swapped in (seed: "genau die Karte")."""
    meld = verify_meld(table, semipulito, variant)
    if len(swapped) != 1:
        raise MeldError("swap_one_card")
    card = swapped[0]
    if meld.wildcard is None:
        raise MeldError("swap_no_wildcard")
    wanted = meld.stands_for
    fits = card.rank is wanted if isinstance(wanted, Rank) else card == wanted
    if not fits:
        raise MeldError("swap_wrong_card", card=card, wanted=wanted)
    return verify_meld([*table, card], semipulito, variant)


# --- A side's hand score (RULES-NOTES B2, B6, B7) -----------------------------------------

class Pozzetto(StrEnum):
    TAKEN = "taken"
    NOT_TAKEN = "not_taken"
    UNSEEN = "unseen"


CLOSING_BONUS = 100
POZZETTO_PENALTY = 100
# All 108 cards together are worth 1080 points (Burraco Reale's 104, 880) and hold at most
# 15 melds of seven: no honest count exceeds these, so anything larger is a slip of the thumb.
DECK_POINTS = {variant: sum(VALUES[variant][card.rank] for card in rummy_deck()
                            if card.rank in VALUES[variant])
               for variant in Variant}
MAX_BURRACOS = 108 // BURRACO_LENGTH
MAX_HAND_SCORE = (DECK_POINTS[Variant.CLASSIC] + MAX_BURRACOS * BONUS[BurracoKind.PULITO]
                  + CLOSING_BONUS)
# The cheapest burraco: seven cards of 5 points; the cheapest pozzetto: eleven, and with
# three players the lone player's pozzetto of eighteen (B6).
MIN_BURRACO_POINTS = BURRACO_LENGTH * 5
MIN_POZZETTO_POINTS = 11 * 5
MIN_LONE_POZZETTO_POINTS = 18 * 5
# The counts of each burraco kind a side enters; nobile and reale only in Burraco Reale.
COUNT_FIELDS = {BurracoKind.PULITO: "clean_burracos", BurracoKind.SPORCO: "dirty_burracos",
                BurracoKind.SEMIPULITO: "semiclean_burracos",
                BurracoKind.NOBILE: "nobile_burracos", BurracoKind.REALE: "reale_burracos"}
CLEAN_KINDS = (BurracoKind.PULITO, BurracoKind.NOBILE, BurracoKind.REALE)
# The cards a run of the whole suit holds, Burraco Reale's values: A 15, 2 10, 3–7 25,
# 8–K 60 (nobile 110), and the second ace (reale 125).
WHOLE_SUIT_POINTS = {BurracoKind.NOBILE: 110, BurracoKind.REALE: 125}


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
    nobile_burracos: int = 0
    reale_burracos: int = 0
    # Entered by meld: the cards of each meld on the table and those left in hand (codes),
    # from which the points and burracos above are counted.
    melds: tuple[tuple[str, ...], ...] | None = None
    in_hand: tuple[str, ...] = ()

    def count(self, kind: BurracoKind) -> int:
        return getattr(self, COUNT_FIELDS[kind])

    @property
    def burracos(self) -> int:
        return sum(map(self.count, BurracoKind))

    @property
    def clean(self) -> int:
        """Burracos without a wildcard: clean, and Burraco Reale's nobile and reale."""
        return sum(map(self.count, CLEAN_KINDS))

    @property
    def bonuses(self) -> int:
        return sum(self.count(kind) * BONUS[kind] for kind in BurracoKind)

    @property
    def least_table_points(self) -> int:
        """What the side's burracos hold at the least on the table: seven cards of 5 each,
        or the whole suit's run."""
        return sum(self.count(kind) * WHOLE_SUIT_POINTS.get(kind, MIN_BURRACO_POINTS)
                   for kind in BurracoKind)

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
        """The side as stored and sent; the whole suit's runs only where there are any, so
        a classic hand keeps its shape."""
        if self.total is not None:
            return {"total": self.total}
        if self.melds is not None:
            return {"melds": [list(meld) for meld in self.melds], "in_hand": list(self.in_hand),
                    "pozzetto": self.pozzetto.value,
                    "unseen_pozzetto_points": self.unseen_pozzetto_points,
                    "closed": self.closed}
        stored = {"table_points": self.table_points, "clean_burracos": self.clean_burracos,
                  "dirty_burracos": self.dirty_burracos,
                  "semiclean_burracos": self.semiclean_burracos,
                  "hand_points": self.hand_points, "pozzetto": self.pozzetto.value,
                  "unseen_pozzetto_points": self.unseen_pozzetto_points,
                  "closed": self.closed}
        if self.nobile_burracos or self.reale_burracos:
            stored.update(nobile_burracos=self.nobile_burracos,
                          reale_burracos=self.reale_burracos)
        return stored


def _pozzetto(raw: Mapping, side: int) -> Pozzetto:
    if raw.get("pozzetto") in (None, ""):
        # Silence is no answer: a missing field must not count as "taken".
        raise HandError("pozzetto_missing", side=side + 1)
    try:
        return Pozzetto(raw["pozzetto"])
    except ValueError:
        raise HandError("unknown_pozzetto", side=side + 1) from None


def _verify_counts(counts: Mapping[BurracoKind, int], side: int, options: "Options") -> None:
    """Each kind of burraco counts only where the table plays it (B4, B7)."""
    if counts[BurracoKind.SEMIPULITO] and not options.semipulito:
        raise HandError("semiclean_off", side=side + 1)
    whole_suit = counts[BurracoKind.NOBILE] or counts[BurracoKind.REALE]
    if whole_suit and options.variant is not Variant.REALE:
        raise HandError("whole_suit_runs_off", side=side + 1)


def _verify_closing(hand: SideHand, side: int, options: "Options") -> None:
    """Closing needs the pozzetto and a burraco (seed 002, "Schließen"); Burraco Reale a
    clean one: "si deve necessariamente aver calato un Burraco pulito" (B7)."""
    if not hand.closed:
        return
    if hand.pozzetto is Pozzetto.NOT_TAKEN:
        raise HandError("closing_needs_pozzetto", side=side + 1)
    if not hand.burracos:
        raise HandError("closing_needs_burraco", side=side + 1)
    if options.variant is Variant.REALE and not hand.clean:
        raise HandError("closing_needs_clean_burraco", side=side + 1)


# What an entry by meld gives in place of the parts it counts.
COUNTED_BY_MELDS = ("table_points", "hand_points", *COUNT_FIELDS.values())


def _by_melds(raw: Mapping, side: int, options: "Options") -> dict:
    """The parts a side entered by meld comes to: each meld checked as the meld checker
    checks it, its cards' points on the table and its burraco counted; the cards left in
    hand against it (seed 002: "Abrechnung")."""
    judged, in_hand = melds.laid_out(
        raw, side, partial(verify_meld, semipulito=options.semipulito,
                           variant=options.variant), COUNTED_BY_MELDS)
    counts = dict.fromkeys(BurracoKind, 0)
    for _cards, meld in judged:
        if meld.burraco:
            counts[meld.burraco] += 1
    return {"table_points": sum(meld.points for _cards, meld in judged),
            "hand_points": sum(card_value(card, options.variant) for card in in_hand),
            **{COUNT_FIELDS[kind]: count for kind, count in counts.items()},
            **melds.as_entered(judged, in_hand)}


# The burracos a side lays most often, each as the cheapest cards of its kind (the seed's
# clean run 3♥–9♥ among them), so one tap lays a whole burraco; dearer cards are corrected.
_READY = {
    "clean_run": "3H 4H 5H 6H 7H 8H 9H",
    "dirty_run": "3H 4H 5H 6H 7H 8H 2C",
    "clean_set": "3S 3S 3H 3H 3D 3D 3C",
    "dirty_set": "3S 3S 3H 3H 3D 3D 2C",
    "semiclean_run": "3H 4H 5H 6H 7H 8H 9H 2C",
    "nobile": "AH 2H 3H 4H 5H 6H 7H 8H 9H 10H JH QH KH",
    "reale": "AH 2H 3H 4H 5H 6H 7H 8H 9H 10H JH QH KH AH",
}


def ready_burracos(options: "Options") -> dict[str, list[Card]]:
    """The ready burracos the table's game knows: runs and sets, the semi-clean run where
    it counts (B4); in Burraco Reale runs only, with nobile and reale (B7)."""
    if options.variant is Variant.REALE:
        names = ["clean_run", "dirty_run", "nobile", "reale"]
    else:
        names = ["clean_run", "dirty_run", "clean_set", "dirty_set"]
        if options.semipulito:
            names.append("semiclean_run")
    return {name: parse_cards(_READY[name]) for name in names}


def verify_side(raw: Mapping, side: int, options: "Options") -> SideHand:
    """One side's entry for a hand, checked against the scoring rules: its parts, its
    melds and the cards left in hand, or a total counted on paper."""
    if not isinstance(raw, Mapping):
        raise HandError("side_needs_entry", side=side + 1)
    total = paper_total(raw, side, MAX_HAND_SCORE)
    if total is not None:
        return SideHand(total=total)
    deck = DECK_POINTS[options.variant]
    if raw.get("melds") is not None:
        parts = _by_melds(raw, side, options)
    else:
        parts = {"table_points": card_points(raw, "table_points", side, deck),
                 "hand_points": card_points(raw, "hand_points", side, deck),
                 **{field: whole_number(raw.get(field) or 0, "burracos_range", 0,
                                        MAX_BURRACOS, error=HandError, side=side + 1)
                    for field in COUNT_FIELDS.values()}}
    counts = {kind: parts[field] for kind, field in COUNT_FIELDS.items()}
    _verify_counts(counts, side, options)
    pozzetto = _pozzetto(raw, side)
    hand = SideHand(
        **parts,
        pozzetto=pozzetto, closed=yes_no(raw.get("closed", False), "closed", HandError),
        # A pozzetto is at least eleven cards: an unseen one costs at least 55 (B2).
        unseen_pozzetto_points=(card_points(raw, "unseen_pozzetto_points", side, deck,
                                            MIN_POZZETTO_POINTS)
                                if pozzetto is Pozzetto.UNSEEN else 0),
    )
    if hand.table_points < hand.least_table_points:
        if hand.nobile_burracos or hand.reale_burracos:
            raise HandError("whole_suit_runs_need_cards", side=side + 1,
                            low=hand.least_table_points)
        raise HandError("burraco_needs_cards", side=side + 1, low=MIN_BURRACO_POINTS)
    _verify_closing(hand, side, options)
    if hand.table_points + hand.hand_points + hand.unseen_pozzetto_points > deck:
        raise HandError("side_points_exceed_cards", side=side + 1, high=deck,
                        total=hand.table_points + hand.hand_points
                        + hand.unseen_pozzetto_points)
    return hand


def _verify_closer_of_two(sides: Sequence[SideHand]) -> None:
    """B6, two players: "the closer holds no cards (0 hand points) and cannot have an unseen
    pozzetto (the pozzetto closed from has been seen)"."""
    for index, side in enumerate(sides):
        if side.total is not None or not side.closed:
            continue
        if side.hand_points:
            raise HandError("closer_holds_no_cards", side=index + 1)
        if side.pozzetto is Pozzetto.UNSEEN:
            raise HandError("closer_saw_pozzetto", side=index + 1)


def verify_sides(raw_sides, options: "Options", count: int = 2,
                 players: int | None = None) -> list[SideHand]:
    """Every side's entry (two sides, or three when nobody of three players ran out), at most
    one side closed (seed: "Schließen"), and no more points than the cards hold (B6). With
    ``players`` known, what their number implies too."""
    if not isinstance(raw_sides, Sequence) or isinstance(raw_sides, str) or \
            len(raw_sides) != count:
        if count == 3:
            raise HandError("hand_needs_three_sides")
        raise HandError("hand_needs_two_sides")
    sides = [verify_side(raw, side, options) for side, raw in enumerate(raw_sides)]
    if sum(side.closed for side in sides) > 1:
        raise HandError("both_closed")
    verify_cards_together(sides, DECK_POINTS[options.variant])
    if players == 2:
        _verify_closer_of_two(sides)
    return sides


# --- The match (seed: "Partieende"; RULES-NOTES B3) ----------------------------------------

MIN_PLAYERS = 2
MAX_PLAYERS = 4
OPTION_FIELDS = ("target", "semipulito", "round_halves", "variant", "hands")
TARGETS = (2005, 1005, 505)
TOURNAMENT_HANDS = (2, 3, 4)


@dataclass(frozen=True)
class Options:
    target: int = TARGETS[0]
    semipulito: bool = False
    first_dealer: int = 0
    round_halves: bool = False    # three players: the partners' half up to the next 5 (B6)
    variant: Variant = Variant.CLASSIC
    hands: int | None = None    # a tournament's hands (B8), in place of the target
    victory_points: VictoryPoints | None = None

    def __post_init__(self):
        # Burraco Reale pays its own burracos, and no semi-clean one (B7).
        variant = variant_of(self.variant)
        object.__setattr__(self, "variant", variant)
        if variant is Variant.REALE:
            object.__setattr__(self, "semipulito", False)

    def to_dict(self) -> dict:
        return {"target": self.target, "semipulito": self.semipulito,
                "first_dealer": self.first_dealer, "round_halves": self.round_halves,
                "variant": self.variant.value,
                # The table travels with the match, so the sheet and an export apply the same.
                **({"hands": self.hands, "victory_points": as_data(self.victory_points)}
                   if self.hands else {})}


def _tournament(raw: Mapping, players: int) -> tuple[int | None, VictoryPoints | None]:
    """B8: a fixed number of hands (2, 3 or 4) between two pairs, and the table that turns
    their difference into Victory Points: FIBUR's for 3 or 4 hands, or a club's own."""
    if raw.get("hands") in (None, ""):
        return None, None
    hands = whole_number(raw["hands"], "tournament_hands", TOURNAMENT_HANDS[0],
                         TOURNAMENT_HANDS[-1], error=SetupError)
    if players != 4:
        raise SetupError("tournament_pairs", count=players)
    chosen = raw.get("victory_points")
    if chosen in (None, "", FIBUR):
        if hands not in VICTORY_POINT_TABLES:
            # "No 2-hand or team table was found in a public source: ship none" (B8).
            raise SetupError("vp_table_needed", hands=hands)
        return hands, VICTORY_POINT_TABLES[hands]
    table = read_table(chosen)
    if table.hands not in (None, hands):
        raise SetupError("vp_table_other_hands", hands=hands, table=table.hands)
    return hands, table


def verify_options(raw: Mapping, players: int) -> Options:
    """Two, three or four players; a target (2005, 1005, 505 or any), or a tournament's
    hands and Victory Points table; semi-clean on or off; the classic game or Burraco
    Reale."""
    if not MIN_PLAYERS <= players <= MAX_PLAYERS:
        raise SetupError("player_count", count=players, low=MIN_PLAYERS, high=MAX_PLAYERS)
    target = read_target(raw, TARGETS)
    first_dealer = whole_number(raw.get("first_dealer", 0), "seat_range", 0, players - 1,
                                error=SetupError)
    return Options(target, yes_no(raw.get("semipulito", False), "semipulito", SetupError),
                   first_dealer,
                   yes_no(raw.get("round_halves", False), "round_halves", SetupError),
                   variant_of(raw.get("variant")), *_tournament(raw, players))


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


def verify_hand_sides(raw: Mapping, options: Options,
                      players: int | None = None) -> list[SideHand]:
    """A hand's sides: two, or three when nobody of three players ran out (B6)."""
    if not isinstance(raw, Mapping):
        raise HandError("hand_needs_two_sides")
    if not nobody_ran_out(raw):
        return verify_sides(raw.get("sides"), options, players=players)
    parts = verify_sides(raw.get("sides"), options, count=3)
    _verify_nobody_ran_out(parts)
    return parts


def _read_hand(options: Options, players: int, raw: Mapping):
    """Every side's entry, checked, and with three players who played alone (or nobody)."""
    if not isinstance(raw, Mapping):
        raise HandError("hand_needs_two_sides")
    if players != 3:
        return verify_sides(raw.get("sides"), options, players=players), None
    parts = verify_hand_sides(raw, options, players)
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


def hand_scores(hand: Mapping, options: Options) -> list[int]:
    """Each side's score for a stored hand (a test pins the seed's 410 and 155)."""
    return [side.score for side in verify_sides(hand["sides"], options, len(hand["sides"]))]


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


@dataclass(frozen=True)
class TournamentStandings(Standings):
    """A tournament match's standings (B8): the totals are the pairs' match points, and
    after the last hand each pair has its Victory Points from ``table``."""

    victory_points: tuple[int, int] | None
    table: VictoryPoints


def standings(options: Options, players: int, hands: Sequence[Mapping],
              known: Standings | None = None) -> Standings:
    """Replay the hands: each one's parts and scores, running totals, the next deal, the end."""
    def score_hand(raw: Mapping):
        parts, alone = _read_hand(options, players, raw)
        sides = sides_of(players, alone)
        return sides, parts, _gains(options, players, sides, [part.score for part in parts])

    units = each_alone(players) if players == 3 else sides_of(players)
    played = replay(hands, players, options.first_dealer, options.target, units, score_hand,
                    known, fixed=options.hands)
    if not options.hands:
        return played
    table = options.victory_points
    return TournamentStandings(
        **{field.name: getattr(played, field.name) for field in fields(Standings)},
        victory_points=table.of(played.totals) if played.finished else None, table=table)


# --- Tournaments: the Victory Points tables that ship (B8) ------------------------------------

FIBUR = "FIBUR"

def _fibur(hands: int, highs: Sequence[int]) -> VictoryPoints:
    """The Italian federation's table for ``hands`` hands a turn: band i ends at highs[i] and
    gives 10 + i to 10 − i; above the last, 20–0."""
    lows = [0, *(high + 5 for high in highs)]
    bands = [Band(low, high, 10 + index, 10 - index)
             for index, (low, high) in enumerate(zip(lows, [*highs, None], strict=True))]
    return VictoryPoints(name=FIBUR, bands=tuple(bands), hands=hands)


# B8: "MP difference, 3 hands" and "4 hands", FIBUR Codice di Gara art. 17.
VICTORY_POINT_TABLES = {
    3: _fibur(3, [50, 150, 250, 350, 500, 650, 800, 1000, 1250, 1500]),
    4: _fibur(4, [100, 300, 500, 700, 900, 1100, 1300, 1500, 1700, 2000]),
}
