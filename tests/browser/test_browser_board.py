"""The scoreboard at the table's two phone sizes: every total on screen without scrolling
sideways, with two to eight players of real (long) names, in every game and both
languages, and a header that leaves the panel room."""

import pytest
from helpers import HANDS, MATCHES
from playwright.sync_api import Page, expect

from phone import shot

pytestmark = pytest.mark.browser

LONG_NAMES = ["Alexandra", "Christoph", "Maximilian", "Friederike", "Bartholomäus",
              "Konstantin", "Wilhelmine", "Leopoldine"]
PLAYER_COUNTS = {"burro": range(2, 9), "bura": range(2, 7), "burkosel": range(2, 5),
                 "burraco": range(2, 5), "buraco": range(2, 5)}
SMALL, TALL = {"width": 360, "height": 640}, {"width": 390, "height": 844}
# The header's share of a 390×844 phone: the rest is for the panel.
BOARD_MAX_PX = 120


def started(client, game: str, players: list[str]) -> str:
    """A match with one hand where the game's example hand is taken (totals of some width);
    the sheet's path."""
    token = client.post(MATCHES, json={"game": game, "players": players,
                                       "options": {}}).json["token"]
    hand = {"burro": len(players) - 1} if game == "burro" else HANDS[game]
    if "sides" not in hand or len(players) in (2, 4):
        client.post(f"{MATCHES}/{token}/hands", json=hand)
    return f"/m/{token}"


@pytest.mark.parametrize("locale", ["en-US", "de-DE"])
@pytest.mark.parametrize("game", list(PLAYER_COUNTS))
def test_every_total_is_on_screen_without_scrolling_sideways(page: Page, client, game, locale):
    """The issue: "with six Burro or Bura players two or three cards sit off the screen";
    every card, name and total lies inside the screen, a shortened name is read out whole,
    the buttons under the board name every player whole, and at 390×844 the header stays
    within 120 px."""
    problems = []
    for count in PLAYER_COUNTS[game]:
        players = LONG_NAMES[:count]
        page.goto(started(client, game, players))
        # The board is laid out by CSS alone: one page, narrowed, reads as it would opened so.
        for viewport in (SMALL, TALL):
            page.set_viewport_size(viewport)
            problems += board_problems(page, f"{game} of {count} at {viewport['width']}",
                                       players, viewport)
            if count in (PLAYER_COUNTS[game][-1], 4):
                shot(page, f"board_{game}_{count}_{viewport['width']}_{locale[:2]}")
    assert not problems, "\n".join(problems)


def board_problems(page: Page, where: str, players: list[str], viewport: dict) -> list[str]:
    """What is off the screen, cut, unread or too tall on the board as drawn now."""
    problems = []
    cards = page.locator(".totals li")
    expect(cards).not_to_have_count(0)
    for index in range(cards.count()):
        card = cards.nth(index)
        outline = card.bounding_box()
        if outline["x"] < 0 or outline["x"] + outline["width"] > viewport["width"] + 0.5:
            problems.append(f"{where}: card {index + 1} is off the screen")
        for part in card.locator(".name, .total, .to-go").all():
            box = part.bounding_box()
            if box["x"] < max(outline["x"], 0) - 0.5 or box["x"] + box["width"] > min(
                    outline["x"] + outline["width"], viewport["width"]) + 0.5:
                problems.append(f"{where}: {part.inner_text()!r} drawn at "
                                f"x={box['x']:.0f}–{box['x'] + box['width']:.0f}, out of "
                                f"its card or the screen")
        name = card.locator(".name")
        if name.evaluate("name => name.scrollWidth > name.clientWidth + 1"):
            problems.append(f"{where}: the name {name.inner_text()!r} is cut")
    spoken = page.locator(".totals").evaluate(
        "list => [...list.querySelectorAll('li')].map((card) => [...card.childNodes]"
        ".filter((node) => !(node.getAttribute && node.getAttribute('aria-hidden')))"
        ".map((node) => node.textContent).join(' '))")
    for player in players:
        if not any(player in words for words in spoken):
            problems.append(f"{where}: {player} is not read out")
    # The buttons a player taps after a hand (Burro) name each player whole: "Christo…"
    # could be two players.
    for name in page.locator(".player-buttons .name").all():
        if name.evaluate("name => name.scrollWidth > name.clientWidth + 1"):
            problems.append(f"{where}: the button of {name.inner_text()!r} cuts the name")
    height = page.locator(".scoreboard").bounding_box()["height"]
    if viewport is TALL and height > BOARD_MAX_PX:
        problems.append(f"{where}: the header is {height:.0f} px tall")
    return problems
