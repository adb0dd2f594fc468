"""The games on the web, one module each, registered from the games the rules know
(``scoring.games.GAMES``): a shared module asks the registry and names no game."""

import importlib
from functools import cache

from scoring.games import GAMES as RULES

from .game import Game


@cache
def all_games() -> dict[str, Game]:
    """Every game's web side, in the order of ``scoring.games.GAMES``; read at first use, so
    a game module may import any shared module."""
    return {slug: importlib.import_module(f"{__name__}.{slug}").GAME for slug in RULES}



def checker_links() -> list[tuple[str, object]]:
    """Every game's checker pages, (endpoint, label), game by game."""
    return [link for known in all_games().values() for link in known.checkers]


def register(app) -> None:
    """Each game's pages, and what templates ask of the registry."""
    for known in all_games().values():
        if known.pages is not None:
            app.register_blueprint(known.pages)
    app.add_template_global(checker_links)
    app.add_template_global(all_games)
