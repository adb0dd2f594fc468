"""The tap counter of the games counted in card points: its buttons per variant and the sum
the panel shows (``tap_sum``, paired with ``tapSum`` in the browser)."""

import pytest
from hypothesis import given
from hypothesis import strategies as st

from scoring import buraco, burraco
from views.games.buraco import tap_classes as buraco_classes
from views.games.burraco import tap_classes as burraco_classes
from views.games.counted import tap_sum

SEED, BRAZILIAN, ABERTO = buraco.Variant.SEED, buraco.Variant.BRAZILIAN, buraco.Variant.ABERTO


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


def test_the_taps_count_on_from_the_points_typed():
    """A typed 185 is where the taps start: "185 + 3×10 + 1×30 = 245"."""
    values = dict(burraco_classes(burraco.Variant.CLASSIC))
    assert tap_sum("185", {"high": 3, "joker": 1}, values) == 245


def test_typed_text_that_is_no_number_is_no_sum():
    assert tap_sum("18x", {"high": 1}, dict(burraco_classes(burraco.Variant.CLASSIC))) is None


@given(st.integers(0, 5000), st.dictionaries(
    st.sampled_from([name for name, _value in burraco_classes(burraco.Variant.CLASSIC)]),
    st.integers(0, 60)))
def test_each_tap_adds_its_class_value(typed, taps):
    values = dict(burraco_classes(burraco.Variant.CLASSIC))
    total = tap_sum(str(typed), taps, values)
    for name in values:
        assert tap_sum(str(typed), {**taps, name: taps.get(name, 0) + 1}, values) == \
            total + values[name]
