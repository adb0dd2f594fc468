"""The matches on this device on a phone: rename, archive, delete and undo by taps. (axe
reads the home page with matches in test_accessibility.py.)"""

import pytest
from helpers import MATCHES
from playwright.sync_api import Page, expect

from phone import shot

pytestmark = pytest.mark.browser


def tools(page: Page, players: str):
    """The listed match of these players, its folded tools unfolded."""
    item = page.locator("#my-matches li.listed", has_text=players)
    item.locator(".match-tools > summary").click()
    return item


@pytest.mark.browser
def test_rename_archive_delete_and_undo_on_a_phone(page: Page, client):
    for players, burros, limit in ((["Anna", "Ben", "Carla"], [1], 5),
                                   (["Dora", "Emil"], [0], 1),
                                   (["Fritz", "Greta", "Hans", "Ines"], [], 5)):
        token = client.post(MATCHES, json={"game": "burro", "players": players,
                                           "options": {"limit": limit}}).json["token"]
        for player in burros:
            client.post(f"{MATCHES}/{token}/hands", json={"burro": player})
        # Opened on this phone (its cookies), as the home page lists them.
        assert page.request.get(f"/m/{token}").ok
    page.goto("/")
    page.evaluate("window.__marker = 1")
    matches = page.locator("#my-matches")
    expect(matches.locator(".recent > li")).to_have_count(3)
    # Dora and Emil's match ended: marked, and listed after the running ones.
    expect(matches.locator(".recent > li").last.locator(".ended-mark")).to_have_text("Ended")
    shot(page, "home_matches", full_page=True)

    item = tools(page, "Anna · Ben · Carla")
    item.get_by_label("Title").fill("Friday night")
    item.get_by_role("button", name="Rename").click()
    expect(matches.locator(".recent strong", has_text="Friday night")).to_be_visible()
    shot(page, "home_matches_renamed")

    item = tools(page, "Friday night")
    item.get_by_role("button", name="Archive").click()
    archived = matches.locator("details.archived")
    expect(archived.locator("> summary")).to_have_text("Archived (1)")
    archived.locator("> summary").click()
    expect(archived.locator("strong", has_text="Friday night")).to_be_visible()
    expect(matches.locator(".recent").first.locator("> li")).to_have_count(2)

    item = tools(page, "Fritz · Greta · Hans · Ines")
    item.locator(".confirm-delete > summary").click()
    shot(page, "home_matches_confirm_delete")
    item.get_by_role("button", name="Delete this match").click()
    toast = matches.locator(".toast")
    expect(toast).to_contain_text("was deleted.")
    expect(matches.locator("li.listed", has_text="Fritz")).to_have_count(1)  # under "Deleted"
    shot(page, "home_matches_deleted")
    toast.get_by_role("button", name="Undo").click()
    expect(matches.locator(".toast")).to_have_count(0)
    expect(matches.locator(".recent").first.locator("> li", has_text="Fritz")).to_be_visible()
    assert page.evaluate("window.__marker") == 1, "a tap reloaded the page"

