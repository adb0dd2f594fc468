"""Every form and API route under random and hostile input (issue #12, point 7: "a fuzz test
with hypothesis over every form and API route (with valid CSRF tokens and versions as well
as without): no 5xx, and a refused request changes nothing stored").

Each route of the app's URL map has a strategy here, found by its endpoint and method: a
route added without one fails ``test_every_route_has_a_strategy``. Besides their bodies and
queries, requests bring hostile Host headers, import documents with times at and beyond
either end of the calendar, and counted hands with counts out of range: each of these once
answered 500 or lost its message. And whatever Host one phone names, the other phones'
links and news are their own.
"""

import io
import json
import os
from dataclasses import dataclass, field, replace
from datetime import datetime, timedelta, timezone
from urllib.parse import quote, urlencode

import pytest
from helpers import MATCHES, csrf_token, parsed, shown, stored
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import store
from app import create_app
from scoring.games import GAMES
from scoring.values import parse_int

# Whatever hypothesis draws for a form's or query's version: the sheet's current one.
CURRENT = "<current version>"

# --- Values: plausible, hostile, and shapes the endpoints do not take -------------------

HUGE_NUMBERS = st.sampled_from([2**31, 2**63, 2**64, -(2**63), 10**30, 10**300])
HOSTILE_TEXT = st.one_of(
    st.text(max_size=40),
    # Lone surrogates, control, invisible, private and unassigned characters, line breaks.
    st.text(st.characters(categories=["Cs", "Cc", "Cf", "Co", "Cn", "Zl", "Zp"]), max_size=8),
    st.sampled_from(["\ud800", "\u202eanna", "An\u200bna", "<b>x</b>", "9" * 5000,
                     "-", "1e999", "NaN", "../../etc/passwd", "\x00", " ", "", "null"]),
    HUGE_NUMBERS.map(str),
)
SMALL_NUMBERS = st.integers(-3, 130)
LEAF = st.one_of(SMALL_NUMBERS, HUGE_NUMBERS, st.booleans(), st.none(),
                 st.floats(allow_nan=True, allow_infinity=True), HOSTILE_TEXT)
# The words the app's forms, queries and bodies use: random input that reaches the rules.
WORDS = ["burro", "winner", "outcome", "choose", "player", "cards", "add", "back", "clear",
         "pass", "check", "instant_win", "u0_points", "u1_points", "u0_tricks", "u1_tricks",
         "s0_mode", "s0_total", "s0_table", "s0_hand", "s0_unseen", "s0_pozzetto",
         "s0_dead_pile", "s0_clean", "s0_dirty", "s0_red", "s0_semi", "s0_table_joker",
         "s1_mode", "s1_total", "s1_table", "s1_hand", "s1_pozzetto", "s1_dead_pile",
         "s2_mode", "s2_total", "closer", "alone", "press", "number", "only", "entry", "key",
         "title", "next", "lang", "players", "dealer", "action", "limit", "variant",
         "wins_target", "target", "target_choice", "ante", "start_chips", "semipulito",
         "round_halves", "moscow", "three_aces_win", "little_moscow", "minimum_first_meld",
         "deck", "plays", "trump", "front", "response", "onto", "swap", "declared", "pot",
         "into", "table", "mode", "q", "game", "again", "saved", "undone", "edited",
         "deleted", "version", "sides", "options", "table_points", "hand_points",
         "clean_burracos", "dirty_burracos", "pozzetto", "closed", "went_out", "total",
         "card_points", "tricks", "format", "format_version", "entries", "status", "data",
         "created_at", "ended_at"]
WORD_VALUES = ["taken", "not_taken", "unseen", "claim", "right_claim", "wrong_claim", "bura",
               "no_claim", "moscow", "three_aces", "total", "parts", "none", "start",
               "add", "remove-0", "up-1", "down-0", "tap:0:table:joker:1", "step:1:clean:-1",
               "sign:0", "mode:1:total", "clear:0:hand", "preview", "AS 10S KH", "7H 8H JK",
               "H", "40", "52", "seed", "brazilian", "aberto", "portuguese", "de", "en",
               "on", "/", "//evil.example", "0", "1", "2", "3", "5", "60", "120", "-35", CURRENT]
TEXT = st.one_of(st.sampled_from(WORD_VALUES), SMALL_NUMBERS.map(str), HOSTILE_TEXT)
KEYS = st.one_of(st.sampled_from(WORDS), HOSTILE_TEXT)
JSON_VALUES = st.recursive(
    LEAF | st.sampled_from(WORD_VALUES),
    lambda children: st.lists(children, max_size=4)
    | st.dictionaries(KEYS, children, max_size=4), max_leaves=12)


# Host headers: names and addresses a server may have, and names no server has (an empty or
# over-long label, a name over 253 characters, characters no name holds, a bad port).
LABELS = st.text("ab9-", max_size=66)
PORTS = st.one_of(st.none(), st.integers(-1, 70_000).map(str),
                  st.sampled_from(["", "http", "08"]))
HOSTS = st.one_of(
    st.sampled_from(["localhost", "evil.example", "192.0.2.7:5000", "[::1]:5000", "[::g]",
                     "laptop.local.", "scores..example.org", "ex_ample.org", "scörës.example",
                     "ex ample.org", "example.org/m", ("a" * 60 + ".") * 5 + "org", ""]),
    st.builds(lambda labels, port: ".".join(labels) + ("" if port is None else f":{port}"),
              st.lists(LABELS, min_size=1, max_size=5), PORTS),
    # Any text a header can carry (no line break).
    st.text(st.characters(min_codepoint=0x20, max_codepoint=0xFF), max_size=30),
)
# A phone that names the address it really came to.
HONEST_HOST = "192.0.2.7:5000"

# Times written with an offset of up to a day either way: mostly the first or the last
# second UTC writes, which an offset carries past the end (such a one overflowed on its
# way into UTC), and any other.
EDGES = st.sampled_from([datetime(1, 1, 1), datetime(9999, 12, 31, 23, 59, 59)])
TIMES = st.builds(
    lambda moment, minutes: moment.replace(
        tzinfo=timezone(timedelta(minutes=minutes))).isoformat(),
    st.one_of(EDGES, EDGES, st.datetimes()), st.integers(-(24 * 60 - 1), 24 * 60 - 1))

# The counts of a counted hand, in the API's names: within the steppers' range, just past
# it, or far off (a count out of range once reached the rules as 0, or lost its message).
COUNTS = {"burraco": ("clean_burracos", "dirty_burracos"),
          "buraco": ("clean_buracos", "dirty_buracos", "red_threes", "real_buracos",
                     "ace_to_ace_buracos")}
COUNT_VALUES = st.one_of(st.integers(-2, 17), HUGE_NUMBERS)
# The same counts as a sheet's panel sends them.
STEPPERS = ("clean", "dirty", "red", "semi", "real", "ace", "nobile", "reale")


def deep(levels: int) -> bytes:
    return b"[" * levels + b"]" * levels


RAW_BODIES = st.sampled_from([deep(40), deep(30_000), b'{"a": "\\ud800"}', b"not json",
                              b"\xff\xfe{}", b"", b"[]", b"null", b'{"version": 1e999}',
                              b'{"version": ' + b"9" * 5000 + b"}",
                              b'{"players": ["\\udfff", "Ben"], "game": "burro"}'])


@dataclass
class Call:
    """One request: method, path, and a form, JSON body, raw body or file to send."""

    method: str
    path: str
    query: list = field(default_factory=list)
    form: list | None = None
    body: object = None
    raw: bytes | None = None
    upload: bytes | None = None
    headers: dict = field(default_factory=dict)
    # A stream of news: its first event read, then closed, as a phone that goes away.
    stream: bool = False


@dataclass
class Table:
    """The app with a match of every game (a few hands in each), and what a phone knows."""

    app: object
    client: object
    tokens: dict            # game → edit token
    view_tokens: dict       # game → view token
    csrf: str
    document: dict          # an exported match
    start: dict = field(default_factory=dict)   # the stored rows to begin every request
    # A club night: the organiser's and the screen's tokens, its first table (played to its
    # end, so that it can be confirmed), the pairs' codes, and the night as exported.
    night: str = "night"
    night_view: str = "night-view"
    night_match: str = "night-match"
    night_codes: tuple = ()
    night_document: dict = field(default_factory=dict)

    def version(self, token: str) -> int:
        with self.app.app_context():
            db = store.get_db()
            state = store.match_state(db, token, False) or store.match_state(db, token, True)
            return state[1] if state else 0


GOOD_HANDS = {
    "burro": {"burro": 1},
    "burraco": {"sides": [{"table_points": 120, "clean_burracos": 1, "hand_points": 10,
                           "pozzetto": "taken", "closed": True},
                          {"table_points": 95, "dirty_burracos": 1, "hand_points": 40,
                           "pozzetto": "taken", "closed": False}]},
    "bura": {"outcome": "wrong_claim", "player": 1},
    "burkosel": {"card_points": [95, 25], "tricks": [5, 2]},
    "buraco": {"sides": [{"table_points": 150, "clean_buracos": 1, "red_threes": 1,
                          "dead_pile": "taken", "went_out": True},
                         {"table_points": 95, "dirty_buracos": 1, "hand_points": 25,
                          "dead_pile": "taken", "went_out": False}]},
}


@pytest.fixture(scope="module")
def table(tmp_path_factory) -> Table:
    # Every route's examples come from one address within a minute or two: counted against
    # quotas they stay below, so that every example reaches its route.
    app = create_app({"TESTING": True, "SECRET_KEY": "test",
                      "MATCHES_PER_CLIENT": "1000 per minute",
                      "IMPORTS_PER_CLIENT": "1000 per minute",
                      "CONFIRMS_PER_CLIENT": "1000 per minute",
                      "DATABASE": str(tmp_path_factory.mktemp("fuzz") / "tablemate.sqlite")})
    client = app.test_client()
    tokens, view_tokens = {}, {}
    for game in GAMES:
        players = ["Anna", "Ben", "Carla", "Dario"][:2 if game == "burro" else 4]
        options = {"limit": 99} if game == "burro" else {}
        match = client.post(MATCHES, json={"game": game, "players": players,
                                           "options": options}).json
        tokens[game], view_tokens[game] = match["token"], match["view_token"]
        for _hand in range(2):
            client.post(f"{MATCHES}/{match['token']}/hands", json=GOOD_HANDS[game])
    document = client.get(f"{MATCHES}/{tokens['bura']}/export").json
    night = client.post(EVENTS, json=NIGHT).json
    first = night["turns"][0]["tables"][0]
    for _hand in range(NIGHT["hands"]):
        client.post(f"{MATCHES}/{first['token']}/hands", json=GOOD_HANDS["burraco"])
    return Table(app, client, tokens, view_tokens, csrf_token(client), document,
                 stored(app, STORED), night["token"], night["view_token"], first["token"],
                 tuple(pair["code"] for pair in night["pairs"]),
                 client.get(f"{EVENTS}/{night['token']}/export").json)


# What the database keeps of the matches, their players, entries and device lists, and of
# the club nights, parents first.
STORED = ("matches", "players", "entries", "device_matches", "events", "event_turns",
          "event_tables", "confirmations", "device_events")
EVENTS = "/api/v1/events"
# A club night of four pairs, two tables, two turns of three games.
NIGHT = {"title": "Friday", "pairs": ["Anna & Carla", "Bruno & Dario", "Elena & Fabio",
                                      "Gina & Hugo"],
         "movement": "mitchell", "turns": 2, "hands": 3}
GOOD_NIGHT_FORM = [("title", "Friday"), ("pairs", "\n".join(NIGHT["pairs"])),
                   ("movement", "mitchell"), ("turns", "2"), ("hands", "3"),
                   ("table", "fibur"), ("step", "1")]


# --- Strategies per route ----------------------------------------------------------------

def often(good: st.SearchStrategy, bad: st.SearchStrategy) -> st.SearchStrategy:
    """Mostly ``good`` (to get past the first check), sometimes ``bad``."""
    return st.integers(0, 3).flatmap(lambda pick: bad if pick == 0 else good)


def segment(values) -> st.SearchStrategy:
    """A path segment: one of ``values`` or hostile text, quoted for the address."""
    return often(st.sampled_from(values), HOSTILE_TEXT | st.just("0")).map(
        lambda text: quote(text, safe="", errors="surrogatepass") or "x")


def numbers() -> st.SearchStrategy:
    return often(st.integers(0, 4), st.integers(0, 10**30)).map(str)


def pairs(values=TEXT) -> st.SearchStrategy:
    return st.lists(st.tuples(KEYS, values), max_size=6)


def hx_headers() -> st.SearchStrategy:
    return st.fixed_dictionaries({}, optional={
        "Host": HOSTS,
        "HX-Request": st.just("true"), "Accept-Language": st.sampled_from(["de", "en", "*"]),
        "Idempotency-Key": st.sampled_from(["k1", "k2", "x" * 200]),
        "If-None-Match": st.sampled_from(['W/"v1"', "*", "garbage"])})


def tokens(table: Table, kind: str = "any") -> st.SearchStrategy:
    """A match's edit or view token (a write with the view token is refused), or none."""
    known = {"edit": list(table.tokens.values()), "view": list(table.view_tokens.values())}
    if kind == "any":
        return often(segment(known["edit"]), segment(known["view"]))
    return segment(known[kind])


def night_links(table: Table) -> st.SearchStrategy:
    """A night's organiser or screen token (an organiser's action with the screen's is
    refused), a match's, or none."""
    return often(segment([table.night]),
                 segment([table.night_view, table.night_match, table.tokens["burraco"]]))


def night_get(table: Table, path: str, stream: bool = False) -> st.SearchStrategy:
    """A GET of a club night's page whose address holds ``{night}`` or ``{view}``."""
    calls = st.builds(
        lambda night, view, query, headers: Call(
            "GET", path.format(night=night, view=view), query=query, headers=headers),
        night_links(table), often(segment([table.night_view]), segment([table.night])),
        pairs(), hx_headers())
    return streamed(calls) if stream else calls


def night_post(table: Table, path: str, good: list) -> st.SearchStrategy:
    """A form posted to a club night's address (``{night}``, ``{match}``, ``{turn}``,
    ``{table}``), with or without a valid CSRF token: ``good``'s fields, changed or added
    to at random."""
    csrf = often(st.just([("csrf_token", table.csrf)]),
                 st.sampled_from([[], [("csrf_token", "forged")]]))

    def call(night, match, turn, number, token_field, fields, headers):
        return Call("POST", path.format(night=night, match=match, turn=turn, table=number),
                    form=token_field + good + fields, headers=headers)

    return st.builds(call, night_links(table),
                     often(segment([table.night_match]), tokens(table)), numbers(),
                     numbers(), csrf, pairs(), hx_headers())


def night_api(table: Table, path: str, good: dict) -> st.SearchStrategy:
    """A JSON write to a club night's address, as ``night_post``'s."""
    return st.builds(
        lambda night, match, turn, number, body, raw, headers: Call(
            "POST", path.format(night=night, match=match, turn=turn, table=number),
            body=body, raw=raw, headers=headers),
        night_links(table), often(segment([table.night_match]), tokens(table)), numbers(),
        numbers(), bodies(good), st.one_of(st.none(), st.none(), RAW_BODIES), hx_headers())


def page_get(table: Table, path: str) -> st.SearchStrategy:
    """A GET of a page whose address holds ``{token}``, ``{view}``, ``{game}``,
    ``{number}`` or ``{version}``, with a random query."""
    return st.builds(
        lambda token, view, game, number, version, query, headers: Call(
            "GET", path.format(token=token, view=view, game=game, number=number,
                               version=version), query=query, headers=headers),
        tokens(table, "edit"), tokens(table, "view"), segment(list(GAMES)), numbers(),
        st.one_of(numbers(), st.just(CURRENT)), pairs(), hx_headers())


# A sheet's form that saves a hand of each game, as its panel sends it.
GOOD_FORMS = {
    "burro": [("burro", "1")],
    "bura": [("outcome", "claim"), ("player", "1"), ("cards", "AS 10S KH")],
    "burkosel": [("u0_points", "95"), ("u1_points", "25"), ("u0_tricks", "5"),
                 ("u1_tricks", "2")],
    "burraco": [("s0_mode", "total"), ("s0_total", "100"), ("s1_table", "60"),
                ("s1_hand", "10"), ("s1_pozzetto", "taken"), ("closer", "0")],
    "buraco": [("s0_mode", "total"), ("s0_total", "100"), ("s1_table", "60"),
               ("s1_dead_pile", "taken"), ("s1_press", "tap:1:table:joker:1")],
}


def form_post(table: Table, path: str) -> st.SearchStrategy:
    """A form posted to ``path`` with or without a valid CSRF token and sheet version: a
    game's sheet form, its fields changed or added to at random."""
    csrf = often(st.just([("csrf_token", table.csrf)]),
                 st.sampled_from([[], [("csrf_token", "forged")]]))
    version = often(st.just([("version", CURRENT)]),
                    st.sampled_from([[], [("version", "0")], [("version", str(2**64))]]))

    def call(game, token, number, token_field, version_field, fields, headers):
        token = quote(table.tokens[game]) if token is None else token
        return Call("POST", path.format(token=token, number=number, game=game),
                    form=token_field + version_field + GOOD_FORMS[game] + fields,
                    headers=headers)

    return st.builds(call, st.sampled_from(sorted(GAMES)),
                     often(st.none(), tokens(table)), numbers(), csrf, version,
                     st.builds(list.__add__, stepper_counts(), pairs()), hx_headers())


def stepper_counts() -> st.SearchStrategy:
    """A panel's steppers, each side's, with counts in and out of their range or no number,
    and perhaps a press of one of them."""
    sides, names = st.integers(0, 2), st.sampled_from(STEPPERS)
    counts = st.lists(st.tuples(st.builds("s{}_{}".format, sides, names),
                                st.one_of(COUNT_VALUES.map(str), TEXT)), max_size=4)
    press = st.builds(lambda side, name, step: [("press", f"step:{side}:{name}:{step}")],
                      sides, names, st.sampled_from([-1, 1]))
    return st.builds(list.__add__, counts, st.one_of(st.just([]), press))


def mutated(good) -> st.SearchStrategy:
    """A body the endpoint takes, with one field made hostile (or one added)."""
    keys = sorted(good) if isinstance(good, dict) else []
    return st.builds(lambda key, value: {**good, key: value},
                     st.sampled_from([*keys, "version", "options"]), JSON_VALUES)


def counted(good: dict, names) -> st.SearchStrategy:
    """A counted hand the endpoint takes, with its sides' counts drawn from COUNT_VALUES."""
    def hand(counts):
        return {**good, "sides": [{**side, **chosen}
                                  for side, chosen in zip(good["sides"], counts)]}

    side_counts = st.dictionaries(st.sampled_from(names), COUNT_VALUES, min_size=1)
    return st.lists(side_counts, min_size=len(good["sides"]),
                    max_size=len(good["sides"])).map(hand)


def bodies(good, counts=()) -> st.SearchStrategy:
    extra = [counted(good, counts)] if counts else []
    return st.one_of(st.just(good), mutated(good), JSON_VALUES, *extra)


def api_post(path: str, good: dict, method: str = "POST", counts=(),
             documents=None) -> st.SearchStrategy:
    return st.builds(lambda body, raw, headers: Call(method, path, body=body, raw=raw,
                                                     headers=headers),
                     bodies(good, counts) if documents is None else documents,
                     st.one_of(st.none(), st.none(), RAW_BODIES), hx_headers())


def api_match_write(table: Table, method: str, suffix: str) -> st.SearchStrategy:
    """A write to a match through the API: its token, a hand of its game (or not)."""
    def call(game, token, number, body, raw, version, headers):
        if isinstance(body, dict) and version is not None:
            body = {**body, "version": version}
        path = f"{MATCHES}/{token}{suffix}".format(number=number)
        query = [("version", version)] if method == "DELETE" and version is not None else []
        return Call(method, path, query=query, body=body, raw=raw, headers=headers)

    return st.sampled_from(sorted(GAMES)).flatmap(lambda game: st.builds(
        call, st.just(game),
        often(st.just(quote(table.tokens[game])), tokens(table)), numbers(),
        bodies(GOOD_HANDS[game], COUNTS.get(game, ())),
        st.one_of(st.none(), st.none(), RAW_BODIES),
        often(st.sampled_from([None, CURRENT]), numbers() | HUGE_NUMBERS | HOSTILE_TEXT),
        hx_headers()))


def timed(document: dict) -> st.SearchStrategy:
    """The document with a time drawn from TIMES for its own, or an entry's start or end."""
    def put(where, position, time):
        if where is None:
            return {**document, "created_at": time}
        entries = [dict(entry) for entry in document["entries"]]
        entries[position % len(entries)][where] = time
        return {**document, "entries": entries}

    return st.builds(put, st.sampled_from([None, "created_at", "ended_at"]),
                     st.integers(0, 10), TIMES)


def documents(document: dict) -> st.SearchStrategy:
    """A match document: mostly with a time drawn, else as exported, with a field made
    hostile, or anything."""
    return often(timed(document), st.one_of(st.just(document), mutated(document),
                                            JSON_VALUES))


def upload(table: Table, path: str = "/import", files=None) -> st.SearchStrategy:
    """A file sent to an import page: the table's match document as ``documents`` varies
    it (or ``files``), or a body that is no document."""
    chosen = documents(table.document) if files is None else files
    files = st.one_of(chosen.map(lambda doc: json.dumps(doc).encode()), RAW_BODIES)
    return st.builds(lambda raw, csrf, headers: Call("POST", path, upload=raw,
                                                     form=[("csrf_token", csrf)],
                                                     headers=headers),
                     files, st.sampled_from([table.csrf, "forged"]), hx_headers())


def night_files(document: dict) -> st.SearchStrategy:
    """A night's file: as exported, with a field made hostile, or anything."""
    return st.one_of(st.just(document), mutated(document), JSON_VALUES)


CHECKER_BODIES = {
    "burro_trick": {"deck": "40", "plays": ["5H", "JH", "2H", "7H"]},
    "burraco_meld": {"cards": ["3H", "4H", "5H"], "options": {"semipulito": False}},
    "burraco_hand": GOOD_HANDS["burraco"],
    "buraco_meld": {"cards": ["QS", "QH", "QD", "JK"], "options": {"variant": "seed"}},
    "buraco_hand": {"options": {"variant": "seed"}, **GOOD_HANDS["buraco"]},
    "bura_claim": {"cards": ["AS", "10S", "KH"], "pot": 4},
    "bura_trick": {"trump": "H", "front": ["KC", "9C"], "response": ["AC", "6H"]},
    "bura_lead": {"cards": ["KC", "9C"]},
    "bura_combination": {"trump": "H", "cards": ["6H", "9H", "AH"]},
}


def strategies(table: Table) -> dict:
    """(endpoint, method) → the requests to try on it."""
    routes = {
        ("home.index", "GET"): page_get(table, "/"),
        ("home.favicon", "GET"): page_get(table, "/favicon.ico"),
        ("matches.new", "GET"): page_get(table, "/{game}/new"),
        ("matches.create", "POST"): form_post(table, "/{game}/new"),
        ("matches.show", "GET"): page_get(table, "/m/{token}"),
        ("live.sheet_events", "GET"): streamed(page_get(table, "/m/{token}/events")),
        ("live.sheet_news", "GET"): page_get(table, "/m/{token}/news"),
        ("live.watch_events", "GET"): streamed(page_get(table, "/v/{view}/events")),
        ("live.watch_news", "GET"): page_get(table, "/v/{view}/news"),
        ("matches.edit_hand", "GET"): page_get(table, "/m/{token}/hands/{number}"),
        ("matches.add_hand", "POST"): form_post(table, "/m/{token}/hands"),
        ("matches.replace_hand", "POST"): form_post(table, "/m/{token}/hands/{number}"),
        ("matches.restore_hand", "POST"): form_post(table,
                                                     "/m/{token}/hands/{number}/restore"),
        ("matches.undo", "POST"): form_post(table, "/m/{token}/undo"),
        ("matches.update_draft", "POST"): form_post(table, "/m/{token}/draft"),
        ("home.rename", "POST"): form_post(table, "/m/{token}/title"),
        ("home.archive", "POST"): form_post(table, "/m/{token}/archive"),
        ("home.unarchive", "POST"): form_post(table, "/m/{token}/unarchive"),
        ("home.delete", "POST"): form_post(table, "/m/{token}/delete"),
        ("home.restore", "POST"): form_post(table, "/m/{token}/restore"),
        ("home.set_language", "POST"): form_post(table, "/language"),
        ("transfer.export_csv", "GET"): page_get(table, "/m/{token}/export.csv"),
        ("transfer.import_form", "GET"): page_get(table, "/import"),
        ("transfer.import_match", "POST"): upload(table),
        ("share.match_qr", "GET"): page_get(table, "/m/{token}/qr.svg"),
        ("share.view", "GET"): page_get(table, "/v/{view}"),
        ("share.view_qr", "GET"): page_get(table, "/v/{view}/qr.svg"),
        ("checkers.index", "GET"): page_get(table, "/check"),
        ("rules.index", "GET"): page_get(table, "/rules"),
        ("rules.show", "GET"): page_get(table, "/rules/{game}"),
        ("rules.results", "GET"): page_get(table, "/rules/search"),
        ("offline.worker", "GET"): page_get(table, "/sw.js"),
        ("offline.page", "GET"): st.builds(
            lambda lang: Call("GET", f"/offline/{lang}"), segment(["en", "de"])),
        ("static", "GET"): st.builds(
            lambda name: Call("GET", f"/static/{name}"),
            segment(["app.css", "vendor", "panel/main.js", "..", "%2e%2e"])),
        ("api_rules.search_rules", "GET"): page_get(table, "/api/v1/rules/search"),
        ("api_docs.openapi_document", "GET"): page_get(table, "/api/v1/openapi.json"),
        ("api_docs.show", "GET"): page_get(table, "/api/v1/docs"),
        ("api.create_match", "POST"): api_post(MATCHES, {"game": "burro",
                                                         "players": ["Anna", "Ben"]}),
        ("api.import_match", "POST"): api_post(f"{MATCHES}/import", table.document,
                                               documents=documents(table.document)),
        ("api.show_match", "GET"): page_get(table, MATCHES + "/{token}"),
        ("api.export_match", "GET"): page_get(table, MATCHES + "/{token}/export"),
        ("api.add_hand", "POST"): api_match_write(table, "POST", "/hands"),
        ("api.replace_hand", "PUT"): api_match_write(table, "PUT", "/hands/{number}"),
        ("api.undo_hand", "DELETE"): api_match_write(table, "DELETE", "/hands/last"),
        # A club night: its pages, its organiser's and pairs' actions, its files, its API.
        ("events.new", "GET"): page_get(table, "/events/new"),
        ("events.create", "POST"): night_post(table, "/events/new", GOOD_NIGHT_FORM),
        ("events.organiser", "GET"): night_get(table, "/e/{night}"),
        ("events.organiser_events", "GET"): night_get(table, "/e/{night}/events", stream=True),
        ("events.screen", "GET"): night_get(table, "/s/{view}"),
        ("events.screen_events", "GET"): night_get(table, "/s/{view}/events", stream=True),
        ("events.screen_qr", "GET"): night_get(table, "/s/{view}/qr.svg"),
        ("events.organiser_confirms", "POST"): night_post(
            table, "/e/{night}/turns/{turn}/tables/{table}/confirm", [("version", CURRENT)]),
        ("events.organiser_reopens", "POST"): night_post(
            table, "/e/{night}/turns/{turn}/tables/{table}/reopen", []),
        ("events.pair_confirms", "POST"): night_post(
            table, "/m/{match}/confirm", [("side", "0"), ("code", table.night_codes[0]
                                                          if table.night_codes else "AAAA"),
                                          ("version", CURRENT)]),
        ("event_transfer.export_json", "GET"): night_get(table, "/e/{night}/export.json"),
        ("event_transfer.export_csv", "GET"): night_get(table, "/e/{night}/export.csv"),
        ("event_transfer.import_form", "GET"): page_get(table, "/events/import"),
        ("event_transfer.import_event", "POST"): upload(
            table, "/events/import", night_files(table.night_document)),
        ("api_events.create_event", "POST"): api_post(EVENTS, NIGHT),
        ("api_events.show_event", "GET"): night_get(table, EVENTS + "/{night}"),
        ("api_events.show_turn", "GET"): night_get(table, EVENTS + "/{night}/turns/1"),
        ("api_events.show_standings", "GET"): night_get(table, EVENTS + "/{night}/standings"),
        ("api_events.confirm_table", "POST"): night_api(
            table, EVENTS + "/{night}/turns/{turn}/tables/{table}/confirm", {}),
        ("api_events.reopen_table", "POST"): night_api(
            table, EVENTS + "/{night}/turns/{turn}/tables/{table}/reopen", {}),
        ("api_events.confirm_for_pair", "POST"): night_api(
            table, MATCHES + "/{match}/confirm",
            {"side": 0, "code": table.night_codes[0] if table.night_codes else "AAAA",
             "version": CURRENT}),
        ("api_event_transfer.export_event", "GET"): night_get(table, EVENTS + "/{night}/export"),
        ("api_event_transfer.import_event", "POST"): api_post(
            f"{EVENTS}/import", table.night_document,
            documents=night_files(table.night_document)),
    }
    for checker in ("burro_trick", "burraco_meld", "buraco_meld", "bura_claim", "bura_trick",
                    "bura_combination"):
        routes[checker.replace("_", ".", 1), "GET"] = page_get(
            table, "/" + checker.replace("_", "/", 1))
    for endpoint, good in CHECKER_BODIES.items():
        game = endpoint.split("_", 1)[0]
        routes[f"{game}_api.{endpoint}", "POST"] = api_post(
            "/api/v1/" + endpoint.replace("_", "/", 1), good,
            counts=COUNTS.get(game, ()) if "sides" in good else ())
    return routes


def app_routes(app) -> set[tuple[str, str]]:
    return {(rule.endpoint, method) for rule in app.url_map.iter_rules()
            for method in rule.methods - {"HEAD", "OPTIONS"}}


# --- Sending -------------------------------------------------------------------------------

def _resolved(table: Table, path: str, value):
    """``CURRENT`` becomes the version of the match the address names."""
    if value != CURRENT:
        return value
    token = next((token for token in (*table.tokens.values(), table.night_match)
                  if token in path), "")
    return table.version(token) if token else 0


def streamed(calls):
    """The calls of ``calls`` as to a stream: read until its first chunk, then left."""
    return calls.map(lambda call: replace(call, stream=True))


def send(table: Table, call: Call):
    def fill(pairs_):
        return [(key, str(_resolved(table, call.path, value))) for key, value in pairs_]

    query = urlencode(fill(call.query), errors="surrogatepass")
    path = f"{call.path}?{query}" if query else call.path
    if call.stream:
        response = table.client.open(path, method=call.method, headers=call.headers,
                                     buffered=False)
        if response.status_code == 200:
            next(iter(response.response))
        response.close()
        return response
    if call.upload is not None:
        data = {**dict(call.form), "document": (io.BytesIO(call.upload), "match.json")}
        return table.client.open(path, method=call.method, data=data, headers=call.headers,
                                 content_type="multipart/form-data")
    if call.form is not None:
        data = urlencode(fill(call.form), errors="surrogatepass")
        return table.client.open(path, method=call.method, data=data, headers=call.headers,
                                 content_type="application/x-www-form-urlencoded")
    if call.raw is not None:
        return table.client.open(path, method=call.method, data=call.raw,
                                 headers=call.headers, content_type="application/json")
    if call.body is not None:
        body = call.body
        if isinstance(body, dict) and "version" in body:
            body = {**body, "version": _resolved(table, call.path, body["version"])}
        return table.client.open(path, method=call.method, data=json.dumps(body),
                                 headers=call.headers, content_type="application/json")
    return table.client.open(path, method=call.method, headers=call.headers)


def reset(table: Table) -> None:
    """Put the matches back as the table began, so that every request meets them so (none
    deleted, undone or ended by the requests before)."""
    with table.app.app_context():
        db = store.get_db()
        with db.conn:
            for name in reversed(STORED):
                db.execute(f"DELETE FROM {name}")
            for name in STORED:
                db[name].insert_all(table.start[name])


# --- The tests ------------------------------------------------------------------------------

def test_every_route_has_a_strategy(table):
    """A new route cannot be missed: it needs a strategy here first."""
    assert app_routes(table.app) == set(strategies(table))


# Requests a route is sent: a few in every run, thousands in `make fuzz`.
EXAMPLES_A_ROUTE = int(os.environ.get("FUZZ_EXAMPLES", "15"))

# The routes that have a strategy; the test above checks they are the app's routes.
ROUTES = sorted(strategies(Table(None, None, dict.fromkeys(GAMES, "token"),
                                 dict.fromkeys(GAMES, "view"), "", {})))


@pytest.mark.parametrize("route", ROUTES, ids=lambda route: f"{route[1]} {route[0]}")
def test_no_input_answers_5xx_and_a_refusal_stores_nothing(table, route):
    """Point 7: "no 5xx, and a refused request changes nothing stored"."""
    strategy = strategies(table)[route]

    @settings(max_examples=EXAMPLES_A_ROUTE, deadline=None, database=None,
              suppress_health_check=list(HealthCheck))
    @given(strategy)
    def try_one(call: Call):
        # Every request meets the table as it began (see reset).
        response = send(table, call)
        assert response.status_code < 500, (call, response.get_data(as_text=True)[:300])
        after = stored(table.app, STORED)
        if response.status_code >= 400:
            assert after == table.start, call
        if after != table.start:
            reset(table)

    try_one()


@pytest.mark.parametrize("link", ["players", "watch-only"])
def test_no_host_one_phone_names_reaches_another_phone(table, link):
    """Without BASE_URL a phone's links follow the Host it names, and only its own: the news
    every phone hears is the same whichever Host asked for it, and a phone that names the
    address it came to finds that address in its share box and the API's links."""
    token = (table.tokens if link == "players" else table.view_tokens)["buraco"]
    sheet = f"/m/{token}" if link == "players" else f"/v/{token}"
    api = f"{MATCHES}/{token}"
    honest = {"Host": HONEST_HOST}

    @settings(max_examples=15, deadline=None, database=None,
              suppress_health_check=list(HealthCheck))
    @given(HOSTS)
    def try_one(host):
        forged = table.client.get(f"{sheet}/news", headers={"Host": host})
        assert forged.status_code < 500, host
        heard = table.client.get(f"{sheet}/news", headers=honest)
        assert heard.status_code == 200
        if forged.status_code == 200:
            assert forged.data == heard.data, host
        assert table.client.get(sheet, headers={"Host": host}).status_code < 500, host
        shared = [field["value"] for field in
                  parsed(table.client.get(sheet, headers=honest)).select("details.share input")]
        links = [value for key, value in table.client.get(api, headers=honest).json.items()
                 if key.endswith("url")]
        assert shared and links
        assert all(url.startswith(f"http://{HONEST_HOST}/") for url in shared + links), host

    try_one()


# What a refusal says when it says nothing of the request's own fault.
UNREAD = {"en": "The request could not be read; nothing was saved.",
          "de": "Die Anfrage konnte nicht gelesen werden; es wurde nichts gespeichert."}
# A Buraco hand whose first side is counted in parts, so its steppers' counts count.
COUNTED_FORM = [("s0_mode", "parts"), ("s0_table", "150"), ("s0_dead_pile", "taken"),
                ("s1_mode", "parts"), ("s1_table", "60"), ("s1_dead_pile", "taken")]
SHEET_COUNTS = {"clean": "clean_buracos", "dirty": "dirty_buracos", "red": "red_threes"}


def changed(table: Table) -> bool:
    """Whether the request changed what is stored; if so, the table is put back first, so
    that every example, and every test after a failing one, meets it as it began."""
    after = stored(table.app, STORED)
    if after != table.start:
        reset(table)
    return after != table.start


@pytest.mark.parametrize("channel", ["sheet", "api"])
def test_a_count_is_taken_or_refused_with_its_message(table, channel):
    """Whatever counts a Buraco side sends, by the sheet's panel or the API, in English or
    German: the hand is saved with them, or refused saying why, and nothing is stored."""
    token = table.tokens["buraco"]

    @settings(max_examples=15, deadline=None, database=None,
              suppress_health_check=list(HealthCheck))
    @given(st.dictionaries(st.sampled_from(sorted(SHEET_COUNTS)),
                           st.one_of(COUNT_VALUES, TEXT), min_size=1),
           st.sampled_from(sorted(UNREAD)))
    def try_one(counts, lang):
        headers = {"Accept-Language": lang}
        if channel == "sheet":
            form = [("csrf_token", table.csrf), ("version", str(table.version(token))),
                    *COUNTED_FORM,
                    *((f"s0_{name}", str(count)) for name, count in counts.items())]
            response = table.client.post(
                f"/m/{token}/hands", data=urlencode(form, errors="surrogatepass"),
                headers=headers, content_type="application/x-www-form-urlencoded")
            assert response.status_code in (303, 422), (counts, response.status_code)
            refused = response.status_code == 422
            message = refused and shown(parsed(response).select_one("p.error[role=alert]"))
        else:
            first, second = GOOD_HANDS["buraco"]["sides"]
            sides = [{**first, **{SHEET_COUNTS[name]: count for name, count in counts.items()}},
                     second]
            response = table.client.post(f"{MATCHES}/{token}/hands", json={"sides": sides},
                                         headers=headers)
            assert response.status_code in (201, 400), (counts, response.status_code)
            refused = response.status_code == 400
            message = refused and response.json["error"]
        saved = table.client.get(f"{MATCHES}/{token}").json["hands"][-1]["entries"][0]
        assert changed(table) is not refused, counts
        if refused:
            assert message and message != UNREAD[lang], counts
        else:
            # Saved as sent: no count was quietly taken as another.
            for name, count in counts.items():
                sent = 0 if not str(count).strip() else parse_int(str(count))
                assert saved[SHEET_COUNTS[name]] == sent, (counts, saved)

    try_one()


@pytest.mark.parametrize("channel", ["page", "api"])
def test_an_imported_time_is_taken_or_refused_by_its_field(table, channel):
    """Whatever time a match document holds, the import takes it or names the field it
    refuses, and then creates nothing."""

    @settings(max_examples=15, deadline=None, database=None,
              suppress_health_check=list(HealthCheck))
    @given(timed(table.document))
    def try_one(document):
        if channel == "page":
            response = table.client.post("/import", content_type="multipart/form-data", data={
                "csrf_token": table.csrf,
                "document": (io.BytesIO(json.dumps(document).encode()), "match.json")})
            assert response.status_code in (303, 400), document
            refused = response.status_code == 400
            said = refused and shown(parsed(response).select_one("p.error[role=alert]"))
        else:
            response = table.client.post(f"{MATCHES}/import", json=document)
            assert response.status_code in (201, 400), document
            refused = response.status_code == 400
            said = refused and response.json["fields"][0]["path"]
        assert changed(table) is not refused, document
        if refused:
            assert said and ("created_at" in said or "ended_at" in said), said

    try_one()
