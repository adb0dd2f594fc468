"""Buraco on a phone (390×844), in English and German: two hands of a partnership match, as
a table would enter them — taps on this game's counter, a stepper for a buraco and a red
three, the dead pile, who went out, a side on paper — then the totals, the history and the
rules behind a "?" (seed 004; RULES-NOTES C1)."""

import re

import pytest
from playwright.sync_api import Page, expect

from phone import (
    counter,
    expect_totals,
    later,
    preview_answered,
    save_button,
    shot,
    side,
    tap_button,
)

pytestmark = pytest.mark.browser

US, THEM = "Anna & Carla", "Ben & Dario"
WORDS = {
    "en-US": {"table": "Cards on the table", "hand": "Cards left in hand",
              "clean": "Clean buracos (+200)", "red": "Red threes", "out": "Who went out?",
              "paper": "Total only", "one_more": "One more: {}",
              "hand2": re.compile(r"^Enter hand\s2$"),
              "saved": re.compile(r"Hand\s1: Anna & Carla \+665 · Ben & Dario \+50")},
    "de-DE": {"table": "Ausgelegte Karten", "hand": "Karten auf der Hand",
              "clean": "Reine Buracos (+200)", "red": "Rote Dreien",
              "out": "Wer ist rausgegangen?", "paper": "Nur Summe",
              "one_more": "Einer mehr: {}", "hand2": re.compile(r"^Runde\s2 eintragen$"),
              "saved": re.compile(r"Runde\s1: Anna & Carla \+665 · Ben & Dario \+50")},
}


@pytest.mark.parametrize("locale", ["en-US", "de-DE"])
def test_two_hands_of_buraco_on_a_phone(page: Page, locale):
    words = WORDS[locale]
    problems: list[str] = []
    created = page.request.post("/api/v1/matches", data={
        "game": "buraco", "players": ["Anna", "Ben", "Carla", "Dario"]})
    assert created.status == 201, created.text()
    page.goto(f"/m/{created.json()['token']}")
    us, them = side(page, US), side(page, THEM)

    # Hand 1. Seed 004: aces and 2s 20, K–10 10, 4–9 5, joker 30: A 2 K K 9 = 20+20+10+10+5,
    # tapped on after 200 typed; the field shows the pile's points as the line does.
    table = counter(us, words["table"])
    table.locator("input[type=number]").fill("200")
    for label, times in (("A 2", 2), ("K–10", 2), ("9–4", 1)):
        for _tap in range(times):
            tap_button(table, label).tap()
    expect(table.locator(".tap-sum")).to_contain_text("200 + 2×20 + 2×10 + 1×5 = 265")
    expect(table.locator("input[type=number]")).to_have_value("265")
    us.get_by_role("button", name=words["one_more"].format(words["clean"]), exact=True).tap()
    us.get_by_role("button", name=words["one_more"].format(words["red"]), exact=True).tap()
    page.locator("fieldset.closer").get_by_label(US, exact=True).check()
    counter(them, words["table"]).locator("input[type=number]").fill("80")
    with preview_answered(page):
        counter(them, words["hand"]).locator("input[type=number]").fill("30")
    # C1: table 200 + taps 65 + clean 200 + red three 100 + going out 100 = 665; 80 − 30.
    expect(page.locator("#preview .preview-side")).to_have_text(
        [re.compile(rf"^{re.escape(US)} \+665$"), re.compile(rf"^{re.escape(THEM)} \+50$")])
    shot(page, f"buraco_{locale}_hand1_filled", full_page=True)
    save_button(page).tap()
    expect(page.locator(".toast")).to_contain_text(words["saved"])
    expect_totals(page, 665, 50)
    expect(page.get_by_role("heading", name=words["hand2"])).to_be_visible()

    # Hand 2: both count on paper, so nobody is asked who went out.
    us.get_by_role("button", name=words["paper"]).tap()
    them.get_by_role("button", name=words["paper"]).tap()
    expect(page.locator("fieldset.closer")).to_be_hidden()
    us.locator("input[name=s0_total]").fill("120")
    them.locator("input[name=s1_total]").fill("35")
    them.get_by_role("button", name=re.compile("Plus or minus|Vorzeichen wechseln")).tap()
    expect(them.locator("input[name=s1_total]")).to_have_value("-35")
    save_button(page).tap()
    expect_totals(page, 785, 15)
    expect(page.locator(".history tbody tr:not(.breakdown)")).to_have_count(2)
    shot(page, f"buraco_{locale}_hand2_saved", full_page=True)

    # Every "?" leads to a section of the Buraco rules.
    hrefs = page.locator("a.rule-link").evaluate_all(
        "links => links.map(link => link.getAttribute('href'))")
    later(problems, "the rule links", lambda: [
        expect(page.locator(f'a.rule-link[href="{href}"]').first).to_have_attribute(
            "href", re.compile(r"^/rules/buraco(\?[^#]*)?#[\w-]+$")) for href in hrefs])
    assert not problems, "\n".join(problems)
