"""Burkosel, Bura's longer relative, scored with penalty points (seed 003, Varianten;
RULES-NOTES D8). Two players or two partnerships (seats 0+2 against 1+3), or three players.
"""

from collections.abc import Mapping, Sequence
from dataclasses import dataclass

from .bura import DECK, card_points
from .errors import HandError, SetupError
from .match import Standings, each_alone
from .values import whole_number

MIN_PLAYERS = 2
MAX_PLAYERS = 4
OPTION_FIELDS = ("losing_total",)
LOSING_TOTAL = 12                    # D8: "12 or more loses the match"
# D12: "lost at 12 (default), or at 8 or 6 for a shorter evening".
LOSING_TOTALS = (LOSING_TOTAL, 8, 6)
ALL_POINTS = sum(card_points(card) for card in DECK)
MAX_TRICKS = len(DECK) // 2          # two players, one card a trick


@dataclass(frozen=True)
class Options:
    first_dealer: int = 0
    losing_total: int = LOSING_TOTAL

    @property
    def target(self) -> int:
        """The penalty points that lose the match (D8, D12), as Burro's options name its
        limit."""
        return self.losing_total

    def to_dict(self) -> dict:
        return {"first_dealer": self.first_dealer, "losing_total": self.losing_total}


def verify_options(raw: Mapping, players: int) -> Options:
    """Two to four players; the match lost at 12, 8 or 6 penalty points (D12)."""
    if not MIN_PLAYERS <= players <= MAX_PLAYERS:
        raise SetupError("player_count", count=players, low=MIN_PLAYERS, high=MAX_PLAYERS)
    losing = whole_number(raw.get("losing_total") or LOSING_TOTAL, "losing_total_choice", 1,
                          LOSING_TOTAL, error=SetupError)
    if losing not in LOSING_TOTALS:
        raise SetupError("losing_total_choice", value=losing)
    return Options(whole_number(raw.get("first_dealer", 0), "seat_range", 0, players - 1,
                                error=SetupError), losing)


def units_of(players: int) -> tuple[tuple[int, ...], ...]:
    """Who scores together: partners sit opposite with four."""
    if players == 4:
        return (0, 2), (1, 3)
    return each_alone(players)


def _one_left_out(points: list) -> list:
    """All card points add up to 120 (seed: "Alle 36 Karten zusammen haben 120 Augen"), so
    one side's may be left out and follow from the others'; two left out cannot."""
    missing = [unit for unit, value in enumerate(points) if value in (None, "")]
    if not missing:
        return points
    if len(missing) > 1:
        raise HandError("card_points_missing", side=missing[0] + 1)
    others = [whole_number(value, "card_points_range", 0, ALL_POINTS, error=HandError)
              for value in points if value not in (None, "")]
    return [ALL_POINTS - sum(others) if value in (None, "") else value for value in points]


def verify_hand(options: Options, players: int, raw: Mapping) -> dict:
    """A game: each unit's card points (120 in all) and tricks, or who won at once."""
    units = len(units_of(players))
    if not isinstance(raw, Mapping):
        raise HandError("burkosel_entry")
    if raw.get("instant_win") not in (None, ""):
        return {"instant_win": whole_number(raw["instant_win"], "seat_range", 0, units - 1,
                                            error=HandError)}
    points, tricks = raw.get("card_points"), raw.get("tricks")
    if not all(isinstance(values, list) and len(values) == units for values in (points, tricks)):
        raise HandError("burkosel_entry")
    points = _one_left_out(points)
    points = [whole_number(value, "card_points_range", 0, ALL_POINTS, error=HandError)
              for value in points]
    tricks = [whole_number(value, "tricks_range", 0, MAX_TRICKS, error=HandError)
              for value in tricks]
    if sum(points) != ALL_POINTS:
        raise HandError("card_points_sum", total=sum(points), expected=ALL_POINTS)
    if any(point and not trick for point, trick in zip(points, tricks)):
        raise HandError("points_without_trick")
    return {"card_points": points, "tricks": tricks}


def penalties(hand: Mapping, units: int) -> list[int]:
    """D8: the most card points win; a loser scores 2 with 31 or more card points (21 with
    three players), 4 with less but a trick, 6 without a trick. A tie at the top: everyone
    scores by their own points (60:60 → 2 each). Four aces or a Bura: the others score 6."""
    if "instant_win" in hand:
        return [0 if unit == hand["instant_win"] else 6 for unit in range(units)]
    points, tricks = hand["card_points"], hand["tricks"]
    best = max(points)
    winner = points.index(best) if points.count(best) == 1 else None
    enough = 21 if units == 3 else 31
    return [0 if unit == winner else 2 if points[unit] >= enough else 4 if tricks[unit] else 6
            for unit in range(units)]


@dataclass(frozen=True)
class HandRow:
    number: int
    dealer: int
    penalties: tuple[int, ...]
    totals: tuple[int, ...]


def standings(options: Options, players: int, hands: Sequence[Mapping],
              known: Standings | None = None) -> Standings:
    """Replay the games: penalty points per unit until one reaches the losing total (12, or
    the table's 8 or 6) and loses; from ``known``, the standings of the first games."""
    losing_total = options.losing_total
    units = units_of(players)
    totals, rows = ([0] * len(units), []) if known is None else (list(known.totals),
                                                                  list(known.rows))
    for index, raw in enumerate(hands[len(rows):], start=len(rows)):
        if max(totals) >= losing_total:
            raise HandError("hand_after_end", number=index + 1)
        scored = penalties(verify_hand(options, players, raw), len(units))
        totals = [total + score for total, score in zip(totals, scored)]
        rows.append(HandRow(index + 1, (options.first_dealer + index) % players,
                            tuple(scored), tuple(totals)))
    finished = max(totals) >= losing_total
    fewest = min(totals)
    ahead = tuple(unit for unit, total in enumerate(totals) if total == fewest) if hands else ()
    losers = tuple(unit for unit, total in enumerate(totals) if total >= losing_total)
    dealer = None if finished else (options.first_dealer + len(hands)) % players
    return Standings(
        units=units, totals=tuple(totals), finished=finished,
        # D9: a side at 12 or more has lost, even when it has the fewest; if every side
        # has, nobody wins.
        winners=tuple(unit for unit in ahead if unit not in losers) if finished else (),
        losers=losers,
        ahead=ahead, dealer=dealer, leader=None if dealer is None else (dealer + 1) % players,
        to_go=tuple(max(losing_total - total, 0) for total in totals), rows=tuple(rows),
    )


def row_json(options: Options, row: HandRow) -> dict:
    return {"number": row.number, "dealer": row.dealer, "penalties": list(row.penalties),
            "totals": list(row.totals)}
