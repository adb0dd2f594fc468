"""The page never waits on the network it does not own, on a phone in real Chromium.

UX.md: "The page never waits on a third party. First paint comes from our own server
alone." htmx comes after the page: from its pinned CDN address when that answers within
1.5 s, else from the bundled copy, and only ever one of the two runs.
"""

import re

import pytest
from helpers import ROOT
from playwright.sync_api import Page, Route, expect

from phone import TABLE_LATENCY_MS

pytestmark = pytest.mark.browser

STATIC = ROOT / "static"
FIRST_PAINT_MS = 1000
# The CDN's 1.5 s after the page, then the bundled copy from our own server.
HTMX_AT_WORK_MS = 2500

# Each copy of htmx ends by setting the global "htmx": note the file of every copy that ran.
RECORD_HTMX_COPIES = """
window.htmxCopies = [];
let htmxInUse;
Object.defineProperty(window, "htmx", {
  configurable: true,
  get: () => htmxInUse,
  set: (copy) => { window.htmxCopies.push(document.currentScript.src); htmxInUse = copy; },
});
"""


@pytest.fixture
def cdn(app) -> str:
    """The pinned CDN address of htmx."""
    return app.config["HTMX_CDN_URL"]


@pytest.fixture
def bundled(app, live_server, static_url) -> str:
    """The address of the bundled copy."""
    return live_server + static_url(app.config["HTMX_VENDORED"])


@pytest.fixture
def serve_from_cdn(app):
    """Answer a held CDN request with the genuine file, as the CDN would."""
    body = (STATIC / app.config["HTMX_VENDORED"]).read_bytes()
    return lambda route: route.fulfill(body=body, content_type="text/javascript",
                                       headers={"Access-Control-Allow-Origin": "*"})


def requests_to(page: Page, url: str) -> list[str]:
    """The requests ``page`` makes to ``url`` from now on (kept up to date)."""
    made = []
    page.on("request", lambda request: request.url == url and made.append(request.url))
    return made


def hold(page: Page, url: str) -> list[Route]:
    """Requests to ``url`` get no answer until the test gives one."""
    held = []
    page.route(url, lambda route: held.append(route))
    return held


def open_burraco_sheet(page: Page) -> None:
    """Open a new two-player Burraco sheet, noting every copy of htmx that runs on it."""
    page.add_init_script(RECORD_HTMX_COPIES)
    created = page.request.post("/api/v1/matches", data={
        "game": "burraco", "players": ["Anna", "Ben"], "options": {"target": 505}})
    assert created.status == 201, created.text()
    sheet = f"/m/{created.json()['token']}"
    # The server's first rendering compiles the templates: time the network, not that.
    page.request.get(sheet)
    page.goto(sheet)


def htmx_copies(page: Page) -> list[str]:
    """The files of the htmx copies that ran, in order."""
    return page.evaluate("window.htmxCopies")


def ms_since_navigation(page: Page) -> float:
    """Milliseconds since the page was asked for."""
    return page.evaluate("performance.now()")


def one_tap_counts_one_card(page: Page) -> None:
    """A tap on the tap counter's first class counts one card, and htmx asks our server
    about it once (for the panel or its preview), on the same page (no reload)."""
    page.evaluate("window.samePage = true")
    first_class = page.locator("button.tap-add").first
    posts = []
    page.on("request", lambda request: request.method == "POST"
            and posts.append(request.headers.get("hx-request")))
    with page.expect_response(lambda response: response.request.method == "POST"):
        first_class.tap()
    expect(first_class.locator(".tap-count")).to_have_text("×1")
    # A second copy of htmx would send its request along with the first, before any answer.
    assert posts == ["true"], "one tap, one request through htmx"
    assert page.evaluate("window.samePage"), "the tap reloaded the whole page"


def test_a_slow_phone_waits_its_latency_for_every_answer(slow_phone: Page):
    """UX.md: "Test it as it is used: in Chromium at 390×844 with 300 ms of emulated
    latency"."""
    slow_phone.goto("/")
    waited = slow_phone.evaluate("""async () => {
        const start = performance.now();
        await fetch("/", {cache: "no-store"});
        return performance.now() - start;
    }""")
    assert waited >= TABLE_LATENCY_MS


def test_a_silent_cdn_holds_up_neither_the_first_paint_nor_htmx(page: Page, cdn, bundled):
    """The CDN never answers: "With the CDN not answering at all, first contentful paint
    stays under 1 s on the sheet", and the bundled htmx takes over."""
    held = hold(page, cdn)
    open_burraco_sheet(page)
    first_paint = page.evaluate(
        "performance.getEntriesByName('first-contentful-paint')[0].startTime")
    assert first_paint < FIRST_PAINT_MS
    tapped_at = ms_since_navigation(page)
    one_tap_counts_one_card(page)
    assert tapped_at < HTMX_AT_WORK_MS
    assert len(held) == 1, "the page should have asked the CDN first"
    assert htmx_copies(page) == [bundled]


def test_a_search_typed_before_htmx_came_is_searched_once_it_comes(page: Page, cdn, live_server):
    """The CDN silent, the player types at once: the bundled htmx, 1.5 s later, searches
    what was typed, without another keystroke."""
    hold(page, cdn)
    page.main_frame.goto(f"{live_server}/rules")  # page.goto would wait for htmx
    page.locator("#rules-q").fill("Moskau")
    assert page.evaluate("window.htmx === undefined"), "typed after htmx came"
    expect(page).to_have_url(re.compile(r"/rules/search\?q=Moskau&"))
    expect(page.locator("#results .hits a").first).to_be_visible()
    expect(page.locator("#results mark").first).to_have_text(re.compile("moskau|moscow", re.I))


def test_a_late_cdn_answer_is_ignored(page: Page, cdn, bundled, serve_from_cdn):
    """The CDN answers once the bundled copy runs: "one copy runs, never both; a late CDN
    answer is ignored"."""
    held = hold(page, cdn)
    open_burraco_sheet(page)
    # Late: the page stopped waiting for the CDN and the bundled copy took over.
    assert htmx_copies(page) == [bundled]
    serve_from_cdn(held[0])
    page.wait_for_function("url => performance.getEntriesByName(url).length", arg=cdn)
    one_tap_counts_one_card(page)
    assert htmx_copies(page) == [bundled], "the late CDN copy ran as well"


def test_a_quick_cdn_serves_htmx_and_the_bundled_copy_stays_unasked(
        page: Page, cdn, bundled, serve_from_cdn):
    """The CDN answers at once: its copy runs, and the bundled one is never fetched."""
    page.route(cdn, serve_from_cdn)
    asked_cdn, asked_bundled = requests_to(page, cdn), requests_to(page, bundled)
    open_burraco_sheet(page)
    one_tap_counts_one_card(page)
    assert htmx_copies(page) == [cdn]
    assert len(asked_cdn) == 1, "the preloaded CDN file should be fetched once"
    assert asked_bundled == []
