"""Finding what a request names, for the pages and the API alike: a match by its link, a
game by its name; what does not exist is a 404, a read-only link used to change a match
a 403. And a match's standings, derived once per version."""

from flask import abort

import store
from scoring.games import GAMES, score

from .kept import Kept

# Each phone at a table asks for the sheet after every change, and the API for the
# standings: the standings of the last few hundred match versions are kept.
_standings = Kept(512)


def get_match_or_404(token: str) -> store.Match:
    """The match an edit link opens; its read-only link may look but not change (403)."""
    db = store.get_db()
    match = store.get_match(db, token)
    if match is None:
        abort(403 if store.get_watched_match(db, token) else 404)
    return match


def get_watched_match_or_404(view_token: str) -> store.Match:
    """The match a read-only link shows."""
    match = store.get_watched_match(store.get_db(), view_token)
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


def scored(match: store.Match) -> tuple:
    """The match's game, typed options and standings, as ``scoring.games.score`` derives
    them. A version is never changed once written, so they are derived once per match
    and version (the link is the key: unique across databases); a restart, which brings a
    rule fix, derives them afresh."""
    return _standings.get((match.token, match.version), lambda: _derived(match))


# The hands each match's standings were last derived from in this process, with them. A
# version another process wrote is new here; when it only added hands to these, the
# standings go on from them instead of replaying a long evening.
_last_derived = Kept(512)


def _setup(match: store.Match) -> tuple:
    return match.game, match.options, len(match.players)


def _derived(match: store.Match) -> tuple:
    setup, hands = _setup(match), tuple(match.hands)
    last = _last_derived.find(match.token)
    known = None
    if last is not None:
        last_setup, last_hands, (_game, _options, last_standings) = last
        # Scoring is a function of the setup and the hands: the same first hands have the
        # same standings.
        if last_setup == setup and hands[:len(last_hands)] == last_hands:
            known = last_standings
    result = score(*setup, hands, known)
    _last_derived.keep(match.token, (setup, hands, result))
    return result


def keep_scored(changed: store.Match | None, options, standings) -> None:
    """A change was checked by deriving the standings after it: kept as those of
    ``changed``, the match as the change left it, so that the answer to the change and
    every phone's next look need not derive them again (None: what it left is not known
    here)."""
    if changed is not None:
        result = _standings.get((changed.token, changed.version),
                                lambda: (GAMES[changed.game], options, standings))
        # A version the other server process writes next goes on from this one.
        _last_derived.keep(changed.token, (_setup(changed), tuple(changed.hands), result))
