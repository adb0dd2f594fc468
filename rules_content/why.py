"""The "why?" links: which section of the rules states the rule behind each verdict and
refusal. Kept here, in one place; a test checks that every target exists in both languages."""

# (game, code) → section id. Codes are the ScoringError codes, plus the checkers' verdicts
# and the sheet's facts (who deals, when the match ends).
WHY = {
    ("burro", "player_count"): "overview",
    ("burro", "limit_range"): "end",
    ("burro", "wins_target_range"): "variant-portuguese",
    ("burro", "unknown_variant"): "variants",
    ("burro", "hand_needs_burro"): "out-of-cards",
    ("burro", "hand_needs_winner"): "variant-portuguese",
    ("burro", "hand_after_end"): "end",
    ("burro", "match_finished"): "end",
    ("burro", "trick_size"): "trick",
    ("burro", "trick_needs_lead"): "trick",
    ("burro", "card_not_in_deck"): "variant-48-cards",
    ("burro", "unknown_deck"): "variant-48-cards",
    ("burro", "card_twice"): "overview",
    ("burro", "trick_winner"): "trick",
    ("burro", "dealing"): "setup",
    ("burro", "variant-classic"): "end",
    ("burro", "variant-portuguese"): "variant-portuguese",
    ("burro", "variant-cangkul"): "variant-cangkul",
}


def why(game: str, code: str) -> str | None:
    """The section that explains ``code`` in ``game``, if a rule stands behind it."""
    return WHY.get((game, code))
