"""A Buraco hand entered by meld, through the API and on the sheet's panel: scored as seed
004 counts, kept as entered and shown again for its correction, and an illegal meld refused
with the checker's reason, in the reader's language."""

import pytest
from helpers import GERMAN, MATCHES, form_value, new_sheet, parsed, shown, totals

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


# --- The panel ---------------------------------------------------------------------------

TYPED = {
    "s0_mode": "melds", "s0_melds": "KS KS KH KH KD KD KC / QS QH JK", "s0_in_hand": "",
    "s0_red": "1", "s0_dead_pile": "taken",
    "s1_mode": "melds", "s1_melds": "5S 5H 5D 5C 5S 2D JK / AS AH AD",
    "s1_in_hand": "KC 9S 3C", "s1_dead_pile": "taken", "closer": "0",
}


def test_a_hand_typed_by_meld_without_scripts_is_saved_with_its_red_threes(post, client):
    """Red threes are laid out beside the melds (seed 004): their stepper still counts."""
    sheet = new_sheet(post, "buraco")
    response = post(f"{sheet}/hands", {**TYPED, "version": "0"})
    assert response.status_code == 303
    assert totals(client.get(response.headers["Location"])) == ["520", "215"]


def test_a_hand_by_meld_is_corrected_with_its_melds_shown_again(client):
    token = buraco_match(client)
    client.post(f"{MATCHES}/{token}/hands", json={"sides": [OUT, HELD]})
    correction = parsed(client.get(f"/m/{token}/hands/1"))
    assert form_value(correction, "s0_mode") == "melds"
    assert form_value(correction, "s0_melds") == "K♠ K♠ K♥ K♥ K♦ K♦ K♣ / Q♠ Q♥ Joker"
    assert form_value(correction, "s0_red") == "1"
    assert form_value(correction, "s1_in_hand") == "K♣ 9♠ 3♣"


@pytest.mark.parametrize("options, chips, sets", [
    ({}, ["Clean set (7)", "Dirty set (7)"], "A 4 5 6 7 8 9 10 J Q K"),
    ({"variant": "brazilian"}, ["Clean run (7)", "Dirty run (7)", "Clean set (7)",
                                "Dirty set (7)"], "A 3 4 5 6 7 8 9 10 J Q K"),
    ({"variant": "aberto", "canastras_reais": "on"},
     ["Clean run (7)", "Dirty run (7)", "Canastra real, A–K", "Canastra, A–A"], ""),
])
def test_the_ready_buracos_and_the_sets_follow_the_tables_game(post, client, options, chips,
                                                                 sets):
    """RULES-NOTES C2 (the seed's game: sets only, no threes), C3 and C5."""
    page = parsed(client.get(new_sheet(post, "buraco", **options)))
    side = page.select(".side")[0]
    assert [shown(chip) for chip in side.select(".ready-melds button[value^='meld:']")] == chips
    assert " ".join(shown(button) for button in side.select(".set-row button")) == sets
    modes = [shown(button) for button in side.select(".modes button")]
    assert modes == ["Count the parts", "By meld", "Total only"]


def test_an_illegal_meld_on_the_panel_is_refused_with_the_checkers_reason(post, client):
    sheet = new_sheet(post, "buraco")
    broken = {**TYPED, "s1_melds": "AS AH AD / 4H 5H 6H", "version": "0"}
    response = post(f"{sheet}/hands", broken, headers=GERMAN)
    assert response.status_code == 422
    refusal = shown(parsed(response).select_one("#sheet > .error")).replace("\xa0", " ")
    assert refusal.startswith("Ben & Dan, Kombination 2: ")
    assert form_value(parsed(response), "s1_melds") == "AS AH AD / 4H 5H 6H"
