"""A new hand scored from the standings before it: a long evening's hands are not replayed
for each new one, and what it gives is exactly what replaying them all gives, the end of
the match included."""

import pytest
from hypothesis import given
from hypothesis import strategies as st

from scoring.errors import HandError
from scoring.games import GAMES, next_hand


def paper(first: int, second: int) -> dict:
    return {"sides": [{"total": first}, {"total": second}]}


# Per game: players, options, and hands to draw from; the small targets let matches end.
TABLES = {
    "burro": (3, {}, [{"burro": seat} for seat in range(3)]),
    "burraco": (4, {"target": 1005},
                [paper(410, 155), paper(-400, 905), paper(0, -100), paper(155, 410)]),
    "buraco": (4, {"target": 1005},
               [paper(410, 155), paper(-400, 905), paper(0, -100), paper(155, 410)]),
    "bura": (3, {}, [{"outcome": "right_claim", "player": 1},
                     {"outcome": "wrong_claim", "player": 0}, {"outcome": "no_claim"},
                     {"outcome": "bura", "player": 2}]),
    "burkosel": (2, {}, [{"card_points": [95, 25], "tricks": [5, 2]},
                         {"card_points": [25, 95], "tricks": [2, 5]}, {"instant_win": 0}]),
}


def outcome(derive):
    """The standings, or the refusal's code and what it says."""
    try:
        return derive()
    except HandError as error:
        return error.code, error.params


@pytest.mark.parametrize("name", TABLES)
@given(data=st.data())
def test_standings_going_on_from_the_first_hands_are_those_of_all_replayed(name, data):
    players, raw_options, menu = TABLES[name]
    game = GAMES[name]
    options = game.verify_options(raw_options, players)
    hands = data.draw(st.lists(st.sampled_from(menu), max_size=12))
    first = data.draw(st.integers(0, len(hands)))
    try:
        known = game.standings(options, players, hands[:first])
    except HandError:
        return  # the first hands already go past the end: nothing to go on from
    assert outcome(lambda: game.standings(options, players, hands, known)) \
        == outcome(lambda: game.standings(options, players, hands))


def test_a_hand_after_the_end_is_refused_going_on_as_replaying():
    """Seed 002, "Partieende": once a side has reached the target and leads alone, the match
    is over; the standings kept from it refuse the next hand all the same."""
    players, raw_options, _menu = TABLES["burraco"]
    game = GAMES["burraco"]
    options = game.verify_options(raw_options, players)
    hands = [paper(905, 0), paper(410, 155)]
    known = game.standings(options, players, hands)
    assert known.finished and known.winners == (0,)
    with pytest.raises(HandError) as refused:
        next_hand(game, options, players, hands, paper(0, 410), known)
    assert refused.value.code == "match_finished"


def test_a_hand_of_a_long_evening_goes_on_from_the_standings_it_is_given():
    """After 5,000 hands the new one is scored from the standings before it: the rows before
    it are those standings' own, and the totals add the new hand to them. (What that saves
    in time, `make bench` measures: a 1,000-hand sheet against a 10-hand one.)"""
    players, raw_options, menu = TABLES["buraco"]
    game = GAMES["buraco"]
    options = game.verify_options(raw_options, players)
    hands = [menu[2]] * 5000
    known = game.standings(options, players, hands)
    _hand, standings = next_hand(game, options, players, hands, menu[0], known)
    assert standings.rows[:5000] == known.rows
    assert standings.totals == (410, 155 - 100 * 5000)
