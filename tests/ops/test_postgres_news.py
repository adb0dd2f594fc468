"""News across servers: two servers, each as `make run` starts it, on one PostgreSQL
database; a hand saved through one reaches a phone whose stream the other holds, told by
PostgreSQL's NOTIFY as the hand commits."""

import socket
import time

import postgres_cluster
from helpers import api_over_http
from test_server import read_event, read_until

from benchmarks.serve import TABLEMATE, served
from store.news import news_id

# What a phone on another server may wait for a hand saved at the table.
AT_ONCE = 1.0  # seconds
# Only a bound for a failure: the test waits on the event, not for this long.
DEADLINE = 10.0  # seconds


def port_of(address: str) -> int:
    return int(address.rsplit(":", 1)[1])


def test_a_hand_saved_through_one_server_reaches_a_stream_held_by_another_within_a_second(
        postgres_made):
    postgres_cluster.emptied(postgres_made)
    with served(TABLEMATE, postgres_made) as first, served(TABLEMATE, postgres_made) as second:
        saving, watching = port_of(first), port_of(second)
        token = api_over_http(saving, "POST", "/api/v1/matches",
                              {"game": "burro", "players": ["A", "B"]})["token"]
        with socket.create_connection(("127.0.0.1", watching)) as stream:
            stream.sendall(f"GET /m/{token}/events?seen={news_id(0, None, False)} HTTP/1.1\r\n"
                           "Host: 127.0.0.1\r\n\r\n".encode())
            read_until(stream, lambda received: b"retry:" in received,
                       time.monotonic() + DEADLINE)
            saved = time.monotonic()
            answer = api_over_http(saving, "POST", f"/api/v1/matches/{token}/hands",
                                   {"burro": 1})
            event = read_event(stream, saved + DEADLINE)
            heard = time.monotonic() - saved
    assert answer["version"] == 1
    assert f"id: {news_id(1, None, False)}" in event
    assert heard < AT_ONCE, f"the other server's phone heard of the hand after {heard:.2f} s"


def test_a_game_saved_through_one_server_reaches_a_room_screen_held_by_another(postgres_made):
    """A club night's screen hears every table's match, whichever server the table saves
    through: its stream waits on the news of all of them."""
    postgres_cluster.emptied(postgres_made)
    with served(TABLEMATE, postgres_made) as first, served(TABLEMATE, postgres_made) as second:
        saving, watching = port_of(first), port_of(second)
        night = api_over_http(saving, "POST", "/api/v1/events", {
            "pairs": ["Anna & Carla", "Bruno & Dario", "Elena & Fabio", "Gina & Hugo"],
            "movement": "mitchell", "turns": 2, "hands": 3})
        table = night["turns"][0]["tables"][1]
        with socket.create_connection(("127.0.0.1", watching)) as stream:
            # Two tables, both at version 0: the screen has seen the night as it began.
            stream.sendall(f"GET /s/{night['view_token']}/events?seen=2.0 HTTP/1.1\r\n"
                           "Host: 127.0.0.1\r\n\r\n".encode())
            read_until(stream, lambda received: b"retry:" in received,
                       time.monotonic() + DEADLINE)
            saved = time.monotonic()
            api_over_http(saving, "POST", f"/api/v1/matches/{table['token']}/hands",
                          {"sides": [{"total": 410}, {"total": 155}]})
            event = read_event(stream, saved + DEADLINE)
            heard = time.monotonic() - saved
    assert "id: 2.1" in event and "Playing: game 2 of 3" in event
    assert heard < AT_ONCE, f"the room's screen heard of the game after {heard:.2f} s"
