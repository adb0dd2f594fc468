"""Speed a phone feels on a slow wifi: pages, styles and scripts come compressed, while the
answers that carry nothing (the API's 304) stay empty, the news streams are sent as they
come, and a long match's sheet shows its last hands."""

import gzip
import json

import brotli
import pytest
from bs4 import BeautifulSoup, Doctype
from helpers import MATCHES, parsed, start

import store

DECODE = {"gzip": gzip.decompress, "br": brotli.decompress}


def fetched(client, address: str, encoding: str):
    """The answer to a phone that accepts ``encoding``, and its body decoded."""
    response = client.get(address, headers={"Accept-Encoding": encoding})
    assert response.headers.get("Content-Encoding") == encoding, address
    return response, DECODE[encoding](response.get_data())


def a_whole_page(body: bytes) -> bool:
    """The body is an HTML document, doctype first, as a browser gets a page."""
    document = BeautifulSoup(body, "html.parser")
    first = next(node for node in document.contents if node.strip())
    return isinstance(first, Doctype) and first.lower() == "html" and document.html is not None


@pytest.mark.parametrize("encoding", DECODE)
@pytest.mark.parametrize("filename", ["app.css", "panel/controls.js", "vendor/htmx-2.0.11.min.js"])
def test_styles_and_scripts_come_compressed(client, static_url, encoding, filename):
    plain = client.get(static_url(filename)).get_data()
    response, decoded = fetched(client, static_url(filename), encoding)
    assert decoded == plain
    assert len(response.get_data()) < len(plain) / 2
    assert "Accept-Encoding" in response.headers["Vary"]


@pytest.mark.parametrize("encoding", DECODE)
def test_pages_come_compressed_with_their_security_headers(client, encoding):
    match = start(client, "burraco", hands=3)
    for address in ("/", "/rules/burraco", f"/m/{match['token']}", "/rules/search?q=stapel"):
        response, decoded = fetched(client, address, encoding)
        assert a_whole_page(decoded), address
        assert "script-src 'self'" in response.headers["Content-Security-Policy"]
        assert "Accept-Encoding" in response.headers["Vary"]


def test_a_phone_that_accepts_no_compression_gets_the_plain_page(client):
    response = client.get("/", headers={"Accept-Encoding": "identity"})
    assert "Content-Encoding" not in response.headers
    assert a_whole_page(response.get_data())


def test_the_match_api_etag_still_answers_304_when_compressed(client):
    """The ETag is the match's version (README "Live"): compression keeps it, and asking
    again with it still answers an empty 304."""
    match = start(client, "burraco", hands=3)
    first, decoded = fetched(client, f"{MATCHES}/{match['token']}", "gzip")
    assert first.headers["ETag"] == 'W/"v3"' and json.loads(decoded)["version"] == 3
    again = client.get(f"{MATCHES}/{match['token']}",
                       headers={"Accept-Encoding": "gzip", "If-None-Match": first.headers["ETag"]})
    assert again.status_code == 304 and again.get_data() == b""
    assert "Content-Encoding" not in again.headers
    assert "Content-Security-Policy" in again.headers


def test_the_news_stream_is_never_compressed_and_the_asked_news_is(client):
    """A stream must reach the phone event by event: compressed, it would wait in the
    compressor's buffer. The news a phone asks for instead comes whole, compressed."""
    match = start(client, "burraco", hands=3)
    stream = client.get(f"/m/{match['token']}/events", buffered=False,
                        headers={"Accept-Encoding": "gzip, br, zstd"})
    assert "Content-Encoding" not in stream.headers
    stream.close()
    asked, decoded = fetched(client, f"/m/{match['token']}/news", "gzip")
    assert BeautifulSoup(decoded, "html.parser").select("#sheet")


def burro_match(app, client, hands: int) -> str:
    """A Burro match of ``hands`` hands (the Portuguese variant has no end), entered
    straight into the store; its token."""
    token = client.post(MATCHES, json={"game": "burro", "players": ["Anna", "Ben", "Carla"],
                                       "options": {"variant": "portuguese"}}).json["token"]
    with app.app_context():
        db = store.get_db()
        for number in range(hands):
            match = store.get_match(db, token)
            store.add_hand(db, match, {"winner": number % 3}, match.version)
    return token


def history_numbers(page) -> list[int]:
    """The hands the sheet's history lists, each a link to its correction."""
    return [int(number.get_text()) for number in page.select('th[scope="row"] > a')]


def test_a_long_match_shows_its_last_fifty_hands_and_a_link_to_all(app, client):
    """Issue #13: "a 1,000-hand match's sheet costs at most 3× a 10-hand one (… the
    history paged or folded)"."""
    token = burro_match(app, client, 60)
    page = parsed(client.get(f"/m/{token}"))
    assert history_numbers(page) == list(range(11, 61))
    assert [link.get_text() for link in page.select('a[href="?hands=all#history"]')] == \
        ["Show all 60 hands"]
    everything = client.get(f"/m/{token}?hands=all")
    assert history_numbers(parsed(everything)) == list(range(1, 61))
    assert "Show all" not in everything.get_data(as_text=True)
    short = client.get(f"/m/{burro_match(app, client, 50)}")
    assert history_numbers(parsed(short)) == list(range(1, 51))
    assert "Show all" not in short.get_data(as_text=True)


def test_the_news_every_phone_shares_stays_folded_whatever_one_phone_asks(app, client):
    """The sheet pushed to a match's phones is one for all: a phone that adds ?hands=all
    to its news address gets the folded sheet like everyone, and unfolds only its page."""
    token = burro_match(app, client, 60)
    seen = {"If-None-Match": 'W/"59.00000000"'}
    unfolding = client.get(f"/m/{token}/news?hands=all", headers=seen)
    others = client.get(f"/m/{token}/news", headers=seen)
    for news in (unfolding, others):
        assert history_numbers(BeautifulSoup(news.get_data(as_text=True), "html.parser")) == \
            list(range(11, 61))
