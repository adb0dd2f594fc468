"""Fixtures for the web: an app on a fresh database, its test client, its CLI runner,
and for the browser tests the app served on a free local port and a phone to open it."""

import os
import re
import threading
from contextlib import contextmanager

import pytest
from flask import url_for
from hypothesis import settings
from playwright.sync_api import sync_playwright
from werkzeug.serving import make_server

from app import create_app
from phone import TABLE_LATENCY_MS, with_latency
from views import reach

CSRF_FIELD = re.compile(r'name="csrf_token" value="([^"]+)"')

# CI draws the same examples on every run, so a red run is a real finding and running it
# again repeats it; a run of one's own explores new examples each time. Either way a
# failure prints the @reproduce_failure line that replays it.
settings.register_profile("ci", derandomize=True, database=None, print_blob=True)
settings.register_profile("explore", print_blob=True)
settings.load_profile(os.environ.get("HYPOTHESIS_PROFILE", "explore"))


@pytest.fixture
def app(tmp_path):
    return create_app({"TESTING": True, "DATABASE": str(tmp_path / "tablemate.sqlite"),
                       "SECRET_KEY": "test"})


@pytest.fixture
def client(app):
    return app.test_client()


@pytest.fixture
def static_url(app):
    """A static file's address as the pages name it (versioned by its content)."""
    def versioned(filename: str) -> str:
        with app.test_request_context():
            return url_for("static", filename=filename)
    return versioned


@pytest.fixture
def runner(app):
    return app.test_cli_runner()


def csrf_token(client, page: str = "/") -> str:
    """The form token a page hands out, as a browser would read it."""
    return CSRF_FIELD.search(client.get(page).get_data(as_text=True)).group(1)


@pytest.fixture
def post(client):
    """POST a form the way a page does: with the CSRF token the page carries."""
    def send(url, data=None, **kwargs):
        form = {"csrf_token": csrf_token(client), **(data or {})}
        return client.post(url, data=form, **kwargs)
    return send


@pytest.fixture
def live_server(app):
    """The app on 127.0.0.1 in a thread, for Playwright; yields its base URL."""
    server = make_server("127.0.0.1", 0, app, threaded=True)
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    yield f"http://127.0.0.1:{server.server_port}"
    server.shutdown()
    thread.join()


@pytest.fixture
def table_wifi(monkeypatch) -> str:
    """This machine on a table's wifi, at the address it returns, whatever network runs the
    tests; no server answers there, as none does for the test client and ``live_server``,
    which serve 127.0.0.1 only."""
    monkeypatch.setattr(reach, "table_address", lambda: "192.168.1.23")
    monkeypatch.setattr(reach, "answers", lambda address, port, timeout=0.2: False)
    return "192.168.1.23"


# --- A phone for the browser tests ------------------------------------------------------------

CHROMIUM = "/usr/bin/chromium"
# No internet here: without these flags Chromium keeps trying to reach its services.
LAUNCH_ARGS = ["--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
               "--disable-background-networking", "--disable-component-update",
               "--disable-sync"]
CDN = re.compile(r"^https?://([^/]*\.)?unpkg\.com/")
NETWORK_NOTES = ("Failed to load resource", "htmx:sendError", "htmx:sendAbort",
                 "htmx:afterRequest", "Response Status Error Code 503 ")


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


def _then_htmx(page, navigate):
    """``navigate``, returning once htmx has taken over the page it opened."""
    def navigate_then_htmx(*args, **kwargs):
        response = navigate(*args, **kwargs)
        page.wait_for_function("() => window.htmx !== undefined")
        return response
    return navigate_then_htmx
