"""A tournament match of Burraco (RULES-NOTES B8) through the API: a fixed number of hands,
the pairs' match points, and their Victory Points by the table in use."""

import pytest
from helpers import GERMAN, HANDS, HTMX, MATCHES, new_sheet, parsed, shown, totals

PAIRS = ["Anna", "Ben", "Carla", "Dan"]
CLUB = {"name": "Circolo Roma", "hands": 2, "total": 20,
        "bands": [{"from": 0, "to": 100, "vp": [10, 10]},
                  {"from": 105, "to": None, "vp": [16, 4]}]}


def tournament(client, hands: int, **options) -> str:
    """A tournament match of ``hands`` hands, each the seed's 410 to 155; its token."""
    started = client.post(MATCHES, json={"game": "burraco", "players": PAIRS,
                                         "options": {"hands": hands, **options}})
    assert started.status_code == 201, started.json
    return started.json["token"]


def test_before_the_last_hand_there_are_no_victory_points_yet(client):
    token = tournament(client, 3)
    client.post(f"{MATCHES}/{token}/hands", json=HANDS["burraco"])
    shown = client.get(f"{MATCHES}/{token}").json
    assert (shown["finished"], shown["victory_points"], shown["to_go"]) == (False, None, None)
    assert shown["victory_points_table"] == "FIBUR" and shown["options"]["hands"] == 3


def test_three_hands_end_the_match_with_the_fibur_victory_points(client):
    """B8: 3 × (410 − 155) = 765 match points apart, the band 655–800: 16–4."""
    token = tournament(client, 3)
    for _ in range(3):
        answer = client.post(f"{MATCHES}/{token}/hands", json=HANDS["burraco"]).json
    assert answer["finished"] is True and answer["totals"] == [1230, 465]
    assert answer["victory_points"] == [16, 4] and answer["victory_points_table"] == "FIBUR"
    assert answer["winners"] == [0] and answer["losers"] == [1]


def test_a_clubs_table_is_applied_and_a_hand_after_the_last_refused(client):
    token = tournament(client, 2, victory_points=CLUB)
    for _ in range(2):
        assert client.post(f"{MATCHES}/{token}/hands", json=HANDS["burraco"]).status_code == 201
    refused = client.post(f"{MATCHES}/{token}/hands", json=HANDS["burraco"])
    assert refused.status_code == 400 and refused.json["code"] == "match_finished"
    shown = client.get(f"{MATCHES}/{token}").json
    assert shown["victory_points"] == [16, 4] and shown["victory_points_table"] == "Circolo Roma"
    assert shown["options"]["victory_points"]["bands"] == CLUB["bands"]


def test_the_table_travels_with_the_exported_match(client):
    token = tournament(client, 2, victory_points=CLUB)
    exported = client.get(f"{MATCHES}/{token}/export").json
    imported = client.post(f"{MATCHES}/import", json=exported)
    assert imported.status_code == 201
    assert imported.json["victory_points_table"] == "Circolo Roma"


@pytest.mark.parametrize("players, options, code", [
    (PAIRS, {"hands": 2}, "vp_table_needed"),
    (PAIRS, {"hands": 2, "victory_points": "FIBUR"}, "vp_table_needed"),
    (PAIRS[:3], {"hands": 3}, "tournament_pairs"),
    (PAIRS, {"hands": 6}, "tournament_hands"),
    (PAIRS, {"hands": 3, "victory_points": CLUB}, "vp_table_other_hands"),
])
def test_a_tournament_match_that_cannot_be_is_refused_with_its_reason(client, players,
                                                                      options, code):
    refused = client.post(MATCHES, json={"game": "burraco", "players": players,
                                         "options": options}, headers=GERMAN)
    assert refused.status_code == 400 and refused.json["code"] == code
    assert refused.json["error"] and "%(" not in refused.json["error"]


def test_a_match_to_a_target_has_no_victory_points(client):
    started = client.post(MATCHES, json={"game": "burraco", "players": PAIRS}).json
    assert "victory_points" not in started and "hands" not in started["options"]


# --- The new-match form and the sheet --------------------------------------------------------

def tournament_choices(page):
    return page.select_one('.target-choice [data-players="4"]')


def test_the_form_offers_a_tournament_beside_the_targets_for_four_players(client):
    page = parsed(client.get("/burraco/new"))
    choices = tournament_choices(page)
    assert not choices.has_attr("hidden")
    assert [field["value"] for field in choices.select("input[name=target_choice]")] == [
        "hands-3", "hands-4"]
    assert shown(choices) == "Tournament: 3 games 4 games"


def test_the_form_offers_no_tournament_to_three_players(post):
    page = parsed(post("/burraco/new", {"players": ["Anna", "Ben", "Carla"], "action": "up-1"},
                       headers=HTMX))
    choices = tournament_choices(page)
    assert choices.has_attr("hidden")
    assert all(field.has_attr("disabled") for field in choices.select("input"))


def enter_hands(post, sheet: str, count: int):
    for seen in range(count):
        response = post(f"{sheet}/hands", {"s0_mode": "total", "s0_total": "410",
                                           "s1_mode": "total", "s1_total": "155",
                                           "version": str(seen)})
        assert response.status_code == 303, shown(parsed(response))


def test_the_sheet_counts_the_hands_and_ends_with_the_victory_points(post, client):
    sheet = new_sheet(post, "burraco", target_choice="hands-3")
    page = parsed(client.get(sheet))
    assert shown(page.select_one(".scoreboard .next-text")) == (
        "Game 1 of 3: Anna deals, Ben leads.")
    assert not page.select(".scoreboard .to-go") and not page.select(".tournament-end")
    assert "Tournament: FIBUR table, 3 games" in shown(page.select_one(".unit"))
    enter_hands(post, sheet, 2)
    assert shown(parsed(client.get(sheet)).select_one(".scoreboard .next-text")).startswith(
        "Game 3 of 3:")
    last = post(f"{sheet}/hands", {"s0_mode": "total", "s0_total": "410",
                                                "s1_mode": "total", "s1_total": "155",
                                                "version": "2"})
    assert last.status_code == 303
    page = parsed(client.get(sheet))
    end = page.select_one(".tournament-end")
    rows = [[shown(cell) for cell in row.select("th, td")] for row in end.select("tbody tr")]
    assert rows == [["Anna & Carla", "1230", "16"], ["Ben & Dan", "465", "4"]]
    assert shown(end.select_one(".difference")) == "Difference: 765 match points"
    assert shown(end.select_one(".vp-table")) == "Victory Points by: FIBUR table, 3 games"
    assert totals(page) == ["1230", "465"] and not page.select("#panel")


def test_the_end_box_in_german_names_the_clubs_table(post, client):
    token = tournament(client, 2, victory_points=CLUB)
    for _ in range(2):
        client.post(f"{MATCHES}/{token}/hands", json=HANDS["burraco"])
    end = parsed(client.get(f"/m/{token}", headers=GERMAN)).select_one(".tournament-end")
    assert [shown(cell) for cell in end.select("thead th")] == [
        "Paar", "Matchpunkte", "Siegpunkte"]
    assert [shown(row.select_one(".vp")) for row in end.select("tbody tr")] == ["16", "4"]
    assert shown(end.select_one(".vp-table")) == "Siegpunkte nach: Circolo Roma"


def test_the_sheets_fragment_after_the_last_hand_holds_the_end_box(post, client):
    sheet = new_sheet(post, "burraco", target_choice="hands-3")
    enter_hands(post, sheet, 2)
    fragment = parsed(post(f"{sheet}/hands", {"s0_mode": "total", "s0_total": "410",
                                              "s1_mode": "total", "s1_total": "155",
                                              "version": "2"}, headers=HTMX))
    assert [shown(cell) for cell in fragment.select(".tournament-end .vp")] == ["16", "4"]
