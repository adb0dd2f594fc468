"""A Burraco hand entered by meld: each meld on the table checked as the meld checker checks
it, its cards counted and its burraco found, the cards left in hand counted against the side
(seed 002, "Abrechnung"), and what was entered kept as it was entered."""

from functools import partial

import pytest
from hypothesis import given
from hypothesis import strategies as st

from scoring import burraco, melds
from scoring.cards import Rank
from scoring.errors import HandError, ScoringError

OPTIONS = burraco.verify_options({}, 4)

# Seed 002, "Abrechnung": "Nord/Süd haben eine reine Folge 3♥ bis 9♥ (5 × 5 + 10 + 10 = 45)
# und drei Asse mit Joker (45 + 30 = 75). Süd hat noch eine 7 und eine 3 auf der Hand (10):
# Karten 120 − 10, reiner Burraco 200, Schließen 100 – zusammen 410. Ost/West haben ihren
# Pozzetto genommen und einen unreinen Burraco aus sechs Damen und einer 2 (60 + 20 = 80)
# sowie 4♣ 5♣ 6♣ (15); auf der Hand halten sie noch einen König und einen Joker (40):
# 95 − 40 + 100 = 155."
NORTH_SOUTH = {"melds": [["3H", "4H", "5H", "6H", "7H", "8H", "9H"], "AS AH AD JK"],
               "in_hand": ["7C", "3S"], "pozzetto": "taken", "closed": True}
EAST_WEST = {"melds": [["QS", "QH", "QD", "QC", "QS", "QH", "2D"], ["4C", "5C", "6C"]],
             "in_hand": "KS JK", "pozzetto": "taken"}


def test_the_seeds_example_entered_by_meld_scores_as_the_seed_counts():
    sides = burraco.verify_sides([NORTH_SOUTH, EAST_WEST], OPTIONS)
    assert [side.score for side in sides] == [410, 155]
    assert (sides[0].table_points, sides[0].clean_burracos, sides[0].hand_points) == (120, 1, 10)
    assert (sides[1].table_points, sides[1].dirty_burracos, sides[1].hand_points) == (95, 1, 40)


def test_an_entry_by_meld_is_kept_as_entered_and_scores_the_same_read_again():
    stored = [side.as_dict() for side in burraco.verify_sides([NORTH_SOUTH, EAST_WEST], OPTIONS)]
    assert stored[0]["melds"][1] == ["AS", "AH", "AD", "JK"]
    assert stored[1]["in_hand"] == ["KS", "JK"]
    assert "table_points" not in stored[0]
    again = burraco.verify_sides(stored, OPTIONS)
    assert [side.score for side in again] == [410, 155]


def test_an_illegal_meld_is_refused_with_the_checkers_reason_and_its_place():
    broken = {**EAST_WEST, "melds": [["4C", "5C", "6C"], ["QS", "KH", "3D"]]}
    with pytest.raises(HandError) as refused:
        burraco.verify_side(broken, 1, OPTIONS)
    assert refused.value.code == "side_meld_illegal"
    assert refused.value.params["side"] == 2 and refused.value.params["meld"] == 2
    assert isinstance(refused.value.params["reason"], ScoringError)


def test_more_copies_of_a_card_than_two_packs_hold_are_refused():
    """Seed 002: two packs with jokers, so every card exists twice."""
    threefold = {**NORTH_SOUTH, "in_hand": ["3H", "3H"]}
    with pytest.raises(HandError) as refused:
        burraco.verify_side(threefold, 0, OPTIONS)
    assert refused.value.code == "side_hand_cards"
    assert refused.value.params["reason"].code == "card_copies"


def test_melds_and_points_together_are_refused():
    with pytest.raises(HandError) as refused:
        burraco.verify_side({**EAST_WEST, "table_points": 95}, 1, OPTIONS)
    assert refused.value.code == "melds_or_parts"


def test_a_burraco_by_meld_closes_like_one_counted_by_hand():
    """Seed 002: closing needs a burraco; melds without one cannot close."""
    without = {**NORTH_SOUTH, "melds": [["4C", "5C", "6C"]]}
    with pytest.raises(HandError) as refused:
        burraco.verify_side(without, 0, OPTIONS)
    assert refused.value.code == "closing_needs_burraco"


CARD_TEXT = st.one_of(st.text(max_size=6), st.sampled_from(["3H", "JK", "10S", "2D", "AS"]))
MELDS = st.lists(st.one_of(st.lists(CARD_TEXT, max_size=9), CARD_TEXT, st.integers()),
                 max_size=5)


@given(melds=MELDS, in_hand=st.one_of(st.lists(CARD_TEXT, max_size=6), CARD_TEXT, st.none()))
def test_any_melds_are_scored_or_refused_by_a_rule(melds, in_hand):
    raw = {"melds": melds, "in_hand": in_hand, "pozzetto": "taken"}
    try:
        side = burraco.verify_side(raw, 0, OPTIONS)
    except ScoringError:
        return
    assert side.table_points >= 0 and side.hand_points >= 0
    assert burraco.verify_side(side.as_dict(), 0, OPTIONS) == side


# Seed 002, "Burraco: eine Kombination aus sieben oder mehr Karten. Rein (pulito): ohne
# Platzhalter – Prämie 200. Unrein (sporco): mit Platzhalter – Prämie 100"; RULES-NOTES B4
# (semi-clean, 150) and B7 (Burraco Reale: nobile 500, reale 1000).
READY_KINDS = {
    "clean_run": ("sequence", "pulito"), "dirty_run": ("sequence", "sporco"),
    "clean_set": ("set", "pulito"), "dirty_set": ("set", "sporco"),
    "semiclean_run": ("sequence", "semipulito"), "nobile": ("sequence", "nobile"),
    "reale": ("sequence", "reale"),
}


@pytest.mark.parametrize("options", [
    burraco.verify_options({}, 4), burraco.verify_options({"semipulito": True}, 4),
    burraco.verify_options({"variant": "reale"}, 4)], ids=["classic", "semipulito", "reale"])
def test_every_ready_burraco_is_the_burraco_its_name_says(options):
    for name, cards in burraco.ready_burracos(options).items():
        meld = burraco.verify_meld(cards, options.semipulito, options.variant)
        assert (meld.kind, meld.burraco) == READY_KINDS[name], name


def test_the_ready_clean_run_is_the_seeds_own():
    """Seed 002, "Abrechnung": "eine reine Folge 3♥ bis 9♥ (5 × 5 + 10 + 10 = 45)"."""
    cards = burraco.ready_burracos(OPTIONS)["clean_run"]
    assert burraco.verify_meld(cards).points == 45


@pytest.mark.parametrize(("options", "names"), [
    ({}, ["clean_run", "dirty_run", "clean_set", "dirty_set"]),
    ({"semipulito": True}, ["clean_run", "dirty_run", "clean_set", "dirty_set",
                            "semiclean_run"]),
    # B7: "sequences only, no sets"; "nobile (a clean run A–K) 500, reale … 1,000".
    ({"variant": "reale"}, ["clean_run", "dirty_run", "nobile", "reale"]),
])
def test_the_ready_burracos_are_those_the_tables_game_counts(options, names):
    assert list(burraco.ready_burracos(burraco.verify_options(options, 4))) == names


@pytest.mark.parametrize(("variant", "ranks"), [
    ("classic", "A 3 4 5 6 7 8 9 10 J Q K"),
    # B7: "sequences only, no sets".
    ("reale", ""),
])
def test_a_set_is_laid_of_any_rank_the_checker_takes_as_a_set(variant, ranks):
    """B5: "No set of 2s or jokers"; three kings are laid as K♠ K♥ K♦, then K♣."""
    rules = partial(burraco.can_meld, variant=variant)
    assert " ".join(melds.set_ranks(rules)) == ranks
    assert " ".join(card.code for card in melds.naturals_of(Rank.KING)[:4]) == "KS KH KD KC"
