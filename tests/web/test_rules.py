"""The rules reference: the search index, search, the pages, the API and the "why?" links."""

import os
import re
import sqlite3
import tomllib

import pytest
from helpers import HTMX, inline_scripts, parsed, root, rule_hits, shown, text
from hypothesis import given
from hypothesis import strategies as st

from app import create_app
from rules_content import GAMES, LANGUAGES, load_all, load_document, plain_text
from rules_content.index import RulesIndex
from rules_content.search import (
    SYNONYMS_PATH,
    Vocabulary,
    expand,
    fold,
    fts_query,
    search_terms,
    snippet,
)
from scoring.cards import JOKER, parse_card
from views.games import all_games
from views.rule_search import why

# --- The index ------------------------------------------------------------------------------

def test_the_index_holds_every_section_of_every_document(app):
    index = RulesIndex(app.config["RULES_INDEX"])
    assert len(index.sections()) == sum(len(load_document(game, lang).sections)
                                        for game in GAMES for lang in LANGUAGES)


def test_the_index_is_rebuilt_only_when_a_document_changes(tmp_path, monkeypatch):
    index = RulesIndex(str(tmp_path / "rules-index.sqlite"))
    assert index.build() is True
    assert index.build() is False
    monkeypatch.setattr("rules_content.index.documents_digest", lambda: "changed")
    assert index.build() is True
    assert index.digest() == "changed"


def test_a_deleted_index_is_built_again_by_the_next_search(tmp_path):
    app = create_app({"TESTING": True, "DATABASE": str(tmp_path / "tablemate.sqlite"),
                      "RULES_INDEX": str(tmp_path / "rules-index.sqlite"), "SECRET_KEY": "t"})
    os.remove(app.config["RULES_INDEX"])
    assert rule_hits(app.test_client(), "pozzetto", lang="en")


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
    found = [(hit["game"], hit["section"]) for hit in rule_hits(client, query, lang=lang)
             if hit["lang"] == lang]
    assert (game, section) in found[:8], found


def test_a_part_of_a_german_compound_finds_the_whole_word(client):
    """Issue: "Stapel" finds Ablagestapel and Ziehstapel."""
    found = rule_hits(client, "Stapel", lang="de")
    snippets = " ".join(hit["snippet"] for hit in found if hit["lang"] == "de")
    assert "Ablagestapel" in snippets and "Ziehstapel" in snippets


def test_case_accents_and_sharp_s_do_not_matter(client):
    sharp = {(h["game"], h["section"]) for h in rule_hits(client, "SCHLIESSEN", lang="de")}
    assert ("burraco", "closing") in sharp
    umlaut = [h for h in rule_hits(client, "ÜBERBLICK", lang="de") if h["lang"] == "de"]
    assert {h["section"] for h in umlaut} >= {"overview"}
    without = [h for h in rule_hits(client, "uberblick", lang="de") if h["lang"] == "de"]
    assert {h["section"] for h in without} >= {"overview"}


def test_the_asked_language_comes_first(client):
    for lang in LANGUAGES:
        found = rule_hits(client, "pozzetto", lang=lang)
        languages = [hit["lang"] for hit in found]
        assert languages == sorted(languages, key=lambda item: item != lang)
        assert set(languages) == set(LANGUAGES)


def test_hits_link_straight_to_their_section(client):
    hit = rule_hits(client, "Molodka", lang="de")[0]
    assert hit["url"] == f"/rules/{hit['game']}?lang={hit['lang']}#{hit['section']}"
    page = parsed(client.get(hit["url"].split("#")[0]))
    assert page.find(id=hit["section"])


def test_the_snippet_marks_the_match(client):
    hit = rule_hits(client, "stapel", lang="de", game="burraco")[0]
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
    # Whatever was asked comes back as text: no script of it, nor any other, runs.
    assert not inline_scripts(page)


def test_too_short_words_are_not_searched(client):
    assert rule_hits(client, "ab") == []
    assert "at least three letters" in shown(client.get("/rules/search?q=ab"))


# --- What players type at the table -------------------------------------------------------

SYNONYM_GROUPS = tomllib.loads(SYNONYMS_PATH.read_text(encoding="utf-8"))["group"]


def top_three(client, query, lang) -> list[tuple[str, str]]:
    return [(hit["game"], hit["lang"]) for hit in rule_hits(client, query, lang=lang)[:3]]


@pytest.mark.parametrize("lang", LANGUAGES)
@pytest.mark.parametrize("query, game", [
    ("wildcard", "burraco"), ("wild card", "burraco"), ("Wildcards", "burraco"),
    ("deadpile", "buraco"), ("dead pile", "buraco"),
    ("Toter Stapel", "buraco"), ("totenstapel", "buraco"), ("Totenstapel", "buraco"),
])
def test_words_written_together_or_apart_find_the_same_rule(client, query, game, lang):
    """Seed 002: "Platzhalter (Joker und Zweien)"; seed 004: "Das sind die beiden toten
    Stapel, einer für jedes Team." Players write either word together or apart."""
    assert (game, lang) in top_three(client, query, lang)


@pytest.mark.parametrize("lang", LANGUAGES)
def test_a_two_digit_number_finds_bura_first(client, lang):
    """Seed 003: "stopp das Spiel, sobald du 31 hast" – the number Bura is played for."""
    found = rule_hits(client, "31", lang=lang)
    assert (found[0]["game"], found[0]["lang"]) == ("bura", lang)


def test_a_number_is_found_only_whole(client):
    """RULES-NOTES B3: the target is 2005; searching the 20 points of a 2 must not find it."""
    found = rule_hits(client, "20")
    assert found
    for hit in found:
        for start, end in hit["marks"]:
            assert not hit["snippet"][end:end + 1].isdigit(), hit["snippet"]
            assert not hit["snippet"][start - 1:start].isdigit(), hit["snippet"]


def test_every_example_in_the_search_field_finds_something(client):
    placeholder = parsed(client.get("/rules")).select_one("#rules-q")["placeholder"]
    assert placeholder.startswith("e.g. ")
    for example in placeholder.removeprefix("e.g. ").split(", "):
        assert rule_hits(client, example), example


@pytest.mark.parametrize("lang", LANGUAGES)
@pytest.mark.parametrize("query, games", [
    ("jolly", {"burraco", "buraco"}), ("pinella", {"burraco"}), ("pinelle", {"burraco"}),
    ("morto", {"buraco"}), ("pozzetto", {"burraco"}), ("canastra", {"burraco", "buraco"}),
    ("Moskau", {"bura"}), ("Moscow", {"bura"}), ("kozyr", {"bura"}), ("lixo", {"buraco"}),
    ("scala", {"burraco"}), ("matta", {"burraco"}), ("coringa", {"buraco"}),
])
def test_the_games_own_words_find_their_rules_in_either_language(client, query, games, lang):
    """Seed 002 names the Burraco pile "Pozzetto", seed 004 the Buraco one "toter Stapel"
    (Brazilian tables: morto); the jolly is the Italian joker."""
    assert {game for game, in_lang in top_three(client, query, lang) if in_lang == lang} & games


@pytest.mark.parametrize("lang", LANGUAGES)
@pytest.mark.parametrize("query, game", [("morto", "buraco"), ("pozzetto", "burraco")])
def test_a_game_s_own_word_puts_that_game_first(client, query, game, lang):
    """Morto and pozzetto name the same pile: each word leads to the game that says it."""
    assert rule_hits(client, query, lang=lang)[0]["game"] == game


@pytest.mark.parametrize("group", SYNONYM_GROUPS, ids=lambda group: next(iter(group.values()))[0])
def test_every_synonym_group_holds_real_words_that_find_something(client, group):
    documents = fold(" ".join(plain_text(section.markdown) for document in load_all()
                              for section in document.sections))
    assert set(group) <= {*GAMES, "any"}
    words = [word for listed in group.values() for word in listed]
    assert any(fold(word) in documents for word in words), "no word of the group is in the rules"
    for game, listed in group.items():
        for word in listed:
            assert search_terms(word) == [fold(word)], f"{word!r} is not read as one term"
            found = rule_hits(client, word, game=None if game == "any" else game)
            assert found, f"{word!r} finds nothing in {game}"


def test_a_synonym_belongs_to_one_group():
    words = [fold(word) for group in SYNONYM_GROUPS for listed in group.values()
             for word in listed]
    assert len(words) == len(set(words))


def test_the_card_parser_reads_the_joker_s_table_names():
    """The checkers take the words the search knows: "jolly" is a joker."""
    joker = next(group for group in SYNONYM_GROUPS if "joker" in group.get("any", []))
    assert all(parse_card(word) == JOKER for listed in joker.values() for word in listed)


@pytest.mark.parametrize("query, meant, game", [
    ("pozetto", "pozzetto", "burraco"), ("Moskow", "moscow", "bura"),
    ("Molodak", "molodka", "bura"), ("Burkozel", "burkosel", "bura"),
])
def test_a_small_typo_searches_the_nearest_word_and_says_so(client, query, meant, game):
    answer = client.get("/api/v1/rules/search", query_string={"q": query}).json
    assert answer["corrected"] == {fold(query): meant}
    assert answer["hits"][0]["game"] == game
    assert f"Showing results for “{meant}”." in shown(client.get("/rules/search",
                                                                  query_string={"q": query}))
    client.set_cookie("lang", "de")
    assert f"Ergebnisse für „{meant}“." in shown(client.get("/rules/search",
                                                            query_string={"q": query}))


@pytest.mark.parametrize("query", ["Molodka", "pozz", "Ziehstapel", "jolly", "31", "dead pile"])
def test_words_the_rules_hold_are_never_corrected(client, query):
    answer = client.get("/api/v1/rules/search", query_string={"q": query}).json
    assert answer["hits"] and answer["corrected"] == {}
    assert "Showing results for" not in text(client.get("/rules/search",
                                                        query_string={"q": query}))


def test_a_typo_keeps_the_rest_of_the_query(client):
    page = shown(client.get("/rules/search", query_string={"q": "Pozetto nehmen"}))
    assert "Showing results for “pozzetto nehmen”." in page


@pytest.mark.parametrize("query, terms", [
    ("Pozzetto", ["pozzetto"]), ("  ", []), ("ÄRGER Öl", ["arger"]),
    ("a b c", []), ("one two three four five six seven eight nine ten", None),
    ("31 7", ["31"]), ("2s", ["2s"]), ("Toter Stapel", ["toter stapel"]),
    ("dead pile rules", ["dead pile", "rules"]),
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
    page = parsed(client.get("/rules"))
    for game in GAMES:
        assert page.select(f'a[href="/rules/{game}"]'), game


@pytest.mark.parametrize("game", GAMES)
@pytest.mark.parametrize("lang", LANGUAGES)
def test_a_game_page_in_each_language_with_contents_and_a_switch(client, game, lang):
    client.set_cookie("lang", lang)
    page = parsed(client.get(f"/rules/{game}"))
    document = load_document(game, lang)
    assert page.select_one("article.rules")["lang"] == lang
    other = "en" if lang == "de" else "de"
    links = {link["href"] for link in page.select("a[href]")}
    for section in document.sections:
        assert page.find(id=section.id), section.id
        assert f"#{section.id}" in links
        assert f"/rules/{game}?lang={other}#{section.id}" in links


def test_a_page_in_the_other_language_by_parameter(client):
    page = parsed(client.get("/rules/burro?lang=de"))
    assert page.select_one("article.rules")["lang"] == "de" and "Esel" in shown(page)


def test_red_suits_are_marked_red(client):
    page = parsed(client.get("/rules/burro?lang=en"))
    assert "J♥" in [card.get_text() for card in page.select("span.red")]


def test_unknown_game_is_404(client):
    assert client.get("/rules/chess").status_code == 404


def test_the_search_page_works_without_javascript(client):
    page = parsed(client.get("/rules/search?q=Molodka"))
    assert page.html is not None and page.select("mark")
    assert page.select('a[href^="/rules/bura?lang="]')


def test_the_search_fragment_for_htmx(client):
    fragment = parsed(client.get("/rules/search?q=Molodka", headers=HTMX))
    assert root(fragment).name == "section" and root(fragment)["id"] == "results"
    assert fragment.html is None


def test_search_filters_by_game_and_language(client):
    found = parsed(client.get("/rules/search?q=stapel&game=buraco&lang=en"))
    results = [link["href"] for link in found.select("#results a[href]")]
    assert results and all(result.startswith("/rules/buraco?lang=en#") for result in results)


# --- "Why?" links ---------------------------------------------------------------------------

@pytest.mark.parametrize("key", sorted((slug, code) for slug, known in all_games().items()
                                       for code in known.why))
def test_every_why_link_leads_to_a_section_in_both_languages(key):
    document, section = why(*key)
    for lang in LANGUAGES:
        assert load_document(document, lang).section(section), (document, lang, section)


def test_a_refused_entry_links_to_its_rule(client):
    why = parsed(client.get("/burro/trick?plays=5H+9H")).select_one('a.why[href^="/rules/burro#"]')
    assert why.previous_sibling.strip().endswith("not in the 40-card deck.")


def test_the_trick_verdict_links_to_the_trick_rule(client):
    page = parsed(client.get("/burro/trick?plays=5H+JH"))
    assert page.select('a.why[href="/rules/burro#trick"]')


VOCABULARY = Vocabulary(["der ablagestapel", "dead pile"])


@given(st.text(max_size=300))
def test_any_text_becomes_a_valid_fts_query(query):
    """Whatever is typed, MATCH gets quoted strings only: SQLite never sees syntax."""
    terms = [expand(term, VOCABULARY) for term in search_terms(query)]
    database = sqlite3.connect(":memory:")
    database.execute("CREATE VIRTUAL TABLE t USING fts5(x, tokenize='trigram')")
    database.execute("INSERT INTO t VALUES ('der ablagestapel')")
    if terms:
        database.execute("SELECT * FROM t WHERE t MATCH ?", [fts_query(terms)]).fetchall()
    assert all(len(term.typed) >= 3 or re.search(r"\d", term.typed) for term in terms)


# --- Questions, not just words -------------------------------------------------------------

def test_words_without_meaning_need_not_match():
    """A question's little words ("how", "much", "is", "wie", "viele") are left out; what is
    left must be found, not every word typed."""
    assert search_terms("how much is a joker worth") == ["joker", "worth"]
    assert search_terms("wie viele Platzhalter pro Satz") == ["platzhalter", "satz", "pro"]


def test_a_question_of_only_little_words_still_searches_them():
    assert search_terms("wer ist das") == ["das", "ist", "wer"]


@pytest.mark.parametrize("query, lang", [("wer fängt an", "de"), ("Toter Stapel", "de"),
                                         ("who wins the trick", "en"), ("dead pile", "en")])
def test_the_language_asked_in_comes_first_on_either_page(client, query, lang):
    """A German question reads German sections first on an English page, and the other way
    round: the words tell the language."""
    for page_language in LANGUAGES:
        client.set_cookie("lang", page_language)
        found = client.get("/api/v1/rules/search", query_string={"q": query}).json["hits"]
        assert found[0]["lang"] == lang, (page_language, found[0])


@pytest.mark.parametrize("query", ["tris", "trinca", "Kanaster"])
def test_a_word_the_rules_know_in_any_language_is_never_corrected(client, query):
    """"tris" (the Italian tables' word for a set) is no typo of "this"."""
    answer = client.get("/api/v1/rules/search", query_string={"q": query}).json
    assert answer["corrected"] == {} and answer["hits"]


def test_a_question_that_finds_nothing_shows_the_nearest_sections(client):
    answer = client.get("/api/v1/rules/search", query_string={"q": "Xylophonorchester"}).json
    assert answer["nearest"] is True and 1 <= len(answer["hits"]) <= 3
    page = client.get("/rules/search", query_string={"q": "Xylophonorchester"})
    assert "These come nearest" in shown(page) and "Nothing found" not in text(page)


def test_a_question_that_finds_something_is_not_marked_nearest(client):
    assert client.get("/api/v1/rules/search", query_string={"q": "pozzetto"}).json["nearest"] \
        is False


@pytest.mark.parametrize("query, section", [("Bura", "overview"), ("Burkosel", "variant-burkosel")])
def test_a_game_s_name_alone_leads_to_its_overview(client, query, section):
    """"Bura" is a prefix of "Buraco": the game named comes first, not the longer word."""
    first = rule_hits(client, query, lang="en")[0]
    assert (first["game"], first["section"]) == ("bura", section)
