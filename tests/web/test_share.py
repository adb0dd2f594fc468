"""Sharing a match: QR codes of its links, and the read-only view link that shows the live
sheet to spectators but never changes it, nor reveals the link that does."""

import xml.etree.ElementTree as ET

import pytest
import sqlite_utils
from helpers import (
    FOUR,
    GERMAN,
    HANDS,
    HTMX,
    MATCHES,
    SVG,
    dark_modules,
    new_sheet,
    parsed,
    qr_of,
    root,
    shown,
    start,
    text,
    totals,
)

import store

# The sheets here are opened on localhost, so the share box names the machine's address.
pytestmark = pytest.mark.usefixtures("table_wifi")


def at_the_table(url: str, address: str) -> str:
    """``url`` as the share box hands it out when opened on localhost: on the machine's
    network ``address``."""
    return url.replace("http://localhost/", f"http://{address}/", 1)


# --- QR codes -------------------------------------------------------------------------------

@pytest.mark.parametrize("qr_path, link_key", [
    ("/m/{token}/qr.svg", "url"),
    ("/v/{view_token}/qr.svg", "view_url"),
])
def test_a_qr_code_is_an_svg_image_of_its_link(client, table_wifi, qr_path, link_key):
    """A phone at the table scans the code and opens the same link the sheet shows."""
    match = start(client)
    response = client.get(qr_path.format(**match))
    assert response.status_code == 200
    assert response.mimetype == "image/svg+xml"
    assert ET.fromstring(response.data).tag == f"{SVG}svg"
    assert dark_modules(response.data) == qr_of(at_the_table(match[link_key], table_wifi))


def test_an_unknown_link_has_no_qr_code(client):
    assert client.get("/m/no-such-match/qr.svg").status_code == 404
    assert client.get("/v/no-such-match/qr.svg").status_code == 404


def test_the_sheets_share_section_offers_both_links_and_their_codes(client, static_url,
                                                                   table_wifi):
    match = start(client)
    page = parsed(client.get(f"/m/{match['token']}"))
    share = page.select_one("details.share")
    url, view_url = (at_the_table(match[key], table_wifi) for key in ("url", "view_url"))
    assert [code["src"].split("?")[0] for code in share.select("img")] == [
        f"/m/{match['token']}/qr.svg", f"/v/{match['view_token']}/qr.svg"]
    assert [field["value"] for field in share.select("input")] == [url, view_url]
    # The copy and share buttons need the browser's help: script-made, hidden without it.
    assert page.select_one(f'script[src="{static_url("share.js")}"]').has_attr("defer")
    buttons = share.select("button[data-copy], button[data-share]")
    assert share.select("[data-copy]") and share.select("[data-share]")
    assert buttons and all(button.has_attr("hidden") for button in buttons)


def test_the_api_answer_names_the_view_link(client):
    """The edit token's answer gives the view token and link, to pass on to spectators."""
    match = start(client)
    assert match["view_url"] == f"http://localhost/v/{match['view_token']}"
    assert len(match["view_token"]) >= len(match["token"]) and match["view_token"] != match["token"]
    created = client.post(MATCHES, json={"game": "burro", "players": FOUR}).json
    assert created["view_url"].endswith(f"/v/{created['view_token']}")


# --- The read-only sheet --------------------------------------------------------------------

@pytest.mark.parametrize("headers, note, history", [
    ({}, "Watching: this page follows the score and cannot change it.", "Hands"),
    (GERMAN, "Zuschauen: Diese Seite folgt dem Spielstand und kann ihn nicht ändern.",
     "Runden"),
])
def test_the_view_link_shows_totals_and_history_in_both_languages(client, headers, note,
                                                                  history):
    match = start(client)
    page = parsed(client.get(f"/v/{match['view_token']}", headers=headers))
    assert note in shown(page)
    assert shown(page.select_one("h2.history-title#history")) == history
    assert "1" in totals(page)  # Carla is the burro once
    assert [shown(number) for number in page.select('th[scope="row"]')] == ["1"]


@pytest.mark.parametrize("game", HANDS)
def test_the_view_link_shows_no_control_that_writes(client, game):
    """No entry panel, no undo, no hand to tap for its correction: only the language switch
    is a form."""
    match = start(client, game)
    response = client.get(f"/v/{match['view_token']}")
    page = parsed(response)
    assert page.select("section#sheet.sheet")
    assert [form for form in page.select("form") if form.get("class") != ["language"]] == []
    for control in ("[hx-post]", '[class^="panel"]', ".undo", ".toast", 'a[href^="/m/"]'):
        assert not page.select(control), control
    assert "/hands/" not in text(response)


def test_the_view_link_keeps_up_with_the_table(client):
    """The read-only sheet listens to the match's news through its own link, and the news is
    the sheet as it stands."""
    match = start(client)
    page = parsed(client.get(f"/v/{match['view_token']}"))
    assert page.select_one("[data-events]")["data-events"] == f"/v/{match['view_token']}/events"
    client.post(f"{MATCHES}/{match['token']}/hands", json={"burro": 2})
    fragment = parsed(client.get(f"/v/{match['view_token']}/news"))
    assert root(fragment).name == "section" and root(fragment)["id"] == "sheet"
    assert "2" in totals(fragment)


def test_play_again_from_the_view_link_keeps_the_players(client):
    match = start(client, limit=1)
    page = parsed(client.get(f"/v/{match['view_token']}"))
    assert page.select(f'a[href="/burro/new?again={match["view_token"]}"]')
    form = parsed(client.get(f"/burro/new?again={match['view_token']}"))
    assert [field["value"] for field in form.select("input[name=players]")] == FOUR


# --- Nothing written, nothing revealed -------------------------------------------------------

PAGE_WRITES = [
    ("/m/{token}/hands", {"burro": "1"}),
    ("/m/{token}/hands/1", {"burro": "0"}),
    ("/m/{token}/undo", {}),
    ("/m/{token}/hands/1/restore", {"entry": "1"}),
    ("/m/{token}/draft", {}),
]


@pytest.mark.parametrize("path, form", PAGE_WRITES, ids=[path for path, _ in PAGE_WRITES])
def test_a_sheet_form_sent_with_the_view_token_is_forbidden(client, post, path, form):
    match = start(client)
    client.put(f"{MATCHES}/{match['token']}/hands/1", json={"burro": 1})  # a restorable entry
    before = client.get(f"{MATCHES}/{match['token']}").json
    response = post(path.format(token=match["view_token"]),
                    {**form, "version": str(before["version"])})
    assert response.status_code == 403
    assert "This link only shows the score" in shown(response)
    assert client.get(f"{MATCHES}/{match['token']}").json == before


API_WRITES = [
    ("post", "/hands", {"burro": 1}),
    ("put", "/hands/1", {"burro": 0}),
    ("delete", "/hands/last", None),
]


@pytest.mark.parametrize("method, path, body", API_WRITES, ids=[m for m, _, _ in API_WRITES])
def test_an_api_write_with_the_view_token_is_forbidden(client, method, path, body):
    match = start(client)
    before = client.get(f"{MATCHES}/{match['token']}").json
    response = getattr(client, method)(f"{MATCHES}/{match['view_token']}{path}", json=body)
    assert response.status_code == 403
    assert client.get(f"{MATCHES}/{match['token']}").json == before


def test_the_correction_form_is_not_shown_to_the_view_token(client):
    match = start(client)
    assert client.get(f"/m/{match['view_token']}/hands/1").status_code == 403


@pytest.mark.parametrize("path, headers", [
    ("/v/{view_token}", {}),
    ("/v/{view_token}", GERMAN),
    ("/v/{view_token}", HTMX),
    ("/v/{view_token}/qr.svg", {}),
    (MATCHES + "/{view_token}", {}),
])
def test_nothing_reached_with_the_view_token_reveals_the_edit_token(client, path, headers):
    match = start(client, limit=1)  # finished: the end banner's links are there too
    response = client.get(path.format(**match), headers=headers)
    assert response.status_code == 200
    assert match["token"] not in text(response)


def test_the_api_answer_for_the_view_token_has_the_standings_but_no_edit_link(client):
    match = start(client)
    watched = client.get(f"{MATCHES}/{match['view_token']}").json
    assert "url" not in watched and "token" not in watched
    assert watched["totals"] == match["totals"] and watched["hands"] == match["hands"]
    assert watched["view_url"] == match["view_url"]


# --- Migration -------------------------------------------------------------------------------

def test_the_migration_gives_every_older_match_its_own_view_token(tmp_path):
    old = sqlite_utils.Database(str(tmp_path / "old.sqlite"))
    store.MIGRATIONS.apply(old, stop_before="add_view_tokens")
    for token in ("first-match-link", "second-match-link"):
        old["matches"].insert({"token": token, "game": "burro", "options": "{}",
                               "created_at": "2026-01-01T00:00:00+00:00"})
    store.migrate(old)
    view_tokens = {token: store.get_match(old, token).view_token
                   for token in ("first-match-link", "second-match-link")}
    assert len(set(view_tokens.values())) == 2
    assert all(len(view_token) == len(store.new_token()) for view_token in view_tokens.values())
    store.migrate(old)
    assert {token: store.get_match(old, token).view_token for token in view_tokens} == view_tokens
    assert store.get_watched_match(old, view_tokens["first-match-link"]).token == "first-match-link"


# --- QR codes kept by the phone ---------------------------------------------------------------

def qr_addresses(page) -> list[str]:
    return [code["src"] for code in page.select("details.share img.qr")]


def test_a_qr_code_is_kept_by_the_phone_for_good_and_checked_by_its_etag(client):
    """A code never changes while its link does not: the phone keeps it, and asking again
    with its ETag costs a 304 and no image."""
    match = start(client)
    for address in qr_addresses(parsed(client.get(f"/m/{match['token']}"))):
        first = client.get(address)
        assert first.status_code == 200
        assert first.headers["Cache-Control"] == "private, max-age=31536000, immutable"
        again = client.get(address, headers={"If-None-Match": first.headers["ETag"]})
        assert again.status_code == 304 and not again.data
        assert again.headers["ETag"] == first.headers["ETag"]


def test_a_save_neither_brings_the_qr_codes_again_nor_changes_their_addresses(post, client):
    """The share box stays out of the sheet a save swaps in, and a page reloaded after the
    save names the same codes, which the phone has already."""
    sheet = new_sheet(post)
    before = qr_addresses(parsed(client.get(sheet)))
    saved = post(f"{sheet}/hands", {"version": "0", "burro": "1"}, headers=HTMX)
    assert saved.status_code == 200 and parsed(saved).select_one("#sheet")
    assert not parsed(saved).select("img.qr, details.share")
    assert qr_addresses(parsed(client.get(sheet))) == before and len(before) == 2


def test_a_new_network_address_is_a_new_qr_address(client, monkeypatch):
    """A kept image never shows a link the table can no longer open."""
    match = start(client)
    page = f"/m/{match['token']}"
    first = qr_addresses(parsed(client.get(page, headers={"Host": "192.0.2.7:5000"})))
    moved = qr_addresses(parsed(client.get(page, headers={"Host": "192.0.2.8:5000"})))
    assert first[0] != moved[0] and first[1] != moved[1]
