"""A Buraco hand by meld in Chromium on a phone, in English and German at 390×844 and
360×640: the seed's game (sets only, RULES-NOTES C2) entered with a ready buraco and the
card picker, scored by the server's preview and saved."""

import pytest
from playwright.sync_api import Page, expect

from phone import expect_totals, open_match, preview_answered, save_button, shot, stored_hands

pytestmark = pytest.mark.browser

PHONES = [pytest.param({"width": 390, "height": 844}, id="390x844"),
          pytest.param({"width": 360, "height": 640}, id="360x640")]
MODE = {"en-US": "By meld", "de-DE": "Nach Kombinationen"}


@pytest.mark.parametrize("locale", ["en-US", "de-DE"])
@pytest.mark.parametrize("size", PHONES)
def test_a_buraco_hand_by_meld(page: Page, size, locale):
    page.set_viewport_size(size)
    token = open_match(page, "buraco", ["Anna", "Ben", "Carla", "Dan"])
    us, them = page.locator("fieldset.side").nth(0), page.locator("fieldset.side").nth(1)

    def cards(side, *codes):
        for code in codes:
            side.locator(f'.by-meld button.pick[value="{code}"]').tap()

    def into_hand(side, index):
        side.locator("label.chip").filter(
            has=page.locator(f'input[value="s{index}_in_hand"]')).tap()

    us.locator('button[value="mode:0:melds"]').tap()
    expect(us.locator('button[value="mode:0:melds"]')).to_have_text(MODE[locale])
    # Seven 4s (35, a clean buraco) and three kings (30); 9♣ 5♠ left in hand (10).
    us.locator('button[value="meld:0:clean_set"]').tap()
    cards(us, "KS", "KH", "KD")
    into_hand(us, 0)
    cards(us, "9C", "5S")
    # Three queens (30), then a new meld: 6♣ 6♦ Joker (40); K♣ in hand (10).
    them.locator('button[value="mode:1:melds"]').tap()
    cards(them, "QS", "QH", "QD")
    them.locator('button[value="newmeld:1"]').tap()
    cards(them, "6C", "6D", "JK")
    into_hand(them, 1)
    with preview_answered(page):
        cards(them, "KC")
    page.locator("fieldset.closer label.chip").filter(
        has=page.locator('input[value="0"]')).tap()
    # 35 + 30 + 200 + 100 − 10, and 30 + 40 − 10 (seed 004; C1: going out +100).
    expect(page.locator("#preview .preview-side strong")).to_have_text(["+355", "+60"])
    shot(page, f"buraco_melds_{locale[:2]}_{size['width']}", full_page=True)
    save_button(page).tap()
    expect_totals(page, 355, 60)
    entries = stored_hands(page, token)[0]["entries"]
    assert entries[1]["melds"] == [["QS", "QH", "QD"], ["6C", "6D", "JK"]]
    assert entries[0]["in_hand"] == ["9C", "5S"]
