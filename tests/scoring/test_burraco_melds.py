"""Burraco's melds: card values, sets, sequences, wildcards and burracos, each test quoting the
seed (002, German) or RULES-NOTES B1, B4, B5; then properties against a slow reference."""

import dataclasses
from collections import Counter

import pytest
from hypothesis import given
from hypothesis import strategies as st

from scoring.burraco import (
    CARD_VALUES,
    BurracoKind,
    Meld,
    MeldKind,
    can_meld,
    card_value,
    verify_meld,
)
from scoring.cards import (
    JOKER,
    NATURAL_RANKS,
    Card,
    Rank,
    Suit,
    parse_card,
    parse_cards,
    rummy_deck,
)
from scoring.errors import CardError, MeldError, ScoringError

DECK = rummy_deck()
# The ladder of seed 002, "A 2 3 … 10 B D K A": position 0 is the low ace, 13 the high ace.
LADDER = (Rank.ACE, Rank.TWO, Rank.THREE, Rank.FOUR, Rank.FIVE, Rank.SIX, Rank.SEVEN,
          Rank.EIGHT, Rank.NINE, Rank.TEN, Rank.JACK, Rank.QUEEN, Rank.KING, Rank.ACE)
BONUS = {None: 0, BurracoKind.PULITO: 200, BurracoKind.SPORCO: 100,
         BurracoKind.SEMIPULITO: 150}
CODES = {"meld_too_short", "meld_only_wildcards", "meld_too_many_wildcards", "meld_mixed",
         "meld_not_consecutive", "meld_card_twice", "meld_ace_both_ends", "meld_set_too_big"}


def meld(text, semipulito=False):
    return verify_meld(parse_cards(text), semipulito=semipulito)


def refusal(text, semipulito=False):
    cards = parse_cards(text)
    with pytest.raises(MeldError) as error:
        verify_meld(cards, semipulito=semipulito)
    assert not can_meld(cards, semipulito=semipulito)
    return error.value


def card(code):
    return None if code is None else parse_card(code)


def codes(cards):
    return [c.code for c in cards]


def with_the_ace_moved(order):
    """A run of all 13 places reads ace low or ace high alike (A 2 … K or 2 … K A); the spec
    does not say which end the checker shows, so either is accepted."""
    order = list(order)
    if len(order) != 13:
        return [order]
    if order[0].rank is Rank.ACE:
        return [order, order[1:] + order[:1]]
    if order[-1].rank is Rank.ACE:
        return [order, order[-1:] + order[:-1]]
    return [order]


# --- Card values ---------------------------------------------------------------------------

@pytest.mark.parametrize("rank, value", [
    (Rank.JOKER, 30), (Rank.TWO, 20), (Rank.ACE, 15),
    (Rank.KING, 10), (Rank.QUEEN, 10), (Rank.JACK, 10), (Rank.TEN, 10), (Rank.NINE, 10),
    (Rank.EIGHT, 10),
    (Rank.SEVEN, 5), (Rank.SIX, 5), (Rank.FIVE, 5), (Rank.FOUR, 5), (Rank.THREE, 5),
])
def test_card_values(rank, value):
    """RULES-NOTES B1: "| Joker | 30 |", "| 2 (wild or natural) | 20 |", "| Ace | 15 |",
    "| K, Q, J, 10, 9, 8 | 10 |", "| 7, 6, 5, 4, 3 | 5 |"."""
    cards = [JOKER] if rank is Rank.JOKER else [Card(rank, suit) for suit in Suit]
    assert {card_value(c) for c in cards} == {value}


def test_the_value_table_holds_the_same_figures():
    assert set(CARD_VALUES.values()) == {30, 20, 15, 10, 5}


def test_the_whole_pack_is_worth_what_the_table_says():
    # 8 × (15 + 20 + 5 × 5 + 6 × 10) + 4 × 30
    assert sum(card_value(c) for c in DECK) == 8 * 120 + 120


@pytest.mark.parametrize("text, points", [
    ("JK 6D 7D", 40),          # the joker stands for 5♦ and still counts 30
    ("4H 4S 4D 4C 2H", 40),    # the 2 stands for a 4 and still counts 20
    ("2S 3S 4S", 30),          # a natural 2 counts 20 as well
    ("AS 2S 3S 2H 5S", 65),
])
def test_a_wildcard_counts_its_own_value(text, points):
    """RULES-NOTES B1: "A wildcard counts its own value, whatever card it stands for." """
    assert meld(text).points == points


# --- The seed's worked example -------------------------------------------------------------

def test_the_seed_example_clean_run_three_to_nine_of_hearts():
    """Seed 002, Abrechnung: "eine reine Folge 3♥ bis 9♥ (5 × 5 + 10 + 10 = 45)" and
    "reiner Burraco 200"."""
    result = meld("3♥ 4♥ 5♥ 6♥ 7♥ 8♥ 9♥")
    assert result.kind is MeldKind.SEQUENCE
    assert result.points == 45
    assert result.burraco == BurracoKind.PULITO == "pulito"
    assert result.bonus == 200
    assert result.wildcard is None and result.stands_for is None


def test_the_seed_example_three_aces_with_a_joker():
    """Seed 002, Abrechnung: "drei Asse mit Joker (45 + 30 = 75)"."""
    result = meld("A♥ A♠ A♦ JK")
    assert result.kind is MeldKind.SET
    assert result.points == 75
    assert result.burraco is None and result.bonus == 0
    assert result.wildcard == JOKER
    assert result.stands_for is Rank.ACE


def test_the_seed_example_six_queens_and_a_two():
    """Seed 002, Abrechnung: "einen unreinen Burraco aus sechs Damen und einer 2
    (60 + 20 = 80)"."""
    result = meld("D♠ D♠ D♥ D♥ D♦ D♣ 2♣")
    assert result.kind is MeldKind.SET
    assert result.points == 80
    assert result.burraco == BurracoKind.SPORCO == "sporco"
    assert result.bonus == 100
    assert result.wildcard == card("2C")
    assert result.stands_for is Rank.QUEEN


def test_the_seed_example_short_club_run():
    """Seed 002, Abrechnung: "4♣ 5♣ 6♣ (15)"."""
    result = meld("4♣ 5♣ 6♣")
    assert (result.kind, result.points, result.burraco, result.bonus) == \
        (MeldKind.SEQUENCE, 15, None, 0)


def test_the_seed_example_sides_add_up():
    """Seed 002, Abrechnung: "Karten 120 − 10, reiner Burraco 200" for Nord/Süd and "95 − 40"
    for Ost/West, whose burraco is unrein (100)."""
    north_south = [meld("3♥ 4♥ 5♥ 6♥ 7♥ 8♥ 9♥"), meld("A♥ A♠ A♦ JK")]
    east_west = [meld("D♠ D♠ D♥ D♥ D♦ D♣ 2♣"), meld("4♣ 5♣ 6♣")]
    assert sum(m.points for m in north_south) == 120
    assert sum(m.bonus for m in north_south) == 200
    assert sum(m.points for m in east_west) == 95
    assert sum(m.bonus for m in east_west) == 100
    assert sum(card_value(c) for c in parse_cards("7♠ 3♦")) == 10
    assert sum(card_value(c) for c in parse_cards("K♠ JK")) == 40


# --- Sets ----------------------------------------------------------------------------------

@pytest.mark.parametrize("text, wildcard, stands_for", [
    # Seed 002: "Satz: drei oder mehr Karten gleichen Werts, z. B. 10 10 10 oder 4 4 4 4 2."
    ("10H 10S 10D", None, None),
    ("4H 4S 4D 4C 2H", "2H", Rank.FOUR),
    # Two packs: the same card may lie twice in a set.
    ("QS QS QH", None, None),
    ("5H 5S JK", "JK", Rank.FIVE),
    ("7H 7S 2H", "2H", Rank.SEVEN),
    ("KD KD KC KC 2D", "2D", Rank.KING),
    ("AS AS AH AH AD AD AC AC JK", "JK", Rank.ACE),
])
def test_sets(text, wildcard, stands_for):
    """Seed 002: "Satz: drei oder mehr Karten gleichen Werts, z. B. 10 10 10 oder 4 4 4 4 2."
    RULES-NOTES B5: "A set holds at most 9 cards (8 naturals from two packs + 1 wildcard)." """
    result = meld(text)
    assert result.kind is MeldKind.SET == "set"
    assert result.wildcard == card(wildcard)
    assert result.stands_for == stands_for
    assert Counter(result.order) == Counter(parse_cards(text))
    assert can_meld(parse_cards(text))


def test_a_two_in_a_set_is_always_a_wildcard():
    """RULES-NOTES B5: "No set of 2s or jokers." Two 2s in a set are two wildcards."""
    assert refusal("5H 5S 2H 2S").code == "meld_too_many_wildcards"
    assert meld("5H 5S 5D 2H").wildcard == card("2H")


@pytest.mark.parametrize("text", [
    "2H 2S 2D", "2H 2S 2D 2C", "2C 2C 2D", "JK JK JK", "2H JK JK", "2S 2S JK", "JK 2D 2D 2H",
])
def test_no_meld_of_wildcards_only(text):
    """Seed 002: "Ein Satz nur aus Platzhaltern ist nicht erlaubt – drei Zweien sind kein
    Satz." """
    assert refusal(text).code == "meld_only_wildcards"


def test_a_set_holds_at_most_nine_cards():
    """RULES-NOTES B5: "A set holds at most 9 cards (8 naturals from two packs + 1 wildcard)."
    Nine is the most two packs allow: a tenth queen does not exist, a second wildcard is
    one too many."""
    assert verify_meld(parse_cards("QS QS QH QH QD QD QC QC JK")).burraco == "sporco"
    with pytest.raises(CardError) as error:
        verify_meld(parse_cards("QS QS QH QH QD QD QC QC QS"))
    assert error.value.code == "card_copies"
    assert refusal("QS QS QH QH QD QD QC QC 2S JK").code == "meld_too_many_wildcards"


# --- Sequences -----------------------------------------------------------------------------

@pytest.mark.parametrize("text, order", [
    # Seed 002: "Folge: drei oder mehr Karten einer Farbe in Reihe, z. B. 7♥ 8♥ 9♥."
    ("7♥ 8♥ 9♥", "7H 8H 9H"),
    ("9♥ 7♥ 8♥", "7H 8H 9H"),
    # Seed 002: "Die Reihenfolge ist A 2 3 … 10 B D K A"
    ("10♥ B♥ D♥ K♥ A♥", "10H JH QH KH AH"),
    ("Q♠ A♠ K♠", "QS KS AS"),
    ("3♠ A♠ 2♠", "AS 2S 3S"),
    ("AS 2S 3S 4S 5S 6S 7S 8S 9S 10S JS QS KS",
     "AS 2S 3S 4S 5S 6S 7S 8S 9S 10S JS QS KS"),
    ("KC QC JC 10C 9C 8C 7C 6C 5C 4C 3C AC 2C",
     "AC 2C 3C 4C 5C 6C 7C 8C 9C 10C JC QC KC"),
])
def test_clean_sequences(text, order):
    """Seed 002: "Folge: drei oder mehr Karten einer Farbe in Reihe, z. B. 7♥ 8♥ 9♥. Die
    Reihenfolge ist A 2 3 … 10 B D K A: Das Ass darf unter der 2 oder über dem König liegen,
    aber nicht beides in derselben Folge." """
    result = meld(text)
    assert result.kind is MeldKind.SEQUENCE == "sequence"
    assert result.wildcard is None and result.stands_for is None
    assert codes(result.order) == order.split()


def test_a_two_in_its_own_place_is_no_wildcard():
    """Seed 002: "Eine 2, die an ihrem echten Platz in einer Folge ihrer Farbe liegt
    (z. B. 2♠ 3♠ 4♠), zählt nicht als Platzhalter"."""
    result = meld("2♠ 3♠ 4♠")
    assert result.kind is MeldKind.SEQUENCE
    assert result.wildcard is None and result.stands_for is None
    assert codes(result.order) == ["2S", "3S", "4S"]


@pytest.mark.parametrize("text, wildcard, stands_for, order", [
    # Seed 002: "Ein Platzhalter am Ende einer Folge liegt immer am unteren Ende
    # (z. B. Joker 6♦ 7♦)"
    ("JK 6D 7D", "JK", "5D", "JK 6D 7D"),
    ("7D 8D JK", "JK", "6D", "JK 7D 8D"),
    ("JK KS AS", "JK", "QS", "JK KS AS"),
    ("QH KH AH 2H", "2H", "JH", "2H QH KH AH"),   # a 2 outside its place is a wildcard
    ("KC AC 2C", "2C", "QC", "2C KC AC"),         # … also after the high ace
    ("2S 6S 7S", "2S", "5S", "2S 6S 7S"),
    ("2H 3S 4S", "2H", "2S", "2H 3S 4S"),         # a wild 2 may stand for the suit's 2
    ("JK 2S 3S", "JK", "AS", "JK 2S 3S"),         # below a natural 2 lies the low ace
    ("2S 3S 4S 5S 6S 7S 8S 9S 10S JS QS KS JK", "JK", "AS",
     "JK 2S 3S 4S 5S 6S 7S 8S 9S 10S JS QS KS"),
    ("3S 4S 5S 6S 7S 8S 9S 10S JS QS KS AS JK", "JK", "2S",
     "JK 3S 4S 5S 6S 7S 8S 9S 10S JS QS KS AS"),
    # Only where the low end is impossible (an ace low) does it go to the high end.
    ("AH 2H 3H JK", "JK", "4H", "AH 2H 3H JK"),
    ("JK AH 3H 2H", "JK", "4H", "AH 2H 3H JK"),
    ("JK AS 2S", "JK", "3S", "AS 2S JK"),
    ("AS 2S 3S 4S 5S 6S 7S 8S 9S 10S JS QS JK", "JK", "KS",
     "AS 2S 3S 4S 5S 6S 7S 8S 9S 10S JS QS JK"),
    # A wildcard in a gap stands for the missing card.
    ("5H JK 7H", "JK", "6H", "5H JK 7H"),
    ("5H 2C 7H", "2C", "6H", "5H 2C 7H"),
    ("AS 3S JK", "JK", "2S", "AS JK 3S"),
    ("2S 3S 5S", "2S", "4S", "3S 2S 5S"),         # the 2 cannot lie in its place here
    ("AS JK 3S 4S 5S 6S 7S 8S 9S 10S JS QS KS", "JK", "2S",
     "AS JK 3S 4S 5S 6S 7S 8S 9S 10S JS QS KS"),
])
def test_where_the_wildcard_of_a_sequence_lies(text, wildcard, stands_for, order):
    """Seed 002: "Platzhalter (Joker und Zweien) können in einer Kombination eine fehlende Karte
    ersetzen." and "Ein Platzhalter am Ende einer Folge liegt immer am unteren Ende (z. B. Joker
    6♦ 7♦), damit du deinem Partner nicht verrätst, in welche Richtung du verlängern willst." """
    result = meld(text)
    assert result.kind is MeldKind.SEQUENCE
    assert result.wildcard == card(wildcard)
    assert result.stands_for == card(stands_for)
    assert list(result.order) in with_the_ace_moved(parse_cards(order))
    assert result.burraco in (None, BurracoKind.SPORCO)


@pytest.mark.parametrize("text, stands_for", [
    ("7D 8D JK", "6D"),
    ("2S 3S JK", "AS"),
    ("2S 3S 2H", "AS"),
    ("2H 2H 3H", "AH"),
    ("2S 3S 4S 5S 6S 7S 8S JK", "AS"),
])
def test_no_reading_puts_an_end_wildcard_on_top_when_it_could_lie_below(text, stands_for):
    """Seed 002: "Ein Platzhalter am Ende einer Folge liegt immer am unteren Ende". Below a
    natural 2 lies the low ace, so the low end is free and no reading may show the wildcard
    above the run."""
    for semipulito in (False, True):
        result = meld(text, semipulito=semipulito)
        assert {reading.stands_for for reading in result.readings} == {card(stands_for)}


def test_a_sequence_may_hold_its_natural_two_and_one_wildcard():
    """Seed 002: "so eine Folge darf also zusätzlich einen Joker oder eine andere 2 enthalten."
    RULES-NOTES B5: "a sequence may hold its natural 2 and one wildcard (♠A ♠2 ♠3 ♥2 ♠5 is legal
    and dirty)." """
    result = meld("A♠ 2♠ 3♠ 2♥ 5♠")
    assert result.kind is MeldKind.SEQUENCE
    assert result.wildcard == card("2H")
    assert result.stands_for == card("4S")
    assert codes(result.order) == ["AS", "2S", "3S", "2H", "5S"]
    assert result.points == 65


def test_the_second_copy_of_a_two_may_be_the_wildcard():
    """RULES-NOTES B5: "A 2 of the sequence's own suit outside its own place is a wildcard";
    with two packs, one 2♥ lies in its place and the other stands for A♥ at the low end."""
    result = meld("2H 2H 3H")
    assert result.kind is MeldKind.SEQUENCE
    assert result.wildcard == card("2H")
    assert result.stands_for == card("AH")
    assert codes(result.order) == ["2H", "2H", "3H"]


def test_only_one_wildcard_besides_the_natural_two():
    """Seed 002: "Platzhalter: In jeder Kombination ist höchstens ein Platzhalter erlaubt." """
    assert refusal("AS 2S 3S 2H JK").code == "meld_too_many_wildcards"


def test_the_clean_reading_of_a_two_wins():
    """RULES-NOTES B5: "Where a 2 can be read as natural or wild, the reading that keeps the meld
    clean wins; the checker may show the other readings." """
    result = meld("2♣ 3♣ 4♣ 5♣ 6♣ 7♣ 8♣")
    assert result.burraco == BurracoKind.PULITO
    assert result.bonus == 200
    assert result.wildcard is None
    assert result.readings[0].burraco == BurracoKind.PULITO
    assert result.readings[0].wildcard is None


@pytest.mark.parametrize("text", [
    "3♥ 4♥ 5♥ 6♥ 7♥ 8♥ 9♥", "A♥ 2♥ 3♥ JK", "2♣ 3♣ 4♣ 5♣ 6♣ 7♣ 8♣", "D♠ D♠ D♥ D♥ D♦ D♣ 2♣",
    "A♠ 2♠ 3♠ 2♥ 5♠", "2♠ 3♠ 4♠",
])
def test_the_first_reading_is_the_meld_itself(text):
    result = meld(text)
    first = result.readings[0]
    assert (first.kind, first.burraco, first.bonus, first.wildcard, first.stands_for,
            tuple(first.order)) == (result.kind, result.burraco, result.bonus,
                                    result.wildcard, result.stands_for, tuple(result.order))
    assert first.bonus == max(reading.bonus for reading in result.readings)


# --- Refused melds -------------------------------------------------------------------------

@pytest.mark.parametrize("text, code", [
    # Seed 002: "Eine Kombination besteht aus mindestens drei Karten"
    ("", "meld_too_short"), ("7H", "meld_too_short"), ("7H 8H", "meld_too_short"),
    ("QS QH", "meld_too_short"), ("7H JK", "meld_too_short"),
    # Seed 002: "In jeder Kombination ist höchstens ein Platzhalter erlaubt."
    ("5H 6H JK JK", "meld_too_many_wildcards"), ("7S 7H 2C JK", "meld_too_many_wildcards"),
    ("5H 6H 7H 2S JK", "meld_too_many_wildcards"), ("9C 9C 9D 2H 2H", "meld_too_many_wildcards"),
    # Neither one rank nor one suit.
    ("5H 6S 7D", "meld_mixed"), ("5H 5S 6H", "meld_mixed"), ("KH QS JK", "meld_mixed"),
    ("AH KS QH", "meld_mixed"),
    # Seed 002: "in Reihe"
    ("5H 6H 9H", "meld_not_consecutive"), ("3H 4H 5H 7H", "meld_not_consecutive"),
    ("5H 8H JK", "meld_not_consecutive"), ("5H 7H 9H JK", "meld_not_consecutive"),
    ("2H 4H 7H", "meld_not_consecutive"), ("AH 2H 4H", "meld_not_consecutive"),
    # The same card twice in a sequence.
    ("5♥ 5♥ 6♥", "meld_card_twice"), ("5H 6H 7H 6H", "meld_card_twice"),
    ("QS KS AS KS", "meld_card_twice"),
    # Seed 002: "Das Ass darf unter der 2 oder über dem König liegen, aber nicht beides in
    # derselben Folge."
    ("AS 2S 3S 4S 5S 6S 7S 8S 9S 10S JS QS KS AS", "meld_ace_both_ends"),
    ("AS 2S 3S 4S 5S 6S 7S 8S 9S 10S JS QS KS JK", "meld_ace_both_ends"),
    ("AS JK 3S 4S 5S 6S 7S 8S 9S 10S JS QS KS AS", "meld_ace_both_ends"),
])
def test_refused_melds_name_the_rule(text, code):
    """Seed 002: "Eine Kombination besteht aus mindestens drei Karten", "Platzhalter: In jeder
    Kombination ist höchstens ein Platzhalter erlaubt." """
    error = refusal(text)
    assert isinstance(error, ScoringError)
    assert error.code == code


@pytest.mark.parametrize("text", ["KH AH 2H 3H", "QD KD AD 2D 3D", "KC AC 2C 3C 4C"])
def test_a_sequence_does_not_turn_the_corner(text):
    """Seed 002: "Das Ass darf unter der 2 oder über dem König liegen, aber nicht beides in
    derselben Folge." (K A 2 is no run.)"""
    assert refusal(text).code in {"meld_not_consecutive", "meld_ace_both_ends"}


# --- Burracos ------------------------------------------------------------------------------

@pytest.mark.parametrize("text, semipulito, burraco, bonus", [
    # Seed 002: "Rein (pulito): ohne Platzhalter – Prämie 200."
    ("3H 4H 5H 6H 7H 8H 9H", False, BurracoKind.PULITO, 200),
    ("3H 4H 5H 6H 7H 8H 9H 10H", True, BurracoKind.PULITO, 200),
    ("2C 3C 4C 5C 6C 7C 8C", True, BurracoKind.PULITO, 200),
    ("KS KS KH KH KD KD KC", False, BurracoKind.PULITO, 200),
    # Seed 002: "Unrein (sporco): mit Platzhalter – Prämie 100."
    ("QS QS QH QH QD QC 2C", False, BurracoKind.SPORCO, 100),
    ("QS QS QH QH QD QC 2C", True, BurracoKind.SPORCO, 100),     # 7 cards: never semipulito
    ("JK 5H 6H 7H 8H 9H 10H", True, BurracoKind.SPORCO, 100),
    ("JK 4H 5H 6H 7H 8H 9H 10H", False, BurracoKind.SPORCO, 100),  # option off
    ("QS QS QH QH QD QD QC 2H", False, BurracoKind.SPORCO, 100),
    ("3H 4H 5H JK 7H 8H 9H 10H", True, BurracoKind.SPORCO, 100),   # no 7 naturals in a row
    ("3H JK 5H 6H 7H 8H 9H 10H", True, BurracoKind.SPORCO, 100),
    # RULES-NOTES B4: semipulito (option)
    ("JK 4H 5H 6H 7H 8H 9H 10H", True, BurracoKind.SEMIPULITO, 150),
    ("3H JK 5H 6H 7H 8H 9H 10H JH", True, BurracoKind.SEMIPULITO, 150),
    ("AS 2S 3S 4S 5S 6S 7S JK", True, BurracoKind.SEMIPULITO, 150),  # the 2♠ is natural
    ("2H 3H 4H 5H 6H 7H 8H JK", True, BurracoKind.SEMIPULITO, 150),
    ("2H 3H 4H 5H 6H 7H 8H 2S", True, BurracoKind.SEMIPULITO, 150),
    ("QS QS QH QH QD QD QC 2H", True, BurracoKind.SEMIPULITO, 150),
    ("AS AS AH AH AD AD AC AC JK", True, BurracoKind.SEMIPULITO, 150),
    ("AS AS AH AH AD AD AC AC JK", False, BurracoKind.SPORCO, 100),
    # Under seven cards: no burraco.
    ("JK 5H 6H 7H 8H 9H", True, None, 0),
    ("QS QS QH QH QD QC", True, None, 0),
])
def test_burracos(text, semipulito, burraco, bonus):
    """Seed 002: "Burraco: eine Kombination aus sieben oder mehr Karten." and Varianten:
    "Halbreiner Burraco: Ein Burraco aus 8+ Karten mit sieben natürlichen Karten in Reihe (oder
    sieben gleichen) plus Platzhalter ist semipulito und zählt 150."
    RULES-NOTES B4: "With the option off it is dirty (100)." """
    result = meld(text, semipulito=semipulito)
    assert result.burraco == burraco
    assert result.bonus == bonus
    assert result.readings[0].burraco == burraco


def test_the_semipulito_wildcard_still_lies_at_the_low_end():
    result = meld("AS 2S 3S 4S 5S 6S 7S JK", semipulito=True)
    assert result.stands_for == card("8S")   # the ace is low: the joker goes on top


def test_a_meld_is_frozen():
    result = meld("7H 8H 9H")
    assert isinstance(result, Meld)
    with pytest.raises(dataclasses.FrozenInstanceError):
        result.points = 0


# --- Properties ----------------------------------------------------------------------------

WILDCARDS = [JOKER] + [Card(Rank.TWO, suit) for suit in Suit]
SET_RANKS = [rank for rank in NATURAL_RANKS if rank is not Rank.TWO]


@st.composite
def legal_sequences(draw):
    """A run of 3–13 cards in the ladder, maybe with one wildcard in it or added to it."""
    suit = draw(st.sampled_from(list(Suit)))
    length = draw(st.integers(3, 13))
    start = draw(st.integers(0, 14 - length))
    cards = [Card(rank, suit) for rank in LADDER[start:start + length]]
    wildcard = draw(st.sampled_from([None] + WILDCARDS))
    if wildcard is not None:
        if length < 13 and draw(st.booleans()):
            cards.append(wildcard)
        else:
            cards[draw(st.integers(0, length - 1))] = wildcard
    return cards


@st.composite
def legal_sets(draw):
    """2–8 copies of a rank (at most two per suit) and a wildcard, or 3–8 without."""
    rank = draw(st.sampled_from(SET_RANKS))
    copies = [Card(rank, suit) for suit in Suit for _ in range(2)]
    wildcard = draw(st.sampled_from([None] + WILDCARDS))
    size = draw(st.integers(3 if wildcard is None else 2, 8))
    picked = draw(st.lists(st.integers(0, 7), min_size=size, max_size=size, unique=True))
    return [copies[i] for i in picked] + ([wildcard] if wildcard else [])


legal_melds = st.one_of(legal_sequences(), legal_sets())


def spare_cards(cards):
    """The cards of the pack not yet used up by ``cards`` (two packs: each card twice, four
    jokers)."""
    left = Counter(DECK) - Counter(cards)
    return sorted(left, key=lambda c: c.code)


@st.composite
def near_melds(draw):
    """A legal meld with one card added, dropped or swapped for another card of the pack."""
    cards = list(draw(legal_melds))
    change = draw(st.sampled_from(["add", "drop", "swap", "none"]))
    if change == "add":
        cards.append(draw(st.sampled_from(spare_cards(cards))))
    elif change == "drop":
        cards.pop(draw(st.integers(0, len(cards) - 1)))
    elif change == "swap":
        index = draw(st.integers(0, len(cards) - 1))
        cards[index] = draw(st.sampled_from(spare_cards(cards)))
    return cards


def judgement(cards, semipulito):
    try:
        result = verify_meld(cards, semipulito=semipulito)
    except MeldError as error:
        return error.code
    order = tuple(result.order) if result.kind is MeldKind.SEQUENCE else None
    return (result.kind, result.points, result.burraco, result.bonus, result.wildcard,
            result.stands_for, order)


@given(legal_sequences(), st.booleans())
def test_constructed_sequences_are_accepted(cards, semipulito):
    """Seed 002: "Folge: drei oder mehr Karten einer Farbe in Reihe" with at most one wildcard;
    RULES-NOTES B5: "A sequence holds at most 13 natural cards plus one wildcard"."""
    result = verify_meld(cards, semipulito=semipulito)
    assert result.kind is MeldKind.SEQUENCE
    assert result.points == sum(card_value(c) for c in cards)


@given(legal_sets(), st.booleans())
def test_constructed_sets_are_accepted(cards, semipulito):
    """Seed 002: "Satz: drei oder mehr Karten gleichen Werts"; RULES-NOTES B5: "A set holds at
    most 9 cards (8 naturals from two packs + 1 wildcard)." """
    result = verify_meld(cards, semipulito=semipulito)
    assert result.kind is MeldKind.SET
    assert result.points == sum(card_value(c) for c in cards)
    naturals = [c for c in cards if c not in WILDCARDS]
    wildcards = [c for c in cards if c in WILDCARDS]
    assert result.wildcard == (wildcards[0] if wildcards else None)
    assert result.stands_for == (naturals[0].rank if wildcards else None)


def other_wildcards(suit):
    return [JOKER] + [Card(Rank.TWO, other) for other in Suit if other is not suit]


@st.composite
def runs_with_a_gap(draw):
    suit = draw(st.sampled_from(list(Suit)))
    length = draw(st.integers(3, 13))
    start = draw(st.integers(0, 14 - length))
    run = [Card(rank, suit) for rank in LADDER[start:start + length]]
    gap = draw(st.integers(1, length - 2))
    return run, gap, draw(st.sampled_from(other_wildcards(suit)))


@given(runs_with_a_gap())
def test_a_wildcard_in_a_gap_stands_for_the_missing_card(case):
    """Seed 002: "Platzhalter (Joker und Zweien) können in einer Kombination eine fehlende Karte
    ersetzen." """
    run, gap, wildcard = case
    cards = run[:gap] + [wildcard] + run[gap + 1:]
    result = verify_meld(cards)
    assert result.wildcard == wildcard
    suit = run[0].suit
    if {c.rank for c in cards if c != wildcard} == set(LADDER[2:12]) | {Rank.ACE}:
        # A 3 … Q and a wildcard: the ace low with the wildcard as the 2, or the ace high with
        # it as the king. The spec does not rank the two; both must be among the readings.
        both = {Card(Rank.TWO, suit), Card(Rank.KING, suit)}
        assert result.stands_for in both
        assert {reading.stands_for for reading in result.readings} == both
        return
    assert result.stands_for == run[gap]
    assert list(result.order) in with_the_ace_moved(cards)


@st.composite
def runs_with_an_open_end(draw):
    suit = draw(st.sampled_from(list(Suit)))
    length = draw(st.integers(2, 12))
    start = draw(st.integers(0, 14 - length))
    return suit, start, length, draw(st.sampled_from(other_wildcards(suit)))


@given(runs_with_an_open_end())
def test_a_wildcard_at_an_open_end_lies_at_the_low_end(case):
    """Seed 002: "Ein Platzhalter am Ende einer Folge liegt immer am unteren Ende (z. B. Joker
    6♦ 7♦)"; above the run only when the run starts with the low ace."""
    suit, start, length, wildcard = case
    run = [Card(rank, suit) for rank in LADDER[start:start + length]]
    result = verify_meld(run + [wildcard])
    if start > 0:
        assert result.stands_for == Card(LADDER[start - 1], suit)
        assert list(result.order) in with_the_ace_moved([wildcard] + run)
    else:
        assert result.stands_for == Card(LADDER[length], suit)
        assert list(result.order) in with_the_ace_moved(run + [wildcard])


@given(st.one_of(legal_melds, near_melds()).flatmap(
    lambda cards: st.tuples(st.just(cards), st.permutations(cards))), st.booleans())
def test_any_order_of_the_cards_is_judged_the_same(pair, semipulito):
    """RULES-NOTES B5: "Validity depends on the cards only, not on the order they are given
    in." """
    cards, shuffled = pair
    assert judgement(shuffled, semipulito) == judgement(cards, semipulito)


@given(st.one_of(st.lists(st.integers(0, len(DECK) - 1), unique=True, max_size=16)
                 .map(lambda picked: [DECK[i] for i in picked]),
                 near_melds()),
       st.booleans())
def test_the_checker_answers_a_meld_or_a_meld_error(cards, semipulito):
    try:
        result = verify_meld(cards, semipulito=semipulito)
    except MeldError as error:
        assert error.code in CODES
        assert can_meld(cards, semipulito=semipulito) is False
        return
    assert can_meld(cards, semipulito=semipulito) is True
    assert isinstance(result, Meld)
    assert result.points == sum(card_value(c) for c in cards)
    assert Counter(result.order) == Counter(cards)
    assert result.wildcard is None or result.wildcard in cards
    assert (result.wildcard is None) == (result.stands_for is None)
    assert result.burraco is None if len(cards) < 7 else result.burraco is not None
    assert result.bonus == BONUS[result.burraco]
    if result.burraco is not None:
        assert (result.burraco == BurracoKind.PULITO) == (result.wildcard is None)
    if not semipulito or len(cards) < 8:
        assert result.burraco != BurracoKind.SEMIPULITO
    assert result.readings[0].burraco == result.burraco
    assert result.readings[0].bonus == max(reading.bonus for reading in result.readings)


@given(st.one_of(legal_melds, near_melds()), st.booleans())
def test_no_reading_shows_an_end_wildcard_on_top_unless_the_low_ace_closes_the_bottom(
        cards, semipulito):
    """Seed 002: "Ein Platzhalter am Ende einer Folge liegt immer am unteren Ende". Every
    reading is a legal one, so none has its wildcard above the run while the bottom is free."""
    try:
        result = verify_meld(cards, semipulito=semipulito)
    except MeldError:
        return
    for reading in result.readings:
        order = list(reading.order)
        if reading.kind is MeldKind.SEQUENCE and reading.wildcard is not None \
                and order[-1] == reading.wildcard and len(order) < 13:
            assert order[0].rank is Rank.ACE, [c.code for c in order]


# The slow reference for clean melds (no jokers, no 2s), straight from the seed's words.
NATURAL_DECK = [c for c in DECK if not c.is_joker and c.rank is not Rank.TWO]


def reference_is_clean_meld(cards):
    if not 3 <= len(cards) <= 9:
        return False
    if len({c.rank for c in cards}) == 1:
        return len(cards) <= 8
    if len({c.suit for c in cards}) != 1 or len(set(cards)) != len(cards):
        return False
    low = {rank: i for i, rank in enumerate(LADDER[:13])}           # A 2 … K
    high = {rank: i for i, rank in enumerate(LADDER[1:])}           # 2 … K A
    for ladder in (low, high):
        places = sorted(ladder[c.rank] for c in cards)
        if places == list(range(places[0], places[0] + len(places))):
            return True
    return False


@st.composite
def near_clean_melds(draw):
    """Natural cards of the pack (no card thrice): a run or a set, then maybe one change."""
    if draw(st.booleans()):
        suit = draw(st.sampled_from(list(Suit)))
        length = draw(st.integers(3, 9))
        start = draw(st.integers(2, 14 - length))      # 3 … A, as there are no 2s
        cards = [Card(rank, suit) for rank in LADDER[start:start + length]]
    else:
        rank = draw(st.sampled_from(SET_RANKS))
        copies = [Card(rank, suit) for suit in Suit for _ in range(2)]
        picked = draw(st.lists(st.integers(0, 7), min_size=3, max_size=8, unique=True))
        cards = [copies[i] for i in picked]
    change = draw(st.sampled_from(["add", "drop", "swap", "none", "none"]))
    spare = [c for c in spare_cards(cards) if c in NATURAL_DECK]
    if change == "add" and len(cards) < 9:
        cards.append(draw(st.sampled_from(spare)))
    elif change == "drop" and len(cards) > 3:
        cards.pop(draw(st.integers(0, len(cards) - 1)))
    elif change == "swap":
        cards[draw(st.integers(0, len(cards) - 1))] = draw(st.sampled_from(spare))
    return draw(st.permutations(cards))


@given(near_clean_melds(), st.booleans())
def test_clean_melds_agree_with_reading_the_seed(cards, semipulito):
    """Seed 002: "Satz: drei oder mehr Karten gleichen Werts", "Folge: drei oder mehr Karten
    einer Farbe in Reihe" and "Die Reihenfolge ist A 2 3 … 10 B D K A"."""
    legal = reference_is_clean_meld(cards)
    assert can_meld(cards, semipulito=semipulito) is legal
    if legal:
        result = verify_meld(cards, semipulito=semipulito)
        assert result.wildcard is None and result.stands_for is None
        assert result.burraco == (BurracoKind.PULITO if len(cards) >= 7 else None)
        assert result.kind is (MeldKind.SET if len({c.rank for c in cards}) == 1
                               else MeldKind.SEQUENCE)


# --- Burraco Reale (B7) ----------------------------------------------------------------------

def reale(text):
    return verify_meld(parse_cards(text), variant="reale")


@pytest.mark.parametrize("text, burraco, points", [
    # "Burraco nobile: 500 punti (sequenza da A a K senza pinelle)"
    ("AH 2H 3H 4H 5H 6H 7H 8H 9H 10H JH QH KH", BurracoKind.NOBILE, 110),
    # "Burraco reale: 1000 punti (sequenza da A a A senza pinelle)"
    ("AH 2H 3H 4H 5H 6H 7H 8H 9H 10H JH QH KH AH", BurracoKind.REALE, 125),
    ("AH 2H 3H 4H 5H 2S 7H 8H 9H 10H JH QH KH AH", BurracoKind.SPORCO, 130),
    ("5H 6H 7H 8H 9H 10H JH", BurracoKind.PULITO, 55),
    ("5H 6H 7H 2C 9H 10H JH", BurracoKind.SPORCO, 55),
])
def test_burraco_reale_runs_of_the_whole_suit(text, burraco, points):
    """RULES-NOTES B7: "nobile (a clean run A–K) 500, reale (a clean run A–A, 14 cards)
    1,000"; values "ace 15, pinella 10, K–8 10, 7–3 5"."""
    result = reale(text)
    assert (result.burraco, result.points) == (burraco, points)


@pytest.mark.parametrize("text, code", [
    ("QS QH QD", "meld_sequences_only_reale"),
    ("5H 6H 2C 2D", "meld_too_many_wildcards"),
    ("5H 6H JK", "card_not_in_deck"),
])
def test_burraco_reale_refuses_sets_two_wildcards_and_jokers(text, code):
    """B7: "two packs without jokers (104 cards); sequences only, no sets; the 2s … at most
    one a meld besides a 2 in its natural place"."""
    with pytest.raises(ScoringError) as error:
        reale(text)
    assert error.value.code == code
    assert not can_meld(parse_cards(text), variant="reale")


def test_burraco_reale_keeps_a_natural_two_beside_its_pinella():
    """B7: "at most one a meld besides a 2 in its natural place between ace and 3"."""
    assert reale("AH 2H 3H 2S").wildcard == parse_card("2S")


def test_the_classic_game_has_no_run_from_ace_to_ace():
    """B5: "an ace at one end only"."""
    assert refusal("AH 2H 3H 4H 5H 6H 7H 8H 9H 10H JH QH KH AH").code == "meld_ace_both_ends"
