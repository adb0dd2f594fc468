"""The share box in the laptop's own browser, in real Chromium at 390×844: a sheet opened on
127.0.0.1 hands out the machine's wifi address, and says how to serve the table."""

import pytest
from playwright.sync_api import Page, expect

from phone import shot

pytestmark = pytest.mark.browser


def test_a_sheet_on_127_0_0_1_shares_the_wifi_address_and_how_to_serve_the_table(
        page: Page, live_server, table_wifi):
    token = page.request.post("/api/v1/matches", data={
        "game": "burro", "players": ["Anna", "Ben", "Carla"]}).json()["token"]
    port = live_server.rsplit(":", 1)[1]
    page.goto(f"/m/{token}")
    share = page.locator("details.share")
    share.locator("summary").tap()
    expect(share.locator("#share-edit")).to_have_value(f"http://{table_wifi}:{port}/m/{token}")
    assert share.locator("#share-view").input_value().startswith(f"http://{table_wifi}:{port}/v/")
    hint = share.locator(".share-reach")
    expect(hint).to_have_text("Only this computer can open these links: serve the table with "
                              "make run HOST=0.0.0.0.")
    # One short sentence, and nothing wider than the phone.
    assert hint.bounding_box()["height"] < 100
    assert page.evaluate("document.documentElement.scrollWidth") <= 390
    assert page.locator(".share .qr").first.evaluate("image => image.naturalWidth") > 0
    share.evaluate("box => box.scrollIntoView()")
    shot(page, "share_reach_en")
