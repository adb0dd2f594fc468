"""What a game brings to the web: its name and start tile, how its players are listed, its
sheet adapter (a posted form → a hand, the panel's half-entered state between taps, the
extra values its template needs), its "why?" sections, presets and refusal messages, and the
blueprints of its checker pages and API routes."""

from collections.abc import Callable, Mapping
from dataclasses import dataclass, field

from flask import Blueprint


def _no_context(match, options, standings, number, draft) -> dict:
    return {}


@dataclass(frozen=True)
class Game:
    slug: str
    name: str
    tile: object                    # lazy strings: read in the reader's language
    player_order: object
    # Both read a posted form for its match: (form, match).
    hand_from_form: Callable
    context: Callable = _no_context
    draft_from_form: Callable | None = None
    # The sides a refusal names ("Anna & Carla: …"), where a game has sides.
    side_names: Callable = lambda match, form: None
    # Whether the sheet counts games (Burraco's and Bura's rules say "Spiel"), not hands.
    says_game: bool = True
    # A refusal's or verdict's code → the section of the rules that explains it.
    why: Mapping[str, str] = field(default_factory=dict)
    # The rules document that holds the game (a variant may live in another game's).
    rules_document: str = ""
    # The option a named variant sets, and those variants in the order offered.
    preset_field: str | None = None
    presets: tuple = ()
    # Its checker pages, each (endpoint, lazy label), in the order the checkers page lists them.
    checkers: tuple = ()
    # Refusals only this game's rules give: code → lazy message.
    messages: Mapping[str, object] = field(default_factory=dict)
    # A hand's fields in the API (name → (type, pydantic Field)), and example bodies.
    hand_fields: Mapping[str, tuple] = field(default_factory=dict)
    hand_examples: tuple = ()
    # Example bodies that start a match of the game in the API, without their "game".
    setup_examples: tuple = ()
    # Examples of the answers every game's matches share, by model name ("Standings").
    answer_examples: Mapping[str, dict] = field(default_factory=dict)
    pages: Blueprint | None = None
    api: Blueprint | None = None

    @property
    def document(self) -> str:
        return self.rules_document or self.slug

    def template(self, name: str) -> str:
        """One of the game's templates, e.g. ``sheet.html``."""
        return f"games/{self.slug}/{name}"


def why_sections(sections: Mapping[str, tuple[str, ...]]) -> dict[str, str]:
    """A game's "why?" table written by section: section → the codes it explains."""
    return {code: section for section, codes in sections.items() for code in codes}
