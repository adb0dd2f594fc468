"""German that says one thing one way: a meld is a "Kombination" in every checker and rule,
a change's time opens its line, and a German question lists the German sections.

Issue "At the table, round two", g: "the two meld checkers say 'Kombination' and 'Satz' for
the same thing"; "the change log has 'Ansage falsch: Carla 01:00' (a time where something
else belongs)"; "a German search lists the English sections too".
"""

import pytest
from helpers import GERMAN, HTMX, MATCHES, parsed, shown

NBSP = "\u00a0"


@pytest.mark.parametrize("path, title", [
    ("/burraco/meld", "Burraco: Ist diese Kombination erlaubt?"),
    ("/buraco/meld", "Buraco: Ist diese Kombination erlaubt?"),
])
def test_both_meld_checkers_ask_about_a_kombination(client, path, title):
    page = parsed(client.get(path, headers=GERMAN))
    assert shown(page.h1) == title


def test_the_buraco_form_asks_the_minimum_of_the_first_kombination(client):
    page = parsed(client.get("/buraco/new", headers=GERMAN))
    assert "Mindestwert der ersten Kombination" in shown(page)
    assert "Satzes" not in shown(page)


def test_a_red_three_never_goes_into_a_kombination(client):
    page = parsed(client.get("/buraco/meld?cards=3H+4H+5H", headers=GERMAN))
    assert "nie in eine Kombination" in shown(page)


def test_the_buraco_rules_call_the_first_meld_a_kombination(client):
    text = shown(parsed(client.get("/rules/buraco?lang=de")))
    assert "Mindestpunktzahl für die erste Kombination" in text
    assert "bei deiner ersten Kombination" in text


def corrected_bura(client) -> str:
    token = client.post(MATCHES, json={"game": "bura", "players": ["Anna", "Ben", "Carla"]}
                        ).json["token"]
    client.post(f"{MATCHES}/{token}/hands", json={"outcome": "wrong_claim", "player": 2})
    client.put(f"{MATCHES}/{token}/hands/1", json={"outcome": "right_claim", "player": 1})
    return token


@pytest.mark.parametrize("headers, said", [
    ({}, "Game 1 before its correction: Wrong claim: Carla"),
    (GERMAN, "Spiel 1 vor der Korrektur: Ansage falsch: Carla"),
])
def test_a_changes_time_opens_its_line_and_the_entry_ends_it(client, headers, said):
    line = parsed(client.get(f"/m/{corrected_bura(client)}", headers=headers)).select_one(
        "details.changes li")
    assert line.contents[0].name == "time"
    assert shown(line).replace(NBSP, " ").endswith(said)


def result_languages(client, query: str, headers=None, **asked) -> list[str]:
    page = parsed(client.get("/rules/search", query_string={"q": query, **asked},
                             headers=headers or {}))
    return [shown(lang) for lang in page.select("#results .hits .lang")]


@pytest.mark.parametrize("query", ["Pozzetto", "wie viele Platzhalter pro Satz"])
def test_a_german_search_lists_the_german_sections(client, query):
    languages = result_languages(client, query, GERMAN)
    assert languages and set(languages) == {"DE"}


def test_an_english_search_lists_the_english_sections(client):
    assert set(result_languages(client, "follow suit")) == {"EN"}


def test_the_english_sections_come_when_asked_for(client):
    assert set(result_languages(client, "Pozzetto", GERMAN, lang="en")) == {"EN"}


def test_the_search_fragment_lists_one_language_too(client):
    page = parsed(client.get("/rules/search", query_string={"q": "Pozzetto"},
                             headers={**GERMAN, **HTMX}))
    assert {shown(lang) for lang in page.select(".hits .lang")} == {"DE"}


def test_the_api_still_lists_both_languages_asked_one_first(client):
    """The API's contract puts the asked language ahead; it was never the page's filter."""
    hits = client.get("/api/v1/rules/search", query_string={"q": "pozzetto", "lang": "de"}
                      ).json["hits"]
    assert {hit["lang"] for hit in hits} == {"de", "en"}


@pytest.mark.parametrize("headers, label", [({}, "both"), (GERMAN, "beide")])
def test_both_languages_come_when_asked_for(client, headers, label):
    assert set(result_languages(client, "Pozzetto", headers, lang="both")) == {"DE", "EN"}
    page = parsed(client.get("/rules/search", query_string={"q": "Pozzetto", "lang": "both"},
                             headers=headers))
    assert shown(page.select_one("select[name=lang] option:checked")) == label
