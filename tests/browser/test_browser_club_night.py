"""A whole club night in Chromium: the organiser starts it in the form on a phone, two tables
of four phones play two turns of three games and confirm with their pairs' codes, the room's
screen follows on a TV, and the organiser's page tells every table's state as it changes,
all without a reload. Screenshots: tests/browser/screenshots/club_night_*.png."""

from contextlib import ExitStack, contextmanager

import pytest
from playwright.sync_api import Locator, Page, expect
from test_browser_live import server  # noqa: F401  (Tablemate served as `make run` does)
from test_wake_lock import HOLDING, WATCH_LOCKS

from phone import (
    TABLE_LATENCY_MS,
    axe,
    expect_totals,
    fill_on_paper,
    open_phone,
    readable,
    save_button,
    shot,
    with_latency,
)

pytestmark = pytest.mark.browser

PAIRS = ["Anna & Carla", "Bruno & Dario", "Elena & Fabio", "Gina & Hugo"]
ANNA, BRUNO, ELENA, GINA = PAIRS
TV = {"width": 1920, "height": 1080}
PHONE = {"width": 390, "height": 844}
SMALL_PHONE = {"width": 360, "height": 640}


def accessibility(page: Page, context: str, where: str, found: list) -> None:
    """axe's findings on ``context``, in light and dark."""
    for scheme in ("light", "dark"):
        page.emulate_media(color_scheme=scheme)
        found += [(f"{where}, {scheme}", violation) for violation
                  in axe.run(page, context=context).response["violations"]]
    page.emulate_media(color_scheme="light")


@contextmanager
def room_screen(browser, live_server: str, link: str):
    """The room's TV on the screen's link: nothing to press, no htmx to wait for; its wake
    locks watched."""
    context = browser.new_context(base_url=live_server, viewport=TV)
    context.add_init_script(WATCH_LOCKS)
    context.set_default_timeout(5000)
    screen = context.new_page()
    errors = []
    screen.on("pageerror", lambda error: errors.append(str(error)))
    screen.goto(link)
    yield screen
    context.close()
    assert not errors, f"script errors on the screen: {errors}"


def enter_game(phone: Page, ours: int, theirs: int) -> None:
    """One game, each pair's total counted on paper."""
    fill_on_paper(phone, ours, theirs)
    save_button(phone).tap()


def play(phones: list[Page], games: list[tuple[int, int]], before=(0, 0)) -> None:
    """The first phone enters the games (after games that made ``before``); the other three
    see each arrive by themselves."""
    ours, theirs = before
    for game in games:
        enter_game(phones[0], *game)
        ours, theirs = ours + game[0], theirs + game[1]
        for phone in phones:
            expect_totals(phone, ours, theirs)


def confirm_form(phone: Page, side: int) -> Locator:
    return phone.locator("form.confirm-pair").filter(
        has=phone.locator(f'input[name=side][value="{side}"]'))


def confirm(phone: Page, side: int, code: str) -> None:
    """A pair types its code and confirms the result on its phone."""
    form = confirm_form(phone, side)
    form.locator("input[name=code]").fill(code)
    form.locator("button").tap()


def table_card(organiser: Page, turn: int, table: int) -> Locator:
    return organiser.locator(f"section.event-turn:has(#turn-{turn}) li.event-table").nth(table - 1)


def expect_state(organiser: Page, turn: int, table: int, state: str, **wait) -> None:
    expect(table_card(organiser, turn, table).locator(".state")).to_have_text(state, **wait)


def expect_standings(board: Page, rows: list[tuple[str, int]]) -> None:
    """The night's standings as the page shows them: each pair and its Victory Points."""
    standings = board.locator(".event-standings").first
    expect(standings.locator("tbody th")).to_have_text([name for name, _vp in rows])
    expect(standings.locator("tbody .vp")).to_have_text([str(vp) for _name, vp in rows])


def sheet_links(organiser: Page, turn: int) -> list[str]:
    cards = organiser.locator(f"section.event-turn:has(#turn-{turn}) li.event-table")
    return [cards.nth(index).get_by_role("link", name="Open the table's sheet")
            .get_attribute("href") for index in range(cards.count())]


def start_night(organiser: Page, found: list | None = None) -> None:
    """The organiser starts the night in the form: four pairs, Mitchell, two turns of three
    games; the organiser's page opens."""
    organiser.goto("/events/new")
    if found is not None:
        accessibility(organiser, "#new-event", "new club night", found)
    organiser.get_by_label("Title").fill("Friday night")
    organiser.get_by_label("Pairs, one a line").fill("\n".join(PAIRS))
    organiser.get_by_role("radio", name="Mitchell:").check()
    organiser.get_by_label("Turns").fill("2")
    organiser.locator("label.chip", has_text="3").tap()
    if found is not None:
        shot(organiser, "club_night_new", full_page=True)
    organiser.get_by_role("button", name="Start the club night").tap()
    expect(organiser.locator("#board h1")).to_have_text("Friday night")


def test_a_club_night_of_two_tables_runs_on_phones_and_the_room_screen(
        page: Page, browser, live_server, locale, cdn_requests):
    organiser, found = page, []
    start_night(organiser, found)
    # The page stays this one page all night: the marker would go with a reload.
    organiser.evaluate("window.sameOrganiserPage = true")

    # The organiser opens the codes' fold to read them out; it stays open as the night goes.
    organiser.locator(".pair-codes summary").tap()
    codes = dict(zip(PAIRS, organiser.locator(".pair-codes td.code").all_text_contents()))
    screen_link = organiser.get_by_role("link", name="The standings screen").get_attribute("href")
    expect(table_card(organiser, 1, 1).locator(".pairs")).to_have_text(f"{ANNA} v {ELENA}")
    expect(table_card(organiser, 1, 2).locator(".pairs")).to_have_text(f"{BRUNO} v {GINA}")
    expect_state(organiser, 1, 1, "Not started")

    with ExitStack() as opened:
        screen = opened.enter_context(room_screen(browser, live_server, screen_link))
        # The TV stays lit all night, asked for by the page itself.
        screen.wait_for_function(HOLDING)
        phones = [[opened.enter_context(open_phone(browser, live_server, locale, cdn_requests))
                   for _phone in range(4)] for _table in range(2)]
        for table, link in zip(phones, sheet_links(organiser, 1)):
            for phone in table:
                phone.goto(link)

        # Turn 1, table 1: the organiser sees it begin, and wait for the pairs.
        play(phones[0], [(410, 155)])
        expect_state(organiser, 1, 1, "Playing: game 2 of 3")
        play(phones[0], [(300, 200), (100, 150)], before=(410, 155))
        expect_state(organiser, 1, 1, "Waiting for confirmation")
        expect(screen.locator(".screen-table").first.locator(".state")).to_have_text(
            "Waiting for confirmation")
        play(phones[1], [(200, 300)])
        expect_state(organiser, 1, 2, "Playing: game 2 of 3")
        shot(organiser, "club_night_organiser", full_page=True)
        shot(organiser, "club_night_organiser_top")
        organiser.set_viewport_size(SMALL_PHONE)
        shot(organiser, "club_night_organiser_360", full_page=True)
        organiser.set_viewport_size(PHONE)
        accessibility(organiser, "#board", "organiser's page", found)

        # A wrong code is refused, saying whose code it wanted; the right one counts.
        box = phones[0][1].locator(".confirm-result")
        expect(box).to_be_visible()
        confirm(phones[0][1], 1, codes[ANNA])
        refused = confirm_form(phones[0][1], 1)
        expect(refused.locator(".error")).to_have_text(
            f"That is not the code of {ELENA}. The organiser has it.")
        expect(refused.locator("input[name=code]")).to_have_value(codes[ANNA])
        box.scroll_into_view_if_needed()
        shot(phones[0][1], "club_night_confirm_refused")
        confirm(phones[0][0], 0, codes[ANNA])
        expect_state(organiser, 1, 1, f"Waiting for confirmation · {ANNA} confirmed")
        for phone in phones[0]:
            expect(phone.locator(".confirm-result .confirmed")).to_have_text(f"{ANNA} confirmed.")
        box.scroll_into_view_if_needed()
        shot(phones[0][1], "club_night_confirm")
        accessibility(phones[0][1], ".confirm-result", "confirmation box", found)
        confirm(phones[0][1], 1, codes[ELENA])
        expect_state(organiser, 1, 1, "Confirmed")
        for phone in phones[0]:
            expect(phone.locator(".confirm-result .confirmed")).to_contain_text(
                "Result confirmed: it counts in the standings.")
        expect_standings(screen, [(ANNA, 13), (ELENA, 7), (BRUNO, 0), (GINA, 0)])

        play(phones[1], [(150, 250), (100, 100)], before=(200, 300))
        # One pair types its code while the other confirms: the news of that keeps it.
        confirm_form(phones[1][3], 1).locator("input[name=code]").fill(codes[GINA])
        confirm(phones[1][2], 0, codes[BRUNO])
        expect(phones[1][3].locator(".confirm-result .confirmed")).to_have_text(
            f"{BRUNO} confirmed.")
        confirm_form(phones[1][3], 1).locator("button").tap()
        expect_state(organiser, 1, 2, "Confirmed")
        expect_standings(screen, [(ANNA, 13), (GINA, 12), (BRUNO, 8), (ELENA, 7)])
        expect(screen.locator(".event-standings .leader th")).to_have_text([ANNA])

        # Turn 2 opens with its new seating: North–South stay, East–West move up a table.
        expect(organiser.locator("#board .lead")).to_have_text("Turn 2 of 2")
        expect(table_card(organiser, 2, 1).locator(".pairs")).to_have_text(f"{ANNA} v {GINA}")
        expect(table_card(organiser, 2, 2).locator(".pairs")).to_have_text(f"{BRUNO} v {ELENA}")
        expect(screen.locator("#screen-turn")).to_have_text("Turn 2")
        expect(screen.locator(".screen-table .pairs")).to_have_text(
            [f"{ANNA} v {GINA}", f"{BRUNO} v {ELENA}"])
        for table, link in zip(phones, sheet_links(organiser, 2)):
            for phone in table:
                phone.goto(link)
        play(phones[0], [(100, 500), (200, 200), (100, 100)])
        play(phones[1], [(300, 100), (100, 100), (100, 100)])
        expect_state(organiser, 2, 1, "Waiting for confirmation")

        # One pair confirms on the table's wifi, 300 ms away.
        with_latency(phones[0][1], TABLE_LATENCY_MS)
        confirm(phones[0][1], 1, codes[GINA])
        expect(phones[0][1].locator(".confirm-result .confirmed")).to_have_text(
            f"{GINA} confirmed.")
        # The other pair taps once its phone shows that: the box grows shorter as it comes.
        expect(phones[0][0].locator(".confirm-result .confirmed")).to_have_text(
            f"{GINA} confirmed.")
        confirm(phones[0][0], 0, codes[ANNA])
        expect_state(organiser, 2, 1, "Confirmed")

        # Both pairs of table 2 confirm at the same moment: the result counts once. Their
        # phones are on the table's wifi, so both taps are on their way before the news of
        # either can replace the other's sheet (a tap on a sheet being replaced is lost,
        # and the code stays typed for the next tap).
        for side, (phone, pair) in enumerate(((phones[1][0], BRUNO), (phones[1][1], ELENA))):
            with_latency(phone, TABLE_LATENCY_MS)
            confirm_form(phone, side).locator("input[name=code]").fill(codes[pair])
        with phones[1][0].expect_response(lambda r: r.url.endswith("/confirm")), \
                phones[1][1].expect_response(lambda r: r.url.endswith("/confirm")):
            for side, phone in enumerate(phones[1][:2]):
                confirm_form(phone, side).locator("button").evaluate("button => button.click()")
        expect_state(organiser, 2, 2, "Confirmed")
        expect(organiser.locator("#board .lead")).to_have_text("The club night is over")
        expect_standings(screen, [(GINA, 26), (BRUNO, 20), (ANNA, 19), (ELENA, 15)])
        expect(organiser.locator(".event-log li")).to_have_count(8)
        expect(screen.locator(".event-standings tbody .played")).to_have_text(["2"] * 4)
        shot(screen, "club_night_screen")
        accessibility(screen, "#board", "room's screen at 1920×1080", found)
        screen.set_viewport_size(PHONE)
        shot(screen, "club_night_screen_390", full_page=True)
        accessibility(screen, "#board", "room's screen at 390×844", found)
        screen.set_viewport_size(TV)

        # A correction: the organiser reopens table 1, the table corrects its first game,
        # both pairs confirm again, and the standings change with it.
        table_card(organiser, 2, 1).get_by_role("button", name="Reopen table 1").tap()
        expect_state(organiser, 2, 1, "Waiting for confirmation")
        expect_standings(screen, [(BRUNO, 20), (ELENA, 15), (ANNA, 13), (GINA, 12)])
        entering = phones[0][0]
        expect(entering.locator("#panel")).to_have_count(0)
        entering.locator(".history tbody th a").first.tap()
        enter_game(entering, 500, 100)
        for phone in phones[0]:
            expect_totals(phone, 800, 400)
        confirm(phones[0][0], 0, codes[ANNA])
        expect(phones[0][2].locator(".confirm-result .confirmed")).to_have_text(
            f"{ANNA} confirmed.")
        confirm(phones[0][2], 1, codes[GINA])
        expect_state(organiser, 2, 1, "Confirmed")
        expect_standings(screen, [(ANNA, 27), (BRUNO, 20), (GINA, 18), (ELENA, 15)])
        log = organiser.locator(".event-log li")
        for line in ("Turn 2, table 1: the organiser reopened the result.",
                     "Turn 2, table 1: game 1 corrected.",
                     f"Turn 2, table 1: {GINA} confirmed the result."):
            expect(log.filter(has_text=line)).to_have_count(2 if GINA in line else 1)
        assert organiser.evaluate("window.sameOrganiserPage") is True
        expect(organiser.locator(".pair-codes")).to_have_attribute("open", "")
        shot(organiser, "club_night_organiser_over", full_page=True)
    assert not found, readable(found)


HAND = {"sides": [
    {"table_points": 120, "clean_burracos": 1, "hand_points": 10, "pozzetto": "taken",
     "closed": True},
    {"table_points": 95, "dirty_burracos": 1, "hand_points": 40, "pozzetto": "taken"}]}


def first_sheet(organiser: Page) -> str:
    return sheet_links(organiser, 1)[0].rsplit("/", 1)[-1]


def test_back_from_another_page_the_organiser_page_follows_the_night_again(page: Page):
    start_night(page)
    page.get_by_role("link", name="Rules", exact=True).tap()
    expect(page.locator("#board")).to_have_count(0)
    page.go_back()
    expect_state(page, 1, 1, "Not started")
    assert page.request.post(f"/api/v1/matches/{first_sheet(page)}/hands",
                             data=HAND).status == 201
    expect_state(page, 1, 1, "Playing: game 2 of 3")


def test_after_the_server_is_killed_and_started_again_the_organiser_page_follows(
        browser, server, locale, cdn_requests):  # noqa: F811  (the fixture imported)
    with open_phone(browser, server.address, locale, cdn_requests) as organiser:
        start_night(organiser)
        sheet = f"/api/v1/matches/{first_sheet(organiser)}/hands"
        assert organiser.request.post(sheet, data=HAND).status == 201
        expect_state(organiser, 1, 1, "Playing: game 2 of 3")
        server.kill()
        server.start()
        assert organiser.request.post(sheet, data=HAND).status == 201
        expect_state(organiser, 1, 1, "Playing: game 3 of 3", timeout=10000)


def test_a_confirmation_tapped_without_wifi_keeps_the_code_and_goes_once_it_is_back(
        page: Page):
    """Nothing a player typed is lost: the code stays, the box says it was not sent, and the
    same tap confirms once the wifi is back."""
    start_night(page)
    page.locator(".pair-codes summary").tap()
    code = page.locator(".pair-codes td.code").first.text_content()
    sheet = first_sheet(page)
    for _game in range(3):
        assert page.request.post(f"/api/v1/matches/{sheet}/hands", data=HAND).status == 201
    page.goto(f"/m/{sheet}")
    page.context.set_offline(True)
    confirm(page, 0, code)
    form = confirm_form(page, 0)
    expect(form.locator("[data-send-failed]")).to_be_visible()
    expect(form.locator("input[name=code]")).to_have_value(code)
    page.context.set_offline(False)
    form.locator("button").tap()
    expect(page.locator(".confirm-result .confirmed")).to_have_text(f"{ANNA} confirmed.")
