"""Burro: the score sheet and the trick (seeds 000 and 001; RULES-NOTES E1–E4).

Players are numbered by their place in the list, which is the order of play: Burro deals
and plays to the right (anticlockwise), so the next player in the list is the right-hand
neighbour.
"""

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from enum import StrEnum

from .cards import NATURAL_RANKS, Card, Rank, Suit, suited
from .errors import CardError, HandError, SetupError
from .match import Standings, each_alone
from .values import whole_number

MIN_PLAYERS = 2
MAX_PLAYERS = 8
DEFAULT_LIMIT = 5
# The options a new-match form sets (who deals first is asked with the players).
OPTION_FIELDS = ("limit", "variant", "wins_target")
# A sheet is for an evening: a limit or a number of wins beyond this is a typing slip.
MAX_TARGET = 99


class Variant(StrEnum):
    CLASSIC = "classic"
    PORTUGUESE = "portuguese"
    CANGKUL = "cangkul"

    @property
    def counts_wins(self) -> bool:
        """Portuguese Burro and Cangkul: the first player out wins the hand (E3)."""
        return self is not Variant.CLASSIC


@dataclass(frozen=True)
class Options:
    limit: int = DEFAULT_LIMIT
    variant: Variant = Variant.CLASSIC
    wins_target: int | None = None
    first_dealer: int = 0

    @property
    def hand_key(self) -> str:
        """What a hand records: the player left holding cards, or the first one out."""
        return "winner" if self.variant.counts_wins else "burro"

    @property
    def target(self) -> int | None:
        """The penalty limit, or in the win-counting variants the agreed number of wins."""
        return self.wins_target if self.variant.counts_wins else self.limit

    def to_dict(self) -> dict:
        return {"limit": self.limit, "variant": self.variant.value,
                "wins_target": self.wins_target, "first_dealer": self.first_dealer}


def verify_options(raw: Mapping, players: int) -> Options:
    """Check a new match's options against the rules and return them typed."""
    if not MIN_PLAYERS <= players <= MAX_PLAYERS:
        raise SetupError("player_count", count=players, low=MIN_PLAYERS, high=MAX_PLAYERS)
    try:
        variant = Variant(raw.get("variant") or Variant.CLASSIC)
    except ValueError:
        raise SetupError("unknown_variant", value=str(raw.get("variant"))[:20]) from None
    limit = whole_number(raw.get("limit", DEFAULT_LIMIT), "limit_range", 1, MAX_TARGET,
                         error=SetupError)
    wins_target = raw.get("wins_target")
    if wins_target in (None, ""):
        wins_target = None
    else:
        wins_target = whole_number(wins_target, "wins_target_range", 1, MAX_TARGET,
                                   error=SetupError)
    first_dealer = whole_number(raw.get("first_dealer", 0), "seat_range", 0, players - 1,
                                error=SetupError)
    return Options(limit, variant, wins_target, first_dealer)


@dataclass(frozen=True)
class HandRow:
    """One hand as the sheet shows it: who dealt, whom it hit, the totals after it."""

    number: int
    dealer: int
    player: int
    totals: tuple[int, ...]


def dealer_of_hand(options: Options, players: int, index: int) -> int:
    """The deal passes to the right, the next player in the list (E1); index counts from 0."""
    return (options.first_dealer + index) % players


def leader_after(dealer: int, players: int) -> int:
    """The dealer's right-hand neighbour leads the first trick (E1)."""
    return (dealer + 1) % players


def _finished(options: Options, totals: Sequence[int]) -> bool:
    target = options.target
    return target is not None and max(totals) >= target


def _result(options: Options, totals: tuple[int, ...]) -> tuple[tuple, tuple]:
    """Who is in front, and who is at the limit: a finished match's winners and losers
    (E2, E3)."""
    if options.variant.counts_wins:
        best = max(totals)
        return tuple(i for i, t in enumerate(totals) if t == best), ()
    fewest = min(totals)
    winners = tuple(i for i, t in enumerate(totals) if t == fewest)
    return winners, tuple(i for i, t in enumerate(totals) if t >= options.limit)


def verify_hand(options: Options, players: int, raw: Mapping) -> dict:
    """Check one hand's entry on its own: the right key and a player of this match."""
    key = options.hand_key
    if not isinstance(raw, Mapping) or key not in raw:
        raise HandError(f"hand_needs_{key}")
    seat = whole_number(raw[key], "seat_range", 0, players - 1, error=HandError)
    return {key: seat}


def standings(options: Options, players: int, hands: Sequence[Mapping],
              known: Standings | None = None) -> Standings:
    """Replay the hands: totals, the hand rows, who deals and leads next, the end; from
    ``known``, the standings of the first hands, when given.

    A hand after the end is refused, so an edit that ends the match earlier is caught.
    """
    key = options.hand_key
    totals, rows = ([0] * players, []) if known is None else (list(known.totals),
                                                               list(known.rows))
    for index, raw in enumerate(hands[len(rows):], start=len(rows)):
        if _finished(options, totals):
            raise HandError("hand_after_end", number=index + 1)
        seat = verify_hand(options, players, raw)[key]
        totals[seat] += 1
        rows.append(HandRow(index + 1, dealer_of_hand(options, players, index), seat,
                            tuple(totals)))
    finished = _finished(options, totals)
    winners, losers = _result(options, tuple(totals)) if finished else ((), ())
    dealer = None if finished else dealer_of_hand(options, players, len(hands))
    target = options.target
    return Standings(
        units=each_alone(players), totals=tuple(totals), finished=finished, winners=winners,
        losers=losers,
        ahead=_result(options, tuple(totals))[0] if hands else (),
        dealer=dealer, leader=None if dealer is None else leader_after(dealer, players),
        to_go=None if target is None else tuple(max(target - t, 0) for t in totals),
        rows=tuple(rows),
    )


def row_json(options: Options, row: HandRow) -> dict:
    """A hand of the standings as plain data, as the API shows it."""
    return {"number": row.number, "dealer": row.dealer, options.hand_key: row.player,
            "totals": list(row.totals)}


# --- The trick -------------------------------------------------------------------------

# High to low in every suit (E4); Cangkul plays all 52 cards with the ace high.
TRICK_ORDER = {
    40: "K Q J 7 6 5 4 3 2 A",
    48: "K Q J 9 8 7 6 5 4 3 2 A",
    52: "A K Q J 10 9 8 7 6 5 4 3 2",
}
DECKS = tuple(TRICK_ORDER)


def deck_cards(size: int = 40) -> list[Card]:
    """Burro's Spanish deck: 40 cards (no 8, 9, 10), 48 (no 10) or all 52 (Cangkul)."""
    left_out = {40: {Rank.EIGHT, Rank.NINE, Rank.TEN}, 48: {Rank.TEN}, 52: set()}
    if size not in left_out:
        raise CardError("unknown_deck", deck=size)
    return suited(rank for rank in NATURAL_RANKS if rank not in left_out[size])


def ranks_high_to_low(deck: int) -> list[Rank]:
    return [Rank(word) for word in TRICK_ORDER[deck].split()]


def cards_by_suit(deck: int) -> list[tuple[Suit, list[Card]]]:
    """The card picker's rows: every suit's cards of this deck, highest first."""
    return [(suit, [Card(rank, suit) for rank in ranks_high_to_low(deck)]) for suit in Suit]


def _strength(deck: int) -> dict[Rank, int]:
    ranks = ranks_high_to_low(deck)
    return {rank: len(ranks) - place for place, rank in enumerate(ranks)}


@dataclass(frozen=True)
class Trick:
    winner: int
    card: Card
    suit: Suit
    passed: tuple[int, ...]


def verify_deck(raw) -> int:
    """The deck a trick is played with: 40 (the default), 48 or 52 cards."""
    if raw is None:
        return 40
    if str(raw) not in {str(deck) for deck in DECKS}:
        raise HandError("unknown_deck", value=str(raw)[:20])
    return int(raw)


def verify_trick(deck: int, plays: Sequence[Card | None]) -> None:
    """A trick has a lead, 2 to 8 players, cards of this deck, no card twice, and every card
    of the suit led: who cannot follow draws until they can, or passes (E6)."""
    if not MIN_PLAYERS <= len(plays) <= MAX_PLAYERS:
        raise HandError("trick_size", count=len(plays), low=MIN_PLAYERS, high=MAX_PLAYERS)
    if plays[0] is None:
        raise HandError("trick_needs_lead")
    in_deck = set(deck_cards(deck))
    seen = set()
    for card in plays:
        if card is None:
            continue
        if card not in in_deck:
            raise HandError("card_not_in_deck", card=card, deck=deck)
        if card in seen:
            raise HandError("card_twice", card=card)
        if card.suit != plays[0].suit:
            raise HandError("must_follow_suit", card=card, suit=plays[0].suit)
        seen.add(card)


def trick_winner(deck: int, plays: Sequence[Card | None]) -> Trick:
    """The highest card of the suit led wins; there are no trumps (seed: "Ein Stich", 4).

    ``plays`` begins with the lead; ``None`` is a player who passed (empty stock).
    """
    verify_trick(deck, plays)
    strength = _strength(deck)
    winner = max((strength[card.rank], seat) for seat, card in enumerate(plays)
                 if card is not None)[1]
    return Trick(
        winner=winner, card=plays[winner], suit=plays[0].suit,
        passed=tuple(seat for seat, card in enumerate(plays) if card is None),
    )
