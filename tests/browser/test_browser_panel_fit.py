"""The counted games' panel on the table's two phone sizes, in both languages: a count
appearing moves no button (nor its sum line the steppers below), the field and the sum line
say the same, "Save" is in view without scrolling, and no control lies under a sticky side
name or the save bar."""

import re

import pytest
from playwright.sync_api import Locator, Page, expect

from phone import counter, open_match, save_button, shot, tap_button

pytestmark = pytest.mark.browser

SMALL, TALL = {"width": 360, "height": 640}, {"width": 390, "height": 844}
NAMES = ["Alexandra", "Christoph", "Maximilian", "Friederike"]
WORDS = {"en-US": {"table": "Cards on the table"}, "de-DE": {"table": "Ausgelegte Karten"}}
HIGH = {"burraco": "K–8", "buraco": "K–10"}


def first_side(page: Page) -> Locator:
    return page.locator("fieldset.side").first


def minus_of(box: Locator, label: str) -> Locator:
    return box.locator(".tap").filter(has=box.page.locator(
        ".tap-label", has_text=re.compile(rf"^{re.escape(label)}$"))).locator(".tap-minus")


def overlap(one: dict, other: dict) -> bool:
    return not (one["y"] + one["height"] <= other["y"] + 0.5
                or other["y"] + other["height"] <= one["y"] + 0.5)


PANELS = [("burraco", 2), ("burraco", 3), ("burraco", 4), ("buraco", 2), ("buraco", 3),
          ("buraco", 4)]
# Every panel in both languages on the small phone, where room runs out first, and on the
# tall one in a language each, both languages among them.
CASES = [pytest.param(game, players, SMALL, locale, id=f"{game}-{players}-360x640-{locale}")
         for game, players in PANELS for locale in ("en-US", "de-DE")] + [
    pytest.param(game, players, TALL, locale, id=f"{game}-{players}-390x844-{locale}")
    for (game, players), locale in zip(PANELS, ["de-DE", "en-US"] * 3, strict=True)]


@pytest.mark.parametrize("game, players, viewport, locale", CASES)
def test_the_panel_fits_the_phone(page: Page, game, players, viewport, locale):
    """The issue: "a count appearing in a tap-counter button grows it and pushes the "−" row
    under the finger; a typed value and taps disagree (the field says 15, the sum line
    215); the sticky side name covers the first "−" and half of the pozzetto chip", and
    "Save" lay 2.5–3.6 screens down."""
    page.set_viewport_size(viewport)
    words = WORDS[locale]
    open_match(page, game, NAMES[:players])
    problems = []
    expect(save_button(page)).to_be_in_viewport(ratio=1)
    tag = f"{game}_{players}_{viewport['width']}_{locale[:2]}"
    shot(page, f"panel_{tag}_open")

    table = counter(first_side(page), words["table"])
    field = table.locator("input[type=number]")
    field.fill("15")
    minus = minus_of(table, HIGH[game])
    minus.scroll_into_view_if_needed()
    stepper = first_side(page).locator(".stepper").first
    before, below = minus.bounding_box(), stepper.bounding_box()
    tap_button(table, HIGH[game]).tap()
    expect(tap_button(table, HIGH[game]).locator(".tap-count")).to_be_visible()
    after = minus.bounding_box()
    if (before["x"], before["y"]) != (after["x"], after["y"]):
        problems.append(f"the count moved the '−' from {before} to {after}")
    # The sum line takes the hint's place: the burraco steppers below stay where they were.
    if stepper.bounding_box()["y"] != below["y"]:
        problems.append(f"the sum line moved the steppers from y={below['y']:.0f} "
                        f"to y={stepper.bounding_box()['y']:.0f}")
    expect(field).to_have_value("25")
    expect(table.locator(".tap-sum .sum-text")).to_have_text("15 + 1×10 = 25")
    expect(save_button(page)).to_be_in_viewport(ratio=1)
    shot(page, f"panel_{tag}_tapped")

    # Every control of the first side, brought into view as the keyboard or a refusal
    # brings it, lies clear of its sticky name, the scoreboard and the save bar.
    name = first_side(page).locator("legend.side-name")
    bar = page.locator(".save-bar")
    controls = first_side(page).locator(
        "button:visible, input[type=number]:visible, label.chip:visible")
    for index in range(controls.count()):
        control = controls.nth(index)
        control.evaluate("control => control.scrollIntoView({block: 'nearest'})")
        box = control.bounding_box()
        for what, cover in (("its side's name", name), ("the scoreboard", page.locator(".scoreboard")),
                            ("the save bar", bar)):
            covering = cover.bounding_box()
            if overlap(box, covering):
                problems.append(f"{what} covers {control.inner_text() or control.get_attribute('name')!r}"
                                f" (at y={box['y']:.0f}, {what} {covering['y']:.0f}"
                                f"–{covering['y'] + covering['height']:.0f})")
    assert not problems, "\n".join(problems)
