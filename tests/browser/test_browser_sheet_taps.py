"""The small things on a sheet, in Chromium on a phone: a one-tap save shows at once that it
is on its way and keeps a tap made meanwhile; the toast says who got what; a tie at the
target is explained in the sticky scoreboard; the history's dealer mark is no underline."""

import threading

import pytest
from playwright.sync_api import Page, expect

import store
from phone import expect_totals, open_match, player_button, shot

PHONES = [pytest.param({"width": 390, "height": 844}, id="390x844"),
          pytest.param({"width": 360, "height": 640}, id="360x640")]


@pytest.fixture
def held_save(monkeypatch):
    """The server stores a hand only once the test lets it: (arrived, release)."""
    arrived, release = threading.Event(), threading.Event()
    add_hand = store.add_hand

    def add_hand_when_released(*args, **kwargs):
        arrived.set()
        assert release.wait(10), "the test never let the save through"
        return add_hand(*args, **kwargs)

    monkeypatch.setattr(store, "add_hand", add_hand_when_released)
    return arrived, release


@pytest.mark.parametrize("size", PHONES)
def test_a_tap_shows_its_save_at_once_and_a_tap_meanwhile_is_saved_after_it(
        page: Page, held_save, size):
    arrived, release = held_save
    page.set_viewport_size(size)
    token = open_match(page, "burro", ["Anna", "Ben", "Carla"], limit=99)
    player_button(page, "Ben").tap()
    assert arrived.wait(5), "the first tap's save never reached the server"
    # On its way: the button pressed and the panel busy, before any answer.
    expect(player_button(page, "Ben")).to_have_class("big saving")
    expect(page.locator("form.panel")).to_have_attribute("aria-busy", "true")
    # The player corrects: Anna was the burro too. The tap is kept, not dropped.
    player_button(page, "Anna").tap()
    expect(player_button(page, "Anna")).to_have_class("big queued")
    shot(page, f"taps_on_their_way_{size['width']}")
    release.set()
    toast = page.locator(".toast")
    expect(toast).to_have_text("Hand 2: Anna +1 · Undo", use_inner_text=True)
    expect_totals(page, 1, 1, 0)
    expect(page.locator(".history tbody tr:not(.breakdown)")).to_have_count(2)
    expect(page.locator("form.panel")).not_to_have_attribute("aria-busy", "true")
    expect(page.locator(".player-buttons button.saving, .player-buttons button.queued")).to_have_count(0)
    expect(toast.get_by_role("button", name="Undo")).to_be_in_viewport()
    hands = page.request.get(f"/api/v1/matches/{token}").json()["hands"]
    assert [hand["burro"] for hand in hands] == [1, 0]
    # The history's numbers are its only links; the dealer's cell is framed, not underlined.
    dealt = page.locator(".history td.dealt").first
    assert dealt.evaluate("cell => getComputedStyle(cell).textDecorationLine") == "none"
    shot(page, f"taps_saved_{size['width']}")


@pytest.mark.parametrize("size", PHONES)
def test_the_toast_names_who_got_what_with_the_undo_beside_it(page: Page, size):
    page.set_viewport_size(size)
    open_match(page, "burro", ["Anna", "Ben", "Carla"], limit=99)
    player_button(page, "Carla").tap()
    toast = page.locator(".toast")
    expect(toast).to_have_text("Hand 1: Carla +1 · Undo", use_inner_text=True)
    toast.get_by_role("button", name="Undo").tap()
    expect(toast).to_contain_text("Hand 1 taken back")
    expect_totals(page, 0, 0, 0)


@pytest.mark.parametrize("size", PHONES)
def test_a_tie_at_the_target_is_explained_in_the_sticky_scoreboard(page: Page, size):
    """Seed 002, "Partieende": "bei Gleichstand wird noch ein Spiel gespielt" (RULES-NOTES
    B3)."""
    page.set_viewport_size(size)
    token = open_match(page, "burraco", ["Anna", "Ben"], target=505)
    answer = page.request.post(f"/api/v1/matches/{token}/hands",
                               data={"sides": [{"total": 505}, {"total": 505}]})
    assert answer.status == 201
    page.reload()
    tie = page.locator(".scoreboard .tie")
    expect(tie).to_have_text("Tie at 505 — one more game decides.")
    expect(page.locator(".scoreboard .to-go")).to_have_text(["0 to go", "0 to go"])
    shot(page, f"tie_at_target_{size['width']}")
    # The scoreboard sticks: the note stays in view with the panel scrolled to.
    page.locator("#panel button.primary").scroll_into_view_if_needed()
    expect(tie).to_be_in_viewport()
