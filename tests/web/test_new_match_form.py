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
