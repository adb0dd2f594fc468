"""The rules documents: they parse, both languages have the same sections and links, the
German documents (and the English Burro) keep every line of the source texts, and the
marked additions state the rules the sheets apply where the sources are silent."""

import re
from pathlib import Path

import pytest

from rules_content import GAMES, LANGUAGES, document_path, load_document, parse_document

SEEDS = Path(__file__).resolve().parents[2] / "rules_content" / "sources"

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

# A link to a section of the same document: [words](#section-id)
LINK = re.compile(r"\[([^\]]*)\]\(#([a-z0-9-]+)\)")


def normalized(text: str) -> str:
    """Text without Markdown markup, links' targets, list markers, heading ids and extra
    white space."""
    text = LINK.sub(r"\1", text)
    text = re.sub(r"\{#[a-z0-9-]+\}", " ", text)
    text = re.sub(r"^\s*(?:[-*•]|\d+\.)\s+", "", text, flags=re.M)
    text = re.sub(r"^\s*\|?\s*:?-{3,}.*$", "", text, flags=re.M)
    # Emphasis is markup around words, no space of its own: "(**Patt**)" reads "(Patt)".
    text = re.sub(r"[*_`]", "", text)
    text = re.sub(r"[#|>]", " ", text)
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


# --- What the texts say where the seeds are silent or were mistranslated ----------------------

ADDED = {"de": "*Ergänzt", "en": "*Added"}
RESTORED = {"de": "*Wiederhergestellt", "en": "*Restored"}


def section_markdown(game: str, lang: str, section_id: str) -> str:
    section = load_document(game, lang).section(section_id)
    assert section, f"{lang}/{game}.md has no section {section_id}"
    return section.markdown


def words(game: str, lang: str, section_id: str) -> str:
    """A section's words as a reader sees them."""
    return normalized(section_markdown(game, lang, section_id))


def added_words(game: str, lang: str, section_id: str) -> str:
    """The words the project wrote itself: a section's text from its "added" mark on."""
    markdown = section_markdown(game, lang, section_id)
    assert ADDED[lang] in markdown, f"{lang}/{game}.md#{section_id} marks no added text"
    return normalized(markdown[markdown.index(ADDED[lang]):])


def restored_burraco_scoring(lang: str) -> str:
    """The restored part of Burraco's scoring: the tables and notes above their mark."""
    markdown = section_markdown("burraco", lang, "scoring")
    return markdown[:markdown.index(RESTORED[lang])]


def table(markdown: str, heading: str) -> dict[str, str]:
    """The table whose first column is headed ``heading``, as first cell → second cell."""
    for block in markdown.split("\n\n"):
        rows = [[cell.strip() for cell in line.strip().strip("|").split("|")]
                for line in block.strip().splitlines() if line.startswith("|")]
        if rows and rows[0][0] == heading:
            return {row[0]: row[1] for row in rows[2:]}
    return {}


def links(document) -> list[tuple[str, str]]:
    """Every link inside a document, as (the section it stands in, the section it leads to)."""
    return [(section.id, target) for section in document.sections
            for _words, target in LINK.findall(section.markdown)]


@pytest.mark.parametrize("game", GAMES)
@pytest.mark.parametrize("lang", LANGUAGES)
def test_every_link_lands_on_a_section_of_the_same_document(game, lang):
    document = load_document(game, lang)
    ids = {section.id for section in document.sections}
    assert [link for link in links(document) if link[1] not in ids] == []


@pytest.mark.parametrize("game", GAMES)
def test_both_languages_link_the_same_sections(game):
    german, english = (load_document(game, lang) for lang in ("de", "en"))
    assert sorted(links(german)) == sorted(links(english))


@pytest.mark.parametrize("lang", LANGUAGES)
def test_buraco_leads_from_two_or_three_players_to_their_section(lang):
    """Seed 004: "Buraco geht auch zu zweit oder zu dritt. Dann spielt jeder für sich
    allein, das steht bei den Sonderregeln." Those lines are a part of the special rules."""
    overview = section_markdown("buraco", lang, "overview")
    assert [target for _words, target in LINK.findall(overview)] == ["two-or-three"]


@pytest.mark.parametrize("lang, rules", [
    ("de", ["Zu zweit oder zu dritt spielt jeder für sich", "genau einen toten Stapel pro "
            "Spieler", "deinen eigenen toten Stapel", "Wer ausgeht, hat keine Karte mehr auf "
            "der Hand", "Handpunkte sind also 0"]),
    ("en", ["With two or three players, everyone plays alone", "exactly one dead pile per "
            "player", "your own dead pile", "Whoever goes out holds no cards",
            "hand points are therefore 0"]),
])
def test_buraco_two_or_three_players_is_a_part_of_the_special_rules(lang, rules):
    """Seed 004 gives two or three players among the special rules ("das steht bei den
    Sonderregeln"): it is how two or three play, not an option. RULES-NOTES C4: "With two
    or three players each plays alone: the player who went out holds no cards (0 hand
    points)." """
    sections = load_document("buraco", lang).sections
    ids = [section.id for section in sections]
    assert "variant-two-or-three" not in ids
    part = sections[ids.index("special-rules") + 1]
    assert (part.id, part.level) == ("two-or-three", 3)
    assert ids.index("two-or-three") < ids.index("scoring-notes") < ids.index("variants")
    text = words("buraco", lang, "two-or-three")
    added = added_words("buraco", lang, "two-or-three")
    assert rules[0] in text and rules[1] in text
    for rule in rules[2:]:
        assert rule in added


def test_buraco_minimum_meld_is_a_house_rule_of_some_tables():
    """Seed 004: "In manchen Runden gilt für den allerersten Satz eines Teams eine
    Mindestpunktzahl": some tables play it, not some hands."""
    text = words("buraco", "en", "variant-minimum-meld")
    assert "At some tables" in text and "house rule" in text
    assert "rounds" not in text


@pytest.mark.parametrize("lang, rules", [
    ("de", ["In manchen Runden gilt", "an manchen Tischen", "in manchen Gruppen, die zusammen "
            "spielen", "Hausregel", "für die ganze Partie",
            "Ausgelegte Sätze bleiben bis zum Rundenende liegen", "mindestens so viele "
            "Tischpunkte, wie die Mindestpunktzahl verlangt"]),
    ("en", ["At some tables (a house rule)", "At some tables", "in some groups of players "
            "who play together", "house rule", "for the whole match",
            "Melded sets stay on the table until the round ends", "at least as many table "
            "points as the minimum asks for"]),
])
def test_buraco_minimum_meld_says_the_same_in_both_languages(lang, rules):
    """Seed 004's "In manchen Runden" means some groups of players (a house rule), as the
    English "At some tables (a house rule)" says. RULES-NOTES C4: "melds never leave the
    table, so a side that melded shows at least M table points." """
    text = words("buraco", lang, "variant-minimum-meld")
    assert rules[0] in text
    added = added_words("buraco", lang, "variant-minimum-meld")
    for rule in rules[1:]:
        assert rule in added


@pytest.mark.parametrize("lang, named, silent, sources, caps", [
    ("de", ["nennt die Kartenwerte und die Prämien für reine und unreine Buracos"],
     ["zur schwarzen Drei, die auf der Hand bleibt", "zur Prämie für rote Dreien",
      "zur Prämie fürs Ausgehen", "zum toten Stapel, der nie aufgenommen wird",
      "zum Ausgehen nur mit reinem Buraco", "zur genauen Zielsumme"],
     ["dem klassischen Canasta und pagat.com"],
     ["Keine Drei kommt je in einen Satz", "beider Teams zusammen sind darum höchstens 1000",
      "Asse 160, Zweien 160, König bis 10 zusammen 320, 4 bis 9 zusammen 240, Joker 120",
      "zählen zusammen höchstens 1020", "Schwarze Dreien kann man behalten"]),
    ("en", ["gives the card values and the bonuses for clean and dirty buracos"],
     ["a black three left in hand", "the bonus for red threes", "the bonus for going out",
      "a dead pile that is never taken", "going out only with a clean buraco",
      "the exact target"],
     ["classic Canasta and pagat.com"],
     ["No three ever goes into a set", "both teams' table points together are at most 1000",
      "aces 160, twos 160, king down to 10 together 320, 4 to 9 together 240, jokers 120",
      "count at most 1020 together", "black threes can be held"]),
])
def test_buraco_points_at_a_glance_say_what_is_added_and_the_caps(lang, named, silent,
                                                                  sources, caps):
    """RULES-NOTES C1: the seed gives the card values and the buraco bonuses; the rest is
    "decided where the seed is silent (classic Canasta and pagat's Buraco as sources)".
    C4: "No three is ever melded …, so both sides' table points together are at most
    1,000: aces 160, 2s 160, K–10 320, 4–9 240, jokers 120. The hand points' cap stays
    1,020 (black threes can be held)." """
    added = added_words("buraco", lang, "scoring-notes")
    assert "schweigt hierzu" not in added and "silent here" not in added
    for phrase in named + silent + sources + caps:
        assert phrase in added


BRAZILIAN_PRESETS = ["variant-minimum-meld", "variant-brazilian", "variant-fechado",
                     "variant-aberto", "variant-stbl", "variant-canastras-reais"]


@pytest.mark.parametrize("lang, rules", [
    ("de", ["Quelltext des Burraco", "Brasilianisches Buraco: Die Zusatzhände heißen mortos",
            "Bis auf die Kartenwerte und den Namen der Zusatzhände (mortos) folgen die "
            "brasilianischen Spiele dem Burraco", "höchstens ein Platzhalter",
            "Sätze gleichen Werts und Folgen", "Dreien sind ganz normale Karten",
            "Rote Dreien bringen keine Prämie", "schwarze Dreien dürfen ausgelegt werden",
            "Der morto wird genommen wie im Burraco der Pozzetto", "seine Handkarten "
            "aufgebraucht", "Ohne ihn darf das Team nicht ausgehen",
            "das seinen morto nie nimmt, bekommt −100", "Üblich sind 3000 Punkte"]),
    ("en", ["source text of Burraco", "Brazilian Buraco: the extra hands are called mortos",
            "Apart from the card values and the name of the extra hands (mortos), the "
            "Brazilian games follow Burraco", "at most one wild card",
            "Both sets of one rank and sequences", "Threes are ordinary cards",
            "red threes earn no bonus", "black threes may be melded",
            "The morto is taken as the pozzetto is in Burraco", "used up their hand cards",
            "Without it the team may not go out", "never takes its morto scores −100",
            "usually 3000 points"]),
])
def test_buraco_brazilian_follows_burraco_and_credits_its_source(lang, rules):
    """RULES-NOTES C3: "Apart from the values and the name of the extra hands (mortos), the
    Brazilian variants follow Burraco, and the rules page must say so: a meld holds at most
    one wildcard; threes are ordinary cards …; the morto is taken like the pozzetto …, is
    needed to go out, and costs − 100 if never taken. The source is seed 002's
    'Varianten' …, not pagat." """
    text = words("buraco", lang, "variant-brazilian")
    for rule in rules:
        assert rule in text
    assert "pagat" not in text.lower()
    values = table(section_markdown("buraco", lang, "variant-brazilian"),
                   "Karte" if lang == "de" else "Card")
    assert [re.sub(r"\D", "", value) for value in values.values()] == \
        ["20", "10", "15", "10", "5"]


@pytest.mark.parametrize("lang", LANGUAGES)
def test_buraco_brazilian_presets_are_parts_of_their_own_in_order(lang):
    """RULES-NOTES C5: the presets Fechado, Aberto and STBL (jogatina.com "Buraco Fechado
    STBL") and the option canastras reais (GameDesire's Buraco help)."""
    sections = load_document("buraco", lang).sections
    variants = [section.id for section in sections[[s.id for s in sections].index("variants"):]]
    assert variants[1:] == BRAZILIAN_PRESETS
    assert {section.level for section in sections if section.id in BRAZILIAN_PRESETS} == {3}


@pytest.mark.parametrize("lang, preset, rules", [
    ("de", "variant-fechado", ["jogatina.com", "Sätze gleichen Werts sind erlaubt",
                               "Nur seine oberste Karte ist zu sehen",
                               "genügt jede Canastra (jeder Buraco), rein oder unrein"]),
    ("de", "variant-aberto", ["jogatina.com", "Nur Folgen sind erlaubt, keine Sätze",
                              "sodass jede Karte zu sehen ist", "reine Canastra"]),
    ("de", "variant-stbl", ["jogatina.com", "sem trinca, bate limpo",
                            "Nur Folgen sind erlaubt, keine Sätze",
                            "Nur seine oberste Karte ist zu sehen", "reine Canastra"]),
    ("de", "variant-canastras-reais", ["GameDesire", "vom Ass bis zum König (13 Karten) "
                                       "bringt eine Prämie von 500",
                                       "vom Ass bis zum Ass (14 Karten) eine von 1000",
                                       "statt der Prämie von 200"]),
    ("en", "variant-fechado", ["jogatina.com", "Sets of one rank are allowed",
                               "only its top card can be seen",
                               "Any canastra (any buraco), clean or dirty, is enough"]),
    ("en", "variant-aberto", ["jogatina.com", "Only sequences are allowed, no sets",
                              "so that every card can be seen", "a clean canastra"]),
    ("en", "variant-stbl", ["jogatina.com", "sem trinca, bate limpo",
                            "Only sequences are allowed, no sets",
                            "only its top card can be seen", "a clean canastra"]),
    ("en", "variant-canastras-reais", ["GameDesire", "from ace to king (13 cards) earns a bonus "
                                       "of 500", "from ace to ace (14 cards) one of 1000",
                                       "in place of the bonus of 200"]),
])
def test_buraco_each_preset_says_what_differs(lang, preset, rules):
    """RULES-NOTES C5: Fechado — sets allowed, discard pile closed, any canastra; Aberto —
    runs only, open, a clean canastra; STBL — runs only, closed, a clean canastra; canastras
    reais: "a clean run A–K is worth 500 and a clean run A–A 1,000, in place of the clean
    bonus"."""
    added = added_words("buraco", lang, preset)
    for rule in rules:
        assert rule in added


@pytest.mark.parametrize("lang, rows, pile", [
    ("de", [["Fechado", "erlaubt", "geschlossen", "mit jedem Buraco"],
            ["Aberto", "nicht erlaubt, nur Folgen", "offen", "nur mit reinem Buraco"],
            ["STBL", "nicht erlaubt, nur Folgen", "geschlossen", "nur mit reinem Buraco"]],
     "Ob der Ablagestapel offen oder geschlossen liegt, ändert, wie ihr spielt, nicht die "
     "Wertung"),
    ("en", [["Fechado", "allowed", "closed", "with any buraco"],
            ["Aberto", "not allowed, sequences only", "open", "only with a clean buraco"],
            ["STBL", "not allowed, sequences only", "closed", "only with a clean buraco"]],
     "Whether the discard pile is open or closed changes how you play, not the score"),
])
def test_buraco_brazilian_compares_the_presets(lang, rows, pile):
    """RULES-NOTES C5: the comparison table (sets of one rank / discard pile / going out);
    the discard pile is "rules text only": it changes the play, not the score."""
    markdown = section_markdown("buraco", lang, "variant-brazilian")
    table_rows = [[normalized(cell) for cell in line.strip().strip("|").split("|")]
                  for line in markdown.splitlines() if line.startswith("| [")]
    assert table_rows == rows
    assert pile in words("buraco", lang, "variant-brazilian")


@pytest.mark.parametrize("lang, option, default", [
    ("de", "Jede rote Drei", "+100"),
    ("de", "Alle vier roten Dreien", "+800"),
    ("de", "Rote Dreien eines Teams, das nichts ausgelegt hat",
     "−100 je Karte (−800 für alle vier)"),
    ("de", "Ausgehen", "+100"),
    ("de", "Toter Stapel nie aufgenommen", "−100"),
    ("de", "Ausgehen nur mit reinem Buraco", "aus: ein kompletter Buraco genügt, rein oder"),
    ("de", "Mindestpunktzahl für die erste Kombination", "aus"),
    ("de", "Zielsumme", "Üblich sind 3000 Punkte."),
    ("en", "Each red three", "+100"),
    ("en", "All four red threes", "+800"),
    ("en", "Red threes of a team that has melded nothing", "−100 per card (−800 for all four)"),
    ("en", "Going out", "+100"),
    ("en", "Dead pile never taken", "−100"),
    ("en", "Going out only with a clean buraco", "off: a complete buraco, clean or dirty,"),
    ("en", "Minimum first meld", "off"),
    ("en", "Target", "Usually 3000 points."),
])
def test_buraco_added_points_are_options_each_with_its_default(lang, option, default):
    """RULES-NOTES C1: red threes "+ 100 each, + 800 for all four; − 100 each (− 800) if the
    side melded nothing. Option." "Going out: + 100. Option." "A side that never took its
    dead pile: − 100. Option." "Going out needs a complete buraco (clean or dirty; option:
    clean only)." "Minimum first meld: option (off, …)". "Target 3000 (option)" – the seed
    gives it only as an example: "zum Beispiel 3000 Punkte"."""
    options = table(section_markdown("buraco", lang, "scoring-notes"), "Option")
    assert default in options.get(option, ""), options


@pytest.mark.parametrize("section_id, before, after", [
    ("scoring-notes", "Die Zielsumme ist 3000 Punkte.", "Üblich sind 3000 Punkte."),
    ("variant-brazilian", "Die Zielsumme ist 3000 Punkte.", "Üblich sind 3000 Punkte."),
    ("scoring-notes", "Toten Stapel nie aufgenommen", "Toter Stapel nie aufgenommen"),
    ("scoring-notes", "| 5 (wird abgezogen) |",
     "| Schwarze Drei, die beim Rundenende noch auf der Hand liegt | −5 |"),
])
def test_german_buraco_reads_as_reviewed(section_id, before, after):
    """The German review of the added Buraco text (W5, A36, T6): a target that tables agree
    on, the nominative in a table's first cell, and a minus sign for a deducted card."""
    markdown = section_markdown("buraco", "de", section_id)
    assert before not in markdown and after in markdown


@pytest.mark.parametrize("lang", LANGUAGES)
def test_burraco_scoring_writes_signs_close_to_their_numbers(lang):
    """The German review (T5): "+200", "−100", not "+ 200", "− 100" in the restored table."""
    cells = table(restored_burraco_scoring(lang), "Posten" if lang == "de" else "Item")
    assert [cell for cell in cells.values() if re.search(r"[+−] \d", cell)] == []
    assert cells


def test_german_burraco_calls_an_unseen_pozzetto_covered():
    """The German review (A26/W4): "genommen, noch verdeckt" is the word for a pozzetto
    picked up but not looked at."""
    restored = restored_burraco_scoring("de")
    assert "des nicht angesehenen Pozzetto" not in restored
    assert "des verdeckten Pozzettos" in restored and "genommen, noch verdeckt" in restored


@pytest.mark.parametrize("lang, words_of_the_rule", [
    ("de", ["jede Partei, deren Pozzetto bei Spielende nicht genommen ist oder genommen, "
            "noch verdeckt", "auch für die Partei, die schließt", "Partner des Schließenden"]),
    ("en", ["every side whose pozzetto, when the hand ends, is not taken or is picked up but "
            "not yet looked at", "the closing side too", "closer's partner"]),
])
def test_burraco_unseen_pozzetto_costs_the_closing_side_too(lang, words_of_the_rule):
    """RULES-NOTES B2: "The −100 (or the unseen pozzetto's value) applies to every side
    without its pozzetto, however the hand ended, and also to the closing side if the
    closer's partner picked up a pozzetto unseen." """
    restored = normalized(restored_burraco_scoring(lang))
    for phrase in words_of_the_rule:
        assert phrase in restored


@pytest.mark.parametrize("lang, limits", [
    ("de", ["zählen 1080", "Tischpunkte beider Parteien zusammen können also höchstens 1080",
            "aus 18 Karten ist mindestens 90 wert", "aus 11 Karten mindestens 55",
            "den Pozzetto aus 18 immer genommen"]),
    ("en", ["count 1080", "both sides' table points together can be at most 1080",
            "of 18 cards is worth at least 90", "of 11 cards at least 55",
            "always taken the pozzetto of 18"]),
])
def test_burraco_scoring_notes_state_what_a_hand_can_be_worth(lang, limits):
    """RULES-NOTES B6: "Both sides' table points together cannot exceed the cards' total
    (1,080 for 108 cards)"; "the lone player has taken the 18-card pozzetto by definition";
    "an unseen 18-card pozzetto is worth at least 90 (18 × 5), an unseen 11-card one at
    least 55"."""
    restored = normalized(restored_burraco_scoring(lang))
    for limit in limits:
        assert limit in restored


@pytest.mark.parametrize("lang, rules", [
    ("de", ["niemand alle Handkarten losbekommen", "spielt niemand allein",
            "niemand hat einen Pozzetto genommen", "eine Partei für sich", "zahlt die −100",
            "152,5", "„Hälften auf die nächste 5 aufrunden“ (Standard: aus)"]),
    ("en", ["nobody got rid of all their hand cards", "nobody played alone",
            "nobody took a pozzetto", "a side of their own", "pays the −100",
            "152.5", '"round halves up to the next 5" (off by default)']),
])
def test_burraco_three_players_when_nobody_goes_out_and_the_partners_share(lang, rules):
    """RULES-NOTES B6: "nobody ran out of hand cards (the stock ran out, or a stalemate):
    nobody played alone and nobody took a pozzetto; each player is a side of their own for
    that hand and pays the −100"; "the half is kept exactly (152.5); the table may choose
    'round halves up to the next 5' as an option"."""
    added = added_words("burraco", lang, "variant-three-players")
    for rule in rules:
        assert rule in added


def test_bura_english_never_obliges_you_to_beat():
    """Seed 003: "es gibt keinen Farbzwang und keinen Stichzwang, du musst also nie stechen,
    auch wenn du könntest" – stechen is beating the cards in front, not winning the
    trick."""
    text = words("bura", "en", "trick")
    assert "never have to win a trick" not in text
    assert "you never have to beat the cards in front, even if you could" in text


@pytest.mark.parametrize("lang, rules", [
    ("de", ["drei Asse über der Bura und gewinnen sofort den Pot, wie eine Bura",
            "eine Bura, die gegen drei Asse gezeigt wird, verliert",
            "nicht zusammen ausgespielt", "unter drei Assen und über der Molodka"]),
    ("en", ["three aces rank above the Bura and win the pot at once, like a Bura",
            "a Bura shown against three aces loses", "not led together",
            "below three aces and above the Molodka"]),
])
def test_bura_moscow_and_little_moscow_are_settled(lang, rules):
    """RULES-NOTES D10: "three aces rank above the Bura and win the pot at once, like a Bura;
    with Moscow on, a Bura shown against three aces loses to them." D11: "three 6s including
    the trump 6 take the lead like three aces, but are not led together …; it ranks below
    three aces and above Molodka." """
    added = added_words("bura", lang, "variant-moscow")
    for rule in rules:
        assert rule in added


@pytest.mark.parametrize("lang, rules", [
    ("de", ["Zu dritt", "21 statt 31", "60:60", "jeder bekommt 2 Punkte",
            "vier Asse oder eine Bura", "alle anderen 6 Punkte"]),
    ("en", ["With three players", "21 in place of 31", "60:60", "each side gets 2 points",
            "four aces or a Bura", "all the others score 6"]),
])
def test_burkosel_scoring_with_three_a_tie_and_an_instant_win(lang, rules):
    """RULES-NOTES D8: "Three players: both others score, each by their own points, with 21
    in place of 31. 60:60 between two → 2 each. Four aces or a Bura win at once (the others
    score 6)." """
    added = added_words("bura", lang, "variant-burkosel")
    for rule in rules:
        assert rule in added


@pytest.mark.parametrize("lang, rules", [
    ("de", ["12 oder mehr Strafpunkten hat verloren", "Haben alle 12 oder mehr, gewinnt "
            "niemand", "nie zugleich Gewinner und Verlierer"]),
    ("en", ["12 or more penalty points has lost", "If every side has 12 or more, nobody wins",
            "never both winner and loser"]),
])
def test_burkosel_end_has_its_own_section(lang, rules):
    """RULES-NOTES D8: "12 or more loses the match"; D9: "every side that has 12 or more
    after a game has lost; if every side has, nobody wins (winners empty). A side is never
    both winner and loser." """
    added = added_words("bura", lang, "burkosel-end")
    for rule in rules:
        assert rule in added


@pytest.mark.parametrize("lang, rules", [
    ("de", ["8 oder bei 6 Strafpunkten endet statt bei 12 (Standard)", "kürzeren Abend",
            "Burkosel-Apps", "nur mit dieser Grenze statt 12"]),
    ("en", ["8 or at 6 penalty points instead of 12 (the default)", "shorter evening",
            "Burkosel apps", "only with that limit in place of 12"]),
])
def test_burkosel_end_states_the_shorter_lengths(lang, rules):
    """RULES-NOTES D12: "Burkosel, the length of a match (option): lost at 12 (default), or
    at 8 or 6 for a shorter evening (the Burkosel apps' settings)." """
    added = added_words("bura", lang, "burkosel-end")
    for rule in rules:
        assert rule in added


@pytest.mark.parametrize("lang, rules", [
    ("de", ["eburraco.com", "Il calcolo del punteggio nel Burraco Reale",
            "Burraco Reale, i termini del Burraco", "giocodigitale.it",
            "ohne Joker, also 104 Karten", "nur Folgen, keine Sätze",
            "Nur die Zweien (pinelle) sind Platzhalter, höchstens eine je Kombination",
            "an ihrem echten Platz zwischen Ass und 3",
            "nur schließen, wenn sie einen reinen Burraco ausliegen hat",
            "Ass 15", "2 (pinella) 10", "K, D, B, 10, 9, 8 10", "7, 6, 5, 4, 3 5",
            "unreiner Burraco +100", "reiner Burraco +200",
            "Burraco nobile: reine Folge vom Ass bis zum König (13 Karten) +500 statt 200",
            "Burraco reale: reine Folge vom Ass bis zum Ass (14 Karten) +1000 statt 200",
            "Schließen +100", "Pozzetto nie genommen −100"]),
    ("en", ["eburraco.com", "Il calcolo del punteggio nel Burraco Reale",
            "Burraco Reale, i termini del Burraco", "giocodigitale.it",
            "without jokers, that is 104 cards", "sequences only, no sets",
            "only the 2s (pinelle) are wild cards, at most one per meld",
            "in its natural place between ace and 3",
            "may only close if it has a clean burraco on the table",
            "Ace 15", "2 (pinella) 10", "K, Q, J, 10, 9, 8 10", "7, 6, 5, 4, 3 5",
            "dirty burraco +100", "clean burraco +200",
            "burraco nobile: a clean sequence from ace to king (13 cards) +500 in place of 200",
            "burraco reale: a clean sequence from ace to ace (14 cards) +1000 in place of 200",
            "closing +100", "pozzetto never taken −100"]),
])
def test_burraco_reale_is_a_variant_of_its_own(lang, rules):
    """RULES-NOTES B7: "two packs without jokers (104 cards); sequences only, no sets; the
    2s (pinelle) are the only wildcards, at most one a meld besides a 2 in its natural place
    between ace and 3. Values: ace 15, pinella 10, K–8 10, 7–3 5. Burracos: dirty 100,
    clean 200, nobile (a clean run A–K) 500, reale (a clean run A–A, 14 cards) 1,000, each
    in place of the clean bonus. Closing + 100, and a side may close only with a clean
    burraco. Pozzetto never taken − 100." """
    ids = [section.id for section in load_document("burraco", lang).sections]
    assert ids[-2:] == ["variant-brazilian", "variant-reale"]
    added = added_words("burraco", lang, "variant-reale")
    for rule in rules:
        assert rule in added


@pytest.mark.parametrize("lang, rules", [
    ("de", ["eine Partei für sich", "Der Schließende hat darum keine Karte mehr auf der "
            "Hand: Seine Handpunkte sind 0", "Einen verdeckten Pozzetto kann der "
            "Schließende nicht haben"]),
    ("en", ["a side of their own", "So the closer holds no cards: their hand points are 0",
            "The closer cannot have an unseen pozzetto"]),
])
def test_burraco_two_players_the_closer_holds_nothing(lang, rules):
    """RULES-NOTES B6: "Two players: the closer is a side alone. Closing lays down or
    discards every card, so the closer holds no cards (0 hand points) and cannot have an
    unseen pozzetto (the pozzetto closed from has been seen)." """
    added = added_words("burraco", lang, "variant-two-players")
    for rule in rules:
        assert rule in added


@pytest.mark.parametrize("lang, rule", [
    ("de", "Eine Karte einer anderen Farbe darfst du nie legen"),
    ("en", "A card of another suit can never be played"),
])
def test_burro_never_takes_a_card_of_another_suit(lang, rule):
    """Seed 000: "muss jeder bedienen … Hast du eine, musst du eine legen"; "Kannst du nicht
    bedienen? Zieh einzeln Karten vom Ziehstapel, bis du eine Karte der ausgespielten Farbe
    bekommst, und leg sie"; "Ist der Ziehstapel aufgebraucht, passt einfach, wer nicht
    bedienen kann". RULES-NOTES E6 says it outright: a card of another suit cannot be
    played."""
    assert rule in added_words("burro", lang, "trick")


@pytest.mark.parametrize("text, problem", [
    ("no title", "must start"),
    ("# T\nloose text\n## A {#a}\nx", "text before"),
    ("# T\n## A\nx", "without an {#id}"),
    ("# T\n## A {#a}\nx\n## B {#a}\ny", "used twice"),
])
def test_format_errors_are_named(text, problem):
    with pytest.raises(ValueError, match=re.escape(problem)):
        parse_document(text, "burro", "de")
