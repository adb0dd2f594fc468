"""The Buraco score sheet: a new match, hands from the panel (parts, taps, totals), the
preview, refusals with their rule, three players alone, and the end (seed 004; RULES-NOTES
C1–C3). The checker and the two endpoints are in test_buraco_pages.py."""

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
    tap_sums,
    text,
    totals,
)

# Seed 004: "Jede ausgelegte Karte zählt nach ihrem eigenen Wert … Für jeden reinen Buraco
# gibt es 200 Bonuspunkte … Karten, die beim Rundenende noch auf der Hand liegen, werden …
# abgezogen." Anna & Carla went out with a clean buraco and a red three.
OUT_HAND = {
    "s0_mode": "parts", "s0_table": "250", "s0_clean": "1", "s0_red": "1", "s0_hand": "",
    "s0_dead_pile": "taken",
    "s1_mode": "parts", "s1_table": "80", "s1_hand": "30", "s1_dead_pile": "taken",
    "closer": "0",
}



def test_the_home_tile_opens_the_new_buraco_match(client):
    assert parsed(client.get("/")).select('a[href="/buraco/new"]')
    form = parsed(client.get("/buraco/new"))
    assert form_value(form, "variant") == "seed"
    assert form_value(form, "target_choice") == "3000"
    for option in ("red_threes", "going_out_bonus", "dead_pile_penalty"):
        assert form_value(form, option) == "on", option
    assert form_value(form, "clean_to_go_out") is None


def test_the_forms_boxes_and_target_are_the_options(post, client):
    """A box left unticked is the option off, a ticked one on; the target is the one chosen,
    and the number typed only with "other:"."""
    chosen = post("/buraco/new", {"players": ["Anna", "Ben"], "action": "start",
                                  "going_out_bonus": "on", "target_choice": "3000",
                                  "target": "1234"}).headers["Location"]
    typed = new_sheet(post, "buraco", ("Anna", "Ben"), target_choice="custom", target="1500")
    options = [client.get(f"{MATCHES}/{sheet.rsplit('/', 1)[1]}").get_json()["options"]
               for sheet in (chosen, typed)]
    assert (options[0]["red_threes"], options[0]["going_out_bonus"],
            options[0]["dead_pile_penalty"], options[0]["target"]) == (False, True, False, 3000)
    assert (options[1]["red_threes"], options[1]["target"]) == (True, 1500)


def test_a_hand_from_the_panel(post, client):
    """Seed 004 and C1: cards 250 + clean buraco 200 + a red three 100 + going out 100 = 650;
    80 − 30 = 50."""
    sheet = new_sheet(post, "buraco")
    response = post(f"{sheet}/hands", {**OUT_HAND, "version": "0"})
    assert response.status_code == 303
    page = parsed(client.get(response.headers["Location"]))
    assert totals(page) == ["650", "50"]
    assert "cards 250 · buracos +200 · red threes +100 · out +100" in shown(page)
    assert "Hand 2: Ben deals, Carla leads." in shown(page)


@pytest.mark.parametrize("game", ["buraco", "burraco"])
def test_every_counter_and_stepper_says_how_far_it_goes(post, client, game):
    """The phone's panel stops a tap or a stepper at its maximum: each one must name it."""
    page = parsed(client.get(new_sheet(post, game, ("Anna", "Ben"))))
    maxima = [control.get("data-max", "") for control in page.select('[data-add][data-step="1"]')]
    assert maxima and all(value.isdigit() and int(value) > 0 for value in maxima)


def test_the_tap_counter_counts_this_games_values(post):
    """Seed 004: "Asse und Zweien zählen 20 Punkte, Bilder und die 10 zählen 10 Punkte, die
    Karten 4 bis 9 zählen 5 Punkte, und jeder Joker zählt 30 Punkte." """
    sheet = new_sheet(post, "buraco")
    form = {**OUT_HAND, "s0_table": "", "s0_table_ace_two": "2", "s0_table_joker": "1",
            "press": "tap:0:table:nine_four:1"}
    fragment = parsed(post(f"{sheet}/draft", form, headers=HTMX))
    assert tap_sums(fragment) == ["1×30 + 2×20 + 1×5 = 75"]
    buttons = {(shown(tap.select_one(".tap-label")), shown(tap.select_one(".tap-value")))
               for tap in fragment.select('.tap-add[data-add^="s0_table_"]')}
    assert ("A 2", "20") in buttons


def test_the_brazilian_counter_counts_its_values(post):
    """RULES-NOTES C3: "joker 20, 2 10, ace 15, K–8 10, 7–3 5"."""
    sheet = new_sheet(post, "buraco", variant="brazilian")
    response = post(f"{sheet}/draft", {**OUT_HAND, "s0_table": "", "s0_table_ace": "1",
                                       "press": "tap:0:table:joker:1"}, headers=HTMX)
    assert tap_sums(parsed(response)) == ["1×20 + 1×15 = 35"]
    assert "Red threes" not in text(response)   # threes are plain cards in the Brazilian games


def test_the_preview_and_a_refusal_name_the_rule(post, app):
    """Seed 004: going out "darf ein Spieler aber nur versuchen, wenn sein Team … schon
    mindestens einen kompletten Buraco von sieben Karten gebildet hat"."""
    sheet = new_sheet(post, "buraco")
    no_buraco = {**OUT_HAND, "s0_clean": "0"}
    preview = root(post(f"{sheet}/draft", {**no_buraco, "only": "preview"}, headers=HTMX))
    assert preview.name == "p" and preview["id"] == "preview"
    assert "Anna & Carla: going out needs at least one complete buraco." in shown(preview)
    refused = post(f"{sheet}/hands", {**no_buraco, "version": "0"})
    assert refused.status_code == 422
    page = parsed(refused)
    assert page.select('a.why[href="/rules/buraco#end"]')
    assert form_value(page, "s0_table") == "250"                        # nothing lost
    assert count_rows(app, "entries") == 0


# Seed 004: "Ein Buraco ist eine Meldung aus mindestens sieben Karten": two packs and four
# jokers, 108 cards, make at most 15 of them, and hold four red threes.
# The sheet names a side by its players, the API by its number.
BURACOS_RANGE = {"en": "{side}: the number of buracos must be from 0 to 15.",
                 "de": "{side}: Möglich sind 0 bis 15 Buracos."}
RED_THREES_RANGE = {"en": "{side}: the number of red threes must be from 0 to 4.",
                    "de": "{side}: Die Zahl der roten Dreien muss von 0 bis 4 reichen."}
ON_THE_SHEET = "Anna & Carla"
IN_THE_API = {"en": "Side 1", "de": "Partei\u00a01"}
COUNTS_OUT_OF_RANGE = [
    ("clean", "clean_buracos", "16", BURACOS_RANGE),
    ("dirty", "dirty_buracos", "99", BURACOS_RANGE),
    ("clean", "clean_buracos", "-1", BURACOS_RANGE),
    ("red", "red_threes", "5", RED_THREES_RANGE),
]


@pytest.mark.parametrize("lang", ["en", "de"])
@pytest.mark.parametrize("field, api_field, count, refusal", COUNTS_OUT_OF_RANGE)
def test_a_count_out_of_range_is_refused_with_its_message_by_the_form_and_the_api(
        post, client, app, lang, field, api_field, count, refusal):
    """However the count comes, the player reads why; nothing is stored."""
    sheet = new_sheet(post, "buraco")
    client.set_cookie("lang", lang)
    for headers in ({}, HTMX):
        refused = post(f"{sheet}/hands", {**OUT_HAND, f"s0_{field}": count, "version": "0"},
                       headers=headers)
        assert refused.status_code == 422
        message = refusal[lang].format(side=ON_THE_SHEET)
        assert shown(parsed(refused).select_one("p.error[role=alert]")).startswith(message)
        preview = root(post(f"{sheet}/draft", {**OUT_HAND, f"s0_{field}": count,
                                               "only": "preview"}, headers=HTMX))
        assert shown(preview) == message
    hand = {"sides": [{"table_points": 250, "clean_buracos": 1, "red_threes": 1,
                       "dead_pile": "taken", "went_out": True, api_field: int(count)},
                      {"table_points": 80, "hand_points": 30, "dead_pile": "taken"}]}
    answer = client.post(f"{MATCHES}/{sheet.rsplit('/', 1)[1]}/hands", json=hand,
                         headers={"Accept-Language": lang})
    assert answer.status_code == 400
    assert answer.json["error"] == refusal[lang].format(side=IN_THE_API[lang])
    assert count_rows(app, "entries") == 0


@pytest.mark.parametrize("count", ["two", "9" * 40, "1.5"])
def test_a_count_that_is_no_whole_number_is_refused_not_taken_as_none(post, app, count):
    """The steppers send whole numbers; anything else did not come from them."""
    sheet = new_sheet(post, "buraco")
    refused = post(f"{sheet}/hands", {**OUT_HAND, "s0_clean": count, "version": "0"})
    assert refused.status_code == 422
    assert shown(parsed(refused).select_one("p.error[role=alert]")).startswith(
        BURACOS_RANGE["en"].format(side=ON_THE_SHEET))
    assert count_rows(app, "entries") == 0


def test_three_players_play_alone_and_all_three_count(post, client):
    """Seed 004: "Zu zweit oder zu dritt spielt jeder für sich … genau einen toten Stapel pro
    Spieler." """
    sheet = new_sheet(post, "buraco", THREE)
    page = parsed(client.get(sheet))
    assert len(page.select("[name=s2_mode]")) == 1 and "Who went out?" in shown(page)
    hand = {**OUT_HAND, "s2_mode": "total", "s2_total": "-40"}
    assert post(f"{sheet}/hands", {**hand, "version": "0"}).status_code == 303
    assert totals(client.get(sheet)) == ["650", "50", "−40"]


def test_the_match_ends_at_the_target(post, client):
    """RULES-NOTES C1: "Target 3000 (option)"; the match ends as in Burraco: after a hand in
    which someone reached it, the most points win."""
    sheet = new_sheet(post, "buraco", target_choice="custom", target="600")
    post(f"{sheet}/hands", {**OUT_HAND, "version": "0"})
    page = parsed(client.get(sheet))
    assert "Winner: Anna & Carla with 650 points" in shown(page)
    assert not page.select("#panel")


def test_a_correction_shows_the_hand_and_keeps_its_entries(post, client):
    sheet = new_sheet(post, "buraco")
    post(f"{sheet}/hands", {**OUT_HAND, "version": "0"})
    panel = parsed(client.get(f"{sheet}/hands/1"))
    assert "Correct hand 1" in shown(panel) and form_value(panel, "s0_table") == "250"
    assert form_value(panel, "s0_dead_pile") == "taken"
    post(f"{sheet}/hands/1", {**OUT_HAND, "s1_hand": "60", "version": "1"})
    assert totals(client.get(sheet)) == ["650", "20"]


@pytest.mark.parametrize("headers", [{}, HTMX])
def test_the_sheet_as_page_and_fragment_in_both_languages(post, client, headers):
    sheet = new_sheet(post, "buraco")
    client.set_cookie("lang", "de")
    page = parsed(client.get(sheet, headers=headers))
    assert "Wer ist rausgegangen?" in shown(page) and "Toter Stapel" in shown(page)
    assert (page.html is not None) is not bool(headers)
