"""What a game's score sheet adapter gives the sheet views: how a posted form becomes a hand,
the panel's half-entered state between taps (a draft), and the extra values its template
needs."""

from collections.abc import Callable
from dataclasses import dataclass


def _no_context(match, options, standings, number, draft) -> dict:
    return {}


@dataclass(frozen=True)
class Sheet:
    # Both read a posted form for its match: (form, match).
    hand_from_form: Callable
    context: Callable = _no_context
    draft_from_form: Callable | None = None
    # The sides a refusal names ("Anna & Carla: …"), where a game has sides.
    side_names: Callable = lambda match, form: None
    # Whether the sheet counts games (Burraco's and Bura's rules say "Spiel"), not hands.
    says_game: bool = True
