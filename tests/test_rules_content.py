"""The rules documents: they parse, both languages have the same sections, and the German
documents (and the English Burro) keep every line of the source texts."""

import re
from pathlib import Path

import pytest

from rules_content import GAMES, LANGUAGES, document_path, load_document, parse_document

SEEDS = Path(__file__).resolve().parent.parent / "rules_content" / "sources"

# (document, seed file, the seed's page furniture: lines that are not game content)
SOURCES = [
    ("de/burro", "000_7251734cd6df74ec.txt", {"Ausführliche Regeln"}),
    ("en/burro", "001_216db3c86daca8f5.txt", {"Full rules"}),
    ("de/burraco", "002_12aac652a4a055a9.txt", {"Ausführliche Regeln"}),
    ("de/bura", "003_d50ef1016e7c2887.txt", {
        "Kartenspielregeln", "Ass-Zehn-Spiel · Spiel 21 von 388 ♦", "Spieler", "2–4", "Dauer",
        "20 Min.", "Alter", "ab 12", "Anspruch", "mittel", "Karten",
        "36 Karten (6–A), dazu Chips", "Können – Glück", "KönnenGlück",
        "Jeder für sich – Viel Interaktion", "Jeder für sichViel Interaktion",
        "Einfach – Komplex", "EinfachKomplex", "Schnell – Lang", "SchnellLang",
        "Stimmung lebhaft", "Sammlungen: Spiele für zwei · Spiele für drei · Spiele für vier",
        "Punkteblock", "Partien werden in diesem Browser auf diesem Gerät gespeichert.",
        "Gegner10♥10♥♥29Ziehstapel mitTrumpfkarteK♣9♣8♠8♠♠Deine Hand",
        "Bura zu zweit – so liegen die Karten nach dem Geben", "Quellen",
        "Ausführliche Regeln",
    }),
    ("de/buraco", "004_eed7fbadbc6f8bca.txt", set()),
]


def normalized(text: str) -> str:
    """Text without Markdown markup, list markers, heading ids and extra white space."""
    text = re.sub(r"\{#[a-z0-9-]+\}", " ", text)
    text = re.sub(r"^\s*(?:[-*•]|\d+\.)\s+", "", text, flags=re.M)
    text = re.sub(r"^\s*\|?\s*:?-{3,}.*$", "", text, flags=re.M)
    text = re.sub(r"[#*_|>`]", " ", text)
    return " ".join(text.split())


def content_lines(seed: str, furniture: set[str]) -> list[str]:
    lines = (SEEDS / seed).read_text(encoding="utf-8").splitlines()
    return [normalized(line) for line in lines
            if line.strip() and line.strip() not in furniture]


@pytest.mark.parametrize("game", GAMES)
@pytest.mark.parametrize("lang", LANGUAGES)
def test_each_document_parses_into_sections(game, lang):
    document = load_document(game, lang)
    assert document.title
    assert len(document.sections) >= 5
    sections = document.sections
    for section, following in zip(sections, [*sections[1:], None]):
        has_parts = following is not None and following.level > section.level
        assert section.markdown or has_parts, f"section {section.id} is empty"


@pytest.mark.parametrize("game", GAMES)
def test_both_languages_have_the_same_section_ids_in_the_same_order(game):
    german, english = (load_document(game, lang) for lang in ("de", "en"))
    assert [(s.id, s.level) for s in german.sections] == \
        [(s.id, s.level) for s in english.sections]


@pytest.mark.parametrize("document, seed, furniture", SOURCES, ids=[s[0] for s in SOURCES])
def test_every_line_of_the_source_text_is_in_the_document(document, seed, furniture):
    lang, game = document.split("/")
    text = normalized(document_path(game, lang).read_text(encoding="utf-8"))
    missing = [line for line in content_lines(seed, furniture) if line not in text]
    assert not missing, "lines of the seed not in the document:\n" + "\n".join(missing)


@pytest.mark.parametrize("game", GAMES)
def test_variants_are_sections_of_their_own(game):
    ids = [section.id for section in load_document(game, "de").sections]
    assert "variants" in ids
    assert any(section_id.startswith("variant-") for section_id in ids)


def test_the_burraco_scoring_table_is_restored_and_marked_in_both_languages():
    for lang, marker in (("de", "wiederhergestellt"), ("en", "restored")):
        section = load_document("burraco", lang).section("scoring")
        assert marker in section.markdown.lower()
        for value in ("30", "20", "15", "10", "5", "200", "100", "150"):
            assert value in section.markdown


def test_burro_keeps_the_passing_game_of_the_same_name_out():
    """RULES-NOTES E5: "Burro" is also a Spanish passing game; the reference must not mix
    it in."""
    for lang in LANGUAGES:
        text = document_path("burro", lang).read_text(encoding="utf-8").lower()
        assert "four of a kind" not in text and "vier gleiche" not in text


@pytest.mark.parametrize("text, problem", [
    ("no title", "must start"),
    ("# T\nloose text\n## A {#a}\nx", "text before"),
    ("# T\n## A\nx", "without an {#id}"),
    ("# T\n## A {#a}\nx\n## B {#a}\ny", "used twice"),
])
def test_format_errors_are_named(text, problem):
    with pytest.raises(ValueError, match=re.escape(problem)):
        parse_document(text, "burro", "de")
