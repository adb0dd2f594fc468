"""Real-browser tests of the rules reference: a search survives Back, and the language switch
keeps the section being read (the #section never reaches the server)."""

import re

import pytest
from playwright.sync_api import Page, expect

from phone import shot

pytestmark = pytest.mark.browser


def search_by_typing(page: Page, *pauses: str) -> None:
    """Type into the rules search field, pausing after each part until its results show."""
    field = page.locator("#rules-q")
    typed = ""
    for part in pauses:
        field.press_sequentially(part, delay=30)
        typed += part
        expect(page).to_have_url(re.compile(rf"/rules/search\?q={typed}&"))
        expect(page.locator("#results .hits a").first).to_be_visible()


def test_back_from_a_hit_shows_the_search_as_typed(page: Page):
    page.goto("/")
    page.get_by_role("navigation").get_by_role("link", name="Rules", exact=True).click()
    expect(page).to_have_url(re.compile(r"/rules$"))
    search_by_typing(page, "Mosc", "ow")
    page.locator("#results .hits a").first.click()
    expect(page).to_have_url(re.compile(r"/rules/bura\?lang=en#"))

    page.go_back()
    expect(page).to_have_url(re.compile(r"/rules/search\?q=Moscow&"))
    expect(page.locator("#rules-q")).to_have_value("Moscow")
    expect(page.locator("#results .hits a").first).to_be_visible()
    shot(page, "en_rules_search_after_back")
    # The pause after "Mosc" left no page of its own: one more Back leaves the search.
    page.go_back()
    expect(page).to_have_url(re.compile(r"/$"))


def test_a_misspelt_word_shows_what_was_searched(page: Page):
    page.goto("/rules")
    page.locator("#rules-q").press_sequentially("pozetto", delay=30)
    expect(page.locator("#results")).to_contain_text("Showing results for “pozzetto”.")
    expect(page.locator("#results mark").first).to_have_text(re.compile("pozzett[oi]", re.I))


@pytest.mark.parametrize("locale", ["de-DE"])
def test_the_language_switch_keeps_the_section_being_read(page: Page):
    page.goto("/rules/burraco#pozzetti")
    expect(page.locator("article.rules")).to_have_attribute("lang", "de")
    page.get_by_role("button", name="EN", exact=True).tap()
    expect(page).to_have_url(re.compile(r"/rules/burraco#pozzetti$"))
    expect(page.locator("article.rules")).to_have_attribute("lang", "en")
    expect(page.locator("section#pozzetti")).to_be_in_viewport()

    # A section reached from the contents, after the page came.
    page.locator("nav.toc a[href='#closing']").click()
    expect(page).to_have_url(re.compile(r"#closing$"))
    page.get_by_role("button", name="DE", exact=True).tap()
    expect(page).to_have_url(re.compile(r"/rules/burraco#closing$"))
    expect(page.locator("article.rules")).to_have_attribute("lang", "de")
    expect(page.locator("section#closing")).to_be_in_viewport()
    shot(page, "de_rules_section_after_switch")


def test_the_language_switch_keeps_a_search_typed(page: Page):
    page.goto("/rules")
    search_by_typing(page, "Molodka")
    page.get_by_role("button", name="DE", exact=True).tap()
    expect(page.locator("html")).to_have_attribute("lang", "de")
    expect(page).to_have_url(re.compile(r"/rules/search\?q=Molodka&"))
    expect(page.locator("#rules-q")).to_have_value("Molodka")
    expect(page.locator("#results .hits a").first).to_be_visible()
