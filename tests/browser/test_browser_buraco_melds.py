"""A Buraco hand by meld in Chromium on a phone, in English and German at 390×844 and
360×640: issue 39's typical hand, in the seed's game (sets only, RULES-NOTES C2), entered
with the ready buracos, a set's rank and the card picker within 12 taps, scored by the
server's preview and saved."""

import pytest
from playwright.sync_api import Page, expect

from phone import (
    PHONES,
    Thumb,
    expect_totals,
    open_match,
    preview_answered,
    save_button,
    shot,
    stored_hands,
)

pytestmark = pytest.mark.browser

MODE = {"en-US": "By meld", "de-DE": "Nach Kombinationen"}


@pytest.mark.parametrize("locale", ["en-US", "de-DE"])
@pytest.mark.parametrize("size", PHONES)
def test_a_typical_buraco_hand_by_meld_takes_at_most_12_taps(page: Page, size, locale):
    """From the fresh panel of a new match's first hand: Anna & Carla go out with a clean
    buraco of 4s and three kings, no cards in hand; Ben & Dan have a dirty buraco of 4s and
    three fives, 7♣ and Q♦ left in hand; both took their dead pile. Every tap counts."""
    page.set_viewport_size(size)
    token = open_match(page, "buraco", ["Anna", "Ben", "Carla", "Dan"])
    thumb = Thumb(page)
    thumb.by_meld(0)
    expect(thumb.side(0).locator('button[value="mode:0:melds"]')).to_have_text(MODE[locale])
    thumb.ready(0, "clean_set")
    thumb.set_of(0, "K")
    one_side = thumb.taps
    thumb.by_meld(1)
    thumb.ready(1, "dirty_set")
    thumb.set_of(1, "5")
    thumb.into_hand(1)
    with preview_answered(page):
        thumb.cards(1, "7C", "QD")
    other_side = thumb.taps - one_side
    thumb.closed(0)
    # 35 + 30 + 200 + 100, and 50 + 15 + 100 − 15 (seed 004; C1: going out +100).
    expect(page.locator("#preview .preview-side strong")).to_have_text(["+365", "+150"])
    shot(page, f"buraco_melds_{locale[:2]}_{size['width']}", full_page=True)
    thumb.tap(save_button(page))
    expect_totals(page, 365, 150)
    assert (one_side, other_side) == (3, 6)
    assert thumb.taps <= 12, f"{thumb.taps} taps"
    entries = stored_hands(page, token)[0]["entries"]
    assert entries[0]["melds"][1] == ["KS", "KH", "KD"]
    assert entries[1]["melds"][1] == ["5S", "5H", "5D"]
    assert entries[1]["in_hand"] == ["7C", "QD"]
