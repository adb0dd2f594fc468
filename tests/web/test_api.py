"""The JSON API v1: the examples the README gives, and malformed input (400, never 500)."""

import pytest
from helpers import GERMAN, MATCHES, THREE, count_rows, start

TRICK = "/api/v1/burro/trick"


def test_the_trick_example(client):
    response = client.post(TRICK, json={"deck": "40", "plays": ["5H", "JH", "2H", "7H"]})
    assert response.status_code == 200
    assert response.json["winner"] == 1
    assert response.json["card"] == "JH"
    assert response.json["reason"] == \
        "J♥ is the highest heart: player 2 wins the trick and leads next."


def test_the_trick_reason_follows_the_language(client):
    response = client.post(TRICK, json={"plays": ["5H", "JH"]}, headers=GERMAN)
    assert response.json["reason"].startswith("B♥ ist das höchste Herz")


def test_a_pass_is_null(client):
    response = client.post(TRICK, json={"deck": 52, "plays": ["3C", None, "AC", "KC"]})
    assert response.json["winner"] == 2
    assert response.json["passed"] == [1]


def test_a_card_of_another_suit_is_refused_with_its_rule(client):
    """RULES-NOTES E6: "the trick checker refuses it with that rule"."""
    response = client.post(TRICK, json={"deck": 52, "plays": ["3C", None, "AC", "KS"]})
    assert response.status_code == 400 and response.json["code"] == "must_follow_suit"
    assert response.json["error"].startswith("K♠ cannot be played: the lead is a club.")


@pytest.mark.parametrize("body, fragment", [
    ({"plays": ["5H", "ZZ"]}, "“ZZ” is not a card"),
    ({"plays": ["5H", "9H"]}, "not in the 40-card deck"),
    ({"plays": [None, "9H"]}, "lead"),
    ({"deck": "36", "plays": ["5H", "6H"]}, "40, 48 or 52"),
    ({"plays": "5H JH"}, "“plays”"),
    ({"plays": ["5H"]}, "2 to 8"),
    ({}, "“plays”"),
])
def test_bad_tricks_are_400_with_the_reason(client, body, fragment):
    response = client.post(TRICK, json=body)
    assert response.status_code == 400
    assert fragment in response.json["error"]


@pytest.mark.parametrize("data, kwargs", [
    ("not json", {"content_type": "application/json"}),
    ('["a list"]', {"content_type": "application/json"}),
    ('{"plays": ["5H", "JH"]}', {"content_type": "text/plain"}),
])
def test_malformed_bodies_are_400(client, data, kwargs):
    response = client.post(TRICK, data=data, **kwargs)
    assert response.status_code == 400 and "JSON object" in response.json["error"]


def test_create_a_match(client):
    created = client.post(MATCHES, json={"game": "burro", "players": THREE,
                                         "options": {"limit": 3}})
    assert created.status_code == 201
    body = created.json
    assert len(body["token"]) == 32
    assert body["players"] == ["Anna", "Ben", "Carla"]
    assert body["totals"] == [0, 0, 0]
    assert body["finished"] is False and body["winners"] == [] and body["losers"] == []
    assert (body["dealer"], body["leader"]) == (0, 1)
    assert body["hands"] == []
    assert body["url"].endswith(f"/m/{body['token']}")


def test_play_a_match_to_the_end_and_undo(client):
    token = start(client, hands=0, players=THREE, limit=2)["token"]
    for seat in (2, 0, 2):
        response = client.post(f"{MATCHES}/{token}/hands", json={"burro": seat})
        assert response.status_code == 201
    body = response.json
    assert body["totals"] == [1, 0, 2]
    assert body["finished"] and body["losers"] == [2] and body["winners"] == [1]
    assert body["hands"][-1] == {"number": 3, "dealer": 2, "burro": 2, "totals": [1, 0, 2]}
    refused = client.post(f"{MATCHES}/{token}/hands", json={"burro": 0})
    assert refused.status_code == 400 and refused.json["code"] == "match_finished"
    undone = client.delete(f"{MATCHES}/{token}/hands/last")
    assert undone.json["totals"] == [1, 0, 1] and not undone.json["finished"]
    assert client.get(f"{MATCHES}/{token}").json["totals"] == [1, 0, 1]


def test_correct_a_hand(client):
    token = start(client, hands=0, players=THREE)["token"]
    client.post(f"{MATCHES}/{token}/hands", json={"burro": 0})
    response = client.put(f"{MATCHES}/{token}/hands/1", json={"burro": 1})
    assert response.json["totals"] == [0, 1, 0]
    assert client.put(f"{MATCHES}/{token}/hands/2", json={"burro": 1}).status_code == 400


def test_portuguese_hands_name_the_winner(client):
    token = start(client, hands=0, players=THREE, variant="portuguese", wins_target=1)["token"]
    body = client.post(f"{MATCHES}/{token}/hands", json={"winner": 1}).json
    assert body["finished"] and body["winners"] == [1]
    assert body["hands"][0]["winner"] == 1


@pytest.mark.parametrize("body, code", [
    ({"game": "burro", "players": ["Anna"]}, "player_count"),
    ({"game": "burro", "players": ["Anna", "anna"]}, "player_name_twice"),
    ({"game": "burro", "players": ["A", "<script>"]}, "player_name_markup"),
    ({"game": "burro", "players": ["A", "B"], "options": {"limit": 10**9}}, "limit_range"),
    ({"game": "burro", "players": ["A", "B"], "options": {"limit": 0}}, "limit_range"),
])
def test_bad_matches_are_refused_by_rule(client, app, body, code):
    response = client.post(MATCHES, json=body)
    assert response.status_code == 400 and response.json["code"] == code
    assert count_rows(app, "matches") == 0


@pytest.mark.parametrize("body", [
    {"game": "chess", "players": ["A", "B"]},
    {"players": ["A", "B"]},
    {"game": "burro", "players": "Anna, Ben"},
    {"game": "burro", "players": ["A", "B"], "options": [5]},
])
def test_malformed_matches_are_400(client, body):
    response = client.post(MATCHES, json=body)
    assert response.status_code == 400 and response.json["error"]


@pytest.mark.parametrize("hand", [{"burro": 3}, {"burro": "x"}, {"winner": 0}, {}, [1]])
def test_bad_hands_are_400_and_store_nothing(client, hand):
    token = start(client, hands=0, players=THREE)["token"]
    assert client.post(f"{MATCHES}/{token}/hands", json=hand).status_code == 400
    assert client.get(f"{MATCHES}/{token}").json["hands"] == []


def test_undo_with_no_hands_is_400(client):
    token = start(client, hands=0, players=THREE)["token"]
    assert client.delete(f"{MATCHES}/{token}/hands/last").status_code == 400


@pytest.mark.parametrize("method, path", [
    ("get", f"{MATCHES}/nope"), ("post", f"{MATCHES}/nope/hands"),
    ("delete", f"{MATCHES}/nope/hands/last"), ("get", "/api/v1/nothing"),
])
def test_unknown_tokens_and_routes_are_json_404(client, method, path):
    response = getattr(client, method)(path, json={"burro": 0})
    assert response.status_code == 404 and "error" in response.json


def test_the_api_needs_no_csrf_token_but_json(client):
    """A cross-site form can post text/plain, never application/json without asking first."""
    response = client.post(MATCHES, data={"game": "burro", "players": ["A", "B"]})
    assert response.status_code == 400


def test_a_client_that_names_the_version_it_saw_cannot_overwrite_a_change(client):
    token = start(client, hands=0, players=THREE)["token"]
    body = client.post(f"{MATCHES}/{token}/hands", json={"burro": 0, "version": 0}).json
    assert body["version"] == 1
    stale = client.post(f"{MATCHES}/{token}/hands", json={"burro": 1, "version": 0})
    assert stale.status_code == 409
    assert client.delete(f"{MATCHES}/{token}/hands/last?version=0").status_code == 409
    assert client.delete(f"{MATCHES}/{token}/hands/last?version=1").status_code == 200
    assert client.post(f"{MATCHES}/{token}/hands",
                       json={"burro": 1, "version": "x"}).status_code == 400


def test_a_retry_with_the_same_idempotency_key_changes_the_match_once(client):
    """A client whose answer was lost sends the request again: one hand, the same answer."""
    token = client.post(MATCHES, json={"game": "burro", "players": ["A", "B"]}).json["token"]
    retry = {"Idempotency-Key": "hand-1"}
    first = client.post(f"{MATCHES}/{token}/hands", json={"burro": 0}, headers=retry)
    again = client.post(f"{MATCHES}/{token}/hands", json={"burro": 0}, headers=retry)
    assert first.status_code == again.status_code == 201
    assert len(again.json["hands"]) == 1 and again.json["totals"] == [1, 0]
    corrected = {"Idempotency-Key": "fix-1"}
    for _attempt in range(2):
        client.put(f"{MATCHES}/{token}/hands/1", json={"burro": 1}, headers=corrected)
    undo = {"Idempotency-Key": "undo-1"}
    for _attempt in range(2):
        assert client.delete(f"{MATCHES}/{token}/hands/last", headers=undo).status_code == 200
    body = client.get(f"{MATCHES}/{token}").json
    assert body["hands"] == [] and body["version"] == 3
