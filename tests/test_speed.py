"""Speed a phone feels on a slow wifi: pages, styles and scripts come compressed, while the
answers that carry nothing (the no-change poll's 204, the API's 304) stay empty and cheap."""

import gzip

import brotli
import pytest
from test_share import MATCHES, start

import store
from views.rule_search import index_rules

DECODE = {"gzip": gzip.decompress, "br": brotli.decompress}


def fetched(client, address: str, encoding: str):
    """The answer to a phone that accepts ``encoding``, and its body decoded."""
    response = client.get(address, headers={"Accept-Encoding": encoding})
    assert response.headers.get("Content-Encoding") == encoding, address
    return response, DECODE[encoding](response.get_data())


@pytest.mark.parametrize("encoding", DECODE)
@pytest.mark.parametrize("filename", ["app.css", "panel.js", "vendor/htmx-2.0.11.min.js"])
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
        assert decoded.lstrip().lower().startswith(b"<!doctype html>"), address
        assert "script-src 'self'" in response.headers["Content-Security-Policy"]
        assert "Accept-Encoding" in response.headers["Vary"]


def test_a_phone_that_accepts_no_compression_gets_the_plain_page(client):
    response = client.get("/", headers={"Accept-Encoding": "identity"})
    assert "Content-Encoding" not in response.headers
    assert response.get_data().lstrip().lower().startswith(b"<!doctype html>")


def test_the_match_api_etag_still_answers_304_when_compressed(client):
    """The ETag is the match's version (README "Live"): compression keeps it, and asking
    again with it still answers an empty 304."""
    match = start(client, "burraco", hands=3)
    first, decoded = fetched(client, f"{MATCHES}/{match['token']}", "gzip")
    assert first.headers["ETag"] == 'W/"v3"' and b'"version":3' in decoded.replace(b" ", b"")
    again = client.get(f"{MATCHES}/{match['token']}",
                       headers={"Accept-Encoding": "gzip", "If-None-Match": first.headers["ETag"]})
    assert again.status_code == 304 and again.get_data() == b""
    assert "Content-Encoding" not in again.headers
    assert "Content-Security-Policy" in again.headers


def test_the_no_change_poll_stays_an_empty_uncompressed_204(client):
    match = start(client, "burraco", hands=3)
    for address in (f"/m/{match['token']}/since/3", f"/v/{match['view_token']}/since/3"):
        response = client.get(address, headers={"Accept-Encoding": "gzip, br"})
        assert response.status_code == 204 and response.get_data() == b""
        assert "Content-Encoding" not in response.headers
        assert response.headers["Cache-Control"] == "no-store"


def test_a_search_asked_again_is_answered_without_searching_the_index_until_it_changes(
        app, client, monkeypatch):
    """Players at every table look up the same words ("Stapel", "pozzetto"): asked again, in
    any case, the same hits come without another search; a rebuilt index is searched anew."""
    def rebuild(digest: str) -> None:
        monkeypatch.setattr("rules_content.documents_digest", lambda: digest)
        with app.app_context():
            assert index_rules(store.get_db())

    searched = []
    search_index = store.search_rules
    monkeypatch.setattr(store, "search_rules",
                        lambda *args, **kwargs: searched.append(args) or search_index(*args,
                                                                                    **kwargs))
    rebuild("first")
    first = client.get("/api/v1/rules/search", query_string={"q": "Stapel", "lang": "de"}).json
    again = client.get("/api/v1/rules/search", query_string={"q": "STAPEL", "lang": "de"}).json
    assert again == first and len(searched) == 1
    assert "Ablagestapel" in " ".join(hit["snippet"] for hit in first["hits"])
    rebuild("second")
    assert client.get("/api/v1/rules/search", query_string={"q": "stapel", "lang": "de"}).json \
        == first
    assert len(searched) == 2
