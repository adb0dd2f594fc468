"""'Keep the screen on' under every sheet (issue "Together at the table", point 6: "Keep the
screen on (Screen Wake Lock API, remembered per device, hidden where the browser lacks
it)")."""

import pytest
from playwright.sync_api import Page, expect

from phone import TWO, open_match

pytestmark = pytest.mark.browser

# The locks the page takes, watched: Chromium grants them, but shows no sign of one held.
WATCH_LOCKS = """
const request = WakeLock.prototype.request;
window.wakeLocks = [];
WakeLock.prototype.request = async function (...args) {
    const sentinel = await request.apply(this, args);
    window.wakeLocks.push(sentinel);
    return sentinel;
};
"""
HOLDING = "() => window.wakeLocks.some((sentinel) => !sentinel.released)"
LET_GO = "() => window.wakeLocks.every((sentinel) => sentinel.released)"


def keep_on(page: Page):
    return page.get_by_role("button", name="Keep the screen on")


def test_keep_the_screen_on_holds_the_screen_and_is_remembered_on_the_phone(page: Page):
    page.add_init_script(WATCH_LOCKS)
    token = open_match(page, "burro", TWO)
    toggle = keep_on(page)
    expect(toggle).to_have_attribute("aria-pressed", "false")
    assert not page.evaluate(HOLDING)
    toggle.tap()
    expect(toggle).to_have_attribute("aria-pressed", "true")
    page.wait_for_function(HOLDING)

    # Another match on the same phone, after a reload: the choice stands, the lock is taken.
    open_match(page, "burraco", TWO, target=2005)
    expect(keep_on(page)).to_have_attribute("aria-pressed", "true")
    page.wait_for_function(HOLDING)
    # The rules need no lit screen.
    page.get_by_role("link", name="Rules", exact=True).first.click()
    page.wait_for_function(LET_GO)
    page.goto(f"/m/{token}")
    page.wait_for_function(HOLDING)
    keep_on(page).tap()
    expect(keep_on(page)).to_have_attribute("aria-pressed", "false")
    page.wait_for_function(LET_GO)
    page.reload()
    expect(keep_on(page)).to_have_attribute("aria-pressed", "false")
    assert not page.evaluate(HOLDING)


def test_without_the_wake_lock_api_the_button_stays_hidden(page: Page):
    page.add_init_script("delete Navigator.prototype.wakeLock;")
    open_match(page, "burro", TWO)
    expect(page.locator("[data-wake-lock]")).to_be_hidden()
