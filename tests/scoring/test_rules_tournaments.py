"""The Burraco rules on tournaments (RULES-NOTES B8): the section and its parts in both
languages, the printed Victory Points tables against the ones the sheet applies, and the
rules of movements, byes, standings and confirmation as the club night plays them."""

import pytest
from test_rules_content import ADDED, section_markdown, table, words

from rules_content import LANGUAGES, load_document
from scoring.burraco import TOURNAMENT_HANDS, VICTORY_POINT_TABLES
from scoring.movements import BYE_VP, Movement, danish, mitchell, most_turns
from scoring.victory_points import MAX_BANDS, parse_bands, read_table

PARTS = ["tournament-turn", "tournament-victory-points", "tournament-club-table",
         "tournament-movements", "tournament-bye", "tournament-standings",
         "tournament-confirming"]
# The first column's heading of each FIBUR table, by language and hands a turn.
FIBUR_HEADINGS = {("en", 3): "MP difference, 3 hands", ("en", 4): "MP difference, 4 hands",
                  ("de", 3): "MP-Unterschied, 3 Spiele", ("de", 4): "MP-Unterschied, 4 Spiele"}


def fibur_as_printed(lang: str, hands: int):
    """The FIBUR table of the rules text, read as a club's table is read from its lines."""
    rows = table(section_markdown("burraco", lang, "tournament-victory-points"),
                 FIBUR_HEADINGS[lang, hands])
    assert rows, f"{lang}: no table headed {FIBUR_HEADINGS[lang, hands]!r}"
    lines = "\n".join(f"{difference} {vp}" for difference, vp in rows.items())
    return read_table({"name": "FIBUR", "hands": hands, "bands": parse_bands(lines)})


@pytest.mark.parametrize("lang", LANGUAGES)
def test_tournaments_are_a_section_of_their_own_after_the_end_of_a_match(lang):
    """B8 gives tournaments a section of the notes of their own; each of its topics is a
    part with an id the "why?" links can name."""
    sections = load_document("burraco", lang).sections
    ids = [section.id for section in sections]
    start = ids.index("tournaments")
    assert ids[start - 1] == "end" and sections[start].level == 2
    assert ids[start + 1:start + 1 + len(PARTS)] == PARTS
    assert {section.level for section in sections if section.id in PARTS} == {3}
    assert section_markdown("burraco", lang, "tournaments").startswith(ADDED[lang])


@pytest.mark.parametrize("lang", LANGUAGES)
@pytest.mark.parametrize("hands", sorted(VICTORY_POINT_TABLES))
def test_every_band_of_the_printed_fibur_tables_is_the_band_the_sheet_applies(lang, hands):
    """B8: "| 0–50 | 10–10 | 0–100 | 10–10 | … | more than 1500 | 20–0 | more than 2000 |
    20–0 |" – the Italian federation's tables for 3 and 4 hands (FIBUR Codice di Gara
    art. 17), printed alike by puntiburraco.it and eburraco.com."""
    assert fibur_as_printed(lang, hands).bands == VICTORY_POINT_TABLES[hands].bands


@pytest.mark.parametrize("lang, rules", [
    ("en", ["2, 3 or 4", "match points", "the sum of its scores over the turn's hands",
            "higher match points minus the lower", "cannot be played by two or three"]),
    ("de", ["2, 3 oder 4", "Matchpunkte", "die Summe seiner Ergebnisse aus den Spielen des "
            "Durchgangs", "höhere Matchpunktzahl minus die niedrigere",
            "Zu zweit oder zu dritt gibt es keinen Turnierdurchgang"]),
])
def test_a_turn_is_a_fixed_number_of_hands_between_two_pairs(lang, rules):
    """B8: "each table plays a fixed number of hands per turn (2, 3 or 4). The hand scores
    are summed into match points (MP); the MP difference between the two pairs becomes
    Victory Points (VP)". """
    text = words("burraco", lang, "tournament-turn")
    assert TOURNAMENT_HANDS == (2, 3, 4)
    for rule in rules:
        assert rule in text


@pytest.mark.parametrize("lang, rules", [
    ("en", ["on a 20-point scale", "add up to 20", "a draw gives 10–10",
            "a standard example that a tournament may change", "the table is the club's "
            "choice, and the score sheet names the one it used",
            "No public table for 2 hands was found, so for 2 hands a club enters its own"]),
    ("de", ["auf einer 20er-Skala", "zusammen 20", "ein Unentschieden bringt 10–10",
            "ein übliches Beispiel, das ein Turnier ändern darf", "Die Tabelle wählt der "
            "Club, und der Spielzettel nennt die, nach der gewertet wurde",
            "Für 2 Spiele wurde keine öffentliche Tabelle gefunden; dafür gibt ein Club "
            "seine eigene ein"]),
])
def test_victory_points_are_a_20_point_scale_of_the_club_s_choosing(lang, rules):
    """B8: "the MP difference … becomes Victory Points (VP) on a 20-point scale"; eburraco
    "calls its table a standard example that a tournament may change — so the table is the
    club's choice, and the sheet names the one it used." "No 2-hand or team table was found
    in a public source: ship none, let a club enter its own." """
    text = words("burraco", lang, "tournament-victory-points")
    for rule in rules:
        assert rule in text
    assert 2 not in VICTORY_POINT_TABLES


@pytest.mark.parametrize("lang, example", [
    ("en", ["1230 to 465 match points, a difference of 765", "655–800",
            "North–South get {0} VP, East–West {1}", "A difference of 300 gives {2}–{3} over "
            "three hands (255–350) and {4}–{5} over four (105–300)"]),
    ("de", ["1230 zu 465 Matchpunkte, ein Unterschied von 765", "655–800",
            "Nord-Süd bekommen {0} Siegpunkte, Ost-West {1}", "Ein Unterschied von 300 "
            "Punkten bringt bei drei Spielen {2}–{3} (255–350) und bei vier Spielen {4}–{5} "
            "(105–300)"]),
])
def test_the_worked_examples_score_as_the_sheet_scores_them(lang, example):
    """The seed's hand, 410 to 155 (seed 002, Abrechnung), three times over; and the
    question players ask, a difference of 300, in both FIBUR tables (B8)."""
    figures = [*VICTORY_POINT_TABLES[3].of((1230, 465)), *VICTORY_POINT_TABLES[3].of((300, 0)),
               *VICTORY_POINT_TABLES[4].of((300, 0))]
    assert figures == [16, 4, 13, 7, 11, 9]
    text = words("burraco", lang, "tournament-victory-points")
    for phrase in example:
        assert phrase.format(*figures) in text


@pytest.mark.parametrize("lang, rules", [
    ("en", ["start at a difference of 0", "without gaps or overlaps", "the last band is open",
            "the first band holds the draw, so both pairs get the same Victory Points",
            "the pair ahead gets at least as many as the pair behind",
            "add up to the table's total (20 on the usual scale) where the table gives one",
            "the pair ahead never gets fewer, and the pair behind never more, as the "
            "difference grows", "at most {most} bands", '"0–50 10–10"', '"1505+ 20–0"']),
    ("de", ["bei einem Unterschied von 0 beginnen", "ohne Lücke und ohne Überschneidung",
            "die letzte Stufe offen ist", "die erste Stufe das Unentschieden enthält, beide "
            "Paare dort also gleich viele Siegpunkte bekommen", "das vordere Paar mindestens "
            "so viele bekommt wie das hintere", "die Summe der Tabelle ergeben (20 auf der "
            "üblichen Skala), wo die Tabelle eine nennt", "das vordere Paar mit wachsendem "
            "Unterschied nie weniger bekommt und das hintere nie mehr", "höchstens {most} "
            "Stufen", "„0–50 10–10“", "„1505+ 20–0“"]),
])
def test_a_club_s_own_table_states_what_makes_it_valid(lang, rules):
    """B8: the table is the club's choice. The rules a club's table keeps are the ones it is
    checked by (scoring/victory_points.py ``check``): bands from 0 without gaps, the draw
    even, each band summing to the total, the pair ahead never getting fewer."""
    text = words("burraco", lang, "tournament-club-table")
    for rule in rules:
        assert rule.format(most=MAX_BANDS) in text


def test_the_club_table_s_example_lines_are_read_as_written():
    """The lines the rules text shows a club are the lines the form reads."""
    assert parse_bands("0–50 10–10\n55–150 11–9\n1505+ 20–0\nmore than 1500 20–0") == [
        {"from": 0, "to": 50, "vp": [10, 10]}, {"from": 55, "to": 150, "vp": [11, 9]},
        {"from": 1505, "to": None, "vp": [20, 0]}, {"from": 1505, "to": None, "vp": [20, 0]}]


@pytest.mark.parametrize("lang, rules", [
    ("en", ["North–South, one pair at each table, and stays there all evening",
            "moves up one table after each turn", "the last table's to table 1",
            "even number of tables", "larger step, 2 or 3 tables a turn",
            "so that the pairs of one club do not meet",
            "1st meets 2nd, 3rd meets 4th", "never a rematch of the turn just played",
            "each pair meets each other pair once, N × (N − 1) / 2 matches",
            "head-to-head result", "then by total match points",
            "the first turns as a Mitchell and the last one as a Danish"]),
    ("de", ["Nord-Süd, an jedem Tisch ein Paar, und bleibt den ganzen Abend sitzen",
            "rückt nach jedem Durchgang einen Tisch weiter", "die vom letzten Tisch an Tisch 1",
            "gerade Zahl von Tischen", "größeren Schritten weiterrücken, 2 oder 3 Tische",
            "damit sich die Paare eines Clubs nicht begegnen",
            "Der 1. spielt gegen den 2., der 3. gegen den 4.",
            "nie dieselbe Begegnung wie im gerade gespielten Durchgang",
            "Jedes Paar trifft einmal auf jedes andere, bei N Paaren N × (N − 1) / 2",
            "direkte Vergleich", "danach die Summe der Matchpunkte",
            "die ersten Durchgänge als Mitchell und den letzten dänisch"]),
])
def test_the_movements_are_mitchell_danish_modified_danish_and_round_robin(lang, rules):
    """B8: "Mitchell: North–South pairs stay at their table, East–West pairs move up one
    table each turn (EW at table 1 goes to table 2 …, the last to table 1); an even number
    of tables; clubs sometimes move by 2 or 3 so that pairs of one club do not meet."
    "Danish (danese puro): … 1st meets 2nd, 3rd meets 4th, …; modified Danish: the same,
    but never a rematch of the previous turn." "Round robin (all'italiana): each pair meets
    each other once, N × (N − 1) / 2 matches; ties by the head-to-head result, then by
    total match points." "A common mix: the first turns Mitchell, the last one Danish." """
    text = words("burraco", lang, "tournament-movements")
    for rule in rules:
        assert rule in text
    assert {movement.value for movement in Movement} == {
        "mitchell", "danish", "modified_danish", "round_robin"}


def test_the_movements_seat_pairs_as_the_text_says():
    """The text's Mitchell (four tables: North–South stay, East–West move up one, the last
    table's to table 1; a full round as many turns as tables) and Danish (1st meets 2nd,
    3rd meets 4th; the modified one never repeats the last turn) are the seatings played."""
    first, second = mitchell(8, 0), mitchell(8, 1)
    assert [north_south for north_south, _ in second.tables] == [0, 1, 2, 3]
    assert [east_west for _, east_west in second.tables] == [7, 4, 5, 6]
    assert [east_west for _, east_west in first.tables] == [4, 5, 6, 7]
    assert most_turns(Movement.MITCHELL, 8) == 4 and most_turns(Movement.ROUND_ROBIN, 8) == 7
    assert danish(4, [2, 0, 3, 1]).tables == ((2, 0), (3, 1))
    assert danish(4, [2, 0, 3, 1], last=danish(4, [2, 0, 3, 1])).tables == ((2, 3), (0, 1))


@pytest.mark.parametrize("lang, rules", [
    ("en", ["one pair has no opponents in each turn and sits out", "The club decides what a "
            "bye scores", "{vp} VP and 0 MP", "the lowest-placed pair that has not sat out yet"]),
    ("de", ["bleibt in jedem Durchgang ein Paar ohne Gegner und setzt aus", "Was das bringt, "
            "entscheidet der Club", "{vp} SP und 0 MP", "das am tiefsten platzierte Paar, das "
            "noch nicht spielfrei war"]),
])
def test_a_bye_is_the_club_s_rule_and_scores_12_vp_by_default(lang, rules):
    """B8: "A bye (odd number of pairs) is a club's rule; default: the pair without
    opponents scores 12 VP and 0 MP, and the sheet says so (option)." """
    text = words("burraco", lang, "tournament-bye")
    for rule in rules:
        assert rule.format(vp=BYE_VP) in text
    assert danish(5, [0, 1, 2, 3, 4], byes_had=[4]).bye == 3


@pytest.mark.parametrize("lang, rules", [
    ("en", ["by their total Victory Points, then by their total match points",
            "in a round robin the head-to-head result comes between the two",
            "Pairs still level share a place"]),
    ("de", ["nach der Summe ihrer Siegpunkte, dann nach der Summe ihrer Matchpunkte",
            "bei jeder gegen jeden kommt dazwischen der direkte Vergleich",
            "Paare, die dann noch gleichauf liegen, teilen sich den Platz"]),
])
def test_standings_go_by_victory_points_then_match_points(lang, rules):
    """B8: VP decide, match points break the tie ("ties by the head-to-head result, then by
    total match points" in a round robin)."""
    text = words("burraco", lang, "tournament-standings")
    for rule in rules:
        assert rule in text


@pytest.mark.parametrize("lang, rules", [
    ("en", ["one player fills in the score sheet, and an opponent countersigns it before it "
            "is handed in", "only the referee corrects it",
            "each pair confirms the result with its own code from the organiser",
            "once both pairs have confirmed, or once the organiser confirms for the table",
            "if a hand is changed before it counts, the pairs confirm again",
            "Only the organiser can reopen it for a correction",
            "reopening ends every confirmation"]),
    ("de", ["Ein Spieler führt den Spielzettel, und ein Gegner unterschreibt ihn, bevor er "
            "abgegeben wird", "korrigiert ihn nur noch die Turnierleitung",
            "bestätigt jedes Paar das Ergebnis mit seinem eigenen Code von der Turnierleitung",
            "sobald beide Paare bestätigt haben oder die Turnierleitung es für den Tisch "
            "bestätigt", "Wird ein Spiel geändert, bevor das Ergebnis gilt, bestätigen die "
            "Paare noch einmal", "Nur die Turnierleitung kann es für eine Korrektur wieder "
            "öffnen", "damit enden alle Bestätigungen"]),
])
def test_a_result_counts_once_both_pairs_or_the_organiser_confirm_it(lang, rules):
    """B8: "Score-sheet etiquette: one player fills in the sheet, an opponent countersigns
    it before it is handed in, and after that only the referee corrects it." A club night
    plays it with each pair's code; the organiser confirms for a table and reopens."""
    text = words("burraco", lang, "tournament-confirming")
    for rule in rules:
        assert rule in text
