"""The browser lane: the app served on a free local port, and Debian's Chromium to open it
as the phones at the table do."""

import threading

import pytest
from playwright.sync_api import sync_playwright
from werkzeug.serving import make_server

from phone import TABLE_LATENCY_MS, open_phone, with_latency


@pytest.fixture(scope="session")
def shared_server():
    """One server on 127.0.0.1 for the whole run, in a thread; each test hands it its app.
    (Stopping a server waits out its half-second poll: half a second a test.)"""
    served = make_server("127.0.0.1", 0, None, threaded=True)
    thread = threading.Thread(target=served.serve_forever, daemon=True)
    thread.start()
    yield served
    served.shutdown()
    thread.join()


@pytest.fixture
def live_server(shared_server, app):
    """The test's app served for Playwright; yields its base URL."""
    shared_server.app = app
    yield f"http://127.0.0.1:{shared_server.server_port}"
    shared_server.app = None


CHROMIUM = "/usr/bin/chromium"
# No internet here: without these flags Chromium keeps trying to reach its services.
LAUNCH_ARGS = ["--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
               "--disable-background-networking", "--disable-component-update",
               "--disable-sync"]


@pytest.fixture(scope="session")
def browser():
    """Debian's Chromium, headless, for the whole run."""
    with sync_playwright() as playwright:
        browser = playwright.chromium.launch(executable_path=CHROMIUM, args=LAUNCH_ARGS)
        yield browser
        browser.close()


@pytest.fixture
def locale() -> str:
    """The phone's language; a test overrides it with ``@pytest.mark.parametrize``."""
    return "en-US"


@pytest.fixture
def cdn_requests() -> list[str]:
    """The CDN requests the pages tried (and were refused)."""
    return []


@pytest.fixture
def page(browser, live_server, locale, cdn_requests):
    """A phone at the table (see ``open_phone``)."""
    with open_phone(browser, live_server, locale, cdn_requests) as opened:
        yield opened


@pytest.fixture
def other_phone(browser, live_server, locale, cdn_requests):
    """A second phone on the same table: its own cookies and its own local storage."""
    with open_phone(browser, live_server, locale, cdn_requests) as opened:
        yield opened


@pytest.fixture
def slow_phone(page):
    """The phone on the table's wifi: every request waits ``TABLE_LATENCY_MS`` more."""
    with_latency(page, TABLE_LATENCY_MS)
    return page


