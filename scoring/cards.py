"""Suits, ranks, cards and the decks of the four games, and a forgiving card parser."""

import re
from dataclasses import dataclass
from enum import StrEnum

from .errors import CardError


class Suit(StrEnum):
    SPADES = "S"
    HEARTS = "H"
    DIAMONDS = "D"
    CLUBS = "C"

    @property
    def symbol(self) -> str:
        return _SUIT_SYMBOLS[self]

    @property
    def is_red(self) -> bool:
        return self in (Suit.HEARTS, Suit.DIAMONDS)


_SUIT_SYMBOLS = {Suit.SPADES: "♠", Suit.HEARTS: "♥", Suit.DIAMONDS: "♦", Suit.CLUBS: "♣"}


class Rank(StrEnum):
    ACE = "A"
    TWO = "2"
    THREE = "3"
    FOUR = "4"
    FIVE = "5"
    SIX = "6"
    SEVEN = "7"
    EIGHT = "8"
    NINE = "9"
    TEN = "10"
    JACK = "J"
    QUEEN = "Q"
    KING = "K"
    JOKER = "JK"


NATURAL_RANKS = tuple(rank for rank in Rank if rank is not Rank.JOKER)


@dataclass(frozen=True)
class Card:
    """One card; the joker has no suit."""

    rank: Rank
    suit: Suit | None = None

    def __post_init__(self):
        if (self.rank is Rank.JOKER) != (self.suit is None):
            raise CardError("card_needs_suit", token=f"{self.rank}{self.suit or ''}")

    @property
    def is_joker(self) -> bool:
        return self.rank is Rank.JOKER

    @property
    def code(self) -> str:
        """The ASCII form the API speaks: ``10H``, ``QS``, ``JK``."""
        return self.rank.value + (self.suit.value if self.suit else "")

    def __str__(self) -> str:
        return self.rank.value + self.suit.symbol if self.suit else "Joker"


JOKER = Card(Rank.JOKER)

# Players type what they say: English or German letters, suit symbols (also the white
# ones and the emoji form), any case.
_RANK_WORDS = {
    "A": Rank.ACE, "2": Rank.TWO, "3": Rank.THREE, "4": Rank.FOUR, "5": Rank.FIVE,
    "6": Rank.SIX, "7": Rank.SEVEN, "8": Rank.EIGHT, "9": Rank.NINE, "10": Rank.TEN,
    "T": Rank.TEN, "J": Rank.JACK, "B": Rank.JACK, "Q": Rank.QUEEN, "D": Rank.QUEEN,
    "K": Rank.KING,
}
_SUIT_WORDS = {
    "S": Suit.SPADES, "♠": Suit.SPADES, "♤": Suit.SPADES,
    "H": Suit.HEARTS, "♥": Suit.HEARTS, "♡": Suit.HEARTS,
    "D": Suit.DIAMONDS, "♦": Suit.DIAMONDS, "♢": Suit.DIAMONDS,
    "C": Suit.CLUBS, "♣": Suit.CLUBS, "♧": Suit.CLUBS,
}
_JOKER_WORDS = {"JK", "JOKER", "JOLLY", "🃏"}  # jolly: the Italian tables' word
_SEPARATORS = re.compile(r"[\s,;]+")


def parse_card(token: str) -> Card:
    """Read one card.

    >>> str(parse_card("10h")), str(parse_card("DS")), parse_card("Joker").code
    ('10♥', 'Q♠', 'JK')
    """
    word = token.strip().replace("\ufe0f", "").upper()
    if word in _JOKER_WORDS:
        return JOKER
    rank, suit = _RANK_WORDS.get(word[:-1]), _SUIT_WORDS.get(word[-1:])
    if rank is None or suit is None:
        raise CardError("unknown_card", token=token.strip())
    return Card(rank, suit)


def parse_suit(text) -> Suit:
    """A suit by its letter or symbol (``H``, ``h``, ``♥``).

    >>> parse_suit("♣"), parse_suit("d")
    (<Suit.CLUBS: 'C'>, <Suit.DIAMONDS: 'D'>)
    """
    suit = _SUIT_WORDS.get(str(text).strip().replace("\ufe0f", "").upper())
    if suit is None:
        raise CardError("unknown_suit", token=str(text)[:10])
    return suit


def parse_cards(text: str) -> list[Card]:
    """Read cards separated by spaces, commas or semicolons.

    >>> [card.code for card in parse_cards("7♥ 8h,9H")]
    ['7H', '8H', '9H']
    """
    return [parse_card(token) for token in split_tokens(text)]


def split_tokens(text: str) -> list[str]:
    """The words of a typed list of cards."""
    return [token for token in _SEPARATORS.split(text) if token]


# A trick in a trick game may hold a pass: the player had no card to play.
PASS_WORDS = frozenset({"-", "—", "X", "PASS", "PASSED", "PASST"})


def parse_plays(text: str) -> list[Card | None]:
    """A trick as typed: cards in the order played, ``-`` (or "pass") for a player who passed.

    >>> [str(play) for play in parse_plays("5H JH - 7h")]
    ['5♥', 'J♥', 'None', '7♥']
    """
    return [None if token.upper() in PASS_WORDS else parse_card(token)
            for token in split_tokens(text)]


def suited(ranks) -> list[Card]:
    ranks = list(ranks)
    return [Card(rank, suit) for suit in Suit for rank in ranks]


def rummy_deck() -> list[Card]:
    """Burraco's and Buraco's pack: two 52-card decks and four jokers (duplicates exist)."""
    return 2 * suited(NATURAL_RANKS) + 4 * [JOKER]
