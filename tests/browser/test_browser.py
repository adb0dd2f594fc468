"""Real-browser tests: the flows a player uses on a phone at the card table.

Chromium (Debian's) runs a 390 px wide touch phone against the app served on a free port.
Every request to the htmx CDN is aborted, as at a table without internet: the pages must
fall back to the vendored htmx. Screenshots go to tests/browser/screenshots/ for a human to look at.
"""

import re

import pytest
from playwright.sync_api import Page, expect

from phone import expect_totals, player_button, shot

pytestmark = pytest.mark.browser

PLAYERS = ("Anna", "Ben", "Carla", "Dan")

# Strings a German reader must never see in English (each one's translation differs).
ENGLISH_ONLY = {
    "home": ["Score sheets, rules checks and the rules for the card table.", "New match",
             "Rules check", "Spanish trick game", "Burro: who won this trick?"],
    "new": ["Players", "List the players in the order of play", "deals first",
            "+ Add player", "Rules", "Whoever is left holding cards gets a penalty point.",
            "Penalty limit (Burro): whoever reaches it loses"],
    "sheet": ["Who is left holding cards?", "Penalty points", "to go", "deals,",
              "Hand 1: ", "Undo last hand", "Hands (tap a number to correct it)",
              "Marked: the hand's burro.", "Players are listed in the order of play"],
    "checker": ["Burro: who won this trick?", "Ranks from high to low:",
                "Cards in the order played", "Player 1 (lead)", "is the highest heart",
                "wins the trick and leads next", "Remove last"],
}


# --- Fixtures ------------------------------------------------------------------------------


# --- Helpers -------------------------------------------------------------------------------


def fill_new_match(page: Page, names, limit: int | None = None, dealer: int = 0) -> None:
    """On the new-match form: the names in order, the penalty limit, who deals first."""
    for seat, name in enumerate(names):
        page.locator("input[name=players]").nth(seat).fill(name)
    if limit is not None:
        page.locator("input[name=limit]").fill(str(limit))
    page.locator("input[name=dealer]").nth(dealer).check()


def start_button(page: Page):
    return page.locator("button.primary[name=action][value=start]")


def new_match_via_api(page: Page, players=PLAYERS, hands=(), **options) -> str:
    """Arrange a match quickly through the JSON API; returns its sheet's path."""
    created = page.request.post("/api/v1/matches", data={
        "game": "burro", "players": list(players), "options": options})
    assert created.status == 201, created.text()
    body = created.json()
    for seat in hands:
        added = page.request.post(f"/api/v1/matches/{body['token']}/hands",
                                  data={"burro": seat})
        assert added.status == 201, added.text()
    return f"/m/{body['token']}"


def english_left_over(page: Page, screen: str) -> list[str]:
    text = page.locator("body").inner_text()
    return [phrase for phrase in ENGLISH_ONLY[screen] if phrase in text]


# --- 1. A whole Burro match in English -----------------------------------------------------

def test_burro_match_from_home_to_the_end_banner(page: Page):
    page.goto("/")
    page.locator("a.tile", has_text="Burro").first.tap()
    expect(page.get_by_role("heading", name="New Burro match")).to_be_visible()
    fill_new_match(page, PLAYERS, limit=3, dealer=1)  # Ben deals first
    shot(page, "en_new_match_filled", full_page=True)
    start_button(page).tap()

    header = page.locator(".scoreboard .next")
    expect(header).to_be_visible()
    # The sheet is a page of its own: a reload or a shared link must show it again. Checked
    # here, asserted at the end, so that a wrong address does not hide the rest of the flow.
    address_after_start = (page.url, page.title())
    # Dealing passes down the list; the dealer's next player leads.
    expect(header).to_contain_text("Hand 1: Ben deals, Carla leads.")
    expect(page.locator("#sheet > .unit")).to_contain_text("Penalty points · limit 3")
    expect_totals(page, 0, 0, 0, 0)
    expect(page.locator(".totals li.dealer .name")).to_have_text("Ben")
    expect(page.locator(".totals .to-go")).to_have_text(["3 to go"] * 4)
    expect(page.get_by_role("heading", name="Who is left holding cards?")).to_be_visible()

    toast = page.locator(".toast")
    steps = [  # (burro, toast, totals after, header after)
        ("Anna", "Hand 1: Anna +1 · Undo", (1, 0, 0, 0), "Hand 2: Carla deals, Dan leads."),
        ("Ben", "Hand 2: Ben +1 · Undo", (1, 1, 0, 0), "Hand 3: Dan deals, Anna leads."),
        ("Carla", "Hand 3: Carla +1 · Undo", (1, 1, 1, 0), "Hand 4: Anna deals, Ben leads."),
    ]
    for burro, saved, totals, next_hand in steps:
        player_button(page, burro).tap()
        expect(toast).to_contain_text(saved)
        expect_totals(page, *totals)
        expect(header).to_contain_text(next_hand)
    expect(page.locator(".totals .to-go")).to_have_text(["2 to go", "2 to go", "2 to go",
                                                          "3 to go"])

    # Carla was tapped by mistake: the toast's Undo takes hand 3 back.
    toast.get_by_role("button", name="Undo", exact=True).tap()
    expect(toast).to_contain_text("Hand 3 taken back")
    expect_totals(page, 1, 1, 0, 0)
    expect(header).to_contain_text("Hand 3: Dan deals, Anna leads.")
    expect(page.locator(".history tbody tr")).to_have_count(2)
    shot(page, "en_sheet_mid_match", full_page=True)
    shot(page, "en_sheet_mid_match_viewport")

    player_button(page, "Anna").tap()
    expect(toast).to_contain_text("Hand 3: ")
    expect_totals(page, 2, 1, 0, 0)
    expect(header).to_contain_text("Hand 4: Anna deals, Ben leads.")
    player_button(page, "Anna").tap()
    expect(toast).to_contain_text("Hand 4: ")
    expect_totals(page, 3, 1, 0, 0)

    banner = page.locator(".banner")
    expect(banner.get_by_role("heading", name="Match over")).to_be_visible()
    expect(banner).to_contain_text("Anna reached the limit: the burro!")
    expect(banner.locator(".winners")).to_have_text("Winners: Carla, Dan")
    expect(banner.get_by_role("link", name="Play again with the same players")).to_be_visible()
    expect(header).to_contain_text("Match over after 4 hands.")
    expect(page.locator(".player-buttons button")).to_have_count(0)
    expect(page.get_by_role("heading", name="Who is left holding cards?")).to_have_count(0)
    expect(page.locator(".totals li.lost .name")).to_have_text("Anna")
    expect(page.locator(".totals li.won .name")).to_have_text(["Carla", "Dan"])
    expect(page.locator(".history tbody tr")).to_have_count(4)
    shot(page, "en_sheet_finished", full_page=True)

    url, title = address_after_start
    assert re.search(r"/m/[^/?]+$", url), f"after Start the address is still {url}"
    assert title.startswith("Anna · Ben · Carla · Dan"), f"after Start the title is {title!r}"


def test_htmx_falls_back_offline_and_a_tap_updates_the_sheet_in_place(page: Page,
                                                                      cdn_requests):
    page.goto(new_match_via_api(page))
    assert cdn_requests, "the page should have tried the CDN first"
    assert page.evaluate("typeof window.htmx") == "object", "the vendored htmx did not load"
    assert page.evaluate("window.htmx.version") == "2.0.11"
    page.evaluate("window.__marker = 1")
    with page.expect_request(lambda request: request.method == "POST") as posted:
        player_button(page, "Carla").tap()
    assert posted.value.headers.get("hx-request") == "true"
    expect(page.locator(".toast")).to_contain_text("Hand 1: ")
    expect_totals(page, 0, 0, 1, 0)
    assert page.evaluate("window.__marker") == 1, "the tap reloaded the whole page"


# --- 2. German ------------------------------------------------------------------------------

@pytest.mark.parametrize("locale", ["de-DE"])
def test_german_phone_plays_a_short_match_in_german(page: Page):
    # Strings from translations/de/LC_MESSAGES/messages.po; the browser's language decides.
    page.goto("/")
    expect(page.locator("html")).to_have_attribute("lang", "de")
    expect(page.get_by_role("button", name="DE", exact=True)).to_have_attribute(
        "aria-pressed", "true")
    expect(page.locator(".lead")).to_have_text(
        "Spielzettel, Prüfhilfen und Regeln für den Kartentisch.")
    expect(page.get_by_role("heading", name="Neue Partie")).to_be_visible()
    expect(page.locator(".topbar nav")).to_contain_text("Prüfhilfen")
    left = {"home": english_left_over(page, "home")}
    shot(page, "de_home", full_page=True)

    page.locator("a.tile", has_text="Burro").first.tap()
    expect(page.get_by_role("heading", name="Neue Burro-Partie")).to_be_visible()
    expect(page.locator("legend").first).to_have_text("Spieler")
    expect(page.get_by_label("Strafpunktgrenze (Burro): Wer sie erreicht, verliert")
           ).to_be_visible()
    expect(page.locator(".player-rows .deals").first).to_have_text("gibt zuerst")
    left["new"] = english_left_over(page, "new")
    fill_new_match(page, ["Anna", "Ben", "Ben", "Dan"], limit=2)
    start_button(page).tap()
    expect(page.get_by_role("alert")).to_have_text(
        "„Ben“ steht zweimal in der Liste: Gib jedem Spieler einen eigenen Namen.")
    fill_new_match(page, PLAYERS, limit=2)  # Anna deals first
    shot(page, "de_new_match", full_page=True)
    expect(start_button(page)).to_have_text("Starten")
    start_button(page).tap()

    header = page.locator(".scoreboard .next")
    expect(header).to_contain_text("Runde 1: Anna gibt, Ben spielt aus.")
    expect(page.locator("#sheet > .unit")).to_contain_text("Strafpunkte · Grenze 2")
    expect(page.locator(".totals .dealer-mark")).to_have_text("gibt")
    expect(page.get_by_role("heading", name="Wer hat am Ende noch Karten?")).to_be_visible()
    toast = page.locator(".toast")
    player_button(page, "Ben").tap()
    expect(toast).to_contain_text("Runde 1: ")
    expect_totals(page, 0, 1, 0, 0)
    expect(header).to_contain_text("Runde 2: Ben gibt, Carla spielt aus.")
    expect(page.locator(".totals .to-go")).to_have_text(["noch 2", "noch 1", "noch 2",
                                                          "noch 2"])
    left["sheet"] = english_left_over(page, "sheet")
    shot(page, "de_sheet_mid_match", full_page=True)

    toast.get_by_role("button", name="Rückgängig", exact=True).tap()
    expect(toast).to_contain_text(
        "Runde 1 zurückgenommen; sie bleibt in der Liste der Änderungen.")
    expect_totals(page, 0, 0, 0, 0)
    player_button(page, "Ben").tap()
    expect(toast).to_contain_text("Runde 1: ")
    player_button(page, "Ben").tap()
    expect(toast).to_contain_text("Runde 2: ")

    banner = page.locator(".banner")
    expect(banner.get_by_role("heading", name="Partie beendet")).to_be_visible()
    expect(banner).to_contain_text("Ben hat die Grenze erreicht und ist der Burro!")
    expect(banner.locator(".winners")).to_have_text("Gewinner: Anna, Carla, Dan")
    expect(banner.get_by_role("link", name="Noch mal mit denselben Spielern")).to_be_visible()
    expect(page.locator(".player-buttons button")).to_have_count(0)
    expect(page.locator("details.changes summary")).to_have_text("1 Änderung")
    left["sheet"] += english_left_over(page, "sheet")
    shot(page, "de_sheet_finished", full_page=True)

    # German tables write jack and queen as B (Bube) and D (Dame).
    page.goto("/burro/trick?plays=5H+JH+2H+7H")
    expect(page.locator(".verdict")).to_contain_text(
        "B♥ ist das höchste Herz: Spieler 2 gewinnt den Stich und spielt als Nächster aus.")
    expect(page.locator(".hint").first).to_contain_text("K D B 7 6 5 4 3 2 A")
    left["checker"] = english_left_over(page, "checker")
    shot(page, "de_trick_checker", full_page=True)

    left = {screen: phrases for screen, phrases in left.items() if phrases}
    assert not left, f"English left on German pages: {left}"


def test_language_switch_persists_across_page_loads(page: Page):
    page.goto("/")
    expect(page.locator("html")).to_have_attribute("lang", "en")
    page.locator("a.tile[href='/burro/new']").tap()
    expect(page).to_have_url(re.compile(r"/burro/new$"))

    page.get_by_role("button", name="DE", exact=True).tap()
    # Back on the same page, now in German.
    expect(page).to_have_url(re.compile(r"/burro/new$"))
    expect(page.locator("html")).to_have_attribute("lang", "de")
    expect(page.get_by_role("button", name="DE", exact=True)).to_have_attribute(
        "aria-pressed", "true")
    expect(page.get_by_role("button", name="EN", exact=True)).to_have_attribute(
        "aria-pressed", "false")
    assert {"name": "lang", "value": "de"}.items() <= next(
        c for c in page.context.cookies() if c["name"] == "lang").items()

    page.reload()
    expect(page.locator("html")).to_have_attribute("lang", "de")
    page.goto("/burro/trick")
    expect(page.locator("html")).to_have_attribute("lang", "de")
    expect(page.locator(".picker")).to_contain_text("B♥")  # German rank letters

    page.get_by_role("button", name="EN", exact=True).tap()
    expect(page).to_have_url(re.compile(r"/burro/trick$"))
    expect(page.locator("html")).to_have_attribute("lang", "en")
    page.goto("/")
    expect(page.locator("html")).to_have_attribute("lang", "en")
    expect(page.get_by_role("button", name="EN", exact=True)).to_have_attribute(
        "aria-pressed", "true")


# --- 3. Correcting a hand ------------------------------------------------------------------

def test_correcting_a_hand_changes_totals_and_keeps_the_old_entry(page: Page):
    # Hands so far: Anna, Ben, Anna.
    page.goto(new_match_via_api(page, hands=(0, 1, 0), limit=5))
    expect_totals(page, 2, 1, 0, 0)

    page.get_by_role("link", name="Correct hand 2").tap()
    expect(page).to_have_url(re.compile(r"/hands/2$"))
    editing = page.locator(".panel.editing")
    expect(editing.get_by_role("heading", name="Correct hand 2")).to_be_visible()
    expect(editing.locator("button.marked .name")).to_have_text("Ben")
    shot(page, "en_correct_hand_2", full_page=True)

    player_button(page, "Dan").tap()
    expect(page.locator(".toast")).to_contain_text(
        "Hand 2 corrected; the old entry stays in the list of changes.")
    expect_totals(page, 2, 0, 0, 1)
    expect(page.locator(".history tbody tr").nth(1).locator("td")).to_have_text(
        ["1", "0", "0", "1"])
    expect(page.locator(".history tbody tr").nth(2).locator("td")).to_have_text(
        ["2", "0", "0", "1"])

    changes = page.locator("details.changes")
    expect(changes.locator("summary")).to_have_text("1 change")
    changes.locator("summary").tap()
    expect(changes.locator("li")).to_have_count(1)
    expect(changes.locator("li")).to_contain_text(
        re.compile(r"Hand 2 before its correction:\s*Ben"))
    expect(changes.locator("li")).to_be_visible()
    # The entry panel is back for the next hand.
    expect(page.get_by_role("heading", name="Who is left holding cards?")).to_be_visible()
    shot(page, "en_sheet_after_correction", full_page=True)


# --- 4. Trick checker -----------------------------------------------------------------------

def test_trick_checker_settles_the_seed_example(page: Page):
    page.goto("/")
    page.get_by_role("link", name="Burro: who won this trick?").tap()
    expect(page.get_by_role("heading", name="Burro: who won this trick?")).to_be_visible()
    page.evaluate("window.__marker = 1")

    plays = page.locator(".plays li")
    # Anna leads 5♥, Ben J♥, Carla 2♥ (after drawing), Dan 7♥ (seed 001, "Playing a trick").
    for count, card in enumerate(["5♥", "J♥", "2♥", "7♥"], start=1):
        page.locator(".picker").get_by_role("button", name=card, exact=True).tap()
        expect(plays).to_have_count(count)
        expect(plays.nth(count - 1)).to_contain_text(card)
        expect(page.locator(".picker").get_by_role("button", name=card, exact=True)
               ).to_be_disabled()
        if count == 1:
            expect(page.locator(".checker")).to_contain_text("Now add the next player's card.")

    verdict = page.locator(".verdict")
    expect(verdict).to_contain_text(
        "J♥ is the highest heart: player 2 wins the trick and leads next.")
    expect(page.locator(".plays li.winner")).to_contain_text("Player 2")
    expect(page.locator(".plays li.winner")).to_contain_text("J♥")
    expect(page.locator(".plays .card.red")).to_have_count(4)  # red suits red
    expect(page.locator("input[name=plays]")).to_have_value("5♥ J♥ 2♥ 7♥")
    expect(page).to_have_url(re.compile(r"/burro/trick\?deck=40&plays=5H\+JH\+2H\+7H$"))
    assert page.evaluate("window.__marker") == 1, "a picker tap reloaded the whole page"
    shot(page, "en_trick_checker_seed_example", full_page=True)
    shot(page, "en_trick_checker_viewport")

    # The pushed URL is the trick: loading it again gives the same verdict.
    page.reload()
    expect(verdict).to_contain_text(
        "J♥ is the highest heart: player 2 wins the trick and leads next.")


# --- 5. A refused entry ---------------------------------------------------------------------

def test_duplicate_name_is_refused_and_everything_typed_is_kept(page: Page):
    page.goto("/burro/new")
    fill_new_match(page, ["Anna", "Ben", "Anna", "Dan"], limit=7, dealer=2)
    start_button(page).tap()

    error = page.get_by_role("alert")
    expect(error).to_have_text(
        "“Anna” is in the list twice: give every player their own name.")
    # Start is at the bottom of a long form: the refusal must come into view, else the
    # player sees nothing happen. Checked here, asserted at the end.
    shot(page, "en_new_match_duplicate_name_viewport")
    try:
        expect(error).to_be_in_viewport(timeout=1500)
        error_out_of_view = None
    except AssertionError:
        error_out_of_view = error.bounding_box()
    expect(page).to_have_url(re.compile(r"/burro/new$"))
    names = page.locator("input[name=players]")
    for seat, name in enumerate(["Anna", "Ben", "Anna", "Dan"]):
        expect(names.nth(seat)).to_have_value(name)
    expect(page.locator("input[name=limit]")).to_have_value("7")
    expect(page.locator("input[name=dealer]").nth(2)).to_be_checked()
    expect(page.locator(".sheet")).to_have_count(0)
    shot(page, "en_new_match_duplicate_name", full_page=True)

    # Fixing the name is all it takes.
    names.nth(2).fill("Carla")
    start_button(page).tap()
    expect(page.locator(".scoreboard .next")).to_contain_text(
        "Hand 1: Carla deals, Dan leads.")
    expect(page.locator("#sheet > .unit")).to_contain_text("limit 7")

    assert error_out_of_view is None, (
        f"the refusal was shown out of view, at {error_out_of_view} (viewport 390×844)")


# --- 8. The rules: search as you type, open a hit, switch language --------------------------

@pytest.mark.parametrize("locale", ["de-DE"])
def test_rules_search_as_you_type_and_open_a_hit(page: Page):
    page.goto("/")
    page.get_by_role("navigation").get_by_role("link", name="Regeln").click()
    expect(page).to_have_url(re.compile(r"/rules$"))
    page.evaluate("window.__marker = 1")
    page.locator("#rules-q").press_sequentially("Stapel", delay=30)
    results = page.locator("#results .hits a")
    expect(results.first).to_be_visible()
    expect(page.locator("#results mark").first).to_have_text(re.compile("stapel", re.I))
    assert page.evaluate("window.__marker") == 1, "typing reloaded the page"
    expect(page).to_have_url(re.compile(r"/rules/search\?q=Stapel"))
    shot(page, "de_rules_search")
    hit = page.locator("#results .hits a", has_text="Ein Zug").first
    hit.click()
    expect(page).to_have_url(re.compile(r"/rules/burraco\?lang=de#turn$"))
    section = page.locator("section#turn")
    expect(section).to_be_in_viewport()
    expect(section.locator("h2")).to_have_text("Ein Zug")
    shot(page, "de_rules_section")
    section.get_by_role("link", name="English").click()
    expect(page).to_have_url(re.compile(r"/rules/burraco\?lang=en#turn$"))
    expect(page.locator("section#turn h2")).to_have_text("A turn")
    expect(page.locator("section#turn")).to_be_in_viewport()


def test_a_refusal_links_to_its_rule(page: Page):
    page.goto("/burro/trick?plays=5H+9H")
    page.get_by_role("link", name="Why?").click()
    expect(page).to_have_url(re.compile(r"/rules/burro#variant-48-cards$"))
    expect(page.locator("section#variant-48-cards")).to_be_in_viewport()
