"""Burraco on the web: the new-match form, the sheet and its panel, the meld checker, the API."""

import re

import pytest
from helpers import (
    HTMX,
    MATCHES,
    THREE,
    count_rows,
    form_value,
    new_sheet,
    parsed,
    root,
    shown,
    standings,
    tap_sums,
    totals,
)

SEED_HAND = {
    "s0_mode": "parts", "s0_table": "120", "s0_clean": "1", "s0_hand": "10",
    "s0_pozzetto": "taken",
    "s1_mode": "parts", "s1_table": "95", "s1_dirty": "1", "s1_hand": "40",
    "s1_pozzetto": "taken", "closer": "0",
}


def save(post, sheet, form, seen=0, **kwargs):
    return post(f"{sheet}/hands", {**form, "version": str(seen)}, **kwargs)


def preview(page) -> list[str]:
    """What the panel's preview gives each side."""
    return [shown(side) for side in page.select("#preview .preview-side")]


# --- New match -------------------------------------------------------------------------------

def test_the_burraco_tile_leads_to_its_form(client):
    assert parsed(client.get("/")).select('a[href="/burraco/new"]')
    page = parsed(client.get("/burraco/new"))
    assert form_value(page, "target_choice") == "2005"
    assert page.select("input[name=semipulito]") and "partners sit opposite" in shown(page)


@pytest.mark.parametrize("players", [["A"], ["A", "B", "C", "D", "E"]])
def test_one_or_five_players_are_refused(post, app, players):
    response = post("/burraco/new", {"players": players, "action": "start"})
    assert response.status_code == 422 and "A match needs 2 to 4 players" in shown(response)
    assert count_rows(app, "matches") == 0


def test_a_custom_target_and_semi_clean(post, client):
    sheet = new_sheet(post, "burraco", target_choice="custom", target="3000", semipulito="on")
    page = shown(client.get(sheet))
    assert "Target 3000" in page and "Semi-clean burracos (+150)" in page


def test_the_sheet_shows_partners_as_sides(post, client):
    page = parsed(client.get(new_sheet(post, "burraco")))
    assert [side for side, _total in standings(page)] == ["Anna & Carla", "Ben & Dan"]
    assert "Game 1: Anna deals, Ben leads." in shown(page)


# --- The panel -------------------------------------------------------------------------------

def test_the_seed_hand_saved_from_the_form(post, client):
    sheet = new_sheet(post, "burraco")
    response = save(post, sheet, SEED_HAND)
    assert response.status_code == 303
    page = parsed(client.get(response.headers["Location"]))
    assert totals(page) == ["410", "155"]
    assert "cards 120 · burracos +200 · closing +100 · hand −10" in shown(page)


def test_a_tap_counts_a_card_and_updates_the_preview(post):
    sheet = new_sheet(post, "burraco")
    form = {**SEED_HAND, "s0_table": "", "s0_table_high": "11", "press": "tap:0:table:high:1"}
    fragment = parsed(post(f"{sheet}/draft", form, headers=HTMX))
    assert root(fragment).name == "form" and root(fragment)["id"] == "panel"
    assert fragment.html is None
    assert tap_sums(fragment) == ["12×10 = 120"]
    assert form_value(fragment, "s0_table_high") == "12"
    assert preview(fragment) == ["Anna & Carla +410", "Ben & Dan +155"]


def test_a_tap_adds_its_card_to_the_typed_pile(post):
    """The field holds the pile's points (165 typed, then two K–8): a tap adds its card to
    it, and the line says how the field's number came about."""
    sheet = new_sheet(post, "burraco")
    form = {**SEED_HAND, "s0_table": "185", "s0_table_high": "2", "press": "tap:0:table:high:1"}
    fragment = parsed(post(f"{sheet}/draft", form, headers=HTMX))
    assert tap_sums(fragment) == ["165 + 3×10 = 195"]
    assert form_value(fragment, "s0_table") == "195"
    assert preview(fragment)[0] == "Anna & Carla +485"       # 195 + 200 + 100 − 10


def test_the_preview_alone(post):
    """A change asks the server only for the preview: a small answer, not the panel."""
    sheet = new_sheet(post, "burraco")
    response = post(f"{sheet}/draft", {**SEED_HAND, "only": "preview"}, headers=HTMX)
    alone = root(response)
    assert alone.name == "p" and alone["id"] == "preview" and "+410" in shown(alone)
    assert len(response.data) <= 2048


def test_without_javascript_a_tap_returns_the_whole_page(post):
    sheet = new_sheet(post, "burraco")
    page = parsed(post(f"{sheet}/draft", {**SEED_HAND, "press": "step:1:dirty:1"}))
    assert page.html is not None and form_value(page, "s1_dirty") == "2"


@pytest.mark.parametrize("press, field, value", [
    ("tap:0:hand:joker:-1", "s0_hand_joker", "0"),       # never below zero
    ("step:0:clean:-1", "s0_clean", "0"),
    ("sign:1", "s1_total", "-35"),
    ("mode:1:total", "s1_mode", "total"),
    ("clear:0:table", "s0_table_low", "0"),
    ("nonsense", "s0_clean", "1"),
])
def test_panel_buttons(post, press, field, value):
    sheet = new_sheet(post, "burraco")
    form = {**SEED_HAND, "s1_total": "35", "s0_table_low": "3", "press": press}
    fragment = parsed(post(f"{sheet}/draft", form, headers=HTMX))
    assert form_value(fragment, field) == value


def test_totals_only_with_a_negative_total(post, client):
    sheet = new_sheet(post, "burraco")
    save(post, sheet, {"s0_mode": "total", "s0_total": "100", "s1_mode": "total",
                       "s1_total": "-35", "closer": "none"})
    page = parsed(client.get(sheet))
    assert totals(page) == ["100", "−35"]
    assert "counted on paper" in shown(page)


BAD_HANDS = [
    ({"s0_clean": "0"}, "Anna & Carla: closing needs at least one burraco."),
    ({"s0_pozzetto": "not_taken"}, "Anna & Carla: closing needs the side's pozzetto"),
    ({"s0_hand": "-5"}, "the points in hand must be from 0 to 1,080"),
    ({"s0_table": "1000000000"}, "the points on the table must be from 0 to 1,080"),
    ({"s0_table": "123"}, "not a multiple of 5"),
    ({"s0_mode": "total", "s0_total": "1000000000"}, "a hand's total must be from"),
    # The steppers stop at 0 and 15; a count beyond them is refused, never taken as 0.
    ({"s0_clean": "16"}, "Anna & Carla: the number of burracos must be from 0 to 15."),
    ({"s1_dirty": "-1"}, "Ben & Dan: the number of burracos must be from 0 to 15."),
    ({"s1_dirty": "one"}, "Ben & Dan: the number of burracos must be from 0 to 15."),
]


@pytest.mark.parametrize("change, message", BAD_HANDS)
def test_bad_hands_are_refused_with_the_rule_and_nothing_stored(post, app, change, message):
    sheet = new_sheet(post, "burraco")
    response = save(post, sheet, {**SEED_HAND, **change})
    assert response.status_code == 422
    page = parsed(response)
    assert message in shown(page)
    assert page.select('a.why[href^="/rules/burraco#"]')
    assert count_rows(app, "entries") == 0
    # What was typed stays in the panel.
    assert form_value(page, "s1_table") == "95"


def test_the_form_names_one_closer_at_most(post, client):
    """Only one side can close: the panel asks "who closed?" once, with "nobody" as a choice."""
    page = parsed(client.get(new_sheet(post, "burraco")))
    assert len(page.select("input[name=closer]")) == 3


def test_correcting_a_hand_shows_it_in_the_panel_and_undo_restores_it(post, client):
    sheet = new_sheet(post, "burraco")
    save(post, sheet, SEED_HAND)
    page = parsed(client.get(f"{sheet}/hands/1"))
    assert "Correct game 1" in shown(page) and form_value(page, "s0_table") == "120"
    response = post(f"{sheet}/hands/1", {**SEED_HAND, "s0_hand": "30", "version": "1"})
    assert response.headers["Location"] == f"{sheet}?edited=1"
    page = parsed(client.get(response.headers["Location"]))
    assert totals(page)[0] == "390"
    assert "410 : 155" in shown(page)                    # the replaced entry, kept
    entry = form_value(page, "entry")
    restored = post(f"{sheet}/hands/1/restore", {"version": "2", "entry": entry})
    assert restored.status_code == 303
    assert totals(client.get(sheet))[0] == "410"


def test_the_match_ends_at_the_target(post, client):
    sheet = new_sheet(post, "burraco", target_choice="505")
    save(post, sheet, SEED_HAND)
    save(post, sheet, {"s0_mode": "total", "s0_total": "100", "s1_mode": "total",
                       "s1_total": "-35", "closer": "none"}, seen=1)
    page = parsed(client.get(sheet))
    assert "Winner: Anna & Carla with 510 points" in shown(page)
    assert not page.select("#panel")


def test_three_players_say_who_played_alone(post, client, app):
    """Seed 002: "Zu dritt: … Wer zuerst keine Handkarten mehr hat, nimmt die 18 und spielt
    allein; die anderen zwei werden Partner" (each partner is given half the pair's
    points)."""
    sheet = new_sheet(post, "burraco", THREE)
    refused = save(post, sheet, SEED_HAND)
    assert refused.status_code == 422 and "played alone" in shown(refused)
    save(post, sheet, {**SEED_HAND, "alone": "1"})
    assert {("Ben", "410"), ("Anna", "77.5")} <= set(standings(client.get(sheet)))


STUCK_SIDE = {"mode": "parts", "table": "60", "hand": "45"}


def stuck_hand(*tables) -> dict:
    """Three players, nobody ran out: a side of its own per player, as the panel posts it."""
    form = {"alone": "none", "closer": "none"}
    for side, table in enumerate(tables):
        form.update({f"s{side}_{key}": value for key, value in
                     {**STUCK_SIDE, "table": table, "pozzetto": "not_taken"}.items()})
    return form


def test_three_players_can_record_a_hand_nobody_ran_out(post, client):
    """RULES-NOTES B6: "nobody played alone and nobody took a pozzetto; each player is a side
    of their own for that hand and pays the −100 for the pozzetto. The sheet must be able to
    record such a hand." """
    sheet = new_sheet(post, "burraco", THREE)
    panel = parsed(post(f"{sheet}/draft", {"alone": "none"}, headers=HTMX))
    assert len(panel.select("[name=s2_mode]")) == 1 and not panel.select("[name=s3_mode]")
    third = panel.select_one('fieldset.side[data-when="alone=none"]')
    assert not third.has_attr("hidden") and not third.has_attr("disabled")   # the third shown
    for fixed in panel.select('fieldset.pozzetto-fixed[data-when="alone=none"]'):
        assert not fixed.has_attr("hidden") and not fixed.has_attr("disabled")
    for chosen in [*panel.select('fieldset.pozzetto[data-unless="alone=none"]'),
                   panel.select_one("fieldset.closer")]:
        assert chosen.has_attr("hidden") and chosen.has_attr("disabled")
    assert "Pozzetto not taken (−100): nobody ran out." in shown(panel)
    alone = parsed(post(f"{sheet}/draft", {"alone": "1"}, headers=HTMX))
    third = alone.select_one('fieldset.side[data-when="alone=none"]')
    assert third.has_attr("hidden") and third.has_attr("disabled")
    assert save(post, sheet, stuck_hand("60", "120", "0")).status_code == 303
    assert standings(client.get(sheet)) == [("Anna", "−85"), ("Ben", "−25"),
                                            ("Carla", "−145")]
    corrected = parsed(client.get(f"{sheet}/hands/1"))
    assert form_value(corrected, "alone") == "none"
    assert corrected.select("[name=s2_table]")


def test_the_lone_player_cannot_have_left_the_pozzetto(post, app):
    """RULES-NOTES B6: "the lone player has taken the 18-card pozzetto by definition (never
    "not taken")"."""
    sheet = new_sheet(post, "burraco", THREE)
    form = {**SEED_HAND, "alone": "1", "s0_pozzetto": "not_taken", "closer": "none"}
    response = save(post, sheet, form)
    assert response.status_code == 422
    page = parsed(response)
    assert "Ben: the player alone has taken the 18-card pozzetto" in shown(page)
    assert page.select('a.why[href="/rules/burraco#variant-three-players"]')
    assert count_rows(app, "entries") == 0


def test_both_sides_cannot_hold_more_than_the_cards(post, app):
    """RULES-NOTES B6: "Both sides' table points together cannot exceed the cards' total"."""
    sheet = new_sheet(post, "burraco")
    form = {**SEED_HAND, "s0_table": "700", "s1_table": "700"}
    page = parsed(save(post, sheet, form))
    assert "Anna & Carla: 700 points on the table, and 1" in shown(page)
    assert page.select('a.why[href="/rules/burraco#scoring"]')
    assert count_rows(app, "entries") == 0


def test_three_players_halves_rounded_up_as_an_option(post, client):
    """RULES-NOTES B6: "the table may choose "round halves up to the next 5" as an option"."""
    sheet = new_sheet(post, "burraco", THREE, round_halves="on")
    save(post, sheet, {**SEED_HAND, "alone": "1"})
    page = parsed(client.get(sheet))
    assert "halves rounded up to 5" in shown(page)
    assert ("Anna", "80") in standings(page)


def test_the_sheet_in_german(post, client):
    sheet = new_sheet(post, "burraco")
    save(post, sheet, {"s0_mode": "total", "s0_total": "155", "s1_mode": "total",
                       "s1_total": "-35", "closer": "none"})
    save(post, sheet, {"s0_mode": "total", "s0_total": "0", "s1_mode": "total",
                       "s1_total": "5", "closer": "none"}, seen=1)
    client.set_cookie("lang", "de")
    page = parsed(client.get(sheet))
    assert page.html["lang"] == "de" and "Ausgelegte Karten" in shown(page)


# --- The meld checker ------------------------------------------------------------------------

def test_the_meld_checker_judges_a_meld(client):
    page = shown(client.get("/burraco/meld?cards=3H+4H+5H+6H+7H+8H+9H"))
    assert "A legal sequence" in page and "· 45 points" in page
    assert "Clean burraco (pulito): +200" in page


def test_the_meld_checker_names_the_wildcard(client):
    page = parsed(client.get("/burraco/meld?cards=JK+6D+7D"))
    assert "The wildcard Joker stands for 5♦." in shown(page)
    assert "5♦" in [card.get_text() for card in page.select(".card.red")]


def test_the_meld_checker_refuses_with_the_rule(client):
    page = parsed(client.get("/burraco/meld?cards=2S+2H+2C"))
    assert "wildcards alone" in shown(page) and page.select('a.why[href^="/rules/burraco#"]')


def test_the_meld_checker_in_german(client):
    client.set_cookie("lang", "de")
    page = parsed(client.get("/burraco/meld?cards=DS+DH+DD"))
    assert page.html["lang"] == "de" and "D♠" in shown(page)


def test_the_meld_checker_fragment_and_picker(client):
    response = client.get("/burraco/meld?cards=3H+4H&add=5H", headers=HTMX)
    assert response.headers["HX-Push-Url"] == "/burraco/meld?mode=check&into=cards&cards=3H+4H+5H"
    assert root(response).name == "form" and root(response)["id"] == "checker"
    plain = client.get("/burraco/meld?cards=3H+4H&add=5H")
    assert plain.status_code == 303


@pytest.mark.parametrize("query, expected", [
    ("mode=add&table=QH+QD+QC&cards=QS", "A legal set"),
    ("mode=add&table=QH+QD+QC&cards=KS", "Neither a set"),
    ("mode=swap&table=5H+JK+7H&cards=6H", "stands for 4♥"),
    ("mode=swap&table=5H+JK+7H&cards=8H", "only that card can take its place"),
    ("mode=swap&table=5H+6H+7H&cards=8H", "no wildcard to swap"),
])
def test_adding_to_a_meld_and_swapping_its_wildcard(client, query, expected):
    page = parsed(client.get(f"/burraco/meld?{query}"))
    assert expected in shown(page)
    # A heart or diamond named in the verdict is marked red, as on the cards.
    marked = {card.get_text(): card["class"] for card in page.select(".card")}
    for red in re.findall(r"\w+[♥♦]", expected):
        assert "red" in marked[red]


# --- API -------------------------------------------------------------------------------------

def test_api_meld_example(client):
    response = client.post("/api/v1/burraco/meld",
                           json={"cards": ["3H", "4H", "5H"], "options": {"semipulito": False}})
    body = response.json
    assert {key: body[key] for key in ("valid", "kind", "burraco", "points", "reason")} == \
        {"valid": True, "kind": "sequence", "burraco": None, "points": 15, "reason": None}


@pytest.mark.parametrize("body, expected", [
    ({"cards": "2♠ 2♥ 2♣"}, {"valid": False, "code": "meld_only_wildcards"}),
    ({"cards": "3S 4S 5S 6S 7S 8S 9S JK", "options": {"semipulito": True}},
     {"valid": True, "burraco": "semipulito", "stands_for": "2S"}),
    ({"cards": "3S 4S 5S 6S 7S 8S 9S JK"}, {"valid": True, "burraco": "sporco"}),
    ({"cards": ["AS", "AH", "AD", "JK"]}, {"valid": True, "kind": "set", "stands_for": "A"}),
    ({"cards": ["QS"], "onto": ["QH", "QD", "QC"]}, {"valid": True, "kind": "set"}),
    ({"cards": ["6H"], "onto": "5H JK 7H", "swap": True},
     {"valid": True, "stands_for": "4H", "order": ["JK", "5H", "6H", "7H"]}),
])
def test_api_meld_cases(client, body, expected):
    answer = client.post("/api/v1/burraco/meld", json=body).json
    assert {key: answer[key] for key in expected} == expected


@pytest.mark.parametrize("body", [{"cards": "ZZ"}, {"cards": 5}, {}, {"cards": "7H 7H 7H"},
                                  {"cards": ["3H"], "onto": 7}])
def test_api_meld_malformed_is_400(client, body):
    response = client.post("/api/v1/burraco/meld", json=body)
    assert response.status_code == 400 and response.json["error"]


def test_api_hand_example(client):
    body = {"sides": [
        {"table_points": 120, "clean_burracos": 1, "dirty_burracos": 0,
         "semiclean_burracos": 0, "hand_points": 10, "pozzetto": "taken", "closed": True},
        {"table_points": 95, "clean_burracos": 0, "dirty_burracos": 1, "hand_points": 40,
         "pozzetto": "taken", "closed": False}]}
    assert client.post("/api/v1/burraco/hand", json=body).json == {"scores": [410, 155]}


@pytest.mark.parametrize("sides, code", [
    ([{"total": -35}, {"closed": True, "pozzetto": "taken"}], "closing_needs_burraco"),
    ([{"total": 13}, {"total": 0}], "points_multiple_of_five"),
    ([{"table_points": 40, "clean_burracos": 1, "closed": True, "pozzetto": "taken"},
      {"table_points": 40, "clean_burracos": 1, "closed": True, "pozzetto": "taken"}],
     "both_closed"),
    ([{"total": 0}], "hand_needs_two_sides"),
    # RULES-NOTES B6: "Both sides' table points together cannot exceed the cards' total".
    ([{"table_points": 700, "pozzetto": "taken"}, {"table_points": 700, "pozzetto": "taken"}],
     "table_points_together"),
])
def test_api_hand_inconsistent_is_400_with_the_rule(client, sides, code):
    response = client.post("/api/v1/burraco/hand", json={"sides": sides})
    assert response.status_code == 400 and response.json["code"] == code


def test_api_a_missing_pozzetto_is_a_400_naming_the_field(client):
    """Without its pozzetto the side would silently count as "taken" (B2)."""
    response = client.post("/api/v1/burraco/hand",
                           json={"sides": [{"total": 0}, {"table_points": 50}]})
    assert response.status_code == 400 and response.json["code"] == "pozzetto_missing"
    assert response.json["error"].startswith("Side 2: the field “pozzetto” is missing")


def test_api_burraco_match_three_players(client):
    created = client.post(MATCHES, json={"game": "burraco",
                                                   "players": ["A", "B", "C"],
                                                   "options": {"target": 505}})
    assert created.status_code == 201
    token = created.json["token"]
    assert created.json["units"] == [[0], [1], [2]]
    body = client.post(f"{MATCHES}/{token}/hands", json={
        "sides": [{"total": 410}, {"total": 155}], "alone": 2}).json
    assert body["totals"] == [77.5, 77.5, 410]
    assert body["hands"][0]["sides"] == [[2], [0, 1]]


def test_api_three_players_nobody_ran_out(client):
    """RULES-NOTES B6: "each player is a side of their own for that hand and pays the −100
    for the pozzetto. The sheet must be able to record such a hand." """
    stuck = {"table_points": 60, "hand_points": 45, "pozzetto": "not_taken"}
    token = client.post(MATCHES, json={"game": "burraco", "players": ["A", "B", "C"],
                                                 "options": {"target": 505}}).json["token"]
    body = client.post(f"{MATCHES}/{token}/hands", json={
        "sides": [stuck, {**stuck, "table_points": 120}, {"total": -50}], "alone": None}).json
    assert body["totals"] == [-85, -25, -50]
    assert body["hands"][0]["sides"] == [[0], [1], [2]]
    scored = client.post("/api/v1/burraco/hand", json={
        "sides": [stuck, stuck, stuck], "alone": None}).json
    assert scored == {"scores": [-85, -85, -85]}
    refused = client.post(f"{MATCHES}/{token}/hands", json={
        "sides": [stuck, stuck, {**stuck, "pozzetto": "taken"}], "alone": None})
    assert refused.status_code == 400 and refused.json["code"] == "nobody_took_pozzetto"


def test_api_burraco_match_four_players_to_the_end(client):
    token = client.post(MATCHES, json={
        "game": "burraco", "players": ["A", "B", "C", "D"],
        "options": {"target": 505}}).json["token"]
    assert client.get(f"{MATCHES}/{token}").json["units"] == [[0, 2], [1, 3]]
    client.post(f"{MATCHES}/{token}/hands",
                json={"sides": [{"total": 410}, {"total": 155}]})
    body = client.post(f"{MATCHES}/{token}/hands",
                       json={"sides": [{"total": 100}, {"total": -35}]}).json
    assert body["finished"] and body["winners"] == [0] and body["totals"] == [510, 120]
    refused = client.post(f"{MATCHES}/{token}/hands",
                          json={"sides": [{"total": 0}, {"total": 0}]})
    assert refused.status_code == 400 and refused.json["code"] == "match_finished"


def test_the_api_names_sides_by_number(client):
    body = client.post("/api/v1/burraco/hand",
                       json={"sides": [{"total": 0}, {"table_points": 50, "closed": True,
                                                      "pozzetto": "taken"}]}).json
    assert body["error"] == "Side 2: closing needs at least one burraco."
