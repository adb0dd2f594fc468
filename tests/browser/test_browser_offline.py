"""Tablemate with the wifi gone, in Chromium: the sheet still opens from the service
worker, and entries made meanwhile wait on the phone and go out once when it returns."""

import re

import pytest
from playwright.sync_api import Page, expect

from phone import (
    TWO,
    after_a_chance_to_send,
    expect_totals,
    history_rows,
    looked_after,
    nothing_waits,
    open_match,
    player_button,
    save_button,
    saves_sent,
    shot,
    stored_hands,
    typed,
    waiting_rows,
)

pytestmark = pytest.mark.browser


def fill_a_game(page: Page, table: str, hand: str) -> None:
    typed(page, "Anna", "Cards on the table").fill(table)
    typed(page, "Ben", "Cards left in hand").fill(hand)


@pytest.mark.browser
def test_without_wifi_the_sheet_opens_and_a_saved_game_goes_out_once_when_it_returns(page: Page):
    """The wifi drops mid-evening: the sheet still opens on a reload and says "offline"; a
    game saved meanwhile waits on the phone, shown as "Not sent yet" while the panel moves
    on to game 2, survives another reload, and is stored once when the wifi comes back,
    with no tap."""
    token = open_match(page, "burraco", TWO, target=2005)
    looked_after(page)
    note = page.locator("[data-offline-note]")
    expect(note).to_be_hidden()

    page.context.set_offline(True)
    expect(note).to_be_visible()
    page.reload()
    expect(page.get_by_role("heading", name="Enter game 1")).to_be_visible()
    expect(note).to_contain_text("Offline")

    fill_a_game(page, "50", "20")
    save_button(page).tap()
    waiting = page.locator("[data-queue-note]")
    expect(waiting).to_contain_text("1 game waits on this phone")
    row = re.compile(r"^1\s*Not sent yet Anna: Cards on the table 50 · Ben: Cards left in hand 20$")
    expect(waiting_rows(page)).to_have_text([row])
    expect(page.get_by_role("heading", name="Enter game 2")).to_be_visible()
    shot(page, "offline_game_waits")

    page.reload()
    expect(waiting_rows(page)).to_have_text([row])
    expect(waiting).to_be_visible()
    expect(page.get_by_role("heading", name="Enter game 2")).to_be_visible()
    expect(typed(page, "Anna", "Cards on the table")).to_have_value("")
    assert stored_hands(page, token) == []

    sent = saves_sent(page, token)
    page.context.set_offline(False)
    expect(page.locator(".toast")).to_contain_text("Game 1: ")
    expect(note).to_be_hidden()
    expect_totals(page, 50, -20)
    nothing_waits(page, token)
    after_a_chance_to_send(page)  # nothing is sent again
    assert len(sent) == 1
    assert len(stored_hands(page, token)) == 1
    page.reload()
    expect(history_rows(page)).to_have_count(1)
    expect(waiting_rows(page)).to_have_count(0)


@pytest.mark.browser
def test_a_game_kept_offline_meets_the_stale_flow_when_another_phone_saved_first(
        page: Page, other_phone: Page):
    """Anna's phone is offline when she saves game 1; Ben's phone saves game 1 meanwhile.
    Back online, Anna's game is not stored over Ben's: her phone says what changed, brings
    her entry back whole and offers to save hers as game 2."""
    token = open_match(page, "burraco", TWO, target=2005)
    looked_after(page)
    page.context.set_offline(True)
    fill_a_game(page, "50", "20")
    save_button(page).tap()
    expect(waiting_rows(page)).to_have_count(1)

    other_phone.goto(f"/m/{token}")
    typed(other_phone, "Anna", "Cards on the table").fill("30")
    typed(other_phone, "Ben", "Cards left in hand").fill("10")
    save_button(other_phone).tap()
    expect(other_phone.locator(".toast")).to_contain_text("Game 1: ")

    sent = saves_sent(page, token)
    page.context.set_offline(False)
    stale = page.locator(".stale")
    expect(stale).to_contain_text("Game 1 was saved on another phone")
    expect(stale.get_by_role("button", name="Save mine as game 2")).to_be_visible()
    expect(typed(page, "Anna", "Cards on the table")).to_have_value("50")
    expect(typed(page, "Ben", "Cards left in hand")).to_have_value("20")
    expect(waiting_rows(page)).to_have_text([re.compile(r"^2\s*Not saved yet: see above")])
    shown = stale.element_handle()
    # Told the connection is back, the phone does not send the entry again: its answer
    # would put the notice back over the player's tap on it.
    after_a_chance_to_send(page)
    assert len(sent) == 1 and shown.evaluate("(element) => element.isConnected")
    assert len(stored_hands(page, token)) == 1
    stale.get_by_role("button", name="Save mine as game 2").tap()
    expect(page.locator(".toast")).to_contain_text("Game 2: ")
    expect(waiting_rows(page)).to_have_count(0)
    assert len(stored_hands(page, token)) == 2


@pytest.mark.browser
def test_a_burro_tap_without_wifi_waits_named_and_counts_once(page: Page):
    """One tap saves a Burro hand: offline, the hand waits in the history with the tapped
    player's name, also after a reload, and counts once for that player when the wifi
    returns."""
    token = open_match(page, "burro", ["Anna", "Ben", "Carla"])
    looked_after(page)
    page.context.set_offline(True)
    player_button(page, "Ben").tap()
    row = re.compile(r"^1\s*Not sent yet Ben \+1$")
    expect(waiting_rows(page)).to_have_text([row])
    page.reload()
    expect(waiting_rows(page)).to_have_text([row])
    expect(page.locator("[data-queue-note]")).to_contain_text("1 hand waits on this phone")
    expect(page.get_by_role("heading", name="Hand 2")).to_be_visible()

    page.context.set_offline(False)
    expect(page.locator(".toast")).to_be_visible()
    expect_totals(page, 0, 1, 0)
    nothing_waits(page, token)
    after_a_chance_to_send(page)
    assert [hand["burro"] for hand in stored_hands(page, token)] == [1]
