"""The JSON API, version 1: its contract (models checked on the way in, the OpenAPI document
generated from them), the matches and their documents, club nights, and the rules' search.
Each game's checkers live with the game (views/games/) on a JSON blueprint of their own."""

from ..games import all_games
from . import docs, event_transfer, events, matches, rules


def register(app, csrf) -> None:
    """Every blueprint of the API. Its requests carry JSON, which a browser form cannot send
    to another site without asking first: no CSRF token is asked of them."""
    json_blueprints = [matches.bp, events.bp, event_transfer.bp, rules.bp,
                       *(game.api for game in all_games().values() if game.api is not None)]
    for blueprint in json_blueprints:
        csrf.exempt(blueprint)
        app.register_blueprint(blueprint)
    app.register_blueprint(docs.bp)
