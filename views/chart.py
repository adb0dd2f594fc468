"""The running totals as a chart: every unit's total after each hand (in Bura its chips),
scaled into an SVG viewBox, with the axes' ticks and the line where the match ends. Pure
geometry; ``templates/matches/_chart.html`` draws it."""

import math
from dataclasses import dataclass

# About a phone's column in CSS pixels, so the chart's 14-unit text reads near 16 px there.
WIDTH, HEIGHT = 320, 200
# Above the plot, room for the end line's label where the end is the top tick (Burro's
# limit); below it, for the hands' numbers.
TOP, BOTTOM_ROOM, RIGHT_ROOM = 24, 28, 10
# A tick label's character at that size, and the gap between label and plot.
CHAR_WIDTH, LABEL_GAP = 8.5, 8
# Markers on every hand while they stand this far apart; closer, they would blot out the
# dashes that tell the lines apart, so only each line's last hand is marked.
MARK_SPACING = 12
Y_TICKS, X_TICKS = 5, 6


def running_totals(row) -> tuple:
    """What a row's units hold after the hand: points, or in Bura chips."""
    return row.chips if hasattr(row, "chips") else row.totals


def hand_gains(row, before: tuple) -> tuple:
    """What the hand added to each unit: the row's own figures, else the step in totals."""
    for name in ("gains", "penalties", "changes"):
        if hasattr(row, name):
            return getattr(row, name)
    return tuple(after - earlier for after, earlier in zip(running_totals(row), before))


def nice_step(span: float, count: int) -> int:
    """A round step (1, 2 or 5 times a power of ten, at least 1) cutting ``span`` into
    about ``count`` parts.

    >>> nice_step(2005, 5), nice_step(5, 5), nice_step(12, 5), nice_step(1, 6)
    (500, 1, 2, 1)
    """
    rough = span / count
    if rough <= 1:
        return 1
    power = 10 ** math.floor(math.log10(rough))
    for factor in (1, 2, 5):
        if rough / power < factor * 1.5:
            return factor * power
    return 10 * power


def scale(value: float, low: float, high: float, start: float, stop: float) -> float:
    """Where ``value`` falls when ``low`` sits at ``start`` and ``high`` at ``stop``.

    >>> scale(5, 0, 10, 200, 0), scale(-5, -10, 10, 100, 0)
    (100.0, 75.0)
    """
    return round(start + (value - low) * (stop - start) / (high - low), 1)


@dataclass(frozen=True)
class Tick:
    value: int
    at: float


@dataclass(frozen=True)
class Line:
    """One unit's totals from the start to the last hand, as (x, y) points."""

    points: tuple[tuple[float, float], ...]
    total: float

    @property
    def svg_points(self) -> str:
        """The points as an SVG ``points`` attribute."""
        return " ".join(f"{x:g},{y:g}" for x, y in self.points)


@dataclass(frozen=True)
class Chart:
    """The running totals in a ``WIDTH`` × ``HEIGHT`` viewBox; the plot spans ``left`` to
    ``right`` and ``top`` to ``bottom``; ``end`` is where the match ends, if it has a
    fixed end."""

    hands: int
    lines: tuple[Line, ...]
    y_ticks: tuple[Tick, ...]
    x_ticks: tuple[Tick, ...]
    end: Tick | None
    left: float
    right: float
    top: float
    bottom: float
    marks_every_hand: bool
    width: int = WIDTH
    height: int = HEIGHT


def series(rows) -> list[list]:
    """Each unit's totals: where it started, then after every hand."""
    first = rows[0]
    zero = (0,) * len(running_totals(first))
    # Before the first hand: its totals less what it added (Bura's starting chips, else 0).
    start = [total - gain for total, gain in zip(running_totals(first), hand_gains(first, zero))]
    return [list(unit) for unit in zip(start, *map(running_totals, rows))]


def _label_width(value: int) -> float:
    """Room for a tick label, written as the sheet writes totals (no grouping)."""
    return len(str(value)) * CHAR_WIDTH


def totals_chart(standings, options) -> Chart | None:
    """The chart of a match's running totals, or None before its first hand.

    The end line is the options' ``target`` (a target or a penalty limit); a game without
    one (Bura) has none.
    """
    if not standings.rows:
        return None
    totals = series(standings.rows)
    end = getattr(options, "target", None)
    values = [value for unit in totals for value in unit] + ([end] if end is not None else [])
    step = nice_step(max(values) - min(values), Y_TICKS)
    low = math.floor(min(values) / step) * step
    high = max(math.ceil(max(values) / step) * step, low + step)
    y_values = range(low, high + 1, step)
    left = LABEL_GAP + max(map(_label_width, y_values))
    right, bottom = WIDTH - RIGHT_ROOM, HEIGHT - BOTTOM_ROOM
    hands = len(standings.rows)

    def y(value):
        return scale(value, low, high, bottom, TOP)

    def x(hand):
        return scale(hand, 0, hands, left, right)

    # More hands than the plot has units across cannot be told apart: every few hands (and
    # the last) are drawn, so a long match's sheet stays light; the history has every total.
    stride = math.ceil(hands / (right - left))
    drawn = sorted({*range(0, hands + 1, stride), hands})
    lines = tuple(Line(tuple((x(hand), y(unit[hand])) for hand in drawn), unit[-1])
                  for unit in totals)
    return Chart(
        hands=hands, lines=lines,
        y_ticks=tuple(Tick(value, y(value)) for value in y_values),
        x_ticks=tuple(Tick(hand, x(hand))
                      for hand in range(0, hands + 1, nice_step(hands, X_TICKS))),
        end=Tick(end, y(end)) if end is not None else None,
        left=left, right=right, top=TOP, bottom=bottom,
        marks_every_hand=(right - left) / hands >= MARK_SPACING,
    )


def chart_of(standings, options) -> Chart | None:
    """``totals_chart`` of the standings, with their own options."""
    return totals_chart(standings, options)
