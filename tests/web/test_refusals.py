"""Every rule a player can break has its message (in both languages, see test_translations)."""

import re

from helpers import ROOT

from views.games import all_games
from views.refusals import MESSAGES, all_messages

SCORING = ROOT / "scoring"
# Codes a plain scan of the sources cannot see: built from a field's name, handed to a
# helper, or chosen by a condition.
BUILT_CODES = {"hand_needs_burro", "hand_needs_winner", "table_points_range",
               "hand_points_range", "unseen_pozzetto_points_range", "red_threes_range",
               "hand_needs_three_players", "dead_pile_without_meld", "flag_type",
               "vp_table_total", "vp_band_points"}


def raised_codes() -> set[str]:
    codes = set()
    for path in SCORING.glob("*.py"):
        source = "\n".join(line for line in path.read_text().splitlines()
                           if not line.lstrip().startswith(">>>"))  # doctests
        codes |= set(re.findall(r'Error\(\s*"([a-z_]+)"', source))
        # whole_number(value, "code", …): the code is the second argument.
        codes |= set(re.findall(r'whole_number\((?:[^,()]|\([^()]*\))*,\s*"([a-z_]+)"',
                                source))
        # A range's code handed on to a helper that calls whole_number.
        codes |= set(re.findall(r'"([a-z_]+_range)"', source))
    return codes | BUILT_CODES


def test_every_code_the_rules_raise_has_a_message():
    missing = raised_codes() - set(all_messages())
    assert not missing


def test_no_message_is_left_without_a_rule_that_raises_it():
    assert not set(all_messages()) - raised_codes()


def test_a_game_keeps_only_refusals_no_other_rule_gives():
    """A code is explained once: a game's own message is not also a shared one or another
    game's, so no sheet can show a different wording for the same rule."""
    seen = set(MESSAGES)
    for game in all_games().values():
        assert not seen & set(game.messages), game.slug
        seen |= set(game.messages)
