"""A Burraco hand by meld in Chromium on a phone, in English and German at 390×844 and
360×640: the issue's typical hand within 12 taps, an illegal meld refused with the meld checker's
reason, and a hand corrected with its melds shown again.

The controls are found by what they send (a mode, a ready burraco, a card's code), so one
flow serves both languages; what the player reads is checked in each."""

import re

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

LANGUAGES = [pytest.param("en-US", id="en"), pytest.param("de-DE", id="de")]
FOUR = ["Anna", "Ben", "Carla", "Dan"]
# What each language calls the mode, and the start of the refusal of a third Q♠.
WORDS = {
    "en-US": {"mode": "By meld", "third_queen": "Anna & Carla, meld 2: There are only 2 of Q♠",
              "history": "cards 70 · burracos +100 · hand −15"},
    "de-DE": {"mode": "Nach Kombinationen",
              "third_queen": "Anna & Carla, Kombination 2: D♠ gibt es in den zwei Blättern",
              "history": "Karten 70 · Burracos +100 · Hand −15"},
}


def loosely(text: str) -> re.Pattern:
    """Words as written, whether a space or hyphen in them is the breaking or the
    no-break one (German joins numbers to their labels)."""
    return re.compile("".join("[ \xa0]" if char == " " else "[-\u2011]" if char == "-"
                              else re.escape(char) for char in text))


@pytest.mark.parametrize("locale", LANGUAGES)
@pytest.mark.parametrize("size", PHONES)
def test_a_typical_hand_by_meld_takes_at_most_12_taps(page: Page, size, locale):
    """Issue 39's typical hand, from the fresh panel of a new match's first hand: Anna &
    Carla close with a clean run burraco and three kings, no cards in hand; Ben & Dan have a
    dirty run burraco and three fives, 7♣ and Q♦ left in hand; both took their pozzetto.
    Every tap counts: the mode, the chips, the sets, the cards, who closed and Save."""
    page.set_viewport_size(size)
    token = open_match(page, "burraco", FOUR)
    thumb = Thumb(page)
    thumb.by_meld(0)
    expect(thumb.side(0).locator('button[value="mode:0:melds"]')).to_have_text(
        WORDS[locale]["mode"])
    thumb.ready(0, "clean_run")
    thumb.set_of(0, "K")
    one_side = thumb.taps
    expect(thumb.side(0).locator("input[name=s0_melds]")).to_have_value(
        "3♥ 4♥ 5♥ 6♥ 7♥ 8♥ 9♥ / K♠ K♥ K♦ /")
    thumb.by_meld(1)
    thumb.ready(1, "dirty_run")
    thumb.set_of(1, "5")
    thumb.into_hand(1)
    with preview_answered(page):
        thumb.cards(1, "7C", "QD")
    other_side = thumb.taps - one_side
    queen = "Q" if locale == "en-US" else "D"
    expect(thumb.side(1).locator("input[name=s1_in_hand]")).to_have_value(f"7♣ {queen}♦")
    thumb.closed(0)
    # 45 + 30 + 200 + 100, and 55 + 15 + 100 − 15: the server's preview, not the phone's.
    expect(page.locator("#preview .preview-side strong")).to_have_text(["+375", "+155"])
    shot(page, f"burraco_melds_{locale[:2]}_{size['width']}", full_page=True)
    thumb.tap(save_button(page))
    expect_totals(page, 375, 155)
    expect(page.locator(".history .breakdown").first).to_contain_text(
        loosely(WORDS[locale]["history"]))
    # Three taps for the side that closed, six for the other, then who closed and Save.
    assert (one_side, other_side) == (3, 6)
    assert thumb.taps <= 12, f"{thumb.taps} taps"
    # The next hand starts by meld on both sides: the table's way of entering is kept.
    expect(page.locator('.modes button[aria-pressed="true"]')).to_have_text(
        [WORDS[locale]["mode"]] * 2)
    sides = stored_hands(page, token)[0]["entries"]
    assert sides[0]["melds"] == [["3H", "4H", "5H", "6H", "7H", "8H", "9H"], ["KS", "KH", "KD"]]
    assert sides[1]["melds"] == [["3H", "4H", "5H", "6H", "7H", "8H", "2C"], ["5S", "5H", "5D"]]
    assert sides[1]["in_hand"] == ["7C", "QD"]


def test_a_set_tapped_again_grows_by_one_card(page: Page):
    """A fourth king is one more tap on K right after the three; the checker still judges
    the set, here as a clean one worth 40."""
    page.set_viewport_size({"width": 360, "height": 640})
    open_match(page, "burraco", FOUR)
    thumb = Thumb(page)
    thumb.by_meld(0)
    thumb.set_of(0, "K")
    with preview_answered(page):
        thumb.set_of(0, "K")
    expect(thumb.side(0).locator("input[name=s0_melds]")).to_have_value("K♠ K♥ K♦ K♣ /")
    expect(page.locator("#preview .preview-side strong").first).to_have_text("+40")


@pytest.mark.parametrize("locale", LANGUAGES)
@pytest.mark.parametrize("size", PHONES)
def test_an_illegal_meld_is_refused_with_the_checkers_reason(page: Page, size, locale):
    page.set_viewport_size(size)
    token = open_match(page, "burraco", FOUR)
    thumb = Thumb(page)
    thumb.by_meld(0)
    thumb.ready(0, "clean_run")
    with preview_answered(page):
        thumb.cards(0, "QS", "QS", "QS")
    problem = page.locator("#preview .hint")
    expect(problem).to_contain_text(loosely(WORDS[locale]["third_queen"]))
    thumb.tap(save_button(page))
    refusal = page.locator("#sheet > .error")
    expect(refusal).to_contain_text(loosely(WORDS[locale]["third_queen"]))
    expect(refusal.locator("a.why")).to_have_attribute("href", "/rules/burraco#scoring")
    # Nothing changed: no hand stored, the entry kept as it was.
    assert stored_hands(page, token) == []
    expect(page.locator("input[name=s0_melds]")).to_have_value(
        "3♥ 4♥ 5♥ 6♥ 7♥ 8♥ 9♥ / Q♠ Q♠ Q♠" if locale == "en-US"
        else "3♥ 4♥ 5♥ 6♥ 7♥ 8♥ 9♥ / D♠ D♠ D♠")
    shot(page, f"burraco_melds_refused_{locale[:2]}_{size['width']}")


SEED_HAND = {"sides": [
    {"melds": [["3H", "4H", "5H", "6H", "7H", "8H", "9H"], ["AS", "AH", "AD", "JK"]],
     "in_hand": ["7C", "3S"], "pozzetto": "taken", "closed": True},
    {"melds": [["QS", "QH", "QD", "QC", "QS", "QH", "2D"], ["4C", "5C", "6C"]],
     "in_hand": ["KS", "JK"], "pozzetto": "taken"}]}


@pytest.mark.parametrize("locale", LANGUAGES)
@pytest.mark.parametrize("size", PHONES)
def test_a_hand_by_meld_is_corrected_with_its_melds_shown_again(page: Page, size, locale):
    """Seed 002, "Abrechnung": 410 and 155; then East/West's joker was laid, not held."""
    page.set_viewport_size(size)
    token = open_match(page, "burraco", FOUR)
    assert page.request.post(f"/api/v1/matches/{token}/hands", data=SEED_HAND).status == 201
    page.goto(f"/m/{token}/hands/1")
    them = page.locator("fieldset.side").nth(1)
    expect(them.locator('button[value="mode:1:melds"]')).to_have_attribute("aria-pressed", "true")
    expect(them.locator(".by-meld")).to_be_visible()
    queen = "Q" if locale == "en-US" else "D"
    expect(them.locator("input[name=s1_melds]")).to_have_value(
        " ".join(f"{queen}{suit}" for suit in "♠♥♦♣♠♥") + " 2♦ / 4♣ 5♣ 6♣")
    expect(them.locator("input[name=s1_in_hand]")).to_have_value("K♠ Joker")
    thumb = Thumb(page)
    thumb.into_hand(1)
    with preview_answered(page):
        thumb.tap(them.locator('button[name="s1_back"]'))
    expect(page.locator("#preview .preview-side strong")).to_have_text(["+410", "+185"])
    shot(page, f"burraco_melds_correction_{locale[:2]}_{size['width']}", full_page=True)
    thumb.tap(save_button(page))
    expect_totals(page, 410, 185)
    assert stored_hands(page, token)[0]["entries"][1]["in_hand"] == ["KS"]
