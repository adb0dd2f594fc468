"""The games a match can be kept for, and the steps every score sheet shares."""

from collections.abc import Mapping, Sequence

from . import bura, buraco, burkosel, burraco, burro
from .errors import HandError

# Each game module offers MIN_PLAYERS, MAX_PLAYERS, OPTION_FIELDS,
# verify_options(raw, players), verify_hand(options, players, raw) and
# standings(options, players, hands, known=None), which goes on from ``known``, the
# standings of the first hands, instead of replaying them.
GAMES = {"burro": burro, "burraco": burraco, "bura": bura, "burkosel": burkosel,
         "buraco": buraco}


def tournament_games() -> list[str]:
    """The games a club night is played in: those whose rules turn a turn's match points into
    Victory Points (RULES-NOTES B8)."""
    return [name for name, game in GAMES.items() if hasattr(game, "VICTORY_POINT_TABLES")]


def next_hand(game, options, players: int, hands: Sequence[Mapping], raw: Mapping,
              known=None):
    """Check a new hand against the match so far; return it with the standings after it.
    With ``known``, the standings of ``hands``, only the new hand is scored: a long evening's
    hands are not all replayed for each new one."""
    hand = game.verify_hand(options, players, raw)
    try:
        return hand, game.standings(options, players, [*hands, hand], known)
    except HandError as error:
        # The new hand is the first after the end: the match was already over.
        if error.code == "hand_after_end" and error.params["number"] == len(hands) + 1:
            raise HandError("match_finished") from None
        raise


def corrected_hand(game, options, players: int, hands: Sequence[Mapping], number: int,
                   raw: Mapping):
    """Check an edit of hand ``number`` (from 1): the whole match must still add up."""
    if not 1 <= number <= len(hands):
        raise HandError("no_such_hand", number=number)
    hand = game.verify_hand(options, players, raw)
    changed = [*hands[:number - 1], hand, *hands[number:]]
    return hand, game.standings(options, players, changed)


def score(name: str, raw_options: Mapping, players: int, hands: Sequence[Mapping],
          known=None):
    """A stored match, re-scored from what was entered: its game, options and standings
    (going on from ``known``, the standings of its first hands, when given)."""
    game = GAMES[name]
    options = game.verify_options(raw_options, players)
    return game, options, game.standings(options, players, hands, known)
