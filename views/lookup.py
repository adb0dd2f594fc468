"""Finding what a request names, for the pages and the API alike: a match by its link, a
game by its name; what does not exist is a 404."""

from flask import abort

import store
from scoring.games import GAMES


def get_match_or_404(token: str) -> store.Match:
    match = store.get_match(store.get_db(), token)
    if match is None:
        abort(404)
    return match


def options_of(match: store.Match):
    """The match's stored options, typed by its game's rules."""
    return GAMES[match.game].verify_options(match.options, len(match.players))


def get_game_or_404(game: str):
    if game not in GAMES:
        abort(404)
    return GAMES[game]
