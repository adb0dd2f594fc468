"""Movements and standings (RULES-NOTES B8) over 4, 6 and 8 tables and with an odd number of
pairs: who meets whom, who moves where, who sits out, and the order at the end."""

from itertools import combinations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from scoring.errors import SetupError
from scoring.movements import (
    BYE_VP,
    Movement,
    Result,
    Seating,
    check_event,
    danish,
    mitchell,
    most_turns,
    round_robin,
    standings,
)

TABLES = [4, 6, 8]


def meetings(seatings: list[Seating]) -> list[frozenset]:
    return [frozenset(table) for seating in seatings for table in seating.tables]


def everyone_once(seating: Seating, pairs: int) -> None:
    """Every pair sits exactly once in a turn: at one table, or out with the bye."""
    seated = [pair for table in seating.tables for pair in table]
    if seating.bye is not None:
        seated.append(seating.bye)
    assert sorted(seated) == list(range(pairs))


@pytest.mark.parametrize("tables", TABLES)
@pytest.mark.parametrize("step", [1, 3])
def test_mitchell_north_south_stay_and_east_west_move_up(tables, step):
    """B8: "North–South pairs stay at their table, East–West pairs move up one table each
    turn (EW at table 1 goes to table 2 …, the last to table 1)"; "clubs sometimes move by 2
    or 3"."""
    pairs = 2 * tables
    turns = most_turns(Movement.MITCHELL, pairs, step)
    seatings = [mitchell(pairs, turn, step) for turn in range(turns)]
    for turn, seating in enumerate(seatings):
        everyone_once(seating, pairs)
        assert [north_south for north_south, _ in seating.tables] == list(range(tables))
        if turn:
            before = {east_west: table for table, (_, east_west) in enumerate(seatings[turn - 1].tables)}
            for table, (_, east_west) in enumerate(seating.tables):
                assert table == (before[east_west] + step) % tables
    assert len(set(meetings(seatings))) == len(meetings(seatings)), "a pair met another twice"


def test_mitchell_with_one_step_meets_every_north_south_pair():
    seatings = [mitchell(8, turn) for turn in range(4)]
    assert {pair for seating in seatings for pair in (seating.opponent(4),)} == {0, 1, 2, 3}
    # The last table's East–West pair goes to table 1.
    assert mitchell(8, 0).tables[3][1] == mitchell(8, 1).tables[0][1] == 7


@pytest.mark.parametrize("pairs", [7, 11, 15])
def test_mitchell_with_an_odd_number_of_pairs_gives_the_bye_round(pairs):
    """B8: "A bye (odd number of pairs) … the pair without opponents scores 12 VP"; the
    missing East–West pair's table moves with it, so a different pair sits out each turn."""
    turns = most_turns(Movement.MITCHELL, pairs)
    seatings = [mitchell(pairs, turn) for turn in range(turns)]
    for seating in seatings:
        everyone_once(seating, pairs)
    byes = [seating.bye for seating in seatings]
    assert None not in byes and len(set(byes)) == turns


def test_mitchell_needs_an_even_number_of_tables_and_a_step_below_it():
    """B8: "an even number of tables"."""
    with pytest.raises(SetupError) as refused:
        check_event(Movement.MITCHELL, 10, 3)
    assert refused.value.code == "mitchell_even_tables"
    for step in (0, 4):
        with pytest.raises(SetupError) as refused:
            check_event(Movement.MITCHELL, 8, 2, step)
        assert refused.value.code == "mitchell_step"
    # Moving by 2 at 4 tables brings East–West back to the first table after 2 turns.
    assert most_turns(Movement.MITCHELL, 8, 2) == 2
    with pytest.raises(SetupError) as refused:
        check_event(Movement.MITCHELL, 8, 3, step=2)
    assert refused.value.code == "event_turns"
    check_event(Movement.MITCHELL, 8, 4)


@pytest.mark.parametrize("pairs", [8, 12, 16, 7, 9])
def test_round_robin_meets_each_pair_once(pairs):
    """B8: "each pair meets each other once, N × (N − 1) / 2 matches"."""
    seatings = [round_robin(pairs, turn) for turn in range(most_turns(Movement.ROUND_ROBIN, pairs))]
    for seating in seatings:
        everyone_once(seating, pairs)
    met = meetings(seatings)
    assert len(met) == pairs * (pairs - 1) // 2
    assert set(met) == {frozenset(two) for two in combinations(range(pairs), 2)}
    if pairs % 2:
        assert sorted(seating.bye for seating in seatings) == list(range(pairs))


def ranked(points: list[int]) -> list[int]:
    """The pairs in the order of ``points`` (highest first), for the Danish pairing."""
    return sorted(range(len(points)), key=lambda pair: -points[pair])


def test_danish_pairs_first_with_second_and_third_with_fourth():
    """B8: "after each turn, by the standings, 1st meets 2nd, 3rd meets 4th, …"."""
    order = [5, 2, 7, 0, 1, 3, 6, 4]
    assert danish(8, order).tables == ((5, 2), (7, 0), (1, 3), (6, 4))


def test_plain_danish_allows_a_rematch_and_the_modified_avoids_it():
    """B8: "modified Danish: the same, but never a rematch of the previous turn"."""
    last = Seating(tables=((0, 1), (2, 3), (4, 5), (6, 7)))
    order = [0, 1, 2, 3, 4, 5, 6, 7]
    assert danish(8, order).tables[0] == (0, 1)
    modified = danish(8, order, last=last)
    assert modified.tables == ((0, 2), (1, 3), (4, 6), (5, 7))
    assert not set(meetings([modified])) & set(meetings([last]))


@pytest.mark.parametrize("tables", TABLES)
@given(data=st.data())
def test_modified_danish_never_repeats_the_last_turn(tables, data):
    pairs = 2 * tables
    last = danish(pairs, data.draw(st.permutations(range(pairs))))
    order = data.draw(st.permutations(range(pairs)))
    seating = danish(pairs, order, last=last)
    everyone_once(seating, pairs)
    assert not set(meetings([seating])) & set(meetings([last]))


@pytest.mark.parametrize("pairs", [7, 9, 13])
def test_danish_gives_the_bye_to_the_lowest_pair_that_has_not_sat_out(pairs):
    order = list(range(pairs))
    first = danish(pairs, order)
    assert first.bye == pairs - 1
    second = danish(pairs, order, byes_had=[first.bye], last=first)
    assert second.bye == pairs - 2
    everyone_once(second, pairs)


def played(seating: Seating, scores: dict[frozenset, tuple[int, int, int, int]]) -> list[Result]:
    """Results for a seating from {pairs: (mp, mp, vp, vp)} keyed by the lower pair first."""
    results = []
    for one, other in seating.tables:
        low, high = sorted((one, other))
        mp_low, mp_high, vp_low, vp_high = scores[frozenset((one, other))]
        mine = {low: (mp_low, vp_low), high: (mp_high, vp_high)}
        results.append(Result(pairs=(one, other), match_points=(mine[one][0], mine[other][0]),
                              victory_points=(mine[one][1], mine[other][1])))
    return results


def test_standings_go_by_victory_points_then_match_points_with_shared_ranks():
    """The issue: "Standings … total VP, then match points"."""
    seating = Seating(tables=((0, 1), (2, 3)))
    rows = standings(4, [(seating, played(seating, {
        frozenset((0, 1)): (900, 850, 10, 10), frozenset((2, 3)): (700, 650, 10, 10)}))])
    assert [(row.pair, row.rank) for row in rows] == [(0, 1), (1, 2), (2, 3), (3, 4)]
    level = standings(2, [(Seating(tables=((0, 1),)), [Result((0, 1), (500, 500), (10, 10))])])
    assert [row.rank for row in level] == [1, 1]


def test_a_bye_scores_twelve_victory_points_and_no_match_points():
    """B8: "default: the pair without opponents scores 12 VP and 0 MP"."""
    seating = danish(3, [0, 1, 2])
    rows = standings(3, [(seating, [Result((0, 1), (600, 400), (14, 6))])])
    bye = next(row for row in rows if row.pair == seating.bye)
    assert (bye.victory_points, bye.match_points, bye.byes) == (BYE_VP, 0, 1)
    assert [row.pair for row in rows] == [0, 2, 1]
    assert standings(3, [(seating, [])], bye_vp=10)[0].victory_points == 10


def test_round_robin_breaks_a_tie_by_head_to_head_before_match_points():
    """B8: round robin, "ties by the head-to-head result, then by total match points"."""
    turns = [round_robin(4, turn) for turn in range(3)]
    scores = {frozenset((0, 1)): (500, 450, 8, 12),   # 1 beat 0
              frozenset((0, 2)): (900, 100, 20, 0), frozenset((0, 3)): (500, 500, 10, 10),
              frozenset((1, 2)): (800, 200, 16, 4), frozenset((1, 3)): (500, 500, 10, 10),
              frozenset((2, 3)): (500, 500, 10, 10)}
    history = [(seating, played(seating, scores)) for seating in turns]
    by_points = standings(4, history)
    head_to_head = standings(4, history, head_to_head=True)
    # 0 and 1 both have 38 VP: 0 scored more match points, 1 won their meeting.
    assert by_points[0].victory_points == by_points[1].victory_points == 38
    assert [row.pair for row in by_points[:2]] == [0, 1]
    assert [row.pair for row in head_to_head[:2]] == [1, 0]
