"""Victory Points (RULES-NOTES B8): the two tables that ship, band by band at every
boundary, and a club's own table, read from its lines and checked."""

import pytest
from hypothesis import given
from hypothesis import strategies as st

from scoring.burraco import VICTORY_POINT_TABLES
from scoring.errors import SetupError
from scoring.victory_points import (
    as_data,
    format_bands,
    parse_bands,
    read_table,
)

# B8, as printed: "MP difference, 3 hands | VP | MP difference, 4 hands | VP".
B8 = """\
| 0–50 | 10–10 | 0–100 | 10–10 |
| 55–150 | 11–9 | 105–300 | 11–9 |
| 155–250 | 12–8 | 305–500 | 12–8 |
| 255–350 | 13–7 | 505–700 | 13–7 |
| 355–500 | 14–6 | 705–900 | 14–6 |
| 505–650 | 15–5 | 905–1100 | 15–5 |
| 655–800 | 16–4 | 1105–1300 | 16–4 |
| 805–1000 | 17–3 | 1305–1500 | 17–3 |
| 1005–1250 | 18–2 | 1505–1700 | 18–2 |
| 1255–1500 | 19–1 | 1705–2000 | 19–1 |
| more than 1500 | 20–0 | more than 2000 | 20–0 |"""


def printed_bands(column: int) -> list[tuple[int, int | None, int, int]]:
    """One hand count's bands from the printed table: (low, high, winner, loser)."""
    bands = []
    for line in B8.splitlines():
        cells = [cell.strip() for cell in line.strip("|").split("|")]
        difference, vp = cells[2 * column], cells[2 * column + 1]
        winner, loser = (int(part) for part in vp.split("–"))
        if difference.startswith("more than"):
            bands.append((int(difference.split()[-1]) + 5, None, winner, loser))
        else:
            low, high = (int(part) for part in difference.split("–"))
            bands.append((low, high, winner, loser))
    return bands


@pytest.mark.parametrize("hands, column", [(3, 0), (4, 1)])
def test_every_boundary_of_the_shipped_tables_gives_the_printed_points(hands, column):
    """B8: "the MP difference between the two pairs becomes Victory Points (VP) on a
    20-point scale", one table per hand count; both ends of every band."""
    table = VICTORY_POINT_TABLES[hands]
    assert table.hands == hands and table.name == "FIBUR"
    for low, high, winner, loser in printed_bands(column):
        for difference in (low, high if high is not None else low + 5000):
            assert table.of([difference, 0]) == (winner, loser), difference
            assert table.of([0, difference]) == (loser, winner), difference
            # Differences are of totals: any two totals that far apart score the same.
            assert table.of([-35 + difference, -35]) == (winner, loser), difference


def test_a_draw_and_the_first_step_up():
    """B8, 3 hands: "0–50 10–10", "55–150 11–9"."""
    table = VICTORY_POINT_TABLES[3]
    assert table.of([820, 820]) == (10, 10)
    assert table.of([870, 820]) == (10, 10)
    assert table.of([875, 820]) == (11, 9)


def test_every_band_of_a_shipped_table_sums_to_twenty():
    for table in VICTORY_POINT_TABLES.values():
        assert {band.winner + band.loser for band in table.bands} == {20}


CLUB = {"name": "Club 2", "hands": 2, "total": 20, "bands": [
    {"from": 0, "to": 40, "vp": [10, 10]}, {"from": 45, "to": 200, "vp": [12, 8]},
    {"from": 205, "to": None, "vp": [20, 0]}]}


def test_a_clubs_own_table_is_read_and_used():
    """B8: "No 2-hand or team table was found in a public source: ship none, let a club
    enter its own"."""
    table = read_table(CLUB)
    assert table.of([300, 100]) == (12, 8)
    assert table.of([300, 50]) == (20, 0)
    assert as_data(table) == CLUB


def with_bands(*bands, **changes):
    return {**CLUB, **changes, "bands": [
        {"from": low, "to": high, "vp": list(vp)} for low, high, vp in bands]}


@pytest.mark.parametrize("raw, code", [
    (with_bands((5, 40, (10, 10)), (45, None, (20, 0))), "vp_band_starts_at_zero"),
    (with_bands((0, 40, (10, 10)), (50, None, (20, 0))), "vp_band_gap"),
    (with_bands((0, 40, (10, 10)), (40, None, (20, 0))), "vp_band_overlap"),
    (with_bands((0, 40, (10, 10)), (45, 30, (12, 8)), (35, None, (20, 0))), "vp_band_reversed"),
    (with_bands((0, 40, (10, 10)), (45, None, (12, 8)), (205, None, (20, 0))), "vp_band_after_open"),
    (with_bands((0, 40, (10, 10)), (45, 100, (20, 0))), "vp_table_not_open"),
    (with_bands((0, 40, (10, 10)), (45, None, (12, 9))), "vp_band_total"),
    (with_bands((0, 40, (11, 9)), (45, None, (20, 0))), "vp_band_draw_uneven"),
    (with_bands((0, 40, (10, 10)), (45, 100, (15, 5)), (105, None, (12, 8))), "vp_band_falls"),
    (with_bands((0, 40, (10, 10)), (45, None, (8, 12))), "vp_band_loser_ahead"),
    (with_bands(), "vp_table_no_bands"),
    (with_bands((0, 40, (10, 10)), (45, None, (20, 0)), name="  "), "vp_table_name"),
    (with_bands((0, 40, (10, 10)), (45, None, (20, 0)), hands=5), "vp_table_hands"),
    ({**CLUB, "bands": [{"from": "zero", "to": 40, "vp": [10, 10]}]}, "vp_band_unreadable"),
    ({**CLUB, "bands": [{"from": 0, "to": None, "vp": [20]}]}, "vp_band_unreadable"),
    ("a table", "vp_table_unreadable"),
])
def test_a_table_that_breaks_a_rule_is_refused_with_the_rule(raw, code):
    """The issue: "validated (bands contiguous from 0, VP summing to 20 where the table says
    so) with clear errors"."""
    with pytest.raises(SetupError) as refused:
        read_table(raw)
    assert refused.value.code == code


def test_a_table_without_a_total_may_give_any_points():
    raw = with_bands((0, 40, (3, 3)), (45, None, (6, 0)), total=None)
    assert read_table(raw).of([100, 0]) == (6, 0)


def test_bands_are_read_from_the_lines_a_club_copies():
    text = "0-50 10-10\n55 – 150   11–9\n\n155—1500 15:5\nmore than 1500 20-0"
    assert parse_bands(text) == [
        {"from": 0, "to": 50, "vp": [10, 10]}, {"from": 55, "to": 150, "vp": [11, 9]},
        {"from": 155, "to": 1500, "vp": [15, 5]}, {"from": 1505, "to": None, "vp": [20, 0]}]
    assert parse_bands("0–100 10–10\n105+ 20–0")[-1] == {"from": 105, "to": None, "vp": [20, 0]}


def test_an_unreadable_line_is_named_by_its_number():
    with pytest.raises(SetupError) as refused:
        parse_bands("0–50 10–10\n55 to 150 11–9")
    assert refused.value.code == "vp_band_line" and refused.value.params["band"] == 2


@st.composite
def tables(draw):
    """Any table the rules accept: contiguous bands from 0, VP never falling, open at the end."""
    count = draw(st.integers(1, 12))
    highs = sorted(draw(st.sets(st.integers(1, 800).map(lambda value: value * 5),
                                min_size=count - 1, max_size=count - 1)))
    steps = sorted(draw(st.lists(st.integers(0, 10), min_size=count, max_size=count)))
    steps[0] = 0
    lows = [0, *(high + 5 for high in highs)]
    return {"name": draw(st.text(min_size=1, max_size=20).filter(str.strip)).strip(),
            "hands": None, "total": 20,
            "bands": [{"from": low, "to": high, "vp": [10 + step, 10 - step]}
                      for low, high, step in zip(lows, [*highs, None], steps, strict=True)]}


@given(tables())
def test_a_table_written_as_lines_reads_back_the_same(raw):
    table = read_table(raw)
    assert read_table({**raw, "bands": parse_bands(format_bands(table))}) == table


@given(tables(), st.integers(0, 10000), st.integers(0, 10000))
def test_the_pair_ahead_never_gets_fewer_points(raw, first, second):
    table = read_table(raw)
    mine, theirs = table.of([first, second])
    assert mine + theirs == 20
    if first == second:
        assert mine == theirs
    if first > second:
        assert mine >= theirs
        # A wider margin never earns less.
        assert table.of([first + 5, second])[0] >= mine


@given(st.text(max_size=200))
def test_any_text_is_read_or_refused_with_a_line_number(text):
    try:
        bands = parse_bands(text)
    except SetupError as refused:
        assert refused.code == "vp_band_line" and refused.params["band"] >= 1
    else:
        try:
            read_table({"name": "x", "bands": bands})
        except SetupError as refused:
            assert refused.code.startswith("vp_")
