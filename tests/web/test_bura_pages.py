"""Bura and Burkosel on the web: the forms, the sheets and their panels, the checkers, the API."""

import pytest
from helpers import (
    HTMX,
    MATCHES,
    THREE,
    count_rows,
    new_sheet,
    parsed,
    root,
    shown,
    standings,
    text,
    totals,
)

SEED_30 = "KC 9C AC 6H 10S JD QH 7D"          # seed 003: Ben's three tricks, 30 card points


# --- New match -------------------------------------------------------------------------------

def test_the_bura_form_offers_ante_start_chips_variants_and_burkosel(client):
    page = parsed(client.get("/bura/new"))
    for field in ("ante", "start_chips", "three_aces_win", "moscow", "little_moscow",
                  "claim_on_turn", "redeal"):
        assert page.select(f"[name={field}]"), field
    assert page.select('a[href="/burkosel/new"]')


@pytest.mark.parametrize("form, message", [
    ({"players": ["A"]}, "A match needs 2 to 6 players"),
    ({"players": list("ABCDEFG")}, "A match needs 2 to 6 players"),
    ({"ante": "0"}, "The ante must be a whole number of chips"),
    ({"ante": "1000000000"}, "The ante must be a whole number of chips"),
    ({"start_chips": "-5"}, "The starting chips must be a whole number"),
])
def test_bad_bura_setups_are_refused(post, app, form, message):
    response = post("/bura/new", {"players": ["A", "B"], "action": "start", **form})
    assert response.status_code == 422 and message in shown(response)
    assert count_rows(app, "matches") == 0


# --- The pot ledger --------------------------------------------------------------------------

def test_three_games_right_wrong_and_nobody(post, client):
    """Seed 003: "31+ richtig angesagt Pot; alle setzen neu", "Falsch angesagt (bis 30)
    Pot verdoppeln, er bleibt"; "Sind alle Karten gespielt und niemand hat angesagt,
    gewinnt keiner … jeder legt noch einen Einsatz in den Pot"."""
    sheet = new_sheet(post, "bura", THREE)
    post(f"{sheet}/hands", {"outcome": "right_claim", "player": "1", "version": "0"})
    post(f"{sheet}/hands", {"outcome": "wrong_claim", "player": "2", "version": "1"})
    post(f"{sheet}/hands", {"choose": "no_claim", "version": "2"})
    page = parsed(client.get(sheet))
    assert totals(page) == ["−3", "0", "−6"]
    pot = page.select_one(".pot")
    assert (pot.span.get_text(), pot.strong.get_text()) == ("Pot", "9")
    assert "Carla owes 6" in shown(page) and "Anna owes 3" in shown(page)
    assert "Game 4: Carla deals, Anna leads." in shown(page)


def test_the_panel_asks_for_the_player_after_the_outcome(post):
    sheet = new_sheet(post, "bura", THREE)
    fragment = parsed(post(f"{sheet}/draft", {"choose": "bura", "version": "0"}, headers=HTMX))
    assert root(fragment).name == "form" and root(fragment)["id"] == "panel"
    assert "Who showed the Bura?" in shown(fragment)
    assert fragment.select('[name=player][value="2"]')


def test_the_inline_claim_checker_counts_the_tapped_cards(post):
    sheet = new_sheet(post, "bura", THREE)
    form = {"outcome": "claim", "cards": SEED_30, "version": "0"}
    fragment = shown(post(f"{sheet}/draft", form, headers=HTMX))
    assert "30 card points" in fragment and "wrong" in fragment
    fragment = shown(post(f"{sheet}/draft", {**form, "add": "KS"}, headers=HTMX))
    assert "34 card points" in fragment and "right" in fragment


def test_a_claim_with_its_cards_is_booked_as_the_cards_decide(post, client):
    sheet = new_sheet(post, "bura", ("Anna", "Ben"))
    post(f"{sheet}/hands", {"outcome": "claim", "player": "1", "cards": SEED_30,
                            "version": "0"})
    page = parsed(client.get(sheet))
    assert "Wrong claim: Ben (30 card points)" in shown(page)
    assert totals(page) == ["−1", "−3"]


@pytest.mark.parametrize("form, message", [
    ({"outcome": "right_claim"}, "Pick one of the match"),
    ({"outcome": "teleport", "player": "0"}, "Choose how the game ended."),
    ({"outcome": "claim", "player": "0", "cards": "2S 3S"}, "not in Bura's 36 cards"),
    ({"outcome": "claim", "player": "0", "cards": "AS AS"}, "played twice"),
    ({"outcome": "claim", "player": "0", "cards": "ZZ"}, "the claimant's tricks"),
])
def test_impossible_games_are_refused(post, app, form, message):
    sheet = new_sheet(post, "bura", THREE)
    response = post(f"{sheet}/hands", {**form, "version": "0"})
    assert response.status_code == 422 and message in shown(response)
    assert count_rows(app, "entries") == 0


def test_start_chips_and_the_net_result(post, client):
    sheet = new_sheet(post, "bura", ("Anna", "Ben"), start_chips="20", ante="2")
    post(f"{sheet}/hands", {"outcome": "bura", "player": "0", "version": "0"})
    page = parsed(client.get(sheet))
    assert totals(page) == ["22", "18"]
    assert "Anna +2 · Ben −2" in shown(page)


def test_agreed_variants_are_noted_with_their_rules(post, client):
    page = parsed(client.get(new_sheet(post, "bura", THREE, moscow="on", redeal="on")))
    assert [link.get_text() for link in page.select('a[href="/rules/bura#variant-moscow"]')] \
        == ["Moscow"]
    assert page.select('a[href="/rules/bura#variant-redeal"]')


def test_correcting_a_game(post, client):
    sheet = new_sheet(post, "bura", ("Anna", "Ben"))
    post(f"{sheet}/hands", {"outcome": "right_claim", "player": "1", "version": "0"})
    assert "Correct game 1" in shown(client.get(f"{sheet}/hands/1"))
    post(f"{sheet}/hands/1", {"outcome": "right_claim", "player": "0", "version": "1"})
    assert totals(client.get(sheet)) == ["1", "−1"]


# --- Burkosel --------------------------------------------------------------------------------

def test_burkosel_scores_the_loser_and_ends_at_twelve(post, client, app):
    sheet = new_sheet(post, "burkosel", ("Anna", "Ben"))
    post(f"{sheet}/hands", {"u0_points": "95", "u0_tricks": "5", "u1_points": "25",
                            "u1_tricks": "2", "version": "0"})
    assert totals(client.get(sheet)) == ["0", "4"]
    post(f"{sheet}/hands", {"instant_win": "0", "version": "1"})
    post(f"{sheet}/hands", {"u0_points": "120", "u0_tricks": "9", "u1_points": "0",
                            "u1_tricks": "0", "version": "2"})
    page = parsed(client.get(sheet))
    assert totals(page) == ["0", "16"]
    assert "Ben reached 12 penalty points and lost." in shown(page)
    assert "Winner: Anna" in shown(page)


def test_burkosel_at_twelve_all_nobody_wins(post, client):
    """RULES-NOTES D9: "if every side has [12 or more], nobody wins (winners empty). A side is
    never both winner and loser." Five even games make 10:10, the sixth 12:12."""
    sheet = new_sheet(post, "burkosel", ("Anna", "Ben"))
    for version in range(6):
        post(f"{sheet}/hands", {"u0_points": "60", "u0_tricks": "5", "u1_points": "60",
                                "u1_tricks": "5", "version": str(version)})
    response = client.get(sheet)
    assert totals(response) == ["12", "12"]
    assert "nobody wins" in shown(response) and "Winner" not in text(response)
    body = client.get(f"{MATCHES}/{sheet.rsplit('/', 1)[1]}").json
    assert body["finished"] and body["winners"] == [] and body["losers"] == [0, 1]


@pytest.mark.parametrize("form, message", [
    ({"u0_points": "95", "u1_points": "20"}, "add up to 115"),
    ({"u0_points": "120", "u1_points": "0", "u0_tricks": "0"}, "without a trick"),
    ({"u0_points": "abc"}, "Card points are whole numbers"),
])
def test_burkosel_refuses_what_cannot_be(post, app, form, message):
    sheet = new_sheet(post, "burkosel", ("Anna", "Ben"))
    base = {"u0_points": "95", "u0_tricks": "5", "u1_points": "25", "u1_tricks": "2"}
    response = post(f"{sheet}/hands", {**base, **form, "version": "0"})
    assert response.status_code == 422 and message in shown(response)
    assert count_rows(app, "entries") == 0


def test_burkosel_fills_in_the_other_side_and_names_a_missing_one(post, client):
    """Seed 003: the card points add up to 120; the panel types one side's, the sheet knows
    the other's. With three players two missing are refused, naming the first."""
    sheet = new_sheet(post, "burkosel", ("Anna", "Ben"))
    typed = parsed(client.get(sheet)).select_one("input[name=u0_points]")
    assert (typed["data-complement"], typed["data-total"]) == ("u1_points", "120")
    post(f"{sheet}/hands", {"u0_points": "95", "u0_tricks": "5", "u1_points": "",
                            "u1_tricks": "2", "version": "0"})
    assert totals(client.get(sheet)) == ["0", "4"]
    three = new_sheet(post, "burkosel", ("Anna", "Ben", "Carla"))
    refused = post(f"{three}/hands", {"u0_points": "40", "u0_tricks": "3", "u1_tricks": "4",
                                      "u2_tricks": "3", "version": "0"})
    assert refused.status_code == 422
    assert "Ben: the card points are missing" in shown(refused)


def test_burkosel_with_four_plays_in_partnerships(post, client):
    sheet = new_sheet(post, "burkosel", ("Anna", "Ben", "Carla", "Dan"))
    sides = [name for name, _total in standings(client.get(sheet))]
    assert sides == ["Anna & Carla", "Ben & Dan"]


# --- The checkers ----------------------------------------------------------------------------

@pytest.mark.parametrize("url, expected", [
    (f"/bura/claim?cards={SEED_30.replace(' ', '+')}", "30 card points"),
    ("/bura/claim?cards=AS+10S+AH+KH+QH&pot=4", "Claimant +4 chips · pot afterwards 0"),
    ("/bura/trick?trump=H&lead=KC+9C&response=AC+6H", "Yes: the answer beats every card"),
    ("/bura/trick?trump=H&lead=KC+9C&response=AC+8S", "No: the answer cannot beat"),
    ("/bura/trick?trump=D&lead=QS+7S&front=9D+JS&response=KD+9S", "No: the answer cannot"),
    ("/bura/trick?trump=H&lead=KC+9H", "led together only if they are of one suit"),
    ("/bura/trick?trump=H&lead=AC+AH+AS&declared=on&response=6C+7C+8C", "No: the answer cannot"),
    ("/bura/combination?trump=H&cards=6H+9H+AH", "Bura (three trumps)"),
    ("/bura/combination?trump=H&cards=6S+6H+6D&little_moscow=on", "Little Moscow"),
    ("/bura/combination?trump=H&cards=6S+7H+6D", "No special hand"),
])
def test_the_bura_checkers(client, url, expected):
    response = client.get(url)
    assert response.status_code == 200 and expected in shown(response)


@pytest.mark.parametrize("path", ["/bura/claim", "/bura/trick", "/bura/combination"])
def test_the_bura_checkers_as_fragments_and_in_german(client, path):
    fragment = root(client.get(path, headers=HTMX))
    assert fragment.name == "form" and fragment["id"] == "checker"
    client.set_cookie("lang", "de")
    assert parsed(client.get(path)).html["lang"] == "de"


def test_a_picker_tap_in_the_trick_checker_goes_into_the_chosen_field(client):
    response = client.get("/bura/trick?trump=H&into=response&lead=KC+9C&response=AC&add=6H")
    assert response.headers["Location"] == \
        "/bura/trick?trump=H&into=response&lead=KC+9C&response=AC+6H"


# --- API -------------------------------------------------------------------------------------

@pytest.mark.parametrize("path, body, expected", [
    ("/api/v1/bura/claim", {"cards": ["AS", "10S", "KH"]}, {"points": 25, "valid": False}),
    ("/api/v1/bura/claim", {"cards": SEED_30 + " KS 8S"}, {"points": 34, "valid": True}),
    ("/api/v1/bura/claim", {"cards": ["AS", "10S", "KH"], "pot": 4},
     {"points": 25, "valid": False, "claimant": -4, "pot": 8}),
    ("/api/v1/bura/trick", {"trump": "H", "front": ["KC", "9C"], "response": ["AC", "6H"]},
     {"beats": True, "pairs": [["KC", "AC"], ["9C", "6H"]], "unbeaten": []}),
    ("/api/v1/bura/trick", {"trump": "H", "front": ["KC", "9C"], "response": ["AC", "8S"]},
     {"beats": False, "pairs": None, "unbeaten": ["9C"]}),
    ("/api/v1/bura/lead", {"cards": ["KC", "9C"]}, {"valid": True, "reason": None}),
    ("/api/v1/bura/lead", {"cards": ["AC", "AH", "AS"], "declared": "three_aces"},
     {"valid": True, "reason": None}),
    ("/api/v1/bura/combination", {"trump": "H", "cards": ["6H", "9H", "AH"]},
     {"combination": "bura", "wins_pot": True, "led_together": False}),
    ("/api/v1/bura/combination", {"trump": "H", "cards": ["6S", "9H", "AH"]},
     {"combination": None, "wins_pot": False, "led_together": False}),
    ("/api/v1/bura/combination", {"trump": "H", "cards": ["AS", "AD", "AH"]},
     {"combination": "three_aces", "wins_pot": False, "led_together": True}),
    ("/api/v1/bura/combination",
     {"trump": "H", "cards": ["AS", "AD", "AH"], "options": {"moscow": True}},
     {"combination": "three_aces", "wins_pot": True, "led_together": True}),
    ("/api/v1/bura/combination",
     {"trump": "H", "cards": ["6S", "6D", "6H"], "options": {"little_moscow": True}},
     {"combination": "little_moscow", "wins_pot": False, "led_together": False}),
])
def test_api_bura_examples(client, path, body, expected):
    response = client.post(path, json=body)
    assert response.status_code == 200 and response.json == expected


def test_api_a_mixed_lead_is_refused_with_the_rule(client):
    body = client.post("/api/v1/bura/lead", json={"cards": ["AC", "AH", "AS"]}).json
    assert body["valid"] is False and body["code"] == "lead_one_suit"


@pytest.mark.parametrize("path, body", [
    ("/api/v1/bura/claim", {"cards": ["2S"]}),
    ("/api/v1/bura/claim", {"cards": ["AS", "AS"]}),
    ("/api/v1/bura/claim", {"cards": ["AS"], "pot": "lots"}),
    ("/api/v1/bura/trick", {"trump": "X", "front": ["KC"], "response": ["AC"]}),
    ("/api/v1/bura/trick", {"trump": "H", "front": ["KC", "9C"], "response": ["AC"]}),
    ("/api/v1/bura/combination", {"trump": "H", "cards": ["6H", "9H"]}),
    ("/api/v1/bura/lead", {"cards": []}),
])
def test_api_bura_malformed_is_400(client, path, body):
    response = client.post(path, json=body)
    assert response.status_code == 400 and response.json["error"]


def test_api_bura_match(client):
    created = client.post(MATCHES, json={
        "game": "bura", "players": ["Anna", "Ben"], "options": {"ante": 1, "dealer": 1}})
    assert created.status_code == 201
    token = created.json["token"]
    assert created.json["pot"] == 0 and created.json["chips"] == [0, 0]
    body = client.post(f"{MATCHES}/{token}/hands",
                       json={"outcome": "claim", "player": 1, "cards": SEED_30.split()}).json
    assert body["pot"] == 4 and body["chips"] == [-1, -3] and body["dealer"] == 1
    body = client.post(f"{MATCHES}/{token}/hands",
                       json={"outcome": "right_claim", "player": 1}).json
    assert body["pot"] == 0 and body["chips"] == [-2, 2]
    assert sum(body["chips"]) + body["pot"] == 0


def test_the_claim_check_asks_only_for_its_verdict(post):
    """Tapping the claimant's cards changes the phone; the server answers the verdict alone,
    small, and books nothing (issue: Enter in the field booked a wrong claim as right)."""
    sheet = new_sheet(post, "bura", ("Anna", "Ben"))
    response = post(f"{sheet}/draft", {"outcome": "claim", "player": "1", "cards": SEED_30,
                                       "check": "1", "only": "preview"},
                    headers=HTMX)
    verdict = root(response)
    assert verdict.name == "p" and verdict["id"] == "claim-verdict"
    assert "30 card points: wrong" in shown(verdict) and len(response.data) <= 2048
    page = post(f"{sheet}/draft", {"outcome": "claim", "player": "1", "cards": SEED_30,
                                   "check": "1"})
    assert "30 card points: wrong" in shown(page) and not parsed(page).select(".toast")


def test_a_moscow_takes_the_pot_on_the_sheet_and_through_the_api(post, client):
    """RULES-NOTES D10: "With the option on, a Moscow is an outcome that takes the pot, like
    a Bura"; without it, there is no such outcome."""
    sheet = new_sheet(post, "bura", ("Anna", "Ben"), moscow="on")
    page = parsed(client.get(sheet))
    assert page.select("[value=moscow]") and "Moscow shown" in shown(page)
    plain_sheet = parsed(client.get(new_sheet(post, "bura", ("Anna", "Ben"))))
    assert not plain_sheet.select("[value=moscow]")
    post(f"{sheet}/hands", {"outcome": "wrong_claim", "player": "0", "version": "0"})
    post(f"{sheet}/hands", {"outcome": "moscow", "player": "1", "version": "1"})
    page = parsed(client.get(sheet))
    assert totals(page) == ["−4", "4"] and "Moscow shown: Ben" in shown(page)
    token = sheet.rsplit("/", 1)[1]
    body = client.get(f"{MATCHES}/{token}").json
    assert body["hands"][1]["outcome"] == "moscow" and body["pot"] == 0
    plain = client.post(MATCHES, json={"game": "bura", "players": ["A", "B"]})
    refused = client.post(f"{MATCHES}/{plain.json['token']}/hands",
                          json={"outcome": "moscow", "player": 0})
    assert refused.status_code == 400 and refused.json["code"] == "outcome_variant_off"


def test_api_burkosel_match(client):
    token = client.post(MATCHES, json={"game": "burkosel",
                                                 "players": ["A", "B"]}).json["token"]
    body = client.post(f"{MATCHES}/{token}/hands",
                       json={"card_points": [95, 25], "tricks": [5, 2]}).json
    assert body["totals"] == [0, 4]
    body = client.post(f"{MATCHES}/{token}/hands", json={"instant_win": 1}).json
    assert body["totals"] == [6, 4]
    refused = client.post(f"{MATCHES}/{token}/hands",
                          json={"card_points": [95, 20], "tricks": [5, 2]})
    assert refused.status_code == 400 and refused.json["code"] == "card_points_sum"


@pytest.mark.parametrize("query, expected", [
    ("trump=H&cards=6H+9H+AH", "it wins the pot at once"),
    ("trump=H&cards=AS+AH+AD", "you take the lead and play all three together"),
    ("trump=H&cards=AS+AH+AD&three_aces_win=on", "it wins the pot at once"),
    ("trump=H&cards=6S+9S+AS", "you take the lead and play all three together"),
    ("trump=H&cards=AS+AH+AD&moscow=on", "it wins the pot at once"),
    ("trump=H&cards=6S+6H+6D&little_moscow=on", "the three 6s are not played together"),
])
def test_what_a_special_hand_does(client, query, expected):
    """Seed 003: "Bura – … du gewinnst sofort den Pot"; "Drei Asse – du ziehst das Ausspielen
    an dich"; Varianten: "Drei Asse gewinnen den Pot wie eine Bura". RULES-NOTES D10: Moscow's
    three aces "win the pot at once"; D11: Little Moscow is "not led together"."""
    response = client.get(f"/bura/combination?{query}")
    assert expected in shown(response)
    if "little_moscow" in query:
        assert "play all three together" not in text(response)
