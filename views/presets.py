"""The variants a table names ("we play STBL", "Burraco Reale", "Burkosel to 8"): each a
choice on the new-match page that sets one option, and a line on the sheet with its name
and where its rules come from (RULES-NOTES B7, C5, D12)."""

from dataclasses import dataclass

from .games import all_games
from .rule_search import why_url


@dataclass(frozen=True)
class Preset:
    value: str
    name: object          # a lazy string: read in the reader's language
    source: object
    hint: object = ""

    def why(self, game: str) -> str | None:
        """The rules section of the preset."""
        return why_url(game, f"variant-{self.value}")


def presets_of(game: str) -> tuple[str | None, tuple[Preset, ...]]:
    """The option a game's presets set, and its presets (none for a game without)."""
    known = all_games()[game]
    return known.preset_field, known.presets


def preset_of(game: str, options) -> Preset | None:
    """The preset a match's typed options are played by."""
    field, presets = presets_of(game)
    if field is None:
        return None
    value = str(getattr(getattr(options, field), "value", getattr(options, field)))
    return next((preset for preset in presets if preset.value == value), None)
