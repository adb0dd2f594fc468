"""The table live, on phones: a hand saved on one phone shows on the others (and on the
watch-only link) within a second, without a tap; a phone that cannot hold its stream asks
instead and still follows; a server killed and started again, and a phone that was away,
catch up by themselves. Screenshots: tests/browser/screenshots/live_*.png."""

import http.client
import os
import signal
import subprocess
import threading

import pytest
from playwright.sync_api import Page, expect

from benchmarks.serve import ROOT, START_LIMIT, free_port, run_command
from phone import open_phone, shot

pytestmark = pytest.mark.browser

PLAYERS = ["Anna", "Ben", "Carla"]
# What "at once" means at a table: the other phones show a hand within this.
AT_ONCE_MS = 1000


def burro_match(page: Page) -> dict:
    return page.request.post("/api/v1/matches", data={"game": "burro",
                                                      "players": PLAYERS}).json()


def save(page: Page, token: str, burro: int) -> None:
    assert page.request.post(f"/api/v1/matches/{token}/hands",
                             data={"burro": burro}).status == 201


def totals(page: Page):
    return page.locator(".totals .total")


def test_a_hand_saved_on_one_phone_shows_on_the_others_and_the_watch_link_at_once(
        page: Page, other_phone: Page, browser, live_server, locale, cdn_requests):
    match = burro_match(page)
    other_phone.goto(f"/m/{match['token']}")
    with open_phone(browser, live_server, locale, cdn_requests) as watcher:
        watcher.goto(f"/v/{match['view_token']}")
        page.goto(f"/m/{match['token']}")
        page.locator(".player-buttons button", has_text="Carla").tap()
        expect(page.locator(".toast")).to_contain_text("Hand 1: ")
        for phone in (other_phone, watcher):
            expect(phone.locator(".news")).to_contain_text(
                "Hand 1 was saved on another phone: Carla +1", timeout=AT_ONCE_MS)
            expect(totals(phone)).to_have_text(["0", "0", "1"])
        expect(watcher.locator("#panel, form[data-local-panel]")).to_have_count(0)
        shot(watcher, "live_watch_link")
    shot(other_phone, "live_other_phone")
    # The phone that saved hears its own change as no news.
    expect(page.locator(".news")).to_have_count(0)


# The page's pace without a stream (static/panel.js): it gives the stream up after this many
# failures, and then asks this often.
FAILED_STREAMS = 3
ASK_EVERY_MS = 5000


def asks_now(phone: Page) -> None:
    """The page's next question for news, its clock moved on to it rather than waited out."""
    with phone.expect_response(lambda response: response.url.endswith("/news"),
                               timeout=2 * ASK_EVERY_MS):
        phone.clock.fast_forward(ASK_EVERY_MS)


def test_without_a_stream_the_page_asks_every_few_seconds_and_still_follows(
        page: Page, other_phone: Page):
    """A proxy that holds the stream back: the page falls back to asking with the news it
    has (If-None-Match), and hears of the hand the next time it asks."""
    match = burro_match(page)
    asked, refused = [], []

    def refuse(route):
        refused.append(route.request.url)
        route.abort("connectionrefused")

    other_phone.clock.install()
    other_phone.route("**/events*", refuse)
    other_phone.on("request", lambda request: request.url.endswith("/news")
                   and asked.append(request.headers.get("if-none-match")))
    other_phone.on("response", lambda response: response.url.endswith("/news")
                   and asked.append(response.status))
    other_phone.goto(f"/m/{match['token']}")
    # The browser tries a refused stream again on its own clock, a few seconds apart.
    while len(refused) < FAILED_STREAMS:
        other_phone.wait_for_event("requestfailed", lambda request: "/events" in request.url,
                                   timeout=10000)
    asks_now(other_phone)
    save(page, match["token"], 0)
    asks_now(other_phone)
    expect(other_phone.locator(".news")).to_contain_text(
        "Hand 1 was saved on another phone: Anna +1")
    expect(totals(other_phone)).to_have_text(["1", "0", "0"])
    assert asked[:2] == ['W/"0.e3b0c442"', 304] and asked[-2:] == ['W/"0.e3b0c442"', 200]


def test_a_phone_that_was_away_catches_up_when_it_is_back(page: Page, other_phone: Page):
    match = burro_match(page)
    other_phone.goto(f"/m/{match['token']}")
    other_phone.context.set_offline(True)
    other_phone.route("**/events*", lambda route: route.abort("internetdisconnected"))
    save(page, match["token"], 1)
    save(page, match["token"], 2)
    expect(totals(other_phone)).to_have_text(["0", "0", "0"])
    other_phone.unroute("**/events*")
    other_phone.context.set_offline(False)
    expect(other_phone.locator(".news")).to_contain_text(
        "Hand 1 was saved on another phone: Ben +1", timeout=10000)
    expect(other_phone.locator(".news")).to_contain_text(
        "Hand 2 was saved on another phone: Carla +1")
    expect(totals(other_phone)).to_have_text(["0", "1", "1"])


class Server:
    """Tablemate as `make run` serves it, on one port and database across a restart."""

    def __init__(self, database):
        self.port, self.database, self.process = free_port(), database, None

    @property
    def address(self) -> str:
        return f"http://127.0.0.1:{self.port}"

    def start(self) -> None:
        """Start it, and return once it has answered its start page."""
        self.process = subprocess.Popen(
            run_command(self.port), cwd=ROOT, start_new_session=True,
            env={**os.environ, "FLASK_SECRET_KEY": "live", "FLASK_DATABASE": str(self.database)},
            stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True)
        # gunicorn logs when it listens; its workers take what waits there once they can.
        log = []
        for line in self.process.stderr:
            log.append(line)
            if "Listening at:" in line:
                break
        else:
            raise AssertionError(f"the server did not start:\n{''.join(log)}")
        threading.Thread(target=self.process.stderr.read, daemon=True).start()
        connection = http.client.HTTPConnection("127.0.0.1", self.port, timeout=START_LIMIT)
        try:
            connection.request("GET", "/")
            assert connection.getresponse().status == 200
        finally:
            connection.close()

    def kill(self) -> None:
        """As a power cut: every process of the server at once, no shutdown."""
        os.killpg(self.process.pid, signal.SIGKILL)
        self.process.wait()


@pytest.fixture
def server(tmp_path):
    running = Server(tmp_path / "tablemate.sqlite")
    running.start()
    yield running
    if running.process.poll() is None:
        running.kill()


def test_after_the_server_is_killed_and_started_again_both_phones_catch_up(
        browser, server, locale, cdn_requests):
    with open_phone(browser, server.address, locale, cdn_requests) as anna, \
            open_phone(browser, server.address, locale, cdn_requests) as ben:
        match = burro_match(anna)
        for phone in (anna, ben):
            phone.goto(f"/m/{match['token']}")
        save(anna, match["token"], 2)
        expect(totals(ben)).to_have_text(["0", "0", "1"], timeout=AT_ONCE_MS)
        server.kill()
        server.start()
        save(anna, match["token"], 0)
        for phone in (anna, ben):
            expect(phone.locator(".news")).to_contain_text(
                "Hand 2 was saved on another phone: Anna +1", timeout=10000)
            expect(totals(phone)).to_have_text(["1", "0", "1"])
        shot(ben, "live_after_restart")
