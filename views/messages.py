"""Every refusal a player can see, in their language, keyed by the rule's stable code."""

from flask_babel import gettext
from flask_babel import lazy_gettext as _l

from scoring.cards import Card, Suit
from scoring.errors import ScoringError

from .rules import why_url
from .template_helpers import card_label

MESSAGES = {
    "unknown_card": _l("“%(token)s” is not a card. Write cards like 7H, 10♥, QS or JK."),
    "card_needs_suit": _l("“%(token)s” is not a card. Write cards like 7H, 10♥, QS or JK."),
    "unknown_deck": _l("Choose a deck of 40, 48 or 52 cards."),
    "player_count": _l("A match needs %(low)s to %(high)s players, not %(count)s."),
    "player_name_empty": _l("Player %(seat)s has no name."),
    "player_name_long": _l("The name of player %(seat)s is too long: at most %(high)s "
                           "characters."),
    "player_name_markup": _l("The name of player %(seat)s may not contain < or >."),
    "player_name_twice": _l("“%(name)s” is in the list twice: give every player their own "
                            "name."),
    "unknown_variant": _l("There is no such variant."),
    "limit_range": _l("The penalty limit must be a whole number from %(low)s to %(high)s."),
    "wins_target_range": _l("The number of wins must be a whole number from %(low)s to "
                            "%(high)s, or empty."),
    "seat_range": _l("Pick one of the match's players."),
    "hand_needs_burro": _l("Tap the player who was left holding cards."),
    "hand_needs_winner": _l("Tap the player who ran out of cards first."),
    "hand_after_end": _l("With this change the match would end before hand %(number)s. "
                         "Undo the later hands first."),
    "match_finished": _l("The match is over: no more hands can be entered."),
    "no_such_hand": _l("There is no hand %(number)s."),
    "trick_size": _l("A trick has %(low)s to %(high)s plays, not %(count)s."),
    "trick_needs_lead": _l("The first play is the lead: it cannot be a pass."),
    "card_not_in_deck": _l("%(card)s is not in the %(deck)s-card deck."),
    "card_twice": _l("%(card)s is played twice, but every card exists only once."),
}

SUIT_NAMES = {
    Suit.SPADES: _l("spade"),
    Suit.HEARTS: _l("heart"),
    Suit.DIAMONDS: _l("diamond"),
    Suit.CLUBS: _l("club"),
}


def describe(error: ScoringError) -> str:
    """The refusal in the user's language, cards written as the user's language writes them."""
    params = {key: card_label(value) if isinstance(value, Card) else value
              for key, value in error.params.items()}
    return str(MESSAGES[error.code]) % params


def refusal(error: ScoringError, game: str) -> dict:
    """A refusal for a template: the message, and the link to the rule it cites."""
    return {"error": describe(error), "why": why_url(game, error.code)}


def trick_reason(trick) -> str:
    """Why this card takes the trick, in words: "J♥ is the highest heart: …"."""
    return gettext("%(card)s is the highest %(suit)s: player %(player)s wins the trick and "
                   "leads next.", card=card_label(trick.card), suit=SUIT_NAMES[trick.suit],
                   player=trick.winner + 1)
