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
    ("burro", "must_follow_suit"): "trick",
    ("burro", "trick_winner"): "trick",
    ("burro", "dealing"): "setup",
    ("burro", "variant-classic"): "end",
    ("burro", "variant-portuguese"): "variant-portuguese",
    ("burro", "variant-cangkul"): "variant-cangkul",
    ("burraco", "player_count"): "overview",
    ("burraco", "card_copies"): "overview",
    ("burraco", "meld_too_short"): "melds",
    ("burraco", "meld_mixed"): "melds",
    ("burraco", "meld_not_consecutive"): "melds",
    ("burraco", "meld_card_twice"): "melds",
    ("burraco", "meld_ace_both_ends"): "melds",
    ("burraco", "nothing_to_add"): "melds",
    ("burraco", "melds"): "melds",
    ("burraco", "meld_only_wildcards"): "wildcards",
    ("burraco", "meld_too_many_wildcards"): "wildcards",
    ("burraco", "swap_no_wildcard"): "wildcards",
    ("burraco", "swap_wrong_card"): "wildcards",
    ("burraco", "swap_one_card"): "wildcards",
    ("burraco", "burraco_needs_cards"): "burraco",
    ("burraco", "closing_needs_pozzetto"): "closing",
    ("burraco", "closing_needs_burraco"): "closing",
    ("burraco", "both_closed"): "closing",
    ("burraco", "closing"): "closing",
    ("burraco", "unknown_pozzetto"): "pozzetti",
    ("burraco", "semiclean_off"): "variant-semipulito",
    **{("burraco", code): "variant-two-players" for code in (
        "closer_holds_no_cards", "closer_saw_pozzetto")},
    **{("burraco", code): "variant-reale" for code in (
        "variant-reale", "whole_suit_runs_off", "whole_suit_runs_need_cards",
        "closing_needs_clean_burraco", "meld_sequences_only_reale", "card_not_in_deck")},
    ("burraco", "unknown_variant"): "variants",
    ("burraco", "variant-classic"): "overview",
    ("burraco", "variant-semipulito"): "variant-semipulito",
    ("burraco", "alone_needed"): "variant-three-players",
    **{("burraco", code): "variant-three-players" for code in (
        "alone_took_pozzetto", "unseen_lone_pozzetto", "nobody_took_pozzetto",
        "nobody_closed", "hand_needs_three_sides")},
    ("burraco", "variant-three-players"): "variant-three-players",
    ("burraco", "target_range"): "end",
    ("burraco", "hand_after_end"): "end",
    ("burraco", "match_finished"): "end",
    ("burraco", "end"): "end",
    ("burraco", "dealing"): "setup",
    ("burraco", "scoring"): "scoring",
    **{("burraco", code): "scoring" for code in (
        "table_points_range", "hand_points_range", "unseen_pozzetto_points_range",
        "burracos_range", "total_range", "points_multiple_of_five", "side_needs_entry",
        "hand_needs_two_sides", "pozzetto_missing", "table_points_together",
        "hand_points_together", "side_points_exceed_cards", "total_missing")},
}


WHY.update({("bura", code): section for code, section in {
    "player_count": "overview", "card_not_in_bura_deck": "cards", "card_twice": "cards",
    "card_count": "trick", "unknown_suit": "setup", "lead_one_suit": "trick",
    "response_count": "trick", "trick": "trick", "outcome_needed": "claiming",
    "claim_needs_cards": "claiming", "claiming": "claiming", "pot_range": "claiming",
    "outcome_variant_off": "variant-moscow",
    "ante_range": "setup", "start_chips_range": "setup", "dealing": "setup",
    "combinations": "combinations",
    "winning": "winning", "three_aces_win": "variant-three-aces-win",
    "moscow": "variant-moscow", "little_moscow": "variant-moscow",
    "claim_on_turn": "variant-claim-on-turn", "redeal": "variant-redeal",
}.items()})
WHY.update({("burkosel", code): "variant-burkosel" for code in (
    "player_count", "burkosel_entry", "card_points_range", "tricks_range", "card_points_sum",
    "card_points_missing",
    "points_without_trick", "dealing")})
WHY.update({("burkosel", code): "burkosel-end" for code in (
    "hand_after_end", "match_finished", "end", "losing_total_choice", "variant-12",
    "variant-8", "variant-6")})

# Buraco (seed 004): sets, wildcards and buracos are steps of a turn; the Brazilian games'
# sequences and Aberto's "sequences only" are variants of their own (RULES-NOTES C3).
WHY.update({("buraco", code): section for code, section in {
    "player_count": "overview", "card_copies": "overview", "unknown_variant": "variants",
    "melds_seed": "turn", "melds_brazilian": "variant-brazilian",
    "melds_aberto": "variant-aberto",
    "meld_too_short": "turn", "meld_only_wildcards": "turn", "meld_sets_only": "turn",
    "meld_over_two_wildcards": "turn", "meld_wildcards_outnumber": "turn",
    "nothing_to_add": "turn", "buraco_needs_cards": "turn",
    "meld_red_three": "special-rules", "meld_black_three": "special-rules",
    "red_threes_range": "special-rules", "red_threes_together": "special-rules",
    "meld_sequences_only": "variant-aberto",
    **{code: "variant-brazilian" for code in (
        "meld_too_many_wildcards", "meld_mixed", "meld_not_consecutive", "meld_card_twice",
        "meld_ace_both_ends")},
    "going_out_needs_buraco": "end", "two_went_out": "end",
    "going_out_needs_dead_pile": "turn", "dead_pile_at_first_meld": "turn",
    "dead_pile_without_meld": "turn",
    **{code: "scoring-notes" for code in (
        "going_out_needs_clean_buraco", "red_threes_off", "dead_pile_missing",
        "unknown_dead_pile", "target_range")},
    "minimum_first_meld_range": "variant-minimum-meld",
    "first_meld_minimum": "variant-minimum-meld",
    "hand_needs_three_players": "two-or-three", "out_holds_no_cards": "two-or-three",
    "melds_stbl": "variant-stbl", "canastras_reais_off": "variant-canastras-reais",
    "whole_suit_runs_need_cards": "variant-canastras-reais",
    "variant-seed": "overview", "variant-brazilian": "variant-fechado",
    "variant-aberto": "variant-aberto", "variant-stbl": "variant-stbl",
    "variant-canastras-reais": "variant-canastras-reais",
    # C4: the table's cap (no three melded) is stated with the points at a glance.
    "table_points_range": "scoring-notes", "table_points_together": "scoring-notes",
    **{code: "end" for code in (
        "hand_points_range", "buracos_range", "total_range",
        "points_multiple_of_five", "side_needs_entry", "hand_needs_two_sides",
        "hand_points_together", "side_points_exceed_cards",
        "total_missing", "hand_after_end", "match_finished")},
}.items()})
# The Buraco sheet's facts and options: the end, the deal, the variants, the points.
WHY.update({("buraco", code): section for code, section in {
    "end": "end", "dealing": "setup", "seat_range": "setup", "variants": "variants",
    "scoring-notes": "scoring-notes", "variant-minimum-meld": "variant-minimum-meld",
}.items()})

# Burkosel has no document of its own: it is a variant in Bura's.
DOCUMENT_OF = {"burkosel": "bura"}


def why(game: str, code: str) -> tuple[str, str] | None:
    """The document and section that explain ``code`` in ``game``, if a rule stands
    behind it."""
    section = WHY.get((game, code))
    return section and (DOCUMENT_OF.get(game, game), section)
