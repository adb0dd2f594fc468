"""A club night leaves as a file and comes back whole: the organiser's JSON export and its
import (page and API) as a new night with links of its own, the CSV a club files, and the
files refused before anything is written."""

import csv
import io
import json

import pytest
from bs4 import BeautifulSoup
from flask import get_template_attribute
from helpers import GERMAN, HANDS, HTMX, MATCHES, count_rows, csrf_token, parsed, shown

import store

PAIRS = ["Anna & Carla", "Bruno & Dario", "Elena & Fabio", "Gina & Hugo"]
HAND = HANDS["burraco"]
# The same hand the other way round: a correction.
TURNED = {"sides": HAND["sides"][::-1]}
IMPORT = "/api/v1/events/import"


def a_night(post) -> str:
    """A club night of four pairs, two turns of three games, started on its form; the
    organiser's page."""
    response = post("/events/new", {"title": "Friday", "pairs": "\n".join(PAIRS),
                                    "movement": "mitchell", "turns": "2", "hands": "3",
                                    "table": "fibur", "step": "1"})
    assert response.status_code == 303
    return response.headers["Location"]


def exported(client, organiser: str) -> dict:
    response = client.get(f"{organiser}/export.json")
    assert response.status_code == 200
    return response.json


def table_token(client, organiser: str, turn: int, table: int) -> str:
    """The edit token of a table's match, from the organiser's page."""
    section = parsed(client.get(organiser)).select_one(f'section[aria-labelledby="turn-{turn}"]')
    found = section.select("li.event-table")[table - 1]
    return found.select_one('a[href^="/m/"]')["href"].rsplit("/", 1)[1]


def play(client, token: str, games: int = 3) -> None:
    for _game in range(games):
        assert client.post(f"{MATCHES}/{token}/hands", json=HAND).status_code == 201


def pair_confirms(post, client, organiser: str, turn: int, table: int, side: int):
    """A pair of the table confirms the result as its sheet shows it, with its code."""
    document = exported(client, organiser)
    pair = document["turns"][turn - 1]["seating"]["tables"][table - 1][side]
    token = table_token(client, organiser, turn, table)
    version = client.get(f"{MATCHES}/{token}").json["version"]
    return post(f"/m/{token}/confirm", {"side": side, "code": document["codes"][pair],
                                        "version": version})


def a_played_night(post, client) -> str:
    """Turn 1 counted (table 1 by both pairs, table 2 by the organiser, reopened and
    confirmed again); in turn 2, table 1 corrected after North–South confirmed and then
    confirmed by East–West only, so it does not count yet, and table 2 at its first game."""
    organiser = a_night(post)
    for table in (1, 2):
        play(client, table_token(client, organiser, 1, table))
    for side in (0, 1):
        assert pair_confirms(post, client, organiser, 1, 1, side).status_code == 303
    for action in ("confirm", "reopen", "confirm"):
        assert post(f"{organiser}/turns/1/tables/2/{action}").status_code == 303
    first, second = (table_token(client, organiser, 2, table) for table in (1, 2))
    play(client, first)
    play(client, second, games=1)
    assert pair_confirms(post, client, organiser, 2, 1, 0).status_code == 303
    assert client.put(f"{MATCHES}/{first}/hands/2", json=TURNED).status_code == 200
    assert pair_confirms(post, client, organiser, 2, 1, 1).status_code == 303
    return organiser


def as_seen(client, organiser: str) -> dict:
    """What the organiser reads of the night: each table's pairs, state and result, and
    the standings."""
    page = parsed(client.get(organiser))
    return {"tables": {section["aria-labelledby"]: [
                (shown(table.select_one(".pairs")), shown(table.select_one(".state")))
                for table in section.select("li.event-table")]
                       for section in page.select("section.event-turn")},
            "standings": [shown(row) for row in page.select("table.event-standings tr")]}


def table_links(client, organiser: str) -> set[str]:
    return {link["href"] for link in parsed(client.get(organiser)).select('a[href^="/m/"]')}


def upload(client, content: bytes, **headers):
    form = {"csrf_token": csrf_token(client, "/events/import"),
            "document": (io.BytesIO(content), "night.json")}
    return client.post("/events/import", data=form, content_type="multipart/form-data",
                       headers=headers)


# --- The JSON export and its import ---------------------------------------------------------

def test_an_exported_night_imports_as_the_same_night_under_new_links(post, client):
    organiser = a_played_night(post, client)
    document = exported(client, organiser)
    response = upload(client, json.dumps(document).encode())
    assert response.status_code == 303
    imported = response.headers["Location"]
    assert imported.startswith("/e/") and imported != organiser
    assert as_seen(client, imported) == as_seen(client, organiser)
    assert exported(client, imported) == document
    assert not table_links(client, imported) & table_links(client, organiser)
    # The old file's links still open the old night, not the new one.
    assert client.get(organiser).status_code == 200


def test_the_imported_night_counts_the_same_confirmations_and_goes_on(post, client):
    organiser = a_played_night(post, client)
    imported = upload(client, json.dumps(exported(client, organiser)).encode()
                      ).headers["Location"]
    tables = as_seen(client, imported)["tables"]
    assert [state for _pairs, state in tables["turn-1"]] == ["Confirmed",
                                                             "Confirmed by the organiser"]
    assert tables["turn-2"][0] == ("Anna & Carla v Gina & Hugo",
                                   "Waiting for confirmation · Gina & Hugo confirmed")
    # North–South's confirmation before the correction no longer counts: it confirms again.
    assert pair_confirms(post, client, imported, 2, 1, 0).status_code == 303
    assert as_seen(client, imported)["tables"]["turn-2"][0][1] == "Confirmed"
    assert as_seen(client, organiser)["tables"]["turn-2"][0][1] != "Confirmed"


def test_the_export_is_a_file_named_after_the_night_holding_no_link(post, client):
    organiser = a_played_night(post, client)
    response = client.get(f"{organiser}/export.json")
    assert response.headers["Content-Disposition"].startswith('attachment; filename="Friday-')
    body = response.get_data(as_text=True)
    for link in table_links(client, organiser) | {organiser}:
        assert link.rsplit("/", 1)[1] not in body
    document = response.json
    assert (document["format"], document["format_version"]) == ("tablemate-club-night", 1)
    assert [turn["seating"] for turn in document["turns"]] == [
        {"tables": [[0, 2], [1, 3]], "bye": None}, {"tables": [[0, 3], [1, 2]], "bye": None}]


def test_the_screens_link_exports_nothing(post, client):
    organiser = a_night(post)
    screen = parsed(client.get(organiser)).select_one('a[href^="/s/"]')["href"]
    view_token = screen.rsplit("/", 1)[1]
    for address in (f"/e/{view_token}/export.json", f"/e/{view_token}/export.csv",
                    f"/api/v1/events/{view_token}/export"):
        assert client.get(address).status_code == 403


def test_the_api_exports_and_imports_a_night(post, client):
    organiser = a_played_night(post, client)
    token = organiser.rsplit("/", 1)[1]
    document = client.get(f"/api/v1/events/{token}/export")
    assert document.status_code == 200
    assert document.json == exported(client, organiser)
    imported = client.post(IMPORT, json=document.json)
    assert imported.status_code == 201, imported.json
    answer = imported.json
    assert answer["token"] != token and answer["url"].endswith(f"/e/{answer['token']}")
    assert answer["view_url"].endswith(f"/s/{answer['view_token']}")
    assert as_seen(client, f"/e/{answer['token']}") == as_seen(client, organiser)


# --- Files refused --------------------------------------------------------------------------

def seating_twice(document: dict) -> dict:
    document["turns"][0]["seating"]["tables"][1] = [0, 3]
    return document


def illegal_hand(document: dict) -> dict:
    entry = document["turns"][0]["tables"][0]["match"]["entries"][0]
    entry["data"] = {"sides": [{"table_points": -5}, {"table_points": 95}]}
    return document


def another_format(document: dict) -> dict:
    return {**document, "format": "tablemate-match"}


def codes_missing(document: dict) -> dict:
    return {**document, "codes": document["codes"][:2]}


def pair_named_twice(document: dict) -> dict:
    return {**document, "setup": {**document["setup"], "pairs": PAIRS[:3] + ["anna & carla"]}}


# Each spoilt file with the reason the page gives, and the API (which checks a body's shape
# first, by its fields).
REFUSED = {
    "another format": (another_format, "not a club night exported from Tablemate",
                       "The field “format” must be one of 'tablemate-club-night'."),
    "a pair twice in a turn": (seating_twice, *["Turn 1 must seat each pair of the club night "
                                                "once."] * 2),
    "an illegal hand": (illegal_hand, *["Turn 1, table 1: Entry 1:"] * 2),
    "a code missing": (codes_missing, *["one code for each pair"] * 2),
    "a setup the rules refuse": (pair_named_twice, *["Two pairs have the same name"] * 2),
}


@pytest.mark.parametrize("spoil, reason, api_reason", REFUSED.values(), ids=REFUSED)
def test_a_spoilt_file_is_refused_with_its_reason_and_changes_nothing(app, post, client, spoil,
                                                                      reason, api_reason):
    document = spoil(exported(client, a_played_night(post, client)))
    before = (count_rows(app, "events"), count_rows(app, "matches"))
    page = upload(client, json.dumps(document).encode())
    assert page.status_code == 400
    assert reason in shown(parsed(page).select_one("#import-event"))
    answer = client.post(IMPORT, json=document)
    assert answer.status_code == 400 and api_reason in answer.json["error"]
    assert (count_rows(app, "events"), count_rows(app, "matches")) == before


@pytest.mark.parametrize("content, reason", [
    (b"", "Choose the club night's file"),
    (b"not json", "not JSON"),
    (b'{"format": "tablemate-club-night", "format_version": 2}', "only format 1"),
    (b" " * (2 * 1024 * 1024 + 1), "larger than 2,048 KB, too large for a club night"),
    (b" " * (2200 * 1024), "larger than 2,048 KB, too large for a club night"),
])
def test_the_page_refuses_a_file_it_cannot_read(app, client, content, reason):
    response = upload(client, content)
    assert response.status_code in (400, 413)
    assert reason in shown(parsed(response).select_one("#import-event"))
    assert count_rows(app, "events") == 0


def test_the_api_refuses_what_is_not_json_and_what_is_too_large(app, client):
    response = client.post(IMPORT, data=b"not json", headers={"Content-Type": "application/json"})
    assert response.status_code == 400 and "not JSON" in response.json["error"]
    large = {"format": "tablemate-club-night", "padding": "x" * (2 * 1024 * 1024)}
    assert client.post(IMPORT, json=large).status_code == 413
    assert count_rows(app, "events") == 0


def test_a_refusal_speaks_german(app, post, client):
    document = seating_twice(exported(client, a_night(post)))
    client.set_cookie("lang", "de")
    response = upload(client, json.dumps(document).encode())
    assert response.status_code == 400
    assert "Durchgang 1 muss jedes Paar des Clubabends genau einmal setzen" in shown(response)


def test_imports_of_nights_count_against_the_clients_import_quota(app, post, client,
                                                                   monkeypatch):
    monkeypatch.setitem(app.config, "IMPORTS_PER_CLIENT", "2 per minute")
    document = exported(client, a_night(post))
    assert upload(client, json.dumps(document).encode()).status_code == 303
    assert client.post(IMPORT, json=document).status_code == 201
    page = upload(client, json.dumps(document).encode())
    assert page.status_code == 429 and 1 <= int(page.headers["Retry-After"]) <= 61
    assert "Try again in" in shown(parsed(page).select_one("#import-event"))
    assert client.post(IMPORT, json=document).status_code == 429
    assert count_rows(app, "events") == 3


# --- The import page and the CSV ------------------------------------------------------------

def test_the_import_page_is_a_form_with_a_file_field(client):
    page = parsed(client.get("/events/import"))
    assert page.select("form input[type=file]") and page.select("form input[name=csrf_token]")
    fragment = parsed(client.get("/events/import", headers=HTMX))
    assert fragment.html is None and fragment.select("form input[type=file]")


def test_an_htmx_upload_moves_to_the_new_organisers_page(post, client):
    document = exported(client, a_night(post))
    response = upload(client, json.dumps(document).encode(), **HTMX)
    assert response.headers["HX-Redirect"].startswith("/e/")


def csv_rows(client, organiser: str, **headers) -> list[list[str]]:
    response = client.get(f"{organiser}/export.csv", headers=headers)
    assert response.status_code == 200
    assert response.headers["Content-Type"] == "text/csv; charset=utf-8"
    assert response.headers["Content-Disposition"].startswith('attachment; filename="Friday-')
    text = response.get_data().decode("utf-8")
    assert text.startswith("\ufeff")
    return list(csv.reader(io.StringIO(text[1:])))


def test_the_csv_is_a_row_per_table_and_turn_then_the_standings(post, client):
    rows = csv_rows(client, a_played_night(post, client))
    assert rows[0] == ["Turn", "Table", "North–South", "East–West",
                       "Game 1: North–South", "Game 1: East–West",
                       "Game 2: North–South", "Game 2: East–West",
                       "Game 3: North–South", "Game 3: East–West",
                       "North–South: MP", "East–West: MP", "North–South: VP", "East–West: VP",
                       "State"]
    assert rows[1] == ["1", "1", "Anna & Carla", "Elena & Fabio", *["410", "155"] * 3,
                       "1230", "465", "16", "4", "Confirmed"]
    assert rows[2][-1] == "Confirmed by the organiser"
    assert rows[3][:4] == ["2", "1", "Anna & Carla", "Gina & Hugo"]
    assert rows[4][4:] == ["410", "155", *[""] * 8, "Playing: game 2 of 3"]
    assert rows[5] == []
    assert rows[6] == ["Rank", "Pair", "VP", "MP", "Played"]
    assert rows[7:] == [["1", "Anna & Carla", "16", "1230", "1"],
                        ["1", "Bruno & Dario", "16", "1230", "1"],
                        ["3", "Elena & Fabio", "4", "465", "1"],
                        ["3", "Gina & Hugo", "4", "465", "1"]]


def test_the_csv_writes_a_pair_a_spreadsheet_would_run_as_text(post, client):
    response = post("/events/new", {"title": "Friday", "pairs": "=1+1\nBruno\n@Elena\nGina",
                                    "movement": "mitchell", "turns": "1", "hands": "3",
                                    "table": "fibur", "step": "1"})
    rows = csv_rows(client, response.headers["Location"])
    assert rows[1][2:4] == ["'=1+1", "'@Elena"]


def test_the_csv_speaks_german(post, client):
    rows = csv_rows(client, a_night(post), **GERMAN)
    assert rows[0][:2] == ["Durchgang", "Tisch"]
    assert rows[1][-1] == "Noch nicht begonnen"


def test_the_links_macro_names_both_exports_and_the_import_page(app, post):
    organiser = a_night(post)
    with app.test_request_context():
        links = get_template_attribute("events/_transfer.html", "transfer_links")
        event = store.events.get_event(store.get_db(), organiser.rsplit("/", 1)[1])
        exports, imports = (BeautifulSoup(str(markup), "html.parser")
                            for markup in (links(event), links()))
    assert {link["href"] for link in exports.select("a")} == {f"{organiser}/export.json",
                                                              f"{organiser}/export.csv"}
    assert [link["href"] for link in imports.select("a")] == ["/events/import"]
