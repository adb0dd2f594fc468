"""No input answers 500 (issue #12, point 1): every case the fuzzing run found is a clear 4xx
with the reason, and stores nothing; and nothing is doubled or refused for nothing (point 4).
"""

import json
import re
import threading

import pytest
from helpers import HTMX, MATCHES, THREE, shown, start, stored

import store
from scoring import bura
from scoring.errors import HandError, SetupError
from scoring.players import verify_players
from scoring.values import LARGEST, parse_int, whole_number
from views.json_bodies import MAX_DEPTH, BadRequest, parse_json

LONE_SURROGATE = '"\\ud800"'


def api_writes(app) -> list[tuple[str, str]]:
    """Every API route that reads a JSON body, as (method, path) with a match's token."""
    with app.app_context():
        rules = [(method, rule.rule) for rule in app.url_map.iter_rules()
                 if rule.rule.startswith("/api/") for method in rule.methods
                 if method in ("POST", "PUT")]
    return rules


# --- Limits, one check each (point 1: "Limits, each with a message in the user's language") --

def test_json_deeper_than_the_limit_is_refused_before_it_is_parsed():
    """Point 1: "JSON depth and size"."""
    assert parse_json(b"[" * MAX_DEPTH + b"]" * MAX_DEPTH) is not None
    with pytest.raises(BadRequest, match="nested more than 32 levels"):
        parse_json(b"[" * 100_000 + b"]" * 100_000)


def test_brackets_inside_strings_are_no_nesting():
    assert parse_json(json.dumps({"name": "[" * 100}).encode()) == {"name": "[" * 100}


@pytest.mark.parametrize("raw", [f'{{"name": {LONE_SURROGATE}}}', f'{{{LONE_SURROGATE}: 1}}',
                                 f'[[1, {LONE_SURROGATE}]]'])
def test_a_lone_surrogate_anywhere_in_json_is_refused(raw):
    """Point 1: "a lone surrogate such as "\\ud800" in a player name" (UnicodeEncodeError)."""
    with pytest.raises(BadRequest, match="not valid Unicode"):
        parse_json(raw.encode())


@pytest.mark.parametrize("value", [2**63, 2**64, -(2**63), LARGEST + 1, 10**4000])
def test_integers_beyond_any_count_are_no_numbers(value):
    """Point 1: "integers in range" (a version above 2⁶³ was an OverflowError)."""
    assert parse_int(value) is None
    with pytest.raises(HandError):
        whole_number(value, "pot_range", 0, 10**30, error=HandError)


@pytest.mark.parametrize("name, kept", [
    ("Ａｎｎａ", "Anna"),            # full-width letters
    ("ﬁona", "fiona"),              # a ligature
    ("  Anna \u00a0 Lisa ", "Anna Lisa"),
])
def test_player_names_are_normalised(name, kept):
    """Point 1: "player names normalised (NFKC)"."""
    assert verify_players([name, "Ben"], 2, 8)[0] == kept


@pytest.mark.parametrize("name", [
    "An\u200bna",      # zero-width space
    "An\u00adna",      # soft hyphen
    "\u202eanna",      # right-to-left override
    "Anna\u2066",      # left-to-right isolate
    "An\u0007na",      # a control character
    "An\ud800na",      # a lone surrogate
])
def test_names_hiding_characters_are_refused(name):
    """Point 1: "control, invisible and bidirectional characters refused"."""
    with pytest.raises(SetupError) as refused:
        verify_players([name, "Ben"], 2, 8)
    assert refused.value.code == "player_name_hidden"


def test_a_look_alike_name_is_one_name_twice():
    """Issue #12: "invisible and bidirectional characters make look-alike player names"."""
    with pytest.raises(SetupError) as refused:
        verify_players(["Anna", "Ａｎｎａ"], 2, 8)
    assert refused.value.code == "player_name_twice"


def test_the_pot_stops_where_the_sheet_stops():
    """Point 1: "chips and pots within what the sheet can show"; D2: a wrong claim pays in
    as much as the pot holds, and the doubled pot stays."""
    options = bura.verify_options({}, 2)
    wrong = {"outcome": "wrong_claim", "player": 0}
    games = 0
    while bura.standings(options, 2, [wrong] * (games + 1)).pot <= LARGEST // 2:
        games += 1
    assert bura.standings(options, 2, [wrong] * (games + 1)).pot <= LARGEST
    with pytest.raises(HandError) as refused:
        bura.standings(options, 2, [wrong] * (games + 2))
    assert refused.value.code == "chips_beyond_sheet"
    assert refused.value.params == {"number": games + 2, "high": LARGEST}


# --- The eight cases, through the test client ---------------------------------------------

def test_deeply_nested_json_is_400_on_every_api_route(app, client):
    """Case 1: deeply nested JSON (RecursionError) "in every API endpoint"."""
    token = start(client, hands=0, players=THREE)["token"]
    before = stored(app)
    deep = "[" * 20_000 + "]" * 20_000
    for method, rule in api_writes(app):
        # A hand's, a turn's or a table's number: 1.
        path = re.sub(r"<int:\w+>", "1", rule.replace("<token>", token))
        response = client.open(path, method=method, data=deep,
                               content_type="application/json")
        assert response.status_code == 400, path
        assert response.json["error"], path
    assert stored(app) == before


def test_a_version_beyond_any_count_is_400(app, client):
    """Case 2: "a `version` above 2⁶³ (OverflowError)"."""
    token = start(client, hands=0, players=THREE)["token"]
    before = stored(app)
    hands = f"{MATCHES}/{token}/hands"
    assert client.post(hands, json={"burro": 0, "version": 2**64}).status_code == 400
    assert client.put(f"{hands}/1", json={"burro": 0, "version": 2**64}).status_code == 400
    assert client.delete(f"{hands}/last?version={2**64}").status_code == 400
    assert client.get(f"/m/{token}/since/{2**64}").status_code == 404
    assert stored(app) == before


def test_a_hand_number_beyond_any_count_is_refused_by_rule(client):
    token = start(client, hands=0, players=THREE)["token"]
    response = client.put(f"{MATCHES}/{token}/hands/{10**40}", json={"burro": 0})
    assert response.status_code == 400 and response.json["code"] == "no_such_hand"


def test_a_lone_surrogate_in_a_player_name_is_400(app, client):
    """Case 3: "a lone surrogate such as "\\ud800" in a player name (UnicodeEncodeError)"."""
    body = f'{{"game": "burro", "players": [{LONE_SURROGATE}, "Ben"]}}'
    response = client.post(MATCHES, data=body, content_type="application/json")
    assert response.status_code == 400 and "not valid Unicode" in response.json["error"]
    assert stored(app)["matches"] == []


def test_names_with_invisible_characters_are_refused_on_the_page_and_in_the_api(app, client,
                                                                                post):
    """Case 3 and point 1: the form and the API read names through one function."""
    names = ["An\u200bna", "Ben"]
    api = client.post(MATCHES, json={"game": "burro", "players": names})
    assert api.status_code == 400 and api.json["code"] == "player_name_hidden"
    page = post("/burro/new", {"players": names, "limit": "5"})
    assert page.status_code == 422
    assert "control or invisible character" in shown(page)
    assert stored(app)["matches"] == []


def test_correcting_a_burro_hand_that_does_not_exist_is_refused(app, client, post):
    """Case 4: "correcting a Burro hand that does not exist through the form (a template
    error)"."""
    match = start(client, hands=0, players=THREE)
    before = stored(app)
    response = post(f"/m/{match['token']}/hands/5", {"version": "0", "burro": "1"})
    assert response.status_code == 422
    assert "There is no hand 5." in shown(response)
    assert stored(app) == before


def test_a_stale_correction_of_a_hand_taken_back_meanwhile_comes_back_as_a_new_hand(client,
                                                                                    post):
    token = start(client, hands=0, players=THREE)["token"]
    client.post(f"{MATCHES}/{token}/hands", json={"burro": 0})
    client.delete(f"{MATCHES}/{token}/hands/last")
    response = post(f"/m/{token}/hands/1", {"version": "1", "burro": "2"})
    assert response.status_code == 409
    assert "Save mine as hand 1" in shown(response)


@pytest.mark.parametrize("game", ["bura", "burkosel", "burraco", "buraco"])
def test_a_preview_request_on_every_sheet_answers(client, post, game):
    """Case 5: "an htmx `only=preview` draft request on a Bura or Burkosel sheet
    (KeyError)"."""
    token = start(client, game, hands=0, players=("Anna", "Ben"))["token"]
    for number in ("", "1", "7", str(10**30)):
        response = post(f"/m/{token}/draft", {"only": "preview", "number": number},
                        headers=HTMX)
        assert response.status_code == 200, number


def test_a_bura_sheet_after_many_wrong_claims_refuses_the_game_past_the_bound(app, client,
                                                                             post):
    """Case 6: "a Bura sheet after 82 wrong claims in a row (the pot passes 28 digits and
    number formatting fails)"."""
    token = start(client, "bura", hands=0, players=("Anna", "Ben"))["token"]
    for _game in range(82):
        response = client.post(f"{MATCHES}/{token}/hands",
                               json={"outcome": "wrong_claim", "player": 0})
        if response.status_code != 201:
            break
    assert response.status_code == 400 and response.json["code"] == "chips_beyond_sheet"
    assert "more than the sheet can show" in response.json["error"]
    before = stored(app)
    page = post(f"/m/{token}/hands", {"version": str(len(before["entries"])),
                                      "outcome": "wrong_claim", "player": "0"})
    assert page.status_code == 422 and "more than the sheet can show" in shown(page)
    assert stored(app) == before
    assert client.get(f"/m/{token}").status_code == 200
    assert client.get(f"{MATCHES}/{token}").json["pot"] <= LARGEST


def test_an_imported_pot_past_the_bound_is_refused(app, client):
    token = start(client, "bura", hands=0, players=("Anna", "Ben"))["token"]
    document = client.get(f"{MATCHES}/{token}/export").json
    moment = document["created_at"]
    document["entries"] = [{"number": number, "status": "active", "created_at": moment,
                            "data": {"outcome": "wrong_claim", "player": 0}}
                           for number in range(1, 83)]
    response = client.post(f"{MATCHES}/import", json=document)
    assert response.status_code == 400 and "more than the sheet can show" in \
        response.json["error"]
    assert len(stored(app)["matches"]) == 1


def fill_with_entries(app, token: str, count: int) -> None:
    """``count`` entries taken back (hand 1 each), written straight into the database."""
    with app.app_context():
        db = store.get_db()
        match = store.get_match(db, token)
        with store.backend.writing(db):
            store.backend.insert_rows(db, "entries", (
                {"match_id": match.id, "number": 1, "status": store.UNDONE,
                 "data": json.dumps({"outcome": "no_claim"}), "created_at": match.created_at,
                 "ended_at": match.created_at} for _entry in range(count)))


def test_the_5001st_entry_of_a_match_is_refused_on_the_page_and_in_the_api(app, client,
                                                                           post):
    """Case 8 and point 1: "at most 5,000 entries per match"."""
    token = start(client, "bura", hands=0, players=("Anna", "Ben"))["token"]
    fill_with_entries(app, token, store.MAX_ENTRIES - 1)
    last = client.post(f"{MATCHES}/{token}/hands", json={"outcome": "no_claim"})
    assert last.status_code == 201
    before = stored(app)
    api = client.post(f"{MATCHES}/{token}/hands", json={"outcome": "no_claim"})
    assert api.status_code == 400 and api.json["code"] == "match_full"
    assert "5,000 entries" in api.json["error"]
    correction = client.put(f"{MATCHES}/{token}/hands/1", json={"outcome": "no_claim"})
    assert correction.status_code == 400
    page = post(f"/m/{token}/hands", {"version": "1", "outcome": "no_claim"})
    assert page.status_code == 422 and "5,000 entries" in shown(page)
    assert stored(app) == before


# --- Nothing doubled, nothing refused for nothing (point 4) --------------------------------

def test_four_writers_without_a_version_all_store_their_hands(app):
    """Point 4: "A write without `version` that only lost a race with another writer is
    retried inside the server, not answered 409" — four phones of one table at once."""
    players = ("Anna", "Ben", "Carla", "Dan")
    token = start(app.test_client(), "bura", hands=0, players=players)["token"]
    hands_each, together = 10, threading.Barrier(len(players))
    statuses = []

    def write(player: int) -> None:
        client = app.test_client()
        together.wait()
        for _hand in range(hands_each):
            response = client.post(f"{MATCHES}/{token}/hands",
                                   json={"outcome": "right_claim", "player": player})
            statuses.append(response.status_code)

    writers = [threading.Thread(target=write, args=(player,)) for player in range(len(players))]
    for writer in writers:
        writer.start()
    for writer in writers:
        writer.join()
    assert statuses == [201] * (len(players) * hands_each)
    hands = app.test_client().get(f"{MATCHES}/{token}").json["hands"]
    assert sorted(hand["player"] for hand in hands) == sorted(list(range(len(players))) * hands_each)


def test_a_match_sent_twice_with_one_key_is_created_once(app, client):
    """Point 4: "The API takes an `Idempotency-Key` header on every write: the same key and
    body store once and answer the same"."""
    body = {"game": "burro", "players": ["Anna", "Ben"]}
    key = {"Idempotency-Key": "start-1"}
    first = client.post(MATCHES, json=body, headers=key)
    again = client.post(MATCHES, json=body, headers=key)
    assert first.status_code == again.status_code == 201
    assert again.json == first.json
    other_body = client.post(MATCHES, json={**body, "players": ["Carla", "Dario"]},
                             headers=key)
    assert other_body.json["token"] != first.json["token"]
    assert len(stored(app)["matches"]) == 2


def test_an_import_sent_twice_with_one_key_is_imported_once(app, client):
    document = client.get(f"{MATCHES}/{start(client, hands=0, players=THREE)['token']}/export").json
    key = {"Idempotency-Key": "import-1"}
    first = client.post(f"{MATCHES}/import", json=document, headers=key)
    again = client.post(f"{MATCHES}/import", json=document, headers=key)
    assert first.status_code == again.status_code == 201
    assert again.json["token"] == first.json["token"]
    assert len(stored(app)["matches"]) == 2


# Two clients without a device cookie, known by their addresses; two devices by their cookies.
HOME, ELSEWHERE = {"REMOTE_ADDR": "192.0.2.7"}, {"REMOTE_ADDR": "198.51.100.9"}
PHONE, OTHER_PHONE = "p" * 43, "q" * 43


def creation(client, path: str) -> dict:
    """What starts a match at ``path``, sent with a key: the body and the headers."""
    body = {"game": "burro", "players": THREE}
    if path.endswith("/import"):
        body = client.get(f"{MATCHES}/{start(client, hands=1, players=THREE)['token']}/export").json
    return {"json": body, "headers": {"Idempotency-Key": "start-1"}}


@pytest.mark.parametrize("path", [MATCHES, f"{MATCHES}/import"])
def test_a_strangers_replay_of_a_start_learns_nothing_of_the_match(app, client, path):
    """A stranger who sends another client's key and body (overheard, guessed) starts a
    match of their own: no token, no link, nothing of the first match."""
    request = creation(client, path)
    first = client.post(path, **request, environ_base=HOME).json
    stranger = client.post(path, **request, environ_base=ELSEWHERE)
    assert stranger.status_code == 201
    assert stranger.json["id"] != first["id"]
    for secret in (first["token"], first["view_token"]):
        assert secret not in stranger.get_data(as_text=True)
    again = client.post(path, **request, environ_base=HOME).json
    assert again["token"] == first["token"]


def test_a_device_finds_its_match_again_from_another_network(client):
    """A browser's device cookie names its client wherever it is: a phone that went from
    the wifi to mobile data and sends again finds its match; another device does not, nor
    does a client without the cookie at the same address."""
    request = creation(client, MATCHES)
    client.set_cookie("device", PHONE)
    first = client.post(MATCHES, **request, environ_base=HOME).json
    assert client.post(MATCHES, **request, environ_base=ELSEWHERE).json["id"] == first["id"]
    client.set_cookie("device", OTHER_PHONE)
    assert client.post(MATCHES, **request, environ_base=HOME).json["id"] != first["id"]
    client.delete_cookie("device")
    assert client.post(MATCHES, **request, environ_base=HOME).json["id"] != first["id"]
