"""axe-core in Chromium on every page type a player meets, in English and German, in light
and dark.

A page type is a screen a player meets that differs from the others in what axe reads: its
own template, or a panel, banner, form or notice no other screen shows. Each game's sheet is
one (its panel differs), and so are a finished sheet with its banner, a hand being
corrected, the watch-only sheet, the sheet offline with a game waiting, each checker with a
verdict, a refused form. Each page type is checked once per language, in one state that
shows the most of it (a sheet with hands enough to draw its chart, a toast open, every fold
of the home page open); the tests of the flows do not run axe again.

UX.md asks for "strong contrast in light and dark mode"; axe checks that, and the names,
labels, headings and ARIA a screen reader relies on, on the page as the phone draws it
(390×844, the bundled htmx; see conftest.py).
"""

import re

import pytest
from helpers import FOUR, HANDS, MATCHES
from playwright.sync_api import Page, expect

from phone import axe, readable, shot
from views.games import all_games

pytestmark = pytest.mark.browser


def sheet(client, game: str, players: list[str], hands: list[dict], options=None) -> str:
    """A match started and its hands saved through the API; the sheet's path."""
    started = client.post(MATCHES, json={"game": game, "players": players,
                                         "options": options or {}})
    token = started.json["token"]
    for hand in hands:
        saved = client.post(f"{MATCHES}/{token}/hands", json=hand)
        assert saved.status_code == 201, saved.json
    return f"/m/{token}"


def at(path: str):
    """A page opened by its address."""
    return lambda page, client: page.goto(path)


def at_sheet(game: str, players: list[str], hands: list[dict], options=None, then: str = ""):
    """A sheet with its hands saved (``then``: a page under it, e.g. a hand's correction)."""
    return lambda page, client: page.goto(sheet(client, game, players, hands, options) + then)


def home_with_matches(page: Page, client) -> None:
    """The matches opened on this phone: running, ended, archived, deleted (its toast with
    Undo) and one whose new title was refused, every fold open."""
    tokens = []
    for limit in (5, 1, 5, 5):
        path = sheet(client, "burro", ["Anna", "Ben"], [{"burro": 0}], {"limit": limit})
        # Opened on this phone (its cookies), as the home page lists them.
        assert page.request.get(path).ok
        tokens.append(path.removeprefix("/m/"))
    page.goto("/")
    matches = page.locator("#my-matches")
    for action, token, shown in (("archive", tokens[2], ".archived"),
                                 ("delete", tokens[3], ".toast")):
        page.locator(f'form[action="/m/{token}/{action}"] button').dispatch_event("click")
        matches.locator(shown).wait_for()
    rename = page.locator(f'form[action="/m/{tokens[0]}/title"]')
    rename.evaluate("form => { form.closest('details').open = true; }")
    rename.locator('input[name="title"]').fill("")
    rename.get_by_role("button").click()
    matches.locator(".error").wait_for()
    matches.locator("details").evaluate_all(
        "folds => folds.forEach((details) => { details.open = true; })")
    shot(page, f"home_matches_axe_{page.evaluate('document.documentElement.lang')}",
         full_page=True)


def refused_form(page: Page, client) -> None:
    """The new-match form sent without names: the refusal above the players."""
    page.goto("/burro/new")
    page.locator("button.primary").click()
    page.locator("#new-match .error").wait_for()


# Eight players: every line of the chart, a full scoreboard and a row of eight buttons.
EIGHT = ["Anna", "Ben", "Carla", "Dan", "Eva", "Finn", "Gina", "Hugo"]


def burro_just_saved(page: Page, client) -> None:
    """An eight-player Burro sheet right after a tap saved a hand: the toast with its Undo."""
    page.goto(sheet(client, "burro", EIGHT, [{"burro": seat}
                                             for seat in (0, 1, 1, 2, 3, 3, 3, 5, 6, 7)],
                    {"limit": 5}))
    page.locator(".player-buttons button").first.click()
    page.locator(".toast").wait_for()


def watched(page: Page, client) -> None:
    """The read-only sheet behind a match's view link, with its "Share" opened."""
    token = sheet(client, "burro", FOUR, [HANDS["burro"]]).removeprefix("/m/")
    page.goto("/v/" + client.get(f"{MATCHES}/{token}").json["view_token"])
    page.locator(".share summary").click()


def offline_with_a_game_waiting(page: Page, client) -> None:
    """A Burraco sheet with the wifi gone: "Offline" at the top, a saved game waiting to be
    sent (its greyed row and the line that says so), the next game's preview not checked,
    and "Keep the screen on" pressed."""
    page.goto(sheet(client, "burraco", FOUR, [HANDS["burraco"]]))
    page.locator("[data-wake-lock]").click()
    page.context.set_offline(True)
    page.locator("#panel input[type=number]").first.fill("50")
    page.locator("#preview.unchecked").wait_for()
    page.locator("#panel button.primary").click()
    page.locator("#sheet tr.waiting").wait_for()
    page.locator("#panel input[type=number]").first.fill("30")
    page.locator("#preview.unchecked").wait_for()


def refused_import(page: Page, client) -> None:
    """The import page after a file that is no match: the refusal above the file field."""
    page.goto("/import")
    page.locator("#match-file").set_input_files(
        {"name": "notes.json", "mimeType": "application/json", "buffer": b"{"})
    page.locator("#import-match button.primary").click()
    page.locator("#import-match .error").wait_for()


def new_match_of_three(page: Page, client) -> None:
    """The Burraco form with three names, "other" target typed and round halves offered."""
    page.goto("/burraco/new")
    for row, name in enumerate(["Anna", "Ben", "Carla"]):
        page.locator("input[name=players]").nth(row).fill(name)
    page.locator("input[name=target_choice][value=custom]").check()
    page.locator("input[name=target]").fill("1500")
    page.locator('label[data-players="3"]').wait_for()


def not_kept_offline(page: Page, client) -> None:
    """What the service worker shows offline for a page never opened, in the phone's
    language."""
    lang = page.evaluate("navigator.language.slice(0, 2)")
    page.goto(f"/offline/{lang}")


def search_offline(page: Page, client) -> None:
    """The rules search typed with the wifi gone: the note that it needs the connection."""
    page.goto("/rules")
    page.context.set_offline(True)
    page.locator("#rules-q").fill("pozzetto")
    page.locator("[data-search-offline]").wait_for()


def api_docs(page: Page, client) -> None:
    """The API docs with Swagger UI drawn, one operation opened to try."""
    page.goto("/api/v1/docs")
    page.locator(".opblock-summary", has_text="/api/v1/burraco/meld").first.click()
    page.get_by_role("button", name="Try it out").wait_for()


# The seed's Burraco hand as each side's melds and cards in hand (seed 002, "Abrechnung").
BY_MELD = {"sides": [
    {"melds": [["3H", "4H", "5H", "6H", "7H", "8H", "9H"], "AS AH AD JK"],
     "in_hand": ["7C", "3S"], "pozzetto": "taken", "closed": True},
    {"melds": ["QS QH QD QC QS QH 2D", "4C 5C 6C"], "in_hand": "KS JK", "pozzetto": "taken"}]}
# Each game's sheet, with hands enough to draw its chart.
SHEETS = {
    "burro": burro_just_saved,
    # Two partnerships' long names, a hand entered part by part, a negative total.
    "burraco": at_sheet("burraco", ["Annalena", "Benedikt", "Carolina", "Dario"], [
        HANDS["burraco"], {"sides": [{"total": -50}, {"total": 300}]}]),
    "bura": at_sheet("bura", FOUR, [HANDS["bura"], {"outcome": "wrong_claim", "player": 2}]),
    "burkosel": at_sheet("burkosel", FOUR, [HANDS["burkosel"]]),
    "buraco": at_sheet("buraco", FOUR, [HANDS["buraco"]]),
}
# Each checker with a verdict: its colours and, where refused, its "why?" link.
CHECKERS = {
    "/burro/trick": "/burro/trick?plays=5H JH 2H 7H",
    "/burraco/meld": "/burraco/meld?cards=3H 5S",
    "/buraco/meld": "/buraco/meld?cards=QS QH QD JK 2H",
    "/bura/claim": "/bura/claim?cards=AS 10S KH&pot=4",
    "/bura/trick": "/bura/trick?trump=H&lead=KC 9C&response=AC 6H",
    "/bura/combination": "/bura/combination?trump=H&cards=6H 9H AH",
}
PAGE_TYPES = {
    "home": at("/"),
    "home with matches": home_with_matches,
    "new match": at("/burraco/new"),
    "new match of three, other target": new_match_of_three,
    "new match, refused": refused_form,
    **{f"{game} sheet": arrange for game, arrange in SHEETS.items()},
    "finished sheet": at_sheet("burro", FOUR, [HANDS["burro"]], {"limit": 1}),
    "hand being corrected": at_sheet("burro", FOUR, [HANDS["burro"]], then="/hands/1"),
    # Its sides entered by meld: the ready burracos, the melds' fields and the card picker.
    "hand by meld being corrected": at_sheet("burraco", FOUR, [BY_MELD], then="/hands/1"),
    "watch-only sheet": watched,
    "sheet offline with a game waiting": offline_with_a_game_waiting,
    "checkers": at("/check"),
    **{f"checker {path}": at(verdict) for path, verdict in CHECKERS.items()},
    "rules": at("/rules"),
    "rules of a game": at("/rules/burraco"),
    "rules search": at("/rules/search?q=pozzetto"),
    "rules search offline": search_offline,
    "page not kept, offline": not_kept_offline,
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


def test_every_games_sheet_is_visited():
    """Every game's sheet, with its own panel, is among the page types below."""
    assert list(SHEETS) == list(all_games())


@pytest.mark.parametrize("locale", ["en-US", "de-DE"])
@pytest.mark.parametrize("page_type", PAGE_TYPES)
def test_every_page_type_passes_axe_in_light_and_dark(page: Page, client, page_type):
    PAGE_TYPES[page_type](page, client)
    # UX.md: "strong contrast in light and dark mode".
    found = []
    for scheme in ("light", "dark"):
        page.emulate_media(color_scheme=scheme)
        found += [(scheme, violation) for violation
                  in axe.run(page, context=CHECKED_PART.get(page_type)).response["violations"]]
    assert not found, f"axe on {page_type} ({page.url}):\n{readable(found)}"


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
    page.goto(sheet(client, "burkosel", FOUR, [HANDS["burkosel"]]))
    page.evaluate("window.scrollTo(0, document.body.scrollHeight)")
    points = page.locator("input[name=u0_points]")
    points.evaluate("field => field.scrollIntoView()")
    board = page.locator(".scoreboard").bounding_box()
    assert points.bounding_box()["y"] >= board["y"] + board["height"]
