"""Buraco's hand score and match (seed 004; RULES-NOTES C1–C3), each test quoting its rule.
The meld checker's tests are in test_buraco_melds.py."""

import pytest

from scoring import buraco
from scoring.buraco import (
    Options,
    Variant,
    hand_scores,
    row_json,
    standings,
    verify_hand,
    verify_options,
    verify_side,
    verify_sides,
)
from scoring.errors import HandError, SetupError

SEED = Options()
BRAZILIAN = Options(variant=Variant.BRAZILIAN)
# A side that went out with a clean buraco and two red threes; one that melded nothing.
OUT = {"table_points": 150, "clean_buracos": 1, "dirty_buracos": 0, "red_threes": 2,
       "hand_points": 0, "dead_pile": "taken", "went_out": True}
STUCK = {"table_points": 0, "red_threes": 1, "hand_points": 60, "dead_pile": "not_taken"}
PLAYING = {"table_points": 95, "dirty_buracos": 1, "hand_points": 40, "dead_pile": "taken"}
# The Brazilian games know no red threes (C3).
OUT_BRAZILIAN = {**OUT, "red_threes": 0}


def refused(raw, options=SEED):
    with pytest.raises(HandError) as error:
        verify_side(raw, 0, options)
    return error.value


def test_a_hand_adds_cards_bonuses_and_threes_and_takes_off_the_hand():
    """Seed 004: "Jede ausgelegte Karte zählt nach ihrem eigenen Wert", "Für jeden reinen
    Buraco gibt es 200 Bonuspunkte", "Karten, die beim Rundenende noch auf der Hand liegen,
    werden von den eigenen Punkten abgezogen"; RULES-NOTES C1 for the red threes, going out
    and the dead pile."""
    assert hand_scores({"sides": [OUT, STUCK]}, SEED) == [
        150 + 200 + 2 * 100 + 100,
        -100 - 60 - 100,
    ]


@pytest.mark.parametrize("change, score", [
    # Seed 004: "für jeden unreinen Buraco 100 Bonuspunkte"
    ({"dirty_buracos": 1}, 150 + 200 + 100 + 200 + 100),
    ({"clean_buracos": 2, "table_points": 300}, 300 + 400 + 200 + 100),
    # Seed 004: "Karten, die beim Rundenende noch auf der Hand liegen, werden … abgezogen."
    ({"hand_points": 45, "went_out": False}, 150 + 200 + 200 - 45),
    # C1: "Red threes: + 100 each, + 800 for all four"
    ({"red_threes": 0}, 150 + 200 + 100),
    ({"red_threes": 1}, 150 + 200 + 100 + 100),
    ({"red_threes": 3}, 150 + 200 + 300 + 100),
    ({"red_threes": 4}, 150 + 200 + 800 + 100),
])
def test_a_sides_score(change, score):
    assert verify_side({**OUT, **change}, 0, SEED).score == score


@pytest.mark.parametrize("red_threes, score", [(1, -100), (2, -200), (3, -300), (4, -800)])
def test_red_threes_count_against_a_side_that_melded_nothing(red_threes, score):
    """RULES-NOTES C1: "− 100 each (− 800) if the side melded nothing"; a side "melded
    nothing" with no points on the table and no buraco."""
    side = verify_side({**STUCK, "red_threes": red_threes, "hand_points": 0}, 1, SEED)
    assert side.red_three_points == score
    assert side.score == score - 100


@pytest.mark.parametrize("options, going_out, dead_pile", [
    (SEED, 100, 100),
    # C1: "Going out: + 100. Option." and "A side that never took its dead pile: − 100.
    # Option."
    (Options(going_out_bonus=False), 0, 100),
    (Options(dead_pile_penalty=False), 100, 0),
])
def test_going_out_and_the_dead_pile_as_the_table_chose(options, going_out, dead_pile):
    assert verify_side(OUT, 0, options).score == 150 + 200 + 200 + going_out
    assert verify_side(STUCK, 1, options).score == -100 - 60 - dead_pile


def test_without_the_red_three_option_no_red_threes_are_entered():
    """RULES-NOTES C1: red threes are an option; off, they score nothing, so a count of them
    is refused rather than dropped."""
    assert refused(OUT, Options(red_threes=False)).code == "red_threes_off"
    assert verify_side({**OUT, "red_threes": 0}, 0, Options(red_threes=False)).score == 450


def test_a_total_counted_on_paper():
    assert verify_side({"total": "-35"}, 0, SEED).score == -35


@pytest.mark.parametrize("raw, options, code", [
    # Seed 004: "Das darf ein Spieler aber nur versuchen, wenn sein Team zu diesem Zeitpunkt
    # schon mindestens einen kompletten Buraco von sieben Karten gebildet hat."
    ({**OUT, "clean_buracos": 0}, SEED, "going_out_needs_buraco"),
    # C1: "Going out needs a complete buraco (clean or dirty; option: clean only)."
    ({**OUT, "clean_buracos": 0, "dirty_buracos": 1}, Options(clean_to_go_out=True),
     "going_out_needs_clean_buraco"),
    # Seed 002, Varianten: "zum Ausmachen braucht eine Partei eine reine Canastra (Burraco)"
    ({**OUT_BRAZILIAN, "clean_buracos": 0, "dirty_buracos": 1}, Options(variant=Variant.ABERTO),
     "going_out_needs_clean_buraco"),
    # Going out ends the hand with the side's dead pile in play: the seed takes it at the
    # first meld, the Brazilian morto by running out of cards first (like the pozzetto).
    ({**OUT_BRAZILIAN, "dead_pile": "not_taken"}, BRAZILIAN, "going_out_needs_dead_pile"),
    ({**OUT, "dead_pile": "not_taken"}, SEED, "going_out_needs_dead_pile"),
    # Seed 004: "Legt ein Spieler deines Teams zum ersten Mal in dieser Runde einen Satz aus,
    # nehmt ihr sofort euren toten Stapel auf die Hand dazu."
    ({**PLAYING, "dead_pile": "not_taken"}, SEED, "dead_pile_at_first_meld"),
    ({**STUCK, "dead_pile": "taken"}, SEED, "dead_pile_without_meld"),
    # Seven cards of at least 5 points each.
    ({**OUT, "table_points": 30}, SEED, "buraco_needs_cards"),
    ({**OUT, "table_points": 152}, SEED, "points_multiple_of_five"),
    ({**OUT, "hand_points": 7}, SEED, "points_multiple_of_five"),
    ({**OUT, "table_points": -5}, SEED, "table_points_range"),
    ({**OUT, "table_points": 1025}, SEED, "table_points_range"),
    ({**OUT_BRAZILIAN, "hand_points": 965}, BRAZILIAN, "hand_points_range"),
    ({**OUT, "table_points": 600, "hand_points": 450}, SEED, "side_points_exceed_cards"),
    ({**OUT, "clean_buracos": -1}, SEED, "buracos_range"),
    ({**OUT, "red_threes": 5}, SEED, "red_threes_range"),
    ({**OUT, "dead_pile": None}, SEED, "dead_pile_missing"),
    ({**OUT, "dead_pile": "lost"}, SEED, "unknown_dead_pile"),
    ({"total": 12}, SEED, "points_multiple_of_five"),
    ({"total": 10**7}, SEED, "total_range"),
    ({"total": ""}, SEED, "total_missing"),
    ("not a side", SEED, "side_needs_entry"),
])
def test_inconsistent_sides_are_refused_with_the_rule(raw, options, code):
    assert refused(raw, options).code == code


def test_the_brazilian_morto_is_not_taken_at_the_first_meld():
    """Seed 002, Varianten: "Die Zusatzhände heißen mortos" — taken like the pozzetto, by the
    first player out of hand cards, so a side may have melded without it."""
    side = verify_side({**PLAYING, "dead_pile": "not_taken"}, 0, BRAZILIAN)
    assert side.score == 95 + 100 - 40 - 100


def test_a_missing_dead_pile_is_refused_not_taken_for_granted():
    """C1: the − 100 applies to "a side that never took its dead pile": the entry must say."""
    raw = {key: value for key, value in PLAYING.items() if key != "dead_pile"}
    with pytest.raises(HandError) as error:
        verify_side(raw, 1, SEED)
    assert error.value.code == "dead_pile_missing" and error.value.params["side"] == 2


# --- Both sides together -------------------------------------------------------------------

@pytest.mark.parametrize("sides, options, code", [
    # Seed 004: "Die Runde endet, sobald ein Spieler alle Karten seiner Hand ausgelegt oder
    # abgelegt hat": one side goes out.
    ([OUT, OUT], SEED, "two_went_out"),
    # Seed 004: "Die roten Dreien, also Karo-3 und Herz-3": two packs hold four.
    ([{**OUT, "red_threes": 3}, {**PLAYING, "red_threes": 2}], SEED, "red_threes_together"),
    # All 108 cards count 1,020 (960 at the Brazilian values); no three is melded (C4).
    ([{**PLAYING, "table_points": 600}, {**PLAYING, "table_points": 425}], SEED,
     "table_points_together"),
    ([{**PLAYING, "table_points": 600}, {**PLAYING, "table_points": 405}], SEED,
     "table_points_together"),
    ([{**PLAYING, "hand_points": 500}, {**PLAYING, "hand_points": 465}], BRAZILIAN,
     "hand_points_together"),
    ([OUT], SEED, "hand_needs_two_sides"),
    ("xy", SEED, "hand_needs_two_sides"),
])
def test_the_sides_together_are_refused_with_the_rule(sides, options, code):
    with pytest.raises(HandError) as error:
        verify_sides(sides, options)
    assert error.value.code == code


def test_no_three_is_melded_so_the_table_holds_at_most_1000():
    """RULES-NOTES C4: "No three is ever melded …, so both sides' table points together are
    at most 1,000 … The hand points' cap stays 1,020 (black threes can be held)"."""
    table = [{**PLAYING, "table_points": 600, "hand_points": 0},
             {**PLAYING, "table_points": 400, "hand_points": 0}]
    assert [side.table_points for side in verify_sides(table, SEED)] == [600, 400]
    with pytest.raises(HandError) as error:
        verify_sides([table[0], {**table[1], "table_points": 405}], SEED)
    assert (error.value.code, error.value.params["high"]) == ("table_points_together", 1000)
    assert refused({**OUT, "table_points": 1005, "hand_points": 0}).params["high"] == 1000
    hands = [{**STUCK, "red_threes": 0, "hand_points": 600},
             {**STUCK, "red_threes": 0, "hand_points": 420}]
    assert [side.hand_points for side in verify_sides(hands, SEED)] == [600, 420]


def test_the_brazilian_table_may_hold_every_card():
    """C3: threes are ordinary cards in the Brazilian games, so all 960 points can be
    melded."""
    sides = [{**PLAYING, "table_points": 600, "hand_points": 0},
             {**PLAYING, "table_points": 360, "hand_points": 0}]
    assert [side.table_points for side in verify_sides(sides, BRAZILIAN)] == [600, 360]


@pytest.mark.parametrize("players", [2, 3])
def test_who_went_out_alone_holds_no_cards(players):
    """C4: "With two or three players each plays alone: the player who went out holds no
    cards (0 hand points)"."""
    others = [PLAYING] * (players - 1)
    hand = {"sides": [{**OUT, "hand_points": 10}, *others]}
    with pytest.raises(HandError) as error:
        verify_hand(SEED, players, hand)
    assert (error.value.code, error.value.params["side"]) == ("out_holds_no_cards", 1)
    assert verify_hand(SEED, players, {"sides": [OUT, *others]})["sides"][0]["hand_points"] == 0


def test_a_partner_of_who_went_out_may_still_hold_cards():
    """Seed 004: four play "in zwei festen Paaren": the partner's cards count against the
    side that went out."""
    hand = {"sides": [{**OUT, "hand_points": 10}, PLAYING]}
    assert hand_scores(verify_hand(SEED, 4, hand), SEED)[0] == 150 + 200 + 200 + 100 - 10


@pytest.mark.parametrize("side, code", [
    ({**PLAYING, "table_points": 45}, "first_meld_minimum"),
    ({**PLAYING, "table_points": 50}, None),
    # A side that melded nothing has nothing on the table to show.
    ({**STUCK}, None),
])
def test_a_side_that_melded_shows_the_minimum_first_meld(side, code):
    """C4: "With a minimum first meld M agreed: melds never leave the table, so a side that
    melded shows at least M table points"."""
    options = Options(minimum_first_meld=50)
    if code is None:
        assert verify_side(side, 0, options)
        return
    assert (refused(side, options).code, refused(side, options).params["low"]) == (code, 50)


# --- The presets: Fechado, Aberto, STBL, canastras reais (C5) ------------------------------

def test_stbl_melds_runs_only_and_goes_out_clean():
    """C5: STBL "not allowed (runs only) | closed | a clean canastra"; values as C3."""
    stbl = verify_options({"variant": "stbl"}, 4)
    assert (stbl.clean_to_go_out, stbl.red_threes) == (True, False)
    assert refused({**OUT_BRAZILIAN, "clean_buracos": 0, "dirty_buracos": 1}, stbl).code == \
        "going_out_needs_clean_buraco"
    assert buraco.card_value(buraco.Card(buraco.Rank.JOKER), "stbl") == 20


@pytest.mark.parametrize("variant", ["brazilian", "aberto", "stbl"])
def test_canastras_reais_pay_500_and_1000_in_place_of_the_clean_bonus(variant):
    """C5: "a clean run A–K is worth 500 and a clean run A–A 1,000, in place of the clean
    bonus"."""
    options = verify_options({"variant": variant, "canastras_reais": True}, 4)
    side = {"table_points": 235, "real_buracos": 1, "ace_to_ace_buracos": 1,
            "hand_points": 0, "dead_pile": "taken", "went_out": True}
    assert verify_side(side, 0, options).score == 235 + 500 + 1000 + 100


def test_canastras_reais_count_only_with_the_option():
    """C5: an option of the Brazilian presets; the seed's game melds no runs at all."""
    side = {**OUT_BRAZILIAN, "clean_buracos": 0, "real_buracos": 1}
    assert refused(side, BRAZILIAN).code == "canastras_reais_off"
    assert verify_options({"canastras_reais": True}, 4).canastras_reais is False


def test_a_run_of_the_whole_suit_holds_its_cards_on_the_table():
    """C5: ace to king is 13 cards (110 points at the Brazilian values), ace to ace 14 (125)."""
    options = Options(variant=Variant.BRAZILIAN, canastras_reais=True)
    side = {**OUT_BRAZILIAN, "clean_buracos": 0, "real_buracos": 1, "table_points": 105}
    assert (refused(side, options).code, refused(side, options).params["low"]) == \
        ("whole_suit_runs_need_cards", 110)


def test_a_hand_may_end_with_nobody_out():
    """Seed 004: "Ist der Nachziehstapel aufgebraucht, und niemand kann oder will den
    Ablagestapel aufnehmen, endet die Runde sofort. Sie wird dann nach den normalen Regeln
    gewertet." """
    assert hand_scores({"sides": [PLAYING, {**OUT, "went_out": False}]}, SEED) == \
        [95 + 100 - 40, 150 + 200 + 200]


# --- Options -------------------------------------------------------------------------------

@pytest.mark.parametrize("players", [2, 3, 4])
def test_two_three_or_four_players(players):
    """Seed 004: "Meist spielt ihr zu viert … Buraco geht auch zu zweit oder zu dritt." """
    assert verify_options({}, players) == Options()


@pytest.mark.parametrize("players", [1, 5])
def test_other_player_counts_are_refused(players):
    with pytest.raises(SetupError) as error:
        verify_options({}, players)
    assert error.value.code == "player_count"


def test_the_defaults():
    """RULES-NOTES C1: red threes, going out and the dead pile on; a clean buraco to go out
    off; no minimum first meld; target 3000 (seed 004: "zum Beispiel 3000 Punkte")."""
    assert verify_options({}, 4).to_dict() == {
        "target": 3000, "variant": "seed", "red_threes": True, "going_out_bonus": True,
        "dead_pile_penalty": True, "clean_to_go_out": False, "minimum_first_meld": None,
        "first_dealer": 0, "canastras_reais": False}


@pytest.mark.parametrize("raw, field, value", [
    ({"target": "2000"}, "target", 2000),
    ({"target": 1500}, "target", 1500),
    ({"red_threes": False}, "red_threes", False),
    ({"going_out_bonus": False, "dead_pile_penalty": True}, "going_out_bonus", False),
    ({"dead_pile_penalty": False}, "dead_pile_penalty", False),
    ({"clean_to_go_out": True}, "clean_to_go_out", True),
    # Seed 004: "In manchen Runden gilt für den allerersten Satz eines Teams eine
    # Mindestpunktzahl, häufig 15 Punkte Kartenwert."
    ({"minimum_first_meld": "15"}, "minimum_first_meld", 15),
    ({"minimum_first_meld": 50}, "minimum_first_meld", 50),
    ({"minimum_first_meld": "0"}, "minimum_first_meld", None),
    ({"minimum_first_meld": ""}, "minimum_first_meld", None),
    ({"variant": ""}, "variant", Variant.SEED),
    ({"first_dealer": "2"}, "first_dealer", 2),
])
def test_the_tables_choices(raw, field, value):
    assert getattr(verify_options(raw, 4), field) == value


@pytest.mark.parametrize("variant", ["brazilian", "aberto"])
def test_the_brazilian_games_have_no_red_three_bonus(variant):
    """RULES-NOTES C3: "7–3 5" and sequences "as in Burraco": every 3 is a plain card, so no
    red three is a bonus card, whatever the box says."""
    options = verify_options({"variant": variant, "red_threes": True}, 4)
    assert options.red_threes is False
    with pytest.raises(HandError) as error:
        verify_side(OUT, 0, options)
    assert error.value.code == "red_threes_off"


def test_aberto_always_goes_out_with_a_clean_buraco():
    """RULES-NOTES C3: "`aberto`: … going out needs a clean buraco"."""
    assert verify_options({"variant": "aberto", "clean_to_go_out": False}, 4).clean_to_go_out
    assert Options(variant="aberto").clean_to_go_out


@pytest.mark.parametrize("raw, code", [
    ({"variant": "canasta"}, "unknown_variant"),
    ({"target": 0}, "target_range"),
    ({"target": "x"}, "target_range"),
    ({"minimum_first_meld": -15}, "minimum_first_meld_range"),
    ({"minimum_first_meld": 5000}, "minimum_first_meld_range"),
    ({"first_dealer": 4}, "seat_range"),
    # The rules take a flag as true or false; reading a form's ticked box is the page's job.
    ({"red_threes": "on"}, "flag_type"),
    ({"clean_to_go_out": ""}, "flag_type"),
])
def test_impossible_options_are_refused(raw, code):
    with pytest.raises(SetupError) as error:
        verify_options(raw, 4)
    assert error.value.code == code


def test_options_read_back_from_their_dict():
    options = verify_options({"variant": "brazilian", "target": 2000,
                              "minimum_first_meld": 75, "first_dealer": 1}, 3)
    assert verify_options(options.to_dict(), 3) == options


# --- The match -----------------------------------------------------------------------------

def hand(*totals):
    return {"sides": [{"total": total} for total in totals]}


def test_partners_sit_opposite_and_fewer_play_alone():
    """Seed 004: "in zwei festen Paaren, die einander am Tisch gegenübersitzen" and "Zu zweit
    oder zu dritt spielt jeder für sich." """
    assert buraco.sides_of(4) == ((0, 2), (1, 3))
    assert buraco.sides_of(3) == ((0,), (1,), (2,))
    assert buraco.sides_of(2) == ((0,), (1,))


def test_three_players_score_one_each():
    """Seed 004: "Dann gibt es keine Teams, dafür aber genau einen toten Stapel pro
    Spieler." """
    sides = [OUT, STUCK, PLAYING]
    result = standings(SEED, 3, [{"sides": sides}])
    assert result.units == ((0,), (1,), (2,))
    assert result.totals == (650, -260, 155)
    assert verify_hand(SEED, 3, {"sides": sides}) == {
        "sides": [verify_side(raw, 0, SEED).as_dict() for raw in sides]}
    with pytest.raises(HandError) as error:
        standings(SEED, 3, [{"sides": [OUT, STUCK]}])
    assert error.value.code == "hand_needs_three_players"


def test_the_side_with_more_points_wins_once_a_side_reaches_the_target():
    """Seed 004: "Wer als Erster eine vorher vereinbarte Zielsumme erreicht, zum Beispiel 3000
    Punkte über mehrere Runden hinweg, gewinnt das gesamte Spiel." As in Burraco, the most
    points win once a side has reached it (seed 002: "gewinnt die Partei mit mehr
    Punkten")."""
    assert not standings(SEED, 4, [hand(2500, 1000)]).finished
    result = standings(SEED, 4, [hand(2500, 1000), hand(400, 2100)])
    assert result.totals == (2900, 3100)
    assert result.finished and result.winners == (1,) and result.losers == (0,)
    assert result.dealer is None and result.to_go == (100, 0)


def test_a_tie_at_the_target_plays_one_more_hand():
    """As in Burraco (seed 002): "bei Gleichstand wird noch ein Spiel gespielt"."""
    options = Options(target=1000)
    assert not standings(options, 2, [hand(1000, 1000)]).finished
    assert standings(options, 2, [hand(1000, 1000), hand(0, 5)]).winners == (1,)


def test_the_standings_say_the_target_the_leaders_are_tied_at():
    """As in Burraco (seed 002, "Partieende"): "bei Gleichstand wird noch ein Spiel
    gespielt" — seed 004 is silent, and RULES-NOTES C3 has the Brazilian games follow
    Burraco."""
    options = Options(target=1000)
    assert standings(options, 2, [hand(1000, 1000)]).tied_at == 1000
    assert standings(options, 2, [hand(995, 995)]).tied_at is None
    assert standings(options, 2, [hand(1000, 1000), hand(0, 5)]).tied_at is None


def test_no_hand_after_the_end():
    with pytest.raises(HandError) as error:
        standings(Options(target=1000), 2, [hand(1500, 0), hand(0, 0)])
    assert error.value.code == "hand_after_end"


def test_the_deal_goes_clockwise_and_the_next_player_leads():
    """Seed 004: "Der Spieler links vom Geber beginnt" and "dein linker Nachbar ist an der
    Reihe": the next player in the order of play."""
    options = Options(first_dealer=2)
    assert (standings(options, 3, []).dealer, standings(options, 3, []).leader) == (2, 0)
    after = standings(options, 3, [hand(0, 0, 0)])
    assert (after.dealer, after.leader) == (0, 1)
    assert after.rows[0].dealer == 2


def test_running_totals_and_rows_as_the_api_shows_them():
    result = standings(SEED, 4, [{"sides": [OUT, STUCK]}, hand(-35, 100)])
    assert [row.totals for row in result.rows] == [(650, -260), (615, -160)]
    assert result.ahead == (0,) and result.to_go == (2385, 3160)
    assert row_json(SEED, result.rows[1]) == {
        "number": 2, "dealer": 1, "sides": [[0, 2], [1, 3]],
        "entries": [{"total": -35}, {"total": 100}], "scores": [-35, 100],
        "gains": [-35, 100], "totals": [615, -160]}


def test_stored_hands_are_scored_by_the_matchs_options():
    stored = verify_hand(Options(going_out_bonus=False), 2, {"sides": [OUT, STUCK]})
    assert stored["sides"][0] == {**OUT, "dirty_buracos": 0}
    assert hand_scores(stored, Options(going_out_bonus=False)) == [550, -260]
