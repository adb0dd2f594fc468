"""The games' score sheet adapters, one module each: a game is one module in ``scoring/``,
one here and its templates."""

from . import bura, buraco, burkosel, burraco, burro
from .sheet import Sheet

SHEETS: dict[str, Sheet] = {
    "burro": burro.SHEET, "burraco": burraco.SHEET, "bura": bura.SHEET,
    "burkosel": burkosel.SHEET, "buraco": buraco.SHEET,
}
