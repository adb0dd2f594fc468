"""A tournament match of Burraco (RULES-NOTES B8): "each table plays a fixed number of hands
per turn (2, 3 or 4). The hand scores are summed into match points (MP); the MP difference
between the two pairs becomes Victory Points (VP) on a 20-point scale"."""

import pytest

from scoring import burraco
from scoring.burraco import VICTORY_POINT_TABLES, standings, verify_options
from scoring.errors import HandError, SetupError
from scoring.games import next_hand
from scoring.victory_points import as_data

CLUB = {"name": "Club 2", "hands": 2,
        "bands": [{"from": 0, "to": 40, "vp": [10, 10]}, {"from": 45, "to": None, "vp": [15, 5]}]}


def hand(north_south: int, east_west: int) -> dict:
    return {"sides": [{"total": north_south}, {"total": east_west}]}


def test_the_hand_scores_are_summed_into_match_points_and_their_difference_into_vp():
    """B8: "summed into match points (MP)"; 3 hands, a difference of 505 is 15–5."""
    options = verify_options({"hands": 3}, 4)
    done = standings(options, 4, [hand(400, 100), hand(300, 200), hand(200, 95)])
    assert done.finished and done.totals == (900, 395) and done.to_go is None
    assert done.victory_points == (15, 5) and done.table.name == "FIBUR"
    assert done.winners == (0,) and done.losers == (1,)


def test_before_the_last_hand_there_is_no_end_and_no_victory_points():
    options = verify_options({"hands": 4, "target": 505}, 4)
    going = standings(options, 4, [hand(1500, 0), hand(1500, 0), hand(0, 0)])
    assert not going.finished and going.victory_points is None and going.dealer == 3


def test_a_hand_after_the_last_is_refused():
    options = verify_options({"hands": 2, "victory_points": CLUB}, 4)
    played = [hand(100, 0), hand(0, 30)]
    assert standings(options, 4, played).victory_points == (15, 5)
    with pytest.raises(HandError) as refused:
        next_hand(burraco, options, 4, played, hand(5, 0))
    assert refused.value.code == "match_finished"


def test_level_match_points_share_the_win_and_the_first_band():
    options = verify_options({"hands": 3}, 4)
    level = standings(options, 4, [hand(100, 150), hand(50, 0), hand(0, 0)])
    assert level.victory_points == (10, 10) and level.winners == (0, 1) and not level.losers


def test_the_pair_behind_gets_the_smaller_share():
    options = verify_options({"hands": 4}, 4)
    behind = standings(options, 4, [hand(0, 2005)] + [hand(0, 0)] * 3)
    assert behind.victory_points == (0, 20) and behind.winners == (1,)


def test_the_table_in_use_is_stored_with_the_options_and_read_back_the_same():
    """B8: "the table is the club's choice, and the sheet names the one it used"."""
    for raw in ({"hands": 3}, {"hands": 4, "victory_points": "FIBUR"},
                {"hands": 2, "victory_points": CLUB}):
        options = verify_options(raw, 4)
        stored = options.to_dict()
        assert stored["hands"] == raw["hands"]
        assert verify_options(stored, 4) == options
    assert verify_options({"hands": 3}, 4).to_dict()["victory_points"] == as_data(
        VICTORY_POINT_TABLES[3])
    assert "hands" not in verify_options({}, 4).to_dict()


@pytest.mark.parametrize("raw, players, code", [
    ({"hands": 2}, 4, "vp_table_needed"),
    ({"hands": 2, "victory_points": "FIBUR"}, 4, "vp_table_needed"),
    ({"hands": 5}, 4, "tournament_hands"),
    ({"hands": "three"}, 4, "tournament_hands"),
    ({"hands": 3}, 2, "tournament_pairs"),
    ({"hands": 3}, 3, "tournament_pairs"),
    ({"hands": 3, "victory_points": CLUB}, 4, "vp_table_other_hands"),
    ({"hands": 2, "victory_points": {**CLUB, "bands": CLUB["bands"][:1]}}, 4,
     "vp_table_not_open"),
    ({"hands": 2, "victory_points": "Club 2"}, 4, "vp_table_unreadable"),
])
def test_a_tournament_match_is_refused_with_its_reason(raw, players, code):
    """B8: four players in two pairs, "2, 3 or 4" hands; "no 2-hand … table was found in a
    public source: ship none, let a club enter its own"."""
    with pytest.raises(SetupError) as refused:
        verify_options(raw, players)
    assert refused.value.code == code
