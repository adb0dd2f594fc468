"""Burro on the web: one tap on the player left holding cards (or the winner) is the hand,
and the trick checker says who won a trick."""


from flask import Blueprint, jsonify, request
from flask_babel import lazy_gettext as _l
from pydantic import Field

from scoring import burro
from scoring.cards import parse_card, parse_plays
from scoring.errors import ScoringError

from ..api import contract
from ..api.contract import REFUSED, refused
from ..api.contract import api as spec
from ..api.models import Answer, Body, CardCode, Seat, examples
from ..checkers import checker_page, pick_into, shown
from ..refusals import refusal, trick_reason
from ..rule_search import why_url
from .game import Game, why_sections

bp = Blueprint("burro", __name__)


@bp.get("/burro/trick")
def trick():
    """Who wins the trick and leads next; the picker's buttons edit the trick in the URL."""
    try:
        deck = burro.verify_deck(request.args.get("deck") or None)
    except ScoringError:
        deck = burro.DECKS[0]
    fields = {"plays": request.args.get("plays", "")[:200]}
    canonical = pick_into("burro.trick", fields, "plays", {"deck": deck})
    won, refused = None, {}
    try:
        plays = parse_plays(fields["plays"])
        fields["plays"] = shown(plays)
        if len(plays) >= burro.MIN_PLAYERS:
            won = burro.trick_winner(deck, plays)
    except ScoringError as problem:
        plays, refused = [], refusal(problem, "burro")
    return checker_page(GAME.template("trick.html"), canonical, deck=deck,
                        text=fields["plays"], plays=plays, trick=won,
                        reason=won and trick_reason(won), rule=why_url("burro", "trick_winner"),
                        picker=burro.cards_by_suit(deck), **refused)


# --- The JSON API's checkers -----------------------------------------------------------------

api_bp = contract.json_blueprint("burro_api", __name__)


class BurroTrickCheck(Body):
    model_config = examples({"deck": "40", "plays": ["5H", "JH", "2H", "7H"]})
    deck: str | int | None = Field(None, description="`\"40\"` (default), `\"48\"` or `\"52\"`.")
    plays: list[CardCode | None] = Field(
        max_length=16, description="The lead first; `null` for a player who passed.")


class BurroTrickVerdict(Answer):
    model_config = examples({"winner": 1, "card": "JH", "suit": "H", "leads_next": 1,
                             "passed": [], "reason": "J♥ is the highest heart: player 2 wins "
                                                     "the trick and leads next."})
    winner: int
    card: str
    suit: str
    leads_next: int
    passed: list[int]
    reason: str


@api_bp.post("/burro/trick")
@spec.validate(json=BurroTrickCheck,
               resp=refused(*REFUSED, HTTP_200=BurroTrickVerdict), tags=["burro"])
def burro_trick():
    """Who wins a Burro trick

    The first play is the lead; ``null`` is a player who passed."""
    asked = contract.checked()
    deck = burro.verify_deck(asked.deck)
    trick = burro.trick_winner(deck, [None if play is None else parse_card(play)
                                      for play in asked.plays])
    return jsonify(winner=trick.winner, card=trick.card.code, suit=trick.suit.value,
                   leads_next=trick.winner, passed=list(trick.passed),
                   reason=trick_reason(trick))



# A match after its first hand, Ben left holding cards: the API's answers about matches.
STANDINGS = {
    "id": 1, "version": 1, "game": "burro", "players": ["Anna", "Ben", "Carla"],
    "options": {"first_dealer": 0, "limit": 5, "variant": "classic", "wins_target": None},
    "units": [[0], [1], [2]], "totals": [0, 1, 0], "to_go": [5, 4, 5], "finished": False,
    "winners": [], "losers": [], "dealer": 1, "leader": 2,
    "hands": [{"burro": 1, "dealer": 0, "number": 1, "totals": [0, 1, 0]}],
    "url": "http://127.0.0.1:5000/m/Qx3rTb8yLwD0pVf2kZs9mN4aHcE7uJ1g", "view_token": "Vw7hKp2qRn5tXz8cLb3mYd6fGj9sWa4e",
    "view_url": "http://127.0.0.1:5000/v/Vw7hKp2qRn5tXz8cLb3mYd6fGj9sWa4e"}
ANSWER_EXAMPLES = {
    "Standings": STANDINGS,
    "MatchStarted": {**STANDINGS, "version": 0, "hands": [], "totals": [0, 0, 0],
                     "to_go": [5, 5, 5], "dealer": 0, "leader": 1, "token": "Qx3rTb8yLwD0pVf2kZs9mN4aHcE7uJ1g"},
    "MatchDocument": {
        "format": "tablemate-match", "format_version": 1, "game": "burro",
        "players": ["Anna", "Ben", "Carla"],
        "options": {"first_dealer": 0, "limit": 5, "variant": "classic", "wins_target": None},
        "created_at": "2025-05-01T19:02:11+00:00", "title": "Friday at Anna's",
        "entries": [{"number": 1, "status": "replaced", "data": {"burro": 2},
                     "created_at": "2025-05-01T19:10:40+00:00",
                     "ended_at": "2025-05-01T19:12:03+00:00"},
                    {"number": 1, "status": "active", "data": {"burro": 0},
                     "created_at": "2025-05-01T19:12:03+00:00", "ended_at": None}]},
}

GAME = Game(
    slug="burro", name="Burro",
    tile=_l("Spanish trick game: whoever is left holding cards is the donkey."),
    player_order=_l("List the players in the order of play. Dealing and play go to the right "
                    "(anticlockwise): each player's right-hand neighbour is the next one in the "
                    "list."),
    hand_from_form=lambda form, match: form, says_game=False,
    checkers=(("burro.trick", _l("Burro: who won this trick?")),),
    why=why_sections({
        "overview": ("player_count", "card_twice"),
        "end": ("limit_range", "hand_after_end", "match_finished", "variant-classic"),
        "variant-portuguese": ("wins_target_range", "hand_needs_winner", "variant-portuguese"),
        "variants": ("unknown_variant",),
        "out-of-cards": ("hand_needs_burro",),
        "trick": ("trick_size", "trick_needs_lead", "must_follow_suit", "trick_winner"),
        "variant-48-cards": ("card_not_in_deck", "unknown_deck"),
        "setup": ("dealing",),
        "variant-cangkul": ("variant-cangkul",),
    }),
    messages={
        "limit_range": _l("The penalty limit must be a whole number from %(low)s to "
                          "%(high)s."),
        "wins_target_range": _l("The number of wins must be a whole number from %(low)s to "
                                "%(high)s, or empty."),
        "hand_needs_burro": _l("Tap the player who was left holding cards."),
        "hand_needs_winner": _l("Tap the player who ran out of cards first."),
        "trick_size": _l("A trick has %(low)s to %(high)s plays, not %(count)s."),
        "trick_needs_lead": _l("The first play is the lead: it cannot be a pass."),
        "must_follow_suit": _l("%(card)s cannot be played: the lead is a %(suit)s. Who cannot "
                               "follow suit draws until they can, or passes once the stock is "
                               "empty."),
    },
    pages=bp, api=api_bp,
    hand_fields={
        "burro": (Seat | None, Field(None, description="Burro: the player left with cards.")),
        "winner": (Seat | None, Field(None, description="Portuguese Burro, Cangkul: the first "
                                                        "out.")),
    },
    hand_examples=({"burro": 2}, {"burro": 0}, {"winner": 0}),
    setup_examples=({"players": ["Anna", "Ben", "Carla"], "options": {"limit": 5}},),
    answer_examples=ANSWER_EXAMPLES,
)
