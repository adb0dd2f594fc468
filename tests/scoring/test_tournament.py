"""A club night replayed from the organiser's setup and the tables' match points (RULES-NOTES
B8): seatings, Victory Points, standings after each turn, and the setup's refusals."""

import pytest

from scoring.burraco import VICTORY_POINT_TABLES
from scoring.errors import SetupError
from scoring.movements import BYE_VP, Movement
from scoring.tournament import read_setup, replay

THREE_HANDS = VICTORY_POINT_TABLES[3]
NAMES = [f"Pair {letter}" for letter in "ABCDEFGHIJKL"]


def setup(movement="mitchell", pairs=12, turns=3, **more):
    return read_setup({"pairs": NAMES[:pairs], "movement": movement, "turns": turns,
                       "hands": 3, **more})


def test_a_mitchell_night_of_six_tables_scores_victory_points_by_the_table():
    """B8: "the hand scores are summed into match points (MP); the MP difference between the
    two pairs becomes Victory Points"; 3 hands: "355–500 | 14–6"."""
    night = replay(setup(), THREE_HANDS, {0: {table: (1200, 800) for table in range(6)}})
    first = night.turns[0]
    assert first.complete and len(night.turns) == 3
    assert [result.victory_points for result in first.results.values()] == [(14, 6)] * 6
    # North–South (pairs A–F) won every table.
    assert [row.pair for row in night.standings[:6]] == [0, 1, 2, 3, 4, 5]
    assert {row.victory_points for row in night.standings} == {14, 6}
    assert len(night.after_each) == 1 and not night.finished


def test_the_standings_after_each_turn_and_the_end():
    everything = {turn: {table: (900 + 5 * table, 850) for table in range(6)} for turn in range(3)}
    night = replay(setup(), THREE_HANDS, everything)
    assert night.finished and len(night.after_each) == 3
    assert night.after_each[-1] == night.standings
    # After one turn each North–South pair has 10 VP (a difference under 55).
    assert {row.victory_points for row in night.after_each[0][:6]} == {10, 11}


def test_a_corrected_result_rescores_the_night():
    """The principle: nothing derived is stored, so a correction re-scores what follows."""
    before = replay(setup(), THREE_HANDS, {0: {0: (1000, 400)}})
    after = replay(setup(), THREE_HANDS, {0: {0: (400, 1000)}})
    assert before.standings[0].pair == 0 and before.standings[0].victory_points == 15
    assert after.standings[0].pair == 6 and after.standings[0].victory_points == 15


def test_a_danish_turn_waits_for_the_one_before_and_pairs_by_its_standings():
    """B8: Danish, "after each turn, by the standings, 1st meets 2nd, 3rd meets 4th"."""
    night = setup("danish", pairs=8, turns=3)
    partly = replay(night, THREE_HANDS, {0: {0: (1000, 500)}})
    assert len(partly.turns) == 1
    # Turn 1: A–B 15–5, C–D 6–14, E–F 14–6, G–H 8–12. By VP, then match points:
    # A 15, D 14 (900), E 14 (800), H 12, G 8, C and F 6 (level: listed order), B 5.
    done = replay(night, THREE_HANDS, {0: {0: (1000, 400), 1: (400, 900), 2: (800, 400),
                                           3: (500, 700)}})
    assert done.turns[1].seating.tables == ((0, 3), (4, 7), (6, 2), (5, 1))


def test_a_danish_turn_opened_keeps_its_seating_when_an_earlier_result_is_corrected():
    """The pairs sat where the standings of the moment sent them: correcting a result of
    turn 1 re-scores the standings, not the tables of turn 2 already played."""
    night = setup("danish", pairs=8, turns=3)
    first = {0: (1000, 400), 1: (400, 900), 2: (800, 400), 3: (500, 700)}
    opened = replay(night, THREE_HANDS, {0: first})
    seated = [turn.seating for turn in opened.turns]
    corrected = {0: {**first, 0: (400, 1000)}}
    assert replay(night, THREE_HANDS, corrected).turns[1].seating != seated[1]
    kept = replay(night, THREE_HANDS, corrected, seated=seated)
    assert kept.turns[1].seating == seated[1]
    assert kept.standings[0].pair == 1  # B now leads with 15 VP


def test_modified_danish_avoids_the_rematch_the_standings_would_bring():
    """B8: "modified Danish: the same, but never a rematch of the previous turn"."""
    night = setup("modified_danish", pairs=4, turns=2)
    # The winners lead and the losers follow: no rematch to avoid, A–C and D–B.
    done = replay(night, THREE_HANDS, {0: {0: (1000, 400), 1: (900, 400)}})
    assert done.turns[1].seating.tables == ((0, 2), (3, 1))
    # A and B level on top would rematch in plain Danish; the modified pairing does not.
    level = replay(setup("danish", pairs=4, turns=2), THREE_HANDS, {0: {0: (500, 500), 1: (500, 500)}})
    assert level.turns[1].seating.tables[0] == (0, 1)
    modified = replay(night, THREE_HANDS, {0: {0: (500, 500), 1: (500, 500)}})
    assert (0, 1) not in modified.turns[1].seating.tables


def test_a_bye_counts_once_its_turn_is_under_way():
    """B8: "the pair without opponents scores 12 VP and 0 MP"."""
    night = setup("mitchell", pairs=7, turns=2)
    nothing = replay(night, THREE_HANDS, {})
    assert all(row.victory_points == 0 for row in nothing.standings)
    started = replay(night, THREE_HANDS, {0: {0: (500, 500)}})
    bye = started.turns[0].seating.bye
    assert next(row for row in started.standings if row.pair == bye).victory_points == BYE_VP


@pytest.mark.parametrize("change, code", [
    ({"pairs": ["A", " "]}, "event_pair_name"),
    ({"pairs": ["Rossi", "rossi "]}, "event_pair_twice"),
    # Full-width letters are the letters they look like, so these two are one name.
    ({"pairs": ["Rossi", "Ｒｏｓｓｉ"]}, "event_pair_twice"),
    ({"pairs": ["Rossi", "Ro\u200bssi"]}, "event_pair_hidden"),
    ({"pairs": ["Rossi", "<b>Bianchi"]}, "event_pair_markup"),
    ({"pairs": "A, B"}, "event_pairs_unreadable"),
    ({"pairs": ["A"]}, "event_pairs"),
    ({"movement": "howell"}, "event_movement"),
    ({"hands": 5}, "event_hands"),
    ({"turns": 0}, "event_turns_unreadable"),
    ({"pairs": NAMES[:10]}, "mitchell_even_tables"),
    ({"turns": 5, "pairs": NAMES[:8]}, "event_turns"),
])
def test_the_organisers_setup_is_refused_with_the_rule_it_breaks(change, code):
    raw = {"pairs": NAMES[:8], "movement": "mitchell", "turns": 3, "hands": 3, **change}
    with pytest.raises(SetupError) as refused:
        read_setup(raw)
    assert refused.value.code == code


def test_the_setup_keeps_the_organisers_choices():
    chosen = setup("round_robin", pairs=5, turns=5, bye_vp=10)
    assert chosen.movement is Movement.ROUND_ROBIN and chosen.bye_vp == 10
    assert chosen.pairs == tuple(NAMES[:5])
