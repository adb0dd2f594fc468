"""Buraco: melds, a side's hand score, and the match (seed 004; RULES-NOTES C1–C3), with the
Brazilian variants of seed 002 ("Varianten").

Players are numbered by their seats in the order of play. Play goes to the left, clockwise,
so the next dealer is the next player in the list, who also leads the hand after. Four play
as partners sitting opposite, seats 0 and 2 against 1 and 3; two or three play alone, each
with a dead pile of their own (seed: "Zu zweit oder zu dritt spielt jeder für sich").
"""

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from enum import StrEnum
from functools import partial

from . import melds
from .cards import Card, Rank, parse_cards, rummy_deck
from .errors import HandError, MeldError, SetupError
from .match import Standings, each_alone

# MeldKind, cards_by_suit and row_json are part of this module's face (checker, API).
from .melds import (
    MeldKind,
    Shape,
    meld_shapes,
    of_one_rank,
    one_wildcard_shapes,
    sequence_shapes,
    set_shape,
    verify_in_deck,
)
from .melds import cards_by_suit as cards_by_suit
from .tally import card_points, paper_total, read_target, replay, verify_cards_together
from .tally import row_json as row_json
from .values import whole_number, yes_no


class Variant(StrEnum):
    SEED = "seed"              # seed 004: sets only; red threes are bonus cards
    BRAZILIAN = "brazilian"    # seed 002, Varianten: Burraco's melds at Brazilian values;
                               # the online sites' Fechado (C5)
    ABERTO = "aberto"          # Buraco Aberto: sequences only; out with a clean buraco
    STBL = "stbl"              # "sem trinca, bate limpo": scored as Aberto, its discard
                               # pile closed as Fechado's (C5)


# The variants that meld sequences only and go out only with a clean buraco (C3, C5).
RUNS_ONLY = (Variant.ABERTO, Variant.STBL)


def variant_of(value) -> Variant:
    """A variant by its name; "" or None is the seed's game."""
    try:
        return Variant(value or Variant.SEED)
    except ValueError:
        raise SetupError("unknown_variant") from None


# --- Card values (seed 004; RULES-NOTES C1, C3) --------------------------------------------

_SEED_VALUES = {
    Rank.JOKER: 30, Rank.TWO: 20, Rank.ACE: 20,
    Rank.KING: 10, Rank.QUEEN: 10, Rank.JACK: 10, Rank.TEN: 10,
    Rank.NINE: 5, Rank.EIGHT: 5, Rank.SEVEN: 5, Rank.SIX: 5, Rank.FIVE: 5, Rank.FOUR: 5,
    Rank.THREE: 5,    # a black three left in hand (C1); a red one is a bonus card
}
_BRAZILIAN_VALUES = {
    Rank.JOKER: 20, Rank.TWO: 10, Rank.ACE: 15,
    Rank.KING: 10, Rank.QUEEN: 10, Rank.JACK: 10, Rank.TEN: 10, Rank.NINE: 10, Rank.EIGHT: 10,
    Rank.SEVEN: 5, Rank.SIX: 5, Rank.FIVE: 5, Rank.FOUR: 5, Rank.THREE: 5,
}
CARD_VALUES = {variant: _SEED_VALUES if variant is Variant.SEED else _BRAZILIAN_VALUES
               for variant in Variant}


def is_red_three(card: Card) -> bool:
    """♥3 and ♦3, the seed's bonus cards."""
    return card.rank is Rank.THREE and card.suit.is_red


def card_value(card: Card, variant: Variant | str = Variant.SEED) -> int:
    """A card's points; a wildcard counts its own value. In the seed's game a red three is a
    bonus card, laid out at once, and counts nothing as a card (C1)."""
    variant = variant_of(variant)
    if variant is Variant.SEED and is_red_three(card):
        return 0
    return CARD_VALUES[variant][card.rank]


# All 108 cards together: the most that the cards left in hand can be worth (seed 1,020;
# the Brazilian values 960); on the table the seed's game never has a three (C4: 1,000).
DECK_POINTS = {variant: sum(card_value(card, variant) for card in rummy_deck())
               for variant in Variant}
TABLE_POINTS = {variant: sum(card_value(card, variant) for card in rummy_deck()
                             if variant is not Variant.SEED or card.rank is not Rank.THREE)
                for variant in Variant}


# --- Melds (seed 004; RULES-NOTES C2, C3) --------------------------------------------------

class BuracoKind(StrEnum):
    CLEAN = "clean"    # seed: "rein"
    DIRTY = "dirty"    # seed: "unrein"
    REAL = "real"      # canastra real: a clean run from ace to king (option, C5)
    ACE_TO_ACE = "ace_to_ace"  # a clean run from ace to ace (option, C5)


BONUS = {None: 0, BuracoKind.CLEAN: 200, BuracoKind.DIRTY: 100, BuracoKind.REAL: 500,
         BuracoKind.ACE_TO_ACE: 1000}
BURACO_LENGTH = 7
SET_WILDCARDS = 2
# The runs of one whole suit: ace to king (13 cards), ace to ace (14).
REAL_LENGTH, ACE_TO_ACE_LENGTH = 13, 14


@dataclass(frozen=True)
class Reading:
    """One way to read the cards as a legal meld."""

    kind: MeldKind
    order: tuple[Card, ...]
    wildcards: tuple[Card, ...]
    stands_for: Card | Rank | None
    buraco: BuracoKind | None

    @property
    def bonus(self) -> int:
        return BONUS[self.buraco]


class Meld(melds.Meld):
    """A legal meld: its best reading, its points, and the other readings a 2 allows."""

    wildcards = property(lambda self: self.readings[0].wildcards)
    buraco = property(lambda self: self.readings[0].buraco)


def _clean_kind(shape: Shape, canastras_reais: bool) -> BuracoKind:
    """A clean buraco; with *canastras reais* the whole suit's clean runs are worth more
    (C5: "a clean run A–K is worth 500 and a clean run A–A 1,000")."""
    if canastras_reais and shape.order[0].rank is Rank.ACE:
        if len(shape.order) == ACE_TO_ACE_LENGTH:
            return BuracoKind.ACE_TO_ACE
        if len(shape.order) == REAL_LENGTH and shape.order[-1].rank is Rank.KING:
            return BuracoKind.REAL
    return BuracoKind.CLEAN


def _reading(shape: Shape, canastras_reais: bool = False) -> Reading:
    """Seven cards or more make a buraco: clean without a wildcard, else dirty (seed:
    "Hat ein Satz deines Teams sieben oder mehr Karten, heißt er Buraco")."""
    buraco = None
    if len(shape.order) >= BURACO_LENGTH:
        buraco = (BuracoKind.DIRTY if shape.wildcards
                  else _clean_kind(shape, canastras_reais))
    return Reading(shape.kind, shape.order, shape.wildcards, shape.stands_for, buraco)


def _seed_shapes(naturals: list[Card], wilds: list[Card]) -> list[Shape]:
    """Seed 004: sets only, "höchstens zwei Platzhalter pro Satz, und nie mehr Platzhalter
    als echte Karten" (so at most 8 + 2 = 10 cards, C2)."""
    if not of_one_rank(naturals):
        raise MeldError("meld_sets_only")
    if len(wilds) > SET_WILDCARDS:
        raise MeldError("meld_over_two_wildcards", count=len(wilds))
    if len(wilds) > len(naturals):
        raise MeldError("meld_wildcards_outnumber", wildcards=len(wilds),
                        naturals=len(naturals))
    return [set_shape(naturals, wilds)]


def _aberto_shapes(naturals: list[Card], wilds: list[Card],
                   ace_to_ace: bool = False) -> list[Shape]:
    """Buraco Aberto (and STBL): "nur Folgen erlaubt" (seed 002, Varianten), as in Burraco."""
    if of_one_rank(naturals):
        raise MeldError("meld_sequences_only")
    return sequence_shapes(naturals, wilds, ace_to_ace)


# The Brazilian game melds as Burraco does, one wildcard in a set or a sequence (C3).
_SHAPES = {Variant.SEED: _seed_shapes, Variant.BRAZILIAN: one_wildcard_shapes,
           Variant.ABERTO: _aberto_shapes, Variant.STBL: _aberto_shapes}


def _shape_reader(variant: Variant, canastras_reais: bool):
    """How the variant reads cards as melds; the run from ace to ace only where it counts."""
    if canastras_reais and variant is not Variant.SEED:
        return partial(_SHAPES[variant], ace_to_ace=True)
    return _SHAPES[variant]


def _verify_threes(cards: Sequence[Card]) -> None:
    """Seed 004: red threes are bonus cards ("legst du sie sofort offen vor dich hin");
    black threes "darfst du nicht in normalen Sätzen auslegen"."""
    for card in cards:
        if is_red_three(card):
            raise MeldError("meld_red_three", card=card)
    for card in cards:
        if card.rank is Rank.THREE and not card.suit.is_red:
            raise MeldError("meld_black_three", card=card)


def verify_meld(cards: Sequence[Card], variant: Variant | str = Variant.SEED,
                canastras_reais: bool = False) -> Meld:
    """Judge cards as a Buraco meld of the variant, in any order; raise MeldError with the
    rule broken. The clean reading comes first where a 2 can be natural or wild."""
    variant = variant_of(variant)
    canastras_reais = canastras_reais and variant is not Variant.SEED
    cards = list(cards)
    verify_in_deck(cards)
    if variant is Variant.SEED:
        _verify_threes(cards)
    readings = sorted((_reading(shape, canastras_reais)
                       for shape in meld_shapes(cards, _shape_reader(variant, canastras_reais))),
                      key=lambda reading: (-reading.bonus, bool(reading.wildcards)))
    return Meld(sum(card_value(card, variant) for card in cards), tuple(readings))


def can_meld(cards: Sequence[Card], variant: Variant | str = Variant.SEED,
             canastras_reais: bool = False) -> bool:
    """Whether the cards make a legal meld of the variant."""
    try:
        verify_meld(cards, variant, canastras_reais)
    except MeldError:
        return False
    return True


def verify_addition(table: Sequence[Card], added: Sequence[Card],
                    variant: Variant | str = Variant.SEED,
                    canastras_reais: bool = False) -> Meld:
    """Cards added to a legal meld on the table: the meld they make must be legal too."""
    return melds.verify_added(partial(verify_meld, variant=variant,
                                      canastras_reais=canastras_reais), table, added)


# --- A side's hand score (seed 004; RULES-NOTES C1) ----------------------------------------

class DeadPile(StrEnum):
    TAKEN = "taken"
    NOT_TAKEN = "not_taken"


GOING_OUT_BONUS = 100
DEAD_PILE_PENALTY = 100
RED_THREE_BONUS = 100
ALL_RED_THREES_BONUS = 800
RED_THREES = 4
MAX_BURACOS = 108 // BURACO_LENGTH
# The cheapest buraco: seven cards of 5 points.
MIN_BURACO_POINTS = BURACO_LENGTH * 5
MAX_HAND_SCORE = (max(DECK_POINTS.values()) + MAX_BURACOS * BONUS[BuracoKind.CLEAN]
                  + ALL_RED_THREES_BONUS + GOING_OUT_BONUS)


# The counts of each buraco kind a side enters; the whole suit's runs only with the option.
COUNT_FIELDS = {BuracoKind.CLEAN: "clean_buracos", BuracoKind.DIRTY: "dirty_buracos",
                BuracoKind.REAL: "real_buracos", BuracoKind.ACE_TO_ACE: "ace_to_ace_buracos"}
CLEAN_KINDS = (BuracoKind.CLEAN, BuracoKind.REAL, BuracoKind.ACE_TO_ACE)
# The cards a run of the whole suit holds at the Brazilian values: A 15, 2 10, 3–7 25, 8–K 60
# (ace to king 110), and the second ace (ace to ace 125).
WHOLE_SUIT_POINTS = {BuracoKind.REAL: 110, BuracoKind.ACE_TO_ACE: 125}


@dataclass(frozen=True)
class SideHand:
    """What a side entered for one hand: its parts, or only a total counted on paper."""

    table_points: int = 0
    clean_buracos: int = 0
    dirty_buracos: int = 0
    red_threes: int = 0
    hand_points: int = 0
    dead_pile: DeadPile = DeadPile.TAKEN
    went_out: bool = False
    total: int | None = None
    # What the table's options pay for going out and charge for a dead pile never taken.
    going_out_bonus: int = GOING_OUT_BONUS
    dead_pile_penalty: int = DEAD_PILE_PENALTY
    real_buracos: int = 0
    ace_to_ace_buracos: int = 0
    # Entered by meld: the cards of each meld on the table and those left in hand (codes),
    # from which the points and buracos above are counted.
    melds: tuple[tuple[str, ...], ...] | None = None
    in_hand: tuple[str, ...] = ()

    def count(self, kind: BuracoKind) -> int:
        return getattr(self, COUNT_FIELDS[kind])

    @property
    def buracos(self) -> int:
        return sum(map(self.count, BuracoKind))

    @property
    def clean(self) -> int:
        """Buracos without a wildcard, the whole suit's runs among them."""
        return sum(map(self.count, CLEAN_KINDS))

    @property
    def bonuses(self) -> int:
        return sum(self.count(kind) * BONUS[kind] for kind in BuracoKind)

    @property
    def least_table_points(self) -> int:
        """What the side's buracos hold at the least on the table: seven cards of 5 each,
        or the whole suit's run."""
        return sum(self.count(kind) * WHOLE_SUIT_POINTS.get(kind, MIN_BURACO_POINTS)
                   for kind in BuracoKind)

    @property
    def melded(self) -> bool:
        """A side that melded nothing has no points on the table and no buraco."""
        return bool(self.table_points or self.buracos)

    @property
    def red_three_points(self) -> int:
        """+100 a red three, +800 for all four; as much off for a side that melded nothing
        (C1)."""
        bonus = (ALL_RED_THREES_BONUS if self.red_threes == RED_THREES
                 else self.red_threes * RED_THREE_BONUS)
        return bonus if self.melded else -bonus

    @property
    def going_out(self) -> int:
        return self.going_out_bonus if self.went_out else 0

    @property
    def dead_pile_points(self) -> int:
        return self.dead_pile_penalty if self.dead_pile is DeadPile.NOT_TAKEN else 0

    @property
    def score(self) -> int:
        """Cards on the table + buraco bonuses ± red threes + going out − cards in hand − the
        dead pile never taken (seed 004; C1)."""
        if self.total is not None:
            return self.total
        return (self.table_points + self.bonuses + self.red_three_points + self.going_out
                - self.hand_points - self.dead_pile_points)

    def as_dict(self) -> dict:
        """The side as stored and sent; the whole suit's runs only where there are any, so
        a hand without them keeps its shape."""
        if self.total is not None:
            return {"total": self.total}
        if self.melds is not None:
            return {"melds": [list(meld) for meld in self.melds], "in_hand": list(self.in_hand),
                    "red_threes": self.red_threes, "dead_pile": self.dead_pile.value,
                    "went_out": self.went_out}
        stored = {"table_points": self.table_points, "clean_buracos": self.clean_buracos,
                  "dirty_buracos": self.dirty_buracos, "red_threes": self.red_threes,
                  "hand_points": self.hand_points, "dead_pile": self.dead_pile.value,
                  "went_out": self.went_out}
        if self.real_buracos or self.ace_to_ace_buracos:
            stored.update(real_buracos=self.real_buracos,
                          ace_to_ace_buracos=self.ace_to_ace_buracos)
        return stored


def _count(raw: Mapping, field: str, code: str, high: int, side: int) -> int:
    return whole_number(raw.get(field) or 0, code, 0, high, error=HandError, side=side + 1)


def _dead_pile(raw: Mapping, side: int) -> DeadPile:
    if raw.get("dead_pile") in (None, ""):
        # Silence is no answer: a missing field must not count as "taken".
        raise HandError("dead_pile_missing", side=side + 1)
    try:
        return DeadPile(raw["dead_pile"])
    except ValueError:
        raise HandError("unknown_dead_pile", side=side + 1) from None


def _verify_parts(hand: SideHand, side: int, options: "Options") -> None:
    """What the seed's play allows of a side's parts."""
    if hand.table_points < hand.least_table_points:
        if hand.real_buracos or hand.ace_to_ace_buracos:
            raise HandError("whole_suit_runs_need_cards", side=side + 1,
                            low=hand.least_table_points)
        raise HandError("buraco_needs_cards", side=side + 1, low=MIN_BURACO_POINTS)
    # C4: "melds never leave the table, so a side that melded shows at least M".
    if options.minimum_first_meld and hand.melded and \
            hand.table_points < options.minimum_first_meld:
        raise HandError("first_meld_minimum", side=side + 1, low=options.minimum_first_meld)
    # Seed 004: going out only "wenn sein Team … schon mindestens einen kompletten Buraco
    # von sieben Karten gebildet hat"; Aberto and the option ask for a clean one.
    if hand.went_out and options.clean_to_go_out and not hand.clean:
        raise HandError("going_out_needs_clean_buraco", side=side + 1)
    if hand.went_out and not hand.buracos:
        raise HandError("going_out_needs_buraco", side=side + 1)
    if hand.went_out and hand.dead_pile is DeadPile.NOT_TAKEN:
        raise HandError("going_out_needs_dead_pile", side=side + 1)
    # Seed 004: "Legt ein Spieler deines Teams zum ersten Mal … einen Satz aus, nehmt ihr
    # sofort euren toten Stapel auf die Hand": melded and taken go together. (The Brazilian
    # morto is taken by running out of cards, as Burraco's pozzetto.)
    if options.variant is Variant.SEED and hand.melded != (hand.dead_pile is DeadPile.TAKEN):
        raise HandError("dead_pile_at_first_meld" if hand.melded else "dead_pile_without_meld",
                        side=side + 1)
    deck = DECK_POINTS[options.variant]
    if hand.table_points + hand.hand_points > deck:
        raise HandError("side_points_exceed_cards", side=side + 1, high=deck,
                        total=hand.table_points + hand.hand_points)


# What an entry by meld gives in place of the parts it counts.
COUNTED_BY_MELDS = ("table_points", "hand_points", *COUNT_FIELDS.values())


def _by_melds(raw: Mapping, side: int, options: "Options") -> dict:
    """The parts a side entered by meld comes to: each meld checked as the meld checker
    checks it, its cards' values on the table and its buraco counted; the cards left in
    hand subtracted (seed 004, "Abrechnung"; C1)."""
    judged, in_hand = melds.laid_out(
        raw, side, partial(verify_meld, variant=options.variant,
                           canastras_reais=options.canastras_reais), COUNTED_BY_MELDS)
    counts = dict.fromkeys(COUNT_FIELDS.values(), 0)
    for _cards, meld in judged:
        if meld.buraco:
            counts[COUNT_FIELDS[meld.buraco]] += 1
    return {"table_points": sum(meld.points for _cards, meld in judged),
            "hand_points": sum(card_value(card, options.variant) for card in in_hand),
            **counts, **melds.as_entered(judged, in_hand)}


def _counted_parts(raw: Mapping, side: int, options: "Options") -> dict:
    """A side's points and buracos as given, checked against the cards' limits."""
    counts = {field: _count(raw, field, "buracos_range", MAX_BURACOS, side)
              for field in COUNT_FIELDS.values()}
    if (counts["real_buracos"] or counts["ace_to_ace_buracos"]) and \
            not options.canastras_reais:
        raise HandError("canastras_reais_off", side=side + 1)
    return {"table_points": card_points(raw, "table_points", side,
                                        TABLE_POINTS[options.variant]),
            "hand_points": card_points(raw, "hand_points", side, DECK_POINTS[options.variant]),
            **counts}


# The buracos a side lays most often, each as the cheapest cards of its kind, so one tap
# lays a whole one; dearer cards are corrected. The seed's game melds no three (C2).
_READY = {
    "clean_set": "4S 4S 4H 4H 4D 4D 4C",
    "dirty_set": "4S 4S 4H 4H 4D 4D 2C",
    "clean_run": "3H 4H 5H 6H 7H 8H 9H",
    "dirty_run": "3H 4H 5H 6H 7H 8H 2C",
    "real": "AH 2H 3H 4H 5H 6H 7H 8H 9H 10H JH QH KH",
    "ace_to_ace": "AH 2H 3H 4H 5H 6H 7H 8H 9H 10H JH QH KH AH",
}


def ready_buracos(options: "Options") -> dict[str, list[Card]]:
    """The ready buracos the table's game knows: sets in the seed's game (C2), runs and
    sets in the Brazilian one, runs only in Aberto and STBL (C3, C5), and the whole suit's
    runs with *canastras reais* (C5)."""
    names = {Variant.SEED: ["clean_set", "dirty_set"],
             Variant.BRAZILIAN: ["clean_run", "dirty_run", "clean_set", "dirty_set"]}.get(
        options.variant, ["clean_run", "dirty_run"])
    if options.canastras_reais:
        names += ["real", "ace_to_ace"]
    return {name: parse_cards(_READY[name]) for name in names}


def verify_side(raw: Mapping, side: int, options: "Options") -> SideHand:
    """One side's entry for a hand, checked against the scoring rules and the options: its
    parts, its melds and the cards left in hand, or a total counted on paper."""
    if not isinstance(raw, Mapping):
        raise HandError("side_needs_entry", side=side + 1)
    total = paper_total(raw, side, MAX_HAND_SCORE)
    if total is not None:
        return SideHand(total=total)
    red_threes = _count(raw, "red_threes", "red_threes_range", RED_THREES, side)
    if red_threes and not options.red_threes:
        raise HandError("red_threes_off", side=side + 1)
    parts = (_by_melds(raw, side, options) if raw.get("melds") is not None
             else _counted_parts(raw, side, options))
    hand = SideHand(
        **parts,
        red_threes=red_threes,
        dead_pile=_dead_pile(raw, side),
        went_out=yes_no(raw.get("went_out", False), "went_out", HandError),
        going_out_bonus=GOING_OUT_BONUS if options.going_out_bonus else 0,
        dead_pile_penalty=DEAD_PILE_PENALTY if options.dead_pile_penalty else 0,
    )
    _verify_parts(hand, side, options)
    return hand


def _needs_sides(count: int) -> HandError:
    return HandError("hand_needs_two_sides" if count == 2 else "hand_needs_three_players")


def verify_sides(raw_sides, options: "Options", count: int = 2,
                 players: int | None = None) -> list[SideHand]:
    """Every side's entry (two sides, or each of three players), at most one side out, the
    four red threes at most, and no more points than the cards hold. With ``players`` known
    (two or three play alone), the player who went out holds no cards (C4)."""
    if not isinstance(raw_sides, Sequence) or isinstance(raw_sides, str) or \
            len(raw_sides) != count:
        raise _needs_sides(count)
    sides = [verify_side(raw, side, options) for side, raw in enumerate(raw_sides)]
    # Seed 004: "Die Runde endet, sobald ein Spieler alle Karten seiner Hand ausgelegt oder
    # abgelegt hat": the first one out ends it.
    if sum(side.went_out for side in sides) > 1:
        raise HandError("two_went_out")
    red_threes = sum(side.red_threes for side in sides)
    if red_threes > RED_THREES:
        raise HandError("red_threes_together", total=red_threes, high=RED_THREES)
    verify_cards_together(sides, DECK_POINTS[options.variant], TABLE_POINTS[options.variant])
    if players is not None and players < 4:
        for index, side in enumerate(sides):
            if side.went_out and side.hand_points:
                raise HandError("out_holds_no_cards", side=index + 1)
    return sides


# --- The match (seed 004; RULES-NOTES C1) --------------------------------------------------

MIN_PLAYERS = 2
MAX_PLAYERS = 4
OPTION_FIELDS = ("target", "variant", "red_threes", "going_out_bonus",
                 "dead_pile_penalty", "clean_to_go_out", "minimum_first_meld",
                 "canastras_reais")
TARGETS = (3000,)


@dataclass(frozen=True)
class Options:
    """The table's rules. The variants fix some of them (C3, C5): threes are plain cards in
    the Brazilian games, so no red-three bonus; Aberto and STBL go out only with a clean
    buraco; the seed's game has no runs, so no canastras reais."""

    target: int = TARGETS[0]
    variant: Variant = Variant.SEED
    red_threes: bool = True
    going_out_bonus: bool = True
    dead_pile_penalty: bool = True
    clean_to_go_out: bool = False
    # C4: a side that melded shows at least this many points on the table.
    minimum_first_meld: int | None = None
    first_dealer: int = 0
    canastras_reais: bool = False

    def __post_init__(self):
        # However the options were given, the variant's own rules hold.
        variant = variant_of(self.variant)
        object.__setattr__(self, "variant", variant)
        if variant is not Variant.SEED:
            object.__setattr__(self, "red_threes", False)
        else:
            object.__setattr__(self, "canastras_reais", False)
        if variant in RUNS_ONLY:
            object.__setattr__(self, "clean_to_go_out", True)

    def to_dict(self) -> dict:
        return {"target": self.target, "variant": self.variant.value,
                "red_threes": self.red_threes, "going_out_bonus": self.going_out_bonus,
                "dead_pile_penalty": self.dead_pile_penalty,
                "clean_to_go_out": self.clean_to_go_out,
                "minimum_first_meld": self.minimum_first_meld,
                "first_dealer": self.first_dealer, "canastras_reais": self.canastras_reais}


def _flag(raw: Mapping, name: str, default: bool) -> bool:
    """A yes/no option: absent takes the rule's default."""
    return default if raw.get(name) is None else yes_no(raw[name], name, SetupError)


def verify_options(raw: Mapping, players: int) -> Options:
    """Two to four players; the variant, the target (3000 or any) and the table's choices
    where the seed leaves the rules open (C1)."""
    if not MIN_PLAYERS <= players <= MAX_PLAYERS:
        raise SetupError("player_count", count=players, low=MIN_PLAYERS, high=MAX_PLAYERS)
    variant = variant_of(raw.get("variant"))
    minimum = whole_number(raw.get("minimum_first_meld") or 0, "minimum_first_meld_range", 0,
                           DECK_POINTS[variant], error=SetupError)
    return Options(
        target=read_target(raw, TARGETS), variant=variant,
        red_threes=_flag(raw, "red_threes", True),
        going_out_bonus=_flag(raw, "going_out_bonus", True),
        dead_pile_penalty=_flag(raw, "dead_pile_penalty", True),
        clean_to_go_out=_flag(raw, "clean_to_go_out", False),
        minimum_first_meld=minimum or None,
        canastras_reais=_flag(raw, "canastras_reais", False),
        first_dealer=whole_number(raw.get("first_dealer", 0), "seat_range", 0, players - 1,
                                  error=SetupError),
    )


def sides_of(players: int) -> tuple[tuple[int, ...], ...]:
    """The seats of each side: partners sit opposite with four; two or three play alone."""
    return ((0, 2), (1, 3)) if players == 4 else each_alone(players)


def _read_hand(options: Options, players: int, raw: Mapping) -> list[SideHand]:
    count = len(sides_of(players))
    if not isinstance(raw, Mapping):
        raise _needs_sides(count)
    return verify_sides(raw.get("sides"), options, count, players)


def verify_hand(options: Options, players: int, raw: Mapping) -> dict:
    """A hand as stored: each side's entry."""
    return {"sides": [part.as_dict() for part in _read_hand(options, players, raw)]}


def hand_scores(hand: Mapping, options: Options) -> list[int]:
    """Each side's score for a stored hand."""
    return [side.score for side in verify_sides(hand["sides"], options, len(hand["sides"]))]


def standings(options: Options, players: int, hands: Sequence[Mapping],
              known: Standings | None = None) -> Standings:
    """Replay the hands: each one's parts and scores, running totals, the next deal, the end
    (as in Burraco: once a side reaches the target the most points win, a tie plays on)."""
    units = sides_of(players)

    def score_hand(raw: Mapping):
        parts = _read_hand(options, players, raw)
        return units, parts, [part.score for part in parts]

    return replay(hands, players, options.first_dealer, options.target, units, score_hand,
                  known)
