"""The new-match form as a table fills it in: a row left empty is a player not there, and
each option shows where it applies.

Issue "At the table, round two", b: "A three-player new-match form with an empty fourth row
is refused instead of ignoring it." c: "'Other target' shows while 2005 is chosen" and
"'round halves up' is offered for four players".
"""

import pytest
from helpers import FORM_DEFAULTS, GERMAN, HTMX, parsed, shown


def start(post, game, players, dealer="0", headers=None):
    return post(f"/{game}/new", {"players": players, "dealer": dealer, "action": "start",
                                 **FORM_DEFAULTS.get(game, {})}, headers=headers or {})


def sheet_heading(client, response) -> str:
    assert response.status_code == 303, shown(response)
    return shown(parsed(client.get(response.headers["Location"])).select_one("h1"))


@pytest.mark.parametrize("game", ["burro", "burraco", "buraco", "bura", "burkosel"])
def test_an_empty_fourth_row_is_a_player_not_there(post, client, game):
    response = start(post, game, ["Anna", "Ben", "Carla", ""])
    assert sheet_heading(client, response).endswith("Anna, Ben, Carla")


def test_rows_of_spaces_between_names_are_left_out_and_the_dealer_follows(post, client):
    response = start(post, "burro", ["Anna", "  ", "Ben", ""], dealer="2")
    sheet = parsed(client.get(response.headers["Location"]))
    assert shown(sheet.select_one("h1")).endswith("Anna, Ben")
    assert "Hand 1: Ben deals, Anna leads." in shown(sheet)


def test_a_ticked_empty_row_leaves_the_deal_to_the_first_player(post, client):
    response = start(post, "burro", ["Anna", "Ben", "Carla", ""], dealer="3")
    assert "Hand 1: Anna deals, Ben leads." in shown(parsed(client.get(
        response.headers["Location"])))


@pytest.mark.parametrize("headers, message", [
    ({}, "A match needs 2 to 4 players, not 1."),
    (GERMAN, "Eine Partie braucht 2 bis 4 Spieler, nicht 1."),
])
def test_too_few_names_are_refused_and_every_row_comes_back(post, headers, message):
    response = start(post, "burraco", ["", "Anna", "", ""], headers=headers)
    assert response.status_code == 422
    page = parsed(response)
    assert message in shown(page).replace("\u00a0", " ")
    assert [field["value"] for field in page.select("input[name=players]")] == ["", "Anna", "", ""]


def test_an_htmx_start_ignores_empty_rows_too(post):
    response = start(post, "burraco", ["Anna", "Ben", "", "Carla"], headers=HTMX)
    assert response.status_code == 200 and response.headers["HX-Redirect"].startswith("/m/")


def form_of(client, game, headers=None):
    return parsed(client.get(f"/{game}/new", headers=headers or {}))


@pytest.mark.parametrize("game, chosen", [("burraco", "2005"), ("buraco", "3000")])
@pytest.mark.parametrize("headers", [{}, GERMAN])
def test_the_typed_target_belongs_to_the_other_choice(client, game, chosen, headers):
    """The field sits with its choices, which app.css shows only while "other" is picked."""
    choice = form_of(client, game, headers).select_one(".target-choice")
    assert choice.select_one("input[name=target_choice]:checked")["value"] == chosen
    assert choice.select_one(".other-target input[name=target]")["value"] == ""


def test_a_typed_target_comes_back_with_other_picked(post):
    page = parsed(post("/burraco/new", {"players": ["Anna", "Ben"], "target_choice": "custom",
                                        "target": "1500", "action": "add"}))
    choice = page.select_one(".target-choice")
    assert choice.select_one("input[name=target_choice]:checked")["value"] == "custom"
    assert choice.select_one(".other-target input")["value"] == "1500"


def halves_choice(page):
    return page.select_one('label[data-players="3"]')


@pytest.mark.parametrize("headers", [{}, GERMAN])
def test_round_halves_is_not_offered_to_four_rows(client, headers):
    choice = halves_choice(form_of(client, "burraco", headers))
    assert choice.has_attr("hidden") and choice.input.has_attr("disabled")


@pytest.mark.parametrize("players", [["Anna", "Ben", "Carla"], ["Anna", "", "Ben", "Carla"]])
def test_round_halves_is_offered_to_three_players(post, players):
    page = parsed(post("/burraco/new", {"players": players, "action": "up-1"}, headers=HTMX))
    choice = halves_choice(page)
    assert not choice.has_attr("hidden") and not choice.input.has_attr("disabled")
    assert "round halves up" in shown(choice)


def test_three_players_keep_round_halves_when_started(post, client):
    response = post("/burraco/new", {"players": ["Anna", "Ben", "Carla", ""], "dealer": "0",
                                     "round_halves": "on", "action": "start"})
    assert response.status_code == 303
    token = response.headers["Location"].rsplit("/", 1)[1]
    assert client.get(f"/api/v1/matches/{token}").json["options"]["round_halves"] is True
