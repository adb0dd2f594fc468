"""The variants a table names, on a phone: chosen on the new-match page, named on the sheet,
scored by their own rules (RULES-NOTES B7, C5). Screenshots: tests/browser/screenshots/preset_*.png."""

import re

import pytest
from playwright.sync_api import Page, expect

from phone import preview_answered, shot

pytestmark = pytest.mark.browser


def new_match(page: Page, game: str, players: list[str]) -> None:
    page.goto(f"/{game}/new")
    for seat, name in enumerate(players):
        page.locator("input[name=players]").nth(seat).fill(name)


def test_a_burraco_reale_match_from_the_new_match_page(page: Page):
    """B7: no jokers on the counter, nobile and reale steppers, and a hand scored by them."""
    new_match(page, "burraco", ["Anna", "Ben", "Carla", "Dan"])
    presets = page.get_by_role("radiogroup", name="Which game do you play?")
    expect(presets.get_by_role("radio", name=re.compile(r"^Classic"))).to_be_checked()
    presets.get_by_role("radio", name=re.compile(r"^Burraco Reale")).check()
    shot(page, "preset_en_burraco_reale_new", full_page=True)
    page.locator("button.primary[name=action][value=start]").tap()

    line = page.locator("#sheet > .unit")
    expect(line.get_by_role("link", name="Burraco Reale")).to_have_attribute(
        "href", re.compile(r"/rules/burraco#variant-reale$"))
    expect(line).to_contain_text("after eburraco.com and giocodigitale.it")
    us = page.locator("fieldset.side").first
    labels = us.locator(".counter").first.locator(".tap-label")
    expect(labels).to_have_text(["2", "A", "K–8", "7–3"])
    us.get_by_role("button", name="One more: Burracos nobile, ace to king (+500)").tap()
    us.locator("input[name=s0_table]").fill("110")
    page.locator("fieldset.closer").get_by_label("Anna & Carla", exact=True).check()
    them = page.locator("fieldset.side").nth(1)
    them.locator("input[name=s1_table]").fill("60")
    with preview_answered(page):
        them.locator("input[name=s1_hand]").fill("40")
    expect(page.locator("#preview strong")).to_have_text(["+710", "+20"])
    shot(page, "preset_en_burraco_reale_sheet", full_page=True)
    page.locator("#panel button.primary").tap()
    expect(page.locator(".totals .total")).to_have_text(["710", "20"])


@pytest.mark.parametrize("locale", ["de-DE"])
def test_a_buraco_stbl_match_on_a_small_phone(page: Page, locale):
    """C5 on a 360 × 640 phone in German: STBL with canastras reais, named on the sheet."""
    page.set_viewport_size({"width": 360, "height": 640})
    new_match(page, "buraco", ["Anna", "Ben", "Carla", "Dan"])
    page.get_by_role("radiogroup", name="Welches Spiel spielt ihr?").get_by_role("radio", name=
        re.compile(r"^STBL")).check()
    page.get_by_role("checkbox", name=re.compile(r"^Canastras reais")).check()
    shot(page, "preset_de_buraco_stbl_new", full_page=True)
    page.locator("button.primary[name=action][value=start]").tap()
    line = page.locator("#sheet > .unit")
    expect(line.get_by_role("link", name="STBL")).to_be_visible()
    expect(line).to_contain_text("nach jogatina.com")
    expect(line.get_by_role("link", name="Canastras reais")).to_be_visible()
    expect(page.locator("fieldset.side").first.locator("input[name=s0_real]")).to_have_count(1)
    shot(page, "preset_de_buraco_stbl_sheet")
