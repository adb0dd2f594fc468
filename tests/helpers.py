"""What the tests of the web, ops and browser lanes share: the project's folder, matches
started through the API or a new-match form, pages read as a browser reads them, and
databases made as older releases or other programs left them, or damaged."""

import http.client
import json
import os
import random
import re
import sqlite3
import xml.etree.ElementTree as ET
from pathlib import Path

import segno
import sqlite_utils
from bs4 import BeautifulSoup, SoupStrainer, Tag

import store
from views.api.docs import VIEWER

ROOT = Path(__file__).resolve().parent.parent
DOCS = "/api/v1/docs"
VERSIONED_VIEWER = re.compile(
    rf"/static/{re.escape(VIEWER)}/swagger-ui(-bundle)?\.[0-9a-f]{{10}}\.(js|css)")
MATCHES = "/api/v1/matches"
EVENTS = "/api/v1/events"
GERMAN = {"Accept-Language": "de-DE,de;q=0.9"}
HTMX = {"HX-Request": "true"}
THREE = ["Anna", "Ben", "Carla"]
FOUR = ["Anna", "Ben", "Carla", "Dan"]
SVG = "{http://www.w3.org/2000/svg}"
TOKEN_FIELD = SoupStrainer("input", attrs={"name": "csrf_token"})
# A Burro match of three with no hand yet, whose limit no evening's hands reach.
OPEN_BURRO = {"hands": 0, "players": THREE, "limit": 99}

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


# --- Answers as a browser reads them ------------------------------------------------------

def text(response) -> str:
    """An answer's body as text (markup and all)."""
    return response.get_data(as_text=True)


def parsed(response) -> BeautifulSoup:
    """An answer's HTML as a browser reads it, to ask for elements, not for strings."""
    return BeautifulSoup(text(response), "html.parser")


def _read(page) -> Tag:
    """``page`` if already parsed (a page or an element), else the answer parsed."""
    return page if isinstance(page, Tag) else parsed(page)


def shown(page) -> str:
    """The text a player reads on a page or in an element, its spaces collapsed (not NBSP)."""
    return re.sub(r"[ \t\r\n\f]+", " ", _read(page).get_text()).strip()


def inline_scripts(page) -> list[Tag]:
    """The scripts a page would run from its own text; the import map, which names where
    modules come from and runs nothing, is none of them."""
    return [script for script in _read(page).find_all("script")
            if not script.get("src") and script.get("type") != "importmap"]


def root(page) -> Tag:
    """The first element of an answer: what an htmx swap puts in place."""
    return _read(page).find(True)


def standings(page) -> list[tuple[str, str]]:
    """The sheet's scoreboard as the players read it: each side's name and total, in order."""
    return [(side.select_one(".name").get_text(strip=True),
             side.select_one(".total").get_text(strip=True))
            for side in _read(page).select("ol.totals > li")]


def totals(page) -> list[str]:
    """The totals on the sheet's scoreboard, in the order of its sides."""
    return [total for _name, total in standings(page)]


def tap_sums(page) -> list[str]:
    """The sums the panel's tap counters show, of those tapped or typed into."""
    return [sum_text for line in _read(page).select(".sum-text") if (sum_text := shown(line))]


def form_value(page, name: str) -> str | None:
    """What the input ``name`` sends as the page stands (a radio's or box's if ticked)."""
    for field in _read(page).select(f'input[name="{name}"]'):
        if field.get("type") not in ("radio", "checkbox"):
            return field.get("value", "")
        if field.has_attr("checked"):
            return field.get("value", "on")
    return None


def form_token(response) -> str:
    """The form token a page hands out, as a browser would send it."""
    # Read for nearly every form a test posts: its field alone is parsed.
    return BeautifulSoup(text(response), "html.parser", parse_only=TOKEN_FIELD).input["value"]


def csrf_token(client, page: str = "/") -> str:
    """The form token ``page`` hands out to this phone."""
    return form_token(client.get(page))


def post_form(client, url: str, data=None, **kwargs):
    """POST a form the way a page does: with the form token the home page carries."""
    return client.post(url, data={"csrf_token": csrf_token(client), **(data or {})}, **kwargs)


# --- Matches ------------------------------------------------------------------------------

def start(client, game: str = "burro", hands: int = 1, players=FOUR, **options) -> dict:
    """A match with ``hands`` hands saved through the API; its answer (tokens included)."""
    started = client.post(MATCHES, json={"game": game, "players": list(players),
                                         "options": options})
    assert started.status_code == 201, started.json
    token = started.json["token"]
    for _ in range(hands):
        assert client.post(f"{MATCHES}/{token}/hands", json=HANDS[game]).status_code == 201
    return client.get(f"{MATCHES}/{token}").json | {"token": token}


# What a new-match form sends of its fields left as they are, where the game needs them.
FORM_DEFAULTS = {
    "burro": {"limit": "5", "variant": "classic"},
    "buraco": {"red_threes": "on", "going_out_bonus": "on", "dead_pile_penalty": "on"},
}


def new_sheet(post, game: str = "burro", players=FOUR, **form) -> str:
    """A match started through the game's new-match form; the path of its sheet."""
    response = post(f"/{game}/new", {"players": list(players), "dealer": "0",
                                     "action": "start", **FORM_DEFAULTS.get(game, {}), **form})
    assert response.status_code == 303, shown(response)
    return response.headers["Location"]


def enter_burro_hand(client, match: dict, key: str | None = None):
    """The next Burro hand of ``match`` (Anna the burro), with an Idempotency-Key if given."""
    headers = {"Idempotency-Key": key} if key else {}
    return client.post(f"{MATCHES}/{match['token']}/hands", json={"burro": 0}, headers=headers)


def saved_by_another_worker(app, match: dict, hand: dict) -> None:
    """``hand`` stored through a connection of its own, as another server process would."""
    other_worker = store.connect(app.config["DATABASE"])
    try:
        saved = store.get_match(other_worker, match["token"])
        store.add_hand(other_worker, saved, hand, saved.version)
    finally:
        other_worker.close()


def api_over_http(port: int, method: str, path: str, body=None, timeout: float = 5.0) -> dict:
    """The JSON answer of a served app on ``port`` to ``method path`` with ``body``."""
    connection = http.client.HTTPConnection("127.0.0.1", port, timeout=timeout)
    try:
        connection.request(method, path, body=None if body is None else json.dumps(body),
                           headers={"Content-Type": "application/json"})
        return json.loads(connection.getresponse().read())
    finally:
        connection.close()


def api_totals(client, match: dict) -> list[int]:
    """A match's totals as the API answers them."""
    return client.get(f"{MATCHES}/{match['token']}").json["totals"]


def rule_hits(client, query: str, **params) -> list[dict]:
    """The rules search's hits for ``query``, as the API answers them."""
    response = client.get("/api/v1/rules/search", query_string={"q": query, **params})
    assert response.status_code == 200
    return response.json["hits"]


# --- What the database holds --------------------------------------------------------------

def count_rows(app, table: str) -> int:
    """How many rows ``table`` of the app's database holds."""
    with app.app_context():
        return store.get_db().execute(f"SELECT count(*) FROM {table}").fetchone()[0]


def stored(app, tables=("matches", "players", "entries")) -> dict:
    """Every row of these tables, to compare before and after."""
    with app.app_context():
        db = store.get_db()
        return {table: list(db.query(f"SELECT * FROM {table} ORDER BY 1")) for table in tables}


def text_file(path) -> None:
    """A text file where a database should be."""
    with open(path, "w") as file:
        file.write("Anna 120, Ben 95\n" * 100)


def another_apps_database(path) -> None:
    """Another program's SQLite database where ours should be."""
    with sqlite3.connect(path) as db:
        db.execute("CREATE TABLE matches (kickoff TEXT, home TEXT, away TEXT)")


def _pages_of(path, name: str) -> list[int]:
    """The numbers of the pages the table or index ``name`` takes up in the file, which
    holds every change (its write-ahead log copied in)."""
    with sqlite3.connect(path) as db:
        db.execute("PRAGMA wal_checkpoint(TRUNCATE)")
        return [page for (page,) in db.execute("SELECT pageno FROM dbstat WHERE name = ?",
                                               [name])]


def _overwrite(path, page: int, change) -> None:
    """Page ``page`` (from 1) of the file as ``change(old bytes)`` makes it."""
    size = 4096
    with open(path, "r+b") as file:
        file.seek((page - 1) * size)
        old = file.read(size)
        file.seek((page - 1) * size)
        file.write(change(old))


def cut_short(path) -> None:
    """The database file cut to half its length, as a full disk or a bad copy leaves it."""
    _pages_of(path, "matches")
    os.truncate(path, os.path.getsize(path) // 2)


def garbled_matches(path) -> None:
    """A page of the matches' rows overwritten with noise."""
    noise = random.Random(1).randbytes
    _overwrite(path, _pages_of(path, "matches")[0], lambda old: noise(len(old)))


def misspelled_in_its_index(token: str):
    """A damage to the index of the matches' links that changes one letter of ``token``
    there: the file's structure is sound, but that link is no longer found by it."""
    def damage(path) -> None:
        for page in _pages_of(path, "idx_matches_token"):
            def misspell(old: bytes) -> bytes:
                other = b"A" if token[-1] != "A" else b"B"
                return old.replace(token.encode(), token[:-1].encode() + other)
            _overwrite(path, page, misspell)
    return damage


def older_database(path, steps: int) -> None:
    """A database as an older release, knowing the first ``steps`` migrations, left it."""
    db = sqlite_utils.Database(str(path))
    db.enable_wal()
    store.MIGRATIONS.apply(db, stop_before=store.STEPS[steps].__name__)
    db.close()


# --- QR codes -----------------------------------------------------------------------------

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
