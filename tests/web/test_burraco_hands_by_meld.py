"""A Burraco hand entered by meld through the API: scored as the seed counts, kept as
entered, and an illegal meld refused with the checker's reason, in the reader's language."""

from helpers import GERMAN, MATCHES, form_value, totals

NORTH_SOUTH = {"melds": [["3H", "4H", "5H", "6H", "7H", "8H", "9H"], "AS AH AD JK"],
               "in_hand": ["7C", "3S"], "pozzetto": "taken", "closed": True}
EAST_WEST = {"melds": [["QS", "QH", "QD", "QC", "QS", "QH", "2D"], ["4C", "5C", "6C"]],
             "in_hand": "KS JK", "pozzetto": "taken"}


def burraco_match(client) -> str:
    return client.post(MATCHES, json={"game": "burraco", "players": ["Anna", "Ben", "Carla",
                                                                     "Dan"]}).json["token"]


def test_a_hand_by_meld_is_scored_and_its_melds_come_back(client):
    token = burraco_match(client)
    saved = client.post(f"{MATCHES}/{token}/hands", json={"sides": [NORTH_SOUTH, EAST_WEST]})
    assert saved.status_code == 201, saved.json
    assert saved.json["totals"] == [410, 155]
    exported = client.get(f"{MATCHES}/{token}/export").json
    assert exported["entries"][0]["data"]["sides"][0]["melds"][1] == ["AS", "AH", "AD", "JK"]


def test_an_illegal_meld_is_refused_with_its_place_and_the_checkers_reason(client):
    token = burraco_match(client)
    broken = {**EAST_WEST, "melds": [["4C", "5C", "6C"], ["QS", "QS", "QS"]]}
    english = client.post(f"{MATCHES}/{token}/hands", json={"sides": [NORTH_SOUTH, broken]})
    german = client.post(f"{MATCHES}/{token}/hands", json={"sides": [NORTH_SOUTH, broken]},
                         headers=GERMAN)
    assert english.status_code == german.status_code == 400
    assert english.json["error"] == ("Side 2, meld 2: There are only 2 of Q♠ in the two "
                                     "packs.")
    assert german.json["error"].replace("\xa0", " ").startswith("Partei 2, Kombination 2: ")
    assert client.get(f"{MATCHES}/{token}").json["hands"] == []


def test_a_hand_by_meld_shows_on_the_sheet_and_its_correction_form(client):
    token = burraco_match(client)
    client.post(f"{MATCHES}/{token}/hands", json={"sides": [NORTH_SOUTH, EAST_WEST]})
    sheet = client.get(f"/m/{token}")
    assert sheet.status_code == 200
    assert totals(sheet) == ["410", "155"]
    correction = client.get(f"/m/{token}/hands/1")
    assert correction.status_code == 200
    assert form_value(correction, "s0_table") == "120"
    assert form_value(correction, "s1_hand") == "40"
