"""Victory Points: a turn's match-point difference turned into points on a fixed scale, by a
table of bands that the club chooses (RULES-NOTES B8). No game is named here: a game ships
its tables, a club enters or imports its own, and this module reads and checks them."""

import re
from collections.abc import Mapping, Sequence
from dataclasses import dataclass

from .errors import SetupError

MAX_BANDS = 40
MAX_NAME = 60
MAX_POINTS = 1000
# Every card counts a multiple of 5, so every difference is one: a band may start anywhere
# up to the next multiple of 5 after the one before it ends.
STEP = 5


@dataclass(frozen=True)
class Band:
    """Differences from ``low`` to ``high`` (None: and above) give the pair ahead
    ``winner`` VP and the other ``loser``."""

    low: int
    high: int | None
    winner: int
    loser: int


@dataclass(frozen=True)
class VictoryPoints:
    """A table of bands. ``total``: what the two pairs' VP add up to in every band (20 on
    the usual scale), or None where the table does not say so."""

    name: str
    bands: tuple[Band, ...]
    total: int | None = 20
    hands: int | None = None

    def band(self, difference: int) -> Band:
        difference = abs(difference)
        for band in self.bands:
            if band.high is None or difference <= band.high:
                return band
        raise AssertionError("a checked table ends with an open band")

    def of(self, points: Sequence[int]) -> tuple[int, int]:
        """Each pair's VP, in the order of ``points`` (the two pairs' match points)."""
        first, second = points
        band = self.band(first - second)
        return (band.winner, band.loser) if first >= second else (band.loser, band.winner)


def _number(value, code: str, band: int | None = None, low: int = 0,
            high: int = 10**6) -> int:
    if isinstance(value, bool) or not isinstance(value, int | str):
        raise SetupError(code, band=band)
    text = str(value).strip()
    if not re.fullmatch(r"\d{1,7}", text) or not low <= int(text) <= high:
        raise SetupError(code, band=band)
    return int(text)


def read_table(raw: Mapping) -> VictoryPoints:
    """A club's table as entered or imported::

        {"name": "Club 3", "hands": 3, "total": 20,
         "bands": [{"from": 0, "to": 50, "vp": [10, 10]}, …, {"from": 1505, "to": null, "vp": [20, 0]}]}

    checked: a name, bands contiguous from 0 and the last one open, each band's VP
    summing to ``total`` (where it is given) and never falling as the difference grows."""
    if not isinstance(raw, Mapping):
        raise SetupError("vp_table_unreadable")
    name = raw.get("name")
    if not isinstance(name, str) or not name.strip() or len(name.strip()) > MAX_NAME:
        raise SetupError("vp_table_name", most=MAX_NAME)
    hands = raw.get("hands")
    if hands is not None and (isinstance(hands, bool) or hands not in (2, 3, 4)):
        raise SetupError("vp_table_hands")
    total = raw.get("total", 20)
    if total is not None:
        total = _number(total, "vp_table_total", high=MAX_POINTS)
    rows = raw.get("bands")
    if not isinstance(rows, Sequence) or isinstance(rows, str) or not rows:
        raise SetupError("vp_table_no_bands")
    if len(rows) > MAX_BANDS:
        raise SetupError("vp_table_too_many_bands", most=MAX_BANDS)
    bands = []
    for number, row in enumerate(rows, start=1):
        if not isinstance(row, Mapping):
            raise SetupError("vp_band_unreadable", band=number)
        vp = row.get("vp")
        if not isinstance(vp, Sequence) or isinstance(vp, str) or len(vp) != 2:
            raise SetupError("vp_band_unreadable", band=number)
        high = row.get("to")
        bands.append(Band(
            low=_number(row.get("from"), "vp_band_unreadable", number),
            high=None if high in (None, "") else _number(high, "vp_band_unreadable", number),
            winner=_number(vp[0], "vp_band_points", number, high=MAX_POINTS),
            loser=_number(vp[1], "vp_band_points", number, high=MAX_POINTS)))
    table = VictoryPoints(name=name.strip(), bands=tuple(bands), total=total, hands=hands)
    check(table)
    return table


def check(table: VictoryPoints) -> None:
    """The rules a table of bands keeps; the first one broken is raised."""
    previous = None
    for number, band in enumerate(table.bands, start=1):
        if previous is None and band.low != 0:
            raise SetupError("vp_band_starts_at_zero", low=band.low)
        if previous is None and band.winner != band.loser:
            # A difference of 0 has no pair ahead: the first band gives both the same.
            raise SetupError("vp_band_draw_uneven", winner=band.winner, loser=band.loser)
        if previous is not None:
            if previous.high is None:
                raise SetupError("vp_band_after_open", band=number)
            if band.low <= previous.high:
                raise SetupError("vp_band_overlap", band=number, low=band.low, high=previous.high)
            if band.low > previous.high + STEP - previous.high % STEP:
                raise SetupError("vp_band_gap", band=number, low=band.low, high=previous.high)
        if band.high is not None and band.high < band.low:
            raise SetupError("vp_band_reversed", band=number, low=band.low, high=band.high)
        if band.winner < band.loser:
            raise SetupError("vp_band_loser_ahead", band=number)
        if table.total is not None and band.winner + band.loser != table.total:
            raise SetupError("vp_band_total", band=number, total=table.total,
                             winner=band.winner, loser=band.loser)
        if previous is not None and (band.winner < previous.winner or band.loser > previous.loser):
            raise SetupError("vp_band_falls", band=number)
        previous = band
    if previous.high is not None:
        raise SetupError("vp_table_not_open", high=previous.high)


def as_data(table: VictoryPoints) -> dict:
    """The table as ``read_table`` takes it (export, the API)."""
    return {"name": table.name, "hands": table.hands, "total": table.total,
            "bands": [{"from": band.low, "to": band.high, "vp": [band.winner, band.loser]}
                      for band in table.bands]}


# One band a line, as a club copies it from its rules: "0–50 10–10", "1505+ 20–0" (or
# "more than 1500 20–0"); dashes of any kind, spaces optional.
_DASH = r"\s*[-–—:]\s*"
_LINE = re.compile(rf"^\s*(?:(\d+){_DASH}(\d+)|(\d+)\s*\+|(?:more than|over|>|mehr als|über)\s*(\d+))"
                   rf"\s+(\d+){_DASH}(\d+)\s*$", re.IGNORECASE)


def parse_bands(text: str) -> list[dict]:
    """The bands of ``text``, one a line, for ``read_table``; an unreadable line raises
    with its number."""
    bands = []
    lines = [line for line in text.splitlines() if line.strip()]
    for number, line in enumerate(lines, start=1):
        found = _LINE.match(line)
        if not found:
            raise SetupError("vp_band_line", band=number, line=line.strip()[:40])
        low, high, open_low, above, winner, loser = found.groups()
        if low is not None:
            bands.append({"from": int(low), "to": int(high)})
        elif open_low is not None:
            bands.append({"from": int(open_low), "to": None})
        else:
            # "more than 1500" starts at the next difference there can be.
            bands.append({"from": int(above) + STEP - int(above) % STEP, "to": None})
        bands[-1]["vp"] = [int(winner), int(loser)]
    return bands


def format_bands(table: VictoryPoints) -> str:
    """The bands as ``parse_bands`` reads them back."""
    return "\n".join(f"{band.low}–{band.high} {band.winner}–{band.loser}" if band.high is not None
                     else f"{band.low}+ {band.winner}–{band.loser}" for band in table.bands)
