"""The Burro sheet: one tap on the player left holding cards (or the winner) is the hand."""

from .sheet import Sheet

SHEET = Sheet(hand_from_form=lambda form, match: form, says_game=False)
