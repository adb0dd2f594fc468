"""The chart of the running totals under every sheet: its geometry (views/chart.py), the
chart each game's sheet draws (page, htmx fragment, live update), its words for a screen
reader, and how it looks on a phone in light and dark."""

import pytest
from helpers import HTMX, MATCHES, parsed, shown

from scoring import bura, burkosel, burraco, burro
from store.news import news_id
from views.chart import HEIGHT, WIDTH, nice_step, scale, totals_chart


def value_at(chart, y: float) -> float:
    """The total a height stands for, read back through the chart's own ticks."""
    low, high = chart.y_ticks[0], chart.y_ticks[-1]
    return scale(y, low.at, high.at, low.value, high.value)


def burro_chart(burros, players=4, limit=5):
    options = burro.Options(limit=limit)
    return totals_chart(burro.standings(options, players, [{"burro": b} for b in burros]),
                        options)


def burraco_chart(*scores):
    options = burraco.Options()
    hands = [{"sides": [{"total": ours}, {"total": theirs}]} for ours, theirs in scores]
    return totals_chart(burraco.standings(options, 4, hands), options)


def inside_the_plot(chart) -> bool:
    return all(chart.left <= x <= chart.right and chart.top <= y <= chart.bottom
               for line in chart.lines for x, y in line.points)


# --- The geometry -----------------------------------------------------------------------

def test_a_total_maps_to_its_height_between_the_end_and_nothing():
    """Seed 000: "bis zu wie vielen Strafpunkten ihr spielt, z. B. 5": the plot runs from
    0 at its foot to the limit."""
    chart = burro_chart([0, 0, 1])
    anna = chart.lines[0]
    assert chart.y_ticks[0].value == 0 and chart.y_ticks[-1].value == 5
    assert [y for _x, y in anna.points] == [chart.bottom, scale(1, 0, 5, chart.bottom, chart.top),
                                            scale(2, 0, 5, chart.bottom, chart.top),
                                            scale(2, 0, 5, chart.bottom, chart.top)]
    assert chart.end.at == chart.top
    assert [value_at(chart, y) for _x, y in anna.points] == [0, 1, 2, 2]


def test_negative_totals_fall_below_the_zero_line():
    """RULES-NOTES B2: "A result may be negative"."""
    chart = burraco_chart((-35, 120), (-50, 300))
    zero = next(tick for tick in chart.y_ticks if tick.value == 0)
    assert chart.y_ticks[0].value <= -85 < 0
    anna_and_carla = chart.lines[0]
    span = chart.y_ticks[-1].value - chart.y_ticks[0].value
    assert [value_at(chart, y) for _x, y in anna_and_carla.points] == pytest.approx(
        [0, -35, -85], abs=span / 1000)
    assert all(y > zero.at for _x, y in anna_and_carla.points[1:])
    assert inside_the_plot(chart)


def test_one_hand_is_a_line_from_the_start_across_the_plot():
    chart = burro_chart([2])
    for line in chart.lines:
        assert [x for x, _y in line.points] == [chart.left, chart.right]
    assert [tick.value for tick in chart.x_ticks] == [0, 1]
    assert chart.marks_every_hand


def test_many_hands_stay_inside_the_view_box():
    """Bura has no fixed end (seed 003: "Bura hat kein festes Ende"): 300 games of six
    players, chips far below and above zero, and still every point inside the plot."""
    outcomes = [{"outcome": "wrong_claim", "player": 5}, {"outcome": "right_claim", "player": 0},
                {"outcome": "no_claim"}, {"outcome": "bura", "player": 2}]
    options = bura.Options()
    hands = [outcomes[game % 4] for game in range(300)]
    chart = totals_chart(bura.standings(options, 6, hands), options)
    assert chart.hands == 300
    assert inside_the_plot(chart)
    assert 0 <= chart.left < chart.right <= WIDTH and 0 <= chart.top < chart.bottom <= HEIGHT
    assert all(chart.left <= tick.at <= chart.right for tick in chart.x_ticks)
    assert len(chart.x_ticks) <= 7
    # So close together, markers would hide the dashes: only the last hand is marked.
    assert not chart.marks_every_hand


def test_a_long_match_draws_no_more_points_than_the_plot_is_wide():
    """A thousand hands on a phone's column: one point for each unit across, the last hand
    always among them, at the right edge with the final total."""
    chart = burro_chart([hand % 4 for hand in range(1000)], limit=1000)
    for line, total in zip(chart.lines, (250, 250, 250, 250)):
        assert len(line.points) <= chart.right - chart.left + 2
        assert line.points[-1][0] == chart.right
        assert value_at(chart, line.points[-1][1]) == pytest.approx(total, abs=chart.y_ticks[1].value / 20)
    short = burro_chart([0, 1, 2])
    assert [len(line.points) for line in short.lines] == [4, 4, 4, 4]


def test_bura_starts_from_the_starting_chips_and_has_no_end_line():
    """Seed 003: "Wer am Ende die meisten Chips hat, gewinnt": chips, from the chips each
    player brought."""
    options = bura.Options(start_chips=10)
    chart = totals_chart(bura.standings(options, 3, [{"outcome": "right_claim", "player": 1}]),
                         options)
    assert [[value_at(chart, y) for _x, y in line.points] for line in chart.lines] == [
        [10, 9], [10, 12], [10, 9]]
    assert chart.end is None


def test_burkosels_end_line_is_twelve_penalty_points():
    """Seed 003, Varianten: "wer 12 oder mehr hat, verliert" (RULES-NOTES D8)."""
    options = burkosel.Options()
    standings = burkosel.standings(options, 2, [{"card_points": [95, 25], "tricks": [5, 2]}])
    assert totals_chart(standings, options).end.value == 12


@pytest.mark.parametrize("span, count, step", [(2005, 5, 500), (5, 5, 1), (12, 5, 2),
                                               (0, 5, 1), (300, 6, 50), (3130, 5, 500)])
def test_ticks_are_round_numbers(span, count, step):
    assert nice_step(span, count) == step


def test_no_chart_before_the_first_hand():
    options = burro.Options()
    assert totals_chart(burro.standings(options, 3, []), options) is None


# --- Every sheet ------------------------------------------------------------------------

# Per game: the players, the options and the hands as the API takes them.
GAMES = {
    "burro": (["Anna", "Ben", "Carla"], {}, [{"burro": 2}, {"burro": 0}, {"burro": 2}]),
    "burraco": (["Anna", "Ben", "Carla", "Dario"], {},
                [{"sides": [{"total": 410}, {"total": 155}]},
                 {"sides": [{"total": -50}, {"total": 300}]},
                 {"sides": [{"total": 100}, {"total": 0}]}]),
    "buraco": (["Anna", "Ben"], {}, [{"sides": [{"total": -100}, {"total": 170}]},
                                     {"sides": [{"total": 550}, {"total": 20}]}]),
    "bura": (["Anna", "Ben", "Carla"], {"start_chips": 5},
             [{"outcome": "right_claim", "player": 1}, {"outcome": "wrong_claim", "player": 2},
              {"outcome": "no_claim"}]),
    "burkosel": (["Anna", "Ben", "Carla", "Dario"], {},
                 [{"card_points": [95, 25], "tricks": [5, 2]}, {"instant_win": 1}]),
}


def played(client, game: str) -> tuple[str, dict]:
    """A match of ``game`` with its hands saved: its token and the API's answer for it."""
    players, options, hands = GAMES[game]
    token = client.post(MATCHES, json={"game": game, "players": players,
                                       "options": options}).json["token"]
    for hand in hands:
        assert client.post(f"{MATCHES}/{token}/hands", json=hand).status_code == 201
    return token, client.get(f"{MATCHES}/{token}").json


def chart_in(response):
    """The chart's section of a sheet, or None."""
    return parsed(response).select_one("section.chart")


def plotted(section) -> tuple[list[list[float]], float]:
    """Each line's totals as the page draws them, read back through the drawn ticks, and
    the span of the ticks."""
    svg = section.svg
    # Each grid line is labelled by the text drawn after it.
    ticks = [(float(line["y1"]), shown(line.find_next_sibling("text")))
             for line in svg.select(":scope > line.grid")]
    (low_y, low), (high_y, high) = ticks[0], ticks[-1]
    low, high = (float(text.replace("\u2212", "-")) for text in (low, high))
    return [[scale(float(point.split(",")[1]), low_y, high_y, low, high)
             for point in polyline["points"].split()]
            for polyline in svg.select(":scope > polyline")], high - low


def running_totals(match: dict) -> list[list]:
    """Each unit's totals from the API: where it started, then after every hand."""
    rows = [hand.get("chips", hand.get("totals")) for hand in match["hands"]]
    start = match["options"].get("start_chips", 0)
    return [[start, *unit] for unit in zip(*rows)]


@pytest.mark.parametrize("fragment", [False, True], ids=["page", "htmx fragment"])
@pytest.mark.parametrize("game", GAMES)
def test_every_sheet_charts_each_sides_running_totals(client, game, fragment):
    token, match = played(client, game)
    section = chart_in(client.get(f"/m/{token}", headers=HTMX if fragment else {}))
    assert section is not None
    lines, span = plotted(section)
    assert lines == [pytest.approx(unit, abs=span / 1000) for unit in running_totals(match)]
    names = [item.find("span", recursive=False).get_text() for item in section.select("li")]
    assert names == [" & ".join(match["players"][seat] for seat in unit)
                     for unit in match["units"]]


@pytest.mark.parametrize("game", GAMES)
def test_a_sheet_without_hands_has_no_chart(client, game):
    players, options, _hands = GAMES[game]
    token = client.post(MATCHES, json={"game": game, "players": players,
                                       "options": options}).json["token"]
    assert chart_in(client.get(f"/m/{token}")) is None


@pytest.mark.parametrize("game, words", [
    # RULES-NOTES E2: "The fewest points win".
    ("burro", "In the lead after 3 hands: Ben with 0. Behind: Anna 1, Carla 2. "
              "The match ends when a total reaches 5."),
    ("burraco", "In the lead after 3 games: Anna & Carla with 460. Behind: Ben & "
                "Dario 455. The match ends when a total reaches 2005."),
    ("buraco", "In the lead after 2 hands: Anna with 450. Behind: Ben 190. "
               "The match ends when a total reaches 3000."),
    # Bura has no fixed end; 5 starting chips, less the antes, plus the pots won.
    ("bura", "In the lead after 3 games: Ben with 5. Behind: Anna 2, Carla \u22121."),
    ("burkosel", "In the lead after 2 games: Ben & Dario with 4. Behind: Anna & "
                 "Carla 6. The match ends when a total reaches 12."),
])
def test_the_chart_says_in_words_who_leads_with_how_much_after_how_many_hands(client, game,
                                                                               words):
    token, _match = played(client, game)
    plot = chart_in(client.get(f"/m/{token}")).select_one("svg.chart-plot")
    assert (plot["role"], plot["aria-labelledby"]) == ("img", "chart-title chart-desc")
    assert plot.select_one("desc#chart-desc").get_text() == words
    assert plot.select_one("title#chart-title").get_text().startswith("Running totals after each ")


def test_a_tie_at_the_top_names_everyone_in_the_lead(client):
    token = client.post(MATCHES, json={"game": "burro", "players": ["Anna", "Ben", "Carla"]}
                        ).json["token"]
    client.post(f"{MATCHES}/{token}/hands", json={"burro": 2})
    assert "In the lead after 1 hand: Anna, Ben with 0. Behind: Carla 1." in \
        shown(client.get(f"/m/{token}"))


def test_a_hand_saved_on_another_phone_redraws_the_chart(client):
    """Live updates bring the whole sheet, the chart with the new hand among it."""
    token, match = played(client, "burro")
    client.post(f"{MATCHES}/{token}/hands", json={"burro": 0})
    answer = client.get(f"/m/{token}/news", headers={
        "If-None-Match": f'W/"{news_id(match["version"], None, False)}"'})
    lines, _span = plotted(chart_in(answer))
    assert lines[0] == [0, 0, 1, 1, 2]
    assert "In the lead after 4 hands: Ben with 0." in shown(answer)


def test_the_watch_only_sheet_shows_the_chart_too(client):
    _token, match = played(client, "burraco")
    assert chart_in(client.get(f"/v/{match['view_token']}")) is not None


# --- On a phone ---------------------------------------------------------------------------


