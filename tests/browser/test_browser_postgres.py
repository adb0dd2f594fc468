"""Two servers, each as `make run` starts it, on one PostgreSQL database, and a phone on
each: what one phone saves or corrects shows on the other by itself, pushed across the
servers by PostgreSQL's NOTIFY. Screenshots: tests/browser/screenshots/postgres_*.png."""

import postgres_cluster
import pytest
from playwright.sync_api import expect

from benchmarks.serve import TABLEMATE, served
from phone import open_phone, player_button, shot

pytestmark = pytest.mark.browser

PLAYERS = ["Anna", "Ben", "Carla"]
# What "at once" means at a table: the other phone shows a hand within this.
AT_ONCE_MS = 1000
# A page that was loaded again would have lost it: the news came by push alone.
NO_RELOAD = "window.stayed = true"


def test_phones_on_two_servers_see_each_others_hand_and_correction_without_a_reload(
        browser, postgres_made, cdn_requests):
    postgres_cluster.emptied(postgres_made)
    with (served(TABLEMATE, postgres_made) as first, served(TABLEMATE, postgres_made) as second,
          open_phone(browser, first, "en-US", cdn_requests) as anna,
          open_phone(browser, second, "de-DE", cdn_requests) as ben):
        created = anna.request.post("/api/v1/matches", data={"game": "burro",
                                                             "players": PLAYERS})
        assert created.status == 201, created.text()
        token = created.json()["token"]
        for phone in (anna, ben):
            phone.goto(f"/m/{token}")
            phone.evaluate(NO_RELOAD)

        player_button(anna, "Carla").tap()
        expect(anna.locator(".toast")).to_contain_text("Hand 1: ")
        expect(ben.locator(".news")).to_contain_text(
            "Runde 1 wurde auf einem anderen Handy gespeichert: Carla +1", timeout=AT_ONCE_MS)
        expect(ben.locator(".totals .total")).to_have_text(["0", "0", "1"])
        assert ben.evaluate("window.stayed === true"), "the second phone's sheet was reloaded"
        shot(ben, "postgres_hand_on_the_other_server")

        ben.get_by_role("link", name="Runde 1 korrigieren").tap()
        expect(ben.get_by_role("heading", name="Runde 1 korrigieren")).to_be_visible()
        player_button(ben, "Ben").tap()
        expect(ben.locator(".toast")).to_contain_text("Runde 1 korrigiert")
        expect(anna.locator(".news")).to_contain_text(
            "Hand 1 was corrected on another phone", timeout=AT_ONCE_MS)
        expect(anna.locator(".totals .total")).to_have_text(["0", "1", "0"])
        shot(anna, "postgres_correction_on_the_other_server")
        assert anna.evaluate("window.stayed === true"), "the first phone's sheet was reloaded"
