"""A Burraco tournament match on a phone (RULES-NOTES B8): started from the new-match form,
three hands entered as counted on paper, and the end box with the pairs' Victory Points."""

import pytest
from playwright.sync_api import Page, expect

from phone import axe, expect_totals, fill_on_paper, readable, save_button, shot

pytestmark = pytest.mark.browser

US, THEM = "Anna & Carla", "Ben & Dan"


def enter_totals(page: Page, ours: int, theirs: int) -> None:
    """One hand, each side's total counted on paper."""
    fill_on_paper(page, ours, theirs)
    expect(page.locator("#preview .preview-side")).to_have_text(
        [f"{US} +{ours}", f"{THEM} +{theirs}"])
    save_button(page).tap()


def test_a_three_hand_tournament_match_ends_with_the_fibur_victory_points(page: Page):
    page.set_viewport_size({"width": 390, "height": 844})
    page.goto("/burraco/new")
    for seat, name in enumerate(["Anna", "Ben", "Carla", "Dan"]):
        page.locator("input[name=players]").nth(seat).fill(name)
    page.get_by_label("3 games", exact=True).check()
    expect(page.get_by_label("3 games", exact=True)).to_be_checked()
    shot(page, "burraco_tournament_new_match", full_page=True)
    page.locator("button.primary[name=action][value=start]").tap()

    header = page.locator(".scoreboard .next")
    expect(header).to_contain_text("Game 1 of 3: Anna deals, Ben leads.")
    expect(page.locator("#sheet > .unit")).to_contain_text("Tournament: FIBUR table, 3 games")
    expect(page.locator(".totals .to-go")).to_have_count(0)

    enter_totals(page, 410, 155)
    expect_totals(page, 410, 155)
    expect(header).to_contain_text("Game 2 of 3: Ben deals, Carla leads.")
    enter_totals(page, 300, 200)
    expect_totals(page, 710, 355)
    expect(header).to_contain_text("Game 3 of 3")
    enter_totals(page, 100, 150)
    expect_totals(page, 810, 505)

    # 305 match points apart: the FIBUR band 255–350 for 3 hands gives 13 to 7.
    end = page.locator(".tournament-end")
    expect(end).to_be_visible()
    rows = end.locator("tbody tr")
    expect(rows.nth(0).locator("th, td")).to_have_text([US, "810", "13"])
    expect(rows.nth(1).locator("th, td")).to_have_text([THEM, "505", "7"])
    expect(end.locator(".difference")).to_have_text("Difference: 305 match points")
    expect(end.locator(".vp-table")).to_have_text("Victory Points by: FIBUR table, 3 games")
    expect(page.locator("#panel")).to_have_count(0)
    expect(header).to_contain_text("Match over after 3 games.")
    end.scroll_into_view_if_needed()
    shot(page, "burraco_tournament_end")
    # UX.md: "strong contrast in light and dark mode", the end box too.
    found = []
    for scheme in ("light", "dark"):
        page.emulate_media(color_scheme=scheme)
        found += [(scheme, violation) for violation
                  in axe.run(page, context=".tournament-end").response["violations"]]
    assert not found, readable(found)
