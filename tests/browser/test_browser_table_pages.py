"""The start page, the new-match form, the rules' contents and the pages offline on a phone
at the table, in Chromium at 390×844 and 360×640: a match in play is the first thing on the
start page, the options show only where they apply (the typed target even without
JavaScript), and a page never opened says offline what works and what does not."""

import re

import pytest
from playwright.sync_api import Page, expect

from phone import looked_after, open_match, shot

pytestmark = pytest.mark.browser

TALL, SMALL = {"width": 390, "height": 844}, {"width": 360, "height": 640}
SIZES = [pytest.param(TALL, id="390x844"), pytest.param(SMALL, id="360x640")]


def named(size: dict) -> str:
    return f"{size['width']}x{size['height']}"


@pytest.mark.parametrize("size", SIZES)
def test_a_match_in_play_is_on_the_first_screen(page: Page, size):
    page.set_viewport_size(size)
    open_match(page, "burro", ["Anna", "Ben", "Carla"], limit=5)
    page.goto("/")
    going_on = page.get_by_role("heading", name="Continue")
    expect(going_on).to_be_in_viewport()
    expect(page.locator("#my-matches .listed").first).to_be_in_viewport()
    new_match = page.get_by_role("heading", name="New match")
    assert going_on.bounding_box()["y"] < new_match.bounding_box()["y"]
    shot(page, f"start_match_in_play_{named(size)}")


@pytest.mark.parametrize("size", SIZES)
def test_the_typed_target_shows_only_with_other_picked(page: Page, size):
    page.set_viewport_size(size)
    page.goto("/burraco/new")
    other = page.get_by_label("Other target")
    expect(other).to_be_hidden()
    page.locator("label.chip", has_text="other:").tap()
    expect(other).to_be_visible()
    other.fill("1500")
    shot(page, f"new_match_other_target_{named(size)}")
    page.locator("label.chip", has_text="2005").tap()
    expect(other).to_be_hidden()


@pytest.mark.parametrize("size", SIZES)
def test_round_halves_is_offered_while_three_players_are_named(page: Page, size):
    page.set_viewport_size(size)
    page.goto("/burraco/new")
    halves = page.get_by_role("checkbox", name="Three players: round halves up")
    expect(halves).to_be_hidden()
    rows = page.locator("input[name=players]")
    for row, name in zip(range(3), ["Anna", "Ben", "Carla"], strict=True):
        rows.nth(row).fill(name)
    expect(halves).to_be_visible()
    halves.scroll_into_view_if_needed()
    shot(page, f"new_match_three_named_{named(size)}")
    rows.nth(3).fill("Dan")
    expect(halves).to_be_hidden()
    rows.nth(3).fill("")
    halves.check()
    page.get_by_role("button", name="Start").last.tap()
    page.wait_for_url("**/m/*")
    token = page.url.rsplit("/", 1)[1]
    match = page.request.get(f"/api/v1/matches/{token}").json()
    assert match["players"] == ["Anna", "Ben", "Carla"]
    assert match["options"]["round_halves"] is True


def test_without_javascript_the_typed_target_follows_the_choice(browser, live_server):
    """CSS alone hides the field: a phone that runs no script picks "other" all the same."""
    context = browser.new_context(base_url=live_server, java_script_enabled=False,
                                  viewport={"width": 360, "height": 640})
    try:
        page = context.new_page()
        page.goto("/burraco/new")
        other = page.get_by_label("Other target")
        expect(other).to_be_hidden()
        page.locator("label.chip", has_text="other:").click()
        expect(other).to_be_visible()
    finally:
        context.close()


# The small phone in both languages, where a number would first hang out of the page.
@pytest.mark.parametrize("locale, size", [
    pytest.param("en-US", SMALL, id="en-US-360x640"),
    pytest.param("de-DE", SMALL, id="de-DE-360x640"),
    pytest.param("de-DE", TALL, id="de-DE-390x844")])
def test_the_contents_numbers_line_up_inside_the_page(page: Page, size, locale):
    """Every section's title starts on one line down the page, two-digit numbers and all,
    and a sub-section's title further in: the numbers sit in a column of their own."""
    page.set_viewport_size(size)
    page.goto("/rules/bura")
    toc = page.locator("nav.toc details > ol")
    lefts = {round(box["x"]) for box in (link.bounding_box() for link in
                                         toc.locator(":scope > li > a").all())}
    inner = {round(link.bounding_box()["x"]) for link in toc.locator("li li > a").all()}
    assert len(lefts) == 1 and len(inner) == 1 and min(inner) > min(lefts)
    # The numbers' column starts inside the page: nothing hangs out to the left.
    first = toc.locator(":scope > li").first.bounding_box()
    assert first["x"] >= 0
    toc.locator(":scope > li").nth(12).scroll_into_view_if_needed()
    shot(page, f"rules_contents_{locale}_{named(size)}")


OFFLINE = {"en-US": ("No connection", "The search needs the connection.", "Search the rules"),
           "de-DE": ("Keine Verbindung", "Die Suche braucht die Verbindung.",
                     "Regeln durchsuchen")}


# Each language on one of the two phones: what is said offline is the same on both.
@pytest.mark.parametrize("locale, size", [
    pytest.param("en-US", TALL, id="en-US-390x844"),
    pytest.param("de-DE", SMALL, id="de-DE-360x640")])
def test_offline_a_page_never_opened_says_what_works_and_the_search_says_it_needs_wifi(
        page: Page, size, locale):
    """The phone opened the start page and the rules' list, then the wifi went: the rules of
    Bura (never opened) show the app's offline page at their own address, the pages opened
    before still open as they were, and a search typed says it needs the connection."""
    title, search_note, search_label = OFFLINE[locale]
    page.set_viewport_size(size)
    page.goto("/rules")
    looked_after(page)
    page.goto("/")
    looked_after(page)

    page.context.set_offline(True)
    page.goto("/rules/bura")
    expect(page.get_by_role("heading", level=1)).to_have_text(title)
    assert page.url.endswith("/rules/bura")
    shot(page, f"offline_not_kept_{locale}_{named(size)}")
    page.goto("/check?x=1")
    expect(page.get_by_role("heading", level=1)).to_have_text(title)

    page.goto("/rules")
    search = page.get_by_label(search_label)
    expect(search).to_be_visible()
    note = page.locator("[data-search-offline]")
    expect(note).to_be_hidden()
    search.fill("pozzetto")
    expect(note).to_have_text(re.compile(re.escape(search_note)))
    expect(note).to_be_in_viewport()
    shot(page, f"offline_search_{locale}_{named(size)}")

    page.context.set_offline(False)
    search.fill("pozzetti")
    expect(note).to_be_hidden()
    expect(page.locator("#results .hits li").first).to_be_visible()
