"""What players type into the rules search at the table, and the section that must answer it.

Each row is a question as a player types it, the language of the page it is asked on, and the
sections that answer it: the one whose title or first sentence states the answer, never one
that mentions the word in passing. A summary ("Quick rules", "Cheat sheet") repeats a rule;
the row names the section that states it. Several sections only where the question truly has
several answers (no game named: each game's rule).
"""

import pytest
from helpers import rule_hits

from rules_content import GAMES, LANGUAGES, load_document

SETUP_OF_EVERY_GAME = frozenset((game, "setup") for game in GAMES)

QUESTIONS = [
    # --- Dealing -------------------------------------------------------------------------------
    # Every game's setup deals: Burro "deals 4 cards to each player", Burraco "deals 11 cards to
    # each player", Bura "until everyone has 3 cards", Buraco "each player is dealt 11 cards".
    ("wieviele Karten bekommt jeder", "de", SETUP_OF_EVERY_GAME),
    ("Karten pro Spieler", "de", SETUP_OF_EVERY_GAME),
    ("how many cards", "en", SETUP_OF_EVERY_GAME),
    # Burro setup "after each hand the player on the dealer's right deals"; Bura setup "whoever
    # claimed in the last game always deals", its claiming "whoever claimed deals the next
    # game"; Burraco setup "the deal passes clockwise to the next player". Buraco says nothing.
    ("who deals next", "en", {("burro", "setup"), ("bura", "setup"), ("bura", "claiming"),
                              ("burraco", "setup")}),

    # --- Who starts ----------------------------------------------------------------------------
    # Burraco turn "Der Spieler links vom Geber beginnt"; Buraco setup "Der Spieler links vom
    # Geber beginnt."; Burro trick "Der rechte Nachbar des Gebers spielt aus"; Bura setup "Zu
    # zweit spielt der Nichtgeber zum ersten Stich aus". Not Burro setup: its "Geber: Einer
    # fängt an" picks the dealer.
    ("wer fängt an", "de", {("burraco", "turn"), ("buraco", "setup"), ("burro", "trick"),
                            ("bura", "setup")}),

    # --- Tricks --------------------------------------------------------------------------------
    # Burro trick "the highest card of the suit led wins the trick"; Bura trick "What beats
    # what: A card is beaten by a higher card of the same suit, and any non-trump card by any
    # trump".
    ("who wins the trick", "en", {("burro", "trick"), ("bura", "trick")}),
    # Burro trick "muss jeder bedienen"; Bura trick "es gibt keinen Farbzwang".
    ("muss ich bedienen", "de", {("burro", "trick"), ("bura", "trick")}),
    # Burro trick "Can't follow suit? Draw cards from the stock one at a time"; Bura trick
    # "There is no obligation to follow suit" answers it for Bura.
    ("can't follow suit", "en", {("burro", "trick"), ("bura", "trick")}),
    # Bura setup "Its suit is trumps for this game"; Burro setup "There are no trumps."
    ("is there a trump suit", "en", {("bura", "setup"), ("burro", "setup")}),

    # --- The stock runs out --------------------------------------------------------------------
    # Burro trick "Ziehstapel leer: … passt einfach, wer nicht bedienen kann"; Bura drawing
    # "Reicht der Ziehstapel … nicht mehr für alle, bleiben die restlichen Karten liegen";
    # Burraco closing "wenn jemand die drittletzte Karte vom Ziehstapel zieht … ist Schluss";
    # Buraco special rules "Ist der Nachziehstapel aufgebraucht … endet die Runde sofort".
    ("was passiert wenn der Stapel leer ist", "de",
     {("burro", "trick"), ("bura", "drawing"), ("burraco", "closing"),
      ("buraco", "special-rules")}),

    # --- Card values ---------------------------------------------------------------------------
    # Burraco scoring "Joker | 30"; Buraco end "each joker counts 30 points".
    ("how much is a joker worth", "en", {("burraco", "scoring"), ("buraco", "end")}),
    # Bura cards "A | 11"; Burraco scoring "Ass | 15"; Buraco end "Asse und Zweien zählen 20".
    ("wie viel zählt ein Ass", "de", {("bura", "cards"), ("burraco", "scoring"),
                                      ("buraco", "end")}),
    # Burro setup "Das Ass ist die niedrigste Karte"; Burraco melds "Das Ass darf unter der 2
    # oder über dem König liegen"; Bura cards "Der Zehner steht direkt unter dem Ass". Not
    # Cangkul's "Ass hoch": a variant.
    ("Ass hoch oder niedrig", "de", {("burro", "setup"), ("burraco", "melds"),
                                     ("bura", "cards")}),
    # Buraco points at a glance "Jede rote Drei | +100"; the special rules define the red
    # threes and link their "Bonuspunkte" there.
    ("wie viele Punkte gibt eine rote Drei", "de", {("buraco", "scoring-notes"),
                                                    ("buraco", "special-rules")}),
    # Buraco special rules "Black threes … may not be melded in normal sets".
    ("black threes", "en", {("buraco", "special-rules")}),

    # --- Melds and wild cards ------------------------------------------------------------------
    # Burraco melds "Satz: drei oder mehr Karten gleichen Werts" (tris: the Italian set).
    ("tris", "de", {("burraco", "melds")}),
    # Kanaster is the German canasta, the seven-card meld: Burraco's burraco "eine Kombination
    # aus sieben oder mehr Karten", Buraco turn "Hat ein Satz deines Teams sieben oder mehr
    # Karten, heißt er Buraco"; or the game: Burraco overview "ein Partnerspiel aus der
    # Canasta-Familie".
    ("Kanaster", "de", {("burraco", "burraco"), ("buraco", "turn"), ("burraco", "overview")}),
    # The pinella is the 2 as a wild card: Burraco cards "Wild cards (jokers and 2s) can replace
    # a missing card", its wild cards "A 2 lying in its real place … does not count as a wild
    # card". Not Burraco Reale, where the word stands but the 2 counts otherwise.
    ("pinella", "en", {("burraco", "cards"), ("burraco", "wildcards")}),
    # Burraco wild cards "each meld may hold at most one wild card"; Buraco turn "at most two
    # wild cards are allowed per set".
    ("how many wild cards in a meld", "en", {("burraco", "wildcards"), ("buraco", "turn")}),
    ("wie viele Platzhalter pro Satz", "de", {("burraco", "wildcards"), ("buraco", "turn")}),
    # Buraco minimum first meld "a minimum point count applies to a team's very first set";
    # Burraco turn "There is no minimum count for your first meld".
    ("minimum first meld", "en", {("buraco", "variant-minimum-meld"), ("burraco", "turn")}),

    # --- The discard pile ----------------------------------------------------------------------
    # Burraco turn "take the whole discard pile into your hand. You may always do that"; Buraco
    # turn "you take the whole discard pile into your hand, if you can use its top card". Not
    # the pozzetti's "picks up one of the pozzetti".
    ("pick up the pile", "en", {("burraco", "turn"), ("buraco", "turn")}),
    ("Ablagestapel aufnehmen", "de", {("burraco", "turn"), ("buraco", "turn")}),

    # --- The extra hands: pozzetto, dead pile, morto -------------------------------------------
    # Buraco setup "These are the two dead piles, one for each team."
    ("dead pile", "en", {("buraco", "setup")}),
    ("Toter Stapel", "de", {("buraco", "setup")}),
    # Buraco turn "you immediately take your dead pile into your hand as well"; with two or
    # three players "take your own dead pile at your first meld".
    ("when do we take the dead pile", "en", {("buraco", "turn"), ("buraco", "two-or-three")}),
    # morto is the Portuguese dead pile: Buraco's Brazilian "The morto is taken as the pozzetto
    # is in Burraco", or what the pile is, Buraco setup "the two dead piles".
    ("morto", "en", {("buraco", "variant-brazilian"), ("buraco", "setup")}),
    # Burraco pozzetti "Wer … als Erster seiner Partei alle Handkarten los ist, nimmt einen der
    # Pozzetti auf" (typed with one z).
    ("Pozetto nehmen", "de", {("burraco", "pozzetti")}),

    # --- Ending a hand -------------------------------------------------------------------------
    # Burraco closing "You may close (go out) when all of this is true: … at least one burraco".
    ("can I close without a burraco", "en", {("burraco", "closing")}),
    ("wann darf ich schließen", "de", {("burraco", "closing")}),
    # Burraco closing "throw back a different one (stalemate)" / "(Patt)".
    ("stalemate", "en", {("burraco", "closing")}),
    ("stalmate", "en", {("burraco", "closing")}),
    ("Patt", "de", {("burraco", "closing")}),

    # --- Winning -------------------------------------------------------------------------------
    # Burro end "Agree in advance on a number of penalty points, e.g. 5."
    ("Burro limit", "en", {("burro", "end")}),
    # Burro overview "whoever is left holding cards at the end is the burro, the donkey";
    # out of cards "That player is the burro and gets a penalty point."
    ("who is the donkey", "en", {("burro", "overview"), ("burro", "out-of-cards")}),
    # Burraco end "Once a side has 2005 or more, the side with more points wins"; "Kürzere
    # Partien gehen bis 1005 oder 505."
    ("2005", "en", {("burraco", "end")}),
    ("1005", "de", {("burraco", "end")}),
    # Bura "31 ansagen": "Sobald du glaubst, dass deine Stiche 31 Augen oder mehr enthalten";
    # "30 or less: You have claimed wrongly and must double the pot".
    ("31", "de", {("bura", "claiming")}),
    ("what if I claim with only 30", "en", {("bura", "claiming")}),

    # --- Tournaments ----------------------------------------------------------------------------
    # Burraco Victory Points "turn the match-point difference into points on a 20-point scale";
    # "A difference of 300 gives 13–7 over three hands (255–350) and 11–9 over four".
    ("how many victory points for a difference of 300", "en",
     {("burraco", "tournament-victory-points")}),
    ("wie viele Siegpunkte bei 300 Punkten Unterschied", "de",
     {("burraco", "tournament-victory-points")}),
    ("punti vittoria", "de", {("burraco", "tournament-victory-points")}),
    # Burraco tournament turn "A pair's match points (MP) are the sum of its scores over the
    # turn's hands".
    ("what are match points", "en", {("burraco", "tournament-turn")}),
    ("Matchpunkte", "de", {("burraco", "tournament-turn")}),
    # Burraco club table "A club's own table is written as bands, one a line".
    ("eigene Tabelle des Clubs", "de", {("burraco", "tournament-club-table")}),
    # Burraco movements "Mitchell: the first half of the pairs sits North–South … and stays
    # there all evening"; "Danish: … 1st meets 2nd, 3rd meets 4th".
    ("what is a Mitchell movement", "en", {("burraco", "tournament-movements")}),
    ("was ist ein Mitchell", "de", {("burraco", "tournament-movements")}),
    ("Wechselplan dänisch", "de", {("burraco", "tournament-movements")}),
    ("even number of tables", "en", {("burraco", "tournament-movements")}),
    # Burraco bye "in a tournament with an odd number of pairs, one pair has no opponents in
    # each turn and sits out"; "Spielfrei heißt: …" (also called a Freilos).
    ("was bedeutet spielfrei", "de", {("burraco", "tournament-bye")}),
    ("Freilos", "de", {("burraco", "tournament-bye")}),
    ("what if the tournament has an odd number of pairs", "en", {("burraco", "tournament-bye")}),
    # Burraco standings "order the pairs by their total Victory Points, then by their total
    # match points".
    ("how are the standings ordered", "en", {("burraco", "tournament-standings")}),
    ("Rangliste", "de", {("burraco", "tournament-standings")}),
    # Burraco confirming "each pair confirms the result with its own code from the organiser";
    # "Only the organiser can reopen it for a correction".
    ("who confirms the result", "en", {("burraco", "tournament-confirming")}),
    ("wer bestätigt das Ergebnis", "de", {("burraco", "tournament-confirming")}),
    ("can the organiser reopen a confirmed result", "en", {("burraco", "tournament-confirming")}),

    # --- Bura's combinations -------------------------------------------------------------------
    # Bura special combinations "Molodka ("young lady") – three cards of the same non-trump
    # suit" (also typed with a c).
    ("molodka", "en", {("bura", "combinations")}),
    ("Molodca", "de", {("bura", "combinations")}),
    # Bura Moscow "three aces are called Moscow and beat even the Bura".
    ("Moskau", "de", {("bura", "variant-moscow")}),

    # --- Burkosel ------------------------------------------------------------------------------
    # Bura's Burkosel "a longer relative, often simply called Kosel ("billy goat")".
    ("Kosel", "de", {("bura", "variant-burkosel")}),
    ("Burkozel", "en", {("bura", "variant-burkosel")}),
    # Burkosel end of the match "Sobald eine Seite … 12 oder mehr hat, ist die Partie vorbei".
    ("wann ist die Partie bei Burkosel vorbei", "de", {("bura", "burkosel-end")}),

    # --- Variants by their names ---------------------------------------------------------------
    # Burro em Pé "("standing donkey", Portugal): split the stock into two halves".
    ("standing donkey", "en", {("burro", "variant-em-pe")}),
    # Burraco three players "11 cards each, one pozzetto of 18 and one of 11".
    ("Burraco zu dritt", "de", {("burraco", "variant-three-players")}),

    # --- The games by their names --------------------------------------------------------------
    # Each game's overview: Bura "Bura ist ein schnelles russisches Glücksspiel" (not Buraco,
    # nor the Bura of three trumps); Burraco "ein Partnerspiel aus der Canasta-Familie" (not the
    # seven-card meld of that name); Buraco "You need two complete 52-card packs"; Burro
    # "Burro („Esel“) ist ein Familienspiel" (not Burro em Pé's "stehender Esel").
    ("Bura", "en", {("bura", "overview")}),
    ("Bura", "de", {("bura", "overview")}),
    ("Burraco", "de", {("burraco", "overview")}),
    ("Buraco", "en", {("buraco", "overview")}),
    ("Esel", "de", {("burro", "overview")}),
]


@pytest.mark.parametrize("query, lang, expected", QUESTIONS,
                         ids=[f"{lang}-{query}" for query, lang, _ in QUESTIONS])
def test_a_player_s_question_finds_the_section_that_answers_it_first(client, query, lang,
                                                                     expected):
    found = rule_hits(client, query, lang=lang)
    assert found, "nothing found"
    first = found[0]
    leading = [(hit["game"], hit["section"], hit["lang"]) for hit in found[:3]]
    assert (first["game"], first["section"]) in expected, leading
    assert first["lang"] == lang, leading


EXPECTED_SECTIONS = sorted({pair for _, _, expected in QUESTIONS for pair in expected})


@pytest.mark.parametrize("lang", LANGUAGES)
@pytest.mark.parametrize("game, section", EXPECTED_SECTIONS)
def test_every_expected_section_is_in_the_rules_of_both_languages(game, section, lang):
    assert load_document(game, lang).section(section), (game, lang, section)
