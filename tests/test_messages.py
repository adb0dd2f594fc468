"""Every rule a player can break has its message (in both languages, see test_translations)."""

import re
from pathlib import Path

from views.messages import MESSAGES

SCORING = Path(__file__).resolve().parent.parent / "scoring"
# Codes a plain scan of the sources cannot see: built from a field's name, handed to a
# helper, or chosen by a condition.
BUILT_CODES = {"hand_needs_burro", "hand_needs_winner", "table_points_range",
               "hand_points_range", "unseen_pozzetto_points_range", "red_threes_range",
               "hand_needs_three_players", "dead_pile_without_meld"}


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
    missing = raised_codes() - set(MESSAGES)
    assert not missing


def test_no_message_is_left_without_a_rule_that_raises_it():
    assert not set(MESSAGES) - raised_codes()
