"""What another phone changed on a sheet, in words: "Game 4 was saved on another phone:
Anna & Carla +465 · Ben & Dario +25"."""

from flask_babel import gettext as _

import store
from scoring.errors import ScoringError
from scoring.games import score

from .games import all_games
from .template_helpers import signed, unit_labels


def _totals(row) -> tuple:
    """A history row's running totals (Bura's ledger counts chips in hand)."""
    return row.totals if hasattr(row, "totals") else row.chips


def _gains(match: store.Match, number: int, entries: list[dict]) -> str:
    """What ``entries``, saved as hands ``number`` on, give each side together, as the sheet
    would show it; the sides they leave as they were are left out, unless they leave every
    side so."""
    game, options, _standings = score(match.game, match.options, len(match.players), ())
    before = match.hands[:number - 1]
    try:
        standings = game.standings(options, len(match.players), [*before, *entries])
    except ScoringError:
        return ""
    rows = standings.rows
    previous = _totals(rows[len(before) - 1]) if before else (0,) * len(standings.units)
    gains = [after - earlier for after, earlier in zip(_totals(rows[-1]), previous)]
    labels = unit_labels(standings.units, match.players)
    shown = [unit for unit, gain in enumerate(gains) if gain] or range(len(gains))
    return " · ".join(f"{labels[unit]} {signed(gains[unit])}" for unit in shown)


def saved_gains(match: store.Match, number: int) -> str:
    """What hand ``number`` gave each side, for the toast after its save ("Ben +1"); empty
    when the match has no such hand (taken back since)."""
    if not 1 <= number <= len(match.hands):
        return ""
    return _gains(match, number, [match.hands[number - 1]])


# From this many hands saved one after another (a phone back after a while, or a script),
# they are told in one line: a line each would push the sheet off a phone's screen.
TOLD_TOGETHER = 3


def _in_runs(changes) -> list[list[store.Change]]:
    """The changes in order, each run of hands saved one after another together."""
    runs: list[list[store.Change]] = []
    for change in changes:
        last = runs[-1][-1] if runs else None
        if (last is not None and change.kind == last.kind == "saved"
                and change.number == last.number + 1):
            runs[-1].append(change)
        else:
            runs.append([change])
    return runs


def describe_changes(match: store.Match, changes) -> list[str]:
    """One line per change another phone made, oldest first; hands saved one after another
    in one line from ``TOLD_TOGETHER`` of them."""
    games = all_games()[match.game].says_game
    lines = []
    for run in _in_runs(changes):
        if len(run) >= TOLD_TOGETHER:
            params = {"first": run[0].number, "last": run[-1].number,
                      "gains": _gains(match, run[0].number, [change.data for change in run])}
            lines.append(_("Games %(first)s to %(last)s were saved on another phone: "
                           "%(gains)s", **params) if games else
                         _("Hands %(first)s to %(last)s were saved on another phone: "
                           "%(gains)s", **params))
            continue
        for change in run:
            lines.append(_describe_change(change, games, match))
    return lines


def _describe_change(change: store.Change, games: bool, match: store.Match) -> str:
    """One change in words, with what it gave each side."""
    params = {"number": change.number, "gains": _gains(match, change.number, [change.data])}
    if change.kind == store.UNDONE:
        return (_("Game %(number)s was taken back on another phone.", **params) if games
                else _("Hand %(number)s was taken back on another phone.", **params))
    if change.kind == "corrected":
        return (_("Game %(number)s was corrected on another phone: %(gains)s", **params)
                if games else
                _("Hand %(number)s was corrected on another phone: %(gains)s", **params))
    return (_("Game %(number)s was saved on another phone: %(gains)s", **params) if games
            else _("Hand %(number)s was saved on another phone: %(gains)s", **params))
