"""Burraco's hand score and match (seed 002, RULES-NOTES B2/B3), each test quoting its rule.
The meld checker's tests are in test_burraco_melds.py."""

import pytest

from scoring import burraco
from scoring.burraco import (
    Options,
    hand_scores,
    standings,
    verify_options,
    verify_side,
    verify_sides,
)
from scoring.errors import HandError, SetupError

CLASSIC = Options()

NORTH_SOUTH = {"table_points": 120, "clean_burracos": 1, "dirty_burracos": 0,
               "semiclean_burracos": 0, "hand_points": 10, "pozzetto": "taken",
               "closed": True}
EAST_WEST = {"table_points": 95, "clean_burracos": 0, "dirty_burracos": 1, "hand_points": 40,
             "pozzetto": "taken", "closed": False}


def test_the_seed_example_scores_410_and_155():
    """Seed 002, Abrechnung: "Karten 120 − 10, reiner Burraco 200, Schließen 100 – zusammen
    410" and "95 − 40 + 100 = 155"."""
    assert hand_scores({"sides": [NORTH_SOUTH, EAST_WEST]}, CLASSIC) == [410, 155]


@pytest.mark.parametrize("change, score", [
    # B2: "each clean burraco (pulito …) + 200", "each dirty burraco (sporco …) + 100"
    ({"clean_burracos": 2}, 120 + 400 + 100 - 10),
    ({"dirty_burracos": 1}, 120 + 200 + 100 + 100 - 10),
    # B2: "pozzetto never taken − 100"
    ({"pozzetto": "not_taken", "closed": False}, 120 + 200 - 10 - 100),
    # B2: "pozzetto picked up but not yet looked at … − its cards' value, instead of the 100"
    ({"pozzetto": "unseen", "unseen_pozzetto_points": 85}, 120 + 200 + 100 - 10 - 85),
    # B2: "No closing bonus when the hand ends because the stock ran down … or by stalemate."
    ({"closed": False}, 120 + 200 - 10),
])
def test_a_sides_score_is_cards_plus_bonuses_minus_hand_and_pozzetto(change, score):
    assert verify_side({**NORTH_SOUTH, **change}, 0, CLASSIC).score == score


def test_the_unseen_pozzetto_also_costs_the_closing_side():
    """B2: "… and also to the closing side if the closer's partner picked up a pozzetto
    unseen." A side may close with its pozzetto picked up unseen."""
    side = verify_side({**NORTH_SOUTH, "pozzetto": "unseen", "unseen_pozzetto_points": 60},
                       0, CLASSIC)
    assert side.closed and side.score == 120 + 200 + 100 - 10 - 60


def test_a_result_may_be_negative():
    """Seed 002: "Ein Ergebnis darf negativ sein." """
    side = verify_side({"table_points": 15, "hand_points": 90, "pozzetto": "not_taken"}, 1,
                       CLASSIC)
    assert side.score == 15 - 90 - 100


def test_a_total_counted_on_paper():
    assert verify_side({"total": "-35"}, 0, CLASSIC).score == -35


def test_semi_clean_burracos_count_150_with_the_option():
    """B4: semi-clean 150, an option, off by default."""
    raw = {"table_points": 80, "semiclean_burracos": 1, "pozzetto": "taken"}
    assert verify_side(raw, 0, Options(semipulito=True)).score == 80 + 150
    with pytest.raises(HandError) as error:
        verify_side(raw, 0, CLASSIC)
    assert error.value.code == "semiclean_off"


@pytest.mark.parametrize("raw, code", [
    # Seed 002, Schließen: "deine Partei hat ihren Pozzetto genommen"
    ({**NORTH_SOUTH, "pozzetto": "not_taken"}, "closing_needs_pozzetto"),
    # Seed 002, Schließen: "deine Partei hat mindestens einen Burraco ausliegen"
    ({**NORTH_SOUTH, "clean_burracos": 0}, "closing_needs_burraco"),
    ({**NORTH_SOUTH, "table_points": -5}, "table_points_range"),
    ({**NORTH_SOUTH, "hand_points": 10**9}, "hand_points_range"),
    ({**NORTH_SOUTH, "table_points": 123}, "points_multiple_of_five"),
    ({**NORTH_SOUTH, "clean_burracos": -1}, "burracos_range"),
    ({**NORTH_SOUTH, "clean_burracos": 16, "table_points": 1080}, "burracos_range"),
    # A burraco is seven cards or more, at least 7 × 5 points on the table.
    ({**NORTH_SOUTH, "table_points": 30}, "burraco_needs_cards"),
    ({**NORTH_SOUTH, "pozzetto": "lost"}, "unknown_pozzetto"),
    # A pozzetto holds eleven cards (eighteen with three players): at least 55 points.
    ({**NORTH_SOUTH, "pozzetto": "unseen", "unseen_pozzetto_points": 0},
     "unseen_pozzetto_points_range"),
    ({"total": 12}, "points_multiple_of_five"),
    # A side switched to its total and left empty has not been counted: no silent 0.
    ({"total": ""}, "total_missing"),
    ({"total": 10**9}, "total_range"),
    ({"total": "abc"}, "total_range"),
    ("not a side", "side_needs_entry"),
])
def test_inconsistent_sides_are_refused_with_the_rule(raw, code):
    with pytest.raises(HandError) as error:
        verify_side(raw, 0, CLASSIC)
    assert error.value.code == code


def test_a_missing_pozzetto_is_refused_not_taken_for_granted():
    """B2: the −100 applies "to every side without its pozzetto": the entry must say which."""
    raw = {key: value for key, value in EAST_WEST.items() if key != "pozzetto"}
    with pytest.raises(HandError) as error:
        verify_side(raw, 1, CLASSIC)
    assert error.value.code == "pozzetto_missing" and error.value.params["side"] == 2


@pytest.mark.parametrize("field, first, second", [
    ("table_points", 700, 700), ("table_points", 100, 1000), ("hand_points", 600, 600)])
def test_both_sides_together_hold_no_more_than_the_cards(field, first, second):
    """B6: "Both sides' table points together cannot exceed the cards' total (1,080 for 108
    cards), nor can the hand points"."""
    sides = [{**EAST_WEST, field: first}, {**EAST_WEST, field: second}]
    with pytest.raises(HandError) as error:
        verify_sides(sides, CLASSIC)
    assert error.value.code == f"{field}_together"
    assert error.value.params["total"] == first + second
    assert error.value.params["side"] == (1 if first >= second else 2)


def test_the_cards_total_itself_is_accepted():
    """B6: "cannot exceed" — exactly 1,080 between both sides is possible."""
    sides = [{**EAST_WEST, "table_points": 700}, {**EAST_WEST, "table_points": 380}]
    assert [side.table_points for side in verify_sides(sides, CLASSIC)] == [700, 380]


def test_one_side_holds_no_more_than_the_cards():
    """B6: "a side's table points plus its hand points plus any unseen pozzetto cannot exceed
    it either"."""
    raw = {**EAST_WEST, "table_points": 900, "hand_points": 100, "pozzetto": "unseen",
           "unseen_pozzetto_points": 100}
    with pytest.raises(HandError) as error:
        verify_side(raw, 0, CLASSIC)
    assert error.value.code == "side_points_exceed_cards" and error.value.params["total"] == 1100


def test_only_one_side_can_close():
    with pytest.raises(HandError) as error:
        verify_sides([NORTH_SOUTH, {**EAST_WEST, "closed": True}], CLASSIC)
    assert error.value.code == "both_closed"


@pytest.mark.parametrize("sides", [[NORTH_SOUTH], [NORTH_SOUTH] * 3, None, "xy"])
def test_a_hand_has_two_sides(sides):
    with pytest.raises(HandError) as error:
        verify_sides(sides, CLASSIC)
    assert error.value.code == "hand_needs_two_sides"


def test_a_hand_may_end_without_closing():
    """Seed 002: "Das Spiel endet auch ohne Schließen" (stock down to two cards, stalemate)."""
    assert hand_scores({"sides": [{**NORTH_SOUTH, "closed": False}, EAST_WEST]}, CLASSIC) == \
        [310, 155]


# --- The match ----------------------------------------------------------------------------

def hand(ns, ew):
    return {"sides": [{"total": ns}, {"total": ew}]}


@pytest.mark.parametrize("players", [2, 3, 4])
def test_two_three_or_four_players(players):
    assert verify_options({}, players) == Options()


@pytest.mark.parametrize("players", [1, 5])
def test_other_player_counts_are_refused(players):
    with pytest.raises(SetupError):
        verify_options({}, players)


@pytest.mark.parametrize("raw, target", [
    ({}, 2005), ({"target": 1005}, 1005), ({"target": "505"}, 505), ({"target": 750}, 750),
])
def test_the_target(raw, target):
    """Seed 002: "Hat eine Partei 2005 oder mehr … Kürzere Partien gehen bis 1005 oder 505." """
    assert verify_options(raw, 4).target == target


@pytest.mark.parametrize("target", [0, -5, 10**9, "x"])
def test_impossible_targets_are_refused(target):
    with pytest.raises(SetupError):
        verify_options({"target": target}, 4)


def test_partners_sit_opposite():
    """Seed 002: "Partner sitzen sich gegenüber" — seats 0 and 2 against 1 and 3."""
    assert burraco.sides_of(4) == ((0, 2), (1, 3))
    assert burraco.sides_of(2) == ((0,), (1,))


def test_the_side_with_more_points_wins_once_a_side_reaches_the_target():
    """Seed 002: "Hat eine Partei 2005 oder mehr, gewinnt die Partei mit mehr Punkten"."""
    options = Options(target=505)
    assert not standings(options, 4, [hand(400, 100)]).finished
    result = standings(options, 4, [hand(400, 100), hand(110, 500)])
    assert result.totals == (510, 600)
    assert result.finished and result.winners == (1,) and result.losers == (0,)


def test_a_tie_at_the_target_plays_one_more_hand():
    """Seed 002: "(bei Gleichstand wird noch ein Spiel gespielt)"."""
    options = Options(target=505)
    tied = standings(options, 4, [hand(505, 505)])
    assert not tied.finished and tied.dealer is not None
    assert standings(options, 4, [hand(505, 505), hand(5, 0)]).winners == (0,)


@pytest.mark.parametrize("hands, tied_at", [
    ([hand(505, 505)], 505),  # level at the target
    ([hand(300, 300), hand(250, 250)], 505),  # level past it: the same rule
    ([hand(300, 300)], None),  # level, but short of it: nothing to decide yet
    ([hand(505, 505), hand(5, 0)], None),  # the hand after the tie decided
    ([hand(600, 505)], None),  # both reached it, not level: the more points won
])
def test_the_standings_say_when_a_tie_at_the_target_needs_one_more_hand(hands, tied_at):
    """Seed 002, "Partieende": "Hat eine Partei 2005 oder mehr, gewinnt die Partei mit mehr
    Punkten (bei Gleichstand wird noch ein Spiel gespielt)" (RULES-NOTES B3)."""
    result = standings(Options(target=505), 4, hands)
    assert result.tied_at == tied_at
    assert result.finished == (tied_at is None and max(result.totals) >= 505)


def test_three_players_tied_at_the_top_play_on_whoever_trails():
    """RULES-NOTES B3: each of three players keeps a total; the most points at or over the
    target win, so only a tie at the top plays on."""
    options = Options(target=505)
    # The lone player scores nothing; the partners share 1010.
    result = standings(options, 3, [{**hand(0, 1010), "alone": 1}])
    assert result.totals == (505, 0, 505) and result.tied_at == 505 and not result.finished


def test_no_hand_after_the_end():
    with pytest.raises(HandError) as error:
        standings(Options(target=505), 2, [hand(600, 0), hand(0, 0)])
    assert error.value.code == "hand_after_end"


def test_the_deal_goes_clockwise_and_the_next_player_leads():
    """Seed 002: "danach gibt reihum im Uhrzeigersinn der Nächste" and "Der Spieler links vom
    Geber beginnt" — the next player in the list of the order of play."""
    options = Options(first_dealer=3)
    assert (standings(options, 4, []).dealer, standings(options, 4, []).leader) == (3, 0)
    after = standings(options, 4, [hand(0, 0)])
    assert (after.dealer, after.leader) == (0, 1)


def test_three_players_the_partners_share_their_sides_score():
    """Seed 002, zu dritt: "Wer zuerst keine Handkarten mehr hat, nimmt die 18 und spielt
    allein; die anderen zwei werden Partner". B3: "the two partners of a hand share their
    side's score equally … each player keeps a total." """
    options = Options(target=505)
    result = standings(options, 3, [{**hand(410, 155), "alone": 1}])
    assert result.totals == (77.5, 410, 77.5)
    assert result.rows[0].sides == ((1,), (0, 2))
    assert result.rows[0].gains == (77.5, 410, 77.5)


def test_three_players_must_say_who_played_alone():
    with pytest.raises(HandError) as error:
        standings(Options(), 3, [hand(10, 10)])
    assert error.value.code == "alone_needed"


LONE = {"table_points": 300, "clean_burracos": 1, "hand_points": 0, "pozzetto": "taken",
        "closed": True}
PARTNERS = {"table_points": 100, "hand_points": 15, "pozzetto": "taken"}


@pytest.mark.parametrize("lone, code", [
    ({**LONE, "closed": False, "pozzetto": "not_taken"}, "alone_took_pozzetto"),
    ({**LONE, "closed": False, "pozzetto": "unseen", "unseen_pozzetto_points": 85},
     "unseen_lone_pozzetto"),
])
def test_the_lone_player_has_taken_the_18_card_pozzetto(lone, code):
    """B6: "Three players: the lone player has taken the 18-card pozzetto by definition (never
    "not taken"); an unseen 18-card pozzetto is worth at least 90 (18 × 5)"."""
    with pytest.raises(HandError) as error:
        standings(Options(), 3, [{"sides": [lone, PARTNERS], "alone": 0}])
    assert error.value.code == code and error.value.params["side"] == 1


def test_an_unseen_18_card_pozzetto_of_90_is_accepted():
    lone = {**LONE, "closed": False, "pozzetto": "unseen", "unseen_pozzetto_points": 90}
    result = standings(Options(), 3, [{"sides": [lone, PARTNERS], "alone": 2}])
    assert result.rows[0].gains[2] == 300 + 200 - 90


NOBODY_OUT = {"table_points": 60, "hand_points": 45, "pozzetto": "not_taken"}


def test_three_players_nobody_ran_out_each_pays_for_the_pozzetto():
    """B6: "Three players, nobody ran out of hand cards (the stock ran out, or a stalemate):
    nobody played alone and nobody took a pozzetto; each player is a side of their own for
    that hand and pays the −100 for the pozzetto." """
    sides = [NOBODY_OUT, {**NOBODY_OUT, "table_points": 120}, {"total": -50}]
    result = standings(Options(), 3, [{"sides": sides, "alone": None}])
    assert result.rows[0].sides == ((0,), (1,), (2,))
    assert result.rows[0].gains == (60 - 45 - 100, 120 - 45 - 100, -50)
    assert result.totals == (-85, -25, -50)
    assert burraco.verify_hand(Options(), 3, {"sides": sides, "alone": None})["alone"] is None


@pytest.mark.parametrize("side, code", [
    ({**NOBODY_OUT, "pozzetto": "taken"}, "nobody_took_pozzetto"),
    ({**NOBODY_OUT, "pozzetto": "unseen", "unseen_pozzetto_points": 90},
     "nobody_took_pozzetto"),
    ({**NOBODY_OUT, "clean_burracos": 1, "closed": True, "pozzetto": "not_taken"},
     "closing_needs_pozzetto"),
])
def test_when_nobody_ran_out_nobody_took_a_pozzetto(side, code):
    """B6: "nobody played alone and nobody took a pozzetto"."""
    with pytest.raises(HandError) as error:
        standings(Options(), 3, [{"sides": [NOBODY_OUT, NOBODY_OUT, side], "alone": None}])
    assert error.value.code == code and error.value.params["side"] == 3


def test_when_nobody_ran_out_every_player_has_an_entry():
    with pytest.raises(HandError) as error:
        standings(Options(), 3, [{"sides": [NOBODY_OUT, NOBODY_OUT], "alone": None}])
    assert error.value.code == "hand_needs_three_sides"


@pytest.mark.parametrize("round_halves, shares", [(False, 152.5), (True, 155)])
def test_the_partners_half_is_exact_or_rounded_up_to_the_next_5(round_halves, shares):
    """B6: "the half is kept exactly (152.5); the table may choose "round halves up to the
    next 5" as an option (Italian club practice)." """
    options = Options(target=5000, round_halves=round_halves)
    result = standings(options, 3, [{**hand(100, 305), "alone": 0}])
    assert result.totals == (100, shares, shares)
    assert verify_options({"round_halves": True}, 3).round_halves
    assert not verify_options({}, 3).round_halves


def test_running_totals_and_distance_to_the_target():
    result = standings(Options(target=1005), 2, [hand(410, 155), hand(-35, 100)])
    assert [row.totals for row in result.rows] == [(410, 155), (375, 255)]
    assert result.to_go == (630, 750)
    assert result.ahead == (0,)


# --- Two players: the closer's hand (B6) ----------------------------------------------------

@pytest.mark.parametrize("closer, code", [
    ({**NORTH_SOUTH, "hand_points": 10}, "closer_holds_no_cards"),
    ({**NORTH_SOUTH, "hand_points": 0, "pozzetto": "unseen", "unseen_pozzetto_points": 60},
     "closer_saw_pozzetto"),
])
def test_two_players_the_closer_holds_no_cards_and_saw_the_pozzetto(closer, code):
    """B6: "Two players: the closer is a side alone. Closing lays down or discards every card,
    so the closer holds no cards (0 hand points) and cannot have an unseen pozzetto"."""
    with pytest.raises(HandError) as error:
        burraco.verify_hand(CLASSIC, 2, {"sides": [closer, EAST_WEST]})
    assert (error.value.code, error.value.params["side"]) == (code, 1)


def test_four_players_the_closers_partner_may_hold_cards():
    """B2: "cards left in the side's hands (both partners)" count against the closing side."""
    hand = burraco.verify_hand(CLASSIC, 4, {"sides": [NORTH_SOUTH, EAST_WEST]})
    assert hand_scores(hand, CLASSIC) == [410, 155]


def test_two_players_a_clean_close_is_accepted():
    """B6: the closer's hand is empty; the other player's cards count against them."""
    hand = burraco.verify_hand(CLASSIC, 2, {"sides": [{**NORTH_SOUTH, "hand_points": 0},
                                                      EAST_WEST]})
    assert hand_scores(hand, CLASSIC) == [420, 155]


# --- Burraco Reale (B7) ----------------------------------------------------------------------

REALE = Options(variant=burraco.Variant.REALE)


def test_burraco_reale_pays_nobile_500_and_reale_1000():
    """B7: "Burracos: dirty 100, clean 200, nobile (a clean run A–K) 500, reale (a clean run
    A–A, 14 cards) 1,000, each in place of the clean bonus. Closing + 100"."""
    side = {"table_points": 235, "nobile_burracos": 1, "reale_burracos": 1, "hand_points": 0,
            "pozzetto": "taken", "closed": True}
    assert verify_side(side, 0, REALE).score == 235 + 500 + 1000 + 100


def test_burraco_reale_closes_only_with_a_clean_burraco():
    """B7: "a side may close only with a clean burraco"."""
    with pytest.raises(HandError) as error:
        verify_side({**NORTH_SOUTH, "clean_burracos": 0, "dirty_burracos": 1}, 0, REALE)
    assert error.value.code == "closing_needs_clean_burraco"
    assert verify_side({**NORTH_SOUTH, "clean_burracos": 0, "nobile_burracos": 1,
                        "table_points": 110}, 0, REALE).closed


@pytest.mark.parametrize("raw, options, code", [
    # The whole suit's runs are Burraco Reale's alone.
    ({**NORTH_SOUTH, "nobile_burracos": 1, "table_points": 230}, CLASSIC,
     "whole_suit_runs_off"),
    # Ace to king holds 13 cards: 110 points at Burraco Reale's values.
    ({**NORTH_SOUTH, "clean_burracos": 0, "nobile_burracos": 1, "table_points": 100}, REALE,
     "whole_suit_runs_need_cards"),
    # No semi-clean burraco in Burraco Reale (B7 lists its burracos).
    ({**NORTH_SOUTH, "semiclean_burracos": 1, "table_points": 200}, REALE, "semiclean_off"),
    # 104 cards at A 15, 2 10, K–8 10, 7–3 5: 880 in all.
    ({**NORTH_SOUTH, "table_points": 885}, REALE, "table_points_range"),
])
def test_burraco_reale_refuses_what_it_does_not_play(raw, options, code):
    with pytest.raises(HandError) as error:
        verify_side(raw, 0, options)
    assert error.value.code == code


def test_burraco_reale_has_no_semi_clean_option():
    """B7: the preset sets its own burracos; the semi-clean option does not apply."""
    assert verify_options({"variant": "reale", "semipulito": True}, 4).semipulito is False
    with pytest.raises(SetupError):
        verify_options({"variant": "royal"}, 4)
