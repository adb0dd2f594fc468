"""Burro's rules, each test quoting the seed text (000 German, 001 English) or RULES-NOTES."""

import pytest
from hypothesis import given
from hypothesis import strategies as st

from scoring import burro
from scoring.burro import Options, Variant, standings, trick_winner, verify_options
from scoring.burro import deck_cards as burro_deck
from scoring.cards import Suit, parse_card, parse_cards, parse_plays
from scoring.errors import HandError, SetupError
from scoring.games import next_hand


def burros(*seats):
    return [{"burro": seat} for seat in seats]


# --- Setting up a match --------------------------------------------------------------------

@pytest.mark.parametrize("players", [2, 5, 8])
def test_two_to_eight_players(players):
    """Seed 001: "Players: 2–8, each for themselves." """
    assert verify_options({}, players) == Options()


@pytest.mark.parametrize("players", [0, 1, 9])
def test_fewer_than_two_or_more_than_eight_players_are_refused(players):
    with pytest.raises(SetupError) as error:
        verify_options({}, players)
    assert error.value.code == "player_count"


def test_the_default_limit_is_five():
    """Seed 001: "Agree in advance on a number of penalty points, e.g. 5." """
    assert verify_options({}, 4).limit == 5


@pytest.mark.parametrize("limit", [0, -1, 100, 10**9, "abc", "", True, 2.5])
def test_a_limit_outside_one_to_ninety_nine_is_refused(limit):
    with pytest.raises(SetupError) as error:
        verify_options({"limit": limit}, 4)
    assert error.value.code == "limit_range"


def test_form_text_is_read_as_numbers():
    assert verify_options({"limit": "7", "first_dealer": "2"}, 4) == \
        Options(limit=7, first_dealer=2)


@pytest.mark.parametrize("raw, code", [
    ({"first_dealer": 4}, "seat_range"),
    ({"variant": "burro em pé"}, "unknown_variant"),
    ({"variant": "portuguese", "wins_target": 0}, "wins_target_range"),
])
def test_bad_options_are_refused(raw, code):
    with pytest.raises(SetupError) as error:
        verify_options(raw, 4)
    assert error.value.code == code


# --- Hands, totals, the end ----------------------------------------------------------------

def test_the_burro_gets_a_penalty_point():
    """Seed 001: "The hand goes on until only one player still has cards. That player is the
    burro and gets a penalty point." """
    result = standings(Options(), 3, burros(1, 1, 2))
    assert result.totals == (0, 2, 1)
    assert [row.totals for row in result.rows] == [(0, 1, 0), (0, 2, 0), (0, 2, 1)]


def test_the_deal_and_the_lead_go_down_the_list():
    """Seed 001: "the deal and the play go anticlockwise (to the right); after each hand the
    player on the dealer's right deals." and "The player on the dealer's right leads."
    RULES-NOTES E1: the list is the order of play, so that is the next player in the list."""
    options = Options(first_dealer=2)
    assert (standings(options, 4, []).dealer, standings(options, 4, []).leader) == (2, 3)
    after_one = standings(options, 4, burros(0))
    assert (after_one.dealer, after_one.leader) == (3, 0)
    after_two = standings(options, 4, burros(0, 1))
    assert (after_two.dealer, after_two.leader) == (0, 1)
    assert [row.dealer for row in standings(options, 4, burros(0, 1, 0)).rows] == [2, 3, 0]


def test_reaching_the_limit_ends_the_match_and_loses_it():
    """Seed 001: "The game ends as soon as someone reaches it – that player has lost, and the
    player with the fewest penalty points is the winner" (RULES-NOTES E2: reaches = ≥)."""
    result = standings(Options(limit=2), 3, burros(1, 2, 1))
    assert result.finished
    assert result.losers == (1,)
    assert result.winners == (0,)
    assert result.dealer is None and result.leader is None


def test_a_tie_for_fewest_shares_the_win():
    """Seed 001: "(a tie is shared)"."""
    result = standings(Options(limit=2), 4, burros(1, 1))
    assert result.winners == (0, 2, 3)


def test_no_hand_after_the_end():
    """Issue: "No hand can be entered after the end." """
    with pytest.raises(HandError) as error:
        standings(Options(limit=1), 3, burros(0, 1))
    assert error.value.code == "hand_after_end"
    assert error.value.params == {"number": 2}
    with pytest.raises(HandError) as error:
        next_hand(burro, Options(limit=1), 3, burros(0), {"burro": 1})
    assert error.value.code == "match_finished"


def test_the_distance_to_the_limit_is_shown():
    assert standings(Options(limit=3), 3, burros(1)).to_go == (3, 2, 3)


@pytest.mark.parametrize("raw", [{"burro": 3}, {"burro": -1}, {"winner": 0}, {}, {"burro": "x"}])
def test_a_hand_names_one_of_the_players(raw):
    with pytest.raises(HandError):
        burro.verify_hand(Options(), 3, raw)


def test_who_is_ahead():
    assert standings(Options(), 3, burros(0, 1)).ahead == (2,)
    assert standings(Options(), 3, []).ahead == ()


# --- Portuguese Burro and Cangkul ----------------------------------------------------------

@pytest.mark.parametrize("variant", [Variant.PORTUGUESE, Variant.CANGKUL])
def test_the_first_player_out_wins_the_hand(variant):
    """Seed 001, Portuguese Burro: "The hand ends as soon as the first player runs out of
    cards – that player wins." Cangkul: "The first player to run out of cards wins." """
    options = Options(variant=variant, wins_target=2)
    result = standings(options, 3, [{"winner": 2}, {"winner": 0}])
    assert result.totals == (1, 0, 1)
    assert not result.finished
    with pytest.raises(HandError):
        burro.verify_hand(options, 3, {"burro": 0})


def test_an_agreed_number_of_wins_ends_the_match():
    """RULES-NOTES E3: "an agreed number of wins (option) ends the match." """
    options = Options(variant=Variant.PORTUGUESE, wins_target=2)
    result = standings(options, 3, [{"winner": 2}, {"winner": 0}, {"winner": 2}])
    assert result.finished and result.winners == (2,) and result.losers == ()


def test_without_an_agreed_number_of_wins_the_match_goes_on():
    options = Options(variant=Variant.CANGKUL)
    result = standings(options, 2, [{"winner": 0}] * 30)
    assert not result.finished and result.to_go is None


# --- The trick -----------------------------------------------------------------------------

def test_the_seed_example_trick():
    """Seed 001: "Anna leads the 5♥. Ben plays the J♥. … she plays the 2♥ … Dan plays the 7♥.
    Ben's J♥ is the highest heart and wins; Ben leads the next trick." """
    trick = trick_winner(40, parse_cards("5♥ J♥ 2♥ 7♥"))
    assert trick.winner == 1
    assert trick.card.code == "JH"


@pytest.mark.parametrize("deck, plays, winner", [
    # Seed 001: "from high to low: K Q J 7 6 5 4 3 2 A. The Ace is the lowest card."
    (40, "AS KS", 1), (40, "7S JS", 1), (40, "2S AS", 0),
    # Seed 001: "48 cards … K Q J 9 8 … 2 A"
    (48, "9C 7C", 0), (48, "9C JC", 1),
    # Seed 001, Cangkul: "use all 52 cards, Ace high"
    (52, "KD AD", 1), (52, "10D 9D", 0),
])
def test_rank_order_of_each_deck(deck, plays, winner):
    assert trick_winner(deck, parse_cards(plays)).winner == winner


def test_the_highest_card_of_the_suit_led_wins():
    """Seed 001: "There are no trumps." and "the highest card of the suit led wins"."""
    trick = trick_winner(40, parse_cards("2H KH AH"))
    assert trick.winner == 1 and trick.suit is Suit.HEARTS


@pytest.mark.parametrize("plays, card", [("2H KS AH", "KS"), ("5C 7C - JD", "JD")])
def test_a_card_of_another_suit_cannot_be_played(plays, card):
    """RULES-NOTES E6: "A card of another suit cannot be played in Burro (a player who cannot
    follow draws until they can, or passes once the stock is empty)"."""
    with pytest.raises(HandError) as error:
        trick_winner(40, parse_plays(plays))
    assert error.value.code == "must_follow_suit"
    assert error.value.params["card"] == parse_card(card)


def test_a_player_who_passed_plays_no_card():
    """Seed 001: "once the stock is used up, a player who can't follow suit simply passes"."""
    trick = trick_winner(40, parse_plays("3C - 5C"))
    assert trick.winner == 2 and trick.passed == (1,)


@pytest.mark.parametrize("deck, text, code", [
    (40, "8H 9H", "card_not_in_deck"),   # the 40-card deck has no 8, 9 or 10
    (48, "10H 9H", "card_not_in_deck"),
    (40, "5H 5H", "card_twice"),
    (40, "- 5H", "trick_needs_lead"),
    (40, "5H", "trick_size"),
    (40, "AH 2H 3H 4H 5H 6H 7H JH QH", "trick_size"),
    (40, "5H JK", "card_not_in_deck"),
])
def test_impossible_tricks_are_refused(deck, text, code):
    with pytest.raises(HandError) as error:
        trick_winner(deck, parse_plays(text))
    assert error.value.code == code


@pytest.mark.parametrize("raw, deck", [(None, 40), ("40", 40), (48, 48), ("52", 52)])
def test_deck_choice(raw, deck):
    assert burro.verify_deck(raw) == deck


@pytest.mark.parametrize("raw", ["36", 0, "forty", True])
def test_unknown_decks_are_refused(raw):
    with pytest.raises(HandError):
        burro.verify_deck(raw)


# --- Property: the trick agrees with a slow reference --------------------------------------



# The orders as the seeds print them, high to low; the reference reads them as text.
SEED_ORDERS = {40: "K Q J 7 6 5 4 3 2 A", 48: "K Q J 9 8 7 6 5 4 3 2 A",
               52: "A K Q J 10 9 8 7 6 5 4 3 2"}


@st.composite
def tricks(draw, any_suit=False):
    """A trick of 2–8 plays; unless ``any_suit``, every card follows the suit led (E6)."""
    deck = draw(st.sampled_from([40, 48, 52]))
    suit = draw(st.sampled_from(list(Suit)))
    cards = [card for card in burro_deck(deck) if any_suit or card.suit == suit]
    cards = draw(st.lists(st.sampled_from(cards), min_size=2, max_size=8, unique=True))
    passes = draw(st.lists(st.booleans(), min_size=len(cards), max_size=len(cards)))
    return deck, [cards[0]] + [None if p else c for c, p in zip(cards[1:], passes[1:])]


@given(tricks())
def test_the_winner_agrees_with_reading_the_seed_order(case):
    deck, plays = case
    order = SEED_ORDERS[deck].split()
    best = min((order.index(card.rank.value), seat) for seat, card in enumerate(plays)
               if card is not None)
    assert trick_winner(deck, plays).winner == best[1]


@given(tricks(any_suit=True))
def test_a_trick_is_judged_only_when_every_card_follows_suit(case):
    """RULES-NOTES E6: a card of another suit cannot be played."""
    deck, plays = case
    follows = all(card is None or card.suit == plays[0].suit for card in plays)
    try:
        trick_winner(deck, plays)
    except HandError as error:
        assert error.code == "must_follow_suit" and not follows
    else:
        assert follows
