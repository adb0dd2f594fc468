"""The "why?" of a refused tournament or club night: each refusal leads to the part of the
tournament rules (RULES-NOTES B8) that states the rule it breaks, in the reader's language."""

import pytest
from helpers import GERMAN, parsed, shown

from scoring.games import tournament_games
from views.refusals import all_messages
from views.rule_search import why

# The refusals of a tournament match and of a club night's setup, by the start of their code.
TOURNAMENT_CODES = sorted(code for code in all_messages()
                          if code.startswith(("tournament_", "event_", "mitchell_",
                                              "step_mitchell", "vp_")))
PAIRS = "\n".join(["Anna & Carla", "Bruno & Dario", "Elena & Fabio", "Gina & Hugo",
                   "Ilaria & Luca", "Marta & Nino"])


@pytest.mark.parametrize("game", tournament_games())
@pytest.mark.parametrize("code", TOURNAMENT_CODES)
def test_every_tournament_refusal_links_to_the_tournament_rules(game, code):
    document, section = why(game, code)
    assert document == game and section.startswith("tournament"), (code, section)


@pytest.mark.parametrize("code, section", [
    # "A turn is a fixed number of hands (games) between two pairs at one table: 2, 3 or 4"
    ("tournament_hands", "tournament-turn"), ("tournament_pairs", "tournament-turn"),
    ("event_hands", "tournament-turn"),
    # "No public table for 2 hands was found, so for 2 hands a club enters its own."
    ("vp_table_needed", "tournament-victory-points"),
    ("vp_table_other_hands", "tournament-victory-points"),
    # "its bands start at a difference of 0 and follow each other without gaps or overlaps"
    ("vp_band_gap", "tournament-club-table"), ("vp_band_starts_at_zero", "tournament-club-table"),
    ("vp_band_falls", "tournament-club-table"),
    # "Mitchell needs an even number of tables. A club may move East–West by a larger step"
    ("mitchell_even_tables", "tournament-movements"), ("mitchell_step", "tournament-movements"),
    ("step_mitchell_only", "tournament-movements"), ("event_turns", "tournament-movements"),
    # "The club decides what a bye scores; by default … 12 VP and 0 MP"
    ("event_bye_vp", "tournament-bye"),
    # "the organiser lists the pairs, each with a name of its own; no name twice"
    ("event_pair_twice", "tournaments"), ("event_pairs", "tournaments"),
])
def test_a_tournament_refusal_links_to_the_part_that_states_its_rule(code, section):
    assert why(tournament_games()[0], code)[1] == section


@pytest.mark.parametrize("form, section, rule", [
    ({"movement": "mitchell"}, "tournament-movements", "Mitchell needs an even number of tables"),
    ({"movement": "danish", "step": "2"}, "tournament-movements", "by a larger step"),
    ({"movement": "round_robin", "table": "club", "table_name": "Circolo",
      "bands": "0–50 10–10\n60–150 12–8\n155+ 20–0"},
     "tournament-club-table", "without gaps or overlaps"),
])
def test_a_refused_club_night_says_why_and_the_link_lands_on_the_rule(client, post, form,
                                                                      section, rule):
    """Six pairs sit at three tables, an odd number for a Mitchell; only a Mitchell moves by a
    larger step; a club's band from 60 after one to 50 leaves a difference of 55 without
    points."""
    refused = post("/events/new", {"title": "Friday", "pairs": PAIRS, "movement": "mitchell",
                                   "turns": "2", "hands": "3", "table": "fibur", "step": "1",
                                   **form})
    assert refused.status_code == 422
    link = parsed(refused).select_one("p.error a.why")
    assert link["href"] == f"/rules/burraco#{section}"
    rules = parsed(client.get(link["href"]))
    assert rule in shown(rules.find(id=section))


def test_the_why_link_opens_the_tournament_rules_in_the_reader_s_language(client, post):
    refused = post("/events/new", {"title": "Freitag", "pairs": PAIRS, "movement": "mitchell",
                                   "turns": "2", "hands": "3", "table": "fibur", "step": "1"},
                   headers=GERMAN)
    link = parsed(refused).select_one("p.error a.why")
    rules = parsed(client.get(link["href"], headers=GERMAN))
    assert "gerade Zahl von Tischen" in shown(rules.find(id="tournament-movements"))
