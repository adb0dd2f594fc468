"""What the tests of the web, ops and browser lanes share: the project's folder, a match
started through the API, a page's form token, a page parsed as a browser reads it, and
databases made as older releases or other programs left them."""

import re
import sqlite3
import xml.etree.ElementTree as ET
from pathlib import Path

import segno
import sqlite_utils
from bs4 import BeautifulSoup

import store
from views.api.docs import VIEWER

ROOT = Path(__file__).resolve().parent.parent
DOCS = "/api/v1/docs"
VERSIONED_VIEWER = re.compile(
    rf"/static/{re.escape(VIEWER)}/swagger-ui(-bundle)?\.[0-9a-f]{{10}}\.(js|css)")


def parsed(response) -> BeautifulSoup:
    """An answer's HTML as a browser reads it, to ask for elements, not for strings."""
    return BeautifulSoup(response.get_data(as_text=True), "html.parser")


CSRF_FIELD = re.compile(r'name="csrf_token" value="([^"]+)"')


def csrf_token(client, page: str = "/") -> str:
    """The form token a page hands out, as a browser would read it."""
    return CSRF_FIELD.search(client.get(page).get_data(as_text=True)).group(1)


MATCHES = "/api/v1/matches"


GERMAN = {"Accept-Language": "de-DE,de;q=0.9"}


HTMX = {"HX-Request": "true"}


FOUR = ["Anna", "Ben", "Carla", "Dan"]


SVG = "{http://www.w3.org/2000/svg}"


# One hand of each game, as its API takes it.
HANDS = {
    "burro": {"burro": 2},
    "burraco": {"sides": [
        {"table_points": 120, "clean_burracos": 1, "dirty_burracos": 0, "hand_points": 10,
         "pozzetto": "taken", "closed": True},
        {"table_points": 95, "clean_burracos": 0, "dirty_burracos": 1, "hand_points": 40,
         "pozzetto": "taken", "closed": False}]},
    "bura": {"outcome": "right_claim", "player": 1},
    "burkosel": {"card_points": [95, 25], "tricks": [5, 2]},
    "buraco": {"sides": [
        {"table_points": 250, "clean_buracos": 1, "red_threes": 1, "hand_points": 0,
         "dead_pile": "taken", "went_out": True},
        {"table_points": 80, "hand_points": 30, "dead_pile": "taken", "went_out": False}]},
}


def start(client, game: str = "burro", hands: int = 1, **options) -> dict:
    """A match with ``hands`` hands saved through the API; its answer (tokens included)."""
    started = client.post(MATCHES, json={"game": game, "players": FOUR, "options": options})
    token = started.json["token"]
    for _ in range(hands):
        assert client.post(f"{MATCHES}/{token}/hands", json=HANDS[game]).status_code == 201
    return client.get(f"{MATCHES}/{token}").json | {"token": token}


def text(response) -> str:
    return response.get_data(as_text=True)


def dark_modules(svg: bytes) -> set[tuple[int, int]]:
    """The dark squares a QR code's SVG draws (segno draws runs of them as lines)."""
    path = ET.fromstring(svg).find(f"{SVG}path[@stroke]")
    x = y = 0.0
    dark = set()
    for command, first, second in re.findall(r"([Mmh])(-?[\d.]+)(?: (-?[\d.]+))?",
                                             path.get("d")):
        if command == "M":
            x, y = float(first), float(second)
        elif command == "m":
            x, y = x + float(first), y + float(second)
        else:
            dark.update((int(x) + step, int(y)) for step in range(int(first)))
            x += float(first)
    return dark


def qr_of(url: str) -> set[tuple[int, int]]:
    """The dark squares of a QR code of ``url``, inside its quiet zone of four squares."""
    matrix = segno.make(url, error="m").matrix
    return {(column + 4, row + 4) for row, cells in enumerate(matrix)
            for column, dark in enumerate(cells) if dark}


def start_burro(client) -> dict:
    """A new Burro match through the API."""
    answer = client.post(MATCHES, json={"game": "burro", "players": ["Anna", "Ben", "Carla"],
                                        "options": {"limit": 99}})
    assert answer.status_code == 201, answer.json
    return answer.json


def enter_burro_hand(client, match: dict, key: str | None = None):
    """The next Burro hand of ``match`` (Anna is left holding cards), with an
    ``Idempotency-Key`` if given."""
    headers = {"Idempotency-Key": key} if key else {}
    return client.post(f"{MATCHES}/{match['token']}/hands", json={"burro": 0}, headers=headers)


def totals(client, match: dict) -> list[int]:
    return client.get(f"{MATCHES}/{match['token']}").json["totals"]


def text_file(path) -> None:
    with open(path, "w") as file:
        file.write("Anna 120, Ben 95\n" * 100)


def another_apps_database(path) -> None:
    with sqlite3.connect(path) as db:
        db.execute("CREATE TABLE matches (kickoff TEXT, home TEXT, away TEXT)")


def older_database(path, steps: int) -> None:
    """A Tablemate database as an older release, which knew only the first ``steps``
    migration steps, left it."""
    db = sqlite_utils.Database(str(path))
    db.enable_wal()
    store.MIGRATIONS.apply(db, stop_before=store.STEPS[steps].__name__)
    db.close()
