"""The variants a table names ("we play STBL", "Burraco Reale", "Burkosel to 8"): each a
choice on the new-match page that sets one option, and a line on the sheet with its name
and where its rules come from (RULES-NOTES B7, C5, D12)."""

from dataclasses import dataclass

from flask_babel import lazy_gettext as _l

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


# Each game's option that names its preset, and the presets in the order they are offered.
PRESETS = {
    "buraco": ("variant", (
        Preset("seed", _l("Classic"), _l("the Buraco rules text"),
               _l("Sets only; red threes are bonus cards.")),
        Preset("brazilian", _l("Fechado"), _l("jogatina.com"),
               _l("Brazilian values; sets and sequences, one wildcard; out with any buraco.")),
        Preset("aberto", _l("Aberto"), _l("jogatina.com"),
               _l("Brazilian values; sequences only; out with a clean buraco.")),
        Preset("stbl", _l("STBL"), _l("jogatina.com"),
               _l("“Sem trinca, bate limpo”: sequences only, the discard pile closed; out "
                  "with a clean buraco.")),
    )),
    "burraco": ("variant", (
        Preset("classic", _l("Classic"), _l("the Burraco rules text")),
        Preset("reale", _l("Burraco Reale"), _l("eburraco.com and giocodigitale.it"),
               _l("No jokers, sequences only; nobile +500 and reale +1000; closing only "
                  "with a clean burraco.")),
    )),
    "burkosel": ("losing_total", (
        Preset("12", _l("Lost at 12"), _l("pagat.com")),
        Preset("8", _l("Lost at 8"), _l("the Burkosel apps"), _l("A shorter evening.")),
        Preset("6", _l("Lost at 6"), _l("the Burkosel apps"), _l("The shortest.")),
    )),
}


def presets_of(game: str) -> tuple[str | None, tuple[Preset, ...]]:
    """The option a game's presets set, and its presets (none for a game without)."""
    return PRESETS.get(game, (None, ()))


def preset_of(game: str, options) -> Preset | None:
    """The preset a match's typed options are played by."""
    field, presets = presets_of(game)
    if field is None:
        return None
    value = str(getattr(getattr(options, field), "value", getattr(options, field)))
    return next((preset for preset in presets if preset.value == value), None)
