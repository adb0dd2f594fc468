"""What another phone changed on a sheet, in words: "Game 4 was saved on another phone:
Anna & Carla +465 · Ben & Dario +25"."""

import store
from scoring.errors import ScoringError
from scoring.games import score

from .i18n import gettext as _
from .sheets import SHEETS
from .template_helpers import signed, unit_labels


def _totals(row) -> tuple:
    """A history row's running totals (Bura's ledger counts chips in hand)."""
    return row.totals if hasattr(row, "totals") else row.chips


def _gains(match: store.Match, change: store.Change) -> str:
    """What the changed entry gives each side, as the sheet would show it; the sides it
    leaves as they were are left out, unless it leaves every side so."""
    game, options, _standings = score(match.game, match.options, len(match.players), ())
    before = match.hands[:change.number - 1]
    try:
        standings = game.standings(options, len(match.players), [*before, change.data])
    except ScoringError:
        return ""
    rows = standings.rows
    previous = _totals(rows[-2]) if len(rows) > 1 else (0,) * len(standings.units)
    gains = [after - earlier for after, earlier in zip(_totals(rows[-1]), previous)]
    labels = unit_labels(standings.units, match.players)
    shown = [unit for unit, gain in enumerate(gains) if gain] or range(len(gains))
    return " · ".join(f"{labels[unit]} {signed(gains[unit])}" for unit in shown)


def describe_changes(match: store.Match, changes) -> list[str]:
    """One line per change another phone made, oldest first."""
    games = SHEETS[match.game].says_game
    lines = []
    for change in changes:
        params = {"number": change.number, "gains": _gains(match, change)}
        if change.kind == store.UNDONE:
            lines.append(_("Game %(number)s was taken back on another phone.", **params) if games
                         else _("Hand %(number)s was taken back on another phone.", **params))
        elif change.kind == "corrected":
            lines.append(_("Game %(number)s was corrected on another phone: %(gains)s",
                           **params) if games else
                         _("Hand %(number)s was corrected on another phone: %(gains)s", **params))
        else:
            lines.append(_("Game %(number)s was saved on another phone: %(gains)s", **params)
                         if games else
                         _("Hand %(number)s was saved on another phone: %(gains)s", **params))
    return lines
