"""The tap counter of the games counted in card points: its buttons per variant and the sum
the panel shows (``tap_sum``, paired with ``tapSum`` in the browser)."""

import pytest
from hypothesis import given
from hypothesis import strategies as st

from scoring import buraco, burraco
from views.games.buraco import tap_classes as buraco_classes
from views.games.burraco import tap_classes as burraco_classes
from views.games.counted import CountedPanel, Draft, SideDraft, tap_sum, tapped_on

SEED, BRAZILIAN, ABERTO = buraco.Variant.SEED, buraco.Variant.BRAZILIAN, buraco.Variant.ABERTO
PANEL = CountedPanel(piles={"table": "table_points"}, counts={}, choice="pozzetto",
                     choice_default="taken", closer_field="closed", max_count=9,
                     tap_classes=burraco_classes(burraco.Variant.CLASSIC))


def whole(field: str) -> int:
    return int(field or "0")


@pytest.mark.parametrize("variant, classes", [
    (SEED, [("joker", 30), ("ace_two", 20), ("king_ten", 10), ("nine_four", 5),
            ("black_three", 5)]),
    (BRAZILIAN, [("joker", 20), ("ace", 15), ("two", 10), ("king_eight", 10),
                 ("seven_three", 5)]),
    (ABERTO, [("joker", 20), ("ace", 15), ("two", 10), ("king_eight", 10),
              ("seven_three", 5)]),
])
def test_the_buraco_tap_counter_has_a_button_per_value_class(variant, classes):
    """UX "Tap counter": one button per value class with its value on it."""
    assert list(buraco_classes(variant)) == classes


def test_the_burraco_tap_counter_counts_the_variants_values():
    """B1: Joker 30, 2 20, Ace 15, K–8 10, 7–3 5; B7: Burraco Reale has no joker, its 2
    counts 10."""
    assert burraco_classes(burraco.Variant.CLASSIC) == (
        ("joker", 30), ("two", 20), ("ace", 15), ("high", 10), ("low", 5))
    assert burraco_classes(burraco.Variant.REALE) == (
        ("two", 10), ("ace", 15), ("high", 10), ("low", 5))


@pytest.mark.parametrize("classes, taps, points", [
    (buraco_classes(SEED),
     {"joker": 1, "ace_two": 2, "king_ten": 3, "nine_four": 2, "black_three": 1},
     30 + 40 + 30 + 10 + 5),
    (buraco_classes(BRAZILIAN),
     {"joker": 1, "ace": 1, "two": 2, "king_eight": 3, "seven_three": 2},
     20 + 15 + 20 + 30 + 10),
    (burraco_classes(burraco.Variant.CLASSIC),
     {"joker": 1, "two": 2, "ace": 1, "high": 3, "low": 2}, 30 + 40 + 15 + 30 + 10),
])
def test_tapped_cards_add_up_at_the_variants_values(classes, taps, points):
    assert tap_sum("", taps, dict(classes)) == points


def test_the_field_holds_the_piles_points_and_the_taps_only_say_how():
    """The issue: "the field says 15, the sum line 215": a tap adds its card to the field,
    so the number in the field is the pile's points."""
    values = dict(burraco_classes(burraco.Variant.CLASSIC))
    assert tap_sum("215", {"high": 3, "joker": 1}, values) == 215
    assert tap_sum("", {"high": 3, "joker": 1}, values) == 60


def test_typed_text_that_is_no_number_is_no_sum():
    assert tap_sum("18x", {"high": 1}, dict(burraco_classes(burraco.Variant.CLASSIC))) is None


@pytest.mark.parametrize("typed, points, field", [
    ("", 10, "10"), ("185", 30, "215"), ("215", -30, "185"), ("10", -10, ""), ("5", -10, ""),
    ("18x", 10, "18x"),
])
def test_a_tap_adds_its_card_to_the_field(typed, points, field):
    assert tapped_on(typed, points) == field


@given(st.integers(0, 5000), st.dictionaries(
    st.sampled_from([name for name, _value in burraco_classes(burraco.Variant.CLASSIC)]),
    st.integers(0, 59)))
def test_each_tap_adds_its_class_value_and_its_minus_takes_it_back(typed, taps):
    values = dict(burraco_classes(burraco.Variant.CLASSIC))
    shown = str(typed) if typed else ""
    for name in values:
        side = SideDraft(values=values, typed={"table": shown},
                         taps={"table": {each: taps.get(each, 0) for each in values}},
                         counts={}, choice="")
        before = side.points("table") if side.tapped("table") else typed
        PANEL.press(Draft([side]), f"tap:0:table:{name}:1")
        assert whole(side.typed["table"]) == whole(before) + values[name]
        PANEL.press(Draft([side]), f"tap:0:table:{name}:-1")
        assert whole(side.typed["table"]) == whole(before)
