"""Buraco on the web: the meld checker and the two API endpoints (seed 004; RULES-NOTES C1–C3)."""

import pytest
from helpers import GERMAN, HTMX, form_value, parsed, root, shown
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from scoring.cards import rummy_deck

MELD, HAND = "/api/v1/buraco/meld", "/api/v1/buraco/hand"


# --- The meld checker ------------------------------------------------------------------------

def test_the_checker_is_listed_with_the_others(client):
    assert parsed(client.get("/check")).select('a[href="/buraco/meld"]')


def test_a_set_with_its_points_and_the_joker_it_holds(client):
    """Seed 004: "In jedem Satz dürfen Joker oder Zweien als Platzhalter … mitspielen";
    a joker counts 30, picture cards 10."""
    page = parsed(client.get("/buraco/meld?cards=QS+QH+QD+JK"))
    assert "A legal set" in shown(page) and "· 60 points" in shown(page)
    assert "The wildcard Joker stands for Q." in shown(page)
    assert page.select('a.why[href="/rules/buraco#turn"]')


def test_seven_cards_make_a_clean_or_a_dirty_buraco(client):
    """Seed 004: "Ein Buraco ganz ohne Platzhalter heißt rein … der unrein heißt"."""
    clean = shown(client.get("/buraco/meld?cards=KS+KH+KD+KC+KS+KH+KD"))
    assert "Clean buraco: +200" in clean and "· 70 points" in clean
    dirty = shown(client.get("/buraco/meld?cards=9S+9H+9D+9C+9S+9H+JK"))
    assert "Dirty buraco: +100" in dirty


@pytest.mark.parametrize("query, expected, section", [
    # Seed 004: "höchstens zwei Platzhalter pro Satz, und nie mehr Platzhalter als echte Karten".
    ("cards=9S+2H+JK", "never more wildcards than natural cards", "turn"),
    ("cards=9S+9H+9D+2H+2S+JK", "At most two wildcards", "turn"),
    # Seed 004: "Ein Satz besteht aus mindestens drei Karten mit dem gleichen Wert".
    ("cards=5S+6S+7S", "only sets", "turn"),
    # Seed 004: "Schwarze Dreien … darfst du nicht in normalen Sätzen auslegen".
    ("cards=3S+3C+JK", "Black threes", "special-rules"),
    ("cards=3H+3D+3S", "Red threes", "special-rules"),
    # RULES-NOTES C3: Aberto plays "sequences only".
    ("variant=aberto&cards=QS+QH+QD", "only sequences", "variant-aberto"),
])
def test_a_refused_meld_says_why_and_links_to_the_rule(client, query, expected, section):
    page = parsed(client.get(f"/buraco/meld?{query}"))
    assert expected in shown(page) and page.select(f'a[href="/rules/buraco#{section}"]')


def test_the_brazilian_variant_allows_sequences_at_its_own_values(client):
    """RULES-NOTES C3: "sequences as in Burraco (one wildcard)"; joker 20, 7–3 5."""
    page = parsed(client.get("/buraco/meld?variant=brazilian&cards=5H+6H+JK"))
    assert "A legal sequence" in shown(page) and "· 30 points" in shown(page)
    assert form_value(page, "variant") == "brazilian"
    assert page.select('a.why[href="/rules/buraco#variant-brazilian"]')


@pytest.mark.parametrize("query, expected", [
    ("mode=add&table=QH+QD+QC&cards=QS", "A legal set"),
    ("mode=add&table=QH+QD+QC&cards=KS", "only sets"),
    ("mode=add&table=QH+QD+QC", "Tap the cards, or type them."),
])
def test_cards_added_to_a_meld_on_the_table(client, query, expected):
    assert expected in shown(client.get(f"/buraco/meld?{query}"))


def test_the_fragment_and_a_picker_tap(client):
    response = client.get("/buraco/meld?cards=QS+QH&add=QD&variant=aberto", headers=HTMX)
    assert response.headers["HX-Push-Url"] == \
        "/buraco/meld?mode=check&into=cards&variant=aberto&cards=QS+QH+QD"
    assert root(response).name == "form" and root(response)["id"] == "checker"
    assert client.get("/buraco/meld?cards=QS+QH&add=QD").status_code == 303
    fragment = parsed(client.get("/buraco/meld?cards=QS+QH+QD", headers=HTMX))
    assert "A legal set" in shown(fragment) and fragment.html is None


def test_an_unknown_variant_is_the_seed_game(client):
    page = parsed(client.get("/buraco/meld?variant=nope&cards=5S+6S+7S"))
    assert form_value(page, "variant") == "seed" and "only sets" in shown(page)


@pytest.mark.parametrize("headers", [{}, HTMX])
def test_the_checker_in_german(client, headers):
    client.set_cookie("lang", "de")
    page = shown(client.get("/buraco/meld?cards=DS+DH+DD+JK", headers=headers))
    assert "Ein erlaubter Satz" in page and "D♠" in page
    refused = shown(client.get("/buraco/meld?cards=3S+3C+JK", headers=headers))
    assert "Schwarze Dreien" in refused


# --- API: a meld -----------------------------------------------------------------------------

def test_api_meld_readme_example(client):
    body = client.post(MELD, json={"cards": ["QS", "QH", "QD", "JK"],
                                   "options": {"variant": "seed"}}).json
    assert body == {"valid": True, "kind": "set", "buraco": None, "points": 60,
                    "reason": None, "bonus": 0, "order": ["QS", "QH", "QD", "JK"],
                    "wildcards": ["JK"], "stands_for": "Q", "readings": []}


@pytest.mark.parametrize("body, expected", [
    ({"cards": "KS KH KD KC KS KH KD"}, {"valid": True, "buraco": "clean", "points": 70}),
    ({"cards": "9S 9H 9D 9C 9S 9H JK"}, {"valid": True, "buraco": "dirty", "bonus": 100}),
    ({"cards": "5S 6S 7S"}, {"valid": False, "kind": None, "code": "meld_sets_only"}),
    ({"cards": "3H 3D 3S"}, {"valid": False, "code": "meld_red_three"}),
    ({"cards": "9S 2H JK"}, {"valid": False, "code": "meld_wildcards_outnumber"}),
    ({"cards": "5H 6H JK", "options": {"variant": "brazilian"}},
     {"valid": True, "kind": "sequence", "points": 30, "stands_for": "4H"}),
    ({"cards": "QS QH QD", "options": {"variant": "aberto"}},
     {"valid": False, "code": "meld_sequences_only"}),
    ({"cards": ["QS"], "onto": ["QH", "QD", "QC"]}, {"valid": True, "points": 40}),
    ({"cards": [], "onto": "QH QD QC"}, {"valid": False, "code": "nothing_to_add"}),
])
def test_api_meld_cases(client, body, expected):
    answer = client.post(MELD, json=body).json
    assert {key: answer[key] for key in expected} == expected


@pytest.mark.parametrize("body", [
    {"cards": "ZZ"}, {"cards": 5}, {}, {"cards": "7H 7H 7H"},
    {"cards": ["QS"], "onto": 7}, {"cards": "QS QH QD", "options": {"variant": "canasta"}},
])
def test_api_meld_malformed_is_400(client, body):
    response = client.post(MELD, json=body)
    assert response.status_code == 400 and response.json["error"]


def test_api_meld_unknown_variant_names_its_code(client):
    response = client.post(MELD, json={"cards": "QS QH QD", "options": {"variant": "canasta"}})
    assert response.json["code"] == "unknown_variant"


def test_api_meld_refusal_in_german(client):
    response = client.post(MELD, json={"cards": "3S 3C JK"}, headers=GERMAN)
    assert response.json["reason"].startswith("Schwarze Dreien")


CODES = [card.code for card in dict.fromkeys(rummy_deck())]


@settings(max_examples=150, deadline=None,
          suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(cards=st.lists(st.sampled_from(CODES) | st.text(max_size=4), max_size=14),
       onto=st.none() | st.lists(st.sampled_from(CODES), max_size=8),
       variant=st.sampled_from(["seed", "brazilian", "aberto"]))
def test_api_meld_never_fails_whatever_the_cards(client, cards, onto, variant):
    body = {"cards": cards, "options": {"variant": variant}}
    if onto is not None:
        body["onto"] = onto
    assert client.post(MELD, json=body).status_code in (200, 400)


# --- API: a hand -----------------------------------------------------------------------------

# Two sides after a hand of the seed's game: the first went out with a clean buraco and a red
# three; the second melded a dirty buraco and kept 25 points in hand (RULES-NOTES C1).
README_HAND = {"options": {"variant": "seed"}, "sides": [
    {"table_points": 150, "clean_buracos": 1, "dirty_buracos": 0, "red_threes": 1,
     "hand_points": 0, "dead_pile": "taken", "went_out": True},
    {"table_points": 95, "clean_buracos": 0, "dirty_buracos": 1, "red_threes": 0,
     "hand_points": 25, "dead_pile": "taken", "went_out": False}]}


def test_api_hand_readme_example(client):
    """150 + 200 + 100 (red three) + 100 (going out) = 550; 95 + 100 − 25 = 170."""
    assert client.post(HAND, json=README_HAND).json == {"scores": [550, 170]}


def test_api_hand_options_switch_bonuses_off(client):
    options = {"going_out_bonus": False, "red_threes": False, "dead_pile_penalty": False}
    sides = [{**README_HAND["sides"][0], "red_threes": 0},
             {"table_points": 0, "hand_points": 40, "dead_pile": "not_taken"}]
    answer = client.post(HAND, json={"options": options, "sides": sides}).json
    assert answer == {"scores": [350, -40]}


def test_api_hand_three_players_and_a_total(client):
    sides = [README_HAND["sides"][0], {"total": -35},
             {"table_points": 0, "hand_points": 40, "dead_pile": "not_taken"}]
    answer = client.post(HAND, json={"options": {"players": 3}, "sides": sides}).json
    assert answer == {"scores": [550, -35, -140]}


@pytest.mark.parametrize("options, sides, code", [
    ({}, [README_HAND["sides"][0]], "hand_needs_two_sides"),
    ({"players": 3}, README_HAND["sides"], "hand_needs_three_players"),
    ({"players": 5}, README_HAND["sides"], "player_count"),
    ({"variant": "canasta"}, README_HAND["sides"], "unknown_variant"),
    ({"minimum_first_meld": -5}, README_HAND["sides"], "minimum_first_meld_range"),
    ({"clean_to_go_out": True},
     [{**README_HAND["sides"][0], "clean_buracos": 0, "dirty_buracos": 1},
      README_HAND["sides"][1]], "going_out_needs_clean_buraco"),
    ({}, [{**README_HAND["sides"][0], "clean_buracos": 0}, README_HAND["sides"][1]],
     "going_out_needs_buraco"),
    ({}, [README_HAND["sides"][0], {**README_HAND["sides"][1], "went_out": True}],
     "two_went_out"),
    ({}, [{**README_HAND["sides"][0], "red_threes": 3}, {**README_HAND["sides"][1],
                                                         "red_threes": 2}],
     "red_threes_together"),
    ({}, [README_HAND["sides"][0], {**README_HAND["sides"][1], "dead_pile": None}],
     "dead_pile_missing"),
    ({}, [README_HAND["sides"][0], {**README_HAND["sides"][1], "dead_pile": "lost"}],
     "unknown_dead_pile"),
    ({}, [README_HAND["sides"][0], {**README_HAND["sides"][1], "dead_pile": "not_taken"}],
     "dead_pile_at_first_meld"),
    ({}, [README_HAND["sides"][0], {"table_points": 900, "hand_points": 200,
                                    "dead_pile": "taken"}], "side_points_exceed_cards"),
    ({}, [{**README_HAND["sides"][0], "table_points": 600},
          {**README_HAND["sides"][1], "table_points": 600}], "table_points_together"),
    # C4: no three is melded, so the table holds at most 1,000.
    ({}, [{**README_HAND["sides"][0], "table_points": 600},
          {**README_HAND["sides"][1], "table_points": 405}], "table_points_together"),
    # C4: playing alone, who went out holds no cards.
    ({"players": 2}, [{**README_HAND["sides"][0], "hand_points": 15}, README_HAND["sides"][1]],
     "out_holds_no_cards"),
    # C4: a side that melded shows at least the minimum first meld.
    ({"minimum_first_meld": 120}, README_HAND["sides"], "first_meld_minimum"),
    ({"variant": "stbl"}, [{**README_HAND["sides"][0], "red_threes": 0,
                            "clean_buracos": 0, "real_buracos": 1, "table_points": 150},
                           {**README_HAND["sides"][1], "red_threes": 0}],
     "canastras_reais_off"),
    ({}, [{**README_HAND["sides"][0], "clean_buracos": 99}, README_HAND["sides"][1]],
     "buracos_range"),
])
def test_api_hand_refusals_name_the_rule(client, options, sides, code):
    response = client.post(HAND, json={"options": options, "sides": sides})
    assert response.status_code == 400
    assert response.json["code"] == code and response.json["error"]


@pytest.mark.parametrize("body", [[], {"options": 3, "sides": []},
                                  {"options": {"players": "three"}, "sides": []}])
def test_api_hand_malformed_is_400(client, body):
    response = client.post(HAND, json=body)
    assert response.status_code == 400 and response.json["error"]


@pytest.mark.parametrize("language, expected", [
    ("en", "all the cards count only 1,020"), ("de", "alle Karten zählen nur 1.020")])
def test_api_hand_deck_total_is_the_variants_own(client, language, expected):
    """Buraco's 108 cards count 1,020 at the seed's values, not Burraco's 1,080."""
    sides = [README_HAND["sides"][0], {"table_points": 900, "hand_points": 200,
                                       "dead_pile": "taken"}]
    response = client.post(HAND, json={"sides": sides}, headers={"Accept-Language": language})
    error = response.json["error"].replace("\u00a0", " ")
    assert expected in error and "pozzetto" not in error.lower()


@pytest.mark.parametrize("language, expected", [
    ("en", "the number of buracos must be from 0 to 15"),
    ("de", "Buracos")])
def test_a_buraco_count_out_of_range_is_refused_with_its_message(client, language, expected):
    """A count no two packs hold (15 buracos of seven at most) is a slip of the thumb: a
    400 with the reason, never a 500."""
    sides = [{**README_HAND["sides"][0], "dirty_buracos": 16}, README_HAND["sides"][1]]
    response = client.post(HAND, json={"sides": sides}, headers={"Accept-Language": language})
    assert response.status_code == 400 and response.json["code"] == "buracos_range"
    assert expected in response.json["error"]


def test_api_hand_stbl_with_canastras_reais(client):
    """C5: STBL at the Brazilian values, a clean run A–K 500 in place of the clean bonus."""
    sides = [{"table_points": 110, "real_buracos": 1, "hand_points": 0, "dead_pile": "taken",
              "went_out": True},
             {"table_points": 95, "dirty_buracos": 1, "hand_points": 25, "dead_pile": "taken"}]
    response = client.post(HAND, json={"options": {"variant": "stbl", "canastras_reais": True},
                                       "sides": sides})
    assert response.status_code == 200, response.json
    assert response.json["scores"] == [110 + 500 + 100, 95 + 100 - 25]
