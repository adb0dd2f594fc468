"""The chart of the running totals on a phone: it fits below the history, in light and
dark, with every line told apart. (axe reads it with each game's sheet, in
test_accessibility.py.)"""

import re

import pytest
from helpers import MATCHES
from playwright.sync_api import Page, expect

from phone import SCREENSHOTS, shot

pytestmark = pytest.mark.browser

PHONE_SHEETS = {
    # Two partnerships' long names, a negative total and the target's end line.
    "burraco": (2, "burraco", ["Annalena", "Benedikt", "Carolina", "Dario"], {}, [
        {"sides": [{"total": 410}, {"total": 155}]}, {"sides": [{"total": -50}, {"total": 300}]},
        {"sides": [{"total": 365}, {"total": 220}]}, {"sides": [{"total": 505}, {"total": 90}]},
        {"sides": [{"total": 120}, {"total": 610}]}]),
    # Eight players: every line's colour, dash and marker.
    "burro": (8, "burro", ["Anna", "Ben", "Carla", "Dan", "Eva", "Finn", "Gina", "Hugo"],
              {"limit": 5}, [{"burro": seat % 8} for seat in (0, 1, 1, 2, 3, 3, 3, 5, 6, 7)]),
}


def contrast(first: str, second: str) -> float:
    """WCAG's contrast ratio of two ``rgb(…)`` colours."""
    def luminance(colour):
        channels = [int(part) / 255 for part in re.findall(r"\d+", colour)[:3]]
        linear = [c / 12.92 if c <= 0.04045 else ((c + 0.055) / 1.055) ** 2.4 for c in channels]
        return 0.2126 * linear[0] + 0.7152 * linear[1] + 0.0722 * linear[2]
    lighter, darker = sorted((luminance(first), luminance(second)), reverse=True)
    return (lighter + 0.05) / (darker + 0.05)


@pytest.mark.browser
@pytest.mark.parametrize("scheme", ["light", "dark"])
@pytest.mark.parametrize("sheet", PHONE_SHEETS)
def test_the_chart_fits_a_phone_below_the_history_in_light_and_dark(page: Page, client, sheet,
                                                                    scheme):
    """UX.md: "strong contrast in light and dark mode"; the chart must not push the entry
    panel down, nor make the page scroll sideways at 390 px."""
    lines, game, players, options, hands = PHONE_SHEETS[sheet]
    token = client.post(MATCHES, json={"game": game, "players": players,
                                       "options": options}).json["token"]
    for hand in hands:
        assert client.post(f"{MATCHES}/{token}/hands", json=hand).status_code == 201
    page.emulate_media(color_scheme=scheme)
    page.goto(f"/m/{token}")
    chart = page.locator(".chart")
    expect(chart.locator("svg.chart-plot polyline.line")).to_have_count(lines)
    history, panel = page.locator("table.history"), page.locator("form.panel")
    assert panel.bounding_box()["y"] < history.bounding_box()["y"] < chart.bounding_box()["y"]
    assert page.evaluate("document.documentElement.scrollWidth") <= 390
    box = chart.locator("svg.chart-plot").bounding_box()
    assert box["x"] >= 0 and box["x"] + box["width"] <= 390
    background = page.evaluate("getComputedStyle(document.body).backgroundColor")
    strokes = chart.locator("svg.chart-plot polyline.line").evaluate_all(
        "lines => lines.map(line => getComputedStyle(line).stroke)")
    assert len(set(strokes)) == len(strokes)
    assert all(contrast(stroke, background) >= 3 for stroke in strokes), strokes
    chart.scroll_into_view_if_needed()
    shot(page, f"chart-{sheet}-{scheme}")
    chart.screenshot(path=str(SCREENSHOTS / f"chart-{sheet}-{scheme}-close.png"))
