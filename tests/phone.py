"""Helpers the browser tests share: screenshots to look at, and checks that note a problem
and let the flow go on, so one wrong detail does not hide the rest."""

from pathlib import Path

from playwright.sync_api import Locator, Page, expect

SCREENSHOTS = Path(__file__).parent / "screenshots"
# A table's wifi, as UX.md asks the browser tests to emulate.
TABLE_LATENCY_MS = 300


def shot(page: Page, name: str, full_page: bool = False) -> None:
    """A screenshot in tests/screenshots/ (full page: from the top, or the sticky
    scoreboard is drawn mid-page)."""
    SCREENSHOTS.mkdir(exist_ok=True)
    if full_page:
        page.evaluate("window.scrollTo(0, 0)")
    # caret="initial": hiding the caret writes a style attribute on every text field, which
    # the page's strict CSP then refuses to apply when htmx copies the page for Back.
    page.screenshot(path=str(SCREENSHOTS / f"{name}.png"), full_page=full_page,
                    caret="initial")


def later(problems: list[str], what: str, check) -> None:
    """Run an expectation now; a failure is noted, and the test fails at its end."""
    try:
        check()
    except AssertionError as error:
        problems.append(f"{what}: {str(error).splitlines()[0]}")


def in_view(page: Page, locator: Locator, what: str, problems: list[str],
            whole: bool = False) -> None:
    """Something the player must see after a tap: in the viewport (``whole``: all of it,
    for a message that must be read from its start), else noted with where it is."""
    try:
        expect(locator).to_be_in_viewport(ratio=1 if whole else 0, timeout=1000)
    except AssertionError:
        box = locator.bounding_box()
        problems.append(f"{what} is out of view: drawn at y={box and round(box['y'])} "
                        f"(viewport 390×844, page scrolled to "
                        f"{page.evaluate('Math.round(window.scrollY)')})")


def with_latency(page: Page, latency_ms: int) -> None:
    """Delay every request of ``page`` by ``latency_ms`` (Chrome's network emulation)."""
    devtools = page.context.new_cdp_session(page)
    devtools.send("Network.enable")
    devtools.send("Network.emulateNetworkConditions", {
        "offline": False, "latency": latency_ms, "downloadThroughput": -1,
        "uploadThroughput": -1})
