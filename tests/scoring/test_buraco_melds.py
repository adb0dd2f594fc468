"""Buraco's melds: card values, sets, wildcards, threes and buracos, each test quoting the seed
(004, German; 002 "Varianten" for the Brazilian games) or RULES-NOTES C1–C3; then properties
against a slow reference and against Burraco's checker where the rules agree."""

import dataclasses
from collections import Counter

import pytest
from hypothesis import given
from hypothesis import strategies as st

from scoring import burraco
from scoring.buraco import (
    DECK_POINTS,
    BuracoKind,
    Meld,
    MeldKind,
    Variant,
    can_meld,
    card_value,
    verify_addition,
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
from scoring.errors import CardError, MeldError, SetupError

DECK = rummy_deck()
SEED, BRAZILIAN, ABERTO, STBL = Variant.SEED, Variant.BRAZILIAN, Variant.ABERTO, Variant.STBL
CODES = {"meld_too_short", "meld_only_wildcards", "meld_too_many_wildcards", "meld_mixed",
         "meld_not_consecutive", "meld_card_twice", "meld_ace_both_ends", "meld_red_three",
         "meld_black_three", "meld_sets_only", "meld_sequences_only",
         "meld_over_two_wildcards", "meld_wildcards_outnumber"}


def meld(text, variant=SEED):
    return verify_meld(parse_cards(text), variant)


def refusal(text, variant=SEED):
    cards = parse_cards(text)
    with pytest.raises(MeldError) as error:
        verify_meld(cards, variant)
    assert not can_meld(cards, variant)
    return error.value


def codes(cards):
    return [card.code for card in cards]


def one_of_each(rank):
    return [JOKER] if rank is Rank.JOKER else [Card(rank, suit) for suit in Suit]


# --- Card values ---------------------------------------------------------------------------

@pytest.mark.parametrize("variant, rank, value", [
    # Seed 004: "Asse und Zweien zählen 20 Punkte, Bilder und die 10 zählen 10 Punkte, die
    # Karten 4 bis 9 zählen 5 Punkte, und jeder Joker zählt 30 Punkte."
    (SEED, Rank.ACE, 20), (SEED, Rank.TWO, 20), (SEED, Rank.KING, 10), (SEED, Rank.QUEEN, 10),
    (SEED, Rank.JACK, 10), (SEED, Rank.TEN, 10), (SEED, Rank.NINE, 5), (SEED, Rank.FOUR, 5),
    (SEED, Rank.JOKER, 30),
    # C3: "joker 20, 2 10, ace 15, K–8 10, 7–3 5"
    (BRAZILIAN, Rank.JOKER, 20), (BRAZILIAN, Rank.TWO, 10), (BRAZILIAN, Rank.ACE, 15),
    (BRAZILIAN, Rank.KING, 10), (BRAZILIAN, Rank.EIGHT, 10), (BRAZILIAN, Rank.SEVEN, 5),
    (BRAZILIAN, Rank.THREE, 5), (ABERTO, Rank.JOKER, 20), (ABERTO, Rank.NINE, 10),
])
def test_card_values(variant, rank, value):
    """Seed 004 and RULES-NOTES C3 (the Brazilian values)."""
    assert {card_value(card, variant) for card in one_of_each(rank)} == {value}


def test_seed_threes_a_black_one_counts_5_a_red_one_nothing():
    """RULES-NOTES C1: "A black three left in hand counts 5. Red threes never count as meld
    cards." In the Brazilian games every 3 is a card worth 5 (C3: "7–3 5")."""
    assert [card_value(card) for card in parse_cards("3S 3C 3H 3D")] == [5, 5, 0, 0]
    assert [card_value(card, BRAZILIAN) for card in parse_cards("3S 3H")] == [5, 5]


@pytest.mark.parametrize("variant, total", [(SEED, 1020), (BRAZILIAN, 960), (ABERTO, 960)])
def test_the_whole_pack_is_worth(variant, total):
    # Seed: 4 × 30 + 16 × 20 + 32 × 10 + 48 × 5 + 4 black threes × 5.
    assert sum(card_value(card, variant) for card in DECK) == DECK_POINTS[variant] == total


def test_an_unknown_variant_is_refused():
    with pytest.raises(SetupError) as error:
        verify_meld(parse_cards("QS QH QD"), "canasta")
    assert error.value.code == "unknown_variant"


# --- The seed's sets -----------------------------------------------------------------------

@pytest.mark.parametrize("text, wildcards, points", [
    # Seed 004: "Ein Satz besteht aus mindestens drei Karten mit dem gleichen Wert, zum
    # Beispiel drei Damen."
    ("QS QH QD", "", 30),
    ("QS QS QH QH", "", 40),
    # "höchstens zwei Platzhalter pro Satz, und nie mehr Platzhalter als echte Karten"
    ("5H 5S JK", "JK", 40),
    ("5H 5S 2C", "2C", 30),
    ("5H 5S 2C JK", "JK 2C", 60),
    ("AS AH 2C 2D", "2D 2C", 80),          # the wildcards by suit, ♠ ♥ ♦ ♣
    ("KS KS KH KH KD KD KC KC 2H JK", "JK 2H", 80 + 20 + 30),
])
def test_sets(text, wildcards, points):
    """Seed 004: "Ein Satz besteht aus mindestens drei Karten mit dem gleichen Wert" and "In
    jedem Satz dürfen Joker oder Zweien als Platzhalter für eine fehlende Karte mitspielen.
    Erlaubt sind aber höchstens zwei Platzhalter pro Satz, und nie mehr Platzhalter als echte
    Karten mit dem passenden Wert." """
    result = meld(text)
    assert result.kind is MeldKind.SET
    assert codes(result.wildcards) == wildcards.split()
    assert result.stands_for == (parse_cards(text)[0].rank if wildcards else None)
    assert result.points == points
    assert Counter(result.order) == Counter(parse_cards(text))


@pytest.mark.parametrize("text, code", [
    # Seed 004: "Ein Satz besteht aus mindestens drei Karten"
    ("", "meld_too_short"), ("QS QH", "meld_too_short"), ("QS JK", "meld_too_short"),
    # "mit dem gleichen Wert": no sequences in the seed's game
    ("5H 6H 7H", "meld_sets_only"), ("5H 5S 6H", "meld_sets_only"),
    ("5H 6H 7H JK", "meld_sets_only"), ("AS 2S 4S", "meld_sets_only"),
    # "höchstens zwei Platzhalter pro Satz"
    ("5H 5S 5D 5C 2H 2S JK", "meld_over_two_wildcards"),
    ("KS KS KH KH KD KD KC KC 2H 2S JK", "meld_over_two_wildcards"),
    # "und nie mehr Platzhalter als echte Karten"
    ("5H 2S JK", "meld_wildcards_outnumber"), ("5H JK JK", "meld_wildcards_outnumber"),
    # A set of wildcards alone has no rank to stand for.
    ("2H 2S 2D", "meld_only_wildcards"), ("JK JK 2C", "meld_only_wildcards"),
    # "Schwarze Dreien … darfst du nicht in normalen Sätzen auslegen."
    ("3S 3C 3S", "meld_black_three"), ("3S 3C JK", "meld_black_three"),
    # "Die roten Dreien … sind Bonuskarten. … legst du sie sofort offen vor dich hin."
    ("3H 3D 3H", "meld_red_three"), ("3H", "meld_red_three"), ("3S 3H 3C", "meld_red_three"),
])
def test_refused_sets_name_the_rule(text, code):
    """Seed 004, rules 2 and 3 and the notes on threes; RULES-NOTES C2: "three or more of one
    rank; at most two wildcards and never more wildcards than natural cards; no black threes;
    no red threes"."""
    assert refusal(text).code == code


def test_a_set_holds_at_most_ten_cards():
    """RULES-NOTES C2: "at most 10 cards": two packs hold eight of a rank, and two wildcards
    join them. An eleventh card is a third wildcard or a card the packs do not hold."""
    assert len(meld("QS QS QH QH QD QD QC QC 2C JK").order) == 10
    assert refusal("QS QS QH QH QD QD QC QC 2C 2C JK").code == "meld_over_two_wildcards"
    with pytest.raises(CardError) as error:
        verify_meld(parse_cards("QS QS QH QH QD QD QC QC QC 2C JK"))
    assert error.value.code == "card_copies"


@pytest.mark.parametrize("text, buraco, bonus", [
    # Seed 004: "Hat ein Satz deines Teams sieben oder mehr Karten, heißt er Buraco. Ein
    # Buraco ganz ohne Platzhalter heißt rein."
    ("KS KS KH KH KD KD KC", BuracoKind.CLEAN, 200),
    ("KS KS KH KH KD KD KC KC", BuracoKind.CLEAN, 200),
    # "… der unrein heißt": with wildcards
    ("KS KS KH KH KD KD JK", BuracoKind.DIRTY, 100),
    ("KS KS KH KH KD 2D JK", BuracoKind.DIRTY, 100),
    # Six cards are no buraco.
    ("KS KS KH KH KD KD", None, 0),
    ("KS KS KH KH 2D JK", None, 0),
])
def test_buracos(text, buraco, bonus):
    """Seed 004: "Für jeden reinen Buraco gibt es 200 Bonuspunkte, für jeden unreinen Buraco
    100 Bonuspunkte." """
    result = meld(text)
    assert result.buraco == buraco
    assert result.bonus == bonus
    assert BuracoKind.CLEAN == "clean" and BuracoKind.DIRTY == "dirty"


# --- The Brazilian variants ----------------------------------------------------------------

@pytest.mark.parametrize("text, kind, wildcards, stands_for, points", [
    # C3: "sequences as in Burraco (one wildcard); sets allowed"
    ("7H 8H 9H", MeldKind.SEQUENCE, "", None, 25),
    ("JK 6D 7D", MeldKind.SEQUENCE, "JK", parse_card("5D"), 30),
    ("AS 2S 3S", MeldKind.SEQUENCE, "", None, 30),       # the 2 in its own place
    ("QS QH QD 2C", MeldKind.SET, "2C", Rank.QUEEN, 40),
    # C3: "7–3 5": threes are plain cards, red or black
    ("3H 3D 3S", MeldKind.SET, "", None, 15),
    ("3H 4H 5H", MeldKind.SEQUENCE, "", None, 15),
])
def test_brazilian_melds(text, kind, wildcards, stands_for, points):
    """Seed 002, Varianten: "Brasilianisches Buraco: … Joker zählen 20, Zweien 10"; RULES-NOTES
    C3: "sequences as in Burraco (one wildcard); sets allowed"."""
    result = meld(text, BRAZILIAN)
    assert result.kind is kind
    assert codes(result.wildcards) == wildcards.split()
    assert result.stands_for == stands_for
    assert result.points == points


@pytest.mark.parametrize("text, code", [
    # One wildcard per meld, in sets as in sequences (C3, as in Burraco).
    ("QS QH 2C JK", "meld_too_many_wildcards"),
    ("5H 6H 2C JK", "meld_too_many_wildcards"),
    ("5H 6S 7D", "meld_mixed"),
    ("5H 6H 9H", "meld_not_consecutive"),
])
def test_brazilian_refusals(text, code):
    """Seed 002, Kombinationen: "In jeder Kombination ist höchstens ein Platzhalter
    erlaubt." """
    assert refusal(text, BRAZILIAN).code == code


@pytest.mark.parametrize("text, code", [
    ("QS QH QD", "meld_sequences_only"), ("QS QH 2C", "meld_sequences_only"),
    ("5H 6H 9H", "meld_not_consecutive"), ("5H 6H 2C JK", "meld_too_many_wildcards"),
])
def test_aberto_melds_only_sequences(text, code):
    """Seed 002, Varianten: "Beim Buraco Aberto sind nur Folgen erlaubt"."""
    assert refusal(text, ABERTO).code == code
    assert meld("5H 6H 2C", ABERTO).kind is MeldKind.SEQUENCE


def test_the_clean_reading_of_a_two_wins():
    """RULES-NOTES B5 (C3: sequences as in Burraco): "Where a 2 can be read as natural or wild,
    the reading that keeps the meld clean wins"."""
    result = meld("2C 3C 4C 5C 6C 7C 8C", BRAZILIAN)
    assert result.buraco is BuracoKind.CLEAN and result.wildcards == ()


# --- Adding to a meld on the table ---------------------------------------------------------

def test_cards_added_to_a_set_make_a_legal_meld():
    """Seed 004: "Du darfst auch Karten an Sätze deines Teams anlegen, die schon auf dem Tisch
    liegen." The meld they make keeps the rules of a set."""
    table = parse_cards("QS QH QD")
    assert verify_addition(table, parse_cards("QC JK 2C")).points == 30 + 10 + 30 + 20
    with pytest.raises(MeldError) as error:
        verify_addition(parse_cards("QS QH QD 2C JK"), parse_cards("2H"))
    assert error.value.code == "meld_over_two_wildcards"
    with pytest.raises(MeldError) as error:
        verify_addition(table, [])
    assert error.value.code == "nothing_to_add"
    with pytest.raises(MeldError) as error:
        verify_addition(parse_cards("QS QH"), parse_cards("QD"))
    assert error.value.code == "meld_too_short"


def test_a_sequence_takes_its_next_card_in_the_brazilian_game():
    assert verify_addition(parse_cards("7H 8H 9H"), parse_cards("10H"), BRAZILIAN).kind \
        is MeldKind.SEQUENCE


def test_a_meld_is_frozen():
    result = meld("QS QH QD")
    assert isinstance(result, Meld)
    with pytest.raises(dataclasses.FrozenInstanceError):
        result.points = 0


# --- Properties ----------------------------------------------------------------------------

WILDCARDS = [JOKER] + [Card(Rank.TWO, suit) for suit in Suit]
LADDER = (Rank.ACE, Rank.TWO, Rank.THREE, Rank.FOUR, Rank.FIVE, Rank.SIX, Rank.SEVEN,
          Rank.EIGHT, Rank.NINE, Rank.TEN, Rank.JACK, Rank.QUEEN, Rank.KING, Rank.ACE)


def spare(cards):
    """The pack's cards not yet used up by ``cards``."""
    return sorted(Counter(DECK) - Counter(cards), key=lambda card: card.code)


@st.composite
def near_sets(draw):
    """Some copies of one rank (any rank, threes too), up to three wildcards, maybe a stray
    card, in any order."""
    rank = draw(st.sampled_from(NATURAL_RANKS))
    copies = [Card(rank, suit) for suit in Suit for _ in range(2)]
    picked = draw(st.lists(st.integers(0, 7), max_size=8, unique=True))
    cards = [copies[index] for index in picked]
    for _ in range(draw(st.integers(0, 3))):
        choices = [card for card in spare(cards) if card in WILDCARDS]
        cards.append(draw(st.sampled_from(choices)))
    if draw(st.booleans()):
        cards.append(draw(st.sampled_from(spare(cards))))
    return draw(st.permutations(cards))


@st.composite
def near_sequences(draw):
    """A run of the ladder A 2 3 … K A, maybe a wildcard in it or beside it, maybe one card
    added, dropped or swapped, in any order."""
    suit = draw(st.sampled_from(list(Suit)))
    length = draw(st.integers(2, 13))
    start = draw(st.integers(0, 14 - length))
    cards = [Card(rank, suit) for rank in LADDER[start:start + length]]
    if draw(st.booleans()):
        wildcard = draw(st.sampled_from(WILDCARDS))
        if draw(st.booleans()):
            cards.append(wildcard)
        else:
            cards[draw(st.integers(0, length - 1))] = wildcard
    change = draw(st.sampled_from(["add", "drop", "swap", "none"]))
    if change == "add":
        cards.append(draw(st.sampled_from(spare(cards))))
    elif change == "drop":
        cards.pop(draw(st.integers(0, len(cards) - 1)))
    elif change == "swap":
        cards[draw(st.integers(0, len(cards) - 1))] = draw(st.sampled_from(spare(cards)))
    return draw(st.permutations(cards))


any_cards = st.lists(st.integers(0, len(DECK) - 1), unique=True, max_size=14).map(
    lambda picked: [DECK[index] for index in picked])
cards_to_judge = st.one_of(any_cards, near_sets(), near_sequences())
variants = st.sampled_from(list(Variant))


@given(cards_to_judge, variants)
def test_the_checker_answers_a_meld_or_a_meld_error(cards, variant):
    """Any cards from two packs get a verdict, never a crash."""
    try:
        result = verify_meld(cards, variant)
    except MeldError as error:
        assert error.code in CODES
        assert can_meld(cards, variant) is False
        return
    assert can_meld(cards, variant) is True
    assert result.points == sum(card_value(card, variant) for card in cards)
    assert Counter(result.order) == Counter(cards)
    assert (result.buraco is None) == (len(cards) < 7)
    if result.buraco is not None:
        assert (result.buraco is BuracoKind.CLEAN) == (not result.wildcards)
    assert result.readings[0].bonus == max(reading.bonus for reading in result.readings)


def judgement(cards, variant):
    try:
        result = verify_meld(cards, variant)
    except MeldError as error:
        return error.code
    return [(reading.kind, reading.order, reading.wildcards, reading.stands_for,
             reading.buraco) for reading in result.readings], result.points


@given(cards_to_judge.flatmap(lambda cards: st.tuples(st.just(cards), st.permutations(cards))),
       variants)
def test_any_order_of_the_cards_is_judged_the_same(pair, variant):
    """RULES-NOTES B5: "Validity depends on the cards only, not on the order they are given
    in." """
    cards, shuffled = pair
    assert judgement(shuffled, variant) == judgement(cards, variant)


def reference_seed_set(cards):
    """Seed 004 read slowly: the rule a set breaks first, or None for a legal set."""
    wildcards = [card for card in cards if card.is_joker or card.rank is Rank.TWO]
    naturals = [card for card in cards if card not in wildcards]
    if any(card.rank is Rank.THREE and card.suit.is_red for card in cards):
        return "meld_red_three"
    if any(card.rank is Rank.THREE for card in cards):
        return "meld_black_three"
    if len(cards) < 3:
        return "meld_too_short"
    if not naturals:
        return "meld_only_wildcards"
    if len({card.rank for card in naturals}) > 1:
        return "meld_sets_only"
    if len(wildcards) > 2:
        return "meld_over_two_wildcards"
    if len(wildcards) > len(naturals):
        return "meld_wildcards_outnumber"
    return None


@given(st.one_of(near_sets(), any_cards))
def test_seed_sets_agree_with_counting_by_hand(cards):
    """Seed 004: "mindestens drei Karten mit dem gleichen Wert", "höchstens zwei Platzhalter
    pro Satz, und nie mehr Platzhalter als echte Karten", the red and black threes; RULES-NOTES
    C2."""
    expected = reference_seed_set(cards)
    try:
        result = verify_meld(cards)
    except MeldError as error:
        assert error.code == expected
        return
    assert expected is None
    wildcards = [card for card in cards if card in WILDCARDS]
    assert result.kind is MeldKind.SET
    assert Counter(result.wildcards) == Counter(wildcards)
    assert result.buraco == (None if len(cards) < 7 else
                             BuracoKind.DIRTY if wildcards else BuracoKind.CLEAN)
    assert result.points == sum(card_value(card) for card in cards)


BURRACO_KIND = {None: None, burraco.BurracoKind.PULITO: BuracoKind.CLEAN,
                burraco.BurracoKind.SPORCO: BuracoKind.DIRTY}


def burraco_judgement(cards):
    """Burraco's verdict (semi-clean off) in Buraco's words."""
    try:
        result = burraco.verify_meld(cards)
    except MeldError as error:
        return error.code
    return [(reading.kind, reading.order, (reading.wildcard,) if reading.wildcard else (),
             reading.stands_for, BURRACO_KIND[reading.burraco])
            for reading in result.readings]


@given(cards_to_judge)
def test_brazilian_melds_are_burracos_melds(cards):
    """RULES-NOTES C3: "`brazilian`: … sequences as in Burraco (one wildcard); sets allowed"
    — the same verdict as Burraco's checker, paid at the Brazilian values."""
    verdict = judgement(cards, BRAZILIAN)
    if isinstance(verdict, str):
        assert burraco_judgement(cards) == verdict
        return
    readings, points = verdict
    assert burraco_judgement(cards) == readings
    assert points == sum(card_value(card, BRAZILIAN) for card in cards)


@given(cards_to_judge)
def test_aberto_melds_are_burracos_sequences(cards):
    """RULES-NOTES C3: "`aberto`: as `brazilian` but sequences only"."""
    verdict = judgement(cards, ABERTO)
    by_burraco = burraco_judgement(cards)
    burraco_sequence = not isinstance(by_burraco, str) and \
        by_burraco[0][0] is MeldKind.SEQUENCE
    assert (not isinstance(verdict, str)) == burraco_sequence
    if burraco_sequence:
        assert verdict[0] == by_burraco


# --- Canastras reais (C5) --------------------------------------------------------------------

ACE_TO_KING = "AH 2H 3H 4H 5H 6H 7H 8H 9H 10H JH QH KH"


@pytest.mark.parametrize("text, buraco, bonus", [
    (ACE_TO_KING, BuracoKind.REAL, 500),
    (ACE_TO_KING + " AH", BuracoKind.ACE_TO_ACE, 1000),
    # A wildcard makes even the whole suit dirty; a shorter clean run is a clean buraco.
    ("AH 2H 3H 4H 5H 6H 7H 8H 9H 10H JH QH JK", BuracoKind.DIRTY, 100),
    ("3H 4H 5H 6H 7H 8H 9H 10H JH QH KH AH", BuracoKind.CLEAN, 200),
])
def test_canastras_reais_with_the_option(text, buraco, bonus):
    """C5, option *canastras reais*: "a clean run A–K is worth 500 and a clean run A–A 1,000,
    in place of the clean bonus"."""
    result = verify_meld(parse_cards(text), STBL, canastras_reais=True)
    assert (result.buraco, result.bonus) == (buraco, bonus)


def test_without_canastras_reais_the_whole_suit_is_a_clean_buraco_and_ace_to_ace_no_meld():
    """C3: "sequences as in Burraco": an ace at one end only (B5)."""
    assert meld(ACE_TO_KING, BRAZILIAN).buraco is BuracoKind.CLEAN
    assert refusal(ACE_TO_KING + " AH", BRAZILIAN).code == "meld_ace_both_ends"


def test_stbl_melds_as_aberto():
    """C5: STBL and Aberto both "not allowed (runs only)"."""
    assert refusal("QS QH QD", STBL).code == "meld_sequences_only"
    assert meld("5H 6H 2C", STBL).kind is MeldKind.SEQUENCE
