"""Finding what a request names, for the pages and the API alike: a match or a club night
by its link, a game by its name; what does not exist is a 404, a read-only link used to change a match
a 403. And a match's standings, derived from its entries."""

from flask import abort

import store
from scoring.games import GAMES, score


def get_match_or_404(token: str) -> store.Match:
    """The match an edit link opens; its read-only link may look but not change (403)."""
    db = store.get_db()
    match = store.get_match(db, token)
    if match is None:
        if store.get_watched_match(db, token):
            abort(403)
        store.verify_unknown(db, token)
        abort(404)
    return match


def get_watched_match_or_404(view_token: str) -> store.Match:
    """The match a read-only link shows."""
    match = store.get_watched_match(store.get_db(), view_token)
    if match is None:
        store.verify_unknown(store.get_db(), view_token)
        abort(404)
    return match


def get_event_or_404(token: str) -> store.events.Event:
    """The club night the organiser's link opens; its screen's link may look but neither
    change it nor take its codes (403)."""
    db = store.get_db()
    event = store.events.get_event(db, token)
    if event is None:
        abort(403 if store.events.get_watched_event(db, token) else 404)
    return event


def get_watched_event_or_404(view_token: str) -> store.events.Event:
    """The club night its screen's link shows."""
    event = store.events.get_watched_event(store.get_db(), view_token)
    if event is None:
        abort(404)
    return event


def options_of(match: store.Match):
    """The match's stored options, typed by its game's rules."""
    return GAMES[match.game].verify_options(match.options, len(match.players))


def get_game_or_404(game: str):
    if game not in GAMES:
        abort(404)
    return GAMES[game]


def scored(match: store.Match) -> tuple:
    """The match's game, typed options and standings, as ``scoring.games.score`` derives
    them from what was entered."""
    return score(match.game, match.options, len(match.players), match.hands)
