"""Helpers the browser tests share: screenshots to look at, and checks that note a problem
and let the flow go on, so one wrong detail does not hide the rest."""

import re
from collections.abc import Callable
from contextlib import contextmanager
from pathlib import Path

import pytest
from axe_playwright_python.sync_playwright import Axe
from playwright.sync_api import Locator, Page, expect

SCREENSHOTS = Path(__file__).parent / "screenshots"
# The table's two phones, for tests parametrized over both.
PHONES = [pytest.param({"width": 390, "height": 844}, id="390x844"),
          pytest.param({"width": 360, "height": 640}, id="360x640")]
# A table's wifi, as UX.md asks the browser tests to emulate.
TABLE_LATENCY_MS = 300


def shot(page: Page, name: str, full_page: bool = False) -> None:
    """A screenshot in tests/browser/screenshots/ (full page: from the top, or the sticky
    scoreboard is drawn mid-page)."""
    SCREENSHOTS.mkdir(exist_ok=True)
    if full_page:
        page.evaluate("window.scrollTo(0, 0)")
    # caret="initial": hiding the caret writes a style attribute on every text field, which
    # the page's strict CSP then refuses to apply when htmx copies the page for Back.
    # A whole page at the phone's two device pixels to a CSS pixel takes seconds to encode;
    # at one it reads as well.
    page.screenshot(path=str(SCREENSHOTS / f"{name}.png"), full_page=full_page,
                    caret="initial", scale="css" if full_page else "device")


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


def with_latency(page: Page, latency_ms: int) -> Callable[[bool], None]:
    """Delay every request of ``page`` by ``latency_ms`` (Chrome's network emulation); the
    switch it returns takes that wifi away and brings it back (``offline``). Playwright's
    ``set_offline`` and this emulation override each other: a slow phone goes offline by
    the switch."""
    devtools = page.context.new_cdp_session(page)
    devtools.send("Network.enable")

    def switch(offline: bool) -> None:
        devtools.send("Network.emulateNetworkConditions", {
            "offline": offline, "latency": latency_ms, "downloadThroughput": -1,
            "uploadThroughput": -1})

    switch(False)
    return switch


def side(page: Page, label: str) -> Locator:
    """A side's card on the panel, by its legend ("Anna & Carla")."""
    return page.locator("fieldset.side").filter(
        has=page.locator("legend", has_text=re.compile(rf"^\s*{re.escape(label)}\s*$")))


def counter(card: Locator, label: str) -> Locator:
    """A side's tap counter: "Cards on the table" or "Cards left in hand"."""
    return card.locator(".counter").filter(has_text=label)


def tap_button(box: Locator, label: str) -> Locator:
    """The counter's button for a value class: "Joker", "2", "A", "K–8", "7–3"."""
    return box.locator("button.tap-add").filter(
        has=box.page.locator(".tap-label", has_text=re.compile(rf"^{re.escape(label)}$")))


@contextmanager
def preview_answered(page: Page):
    """Wait, after what the block enters, for the preview's answer itself: it comes after the
    panel's pause, when an assertion that polls would meet it up to half a second late."""
    with page.expect_response(lambda response: response.url.endswith("/draft")):
        yield


def expect_totals(page: Page, *totals: int) -> None:
    """The scoreboard's totals, negative ones with the typographic minus."""
    expect(page.locator(".totals .total")).to_have_text(
        [str(t).replace("-", "\u2212") for t in totals])


def save_button(page: Page) -> Locator:
    return page.locator("#panel button.primary")


def fill_on_paper(page: Page, *totals: int) -> None:
    """Each side of a Burraco or Buraco panel's totals, counted on paper ("Total only"),
    each preview answered; not saved yet."""
    for index, total in enumerate(totals):
        card = page.locator("fieldset.side").nth(index)
        paper = card.get_by_role("button", name="Total only")
        if paper.get_attribute("aria-pressed") != "true":
            paper.tap()
        expect(paper).to_have_attribute("aria-pressed", "true")
        with preview_answered(page):
            card.locator(f"input[name=s{index}_total]").fill(str(total))


class Thumb:
    """Taps on a Burraco or Buraco side by meld, counted: issue 39's measure of a hand's
    entry. The controls are found by what they send, so one flow serves both languages."""

    def __init__(self, page: Page):
        self.page, self.taps = page, 0

    def tap(self, target: Locator) -> None:
        target.tap()
        self.taps += 1

    def side(self, index: int) -> Locator:
        return self.page.locator("fieldset.side").nth(index)

    def by_meld(self, index: int) -> None:
        self.tap(self.side(index).locator(f'button[value="mode:{index}:melds"]'))

    def ready(self, index: int, name: str) -> None:
        self.tap(self.side(index).locator(f'button[value="meld:{index}:{name}"]'))

    def set_of(self, index: int, rank: str) -> None:
        self.tap(self.side(index).locator(f'button[value="set:{index}:{rank}"]'))

    def closed(self, index: int) -> None:
        self.tap(self.page.locator("fieldset.closer label.chip").filter(
            has=self.page.locator(f'input[value="{index}"]')))

    def cards(self, index: int, *codes: str) -> None:
        for code in codes:
            self.tap(self.side(index).locator(f'.by-meld button.pick[value="{code}"]'))

    def into_hand(self, index: int) -> None:
        self.tap(self.side(index).locator("label.chip").filter(
            has=self.page.locator(f'input[value="s{index}_in_hand"]')))


def player_button(page: Page, name: str):
    return page.locator(".player-buttons button", has=page.locator(".name", has_text=name))


TWO = ["Anna", "Ben"]


STORE_PREFIX = "tablemate:entry:"


QUEUE_PREFIX = "tablemate:queue:"


def open_match(page: Page, game: str, players: list[str], **options) -> str:
    """Start a match through the JSON API and open its sheet; its token."""
    created = page.request.post("/api/v1/matches", data={
        "game": game, "players": players, "options": options})
    assert created.status == 201, created.text()
    token = created.json()["token"]
    page.goto(f"/m/{token}")
    return token


def stored_hands(page: Page, token: str) -> list[dict]:
    """The hands the server holds for the match."""
    return page.request.get(f"/api/v1/matches/{token}").json()["hands"]


def saves_sent(page: Page, token: str) -> list[str]:
    """The saves this phone sends for the match from now on, answered or not: each one
    that reaches the server brings a whole sheet back (kept up to date)."""
    sent = []
    page.on("request", lambda request: request.method == "POST"
            and request.url.endswith(f"/m/{token}/hands") and sent.append(request.url))
    return sent


def typed(page: Page, side_name: str, pile: str) -> Locator:
    """A side's typed points: pile "Cards on the table" or "Cards left in hand"."""
    return counter(side(page, side_name), pile).locator("input[type=number]")


def history_rows(page: Page) -> Locator:
    """The history's rows of the hands the server holds."""
    return page.locator(".history tbody tr:not(.breakdown):not(.waiting)")


def waiting_rows(page: Page) -> Locator:
    """The history's greyed rows of the new hands waiting on this phone to be sent."""
    return page.locator(".history tbody tr.waiting")


def nothing_waits(page: Page, token: str) -> None:
    """Wait until the phone keeps no new hand of the match to send: from then on it sends
    none."""
    page.wait_for_function("(key) => localStorage.getItem(key) === null",
                           arg=QUEUE_PREFIX + token)


# How often a sheet sends again what the server has not taken yet (static/panel.js).
RESEND_MS = 4000


def send_again_now(page: Page) -> None:
    """Move the page's clock (``page.clock.install()`` before it opened) on to its next
    sending again of what waits, rather than wait that out."""
    page.clock.fast_forward(RESEND_MS)


def after_a_chance_to_send(page: Page) -> None:
    """The browser tells the page the connection is back, then the page asks the server
    something itself: anything the phone would send goes out before that question."""
    page.evaluate("""async () => {
        window.dispatchEvent(new Event("online"));
        await fetch("/", {cache: "no-store"});
    }""")


def looked_after(page: Page) -> None:
    """Wait until the service worker controls the page and has kept it."""
    page.wait_for_function("() => navigator.serviceWorker.controller !== null")
    page.wait_for_function("""async () => {
        const kept = await caches.open("tablemate-pages");
        return Boolean(await kept.match(location.pathname));
    }""")


axe = Axe()


def readable(violations: list[tuple[str, dict]]) -> str:
    """axe's findings as lines a person can act on: scheme, rule, impact, what, where."""
    lines = []
    for scheme, violation in violations:
        targets = [" ".join(node["target"]) for node in violation["nodes"][:3]]
        more = len(violation["nodes"]) - len(targets)
        lines.append(f"{scheme}: {violation['id']} ({violation['impact']}): {violation['help']}"
                     f"\n    at {', '.join(targets)}{f' and {more} more' if more else ''}")
    return "\n".join(lines)


CDN = re.compile(r"^https?://([^/]*\.)?unpkg\.com/")


NETWORK_NOTES = ("Failed to load resource", "htmx:sendError", "htmx:sendAbort",
                 "htmx:afterRequest", "Response Status Error Code 503 ")


@contextmanager
def open_phone(browser, live_server, locale, cdn_requests):
    """A fresh phone at 390×844 (its own cookies) with no way to the CDN, as at a table
    without internet: the pages must fall back to the bundled htmx. ``goto`` and ``reload``
    return once htmx has taken over. Any script error (a CSP refusal among them) fails the
    test."""
    context = browser.new_context(
        base_url=live_server, viewport={"width": 390, "height": 844}, device_scale_factor=2,
        is_mobile=True, has_touch=True, locale=locale)
    context.set_default_timeout(5000)

    def offline(route):
        cdn_requests.append(route.request.url)
        route.abort()

    context.route(CDN, offline)
    page = context.new_page()
    # htmx takes over after the load event (static/htmx-loader.js); a player looks before the
    # first tap, so a test waits for it after every page it opens.
    page.goto, page.reload = _then_htmx(page, page.goto), _then_htmx(page, page.reload)
    problems = []
    page.on("pageerror", lambda error: problems.append(f"uncaught: {error}"))
    # Failed loads are not script errors: the refused CDN and the 422 answers that carry a
    # form with its message are expected, and so are htmx's notes of a request the wifi
    # dropped or a newer request replaced, or that the server could not serve just now
    # (503; any other 5xx is an error).
    page.on("console", lambda message: message.type == "error"
            and not message.text.startswith(NETWORK_NOTES)
            and problems.append(f"console: {message.text}"))
    yield page
    context.close()
    assert not problems, f"script errors in the page: {problems}"


def _then_htmx(page, navigate):
    """``navigate``, returning once htmx has taken over the page it opened."""
    def navigate_then_htmx(*args, **kwargs):
        response = navigate(*args, **kwargs)
        page.wait_for_function("() => window.htmx !== undefined")
        return response
    return navigate_then_htmx
