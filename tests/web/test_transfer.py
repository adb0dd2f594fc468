"""A match leaves as a file and comes back whole: the JSON export and import, the CSV sheet
and the import page."""

import io
import json

import pytest
from helpers import GERMAN, HTMX, MATCHES, THREE, count_rows, csrf_token, parsed, shown

import store

# Per game: the players, then three hands and a correction of hand 1, as the API takes them.
GAMES = {
    "burro": (["Anna", "Ben", "Carla"],
              [{"burro": 2}, {"burro": 0}, {"burro": 1}], {"burro": 1}),
    "burraco": (["Anna", "Ben", "Carla", "Dario"],
                [{"sides": [{"total": 410}, {"total": 155}]},
                 {"sides": [{"total": -50}, {"total": 300}]},
                 {"sides": [{"total": 100}, {"total": 0}]}],
                {"sides": [{"total": 400}, {"total": 165}]}),
    "bura": (["Anna", "Ben", "Carla"],
             [{"outcome": "right_claim", "player": 1}, {"outcome": "wrong_claim", "player": 2},
              {"outcome": "no_claim"}], {"outcome": "bura", "player": 0}),
    "burkosel": (["Anna", "Ben"],
                 [{"card_points": [95, 25], "tricks": [5, 2]},
                  {"card_points": [20, 100], "tricks": [1, 6]},
                  {"instant_win": 0}], {"card_points": [60, 60], "tricks": [3, 3]}),
    "buraco": (["Anna", "Ben"],
               [{"sides": [{"total": 550}, {"total": 170}]},
                {"sides": [{"total": 200}, {"total": -100}]},
                {"sides": [{"total": 50}, {"total": 50}]}],
               {"sides": [{"total": 500}, {"total": 220}]}),
}


def played_match(client, game: str) -> str:
    """A match with three hands entered, hand 1 corrected and the last one undone."""
    players, hands, correction = GAMES[game]
    created = client.post(MATCHES, json={"game": game, "players": players})
    assert created.status_code == 201, created.json
    token = created.json["token"]
    for hand in hands:
        assert client.post(f"{MATCHES}/{token}/hands", json=hand).status_code == 201
    assert client.put(f"{MATCHES}/{token}/hands/1", json=correction).status_code == 200
    assert client.delete(f"{MATCHES}/{token}/hands/last").status_code == 200
    return token


def history_of(app, token: str) -> list[str]:
    with app.app_context():
        db = store.get_db()
        return [entry.status for entry in store.past_entries(db, store.get_match(db, token))]


SCORE_FIELDS = ("game", "players", "options", "units", "totals", "to_go", "finished",
                "winners", "losers", "dealer", "leader", "hands")


@pytest.mark.parametrize("game", GAMES)
def test_an_exported_match_imports_with_the_same_standings_and_history(app, client, game):
    token = played_match(client, game)
    exported = client.get(f"{MATCHES}/{token}/export")
    assert exported.status_code == 200
    imported = client.post(f"{MATCHES}/import", json=exported.json)
    assert imported.status_code == 201, imported.json
    original = client.get(f"{MATCHES}/{token}").json
    assert imported.json["token"] != token and imported.json["id"] != original["id"]
    assert {field: imported.json[field] for field in SCORE_FIELDS} == \
        {field: original[field] for field in SCORE_FIELDS}
    assert len(original["hands"]) == 2
    assert history_of(app, imported.json["token"]) == history_of(app, token) == \
        ["undone", "replaced"]


@pytest.mark.parametrize("game", GAMES)
def test_an_export_imported_again_exports_the_same_document(client, game):
    exported = client.get(f"{MATCHES}/{played_match(client, game)}/export").json
    copy = client.post(f"{MATCHES}/import", json=exported).json["token"]
    assert client.get(f"{MATCHES}/{copy}/export").json == exported


def test_the_export_keeps_every_entry_with_its_status_and_times_but_no_token(client):
    token = played_match(client, "burro")
    response = client.get(f"{MATCHES}/{token}/export")
    assert response.headers["Content-Disposition"].startswith('attachment; filename="burro-')
    document = response.json
    assert token not in response.get_data(as_text=True)
    assert document["format"] == "tablemate-match" and document["format_version"] == 1
    assert [(entry["number"], entry["status"]) for entry in document["entries"]] == [
        (1, "replaced"), (2, "active"), (3, "undone"), (1, "active")]
    assert all(entry["created_at"] for entry in document["entries"])
    assert [bool(entry["ended_at"]) for entry in document["entries"]] == [True, False, True,
                                                                           False]


def exported_burro(client) -> dict:
    return client.get(f"{MATCHES}/{played_match(client, 'burro')}/export").json


def with_change(document: dict, **change) -> dict:
    return {**document, **change}


def with_entry(document: dict, position: int, **change) -> dict:
    entries = [dict(entry) for entry in document["entries"]]
    entries[position] = {**entries[position], **change}
    return {**document, "entries": entries}


REFUSED = {
    "a list": lambda document: [document],
    "another format": lambda document: with_change(document, format="spreadsheet"),
    "a newer version": lambda document: with_change(document, format_version=2),
    "an unknown game": lambda document: with_change(document, game="poker"),
    "a name with markup": lambda document: with_change(
        document, players=["<script>Anna", "Ben", "Carla"]),
    "a name twice": lambda document: with_change(document, players=["Anna", "Ben", "anna"]),
    "options the rules refuse": lambda document: with_change(document, options={"limit": 0}),
    "a hand of a player not at the table": lambda document: with_entry(
        document, 1, data={"burro": 7}),
    "an undone hand that is not a hand": lambda document: with_entry(
        document, 2, data={"burro": "everyone"}),
    "a gap in the hands": lambda document: with_entry(document, 3, number=3),
    "an unknown status": lambda document: with_entry(document, 0, status="deleted"),
    "a time without a zone": lambda document: with_entry(
        document, 0, created_at="2024-05-01T20:00:00"),
    # Burro E2: "reaches the limit" ends the match; a hand after the end is refused.
    "hands after the end": lambda document: with_change(document, entries=[
        {"number": number, "status": "active", "data": {"burro": 0},
         "created_at": "2024-05-01T20:00:00+00:00", "ended_at": None}
        for number in range(1, 8)]),
    "too many entries": lambda document: with_change(document, entries=[{}] * 5001),
}


@pytest.mark.parametrize("spoil", REFUSED.values(), ids=REFUSED)
def test_a_spoilt_document_is_refused_with_its_reason_and_creates_nothing(app, client,
                                                                          spoil):
    document = spoil(exported_burro(client))
    before = count_rows(app, "matches")
    response = client.post(f"{MATCHES}/import", json=document)
    assert response.status_code == 400
    assert response.json["error"]
    assert count_rows(app, "matches") == before


@pytest.mark.parametrize("body", [b"not json", b"[" * 60000, b"\xff\xfe{}"])
def test_a_file_that_is_not_json_is_refused(app, client, body):
    response = client.post(f"{MATCHES}/import", data=body,
                           headers={"Content-Type": "application/json"})
    assert response.status_code == 400
    assert "not JSON" in response.json["error"]
    assert count_rows(app, "matches") == 0


@pytest.mark.parametrize("language, reason", [
    ("en", "A match to import may be at most 2,048 KB with at most 5,000 entries here; this one "
           "is larger, so nothing was saved."),
    ("de", "Eine Partie zum Importieren darf hier höchstens 2.048 KB groß sein und höchstens "
           "5.000 Einträge haben; diese ist größer, darum wurde nichts gespeichert."),
])
def test_a_document_beyond_its_limit_is_refused_whole(app, client, language, reason):
    document = with_change(exported_burro(client), padding="x" * (2 * 1024 * 1024))
    response = client.post(f"{MATCHES}/import", json=document,
                           headers={"Accept-Language": language})
    assert response.status_code == 413
    assert response.json["error"] == reason
    assert count_rows(app, "matches") == 1


def test_a_refusal_names_the_entry_and_the_rule(client):
    document = with_entry(exported_burro(client), 1, data={"burro": 7})
    error = client.post(f"{MATCHES}/import", json=document).json["error"]
    assert error == "Entry 2: Pick one of the match's players."


# Where a document holds a time, and how to put one there.
TIMES = {
    "created_at": lambda document, time: with_change(document, created_at=time),
    "entries.1.created_at": lambda document, time: with_entry(document, 1, created_at=time),
    "entries.0.ended_at": lambda document, time: with_entry(document, 0, ended_at=time),
}
# Written with an offset that carries them past the first or the last year UTC can write.
BEYOND_UTC_YEARS = ["0001-01-01T00:00:00+14:00", "0001-01-01T00:00:00+00:01",
                    "9999-12-31T23:59:59-14:00", "9999-12-31T23:59:59-00:01"]


@pytest.mark.parametrize("time", BEYOND_UTC_YEARS)
@pytest.mark.parametrize("path", TIMES)
def test_a_time_beyond_the_years_utc_writes_is_refused_by_its_field(app, client, path, time):
    """The store writes every time in UTC: one that UTC puts before the year 1 or after
    9999 is refused like any other spoilt field, and creates nothing."""
    document = TIMES[path](exported_burro(client), time)
    before = count_rows(app, "matches")
    for headers, message in (
            ({}, f"The field “{path}” must be a time within the years 1 to 9999 in UTC."),
            (GERMAN,
             f"Das Feld „{path}“ muss eine Zeit in den Jahren 1 bis 9999 sein, in UTC.")):
        response = client.post(f"{MATCHES}/import", json=document, headers=headers)
        assert response.status_code == 400
        assert response.json["error"] == message
        assert response.json["fields"] == [{"path": path, "error": message}]
        page = upload(client, json.dumps(document).encode(), **headers)
        assert page.status_code == 400
        assert message in shown(page)
    assert count_rows(app, "matches") == before


@pytest.mark.parametrize("time", ["0001-01-01T00:00:00+00:00", "0001-01-01T13:59:59-14:00",
                                  "9999-12-31T23:59:59+00:00", "9999-12-31T23:59:59+14:00"])
def test_a_time_at_either_end_of_the_years_utc_writes_is_imported(client, time):
    """The first and the last second UTC writes, however their offset writes them: the
    match opens, and its sheet, export and the start page show it."""
    document = with_entry(with_change(exported_burro(client), created_at=time), 0,
                          ended_at=time)
    imported = client.post(f"{MATCHES}/import", json=document)
    assert imported.status_code == 201, imported.json
    token = imported.json["token"]
    for address in (f"/m/{token}", f"/v/{imported.json['view_token']}",
                    f"/m/{token}/export.csv", f"{MATCHES}/{token}/export", "/"):
        assert client.get(address).status_code == 200, address


# --- The CSV sheet --------------------------------------------------------------------------

def csv_of(client, token: str, **headers) -> tuple:
    response = client.get(f"/m/{token}/export.csv", headers=headers)
    assert response.status_code == 200
    return response, response.get_data().decode("utf-8")


def test_the_csv_is_a_row_per_hand_with_gains_and_running_totals(client):
    token = played_match(client, "burro")
    response, text = csv_of(client, token)
    assert response.headers["Content-Type"] == "text/csv; charset=utf-8"
    assert response.headers["Content-Disposition"].startswith('attachment; filename="burro-')
    assert response.headers["Content-Disposition"].endswith('.csv"')
    # The byte order mark makes spreadsheets read the file as UTF-8.
    assert text.startswith("\ufeff")
    assert text[1:].splitlines() == [
        "Hand,Dealer,Anna: gain,Anna: total,Ben: gain,Ben: total,Carla: gain,Carla: total",
        "1,Anna,0,0,1,1,0,0",
        "2,Ben,1,1,0,1,0,0",
    ]


def test_the_csv_of_a_partnership_game_has_a_column_pair_per_side(client):
    _response, text = csv_of(client, played_match(client, "burraco"))
    header, first, second = text[1:].splitlines()
    assert header == ("Game,Dealer,Anna & Carla: gain,Anna & Carla: total,"
                      "Ben & Dario: gain,Ben & Dario: total")
    assert first == "1,Anna,400,400,165,165"
    assert second == "2,Ben,-50,350,300,465"


def test_the_csv_of_a_tournament_match_ends_with_each_pairs_victory_points(client):
    """B8: after the last game each pair has its Victory Points, as the sheet's end box
    shows them; the CSV puts them under the pairs' totals."""
    players, hands, _correction = GAMES["burraco"]
    token = client.post(MATCHES, json={"game": "burraco", "players": players,
                                       "options": {"hands": 3}}).json["token"]
    for hand in hands:
        assert client.post(f"{MATCHES}/{token}/hands", json=hand).status_code == 201
    vp = client.get(f"{MATCHES}/{token}").json["victory_points"]
    _response, text = csv_of(client, token)
    assert text[1:].splitlines()[1:] == [
        "1,Anna,410,410,155,155",
        "2,Ben,-50,360,300,455",
        "3,Carla,100,460,0,455",
        f"Victory Points,,,{vp[0]},,{vp[1]}",
    ]
    _response, german = csv_of(client, token, **GERMAN)
    assert german.splitlines()[-1] == f"Siegpunkte,,,{vp[0]},,{vp[1]}"


def test_an_unfinished_tournament_match_has_no_victory_points_yet(client):
    players, hands, _correction = GAMES["burraco"]
    token = client.post(MATCHES, json={"game": "burraco", "players": players,
                                       "options": {"hands": 3}}).json["token"]
    client.post(f"{MATCHES}/{token}/hands", json=hands[0])
    _response, text = csv_of(client, token)
    assert len(text[1:].splitlines()) == 2


def test_a_name_a_spreadsheet_would_run_as_a_formula_is_written_as_text(client):
    token = client.post(MATCHES, json={"game": "burro", "players": ["=1+1", "@Ben", "-Carla"]}
                        ).json["token"]
    client.post(f"{MATCHES}/{token}/hands", json={"burro": 1})
    _response, text = csv_of(client, token)
    header, row = text[1:].splitlines()
    assert header.startswith("Hand,Dealer,'=1+1: gain,'=1+1: total,'@Ben: gain")
    assert row.startswith("1,'=1+1,0,0,1,1")


def test_the_csv_speaks_german(client):
    token = played_match(client, "burro")
    _response, text = csv_of(client, token, **GERMAN)
    assert text[1:].splitlines()[0].startswith("Runde,Geber,Anna: Zuwachs,Anna: Stand")


# --- The import page ------------------------------------------------------------------------

def upload(client, content: bytes, **headers):
    form = {"csrf_token": csrf_token(client, "/import"),
            "document": (io.BytesIO(content), "match.json")}
    return client.post("/import", data=form, content_type="multipart/form-data",
                       headers=headers)


def test_the_sheet_links_both_exports(client):
    token = played_match(client, "burro")
    links = {link["href"] for link in parsed(client.get(f"/m/{token}")).select("a[href]")}
    assert {f"{MATCHES}/{token}/export", f"/m/{token}/export.csv"} <= links


def test_the_home_page_links_the_import_page(client):
    assert parsed(client.get("/")).select('a[href="/import"]')


def test_the_import_page_is_a_form_with_a_file_field(client):
    page = parsed(client.get("/import"))
    assert page.html is not None
    assert page.select("form input[type=file]") and page.select("form input[name=csrf_token]")
    fragment = parsed(client.get("/import", headers=HTMX))
    assert fragment.html is None and fragment.select("form input[type=file]")


def test_an_uploaded_match_opens_as_a_new_sheet(client):
    document = exported_burro(client)
    response = upload(client, json.dumps(document).encode())
    assert response.status_code == 303
    sheet = shown(client.get(response.headers["Location"]))
    assert "Anna" in sheet and "2 changes" in sheet


def test_an_htmx_upload_moves_to_the_new_sheet(client):
    response = upload(client, json.dumps(exported_burro(client)).encode(),
                      **HTMX)
    assert response.headers["HX-Redirect"].startswith("/m/")


def test_a_larger_match_file_than_other_forms_may_send_is_taken(client):
    document = exported_burro(client)
    document["padding"] = "x" * 100_000
    assert upload(client, json.dumps(document).encode()).status_code == 303


@pytest.mark.parametrize("content, reason", [
    (b"", "Choose the match file"),
    (b"not json", "not JSON"),
    (b'{"format": "tablemate-match", "format_version": 2}', "only format 1"),
    (b" " * (2 * 1024 * 1024 + 1), "larger than 2,048 KB"),
])
def test_the_page_refuses_a_spoilt_file_with_its_reason(app, client, content, reason):
    response = upload(client, content)
    assert response.status_code == 400
    assert reason in shown(response)
    assert count_rows(app, "matches") == 0


def test_the_page_refuses_a_file_far_beyond_its_limit_by_that_limit(app, client):
    """The whole form beyond its limit is told as the file's limit, on the import page."""
    response = upload(client, b" " * (2200 * 1024))
    assert response.status_code == 413
    assert "The file is larger than 2,048 KB" in shown(parsed(response).select_one("#import-match"))
    assert count_rows(app, "matches") == 0


def test_the_page_refuses_markup_in_a_name_in_german(app, client):
    document = with_change(exported_burro(client), players=["<b>Anna", "Ben", "Carla"])
    client.set_cookie("lang", "de")
    response = upload(client, json.dumps(document).encode())
    assert response.status_code == 400
    assert "darf kein < oder > enthalten" in shown(response)
    assert count_rows(app, "matches") == 1


def test_an_upload_without_the_form_token_is_refused(app, client):
    response = client.post("/import", data={"document": (io.BytesIO(b"{}"), "match.json")},
                           content_type="multipart/form-data")
    assert response.status_code == 400
    assert "did not come from this page" in shown(response)


def test_a_match_of_every_entry_it_may_hold_is_exported_and_imported_again(app, client):
    """Whatever a match exports comes back whole, through the API and through the page."""
    token = client.post(MATCHES, json={"game": "burro", "players": THREE,
                                       "options": {"variant": "portuguese"}}).json["token"]
    with app.app_context():
        db = store.get_db()
        match = store.get_match(db, token)
        with store.backend.writing(db):
            store.backend.insert_rows(db, "entries", (
                {"match_id": match.id, "number": number, "status": store.ACTIVE,
                 "data": json.dumps({"winner": number % 3}), "created_at": match.created_at,
                 "ended_at": None} for number in range(1, store.MAX_ENTRIES + 1)))
            db.execute("UPDATE matches SET version = ? WHERE id = ?",
                       [store.MAX_ENTRIES, match.id])
    exported = client.get(f"{MATCHES}/{token}/export").get_data()
    imported = client.post(f"{MATCHES}/import", data=exported, content_type="application/json")
    assert imported.status_code == 201
    assert imported.json["totals"] == client.get(f"{MATCHES}/{token}").json["totals"]
    assert upload(client, exported).status_code == 303
    assert count_rows(app, "matches") == 3
