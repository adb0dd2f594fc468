"""Live updates: a phone asks every few seconds whether the match moved on. Nothing new costs
one version lookup and an empty answer; otherwise the sheet comes back with what changed."""

import re

import pytest

import store

MATCHES = "/api/v1/matches"


def text(response) -> str:
    return response.get_data(as_text=True)


def new_match(client, game="burro", players=("Anna", "Ben")) -> dict:
    return client.post(MATCHES, json={"game": game, "players": list(players)}).json


def test_nothing_new_is_an_empty_answer_from_the_version_alone(client, app, monkeypatch):
    """The question that finds nothing new reads no entries and renders nothing."""
    match = new_match(client)
    client.post(f"{MATCHES}/{match['token']}/hands", json={"burro": 1})

    def no_reading(*args, **kwargs):
        raise AssertionError("entries were read for a question with nothing new")

    monkeypatch.setattr(store, "get_match", no_reading)
    monkeypatch.setattr(store, "get_watched_match", no_reading)
    for path in (f"/m/{match['token']}/since/1", f"/v/{match['view_token']}/since/1"):
        response = client.get(path)
        assert response.status_code == 204 and response.data == b""
        assert response.headers["Cache-Control"] == "no-store"


def test_a_change_elsewhere_comes_back_with_the_sheet_and_what_changed(client):
    match = new_match(client, players=("Anna", "Ben", "Carla"))
    client.post(f"{MATCHES}/{match['token']}/hands", json={"burro": 2})
    response = client.get(f"/m/{match['token']}/since/0", headers={"HX-Request": "true"})
    page = text(response)
    assert response.status_code == 200 and page.lstrip().startswith("<section id=\"sheet\"")
    assert "Hand 1 was saved on another phone: Carla +1" in page
    assert f'data-poll="/m/{match["token"]}/since/1"' in page


def test_hands_saved_one_after_another_elsewhere_are_told_in_one_line(client):
    """A phone back after a while, or a script that entered an evening's hands: a line each
    would push the sheet off the screen. Two hands are still told one by one."""
    match = new_match(client, players=("Anna", "Ben", "Carla"))
    for loser in (0, 1, 2, 0, 1):
        client.post(f"{MATCHES}/{match['token']}/hands", json={"burro": loser})
    page = text(client.get(f"/m/{match['token']}/since/0", headers={"HX-Request": "true"}))
    assert "Hands 1 to 5 were saved on another phone: Anna +2 · Ben +2 · Carla +1" in page
    assert "was saved" not in page
    page = text(client.get(f"/m/{match['token']}/since/3", headers={"HX-Request": "true"}))
    assert "Hand 4 was saved on another phone: Anna +1" in page
    assert "Hand 5 was saved on another phone: Ben +1" in page


def test_a_run_of_games_saved_elsewhere_is_told_in_german_with_what_it_gave_each_side(client):
    match = client.post(MATCHES, json={"game": "burraco",
                                       "players": ["Anna", "Ben", "Carla", "Dario"]}).json
    for table_points in (100, 150, 200):
        client.post(f"{MATCHES}/{match['token']}/hands",
                    json={"sides": [{"total": table_points}, {"total": 10}]})
    client.delete(f"{MATCHES}/{match['token']}/hands/last")
    page = text(client.get(f"/m/{match['token']}/since/0",
                           headers={"HX-Request": "true", "Accept-Language": "de"}))
    assert ("Spiele\u00a01 bis\u00a03 wurden auf einem anderen Handy gespeichert: "
            "Anna &amp; Carla +450 · Ben &amp; Dario +30") in page
    assert "Spiel\u00a03 wurde auf einem anderen Handy zurückgenommen." in page


def test_the_watch_only_link_follows_without_revealing_the_edit_token(client):
    match = new_match(client)
    client.post(f"{MATCHES}/{match['token']}/hands", json={"burro": 0})
    page = text(client.get(f"/v/{match['view_token']}/since/0"))
    assert "Hand 1 was saved on another phone" in page
    assert match["token"] not in page and 'id="panel"' not in page


@pytest.mark.parametrize("path", ["/m/{view}/since/0", "/v/{edit}/since/0"])
def test_each_link_asks_only_through_its_own_door(client, path):
    """A view token cannot open the editing sheet, nor an edit token the watching one."""
    match = new_match(client)
    client.post(f"{MATCHES}/{match['token']}/hands", json={"burro": 0})
    response = client.get(path.format(view=match["view_token"], edit=match["token"]))
    assert response.status_code in (403, 404)
    assert 'id="sheet"' not in text(response)


def test_an_unknown_match_is_404(client):
    assert client.get("/m/nothing-here/since/0").status_code == 404


def test_the_match_api_answers_an_unchanged_match_with_304(client, monkeypatch):
    """`GET /api/v1/matches/<token>` sends an ETag (the version) and answers If-None-Match
    with 304, from the version alone."""
    match = new_match(client)
    first = client.get(f"{MATCHES}/{match['token']}")
    etag = first.headers["ETag"]
    assert etag == 'W/"v0"'
    monkeypatch.setattr(store, "get_match", lambda *args: pytest.fail("entries were read"))
    again = client.get(f"{MATCHES}/{match['token']}", headers={"If-None-Match": etag})
    assert again.status_code == 304 and again.data == b""
    monkeypatch.undo()
    client.post(f"{MATCHES}/{match['token']}/hands", json={"burro": 0})
    changed = client.get(f"{MATCHES}/{match['token']}", headers={"If-None-Match": etag})
    assert changed.status_code == 200 and changed.headers["ETag"] == 'W/"v1"'
