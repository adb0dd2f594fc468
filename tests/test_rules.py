"""The rules reference: the search index, search, the pages, the API and the "why?" links."""

import re
import sqlite3

import pytest
from hypothesis import given
from hypothesis import strategies as st

import store
from rules_content import (GAMES, LANGUAGES, fold, fts_query, load_document, search_terms,
                           snippet)
from rules_content.why import WHY, why
from views.rules import index_rules

HTMX = {"HX-Request": "true"}


def text(response) -> str:
    return response.get_data(as_text=True)


def hits(client, query, **params):
    response = client.get("/api/v1/rules/search", query_string={"q": query, **params})
    assert response.status_code == 200
    return response.json["hits"]


# --- The index ------------------------------------------------------------------------------

def test_the_index_holds_every_section_of_every_document(app):
    with app.app_context():
        count = store.get_db()["rule_sections"].count
    assert count == sum(len(load_document(game, lang).sections)
                        for game in GAMES for lang in LANGUAGES)


def test_the_index_is_rebuilt_only_when_a_document_changes(app, monkeypatch):
    with app.app_context():
        db = store.get_db()
        assert index_rules(db) is False
        monkeypatch.setattr("rules_content.documents_digest", lambda: "changed")
        assert index_rules(db) is True
        assert store.rules_index_digest(db) == "changed"


def test_the_index_rules_command(runner):
    assert "up to date" in runner.invoke(args=["index-rules"]).output


# --- Search ---------------------------------------------------------------------------------

@pytest.mark.parametrize("query, lang, game, section", [
    ("pozzetto", "de", "burraco", "pozzetti"),
    ("pozzetto", "en", "burraco", "pozzetti"),
    ("Molodka", "de", "bura", "combinations"),
    ("follow suit", "en", "burro", "trick"),
    ("Cangkul", "de", "burro", "variant-cangkul"),
    ("rote Dreien", "de", "buraco", "special-rules"),
    ("semipulito", "de", "burraco", "variant-semipulito"),
])
def test_search_finds_known_sections(client, query, lang, game, section):
    found = [(hit["game"], hit["section"]) for hit in hits(client, query, lang=lang)
             if hit["lang"] == lang]
    assert (game, section) in found[:8], found


def test_a_part_of_a_german_compound_finds_the_whole_word(client):
    """Issue: "Stapel" finds Ablagestapel and Ziehstapel."""
    found = hits(client, "Stapel", lang="de")
    snippets = " ".join(hit["snippet"] for hit in found if hit["lang"] == "de")
    assert "Ablagestapel" in snippets and "Ziehstapel" in snippets


def test_case_accents_and_sharp_s_do_not_matter(client):
    sharp = {(h["game"], h["section"]) for h in hits(client, "SCHLIESSEN", lang="de")}
    assert ("burraco", "closing") in sharp
    umlaut = [h for h in hits(client, "ÜBERBLICK", lang="de") if h["lang"] == "de"]
    assert {h["section"] for h in umlaut} >= {"overview"}
    without = [h for h in hits(client, "uberblick", lang="de") if h["lang"] == "de"]
    assert {h["section"] for h in without} >= {"overview"}


def test_the_asked_language_comes_first(client):
    for lang in LANGUAGES:
        found = hits(client, "pozzetto", lang=lang)
        languages = [hit["lang"] for hit in found]
        assert languages == sorted(languages, key=lambda item: item != lang)
        assert set(languages) == set(LANGUAGES)


def test_hits_link_straight_to_their_section(client):
    hit = hits(client, "Molodka", lang="de")[0]
    assert hit["url"] == f"/rules/{hit['game']}?lang={hit['lang']}#{hit['section']}"
    page = text(client.get(hit["url"].split("#")[0]))
    assert f'id="{hit["section"]}"' in page


def test_the_snippet_marks_the_match(client):
    hit = hits(client, "stapel", lang="de", game="burraco")[0]
    start, end = hit["marks"][0]
    assert hit["snippet"][start:end].lower() == "stapel"


@pytest.mark.parametrize("query", [
    '"', '""', "'", "a OR b", "NOT", "pozzetto AND", "*", "^", "NEAR(a b)", "col:val",
    "<script>alert(1)</script>", "pozzetto" * 250, "x" * 2000, "\\", "🃏♥", "-", "()",
    "stapel\" OR \"x", "% _",
])
def test_any_query_is_safe(client, query):
    response = client.get("/api/v1/rules/search", query_string={"q": query})
    assert response.status_code == 200
    page = client.get("/rules/search", query_string={"q": query})
    assert page.status_code == 200
    assert "<script>alert" not in text(page)


def test_too_short_words_are_not_searched(client):
    assert hits(client, "ab") == []
    assert "at least three letters" in text(client.get("/rules/search?q=ab"))


@pytest.mark.parametrize("query, terms", [
    ("Pozzetto", ["pozzetto"]), ("  ", []), ("ÄRGER Öl", ["arger"]),
    ("a b c", []), ("one two three four five six seven eight nine ten", None),
])
def test_search_terms(query, terms):
    if terms is None:
        assert len(search_terms(query)) == 8
    else:
        assert search_terms(query) == terms


def test_fold_keeps_one_character_for_one():
    for text_ in ("Schließen", "Ærø", "Ablagestapel", "Noël", "ﬁnal"):
        assert len(fold(text_)) == len(text_)


def test_snippet_pieces_rebuild_the_text():
    pieces = snippet("Der Ablagestapel und der Ziehstapel.", ["stapel"])
    assert "".join(piece for piece, _ in pieces) == "Der Ablagestapel und der Ziehstapel."
    assert [piece for piece, marked in pieces if marked] == ["stapel", "stapel"]


# --- Pages ----------------------------------------------------------------------------------

def test_the_rules_page_lists_the_four_games(client):
    page = text(client.get("/rules"))
    for game in GAMES:
        assert f'href="/rules/{game}"' in page


@pytest.mark.parametrize("game", GAMES)
@pytest.mark.parametrize("lang", LANGUAGES)
def test_a_game_page_in_each_language_with_contents_and_a_switch(client, game, lang):
    client.set_cookie("lang", lang)
    page = text(client.get(f"/rules/{game}"))
    document = load_document(game, lang)
    assert f'<article class="rules" lang="{lang}"' in page
    other = "en" if lang == "de" else "de"
    for section in document.sections:
        assert f'id="{section.id}"' in page
        assert f'href="#{section.id}"' in page
        assert f'href="/rules/{game}?lang={other}#{section.id}"' in page


def test_a_page_in_the_other_language_by_parameter(client):
    page = text(client.get("/rules/burro?lang=de"))
    assert '<article class="rules" lang="de"' in page and "Esel" in page


def test_red_suits_are_marked_red(client):
    page = text(client.get("/rules/burro?lang=en"))
    assert '<span class="red">J♥</span>' in page


def test_unknown_game_is_404(client):
    assert client.get("/rules/chess").status_code == 404


def test_the_search_page_works_without_javascript(client):
    page = text(client.get("/rules/search?q=Molodka"))
    assert "<html" in page and "<mark>" in page and 'href="/rules/bura?lang=' in page


def test_the_search_fragment_for_htmx(client):
    fragment = text(client.get("/rules/search?q=Molodka", headers=HTMX))
    assert fragment.lstrip().startswith('<section id="results"') and "<html" not in fragment


def test_search_filters_by_game_and_language(client):
    page = text(client.get("/rules/search?q=stapel&game=buraco&lang=en"))
    assert "/rules/burraco" not in page and "/rules/buraco?lang=de" not in page


# --- "Why?" links ---------------------------------------------------------------------------

@pytest.mark.parametrize("key", sorted(WHY))
def test_every_why_link_leads_to_a_section_in_both_languages(key):
    document, section = why(*key)
    for lang in LANGUAGES:
        assert load_document(document, lang).section(section), (document, lang, section)


def test_a_refused_entry_links_to_its_rule(client):
    page = text(client.get("/burro/trick?plays=5H+9H"))
    assert re.search(r'not in the 40-card deck\.\s*<a class="why" href="/rules/burro#', page)


def test_the_trick_verdict_links_to_the_trick_rule(client):
    page = text(client.get("/burro/trick?plays=5H+JH"))
    assert '<a class="why" href="/rules/burro#trick">' in page


@given(st.text(max_size=300))
def test_any_text_becomes_a_valid_fts_query(query):
    """Whatever is typed, MATCH gets quoted strings only: SQLite never sees syntax."""
    terms = search_terms(query)
    database = sqlite3.connect(":memory:")
    database.execute("CREATE VIRTUAL TABLE t USING fts5(x, tokenize='trigram')")
    database.execute("INSERT INTO t VALUES ('der ablagestapel')")
    if terms:
        database.execute("SELECT * FROM t WHERE t MATCH ?", [fts_query(terms)]).fetchall()
    assert all(len(term) >= 3 for term in terms)
