"""axe-core in Chromium on every page a player meets, in English and German.

UX.md asks for "strong contrast in light and dark mode"; axe checks that, and the names,
labels, headings and ARIA a screen reader relies on, on the page as the phone draws it
(390×844, the bundled htmx; see conftest.py).
"""

import re

import pytest
from playwright.sync_api import Page, expect

from phone import axe, readable

pytestmark = pytest.mark.browser

MATCHES = "/api/v1/matches"
FOUR = ["Anna", "Ben", "Carla", "Dan"]
# One Burraco hand as two sides fill in their cards (the seed's worked example, 410 : 155).
BURRACO_HAND = {"sides": [
    {"table_points": 120, "clean_burracos": 1, "dirty_burracos": 0, "hand_points": 10,
     "pozzetto": "taken", "closed": True},
    {"table_points": 95, "clean_burracos": 0, "dirty_burracos": 1, "hand_points": 40,
     "pozzetto": "taken", "closed": False}]}
# Three players: Anna ran out and played alone with the 18-card pozzetto.
BURRACO_ALONE_HAND = {"alone": 0, **BURRACO_HAND}

CHECKERS = ("/burro/trick", "/burraco/meld", "/buraco/meld", "/bura/claim", "/bura/trick",
            "/bura/combination")
# A verdict adds colours and a "why?" link to the checker: one legal, one refused.
VERDICTS = ("/burro/trick?plays=5H JH 2H 7H", "/burraco/meld?cards=3H 4H 5H",
            "/burraco/meld?cards=3H 5S", "/buraco/meld?cards=QS QH QD JK 2H",
            "/buraco/meld?variant=aberto&cards=QS QH QD", "/bura/claim?cards=AS 10S KH&pot=4",
            "/bura/trick?trump=H&lead=KC 9C&response=AC 6H",
            "/bura/combination?trump=H&cards=6H 9H AH")


def sheet(client, game: str, players: list[str], hand: dict, options=None) -> str:
    """A match started and one hand saved through the API; the sheet's path."""
    started = client.post(MATCHES, json={"game": game, "players": players,
                                         "options": options or {}})
    token = started.json["token"]
    saved = client.post(f"{MATCHES}/{token}/hands", json=hand)
    assert saved.status_code == 201, saved.json
    return f"/m/{token}"


def at(path: str):
    """A page opened by its address."""
    return lambda page, client: page.goto(path)


def at_sheet(game: str, players: list[str], hand: dict, options=None, then: str = ""):
    """A sheet with one saved hand (``then``: a page under it, e.g. a hand's correction)."""
    return lambda page, client: page.goto(sheet(client, game, players, hand, options) + then)


def played_again(page: Page, client) -> None:
    """The new-match form the end banner's "Play again" opens, filled from the old match."""
    page.goto(sheet(client, "burro", FOUR, {"burro": 2}, {"limit": 1}))
    page.locator(".banner a.button").click()
    page.wait_for_url("**/burro/new?again=*")


def refused_form(page: Page, client) -> None:
    """The new-match form sent without names: the refusal above the players."""
    page.goto("/burro/new")
    page.locator("button.primary").click()
    page.locator("#new-match .error").wait_for()


def just_saved(page: Page, client) -> None:
    """A Burro sheet right after a tap saved a hand: the toast with its Undo."""
    page.goto(sheet(client, "burro", FOUR, {"burro": 2}))
    page.locator(".player-buttons button").first.click()
    page.locator(".toast").wait_for()


def watched(page: Page, client) -> None:
    """The read-only sheet behind a match's view link, with its "Share" opened."""
    token = sheet(client, "burro", FOUR, {"burro": 2}).removeprefix("/m/")
    page.goto("/v/" + client.get(f"{MATCHES}/{token}").json["view_token"])
    page.locator(".share summary").click()


def refused_import(page: Page, client) -> None:
    """The import page after a file that is no match: the refusal above the file field."""
    page.goto("/import")
    page.locator("#match-file").set_input_files(
        {"name": "notes.json", "mimeType": "application/json", "buffer": b"{"})
    page.locator("#import-match button.primary").click()
    page.locator("#import-match .error").wait_for()


def offline_with_a_game_waiting(page: Page, client) -> None:
    """A Burraco sheet with the wifi gone: "Offline" at the top, a saved game waiting to be
    sent (its greyed row and the line that says so), the next game's preview not checked,
    and "Keep the screen on" pressed."""
    page.goto(sheet(client, "burraco", FOUR, BURRACO_HAND))
    page.locator("[data-wake-lock]").click()
    page.context.set_offline(True)
    page.locator("#panel input[type=number]").first.fill("50")
    page.locator("#preview.unchecked").wait_for()
    page.locator("#panel button.primary").click()
    page.locator("#sheet tr.waiting").wait_for()
    page.locator("#panel input[type=number]").first.fill("30")
    page.locator("#preview.unchecked").wait_for()


def api_docs(page: Page, client) -> None:
    """The API docs with Swagger UI drawn, one operation opened to try."""
    page.goto("/api/v1/docs")
    page.locator(".opblock-summary", has_text="/api/v1/burraco/meld").first.click()
    page.get_by_role("button", name="Try it out").wait_for()


# Every page a player meets, in the states that add something to look at.
STATES = {
    "home": at("/"),
    **{f"new {game} match": at(f"/{game}/new") for game in ("burro", "burraco", "bura",
                                                             "burkosel", "buraco")},
    "new match, refused": refused_form,
    "new match, played again": played_again,
    "burro sheet": at_sheet("burro", FOUR, {"burro": 2}),
    "burro sheet, just saved": just_saved,
    "burro sheet, a hand being corrected": at_sheet("burro", FOUR, {"burro": 2},
                                                     then="/hands/1"),
    "burro sheet, finished": at_sheet("burro", FOUR, {"burro": 2}, {"limit": 1}),
    "burro sheet, watched by its view link": watched,
    "burraco sheet, offline with a game waiting": offline_with_a_game_waiting,
    "burraco sheet": at_sheet("burraco", FOUR, BURRACO_HAND),
    "burraco sheet, three players": at_sheet("burraco", FOUR[:3], BURRACO_ALONE_HAND),
    "bura sheet": at_sheet("bura", FOUR, {"outcome": "right_claim", "player": 1}),
    "burkosel sheet": at_sheet("burkosel", FOUR, {"card_points": [95, 25], "tricks": [5, 2]}),
    "buraco sheet": at_sheet("buraco", FOUR, {"sides": [
        {"table_points": 250, "clean_buracos": 1, "red_threes": 1, "hand_points": 0,
         "dead_pile": "taken", "went_out": True},
        {"table_points": 80, "hand_points": 30, "dead_pile": "taken", "went_out": False}]}),
    "buraco sheet, three players": at_sheet("buraco", FOUR[:3], {"sides": [
        {"total": 120}, {"total": -35}, {"total": 0}]}),
    "checkers": at("/check"),
    **{f"checker {path}": at(path) for path in CHECKERS + VERDICTS},
    "rules": at("/rules"),
    "rules of burraco": at("/rules/burraco"),
    "rules search": at("/rules/search?q=pozzetto"),
    "page not found": at("/m/no-such-match"),
    "import": at("/import"),
    "import, refused": refused_import,
    "API docs": api_docs,
}
# Swagger UI's own markup has findings that no setting or stylesheet of ours can fix (a button
# inside a button, headings that skip a level): on the API docs, axe checks our part of the
# page. Our stylesheet darkens the viewer's faintest colours all the same.
CHECKED_PART = {"API docs": {"exclude": [["#api-viewer"]]}}


def test_every_checker_is_visited(client):
    """The checkers page lists no checker that the test below leaves out."""
    listed = re.findall(r'class="button" href="([^"]+)"', client.get("/check").text)
    assert sorted(listed) == sorted(CHECKERS)


@pytest.mark.parametrize("locale", ["en-US", "de-DE"])
@pytest.mark.parametrize("state", STATES)
def test_every_page_passes_axe_in_light_and_dark(page: Page, client, state):
    STATES[state](page, client)
    # UX.md: "strong contrast in light and dark mode".
    found = []
    for scheme in ("light", "dark"):
        page.emulate_media(color_scheme=scheme)
        found += [(scheme, violation) for violation
                  in axe.run(page, context=CHECKED_PART.get(state)).response["violations"]]
    assert not found, f"axe on {state} ({page.url}):\n{readable(found)}"


@pytest.mark.parametrize("locale", ["de-DE"])
def test_a_refused_field_is_explained_in_the_players_language(page):
    """UX.md: "Refuse, explain, link" and "Two languages, fully": the app's own message in
    view, not the browser's bubble in the browser's language; what was typed is kept."""
    page.goto("/burro/new")
    for seat, name in enumerate(FOUR):
        page.locator("input[name=players]").nth(seat).fill(name)
    limit = page.locator("input[name=limit]")
    limit.fill("0")
    page.get_by_role("button", name="Starten", exact=True).click()
    refusal = page.locator("#new-match .error")
    expect(refusal).to_contain_text("Die Strafpunktgrenze muss eine ganze Zahl von 1 bis 99 sein.")
    expect(refusal).to_be_in_viewport(ratio=1)
    expect(limit).to_have_value("0")


def test_a_field_scrolled_to_is_not_hidden_under_the_scoreboard(page: Page, client):
    """UX.md: the totals "stay visible while scrolling", so the scoreboard sticks to the top;
    a field brought into view (to correct a refused entry, or by the keyboard's "next") must
    land below it, not under it."""
    page.goto(sheet(client, "burkosel", FOUR, {"card_points": [95, 25], "tricks": [5, 2]}))
    page.evaluate("window.scrollTo(0, document.body.scrollHeight)")
    points = page.locator("input[name=u0_points]")
    points.evaluate("field => field.scrollIntoView()")
    board = page.locator(".scoreboard").bounding_box()
    assert points.bounding_box()["y"] >= board["y"] + board["height"]
