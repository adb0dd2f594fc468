"""The variants a table names (RULES-NOTES B7, C5, D12): each a choice on the new-match page,
its name and source on the sheet, and its rules in the sheet, the API and the checkers."""

import pytest
from helpers import FOUR, MATCHES, new_sheet, parsed, shown, totals


def preset_choices(client, game) -> dict[str, str]:
    """The preset radios of the new-match form: value → the name shown beside it."""
    page = parsed(client.get(f"/{game}/new"))
    group = page.select_one(".presets")
    return {radio["value"]: radio.find_next("strong").get_text()
            for radio in group.select("input[type=radio]")}


@pytest.mark.parametrize("game, names", [
    ("buraco", {"seed": "Classic", "brazilian": "Fechado", "aberto": "Aberto", "stbl": "STBL"}),
    ("burraco", {"classic": "Classic", "reale": "Burraco Reale"}),
    ("burkosel", {"12": "Lost at 12", "8": "Lost at 8", "6": "Lost at 6"}),
])
def test_the_new_match_page_offers_each_named_variant(client, game, names):
    assert preset_choices(client, game) == names


def test_the_first_preset_is_chosen_on_a_blank_form(client):
    page = parsed(client.get("/burraco/new"))
    assert page.select_one(".presets input:checked")["value"] == "classic"


@pytest.mark.parametrize("game, options, name, source, section", [
    ("buraco", {"variant": "stbl"}, "STBL", "jogatina.com", "variant-stbl"),
    ("buraco", {"variant": "brazilian"}, "Fechado", "jogatina.com", "variant-fechado"),
    ("burraco", {"variant": "reale"}, "Burraco Reale", "eburraco.com and giocodigitale.it",
     "variant-reale"),
    ("burkosel", {"losing_total": "8"}, "Lost at 8", "the Burkosel apps", "burkosel-end"),
])
def test_the_sheet_names_the_variant_and_its_source(post, client, game, options, name,
                                                     source, section):
    sheet = parsed(client.get(new_sheet(post, game, **options)))
    link = next(anchor for anchor in sheet.select("#sheet a") if anchor.get_text() == name)
    assert link["href"].endswith(f"#{section}")
    assert f"after {source}" in link.find_next("small").get_text()


def test_a_burraco_reale_hand_scores_nobile_and_reale(post, client):
    """B7: "nobile (a clean run A–K) 500, reale (a clean run A–A, 14 cards) 1,000 …
    Closing + 100"."""
    sheet = new_sheet(post, "burraco", variant="reale")
    page = parsed(client.get(sheet))
    steppers = {field["name"] for field in page.select(".steppers input")}
    assert {"s0_nobile", "s0_reale"} <= steppers
    hand = {"s0_mode": "parts", "s0_table": "235", "s0_nobile": "1", "s0_reale": "1",
            "s0_pozzetto": "taken", "s1_mode": "parts", "s1_table": "60", "s1_hand": "40",
            "s1_pozzetto": "taken", "s1_clean": "0", "closer": "0", "version": "0"}
    response = post(f"{sheet}/hands", hand)
    assert response.status_code == 303, shown(response)
    assert totals(client.get(sheet)) == [str(235 + 500 + 1000 + 100), str(60 - 40)]


def test_burraco_reale_refuses_a_dirty_close_with_its_rule(post, client):
    """B7: "a side may close only with a clean burraco"."""
    sheet = new_sheet(post, "burraco", variant="reale")
    hand = {"s0_mode": "parts", "s0_table": "100", "s0_dirty": "1", "s0_pozzetto": "taken",
            "s1_mode": "parts", "s1_table": "60", "s1_hand": "40", "s1_pozzetto": "taken",
            "closer": "0", "version": "0"}
    page = parsed(post(f"{sheet}/hands", hand))
    error = page.select_one(".error")
    assert "only with a clean burraco" in error.get_text()
    assert error.select_one("a.why")["href"] == "/rules/burraco#variant-reale"


def test_the_classic_burraco_panel_has_no_nobile(post, client):
    page = parsed(client.get(new_sheet(post, "burraco")))
    assert not page.select("input[name=s0_nobile]")


def test_burkosel_lost_at_six_ends_the_match_there(post, client):
    """D12: "lost at 12 (default), or at 8 or 6 for a shorter evening"."""
    sheet = new_sheet(post, "burkosel", ["Anna", "Ben"], losing_total="6")
    for _game in range(2):
        response = post(f"{sheet}/hands", {"u0_points": "90", "u0_tricks": "5",
                                           "u1_points": "30", "u1_tricks": "2",
                                           "version": str(_game)})
        assert response.status_code == 303
    banner = parsed(client.get(sheet)).select_one(".banner")
    assert "reached 6 penalty points and lost" in banner.get_text()


def test_a_burkosel_length_the_sheet_does_not_offer_is_refused(post):
    page = parsed(post("/burkosel/new", {"players": ["Anna", "Ben"], "dealer": "0",
                                       "action": "start", "losing_total": "10"}))
    assert "lost at 12, 8 or 6" in page.select_one(".error").get_text()


def test_a_buraco_stbl_sheet_with_canastras_reais_counts_them(post, client):
    """C5: STBL with *canastras reais*: a clean run A–K 500 in place of the clean bonus."""
    sheet = new_sheet(post, "buraco", variant="stbl", canastras_reais="on")
    page = parsed(client.get(sheet))
    assert page.select("input[name=s0_real]") and page.select("input[name=s0_ace]")
    hand = {"s0_mode": "parts", "s0_table": "110", "s0_real": "1", "s0_dead_pile": "taken",
            "s1_mode": "parts", "s1_table": "95", "s1_dirty": "1", "s1_hand": "25",
            "s1_dead_pile": "taken", "closer": "0", "version": "0"}
    assert post(f"{sheet}/hands", hand).status_code == 303
    assert totals(client.get(sheet)) == [str(110 + 500 + 100), str(95 + 100 - 25)]


@pytest.mark.parametrize("game, options, expected", [
    ("buraco", {"variant": "stbl", "canastras_reais": True},
     {"variant": "stbl", "canastras_reais": True, "clean_to_go_out": True}),
    ("burraco", {"variant": "reale", "semipulito": True},
     {"variant": "reale", "semipulito": False}),
    ("burkosel", {"losing_total": 8}, {"losing_total": 8}),
])
def test_the_api_starts_a_match_of_each_preset(client, game, options, expected):
    response = client.post(MATCHES, json={"game": game, "players": FOUR[:2],
                                                     "options": options})
    assert response.status_code == 201, response.json
    assert expected.items() <= response.json["options"].items()


def test_the_burraco_checker_judges_a_reale_run(client):
    """B7: "reale (a clean run A–A, 14 cards) 1,000"."""
    cards = "AH 2H 3H 4H 5H 6H 7H 8H 9H 10H JH QH KH AH".replace(" ", "+")
    page = parsed(client.get(f"/burraco/meld?variant=reale&cards={cards}"))
    assert "Burraco reale, ace to ace: +1000" in page.select_one(".verdict").get_text()
    assert not page.select(".pick.joker")


def test_the_buraco_checker_judges_a_canastra_real(client):
    """C5: "a clean run A–K is worth 500"."""
    cards = "AH 2H 3H 4H 5H 6H 7H 8H 9H 10H JH QH KH".replace(" ", "+")
    page = parsed(client.get(f"/buraco/meld?variant=aberto&canastras_reais=on&cards={cards}"))
    assert "Canastra real, ace to king: +500" in page.select_one(".verdict").get_text()


def test_the_api_judges_a_burraco_nobile(client):
    cards = "AS 2S 3S 4S 5S 6S 7S 8S 9S 10S JS QS KS".split()
    response = client.post("/api/v1/burraco/meld", json={"cards": cards,
                                                         "options": {"variant": "reale"}})
    assert (response.json["burraco"], response.json["bonus"]) == ("nobile", 500)
