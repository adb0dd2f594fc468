"""The entry panel's controls on a static page, with no server behind them: what a player
sees after each tap (static/panel/controls.js on tests/browser/pages/controls.html), and the
tap counter's sum, the same in the browser as on the server."""

from pathlib import Path

import pytest
from playwright.sync_api import Page, Route, expect

from phone import tap_button
from views.games.counted import SideDraft, tap_sum

pytestmark = pytest.mark.browser

ROOT = Path(__file__).resolve().parent.parent.parent
ORIGIN = "http://controls.test"
FILES = {"/": Path(__file__).parent / "pages" / "controls.html",
         "/static/panel/controls.js": ROOT / "static" / "panel" / "controls.js"}


def serve(route: Route) -> None:
    """The fixture page and the module, as a server would send them; nothing else."""
    path = "/" + route.request.url.removeprefix(ORIGIN).lstrip("/").split("?")[0]
    if path not in FILES:
        route.fulfill(status=404)
        return
    kind = "text/javascript" if path.endswith(".js") else "text/html"
    route.fulfill(status=200, body=FILES[path].read_bytes(), content_type=f"{kind}; charset=utf-8")


@pytest.fixture(scope="module")
def context(browser):
    """A phone with no network but the route to the fixture page."""
    opened = browser.new_context(viewport={"width": 390, "height": 844}, is_mobile=True,
                                 has_touch=True)
    opened.set_default_timeout(5000)
    opened.route(f"{ORIGIN}/**", serve)
    yield opened
    opened.close()


def opened(context):
    """The fixture page, its module run (a module runs before the load event that ``goto``
    waits for); any script error fails the test."""
    page = context.new_page()
    errors = []
    page.on("pageerror", lambda error: errors.append(error))
    page.goto(f"{ORIGIN}/")
    yield page
    page.close()
    assert not errors, errors


@pytest.fixture
def panel(context) -> Page:
    """A fresh panel for each test of taps."""
    yield from opened(context)


@pytest.fixture(scope="module")
def module(context) -> Page:
    """One page for the table of sums, which asks the module and taps nothing."""
    yield from opened(context)


def test_a_stepper_adds_one_a_tap_and_stops_at_its_max(panel: Page):
    more = panel.get_by_role("button", name="One more")
    less = panel.get_by_role("button", name="One less")
    count = panel.locator("output[data-count-of=s0_clean]")
    expect(less).to_be_disabled()
    more.tap()
    expect(count).to_have_text("1")
    expect(less).to_be_enabled()
    more.tap()
    more.tap()
    expect(count).to_have_text("2")
    expect(panel.locator("input[name=s0_clean]")).to_have_value("2")
    less.tap()
    less.tap()
    expect(count).to_have_text("0")
    expect(less).to_be_disabled()


def test_the_sign_key_turns_a_typed_total_around(panel: Page):
    panel.get_by_role("button", name="Total only").tap()
    total = panel.get_by_label("Total", exact=True)
    total.fill("35")
    sign = panel.get_by_role("button", name="Plus or minus")
    sign.tap()
    expect(total).to_have_value("-35")
    sign.tap()
    expect(total).to_have_value("35")


def test_taps_on_the_counter_show_the_piles_sum_as_the_server_writes_it(panel: Page):
    """UX "Tap counter": "a long list of taps is shown as "3×10 + 2×5 + 1×30"", counting on
    from the points typed into the field, which shows the sum; the line is the one the
    server's page shows for the same taps."""
    counter = panel.locator(".counter")
    line = counter.locator(".tap-sum")
    expect(line.locator(".sum-hint")).to_have_text("Each tap adds one card.")
    expect(line.get_by_role("button", name="Count again")).to_be_hidden()
    typed = counter.get_by_label("Cards on the table")
    typed.fill("185")
    tap_button(counter, "K–8").tap()
    for _tap in range(3):
        tap_button(counter, "Joker").tap()
    tap_button(counter, "K–8").tap()
    # Each tap adds its card to the field: it and the line say the same 295.
    expect(typed).to_have_value("295")
    on_server = SideDraft(values={"joker": 30, "high": 10}, typed={"table": "295"},
                          taps={"table": {"joker": 3, "high": 2}}, counts={}, choice="")
    assert on_server.tap_summary("table") == "185 + 3×30 + 2×10 = 295"
    expect(line.locator(".sum-text")).to_have_text(on_server.tap_summary("table"))
    expect(counter.locator(".tap-count")).to_have_text(["×3", "×2"])

    line.get_by_role("button", name="Count again").tap()
    expect(line.locator(".sum-hint")).to_be_visible()
    expect(line.get_by_role("button", name="Count again")).to_be_hidden()
    expect(typed).to_have_value("")
    for count in counter.locator(".tap-count").all():
        expect(count).to_be_hidden()


def test_a_choice_shows_and_enables_only_the_parts_that_follow_it(panel: Page):
    """A part data-when hides sends nothing: the fields in it are disabled too; the parts
    data-unless hides go while the choice holds."""
    total_only = panel.get_by_role("button", name="Total only")
    parts = panel.get_by_role("button", name="Count the parts")
    entry = panel.locator(".total-entry")
    total = panel.get_by_label("Total", exact=True)
    expect(entry).to_be_hidden()
    expect(total).to_be_disabled()
    total_only.tap()
    expect(entry).to_be_visible()
    expect(total).to_be_enabled()
    expect(panel.locator(".parts")).to_be_hidden()
    expect(total_only).to_have_attribute("aria-pressed", "true")
    expect(parts).to_have_attribute("aria-pressed", "false")
    parts.tap()
    expect(entry).to_be_hidden()
    expect(total).to_be_disabled()
    expect(panel.locator(".parts")).to_be_visible()


def test_the_other_side_follows_a_typed_complement_until_typed_itself(panel: Page):
    """Two sides' card points add up to 120: typing one fills in the other, until the
    player types the other too."""
    anna = panel.get_by_label("Anna's card points")
    ben = panel.get_by_label("Ben's card points")
    anna.fill("70")
    expect(ben).to_have_value("50")
    anna.fill("85")
    expect(ben).to_have_value("35")
    ben.fill("40")
    anna.fill("60")
    expect(ben).to_have_value("40")


@pytest.mark.parametrize("typed, taps, values", [
    ("", {}, {}),
    ("", {"two": 2}, {"two": 20}),
    ("185", {"high": 3, "joker": 1}, {"high": 10, "joker": 30}),
    (" 12 ", {"low": 1}, {"low": 5}),
    ("-35", {"ace": 1}, {"ace": 15}),
    ("007", {"high": 0}, {"high": 10}),
    ("999999999", {"joker": 60}, {"joker": 30}),
    ("1234567890", {}, {}),
    ("12.5", {"high": 1}, {"high": 10}),
    ("18x", {"high": 1}, {"high": 10}),
    ("+5", {}, {}),
    ("²", {}, {}),
    ("   ", {"low": 2}, {"low": 5}),
])
def test_the_browser_sums_a_pile_as_the_server_does(module, typed, taps, values):
    """``tapSum`` (static/panel/controls.js) and ``tap_sum`` (views/games/counted.py) are
    one rule in two places: the same points, or no number for text that is none."""
    in_browser = module.evaluate("""async ([typed, taps, values]) => {
        const { tapSum } = await import("/static/panel/controls.js");
        return tapSum(typed, taps, values);
    }""", [typed, taps, values])
    assert in_browser == tap_sum(typed, taps, values)
