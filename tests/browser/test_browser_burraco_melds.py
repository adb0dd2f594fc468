"""A Burraco hand by meld in Chromium on a phone, in English and German at 390×844 and
360×640: a typical hand counted in taps, an illegal meld refused with the meld checker's
reason, and a hand corrected with its melds shown again.

The controls are found by what they send (a mode, a ready burraco, a card's code), so one
flow serves both languages; what the player reads is checked in each."""

import re

import pytest
from playwright.sync_api import Locator, Page, expect

from phone import expect_totals, open_match, preview_answered, save_button, shot, stored_hands

pytestmark = pytest.mark.browser

PHONES = [pytest.param({"width": 390, "height": 844}, id="390x844"),
          pytest.param({"width": 360, "height": 640}, id="360x640")]
LANGUAGES = [pytest.param("en-US", id="en"), pytest.param("de-DE", id="de")]
FOUR = ["Anna", "Ben", "Carla", "Dan"]
# What each language calls the mode, and the start of the refusal of a third Q♠.
WORDS = {
    "en-US": {"mode": "By meld", "third_queen": "Anna & Carla, meld 2: There are only 2 of Q♠",
              "history": "cards 90 · burracos +200 · closing +100 · hand −10"},
    "de-DE": {"mode": "Nach Kombinationen",
              "third_queen": "Anna & Carla, Kombination 2: D♠ gibt es in den zwei Blättern",
              "history": "Karten 90 · Burracos +200 · Schließen +100 · Hand −10"},
}


class Thumb:
    """Taps on the phone, counted: the issue's measure of a hand's entry."""

    def __init__(self, page: Page):
        self.page, self.taps = page, 0

    def tap(self, target: Locator) -> None:
        target.tap()
        self.taps += 1

    def side(self, index: int) -> Locator:
        return self.page.locator("fieldset.side").nth(index)

    def by_meld(self, index: int) -> None:
        self.tap(self.side(index).locator(f'button[value="mode:{index}:melds"]'))

    def ready(self, index: int, name: str) -> None:
        self.tap(self.side(index).locator(f'button[value="meld:{index}:{name}"]'))

    def cards(self, index: int, *codes: str) -> None:
        for code in codes:
            self.tap(self.side(index).locator(f'.by-meld button.pick[value="{code}"]'))

    def into_hand(self, index: int) -> None:
        self.tap(self.side(index).locator("label.chip").filter(
            has=self.page.locator(f'input[value="s{index}_in_hand"]')))


def loosely(text: str) -> re.Pattern:
    """Words as written, whether a space or hyphen in them is the breaking or the
    no-break one (German joins numbers to their labels)."""
    return re.compile("".join("[ \xa0]" if char == " " else "[-\u2011]" if char == "-"
                              else re.escape(char) for char in text))


@pytest.mark.parametrize("locale", LANGUAGES)
@pytest.mark.parametrize("size", PHONES)
def test_a_typical_hand_by_meld_is_entered_in_few_taps(page: Page, size, locale):
    """One side: a clean run, a set of three, two cards in hand; the other alike; both took
    their pozzetto, Anna & Carla closed. The ready run is the seed's 3♥–9♥ (45)."""
    page.set_viewport_size(size)
    token = open_match(page, "burraco", FOUR)
    thumb = Thumb(page)
    thumb.by_meld(0)
    expect(thumb.side(0).locator('button[value="mode:0:melds"]')).to_have_text(
        WORDS[locale]["mode"])
    thumb.ready(0, "clean_run")
    thumb.cards(0, "AS", "AH", "AD")
    thumb.into_hand(0)
    thumb.cards(0, "7C", "3S")
    one_side = thumb.taps
    expect(thumb.side(0).locator("input[name=s0_melds]")).to_have_value(
        "3♥ 4♥ 5♥ 6♥ 7♥ 8♥ 9♥ / A♠ A♥ A♦")
    expect(thumb.side(0).locator("input[name=s0_in_hand]")).to_have_value("7♣ 3♠")
    thumb.by_meld(1)
    thumb.ready(1, "dirty_run")
    thumb.cards(1, "QS", "QH", "QD")
    thumb.into_hand(1)
    with preview_answered(page):
        thumb.cards(1, "KS", "JK")
    thumb.tap(page.locator("fieldset.closer label.chip").filter(
        has=page.locator('input[value="0"]')))
    # 45 + 45 − 10 + 200 + 100, and 55 + 30 − 40 + 100: the server's preview, not the phone's.
    expect(page.locator("#preview .preview-side strong")).to_have_text(["+380", "+145"])
    shot(page, f"burraco_melds_{locale[:2]}_{size['width']}", full_page=True)
    thumb.tap(save_button(page))
    expect_totals(page, 380, 145)
    expect(page.locator(".history .breakdown").first).to_contain_text(
        loosely(WORDS[locale]["history"]))
    # Each side within the 12 taps; both sides, who closed and Save together take 18.
    assert one_side == 8 and thumb.taps - one_side - 2 == 8
    assert thumb.taps == 18
    # The next hand starts by meld on both sides: the table's way of entering is kept.
    expect(page.locator('.modes button[aria-pressed="true"]')).to_have_text(
        [WORDS[locale]["mode"]] * 2)
    sides = stored_hands(page, token)[0]["entries"]
    assert sides[0]["melds"] == [["3H", "4H", "5H", "6H", "7H", "8H", "9H"], ["AS", "AH", "AD"]]
    assert sides[1]["in_hand"] == ["KS", "JK"]


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
