"""Bura's and Burkosel's rules, each test quoting the seed text (003, German) or RULES-NOTES
(D1–D8)."""

from itertools import product

import pytest
from hypothesis import given
from hypothesis import strategies as st

from scoring import bura, burkosel
from scoring.bura import (
    Claim,
    Combination,
    Options,
    Outcome,
    beats,
    check_claim,
    combination,
    combination_order,
    pot_after_claim,
    standings,
    trick,
    verify_hand,
    verify_lead,
    verify_options,
)
from scoring.bura import all_cards as bura_deck
from scoring.cards import JOKER, Card, Rank, Suit, parse_card, parse_cards
from scoring.errors import CardError, HandError, ScoringError, SetupError

H, D, S, C = Suit.HEARTS, Suit.DIAMONDS, Suit.SPADES, Suit.CLUBS

# The seed's table, high to low, as it is printed ("A, 10, K, D, B, 9, 8, 7, 6").
SEED_ORDER = "A 10 K D B 9 8 7 6".split()
SEED_POINTS = {"A": 11, "10": 10, "K": 4, "D": 3, "B": 2, "9": 0, "8": 0, "7": 0, "6": 0}


def cards(text):
    return parse_cards(text)


def card(text):
    return parse_card(text)


def codes(text):
    return [c.code for c in parse_cards(text)]


def seed_rank(c: Card) -> str:
    """The card's rank as the German seed writes it (D = Dame, B = Bube)."""
    return {"Q": "D", "J": "B"}.get(c.rank.value, c.rank.value)


# --- Card points and rank (D1) ---------------------------------------------------------------

@pytest.mark.parametrize("rank, points", [
    (Rank.ACE, 11), (Rank.TEN, 10), (Rank.KING, 4), (Rank.QUEEN, 3), (Rank.JACK, 2),
    (Rank.NINE, 0), (Rank.EIGHT, 0), (Rank.SEVEN, 0), (Rank.SIX, 0),
])
@pytest.mark.parametrize("suit", list(Suit))
def test_card_points(rank, points, suit):
    """Seed: "Karte Augen / A 11 / 10 10 / K 4 / D 3 / B 2 / 9 · 8 · 7 · 6 0".
    RULES-NOTES D1: "Card points A 11, 10 10, K 4, Q 3, J 2, 9–6 0"."""
    assert bura.card_points(Card(rank, suit)) == points


def test_the_deck_has_36_cards_from_6_to_ace():
    """Seed: "Gespielt wird mit den übrigen 36 Karten: A, 10, K, D, B, 9, 8, 7, 6 jeder
    Farbe." """
    deck = bura_deck()
    assert len(deck) == len(set(deck)) == 36
    assert {seed_rank(c) for c in deck} == set(SEED_ORDER)
    assert all(sum(1 for c in deck if c.suit is suit) == 9 for suit in Suit)


def test_all_36_cards_add_up_to_120():
    """Seed: "Alle 36 Karten zusammen haben 120 Augen." """
    assert sum(bura.card_points(c) for c in bura_deck()) == 120
    assert sum(SEED_POINTS[seed_rank(c)] for c in bura_deck()) == 120


def test_rank_order_ten_between_ace_and_king():
    """Seed: "Der Zehner steht direkt unter dem Ass, also über dem König." RULES-NOTES D1:
    "rank A 10 K Q J 9 8 7 6"."""
    for suit in Suit:
        ordered = sorted((c for c in bura_deck() if c.suit is suit), key=bura.strength,
                         reverse=True)
        assert [seed_rank(c) for c in ordered] == SEED_ORDER
        assert len({bura.strength(c) for c in ordered}) == 9


# --- The 31 claim (seed "31 ansagen"; D2, D3) ----------------------------------------------

@pytest.mark.parametrize("points, right", [(0, False), (30, False), (31, True), (34, True),
                                           (120, True)])
def test_thirty_one_or_more_is_right_thirty_or_less_wrong(points, right):
    """Seed: "31 oder mehr: Du gewinnst und bekommst den ganzen Pot." and "30 oder weniger:
    Du hast falsch angesagt"."""
    assert Claim(points).right is right


@pytest.mark.parametrize("text, points, right", [
    ("10♠ 10♥ 10♦", 30, False),
    ("A♠ 10♠ 10♥", 31, True),
    ("9♠ 8♠ 7♠ 6♠", 0, False),
    ("", 0, False),
])
def test_the_claim_counts_the_trick_cards(text, points, right):
    claim = check_claim(cards(text))
    assert (claim.points, claim.right) == (points, right)


@pytest.mark.parametrize("text, points", [
    ("K♣ 9♣ A♣ 6♥", 15), ("10♠ B♦", 12), ("D♥ 7♦", 3), ("K♠ 8♠", 4),
])
def test_the_seed_example_tricks_are_worth_what_it_says(text, points):
    """Seed: "K♣ 9♣ A♣ 6♥ (15), 10♠ B♦ (12) und D♥ 7♦ (3) … K♠ 8♠ (4)"."""
    assert check_claim(cards(text)).points == points


def test_the_seed_example_thirty_is_wrong_thirty_four_is_right():
    """Seed: "Ben hat drei Stiche gewonnen. Er merkt sich K♣ 9♣ A♣ 6♥ (15), 10♠ B♦ (12) und
    D♥ 7♦ (3) – 30 Augen. Dann gewinnt er K♠ 8♠ (4), macht 34." """
    three = cards("K♣ 9♣ A♣ 6♥ 10♠ B♦ D♥ 7♦")
    four = three + cards("K♠ 8♠")
    assert check_claim(three) == Claim(30) and not check_claim(three).right
    assert check_claim(four) == Claim(34) and check_claim(four).right


def test_a_right_claim_takes_the_pot():
    """Seed: "Ben nimmt die 2 Chips"; RULES-NOTES D3: "the holder takes the pot"."""
    assert pot_after_claim(2, True) == (2, 0)


def test_a_wrong_claim_doubles_the_pot_which_stays():
    """Seed: "Hätte er schon nach dem dritten Stich mit nur 30 angesagt, hätte er 2 Chips
    dazulegen müssen, und der nächste Pot hätte mit 4 plus den neuen Einsätzen begonnen." """
    assert pot_after_claim(2, False) == (-2, 4)
    assert pot_after_claim(7, False) == (-7, 14)


@pytest.mark.parametrize("pot", [-1, "x", None, True])
def test_a_pot_must_be_a_count_of_chips(pot):
    with pytest.raises(HandError):
        pot_after_claim(pot, True)


@pytest.mark.parametrize("found, code", [
    ([card("5H")], "card_not_in_bura_deck"),     # 2 to 5 are taken out
    ([card("2S"), card("AS")], "card_not_in_bura_deck"),
    ([JOKER], "card_not_in_bura_deck"),          # "sowie die Joker heraus"
    ([card("AS"), card("AS")], "card_twice"),
    (cards("10♠ B♦ 10♠"), "card_twice"),
])
def test_cards_outside_the_deck_or_twice_are_refused(found, code):
    """Seed: "Nimm die 2er, 3er, 4er und 5er sowie die Joker heraus." """
    with pytest.raises(CardError) as error:
        check_claim(found)
    assert error.value.code == code


# --- The trick (seed "Ein Stich") -----------------------------------------------------------

def test_the_seed_example_two_cards_beaten_one_by_one():
    """Seed: "Herz ist Trumpf. Anna spielt K♣ 9♣ zusammen aus. Ben hat A♣, 6♥ und 10♠. Er
    sticht den K♣ mit dem A♣ und die 9♣ mit der Trumpf-6♥ – beide Karten sind gestochen" """
    result = trick(H, cards("K♣ 9♣"), cards("A♣ 6♥"))
    assert result.beats
    assert set(result.pairs) == {(card("K♣"), card("A♣")), (card("9♣"), card("6♥"))}
    assert result.unbeaten == ()
    # The order he lays them in does not matter.
    assert trick(H, cards("K♣ 9♣"), cards("6♥ A♣")).beats


def test_the_seed_example_one_card_beaten_is_not_enough():
    """Seed: "Hätte Ben stattdessen A♣, 8♠, 7♠, könnte er nur eine der beiden Karten stechen
    und würde den Stich ohnehin verlieren" """
    for response in ("A♣ 8♠", "A♣ 7♠", "8♠ 7♠"):
        result = trick(H, cards("K♣ 9♣"), cards(response))
        assert not result.beats and result.pairs is None
    assert len(trick(H, cards("K♣ 9♣"), cards("A♣ 8♠")).unbeaten) == 1


def test_the_seed_example_three_players_beat_what_lies_in_front():
    """Seed: "Karo ist Trumpf. Anna spielt D♠ 7♠ aus. Ben legt 9♦ und B♠: der Trumpf sticht die
    Dame, der Bube die 7 – Ben liegt vorne. Carla hat K♦, 8♦ und 9♠. Um den Stich zu holen,
    müsste sie Bens 9♦ und B♠ stechen – dafür braucht sie beide Trümpfe." """
    ben = trick(D, cards("D♠ 7♠"), cards("9♦ B♠"))
    assert ben.beats
    assert set(ben.pairs) == {(card("D♠"), card("9♦")), (card("7♠"), card("B♠"))}
    front = cards("9♦ B♠")
    assert trick(D, front, cards("K♦ 8♦")).beats
    assert set(trick(D, front, cards("K♦ 8♦")).pairs) == {(card("9♦"), card("K♦")),
                                                          (card("B♠"), card("8♦"))}
    assert not trick(D, front, cards("K♦ 9♠")).beats
    assert not trick(D, front, cards("8♦ 9♠")).beats


@pytest.mark.parametrize("trump, played, front, result", [
    # "Eine Karte wird von einer höheren Karte derselben Farbe gestochen"
    (H, "A♣", "K♣", True), (H, "10♣", "K♣", True), (H, "K♣", "10♣", False),
    (H, "9♣", "6♣", True), (H, "6♣", "9♣", False), (H, "B♠", "D♠", False),
    # "und jede Nicht-Trumpfkarte von jedem Trumpf"
    (H, "6♥", "A♣", True), (D, "9♦", "10♠", True),
    # "Eine Karte einer anderen Farbe, die kein Trumpf ist, sticht nie."
    (H, "A♠", "6♣", False), (H, "10♦", "7♠", False),
    # a lower trump does not beat a higher trump
    (H, "6♥", "7♥", False), (H, "K♥", "10♥", False), (H, "A♥", "10♥", True),
    # a non-trump never beats a trump
    (H, "A♠", "6♥", False),
])
def test_what_beats_what(trump, played, front, result):
    """Seed: "Was sticht was: Eine Karte wird von einer höheren Karte derselben Farbe
    gestochen, und jede Nicht-Trumpfkarte von jedem Trumpf. Eine Karte einer anderen Farbe,
    die kein Trumpf ist, sticht nie." """
    assert beats(card(played), card(front), trump) is result
    assert trick(trump, [card(front)], [card(played)]).beats is result


def reference_beats(played: Card, front: Card, trump: Suit) -> bool:
    """The seed's sentence read literally, with its printed rank order."""
    if played.suit == front.suit:
        return SEED_ORDER.index(seed_rank(played)) < SEED_ORDER.index(seed_rank(front))
    return played.suit == trump and front.suit != trump


def test_beats_agrees_with_the_seed_for_every_pair_of_cards():
    deck = bura_deck()
    for trump in Suit:
        for front in deck:
            for played in deck:
                if played != front:
                    assert beats(played, front, trump) is reference_beats(played, front, trump)


@pytest.mark.parametrize("front, response", [
    ("A♣", "6♥ 7♥"), ("K♣ 9♣", "A♣"), ("K♣ 9♣", "A♣ 6♥ 10♠"), ("K♣ 9♣ 8♣", "A♣ 6♥"),
    ("K♣ 9♣ 8♣", "A♣"),
])
def test_the_response_has_as_many_cards_as_the_front(front, response):
    """Seed: "Alle anderen legen reihum genauso viele Karten." """
    with pytest.raises(HandError) as error:
        trick(H, cards(front), cards(response))
    assert error.value.code == "response_count"


def test_three_cards_answered_by_four_are_refused():
    """Seed: "Alle anderen legen reihum genauso viele Karten." (Seven cards in all: refused,
    as the count of cards or as the response's count.)"""
    with pytest.raises(ScoringError) as error:
        trick(H, cards("K♣ 9♣ 8♣"), cards("A♣ 6♥ 7♥ 8♥"))
    assert error.value.code in ("response_count", "card_count")


@pytest.mark.parametrize("front, response, code", [
    ("K♣ 9♣", "K♣ 6♥", "card_twice"),
    ("5♣", "6♣", "card_not_in_bura_deck"),
])
def test_impossible_tricks_are_refused(front, response, code):
    with pytest.raises(CardError) as error:
        trick(H, cards(front), cards(response))
    assert error.value.code == code


@pytest.mark.parametrize("lead", ["A♣", "K♣ 9♣", "10♠ 7♠ 6♠", "A♥ K♥ D♥"])
def test_one_card_or_two_or_three_of_one_suit_may_be_led(lead):
    """Seed: "Wer am Ausspielen ist, legt entweder eine Karte oder zwei oder drei Karten
    derselben Farbe zusammen." """
    verify_lead(cards(lead))


@pytest.mark.parametrize("lead", ["K♣ 9♠", "10♠ 7♠ 6♥", "A♣ A♠", "A♣ A♠ A♥"])
def test_a_lead_of_different_suits_is_refused(lead):
    """Seed: "zwei oder drei Karten derselben Farbe zusammen." """
    with pytest.raises(HandError) as error:
        verify_lead(cards(lead))
    assert error.value.code == "lead_one_suit"


def test_three_aces_declared_are_led_together():
    """RULES-NOTES D7: "Three aces are led together, the one lead of cards of different
    suits." Seed: "Drei Asse – du ziehst das Ausspielen an dich und spielst alle drei Asse
    zusammen aus." """
    verify_lead(cards("A♣ A♠ A♥"), "three_aces")


@pytest.mark.parametrize("lead", ["A♣ A♠", "A♣ A♠ K♥", "K♣ 9♠ 8♥"])
def test_only_three_aces_may_be_of_different_suits(lead):
    """RULES-NOTES D7: "the one lead of cards of different suits"."""
    with pytest.raises(HandError) as error:
        verify_lead(cards(lead), "three_aces")
    assert error.value.code == "lead_one_suit"


@pytest.mark.parametrize("lead", ["", "A♣ K♣ D♣ B♣"])
def test_a_lead_is_one_to_three_cards(lead):
    with pytest.raises(CardError):
        verify_lead(cards(lead))


# --- Property: the trick agrees with a brute force over all pairings -----------------------

@st.composite
def trick_cases(draw):
    size = draw(st.integers(1, 3))
    chosen = draw(st.lists(st.sampled_from(bura_deck()), min_size=2 * size,
                           max_size=2 * size, unique=True))
    return draw(st.sampled_from(list(Suit))), chosen[:size], chosen[size:]


def brute_force_beats(trump, front, response) -> bool:
    """Every front card beaten by a response card of its own, over every assignment."""
    size = len(front)
    return any(
        len(set(assign)) == size
        and all(reference_beats(response[j], front[i], trump) for i, j in enumerate(assign))
        for assign in product(range(size), repeat=size))


@given(trick_cases())
def test_the_trick_agrees_with_trying_every_pairing(case):
    """Seed: "Wurden zwei oder drei Karten ausgespielt, musst du jede einzelne mit einer deiner
    Karten stechen. Deine Karten müssen dabei nicht dieselbe Farbe haben. Bleibt auch nur
    eine Karte ungestochen, gewinnst du den Stich nicht." """
    trump, front, response = case
    result = trick(trump, front, response)
    assert result.beats is brute_force_beats(trump, front, response)
    if result.beats:
        assert sorted(ahead.code for ahead, _ in result.pairs) == sorted(c.code for c in front)
        assert sorted(own.code for _, own in result.pairs) == sorted(c.code for c in response)
        assert all(reference_beats(own, ahead, trump) for ahead, own in result.pairs)
        assert result.unbeaten == ()
    else:
        assert result.pairs is None
        assert result.unbeaten and set(result.unbeaten) <= set(front)


# --- Special hands (seed "Besondere Kombinationen", "Varianten") ----------------------------

@pytest.mark.parametrize("trump, hand, expected", [
    # "Bura – drei beliebige Trümpfe."
    (H, "6♥ 7♥ A♥", Combination.BURA), (S, "10♠ K♠ B♠", Combination.BURA),
    # "Drei Asse"
    (H, "A♣ A♠ A♦", Combination.THREE_ACES), (H, "A♣ A♠ A♥", Combination.THREE_ACES),
    # "Molodka („junge Dame“) – drei Karten derselben Nicht-Trumpffarbe."
    (H, "6♣ 7♣ A♣", Combination.MOLODKA), (D, "K♠ D♠ B♠", Combination.MOLODKA),
    # nothing
    (H, "6♥ 7♥ A♣", None), (H, "A♣ A♠ K♦", None), (H, "6♣ 6♠ 6♥", None),
    (H, "K♣ K♠ K♦", None),
])
def test_special_hands(trump, hand, expected):
    """Seed: "Bura – drei beliebige Trümpfe." "Drei Asse" "Molodka („junge Dame“) – drei
    Karten derselben Nicht-Trumpffarbe." """
    assert combination(trump, cards(hand)) == expected


@pytest.mark.parametrize("trump, hand, expected", [
    (H, "6♣ 6♠ 6♥", Combination.LITTLE_MOSCOW),
    (D, "6♦ 6♠ 6♥", Combination.LITTLE_MOSCOW),
    (H, "6♣ 6♠ 6♦", None),                          # the trump 6 is missing
    (H, "6♥ 7♥ A♥", Combination.BURA),
    (H, "6♣ 7♣ A♣", Combination.MOLODKA),
])
def test_little_moscow_is_three_sixes_with_the_trump_six_when_agreed(trump, hand, expected):
    """Seed: "Klein-Moskau – drei 6er einschließlich der Trumpf-6 – zieht das Ausspielen an
    sich und geht vor der Molodka." """
    assert combination(trump, cards(hand), little_moscow=True) == expected


@pytest.mark.parametrize("hand", ["6♣ 7♣", "6♣ 7♣ 8♣ 9♣", "6♣ 6♣ 7♣", "5♣ 6♣ 7♣"])
def test_a_special_hand_is_three_cards_of_the_deck(hand):
    with pytest.raises(CardError):
        combination(H, cards(hand))


def test_bura_before_three_aces_before_molodka():
    """Seed: "Rang: Bura, 3 Asse, Molodka." """
    order = combination_order()
    assert order.index(Combination.BURA) < order.index(Combination.THREE_ACES) \
        < order.index(Combination.MOLODKA)


def test_little_moscow_goes_before_molodka():
    """Seed: "Klein-Moskau … geht vor der Molodka." """
    for moscow in (False, True):
        order = combination_order(moscow)
        assert order.index(Combination.LITTLE_MOSCOW) < order.index(Combination.MOLODKA)
    assert combination_order() == (Combination.BURA, Combination.THREE_ACES,
                                   Combination.LITTLE_MOSCOW, Combination.MOLODKA)


def test_in_moscow_rules_three_aces_beat_a_bura():
    """Seed: "Nach manchen russischen Regeln heißen drei Asse Moskau und schlagen sogar die
    Bura." """
    assert combination_order(moscow=True) == (Combination.THREE_ACES, Combination.BURA,
                                              Combination.LITTLE_MOSCOW, Combination.MOLODKA)


@pytest.mark.parametrize("three_aces_win, moscow, wins", [
    (False, False, False), (True, False, True), (False, True, True), (True, True, True)])
def test_three_aces_win_the_pot_with_moscow_or_three_aces_win(three_aces_win, moscow, wins):
    """RULES-NOTES D10: "Moscow (option): three aces rank above the Bura and win the pot at
    once, like a Bura." Seed, Varianten: "Drei Asse gewinnen den Pot wie eine Bura." """
    assert bura.wins_the_pot(Combination.THREE_ACES, three_aces_win, moscow) is wins
    assert bura.wins_the_pot(Combination.BURA, three_aces_win, moscow)


@pytest.mark.parametrize("found, together", [
    (Combination.THREE_ACES, True), (Combination.MOLODKA, True),
    (Combination.LITTLE_MOSCOW, False)])
def test_little_moscow_takes_the_lead_but_is_not_led_together(found, together):
    """RULES-NOTES D11: "three 6s including the trump 6 take the lead like three aces, but are
    not led together (only three aces are, D7)". Seed: Molodka "spielst sie zusammen aus"."""
    assert bura.led_together(found) is together
    assert not bura.wins_the_pot(found) or found is Combination.THREE_ACES


@pytest.mark.parametrize("outcome, flags", [
    ("moscow", {"moscow": True}), ("three_aces", {"three_aces_win": True})])
def test_three_aces_that_win_take_the_pot_like_a_bura(outcome, flags):
    """RULES-NOTES D10: three aces "win the pot at once, like a Bura"; D3: "the holder takes
    the pot"; D5: "after a Bura, the Bura's holder deals"."""
    result = standings(Options(**flags), 3, [
        {"outcome": "wrong_claim", "player": 0}, {"outcome": outcome, "player": 2}])
    second = result.rows[1]
    assert second.outcome == outcome and second.pot_before == 9 and second.pot == 0
    assert result.chips == (-5, -2, 7) and result.pot == 0
    assert result.dealer == 2


@pytest.mark.parametrize("outcome", ["moscow", "three_aces"])
def test_three_aces_cannot_take_the_pot_without_the_variant(outcome):
    """Seed: three aces "ziehen das Ausspielen an sich" — they win the pot only as a variant."""
    with pytest.raises(HandError) as error:
        standings(Options(), 2, [{"outcome": outcome, "player": 0}])
    assert error.value.code == "outcome_variant_off"


# --- The pot ledger: setting up -------------------------------------------------------------

@pytest.mark.parametrize("players", [2, 3, 4, 5, 6])
def test_two_to_six_players(players):
    """Seed: "Spieler: 2 bis 4, am besten zu zweit (bis zu 6 sind möglich)." """
    assert verify_options({}, players) == Options()


@pytest.mark.parametrize("players", [0, 1, 7])
def test_fewer_than_two_or_more_than_six_players_are_refused(players):
    with pytest.raises(SetupError) as error:
        verify_options({}, players)
    assert error.value.code == "player_count"


def test_the_ante_is_one_chip_by_default():
    """Seed: "Jeder legt den gleichen Einsatz – etwa 1 Chip – in den Pot." RULES-NOTES D6:
    "Ante: a table setting, default 1." """
    assert verify_options({}, 2).ante == 1
    assert verify_options({"ante": "3", "start_chips": "20"}, 2) == Options(ante=3,
                                                                           start_chips=20)


@pytest.mark.parametrize("raw, code", [
    ({"ante": -1}, "ante_range"), ({"ante": 101}, "ante_range"), ({"ante": "x"}, "ante_range"),
    ({"start_chips": -5}, "start_chips_range"), ({"first_dealer": 2}, "seat_range"),
])
def test_bad_options_are_refused(raw, code):
    with pytest.raises(SetupError) as error:
        verify_options(raw, 2)
    assert error.value.code == code


@pytest.mark.parametrize("raw", [
    {}, {"outcome": "won"}, {"outcome": "right_claim"}, {"outcome": "bura", "player": 3},
    {"outcome": "wrong_claim", "player": -1}, {"outcome": "claim", "player": 1},
    {"outcome": "claim", "player": 1, "cards": "AS 10S"}, None,
])
def test_a_game_names_how_it_ended_and_who(raw):
    with pytest.raises(HandError):
        verify_hand(Options(), 3, raw)


def test_a_claim_with_cards_outside_the_deck_is_refused():
    with pytest.raises(CardError) as error:
        verify_hand(Options(), 2, {"outcome": "claim", "player": 0, "cards": ["5S", "AS"]})
    assert error.value.code == "card_not_in_bura_deck"
    with pytest.raises(CardError) as error:
        verify_hand(Options(), 2, {"outcome": "claim", "player": 0, "cards": ["AS", "AS"]})
    assert error.value.code == "card_twice"


# --- The pot ledger: the four outcomes (D2–D5) ---------------------------------------------

def test_every_game_begins_with_every_players_ante():
    """Seed: "Einsatz: Jeder legt den gleichen Einsatz – etwa 1 Chip – in den Pot." """
    result = standings(Options(ante=2, start_chips=10), 3, [{"outcome": "no_claim"}])
    assert result.rows[0].pot_before == 6
    assert result.chips == (8, 8, 8)


def test_a_right_claim_takes_the_pot_and_everyone_antes_anew():
    """Seed: "31 oder mehr: Du gewinnst und bekommst den ganzen Pot. Dann setzt jeder neu für
    das nächste Spiel." RULES-NOTES D3."""
    result = standings(Options(start_chips=10), 3, [
        {"outcome": "right_claim", "player": 2}, {"outcome": "right_claim", "player": 0}])
    first, second = result.rows
    assert (first.pot_before, first.pot, first.chips, first.changes) == \
        (3, 0, (9, 9, 12), (-1, -1, 2))
    assert (second.pot_before, second.pot, second.chips) == (3, 0, (11, 8, 11))
    assert first.outcome is Outcome.RIGHT_CLAIM


def test_a_wrong_claim_pays_the_pots_size_and_the_doubled_pot_stays():
    """Seed: "30 oder weniger: Du hast falsch angesagt und musst den Pot verdoppeln, also so
    viele Chips dazulegen, wie schon drin sind. Der Pot bleibt fürs nächste Spiel liegen."
    RULES-NOTES D2: "the claimant pays as many chips as the pot holds; the doubled pot stays;
    for the next game everyone antes again"."""
    result = standings(Options(start_chips=10), 3, [
        {"outcome": "wrong_claim", "player": 1}, {"outcome": "wrong_claim", "player": 0}])
    first, second = result.rows
    assert (first.pot_before, first.pot, first.chips, first.changes) == \
        (3, 6, (9, 6, 9), (-1, -4, -1))
    assert (second.pot_before, second.pot, second.chips) == (9, 18, (-1, 5, 8))
    assert result.pot == 18


def test_a_bura_takes_the_pot():
    """Seed: "Bura (3 Trümpfe) gewinnt sofort den Pot". RULES-NOTES D3: "Right claim or Bura:
    the holder takes the pot; everyone antes for the next game." """
    result = standings(Options(start_chips=5), 2, [
        {"outcome": "wrong_claim", "player": 0}, {"outcome": "bura", "player": 1}])
    assert result.rows[1].pot_before == 6
    assert result.rows[1].pot == 0
    # 5 − 1 ante − 2 paid in − 1 ante; 5 − 1 − 1 + 6.
    assert result.chips == (1, 9)
    assert result.rows[1].changes == (-1, 5)
    assert result.rows[1].outcome is Outcome.BURA


def test_when_nobody_claims_everyone_antes_again_and_the_same_dealer_deals():
    """Seed: "Sind alle Karten gespielt und niemand hat angesagt, gewinnt keiner: Die Karten
    werden eingesammelt, jeder legt noch einen Einsatz in den Pot, und derselbe Geber gibt
    neu." RULES-NOTES D4."""
    options = Options(first_dealer=1)
    result = standings(options, 3, [{"outcome": "no_claim"}, {"outcome": "no_claim"}])
    assert [row.pot for row in result.rows] == [3, 6]
    assert [row.dealer for row in result.rows] == [1, 1]
    assert result.dealer == 1
    assert result.chips == (-2, -2, -2)


def test_the_seed_example_as_a_ledger():
    """Seed: "Anna und Ben setzen je 1 Chip – im Pot liegen 2. … Hätte er schon nach dem
    dritten Stich mit nur 30 angesagt, hätte er 2 Chips dazulegen müssen, und der nächste Pot
    hätte mit 4 plus den neuen Einsätzen begonnen." """
    thirty = codes("K♣ 9♣ A♣ 6♥ 10♠ B♦ D♥ 7♦")
    result = standings(Options(), 2, [{"outcome": "claim", "player": 1, "cards": thirty},
                                      {"outcome": "no_claim"}])
    first, second = result.rows
    assert first.pot_before == 2
    assert first.outcome is Outcome.WRONG_CLAIM and first.claim_points == 30
    assert first.changes == (-1, -3)           # his ante and the 2 chips he pays in
    assert first.pot == 4
    assert second.pot_before == 6              # 4 plus the new antes


def test_the_seed_example_right_claim_as_a_ledger():
    """Seed: "Dann gewinnt er K♠ 8♠ (4), macht 34. Er stoppt das Spiel, dreht seine Stiche um,
    es stimmt: Ben nimmt die 2 Chips und gibt als Nächster." """
    thirty_four = codes("K♣ 9♣ A♣ 6♥ 10♠ B♦ D♥ 7♦ K♠ 8♠")
    result = standings(Options(), 2, [{"outcome": "claim", "player": 1, "cards": thirty_four}])
    row = result.rows[0]
    assert row.outcome is Outcome.RIGHT_CLAIM and row.claim_points == 34
    assert (row.pot_before, row.pot, row.chips) == (2, 0, (-1, 1))
    assert result.dealer == 1


@pytest.mark.parametrize("text, outcome", [("10♠ 10♥ 10♦", Outcome.WRONG_CLAIM),
                                           ("A♠ 10♠ 10♥", Outcome.RIGHT_CLAIM)])
def test_a_claim_with_cards_is_decided_by_the_cards(text, outcome):
    """Seed: "Dreh deine Stiche um und zähl nach: 31 oder mehr … 30 oder weniger …" """
    hand = {"outcome": "claim", "player": 0, "cards": codes(text)}
    assert verify_hand(Options(), 2, hand) == {"outcome": "claim", "player": 0,
                                               "cards": codes(text)}
    assert standings(Options(), 2, [hand]).rows[0].outcome is outcome


@pytest.mark.parametrize("outcome", ["right_claim", "wrong_claim", "bura"])
def test_whoever_claimed_or_showed_the_bura_deals_next(outcome):
    """Seed: "Danach gibt immer, wer im letzten Spiel angesagt hat." and "In beiden Fällen
    gibt, wer angesagt hat, das nächste Spiel." RULES-NOTES D5: "whoever claimed deals next
    (right or wrong); after a Bura, the Bura's holder deals." """
    result = standings(Options(first_dealer=0), 4, [{"outcome": outcome, "player": 2},
                                                   {"outcome": "no_claim"}])
    assert [row.dealer for row in result.rows] == [0, 2]
    assert result.dealer == 2


def test_the_first_dealer_deals_first_and_the_next_player_leads():
    """Seed: "Zu zweit spielt der Nichtgeber zum ersten Stich aus. Bei mehr Spielern spielt der
    Spieler links vom Geber aus" (players are listed clockwise, so that is the next seat)."""
    assert (standings(Options(), 2, []).dealer, standings(Options(), 2, []).leader) == (0, 1)
    result = standings(Options(first_dealer=3), 4, [])
    assert (result.dealer, result.leader) == (3, 0)
    after = standings(Options(), 3, [{"outcome": "wrong_claim", "player": 2}])
    assert (after.dealer, after.leader) == (2, 0)


def test_start_chips():
    result = standings(Options(start_chips=50), 3, [])
    assert result.chips == (50, 50, 50) and result.pot == 0 and result.rows == ()
    after = standings(Options(start_chips=50), 3, [{"outcome": "right_claim", "player": 0}])
    assert after.chips == (52, 49, 49)
    assert after.net == (2, -1, -1)


def test_chips_may_go_below_zero():
    """RULES-NOTES D6: "Chips may go below zero: the sheet shows a debt." """
    result = standings(Options(), 2, [{"outcome": "wrong_claim", "player": 0}] * 3)
    # pots before: 2, 6, 14 → he pays 1+2, 1+6, 1+14; the other only antes.
    assert result.chips == (-25, -3)
    assert result.pot == 28


def test_the_most_chips_are_ahead():
    """Seed: "Wer am Ende die meisten Chips hat, gewinnt." """
    result = standings(Options(), 3, [{"outcome": "right_claim", "player": 1}])
    assert result.ahead == (1,)
    assert not result.finished


# --- Property: the ledger conserves chips ----------------------------------------------------

OUTCOMES = ["right_claim", "wrong_claim", "bura", "no_claim", "claim"]


@st.composite
def ledgers(draw):
    players = draw(st.integers(2, 6))
    options = Options(ante=draw(st.integers(1, 100)), start_chips=draw(st.integers(0, 10000)),
                      first_dealer=draw(st.integers(0, players - 1)))
    hands = []
    for _ in range(draw(st.integers(0, 12))):
        outcome = draw(st.sampled_from(OUTCOMES))
        hand = {"outcome": outcome}
        if outcome != "no_claim":
            hand["player"] = draw(st.integers(0, players - 1))
        if outcome == "claim":
            hand["cards"] = [c.code for c in draw(st.lists(
                st.sampled_from(bura_deck()), max_size=18, unique=True))]
        hands.append(hand)
    return options, players, hands


@given(ledgers())
def test_the_ledger_conserves_chips(case):
    """Chips only move between the players and the pot: antes and wrong claims pay in, right
    claims and Buras take out."""
    options, players, hands = case
    result = standings(options, players, hands)
    assert len(result.rows) == len(hands)
    paid = won = 0
    pot, dealer = 0, options.first_dealer
    for hand, row in zip(hands, result.rows):
        assert sum(row.chips) + row.pot == players * options.start_chips
        outcome = hand["outcome"]
        if outcome == "claim":
            points = sum(SEED_POINTS[seed_rank(parse_card(code))] for code in hand["cards"])
            outcome = "right_claim" if points >= 31 else "wrong_claim"
        # a reference of D2–D5
        assert row.dealer == dealer
        pot += players * options.ante
        paid += players * options.ante
        assert row.pot_before == pot
        changes = [-options.ante] * players
        if outcome in ("right_claim", "bura"):
            changes[hand["player"]] += pot
            won += pot
            pot = 0
        elif outcome == "wrong_claim":
            changes[hand["player"]] -= pot
            paid += pot
            pot *= 2
        assert row.outcome.value == outcome
        assert row.changes == tuple(changes)
        assert row.pot == pot
        if "player" in hand:
            dealer = hand["player"]
    assert paid == won + result.pot
    assert result.pot == pot
    assert result.dealer == dealer
    assert sum(result.chips) + result.pot == players * options.start_chips


# --- Burkosel (seed "Varianten"; RULES-NOTES D8) -------------------------------------------

def kosel(points, tricks):
    return {"card_points": list(points), "tricks": list(tricks)}


def kosel_scores(players, points, tricks):
    return burkosel.standings(burkosel.Options(), players, [kosel(points, tricks)]).rows[0] \
        .penalties


@pytest.mark.parametrize("players", [2, 3, 4])
def test_burkosel_two_to_four_players(players):
    assert burkosel.verify_options({}, players) == burkosel.Options()


@pytest.mark.parametrize("players", [1, 5, 6])
def test_burkosel_other_player_counts_are_refused(players):
    with pytest.raises(SetupError) as error:
        burkosel.verify_options({}, players)
    assert error.value.code == "player_count"


@pytest.mark.parametrize("points, tricks, scores", [
    ((80, 40), (6, 3), (0, 2)),          # 31 or more
    ((89, 31), (6, 3), (0, 2)),
    ((90, 30), (6, 3), (0, 4)),          # 30 or less with a trick
    ((30, 90), (1, 8), (4, 0)),
    ((120, 0), (9, 1), (0, 4)),          # a trick of nothing but zeros is still a trick
    ((120, 0), (10, 0), (0, 6)),         # no trick
    ((0, 120), (0, 10), (6, 0)),
])
def test_burkosel_the_loser_scores_two_four_or_six(points, tricks, scores):
    """Seed: "Zu zweit oder mit zwei Parteien bekommt der Verlierer 2 Punkte bei 31 oder mehr
    Augen, 4 bei 30 oder weniger mit mindestens einem Stich, 6 ohne Stich" """
    assert kosel_scores(2, points, tricks) == scores


def test_burkosel_sixty_all_scores_two_each():
    """RULES-NOTES D8: "60:60 between two → 2 each." """
    assert kosel_scores(2, (60, 60), (5, 5)) == (2, 2)
    assert kosel_scores(4, (60, 60), (5, 5)) == (2, 2)


@pytest.mark.parametrize("points, tricks, scores", [
    ((79, 21, 20), (4, 2, 2), (0, 2, 4)),
    ((21, 20, 79), (2, 2, 4), (2, 4, 0)),
    ((100, 20, 0), (6, 2, 0), (0, 4, 6)),
    ((40, 50, 30), (3, 4, 2), (2, 0, 2)),
    ((120, 0, 0), (8, 1, 0), (0, 4, 6)),
])
def test_burkosel_three_players_both_others_score_with_21(points, tricks, scores):
    """RULES-NOTES D8: "Three players: both others score, each by their own points, with 21 in
    place of 31." """
    assert kosel_scores(3, points, tricks) == scores


@pytest.mark.parametrize("players, winner, scores", [
    (2, 0, (0, 6)), (2, 1, (6, 0)), (3, 1, (6, 0, 6)), (4, 1, (6, 0)),
])
def test_burkosel_four_aces_or_a_bura_win_at_once(players, winner, scores):
    """Seed: "Vier Asse oder eine Bura gewinnen sofort." RULES-NOTES D8: "Four aces or a Bura
    win at once (the others score 6)." """
    result = burkosel.standings(burkosel.Options(), players, [{"instant_win": winner}])
    assert result.rows[0].penalties == scores


def test_burkosel_four_players_score_as_two_partnerships():
    """Seed: "Zu zweit oder mit zwei Parteien"; partners sit opposite (seats 0+2, 1+3)."""
    assert burkosel.units_of(4) == ((0, 2), (1, 3))
    assert burkosel.units_of(3) == ((0,), (1,), (2,))
    assert burkosel.units_of(2) == ((0,), (1,))
    result = burkosel.standings(burkosel.Options(), 4, [kosel((100, 20), (7, 2))])
    assert result.totals == (0, 4) and result.units == ((0, 2), (1, 3))
    with pytest.raises(HandError):
        burkosel.verify_hand(burkosel.Options(), 4, kosel((60, 30, 30, 0), (4, 2, 2, 0)))


def test_burkosel_twelve_or_more_loses_the_match():
    """Seed: "wer 12 oder mehr hat, verliert." RULES-NOTES D8: "12 or more loses the match." """
    games = [kosel((100, 20), (7, 2))] * 2 + [kosel((40, 80), (3, 6))]
    not_yet = burkosel.standings(burkosel.Options(), 2, games)
    assert not_yet.totals == (2, 8) and not not_yet.finished
    assert not_yet.to_go == (10, 4)
    result = burkosel.standings(burkosel.Options(), 2, games + [kosel((100, 20), (7, 2))])
    assert result.totals == (2, 12)
    assert result.finished
    assert result.losers == (1,)
    assert result.winners == (0,)
    assert result.dealer is None


def test_burkosel_with_three_the_fewest_win_and_ties_share():
    """RULES-NOTES D8: "12 or more loses the match." The fewest penalty points win."""
    games = [{"instant_win": 0}, {"instant_win": 0}]
    result = burkosel.standings(burkosel.Options(), 3, games)
    assert result.totals == (0, 12, 12)
    assert result.finished and result.losers == (1, 2) and result.winners == (0,)
    shared = burkosel.standings(burkosel.Options(), 3, [{"instant_win": 0}, {"instant_win": 1}])
    assert shared.totals == (6, 6, 12)
    assert shared.finished and shared.losers == (2,) and shared.winners == (0, 1)


@pytest.mark.parametrize("players, games, totals", [
    # Five even games (2 each) make 10:10, the sixth 12:12.
    (2, [kosel((60, 60), (5, 5))] * 6, (12, 12)),
    (3, [kosel((40, 40, 40), (4, 4, 4))] * 6, (12, 12, 12)),
])
def test_burkosel_when_every_side_reaches_twelve_nobody_wins(players, games, totals):
    """RULES-NOTES D9: "every side that has 12 or more after a game has lost; if every side
    has, nobody wins (winners empty). A side is never both winner and loser." """
    result = burkosel.standings(burkosel.Options(), players, games)
    assert result.totals == totals
    assert result.finished
    assert result.losers == tuple(range(players))
    assert result.winners == ()


def test_burkosel_a_side_with_twelve_never_wins_with_the_fewest():
    """RULES-NOTES D9: "A side is never both winner and loser." """
    games = [kosel((60, 60), (5, 5))] * 5 + [{"instant_win": 1}]
    result = burkosel.standings(burkosel.Options(), 2, games)
    assert result.totals == (16, 10)
    assert result.losers == (0,) and result.winners == (1,)
    assert not set(result.winners) & set(result.losers)


def test_burkosel_no_game_after_the_end():
    with pytest.raises(HandError) as error:
        burkosel.standings(burkosel.Options(), 2, [{"instant_win": 0}] * 3)
    assert error.value.code == "hand_after_end"


@pytest.mark.parametrize("players, points, tricks", [
    (2, (60, 59), (5, 5)), (2, (61, 60), (5, 5)), (3, (40, 40, 30), (3, 3, 3)),
    (4, (100, 10), (7, 1)),
])
def test_burkosel_card_points_add_up_to_120(players, points, tricks):
    """Seed: "Alle 36 Karten zusammen haben 120 Augen." """
    with pytest.raises(HandError) as error:
        burkosel.verify_hand(burkosel.Options(), players, kosel(points, tricks))
    assert error.value.code == "card_points_sum"


@pytest.mark.parametrize("players, points, scores", [
    (2, ("", 25), (0, 4)), (2, (95, None), (0, 4)), (3, (40, "", 30), (2, 0, 2)),
])
def test_burkosel_one_sides_points_follow_from_the_others(players, points, scores):
    """Seed: "Alle 36 Karten zusammen haben 120 Augen": one side's points left out are 120
    minus the others'."""
    tricks = (5, 2) if players == 2 else (3, 4, 3)
    assert kosel_scores(players, points, tricks) == scores


def test_burkosel_two_sides_left_out_are_named():
    with pytest.raises(HandError) as error:
        burkosel.verify_hand(burkosel.Options(), 3, kosel((40, "", ""), (3, 4, 3)))
    assert error.value.code == "card_points_missing" and error.value.params["side"] == 2


@pytest.mark.parametrize("players, points, tricks", [
    (2, (110, 10), (9, 0)), (3, (100, 10, 10), (6, 2, 0)),
])
def test_burkosel_card_points_without_a_trick_are_refused(players, points, tricks):
    with pytest.raises(HandError) as error:
        burkosel.verify_hand(burkosel.Options(), players, kosel(points, tricks))
    assert error.value.code == "points_without_trick"


@pytest.mark.parametrize("raw", [
    None, {}, kosel((120,), (5,)), {"card_points": [60, 60]}, {"instant_win": 2},
    kosel((121, -1), (5, 5)),
])
def test_burkosel_impossible_games_are_refused(raw):
    with pytest.raises(HandError):
        burkosel.verify_hand(burkosel.Options(), 2, raw)
