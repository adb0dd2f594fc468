"""A Buraco hand entered by meld: each meld on the table checked as the meld checker checks
it, its cards counted and its buraco found, the cards left in hand subtracted (seed 004;
RULES-NOTES C1–C2), and what was entered kept as it was entered."""

from functools import partial

import pytest
from hypothesis import given
from hypothesis import strategies as st

from scoring import buraco, melds
from scoring.errors import HandError, ScoringError

OPTIONS = buraco.verify_options({}, 4)
BRAZILIAN = buraco.verify_options({"variant": "brazilian"}, 4)

# Seed 004: "Hat ein Satz deines Teams sieben oder mehr Karten, heißt er Buraco. Ein Buraco
# ganz ohne Platzhalter heißt rein" and "Jede ausgelegte Karte zählt nach ihrem eigenen
# Wert: Asse und Zweien zählen 20 Punkte, Bilder und die 10 zählen 10 Punkte, die Karten 4
# bis 9 zählen 5 Punkte, und jeder Joker zählt 30 Punkte. Für jeden reinen Buraco gibt es
# 200 Bonuspunkte, für jeden unreinen Buraco 100 Bonuspunkte. Karten, die beim Rundenende
# noch auf der Hand liegen, werden von den eigenen Punkten abgezogen."
OUT = {"melds": [["KS", "KS", "KH", "KH", "KD", "KD", "KC"], "QS QH JK"],
       "in_hand": [], "red_threes": 1, "dead_pile": "taken", "went_out": True}
HELD = {"melds": [["5S", "5H", "5D", "5C", "5S", "2D", "JK"], ["AS", "AH", "AD"]],
        "in_hand": "KC 9S 3C", "dead_pile": "taken"}


def test_a_hand_by_meld_scores_as_the_seed_counts():
    out, held = buraco.verify_sides([OUT, HELD], OPTIONS)
    # 70 + 50 on the table, a clean buraco 200, a red three 100, going out 100 (C1).
    assert (out.table_points, out.clean_buracos, out.hand_points) == (120, 1, 0)
    assert out.score == 120 + 200 + 100 + 100
    # Five 5s, a 2 and a joker (25 + 20 + 30) and three aces (60), a dirty buraco 100; in
    # hand a king, a 9 and a black three (10 + 5 + 5, C1: "A black three left in hand
    # counts 5").
    assert (held.table_points, held.dirty_buracos, held.hand_points) == (135, 1, 20)
    assert held.score == 135 + 100 - 20


def test_an_entry_by_meld_is_kept_as_entered_and_scores_the_same_read_again():
    stored = [side.as_dict() for side in buraco.verify_sides([OUT, HELD], OPTIONS)]
    assert stored[0]["melds"][1] == ["QS", "QH", "JK"]
    assert stored[1]["in_hand"] == ["KC", "9S", "3C"]
    assert "table_points" not in stored[0]
    again = buraco.verify_sides(stored, OPTIONS)
    assert [side.score for side in again] == [520, 215]


@pytest.mark.parametrize(("meld", "reason"), [
    # C2: "Sets only"; "no black threes"; "never more wildcards than natural cards".
    (["4H", "5H", "6H"], "meld_sets_only"),
    (["3S", "3C", "3S"], "meld_black_three"),
    (["QS", "2H", "JK"], "meld_wildcards_outnumber"),
])
def test_an_illegal_meld_is_refused_with_the_checkers_reason_and_its_place(meld, reason):
    broken = {**HELD, "melds": [["AS", "AH", "AD"], meld]}
    with pytest.raises(HandError) as refused:
        buraco.verify_side(broken, 1, OPTIONS)
    assert refused.value.code == "side_meld_illegal"
    assert refused.value.params["side"] == 2 and refused.value.params["meld"] == 2
    assert refused.value.params["reason"].code == reason


def test_the_brazilian_game_melds_runs_at_its_own_values():
    """C3: "joker 20, 2 10, ace 15, K–8 10, 7–3 5; sequences as in Burraco"."""
    side = {"melds": ["3H 4H 5H 6H 7H 8H 9H", "QS QH 2C"], "in_hand": "JK",
            "dead_pile": "taken"}
    hand = buraco.verify_side(side, 0, BRAZILIAN)
    assert (hand.table_points, hand.clean_buracos, hand.hand_points) == (45 + 30, 1, 20)


def test_more_copies_of_a_card_than_two_packs_hold_are_refused():
    """Seed 004 is played with two packs: every card exists twice."""
    with pytest.raises(HandError) as refused:
        buraco.verify_side({**HELD, "in_hand": ["AS", "AS"]}, 1, OPTIONS)
    assert refused.value.code == "side_hand_cards"
    assert refused.value.params["reason"].code == "card_copies"


def test_melds_and_points_together_are_refused():
    with pytest.raises(HandError) as refused:
        buraco.verify_side({**HELD, "clean_buracos": 1}, 1, OPTIONS)
    assert refused.value.code == "melds_or_parts"


def test_going_out_by_meld_needs_a_buraco_as_counted_by_hand():
    """Seed 004: going out only "wenn sein Team … schon mindestens einen kompletten Buraco
    von sieben Karten gebildet hat"."""
    with pytest.raises(HandError) as refused:
        buraco.verify_side({**OUT, "melds": ["QS QH JK"]}, 0, OPTIONS)
    assert refused.value.code == "going_out_needs_buraco"


CARD_TEXT = st.one_of(st.text(max_size=6), st.sampled_from(["3H", "JK", "10S", "2D", "AS"]))
MELDS = st.lists(st.one_of(st.lists(CARD_TEXT, max_size=9), CARD_TEXT, st.integers()),
                 max_size=5)


@given(melds=MELDS, in_hand=st.one_of(st.lists(CARD_TEXT, max_size=6), CARD_TEXT, st.none()))
def test_any_melds_are_scored_or_refused_by_a_rule(melds, in_hand):
    raw = {"melds": melds, "in_hand": in_hand, "dead_pile": "taken"}
    try:
        side = buraco.verify_side(raw, 0, BRAZILIAN)
    except ScoringError:
        return
    assert side.table_points >= 0 and side.hand_points >= 0
    assert buraco.verify_side(side.as_dict(), 0, BRAZILIAN) == side


# Seed 004: "Hat ein Satz deines Teams sieben oder mehr Karten, heißt er Buraco. Ein Buraco
# ganz ohne Platzhalter heißt rein"; C3 (the Brazilian games' runs), C5 (canastras reais).
READY_KINDS = {"clean_set": ("set", "clean"), "dirty_set": ("set", "dirty"),
               "clean_run": ("sequence", "clean"), "dirty_run": ("sequence", "dirty"),
               "real": ("sequence", "real"), "ace_to_ace": ("sequence", "ace_to_ace")}


@pytest.mark.parametrize(("options", "names"), [
    # C2: "Sets only"; the seed's game knows no canastras reais.
    ({}, ["clean_set", "dirty_set"]),
    ({"canastras_reais": True}, ["clean_set", "dirty_set"]),
    ({"variant": "brazilian"}, ["clean_run", "dirty_run", "clean_set", "dirty_set"]),
    # C5: Aberto and STBL meld "not allowed (runs only)".
    ({"variant": "aberto"}, ["clean_run", "dirty_run"]),
    ({"variant": "stbl", "canastras_reais": True},
     ["clean_run", "dirty_run", "real", "ace_to_ace"]),
])
def test_every_ready_buraco_is_one_the_tables_game_counts(options, names):
    table = buraco.verify_options(options, 4)
    ready = buraco.ready_buracos(table)
    assert list(ready) == names
    for name, cards in ready.items():
        meld = buraco.verify_meld(cards, table.variant, table.canastras_reais)
        assert (meld.kind, meld.buraco) == READY_KINDS[name], name


@pytest.mark.parametrize(("variant", "ranks"), [
    # C2: "Sets only … no black threes; no red threes".
    ("seed", "A 4 5 6 7 8 9 10 J Q K"),
    ("brazilian", "A 3 4 5 6 7 8 9 10 J Q K"),
    ("aberto", ""),
])
def test_a_set_is_laid_of_any_rank_the_variant_melds_as_a_set(variant, ranks):
    assert " ".join(melds.set_ranks(partial(buraco.can_meld, variant=variant))) == ranks
