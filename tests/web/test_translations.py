"""German and English throughout: every user-facing string has its German translation."""

import re

import pytest
from babel.messages.extract import extract_from_dir
from babel.messages.pofile import read_po
from helpers import GERMAN, MATCHES, ROOT, parsed, shown, text

CATALOG = ROOT / "translations" / "de" / "LC_MESSAGES" / "messages.po"
KEYWORDS = {"_": None, "_l": None, "gettext": None, "ngettext": (1, 2), "lazy_gettext": None}
METHODS = [("**.py", "python"), ("**.html", "jinja2")]
PLACEHOLDER = re.compile(r"%\(\w+\)s")


def source_messages() -> set[str]:
    found = set()
    for folder in ("views", "templates"):
        for _file, _line, message, _comments, _context in extract_from_dir(
                ROOT / folder, METHODS, keywords={**KEYWORDS}):
            found.add(message if isinstance(message, str) else message[0])
    return found


@pytest.fixture(scope="module")
def catalog():
    with CATALOG.open("rb") as file:
        return read_po(file, locale="de")


def test_every_message_in_the_code_has_a_german_translation(catalog):
    missing = [message for message in source_messages()
               if not catalog.get(message) or not catalog.get(message).string
               or (isinstance(catalog.get(message).string, tuple)
                   and not all(catalog.get(message).string))]
    assert not missing, "run `make extract-messages` and translate: " + "; ".join(missing)


def test_no_translation_is_marked_fuzzy(catalog):
    assert not [message.id for message in catalog if message.id and message.fuzzy]


def test_translations_keep_every_placeholder(catalog):
    for message in catalog:
        if not message.id:
            continue
        source = message.id if isinstance(message.id, str) else message.id[1]
        targets = message.string if isinstance(message.string, tuple) else (message.string,)
        for target in targets:
            assert set(PLACEHOLDER.findall(target)) <= set(PLACEHOLDER.findall(source)), \
                message.id
            assert set(PLACEHOLDER.findall(source)) - {"%(num)s"} <= \
                set(PLACEHOLDER.findall(target)), message.id


# --- The review of the German copy ------------------------------------------------------------

NBSP, NO_BREAK_HYPHEN = "\u00a0", "\u2011"
UNITS = (r"(?:Punkte?n?|Augen?|Runden?|Spiel(?:e|en)?|Chips?|Karten?|Strafpunkte?|Zeichen"
         r"|Spielern?|Änderung(?:en)?|Abschnitte?|Asse|Burracos)")
NUMBER = r"(?:\d+|%\(\w+\)s)"
LABELS = (r"(?:Runde|Spiel|Spieler|Partei|Eintrag|Nr\.|Ziel|Grenze|Pot|Karten|Burracos|Schließen"
          r"|Hand|Pozzetto)")
BREAKABLE = re.compile(rf"\b{NUMBER} {UNITS}\b|\b{LABELS} [+−]?{NUMBER}")


def german_strings(catalog):
    for message in catalog:
        if message.id:
            yield from message.string if isinstance(message.string, tuple) else (message.string,)


def test_a_number_never_breaks_from_its_unit_or_label(catalog):
    """At 360 px "45 Punkte" must not end a line with "45" and start the next with "Punkte":
    numbers and their units or labels are joined by a no-break space."""
    breakable = [hit.group() for text in german_strings(catalog)
                 for hit in BREAKABLE.finditer(text)]
    assert not breakable


def test_the_31_claim_never_breaks_at_its_hyphen(catalog):
    """The Bura checker's tab read "31-" on one line and "Ansage" on the next."""
    assert catalog.get("31 claim").string == f"31{NO_BREAK_HYPHEN}Ansage"
    assert not [text for text in german_strings(catalog) if "31-Ansage" in text]


def german(text: str) -> str:
    """A page or message as a reader sees it: no-break spaces look like spaces."""
    return text.replace(NBSP, " ")


def api_match(client, game: str, players: int, hands=()) -> str:
    created = client.post(MATCHES, json={
        "game": game, "players": ["Anna", "Ben", "Carla", "Dan"][:players]})
    token = created.json["token"]
    for hand in hands:
        assert client.post(f"{MATCHES}/{token}/hands", json=hand).status_code == 201
    return token


def labels(page) -> list[str]:
    """What the page's controls say to a screen reader, as it reads them."""
    return [german(control["aria-label"]) for control in page.select("[aria-label]")]


GAME_SHEETS = [
    ("bura", 3, {"outcome": "right_claim", "player": 1}),
    ("burkosel", 2, {"card_points": [95, 25], "tricks": [5, 2]}),
    ("burraco", 2, {"sides": [{"total": 155}, {"total": -35}]}),
]


@pytest.mark.parametrize("game, players, hand", GAME_SHEETS)
def test_burraco_bura_and_burkosel_count_games_never_runden(client, game, players, hand):
    """Their German rules speak of Spiele (seed 002: "Ein Spiel endet, wenn jemand schließt";
    seed 003: "Danach gibt immer, wer im letzten Spiel angesagt hat"); Runde is Burro's word."""
    token = api_match(client, game, players, [hand])
    client.set_cookie("lang", "de")
    sheet = client.get(f"/m/{token}")
    assert "Spiel 1 korrigieren" in labels(parsed(sheet))
    assert "Spiel 2" in german(shown(sheet)) and "Runde" not in text(sheet)
    home = client.get("/")
    assert "1 Spiel" in german(shown(home)) and "Runde" not in text(home)


def test_burro_keeps_its_runden(client):
    """Seed 000: "nach jeder Runde gibt der rechte Nachbar des Gebers"."""
    token = api_match(client, "burro", 3, [{"burro": 1}])
    client.set_cookie("lang", "de")
    sheet = client.get(f"/m/{token}")
    assert "Runde 1 korrigieren" in labels(parsed(sheet))
    assert "Runde 2:" in german(shown(sheet))
    assert "1 Runde" in german(shown(client.get("/")))


def test_refusals_shared_with_burro_name_no_runde_on_a_game_sheet(client, post):
    """Nothing to undo, a finished match, a game that does not exist: one wording for every
    game, so it must not say Runde where the sheet says Spiel."""
    token = api_match(client, "burkosel", 2, [{"instant_win": 0}, {"instant_win": 0}])
    client.set_cookie("lang", "de")
    refusals = [
        post(f"/m/{token}/hands", {"version": "2", "instant_win": "0"}),
        post(f"/m/{token}/hands/3", {"version": "2", "instant_win": "0"}),
        post(f"/m/{api_match(client, 'bura', 2)}/undo", {"version": "0"}),
    ]
    pages = [german(shown(response)) for response in refusals]
    assert "Die Partie ist vorbei: Es kann nichts mehr eingetragen werden." in pages[0]
    assert "Eintrag 3 gibt es nicht." in pages[1]
    assert "Es gibt nichts rückgängig zu machen." in pages[2]
    assert not [response for response in refusals if "Runde" in text(response)]


@pytest.mark.parametrize("language, front, expected", [
    ("en", ["KC"], "Answer the card in front with one card."),
    ("en", ["KC", "9C"], "Answer the 2 cards in front with as many cards."),
    ("de", ["KC"], "Antworte auf die vorn liegende Karte mit einer Karte."),
    ("de", ["KC", "9C", "7C"], "Antworte mit genauso vielen Karten, wie vorn liegen (3)."),
])
def test_one_card_in_front_is_answered_in_the_singular(client, language, front, expected):
    """Seed 003: the answer has as many cards as lie in front; one card is "the card"."""
    answer = ["AC", "6H"] if len(front) == 1 else ["AC"]
    response = client.post("/api/v1/bura/trick", json={"trump": "H", "front": front,
                                                         "response": answer},
                           headers={"Accept-Language": language})
    assert response.json["error"] == expected


@pytest.mark.parametrize("language, limit", [("en", "0 to 10,000"), ("de", "0 bis 10.000")])
def test_numbers_in_a_refusal_are_grouped_as_the_reader_writes_them(client, language, limit):
    response = client.post("/api/v1/bura/claim", json={"cards": ["AS"], "pot": 20000},
                           headers={"Accept-Language": language})
    assert limit in german(response.json["error"])


def test_a_card_not_read_explains_the_english_suit_letters_in_german(client):
    """The parser reads S H D C only (README: cards are written 7H, QS, with the German B and
    D for the ranks), so a German "DP" (Dame Pik) is refused with the letters spelled out."""
    response = client.post("/api/v1/burraco/meld", json={"cards": ["DP", "4H", "5H"]},
                           headers=GERMAN)
    assert german(response.json["error"]) == (
        "„DP“ ist keine Karte. Schreib z. B. 7H, 10♥, D♠ oder JK "
        "(Farben: S = Pik, H = Herz, D = Karo, C = Kreuz).")


def test_other_readings_name_the_burraco_kind_in_the_readers_words(client):
    """RULES-NOTES B5: "the checker may show the other readings"; the app says "unreiner
    Burraco (sporco)" elsewhere, so a reading says "unrein", not the bare Italian "sporco"."""
    cards = "/burraco/meld?cards=AS+3S+4S+5S+6S+7S+8S+9S+10S+JS+QS+JK"
    client.set_cookie("lang", "de")
    readings = parsed(client.get(cards)).select_one("details")
    assert "Andere Möglichkeiten" in shown(readings)
    assert any(shown(reading).endswith("· unrein") for reading in readings.select("li"))
    assert "sporco" not in str(readings)
    client.set_cookie("lang", "en")
    readings = parsed(client.get(cards)).select_one("details")
    assert any(shown(reading).endswith("· dirty") for reading in readings.select("li"))
