"""Club nights in the JSON API: a night started and read by its two links, its tables played
through the matches' API, and each result confirmed by both pairs' codes or the organiser
before it counts (RULES-NOTES B8)."""

import json
import threading

import pytest
from helpers import EVENTS, GERMAN, HANDS, MATCHES, count_rows, shown

FRIDAY = {"title": "Friday club", "pairs": ["Anna & Carla", "Bruno & Dario", "Elena & Fabio",
                                            "Gina & Hugo"],
          "movement": "mitchell", "turns": 2, "hands": 3}
# A hand North–South wins, and the same hand won by East–West.
NORTH_SOUTH_WINS = HANDS["burraco"]
EAST_WEST_WINS = {"sides": NORTH_SOUTH_WINS["sides"][::-1]}


def start_night(client, **setup) -> dict:
    response = client.post(EVENTS, json={**FRIDAY, **setup})
    assert response.status_code == 201, response.json
    return response.json


def night(client, token: str) -> dict:
    return client.get(f"{EVENTS}/{token}").json


def table_of(client, token: str, turn: int, table: int) -> dict:
    return client.get(f"{EVENTS}/{token}/turns/{turn}").json["tables"][table - 1]


def play(client, table: dict, hand=NORTH_SOUTH_WINS) -> dict:
    """Every game of a table, entered as its phones enter them: the match as they left it."""
    for _game in range(table["games"]):
        played = client.post(f"{MATCHES}/{table['token']}/hands", json=hand)
        assert played.status_code == 201, played.json
    return played.json


def code_of(started: dict, pair: int) -> str:
    return started["pairs"][pair - 1]["code"]


def pair_confirms(client, started: dict, table: dict, side: int, code: str | None = None,
                  version: int | None = None):
    pair = table["east_west" if side else "north_south"]["number"]
    return client.post(f"{MATCHES}/{table['token']}/confirm", json={
        "side": side, "code": code_of(started, pair) if code is None else code,
        "version": table["version"] if version is None else version})


def both_confirm(client, started: dict, turn: int, table: int) -> dict:
    seated = table_of(client, started["token"], turn, table)
    for side in (0, 1):
        assert pair_confirms(client, started, seated, side).status_code == 200
    return table_of(client, started["token"], turn, table)


# --- Starting a night -----------------------------------------------------------------------

def test_a_night_starts_with_its_first_turn_seated_by_the_movement(client):
    started = start_night(client)
    assert started["title"] == "Friday club"
    assert [pair["name"] for pair in started["pairs"]] == FRIDAY["pairs"]
    assert all(len(pair["code"]) == 4 for pair in started["pairs"])
    assert started["setup"]["victory_points"]["name"] == "FIBUR"
    assert started["links"]["organiser"].endswith(f"/e/{started['token']}")
    assert started["links"]["screen"].endswith(f"/s/{started['view_token']}")
    (turn,) = started["turns"]
    seated = [(table["north_south"]["number"], table["east_west"]["number"])
              for table in turn["tables"]]
    assert seated == [(1, 3), (2, 4)]
    assert {table["state"] for table in turn["tables"]} == {"not_started"}
    assert turn["tables"][0]["url"].endswith(f"/m/{turn['tables'][0]['token']}")
    assert started["current_turn"] == 1 and not started["finished"]
    assert [row["victory_points"] for row in started["standings"]] == [0, 0, 0, 0]


def test_a_night_without_a_title_is_a_club_night(client):
    assert start_night(client, title=None)["title"] == "Club night"


def test_a_title_that_hides_characters_is_refused_as_a_matchs_is(app, client):
    response = client.post(EVENTS, json={**FRIDAY, "title": "Friday\u200b club"})
    assert response.status_code == 400
    assert response.json["error"] == "A title cannot hold control or invisible characters."
    assert count_rows(app, "events") == 0


def test_a_club_table_of_victory_points_is_taken_as_the_setup_gives_it(client):
    table = {"name": "Club 2", "hands": 2, "bands": [
        {"from": 0, "to": 100, "vp": [10, 10]}, {"from": 105, "to": None, "vp": [15, 5]}]}
    started = start_night(client, hands=2, victory_points=table)
    assert started["setup"]["victory_points"] == {**table, "total": 20}


@pytest.mark.parametrize("change", [
    {"pairs": "Anna, Bruno, Elena, Gina"},
    {"movement": "swiss"},
    {"turns": "2"},
    {"title": "x" * 61},
    {"round": 2},
    {"victory_points": "EBL"},
])
def test_a_setup_of_the_wrong_shape_is_refused_by_its_fields(app, client, change):
    response = client.post(EVENTS, json={**FRIDAY, **change})
    assert response.status_code == 400 and response.json["code"] == "invalid_field"
    assert count_rows(app, "events") == count_rows(app, "matches") == 0


@pytest.mark.parametrize("change, code", [
    ({"pairs": ["Anna", "Bruno", "anna", "Gina"]}, "event_pair_twice"),
    ({"pairs": ["Anna"]}, "event_pairs"),
    ({"hands": 5}, "event_hands"),
    ({"turns": 3}, "event_turns"),
    ({"pairs": ["A", "B", "C", "D", "E", "F"]}, "mitchell_even_tables"),
    ({"movement": "danish", "step": 2}, "step_mitchell_only"),
    ({"bye_vp": -1}, "event_bye_vp"),
    ({"hands": 2}, "vp_table_needed"),
    ({"victory_points": {"name": "Club", "bands": [{"from": 0, "to": 100, "vp": [10, 10]}]}},
     "vp_table_not_open"),
    ({"victory_points": {"name": "Club", "hands": 4, "bands": [
        {"from": 0, "to": None, "vp": [10, 10]}]}}, "vp_table_other_hands"),
])
def test_a_setup_the_rules_refuse_is_refused_with_the_rule(app, client, change, code):
    response = client.post(EVENTS, json={**FRIDAY, **change})
    assert response.status_code == 400 and response.json["code"] == code
    assert response.json["error"]
    assert count_rows(app, "events") == count_rows(app, "matches") == 0


def test_a_refusal_is_in_the_readers_language(client):
    response = client.post(EVENTS, json={**FRIDAY, "pairs": ["Anna", "anna"]}, headers=GERMAN)
    assert response.json["code"] == "event_pair_twice"
    assert "Paare" in response.json["error"]


def test_a_night_sent_again_with_its_key_is_started_once(app, client):
    """A client whose answer was lost sends the start again: the same night, its first turn
    opened once."""
    key = {"Idempotency-Key": "friday-1"}
    first = client.post(EVENTS, json=FRIDAY, headers=key)
    again = client.post(EVENTS, json=FRIDAY, headers=key)
    assert first.status_code == again.status_code == 201
    assert again.json["token"] == first.json["token"]
    assert again.json["pairs"] == first.json["pairs"]
    assert count_rows(app, "events") == 1 and count_rows(app, "matches") == 2
    other = client.post(EVENTS, json={**FRIDAY, "title": "Saturday"}, headers=key)
    assert other.json["token"] != first.json["token"]


def test_a_night_counts_against_the_quota_of_starts(app, client, monkeypatch):
    monkeypatch.setitem(app.config, "MATCHES_PER_CLIENT", "2 per minute")
    assert client.post(MATCHES, json={"game": "burro", "players": ["A", "B"]}).status_code == 201
    assert client.post(EVENTS, json=FRIDAY).status_code == 201
    beyond = client.post(EVENTS, json=FRIDAY)
    assert beyond.status_code == 429 and int(beyond.headers["Retry-After"]) >= 1
    assert count_rows(app, "events") == 1


# --- Reading it by its two links ------------------------------------------------------------

def test_the_screens_link_reads_the_night_without_codes_or_edit_links(client):
    started = start_night(client)
    watched = client.get(f"{EVENTS}/{started['view_token']}")
    assert watched.status_code == 200
    seen = watched.json
    text = json.dumps(seen)
    secrets = [started["token"], *(pair["code"] for pair in started["pairs"]),
               *(table["token"] for table in started["turns"][0]["tables"])]
    assert not [secret for secret in secrets if secret in text]
    assert "token" not in seen and "organiser" not in seen["links"]
    assert all("code" not in pair for pair in seen["pairs"])
    table = seen["turns"][0]["tables"][0]
    assert "token" not in table and "url" not in table
    assert table["view_url"] == started["turns"][0]["tables"][0]["view_url"]
    assert seen["standings"] == started["standings"]


def test_the_turn_and_the_standings_are_read_on_their_own(client):
    started = start_night(client)
    for link in (started["token"], started["view_token"]):
        turn = client.get(f"{EVENTS}/{link}/turns/1")
        assert turn.status_code == 200
        assert [table["number"] for table in turn.json["tables"]] == [1, 2]
        standings = client.get(f"{EVENTS}/{link}/standings").json
        assert standings == {"standings": started["standings"], "standings_after_turn": [],
                             "finished": False}
    assert "token" not in client.get(
        f"{EVENTS}/{started['view_token']}/turns/1").json["tables"][0]


@pytest.mark.parametrize("path", [
    "/nopenopenopenopenope", "/{token}/turns/2", "/{token}/turns/0",
    "/nopenopenopenopenope/standings",
])
def test_unknown_nights_and_turns_are_404(client, path):
    started = start_night(client)
    response = client.get(EVENTS + path.format(token=started["token"]))
    assert response.status_code == 404 and response.json["error"]


def test_the_screens_link_confirms_and_reopens_nothing(client):
    started = start_night(client)
    for change in ("confirm", "reopen"):
        response = client.post(f"{EVENTS}/{started['view_token']}/turns/1/tables/1/{change}",
                               json={})
        assert response.status_code == 403
    assert client.post(f"{EVENTS}/{started['token']}/turns/1/tables/3/confirm",
                       json={}).status_code == 404


def test_a_tables_match_says_which_night_turn_and_table_it_is(client):
    started = start_night(client)
    table = started["turns"][0]["tables"][1]
    for link in (table["token"], table["view_url"].rsplit("/", 1)[1]):
        seat = client.get(f"{MATCHES}/{link}").json["event"]
        assert seat == {"title": "Friday club", "turn": 1, "table": 2,
                        "screen_url": started["links"]["screen"]}
    plain = client.post(MATCHES, json={"game": "burro", "players": ["A", "B"]}).json
    assert "event" not in plain


# --- Confirming results ---------------------------------------------------------------------

def test_a_result_counts_once_both_pairs_confirmed_it_with_their_codes(client):
    started = start_night(client)
    played = play(client, started["turns"][0]["tables"][0])
    table = table_of(client, started["token"], 1, 1)
    assert table["state"] == "to_confirm" and table["version"] == played["version"]
    assert table["match_points"] == played["totals"]
    assert table["victory_points"] == played["victory_points"]

    wrong = pair_confirms(client, started, table, 0, code=code_of(started, 2))
    assert wrong.status_code == 422 and wrong.json["code"] == "wrong_code"
    assert "Anna & Carla" in wrong.json["error"]
    assert table_of(client, started["token"], 1, 1) == table

    first = pair_confirms(client, started, table, 0, code=code_of(started, 1).lower())
    assert first.status_code == 200
    assert first.json["confirmed_by"] == [1] and first.json["state"] == "to_confirm"
    assert [row["played"] for row in client.get(
        f"{EVENTS}/{started['token']}/standings").json["standings"]] == [0, 0, 0, 0]

    second = pair_confirms(client, started, table, 1)
    assert second.json["confirmed_by"] == [1, 3] and second.json["state"] == "confirmed"
    rows = {row["pair"]: row for row in night(client, started["token"])["standings"]}
    assert (rows[1]["victory_points"], rows[3]["victory_points"]) == tuple(
        played["victory_points"])
    assert (rows[1]["played"], rows[3]["played"], rows[2]["played"]) == (1, 1, 0)


def test_a_confirmed_result_locks_its_hands_until_the_organiser_reopens_it(client):
    started = start_night(client)
    play(client, started["turns"][0]["tables"][0])
    table = both_confirm(client, started, 1, 1)
    match = f"{MATCHES}/{table['token']}"
    locked = client.put(f"{match}/hands/1", json=EAST_WEST_WINS)
    assert locked.status_code == 409 and locked.json["code"] == "result_confirmed"

    reopened = client.post(f"{EVENTS}/{started['token']}/turns/1/tables/1/reopen", json={})
    assert reopened.status_code == 200
    assert reopened.json["state"] == "to_confirm" and reopened.json["confirmed_by"] == []
    assert client.put(f"{match}/hands/1", json=EAST_WEST_WINS).status_code == 200
    assert all(row["played"] == 0 for row in night(client, started["token"])["standings"])


def test_the_organiser_confirms_for_the_table_once_it_has_played_its_last_game(client):
    started = start_night(client)
    at_table = f"{EVENTS}/{started['token']}/turns/1/tables/1/confirm"
    early = client.post(at_table, json={})
    assert early.status_code == 422 and early.json["code"] == "result_not_finished"
    played = play(client, started["turns"][0]["tables"][0])
    stale = client.post(at_table, json={"version": played["version"] - 1})
    assert stale.status_code == 409 and stale.json["code"] == "result_changed"
    confirmed = client.post(at_table, json={"version": played["version"]})
    assert confirmed.status_code == 200
    assert confirmed.json["state"] == "confirmed"
    assert confirmed.json["confirmed_by"] == ["organiser"]


def test_a_pair_cannot_confirm_a_result_changed_since_it_looked(client):
    started = start_night(client)
    table = started["turns"][0]["tables"][0]
    early = pair_confirms(client, started, table, 0)
    assert early.status_code == 422 and early.json["code"] == "result_not_finished"
    played = play(client, table)
    client.put(f"{MATCHES}/{table['token']}/hands/3", json=EAST_WEST_WINS)
    stale = pair_confirms(client, started, table, 0, version=played["version"])
    assert stale.status_code == 409 and stale.json["code"] == "result_changed"
    assert table_of(client, started["token"], 1, 1)["confirmed_by"] == []


def test_the_sheet_and_the_api_take_a_pairs_confirmation_alike(client, post):
    """A pair confirms on its table's sheet or through the API: the same code checked,
    the same confirmation stored."""
    started = start_night(client)
    play(client, started["turns"][0]["tables"][0])
    table = table_of(client, started["token"], 1, 1)
    sheet = f"/m/{table['token']}/confirm"
    wrong = post(sheet, {"side": "0", "code": code_of(started, 3), "version": table["version"]})
    assert wrong.status_code == 422
    assert "That is not the code of Anna & Carla." in shown(wrong)
    signed = post(sheet, {"side": "0", "code": code_of(started, 1), "version": table["version"]})
    assert signed.status_code == 303
    assert table_of(client, started["token"], 1, 1)["confirmed_by"] == [1]
    assert pair_confirms(client, started, table, 1).json["state"] == "confirmed"


def test_only_a_table_of_a_night_is_confirmed(client):
    plain = client.post(MATCHES, json={"game": "burro", "players": ["A", "B"]}).json
    response = client.post(f"{MATCHES}/{plain['token']}/confirm",
                           json={"side": 0, "code": "AAAA", "version": 0})
    assert response.status_code == 404
    watched = client.post(f"{MATCHES}/{plain['view_token']}/confirm",
                          json={"side": 0, "code": "AAAA", "version": 0})
    assert watched.status_code == 403


def test_the_same_confirmation_sent_twice_counts_once(client):
    started = start_night(client)
    play(client, started["turns"][0]["tables"][0])
    table = table_of(client, started["token"], 1, 1)
    first = pair_confirms(client, started, table, 0)
    again = pair_confirms(client, started, table, 0)
    assert first.status_code == again.status_code == 200
    assert again.json == first.json
    assert again.json["version"] == table["version"] + 1


def test_both_pairs_confirming_at_once_both_count(app):
    """Two phones of one table confirm in the same moment: both confirmations stand, and
    the result counts once."""
    client = app.test_client()
    started = start_night(client)
    play(client, started["turns"][0]["tables"][0])
    table = table_of(client, started["token"], 1, 1)
    together = threading.Barrier(2)
    statuses = []

    def confirm(side: int) -> None:
        phone = app.test_client()
        together.wait()
        statuses.append(pair_confirms(phone, started, table, side).status_code)

    phones = [threading.Thread(target=confirm, args=(side,)) for side in (0, 1)]
    for phone in phones:
        phone.start()
    for phone in phones:
        phone.join()
    assert statuses == [200, 200]
    confirmed = table_of(client, started["token"], 1, 1)
    assert confirmed["state"] == "confirmed" and confirmed["confirmed_by"] == [1, 3]
    assert confirmed["version"] == table["version"] + 2
    assert [row["played"] for row in night(client, started["token"])["standings"]
            if row["pair"] in (1, 3)] == [1, 1]


# --- A whole night --------------------------------------------------------------------------

def test_a_whole_night_opens_each_turn_after_its_last_confirmation(client):
    started = start_night(client)
    token = started["token"]
    for table in started["turns"][0]["tables"]:
        play(client, table)
    both_confirm(client, started, 1, 1)
    assert len(night(client, token)["turns"]) == 1
    both_confirm(client, started, 1, 2)

    after_first = night(client, token)
    assert after_first["turns"][0]["complete"] and after_first["current_turn"] == 2
    second = after_first["turns"][1]
    assert [(table["north_south"]["number"], table["east_west"]["number"])
            for table in second["tables"]] == [(1, 4), (2, 3)]
    assert len(after_first["standings_after_turn"]) == 1 and not after_first["finished"]

    for table in second["tables"]:
        play(client, table, EAST_WEST_WINS)
        client.post(f"{EVENTS}/{token}/turns/2/tables/{table['number']}/confirm", json={})
    ended = night(client, token)
    assert ended["finished"] and len(ended["standings_after_turn"]) == 2
    assert ended["standings"] == ended["standings_after_turn"][-1]
    assert all(row["played"] == 2 for row in ended["standings"])
    assert len(ended["turns"]) == 2


def test_a_danish_second_turn_is_seated_by_the_standings(client):
    started = start_night(client, movement="danish")
    first = started["turns"][0]["tables"]
    assert [(table["north_south"]["number"], table["east_west"]["number"])
            for table in first] == [(1, 2), (3, 4)]
    play(client, first[0], EAST_WEST_WINS)
    play(client, first[1], NORTH_SOUTH_WINS)
    for table in (1, 2):
        both_confirm(client, started, 1, table)
    after = night(client, started["token"])
    order = [row["pair"] for row in after["standings_after_turn"][0]]
    assert set(order[:2]) == {2, 3}
    assert [(table["north_south"]["number"], table["east_west"]["number"])
            for table in after["turns"][1]["tables"]] == [tuple(order[:2]), tuple(order[2:])]
