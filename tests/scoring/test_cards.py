"""The card model and the parser players type into."""

import pytest
from hypothesis import given
from hypothesis import strategies as st

from scoring.bura import all_cards as bura_deck
from scoring.burro import deck_cards as burro_deck
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
from scoring.errors import CardError


@pytest.mark.parametrize("token, code", [
    ("7H", "7H"), ("7h", "7H"), ("7♥", "7H"), ("7♥️", "7H"), ("10♥", "10H"), ("QS", "QS"),
    ("JK", "JK"), ("Joker", "JK"), ("joker", "JK"), ("TD", "10D"), ("a♣", "AC"),
    # Italian tables call the joker "jolly".
    ("Jolly", "JK"), ("jolly", "JK"),
    # German letters: B is Bube (jack), D is Dame (queen).
    ("BH", "JH"), ("DS", "QS"), ("DD", "QD"), ("KD", "KD"),
])
def test_parser_accepts_what_players_type(token, code):
    assert parse_card(token).code == code


@pytest.mark.parametrize("text", ["7♥ 8♥ 9♥", "7h,8h,9h", "7H; 8H ;9H", " 7h  8♥,9H "])
def test_parser_reads_whole_strings(text):
    assert [card.code for card in parse_cards(text)] == ["7H", "8H", "9H"]


@pytest.mark.parametrize("token", ["1H", "11S", "ZZ", "♥", "H7", "10", "JKH", "7X"])
def test_an_unknown_token_is_named_in_the_error(token):
    with pytest.raises(CardError) as error:
        parse_cards(f"7H {token} 9H")
    assert error.value.code == "unknown_card"
    assert error.value.params["token"] == token


def test_cards_show_with_suit_symbols():
    assert [str(card) for card in parse_cards("10H QS 2D AC JK")] == \
        ["10♥", "Q♠", "2♦", "A♣", "Joker"]
    assert Suit.HEARTS.is_red and Suit.DIAMONDS.is_red
    assert not Suit.SPADES.is_red and not Suit.CLUBS.is_red


def test_a_joker_has_no_suit_and_a_card_needs_one():
    assert JOKER.is_joker and JOKER.suit is None
    with pytest.raises(CardError):
        Card(Rank.SEVEN)


@pytest.mark.parametrize("size, left_out", [
    # Seed 000: "nimm die 8er, 9er und 10er heraus, es bleiben 40 Karten."
    (40, {Rank.EIGHT, Rank.NINE, Rank.TEN}),
    # Seed 000, Varianten: "Ab 6 Spielern nehmt nur die 10er heraus (48 Karten …)"
    (48, {Rank.TEN}),
    # Seed 000, Cangkul: "Spielt mit allen 52 Karten"
    (52, set()),
])
def test_burro_decks(size, left_out):
    deck = burro_deck(size)
    assert len(deck) == len(set(deck)) == size
    assert not any(card.rank in left_out for card in deck)


def test_bura_plays_36_cards_from_six_to_ace():
    deck = bura_deck()
    assert len(deck) == len(set(deck)) == 36
    assert {card.rank for card in deck} == {Rank.SIX, Rank.SEVEN, Rank.EIGHT, Rank.NINE,
                                            Rank.TEN, Rank.JACK, Rank.QUEEN, Rank.KING,
                                            Rank.ACE}


def test_burraco_and_buraco_use_two_packs_and_four_jokers():
    deck = rummy_deck()
    assert len(deck) == 108
    assert deck.count(JOKER) == 4
    assert deck.count(Card(Rank.SEVEN, Suit.HEARTS)) == 2


def test_an_unknown_deck_size_is_refused():
    with pytest.raises(CardError):
        burro_deck(36)


# --- Properties ---------------------------------------------------------------------------

ALL_CARDS = [Card(rank, suit) for suit in Suit for rank in NATURAL_RANKS] + [JOKER]
SUIT_SPELLINGS = {Suit.SPADES: "Ss♠♤", Suit.HEARTS: "Hh♥♡", Suit.DIAMONDS: "Dd♦♢",
                  Suit.CLUBS: "Cc♣♧"}
RANK_SPELLINGS = {Rank.TEN: ["10", "T", "t"], Rank.JACK: ["J", "j", "B", "b"],
                  Rank.QUEEN: ["Q", "q", "D", "d"], Rank.ACE: ["A", "a"], Rank.KING: ["K", "k"]}


@st.composite
def spelled(draw, card: Card) -> str:
    """One of the many ways a player may write this card."""
    if card.is_joker:
        return draw(st.sampled_from(["JK", "jk", "Joker", "JOKER"]))
    rank = draw(st.sampled_from(RANK_SPELLINGS.get(card.rank, [card.rank.value])))
    return rank + draw(st.sampled_from(list(SUIT_SPELLINGS[card.suit])))


@given(st.lists(st.sampled_from(ALL_CARDS), max_size=12).flatmap(
    lambda cards: st.tuples(st.just(cards), st.tuples(*(spelled(c) for c in cards)),
                            st.sampled_from([" ", ",", ", ", ";", "  "]))))
def test_any_spelling_of_any_cards_reads_back(case):
    cards, words, separator = case
    assert parse_cards(separator.join(words)) == cards


@given(st.text(max_size=40))
def test_the_parser_never_crashes(text):
    try:
        cards = parse_cards(text)
    except CardError as error:
        assert error.code == "unknown_card"
    else:
        assert all(isinstance(card, Card) for card in cards)


@given(st.sampled_from(ALL_CARDS))
def test_a_card_reads_back_from_its_code_and_its_symbol_form(card):
    assert parse_card(card.code) == card
    assert parse_card(str(card)) == card
