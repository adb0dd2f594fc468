"""What Burraco's and Buraco's melds share (seed 002 "Kombinationen"; RULES-NOTES B5, C2,
C3): which cards are wild, what two packs hold, and how cards lie as a set or a sequence,
whatever each game pays for them."""

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from enum import StrEnum

from .cards import NATURAL_RANKS, Card, Rank, Suit, parse_card, parse_cards
from .errors import CardError, HandError, MeldError


class MeldKind(StrEnum):
    SET = "set"
    SEQUENCE = "sequence"


MIN_MELD = 3
ACE_LOW, ACE_HIGH = 1, 14
# A sequence lies within A–K (ace low) or 2–A (ace high), never both (seed: "nicht beides");
# where a table counts the run from ace to ace (B7, C5), it is the one with both.
_SEQUENCE_RANGES = ((ACE_LOW, 13), (2, ACE_HIGH))
_ACE_TO_ACE = ((ACE_LOW, ACE_HIGH),)
_PLACE = {Rank.TWO: 2, Rank.THREE: 3, Rank.FOUR: 4, Rank.FIVE: 5, Rank.SIX: 6,
          Rank.SEVEN: 7, Rank.EIGHT: 8, Rank.NINE: 9, Rank.TEN: 10, Rank.JACK: 11,
          Rank.QUEEN: 12, Rank.KING: 13}
_RANK_AT = {**{place: rank for rank, place in _PLACE.items()}, ACE_LOW: Rank.ACE,
            ACE_HIGH: Rank.ACE}


@dataclass(frozen=True)
class Shape:
    """How cards lie as one legal meld, before a game pays for it.

    The wildcards stand for ``stands_for`` (a card in a sequence, a rank in a set);
    ``natural_run`` is the longest unbroken row of natural cards (in a set: all of them).
    """

    kind: MeldKind
    order: tuple[Card, ...]
    wildcards: tuple[Card, ...]
    stands_for: Card | Rank | None
    natural_run: int


@dataclass(frozen=True)
class Meld:
    """A legal meld: its points and its readings, the best first; it reads as its best."""

    points: int
    readings: tuple

    kind = property(lambda self: self.readings[0].kind)
    order = property(lambda self: self.readings[0].order)
    stands_for = property(lambda self: self.readings[0].stands_for)
    bonus = property(lambda self: self.readings[0].bonus)


def split_melds(text: str) -> list[str]:
    """Melds typed on one line, a slash between two, each left as one line of cards.

    >>> split_melds("7H 8H 9H / QS QH QD /"), split_melds(" / ")
    (['7H 8H 9H', 'QS QH QD'], [])
    """
    return [meld.strip() for meld in text.split("/") if meld.strip()]


def is_wild(card: Card) -> bool:
    """Jokers and 2s can stand in for a missing card (seed: "Platzhalter")."""
    return card.rank in (Rank.JOKER, Rank.TWO)


def verify_in_deck(cards: Sequence[Card]) -> None:
    """Two packs and four jokers: no card more than twice, no more than four jokers."""
    for card in set(cards):
        copies = 4 if card.is_joker else 2
        if cards.count(card) > copies:
            raise CardError("card_copies", card=card, count=copies)


def cards_by_suit() -> list[tuple[Suit, list[Card]]]:
    """The card picker's rows: every suit from ace to king (the joker comes on its own)."""
    return [(suit, [Card(rank, suit) for rank in NATURAL_RANKS]) for suit in Suit]


def naturals_of(rank: Rank) -> list[Card]:
    """The natural cards of a rank two packs hold, suit by suit, so a set laid from its
    start has as many suits as it can."""
    return [Card(rank, suit) for _pack in range(2) for suit in Suit]


def set_ranks(can_meld: Callable[[Sequence[Card]], bool]) -> tuple[Rank, ...]:
    """The ranks a game lays as a set, as its own checker judges three of them."""
    return tuple(rank for rank in NATURAL_RANKS if can_meld(naturals_of(rank)[:MIN_MELD]))


def of_one_rank(naturals: Sequence[Card]) -> bool:
    """The natural cards could make a set: one rank, and no 2 read as a natural card."""
    return len({card.rank for card in naturals}) == 1 and naturals[0].rank is not Rank.TWO


def _suit_order(card: Card) -> tuple[bool, int]:
    return card.suit is not None, list(Suit).index(card.suit) if card.suit else 0


def set_shape(naturals: Sequence[Card], wilds: Sequence[Card]) -> Shape:
    """Natural cards of one rank, suit by suit, then the wildcards (jokers first)."""
    wilds = tuple(sorted(wilds, key=_suit_order))
    order = tuple(sorted(naturals, key=_suit_order)) + wilds
    return Shape(MeldKind.SET, order, wilds, naturals[0].rank if wilds else None,
                 len(naturals))


def _longest_run(places: list[int]) -> int:
    longest = run = 1
    for before, after in zip(places, places[1:]):
        run = run + 1 if after == before + 1 else 1
        longest = max(longest, run)
    return longest


def _sequence_in(naturals: list[Card], wild: Card | None, low: int, high: int) -> Shape:
    """The cards as a run within [low, high]; the wildcard fills the gap, else the low end,
    else the high end (seed: "liegt immer am unteren Ende")."""
    suit = naturals[0].suit
    aces = sum(card.rank is Rank.ACE for card in naturals)
    # The aces take the range's ends: the low one first, or only the high one.
    ace_places = ([ACE_LOW, ACE_HIGH][:aces] if low == ACE_LOW
                  else [ACE_HIGH] * aces)
    places = sorted([*ace_places, *(_PLACE[card.rank] for card in naturals
                                    if card.rank is not Rank.ACE)])
    if places[0] < low or places[-1] > high:
        raise MeldError("meld_ace_both_ends")
    gaps = [place for place in range(places[0], places[-1] + 1) if place not in places]
    if len(gaps) > (1 if wild else 0):
        raise MeldError("meld_not_consecutive")
    if wild is None:
        wild_place = None
    elif gaps:
        wild_place = gaps[0]
    elif places[0] > low:
        wild_place = places[0] - 1
    elif places[-1] < high:
        wild_place = places[-1] + 1
    else:
        raise MeldError("meld_ace_both_ends")
    by_place = {place: Card(_RANK_AT[place], suit) for place in places}
    stands_for = None if wild_place is None else Card(_RANK_AT[wild_place], suit)
    order = tuple(wild if place == wild_place else by_place[place]
                  for place in sorted([*places, *([wild_place] if wild else [])]))
    return Shape(MeldKind.SEQUENCE, order, (wild,) if wild else (), stands_for,
                 _longest_run(places))


def sequence_shapes(naturals: list[Card], wilds: list[Card],
                    ace_to_ace: bool = False) -> list[Shape]:
    """One suit, consecutive in A 2 3 … K A, the ace low or high, no card twice, at most one
    wildcard (seed 002, "Folge"); with ``ace_to_ace`` also the whole run from ace to ace
    (Burraco Reale, B7; canastras reais, C5)."""
    if len(naturals) < 2:
        raise MeldError("meld_too_many_wildcards" if wilds else "meld_too_short",
                        count=len(wilds))
    if len({card.suit for card in naturals}) > 1:
        raise MeldError("meld_mixed")
    if len(wilds) > 1:
        raise MeldError("meld_too_many_wildcards", count=len(wilds))
    ranks = [card.rank for card in naturals]
    both_aces = ace_to_ace and ranks.count(Rank.ACE) == 2
    twice = next((card for card in naturals if ranks.count(card.rank) > 1
                  and not (both_aces and card.rank is Rank.ACE)), None)
    if twice is not None and twice.rank is Rank.ACE:
        raise MeldError("meld_ace_both_ends")  # one ace low and one high
    if twice is not None:
        raise MeldError("meld_card_twice", card=twice)
    wild = wilds[0] if wilds else None
    shapes, problem = [], None
    for low, high in _ACE_TO_ACE if both_aces else _SEQUENCE_RANGES:
        try:
            shape = _sequence_in(naturals, wild, low, high)
        except MeldError as error:
            problem = problem or error
            continue
        # A 2 "standing for" itself is no wildcard but a natural card in its own place.
        if wild is None or wild != shape.stands_for:
            shapes.append(shape)
    if not shapes:
        raise problem or MeldError("meld_not_consecutive")
    if wild is not None and any(shape.order[0] == wild for shape in shapes):
        # A wildcard at an open end lies at the low end whenever it can.
        shapes = [shape for shape in shapes if shape.order[-1] != wild]
    return shapes


def one_wildcard_shapes(naturals: list[Card], wilds: list[Card],
                        ace_to_ace: bool = False) -> list[Shape]:
    """Burraco's melds: a set or a sequence, with at most one wildcard (seed 002:
    "In jeder Kombination ist höchstens ein Platzhalter erlaubt")."""
    if not of_one_rank(naturals):
        return sequence_shapes(naturals, wilds, ace_to_ace)
    # At most 9 cards (B5) follows: two packs hold 8 of a rank, and one wildcard joins them.
    if len(wilds) > 1:
        raise MeldError("meld_too_many_wildcards", count=len(wilds))
    return [set_shape(naturals, wilds)]


def _telling(problems: list[MeldError]) -> MeldError:
    """What to tell the player: the fault with every 2 read as a wildcard, unless that is
    "too many wildcards" and reading a 2 as natural runs into a rule of its own (an ace at
    both ends, the same card twice)."""
    every_two_wild = problems[0]
    if every_two_wild.code == "meld_too_many_wildcards":
        deeper = [error for error in problems[1:]
                  if error.code in ("meld_card_twice", "meld_ace_both_ends")]
        return deeper[0] if deeper else every_two_wild
    return every_two_wild


ShapeReader = Callable[[list[Card], list[Card]], list[Shape]]


def meld_shapes(cards: Sequence[Card], read: ShapeReader) -> list[Shape]:
    """Every legal shape of the cards, whatever their order; raise MeldError with the rule
    broken. A 2 may be natural (in its own place in a sequence of its suit) or wild: every
    split into natural cards and wildcards is tried, and ``read`` judges each (B5)."""
    if len(cards) < MIN_MELD:
        raise MeldError("meld_too_short", count=len(cards))
    jokers = [card for card in cards if card.is_joker]
    twos = [card for card in cards if card.rank is Rank.TWO]
    others = [card for card in cards if not is_wild(card)]
    if not others:
        raise MeldError("meld_only_wildcards")  # seed: "drei Zweien sind kein Satz"
    shapes, problems = [], []
    # Every 2 wild, or one of them natural: two natural 2s can never share a meld.
    for natural in [None, *range(len(twos))]:
        naturals = others + ([twos[natural]] if natural is not None else [])
        wilds = jokers + [two for index, two in enumerate(twos) if index != natural]
        try:
            shapes += read(naturals, wilds)
        except MeldError as error:
            problems.append(error)
    if not shapes:
        raise _telling(problems)
    return list(dict.fromkeys(shapes))


def verify_added(judge: Callable[[list[Card]], Meld], table: Sequence[Card],
                 added: Sequence[Card]) -> Meld:
    """Cards added to a legal meld on the table: the meld they make must be legal too."""
    judge(list(table))
    if not added:
        raise MeldError("nothing_to_add")
    return judge([*table, *added])


# --- A side's hand entered by meld (Burraco, Buraco) ----------------------------------------

MAX_MELDS = 40  # more than two packs can lay out in melds of three


def _entered_cards(value, side: int, meld: int | None = None) -> list[Card]:
    """Cards given as codes or typed as one string; a card that cannot be read is refused
    with the meld (or the hand) it was in."""
    try:
        if isinstance(value, str):
            return parse_cards(value)
        if isinstance(value, Sequence) and all(isinstance(code, str) for code in value):
            return [parse_card(code) for code in value]
        raise CardError("cards_unreadable")
    except CardError as error:
        if meld is None:
            raise HandError("side_hand_cards", side=side + 1, reason=error) from None
        raise HandError("side_meld_illegal", side=side + 1, meld=meld + 1, reason=error) \
            from None


def laid_out(raw: Mapping, side: int, judge: Callable[[list[Card]], Meld],
             counted: Sequence[str]) -> tuple[list[tuple[list[Card], Meld]], list[Card]]:
    """A side's ``melds`` and ``in_hand`` as entered: each meld with its cards, judged as
    the game's meld checker judges it (``judge``), and the cards left in hand; together
    they hold no card more often than two packs do. The parts the melds count (``counted``)
    may not be given beside them."""
    given = raw["melds"]
    if isinstance(given, str) or not isinstance(given, Sequence) or len(given) > MAX_MELDS:
        raise HandError("melds_unreadable", side=side + 1)
    if any(raw.get(field) not in (None, "") for field in counted):
        raise HandError("melds_or_parts", side=side + 1)
    on_table = [_entered_cards(cards, side, index) for index, cards in enumerate(given)]
    in_hand = _entered_cards(raw.get("in_hand") or [], side)
    judged = []
    for index, cards in enumerate(on_table):
        try:
            judged.append((cards, judge(cards)))
        except (MeldError, CardError) as error:
            raise HandError("side_meld_illegal", side=side + 1, meld=index + 1,
                            reason=error) from None
    try:
        verify_in_deck([card for cards in on_table for card in cards] + in_hand)
    except CardError as error:
        raise HandError("side_hand_cards", side=side + 1, reason=error) from None
    return judged, in_hand


def as_entered(judged: Sequence[tuple[list[Card], Meld]], in_hand: Sequence[Card]) -> dict:
    """The melds and the cards in hand as a side keeps them: codes, in the order entered."""
    return {"melds": tuple(tuple(card.code for card in cards) for cards, _meld in judged),
            "in_hand": tuple(card.code for card in in_hand)}
