"""The start page at the table: a match in play comes before the game tiles.

Issue "At the table, round two", a: "'Continue' sits below five game tiles, 1.3 screens
down: when a match is running on this phone, 'Continue' comes first on the start page."
"""

import pytest
from helpers import GERMAN, MATCHES, parsed

SECTIONS = "main section[aria-labelledby]"


def headings(client, headers=None) -> list[str]:
    """The start page's sections in the order shown, by their heading's id."""
    page = parsed(client.get("/", headers=headers or {}))
    return [section["aria-labelledby"] for section in page.select(SECTIONS)]


def opened(client, limit: int, burros=()) -> str:
    token = client.post(MATCHES, json={"game": "burro", "players": ["Anna", "Ben"],
                                       "options": {"limit": limit}}).json["token"]
    for player in burros:
        client.post(f"{MATCHES}/{token}/hands", json={"burro": player})
    client.get(f"/m/{token}")
    return token


@pytest.mark.parametrize("headers", [{}, GERMAN])
def test_a_new_phone_sees_the_games_first(client, headers):
    assert headings(client, headers) == ["games-title", "nights-title", "check-title"]


@pytest.mark.parametrize("headers", [{}, GERMAN])
def test_a_match_in_play_comes_before_the_games(client, headers):
    opened(client, limit=5)
    assert headings(client, headers) == ["recent-title", "games-title", "nights-title", "check-title"]


def test_only_ended_matches_leave_the_games_first(client):
    opened(client, limit=1, burros=[1])
    assert headings(client) == ["games-title", "recent-title", "nights-title", "check-title"]
