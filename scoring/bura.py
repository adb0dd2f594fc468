"""Bura: card points, the 31 claim, the trick, the special hands and the pot ledger
(seed 003; RULES-NOTES D1–D7). Burkosel, its longer relative, is in burkosel.py.

Players are numbered by their seats in the order of play, clockwise: the next player in the
list is the left-hand neighbour, who leads when the dealer deals.
"""

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from enum import StrEnum
from itertools import permutations

from .cards import Card, Rank, Suit, parse_card, suited
from .errors import CardError, HandError, SetupError
from .match import Standings, each_alone
from .values import LARGEST, whole_number, yes_no

# --- Cards (seed: "Die Karten"; D1) --------------------------------------------------------

POINTS = {Rank.ACE: 11, Rank.TEN: 10, Rank.KING: 4, Rank.QUEEN: 3, Rank.JACK: 2,
          Rank.NINE: 0, Rank.EIGHT: 0, Rank.SEVEN: 0, Rank.SIX: 0}
# "Der Zehner steht direkt unter dem Ass, also über dem König."
ORDER = (Rank.ACE, Rank.TEN, Rank.KING, Rank.QUEEN, Rank.JACK, Rank.NINE, Rank.EIGHT,
         Rank.SEVEN, Rank.SIX)
CLAIM = 31
def all_cards() -> list[Card]:
    """Bura's 36 cards: 6 to ace in every suit."""
    return suited((Rank.SIX, Rank.SEVEN, Rank.EIGHT, Rank.NINE, Rank.TEN,
                   Rank.JACK, Rank.QUEEN, Rank.KING, Rank.ACE))


DECK = frozenset(all_cards())
MAX_CHIPS = 10000


def card_points(card: Card) -> int:
    return POINTS[card.rank]


def strength(card: Card) -> int:
    """Higher beats lower within a suit."""
    return len(ORDER) - ORDER.index(card.rank)


def cards_by_suit() -> list[tuple[Suit, list[Card]]]:
    """The card picker's rows: every suit from the ace down to the 6."""
    return [(suit, [Card(rank, suit) for rank in ORDER]) for suit in Suit]


def verify_cards(cards: Sequence[Card], low: int = 0, high: int = 36) -> list[Card]:
    """Cards of the 36-card deck, each at most once, as many as asked for."""
    for card in cards:
        if card not in DECK:
            raise CardError("card_not_in_bura_deck", card=card)
    twice = next((card for card in cards if list(cards).count(card) > 1), None)
    if twice is not None:
        raise CardError("card_twice", card=twice)
    if not low <= len(cards) <= high:
        raise CardError("card_count", count=len(cards), low=low, high=high)
    return list(cards)


# --- The 31 claim (seed: "31 ansagen"; D2, D3) ---------------------------------------------

@dataclass(frozen=True)
class Claim:
    points: int

    @property
    def right(self) -> bool:
        """31 or more: the claimant wins the pot; 30 or less: a wrong claim."""
        return self.points >= CLAIM


def check_claim(cards: Sequence[Card]) -> Claim:
    """The claimant's trick cards, turned over and counted."""
    return Claim(sum(card_points(card) for card in verify_cards(cards)))


def pot_after_claim(pot, right: bool) -> tuple[int, int]:
    """(what the claimant gains, the pot afterwards): a right claim takes the pot; a wrong
    one pays in as many chips as the pot holds, and the doubled pot stays (D2, D3)."""
    pot = whole_number(pot, "pot_range", 0, MAX_CHIPS, error=HandError)
    return (pot, 0) if right else (-pot, 2 * pot)


# --- The trick (seed: "Ein Stich") ---------------------------------------------------------

def beats(card: Card, front: Card, trump: Suit) -> bool:
    """A higher card of its suit, or any trump against a non-trump; another suit never."""
    if card.suit == front.suit:
        return strength(card) > strength(front)
    return card.suit == trump


def verify_lead(cards: Sequence[Card], declared: str | None = None) -> None:
    """One card, or two or three of one suit; three aces only when declared (D7)."""
    verify_cards(cards, 1, 3)
    if len({card.suit for card in cards}) > 1 and not (
            declared == "three_aces" and len(cards) == 3
            and all(card.rank is Rank.ACE for card in cards)):
        raise HandError("lead_one_suit")


@dataclass(frozen=True)
class Trick:
    beats: bool
    pairs: tuple[tuple[Card, Card], ...] | None
    unbeaten: tuple[Card, ...]


def trick(trump: Suit, front: Sequence[Card], response: Sequence[Card]) -> Trick:
    """Does the response take the lead? Every card in front must be beaten by a card of its
    own; the pairing that does it, or the front cards no pairing beats."""
    if not 1 <= len(front) <= 3 or len(response) != len(front):
        raise HandError("response_count", count=len(front))
    verify_cards([*front, *response])
    best, best_beaten = None, -1
    for order in permutations(response):
        pairs = tuple(zip(front, order))
        beaten = sum(beats(card, ahead, trump) for ahead, card in pairs)
        if beaten == len(front):
            return Trick(True, pairs, ())
        if beaten > best_beaten:
            best, best_beaten = pairs, beaten
    return Trick(False, None, tuple(ahead for ahead, card in best
                                    if not beats(card, ahead, trump)))


# --- Special hands (seed: "Besondere Kombinationen", Varianten) -----------------------------

class Combination(StrEnum):
    BURA = "bura"
    THREE_ACES = "three_aces"
    LITTLE_MOSCOW = "little_moscow"
    MOLODKA = "molodka"


def combination(trump: Suit, cards: Sequence[Card],
                little_moscow: bool = False) -> Combination | None:
    """Three trumps (Bura), three aces, three of one non-trump suit (Molodka); with the
    option, three 6s including the trump 6 (Little Moscow)."""
    cards = verify_cards(cards, 3, 3)
    suits = {card.suit for card in cards}
    if suits == {trump}:
        return Combination.BURA
    if all(card.rank is Rank.ACE for card in cards):
        return Combination.THREE_ACES
    if little_moscow and all(card.rank is Rank.SIX for card in cards) and trump in suits:
        return Combination.LITTLE_MOSCOW
    if len(suits) == 1:
        return Combination.MOLODKA
    return None


def wins_the_pot(found: Combination, three_aces_win: bool = False,
                 moscow: bool = False) -> bool:
    """A Bura wins the pot at once; so do three aces where the table plays "three aces win"
    (seed, Varianten: "Drei Asse gewinnen den Pot wie eine Bura") or Moscow (D10)."""
    return found is Combination.BURA or (
        (three_aces_win or moscow) and found is Combination.THREE_ACES)


def led_together(found: Combination) -> bool:
    """Three aces and a Molodka are led all three together; a Little Moscow only takes the
    lead (D7, D11: three 6s of different suits are no lead)."""
    return found in (Combination.THREE_ACES, Combination.MOLODKA)


def combination_order(moscow: bool = False) -> tuple[Combination, ...]:
    """Highest first: Bura, three aces, (Little Moscow,) Molodka; in Moscow rules three
    aces beat a Bura."""
    order = [Combination.BURA, Combination.THREE_ACES, Combination.LITTLE_MOSCOW,
             Combination.MOLODKA]
    if moscow:
        order[:2] = order[1::-1]
    return tuple(order)


# --- The pot ledger (seed: "Vorbereitung", "31 ansagen", "Wer gewinnt?"; D2–D6) ------------

MIN_PLAYERS = 2
MAX_PLAYERS = 6
OPTION_FIELDS = ("ante", "start_chips", "three_aces_win", "moscow", "little_moscow",
                 "claim_on_turn", "redeal")
VARIANT_FLAGS = OPTION_FIELDS[2:]


class Outcome(StrEnum):
    RIGHT_CLAIM = "right_claim"
    WRONG_CLAIM = "wrong_claim"
    BURA = "bura"
    MOSCOW = "moscow"        # three aces with the Moscow variant (D10)
    THREE_ACES = "three_aces"  # three aces with the variant "three aces win"
    NO_CLAIM = "no_claim"
    CLAIM = "claim"          # the claimant's trick cards decide right or wrong


# Outcomes that take the pot at once, like a Bura, and the variant each needs.
POT_WINNING_HANDS = {Outcome.BURA: None, Outcome.MOSCOW: "moscow",
                     Outcome.THREE_ACES: "three_aces_win"}


@dataclass(frozen=True)
class Options:
    ante: int = 1
    start_chips: int = 0
    first_dealer: int = 0
    three_aces_win: bool = False
    moscow: bool = False
    little_moscow: bool = False
    claim_on_turn: bool = False
    redeal: bool = False

    def to_dict(self) -> dict:
        return {"ante": self.ante, "start_chips": self.start_chips,
                "first_dealer": self.first_dealer,
                **{flag: getattr(self, flag) for flag in VARIANT_FLAGS}}


def verify_options(raw: Mapping, players: int) -> Options:
    """2 to 6 players, an ante of at least one chip, optional starting chips (D6)."""
    if not MIN_PLAYERS <= players <= MAX_PLAYERS:
        raise SetupError("player_count", count=players, low=MIN_PLAYERS, high=MAX_PLAYERS)
    ante = whole_number(1 if raw.get("ante") in (None, "") else raw["ante"], "ante_range", 1,
                        100, error=SetupError)
    start = whole_number(raw.get("start_chips") or 0, "start_chips_range", 0, MAX_CHIPS,
                         error=SetupError)
    dealer = whole_number(raw.get("first_dealer", raw.get("dealer", 0)), "seat_range", 0,
                          players - 1, error=SetupError)
    return Options(ante, start, dealer,
                   **{flag: yes_no(raw.get(flag, False), flag, SetupError)
                      for flag in VARIANT_FLAGS})


def verify_hand(options: Options, players: int, raw: Mapping) -> dict:
    """One game's end as entered: how it ended and who (claimed, showed the Bura)."""
    if not isinstance(raw, Mapping):
        raise HandError("outcome_needed")
    try:
        outcome = Outcome(raw.get("outcome"))
    except ValueError:
        raise HandError("outcome_needed") from None
    if outcome is Outcome.NO_CLAIM:
        return {"outcome": outcome.value}
    variant = POT_WINNING_HANDS.get(outcome)
    if variant and not getattr(options, variant):
        raise HandError("outcome_variant_off", outcome=outcome.value, variant=variant)
    player = whole_number(raw.get("player"), "seat_range", 0, players - 1, error=HandError)
    if outcome is not Outcome.CLAIM:
        return {"outcome": outcome.value, "player": player}
    codes = raw.get("cards")
    if not isinstance(codes, list) or not all(isinstance(code, str) for code in codes):
        raise HandError("claim_needs_cards")
    cards = [parse_card(code) for code in codes]
    check_claim(cards)
    return {"outcome": outcome.value, "player": player, "cards": [card.code for card in cards]}


@dataclass(frozen=True)
class GameRow:
    """One game of the ledger: its dealer, how it ended, the pot and every player's chips."""

    number: int
    dealer: int
    outcome: Outcome
    player: int | None
    claim_points: int | None
    pot_before: int
    pot: int
    chips: tuple[int, ...]
    changes: tuple[int, ...]


@dataclass(frozen=True)
class PotStandings(Standings):
    """The ledger adds the pot, each player's chips in hand and their net since the start;
    ``totals`` are the chips in hand. Bura has no fixed end."""

    pot: int
    chips: tuple[int, ...]
    net: tuple[int, ...]


def _resolved(hand: Mapping) -> tuple[Outcome, int | None]:
    """A claim with its trick cards becomes a right or a wrong claim."""
    outcome = Outcome(hand["outcome"])
    if outcome is not Outcome.CLAIM:
        return outcome, None
    points = check_claim([parse_card(code) for code in hand["cards"]]).points
    return (Outcome.RIGHT_CLAIM if points >= CLAIM else Outcome.WRONG_CLAIM), points


def standings(options: Options, players: int, hands: Sequence[Mapping],
              known: PotStandings | None = None) -> PotStandings:
    """Replay the games: antes, the pot, every player's chips, who deals next; from
    ``known``, the standings of the first games, when given.

    Every game begins with every player's ante; chips in hand may go below zero (a debt).
    """
    chips = [options.start_chips] * players
    pot, dealer, rows = 0, options.first_dealer, []
    if known is not None:
        chips, pot, dealer, rows = list(known.chips), known.pot, known.dealer, list(known.rows)
    for index, raw in enumerate(hands[len(rows):], start=len(rows)):
        hand = verify_hand(options, players, raw)
        outcome, points = _resolved(hand)
        player = hand.get("player")
        before = list(chips)
        chips = [count - options.ante for count in chips]
        pot += players * options.ante
        pot_before = pot
        if outcome is Outcome.RIGHT_CLAIM or outcome in POT_WINNING_HANDS:
            chips[player] += pot
            pot = 0
        elif outcome is Outcome.WRONG_CLAIM:
            chips[player] -= pot
            pot *= 2
        # A wrong claim doubles the pot: some thirty in a row pass what a sheet can show.
        if max(pot, *map(abs, chips)) > LARGEST:
            raise HandError("chips_beyond_sheet", number=index + 1, high=LARGEST)
        rows.append(GameRow(index + 1, dealer, outcome, player, points, pot_before, pot,
                            tuple(chips), tuple(a - b for a, b in zip(chips, before))))
        # D5: whoever claimed deals next, after a Bura (or three aces that won the pot) its
        # holder; nobody: the same dealer.
        if player is not None:
            dealer = player
    most = max(chips)
    return PotStandings(
        pot=pot, chips=tuple(chips), net=tuple(c - options.start_chips for c in chips),
        units=each_alone(players), totals=tuple(chips), finished=False, winners=(), losers=(),
        ahead=tuple(seat for seat, count in enumerate(chips) if count == most) if hands else (),
        dealer=dealer, leader=(dealer + 1) % players, to_go=None, rows=tuple(rows),
    )


def row_json(options: Options, row: GameRow) -> dict:
    """A game of the ledger as plain data, as the API shows it."""
    return {"number": row.number, "dealer": row.dealer, "outcome": row.outcome.value,
            "player": row.player, "claim_points": row.claim_points,
            "pot_before": row.pot_before, "pot": row.pot, "chips": list(row.chips),
            "changes": list(row.changes)}
