"""A Buraco hand entered by meld through the API: scored as seed 004 counts, kept as
entered, and an illegal meld refused with the checker's reason, in the reader's language."""

from helpers import GERMAN, MATCHES

# Seed 004: seven kings clean (70 + 200) and Q♠ Q♥ Joker (50), a red three, out (+100);
# against five 5s, a 2 and a joker (75 + 100) and three aces (60), K♣ 9♠ 3♣ in hand (20).
OUT = {"melds": [["KS", "KS", "KH", "KH", "KD", "KD", "KC"], "QS QH JK"], "in_hand": [],
       "red_threes": 1, "dead_pile": "taken", "went_out": True}
HELD = {"melds": [["5S", "5H", "5D", "5C", "5S", "2D", "JK"], ["AS", "AH", "AD"]],
        "in_hand": "KC 9S 3C", "dead_pile": "taken"}


def buraco_match(client) -> str:
    return client.post(MATCHES, json={"game": "buraco", "players": ["Anna", "Ben", "Carla",
                                                                    "Dan"]}).json["token"]


def test_the_hand_checker_scores_a_hand_by_meld(client):
    answer = client.post("/api/v1/buraco/hand", json={"sides": [OUT, HELD]})
    assert answer.status_code == 200, answer.json
    assert answer.json["scores"] == [520, 215]


def test_a_hand_by_meld_is_saved_and_its_melds_come_back(client):
    token = buraco_match(client)
    saved = client.post(f"{MATCHES}/{token}/hands", json={"sides": [OUT, HELD]})
    assert saved.status_code == 201, saved.json
    assert saved.json["totals"] == [520, 215]
    exported = client.get(f"{MATCHES}/{token}/export").json
    assert exported["entries"][0]["data"]["sides"][0]["melds"][1] == ["QS", "QH", "JK"]


def test_an_illegal_meld_is_refused_with_its_place_and_the_checkers_reason(client):
    """Seed 004: black threes "darfst du nicht in normalen Sätzen auslegen"."""
    token = buraco_match(client)
    broken = {**HELD, "melds": [["AS", "AH", "AD"], ["3S", "3C", "3S"]]}
    english = client.post(f"{MATCHES}/{token}/hands", json={"sides": [OUT, broken]})
    german = client.post(f"{MATCHES}/{token}/hands", json={"sides": [OUT, broken]},
                         headers=GERMAN)
    assert english.status_code == german.status_code == 400
    assert english.json["code"] == "side_meld_illegal"
    assert english.json["error"].startswith("Side 2, meld 2: ")
    assert german.json["error"].replace("\xa0", " ").startswith("Partei 2, Kombination 2: ")
    assert client.get(f"{MATCHES}/{token}").json["hands"] == []


def test_melds_and_points_together_are_refused_with_their_code(client):
    answer = client.post("/api/v1/buraco/hand",
                         json={"sides": [OUT, {**HELD, "table_points": 135}]})
    assert answer.status_code == 400
    assert answer.json["code"] == "melds_or_parts"

