"""Every refusal a player can see, in their language, keyed by the rule's stable code."""

from functools import cache

from flask_babel import gettext
from flask_babel import lazy_gettext as _l

import store
from scoring.cards import Card, Rank, Suit
from scoring.errors import ScoringError
from scoring.values import parse_int

from .games import all_games
from .rule_search import why_url
from .template_helpers import card_label, number, rank_label

MESSAGES = {
    "unknown_card": _l("“%(token)s” is not a card. Write cards like 7H, 10♥, QS or JK."),
    "card_needs_suit": _l("“%(token)s” is not a card. Write cards like 7H, 10♥, QS or JK."),
    "unknown_deck": _l("Choose a deck of 40, 48 or 52 cards."),
    "player_count": _l("A match needs %(low)s to %(high)s players, not %(count)s."),
    "player_name_empty": _l("Player %(seat)s has no name."),
    "player_name_long": _l("The name of player %(seat)s is too long: at most %(high)s "
                           "characters."),
    "player_name_hidden": _l("The name of player %(seat)s holds a control or invisible "
                             "character (such as a zero-width space or a direction mark): "
                             "type it again."),
    "player_name_markup": _l("The name of player %(seat)s may not contain < or >."),
    "player_name_twice": _l("“%(name)s” is in the list twice: give every player their own "
                            "name."),
    "unknown_variant": _l("There is no such variant."),
    "flag_type": _l("“%(field)s” must be true or false."),
    "seat_range": _l("Pick one of the match's players."),
    "hand_after_end": _l("With this change the match would end before hand %(number)s. "
                         "Undo the later hands first."),
    "match_finished": _l("The match is over: no more hands can be entered."),
    "no_such_hand": _l("There is no hand %(number)s."),
    "card_not_in_deck": _l("%(card)s is not in the %(deck)s-card deck."),
    "card_twice": _l("%(card)s is played twice, but every card exists only once."),
    "cards_unreadable": _l("Give the cards as a list of codes such as “3H”, or as one line "
                           "of text."),
    "card_copies": _l("There are only %(count)s of %(card)s in the two packs."),
    # Melds (Burraco and Buraco)
    "meld_too_short": _l("A meld has at least three cards."),
    "meld_only_wildcards": _l("A meld needs natural cards: wildcards alone (like three 2s) "
                              "are not a meld."),
    "meld_too_many_wildcards": _l("At most one wildcard (joker or 2) per meld."),
    "meld_mixed": _l("Neither a set (one rank) nor a sequence (one suit)."),
    "meld_not_consecutive": _l("The cards do not follow each other, and one wildcard "
                               "cannot fill the gaps."),
    "meld_card_twice": _l("%(card)s is in the sequence twice."),
    "meld_ace_both_ends": _l("The ace goes below the 2 or above the king, not both."),
    "nothing_to_add": _l("Choose the cards to add."),
    # Counted hands (Burraco and Buraco)
    "table_points_range": _l("%(side)s: the points on the table must be from %(low)s "
                             "to %(high)s."),
    "hand_points_range": _l("%(side)s: the points in hand must be from %(low)s to "
                            "%(high)s."),
    "unseen_pozzetto_points_range": _l("%(side)s: the unseen pozzetto's points must be "
                                       "from %(low)s to %(high)s."),
    "total_range": _l("%(side)s: a hand's total must be from %(low)s to %(high)s."),
    "points_multiple_of_five": _l("%(side)s: %(value)s is not a multiple of 5, but "
                                  "every card counts 5, 10, 15, 20 or 30."),
    # The cards' total is the game's (and the variant's) own.
    "table_points_together": _l("%(side)s: %(value)s points on the table, and %(total)s "
                                "with the others, but the cards that can be melded count "
                                "only %(high)s."),
    "hand_points_together": _l("%(side)s: %(value)s points in hand, and %(total)s with the "
                               "others, but all the cards count only %(high)s."),
    "side_points_exceed_cards": _l("%(side)s: the side's cards make %(total)s points, but "
                                   "all the cards count only %(high)s."),
    "whole_suit_runs_need_cards": _l("%(side)s: a run of the whole suit holds 13 or 14 cards, "
                                     "so these melds need at least %(low)s points on the "
                                     "table."),
    "side_needs_entry": _l("%(side)s: the entry is missing."),
    # A side entered by meld (Burraco, Buraco): the meld checker's reason, with its place.
    "side_meld_illegal": _l("%(side)s, meld %(meld)s: %(reason)s"),
    "side_hand_cards": _l("%(side)s, the cards: %(reason)s"),
    "melds_unreadable": _l("%(side)s: give the melds as a list, each a list of cards."),
    "melds_or_parts": _l("%(side)s: give the melds and the cards in hand, or the side's "
                         "points, not both."),
    "total_missing": _l("%(side)s: type the side's total, or switch back to counting the "
                        "parts."),
    "hand_needs_two_sides": _l("A hand has an entry for each of the two sides."),
    "target_range": _l("The target must be a whole number from %(low)s to %(high)s."),
    "unknown_suit": _l("“%(token)s” is not a suit. Write ♠ ♥ ♦ ♣ or S H D C."),
    # A club night: the organiser's setup and a club's own Victory Points table.
    "event_pairs_unreadable": _l("Give the pairs as a list of names."),
    "event_pairs": _l("A club night needs %(least)s to %(most)s pairs."),
    "event_pair_name": _l("Pair %(pair)s needs a name of at most %(most)s characters."),
    "event_pair_hidden": _l("The name of pair %(pair)s holds a control or invisible "
                            "character (such as a zero-width space or a direction mark): "
                            "type it again."),
    "event_pair_markup": _l("The name of pair %(pair)s may not contain < or >."),
    "event_pair_twice": _l("Two pairs have the same name: give every pair its own."),
    "event_movement": _l("Choose a movement: %(known)s."),
    "event_hands": _l("A turn is %(low)s to %(high)s hands."),
    "event_turns_unreadable": _l("The number of turns must be a whole number from %(low)s to "
                                 "%(high)s."),
    "event_turns": _l("This movement seats at most %(most)s turns without a pair meeting "
                      "another twice."),
    "event_bye_vp": _l("A bye scores a whole number of Victory Points from %(low)s to "
                       "%(high)s."),
    "mitchell_even_tables": _l("A Mitchell movement needs an even number of tables, not "
                               "%(tables)s: add or remove a pair, or choose another movement."),
    "mitchell_step": _l("East–West pairs move up 1 to %(most)s tables a turn."),
    "mitchell_step_unreadable": _l("East–West pairs move up a whole number of tables, from "
                                   "%(low)s to %(high)s."),
    "step_mitchell_only": _l("Only a Mitchell movement moves pairs by more than one table."),
    "vp_table_unreadable": _l("Give the table as a name and its bands."),
    "vp_table_name": _l("The table needs a name of at most %(most)s characters."),
    "vp_table_hands": _l("A table is for 2, 3 or 4 hands a turn."),
    "vp_table_total": _l("The Victory Points of a band add up to a whole number."),
    "vp_table_no_bands": _l("The table has no bands."),
    "vp_table_too_many_bands": _l("A table has at most %(most)s bands."),
    "vp_band_unreadable": _l("Band %(band)s needs a difference from, a difference to (empty "
                             "for the last) and two Victory Points."),
    "vp_band_points": _l("Band %(band)s: Victory Points are whole numbers."),
    "vp_band_line": _l("Line %(band)s, “%(line)s”, is not a band: write it like “55–150 "
                       "11–9”, the last one like “1505+ 20–0”."),
    "vp_band_starts_at_zero": _l("The first band starts at a difference of 0, not %(low)s."),
    "vp_band_draw_uneven": _l("The first band holds a draw, so both pairs get the same "
                              "Victory Points, not %(winner)s and %(loser)s."),
    "vp_band_reversed": _l("Band %(band)s ends (%(high)s) before it starts (%(low)s)."),
    "vp_band_overlap": _l("Band %(band)s starts at %(low)s, inside the band before it, "
                          "which ends at %(high)s."),
    "vp_band_gap": _l("Band %(band)s starts at %(low)s, but the band before it ends at "
                      "%(high)s: the differences between them would score nothing."),
    "vp_band_after_open": _l("Band %(band)s comes after the open last band."),
    "vp_band_loser_ahead": _l("Band %(band)s gives the pair behind more Victory Points than "
                              "the pair ahead."),
    "vp_band_total": _l("Band %(band)s gives %(winner)s and %(loser)s Victory Points; "
                        "together they must make %(total)s."),
    "vp_band_falls": _l("Band %(band)s gives the pair ahead fewer Victory Points than the "
                        "band before it."),
    "vp_table_not_open": _l("The last band ends at %(high)s: leave its end empty, so every "
                            "larger difference scores too."),
}

SUIT_NAMES = {
    Suit.SPADES: _l("spade"),
    Suit.HEARTS: _l("heart"),
    Suit.DIAMONDS: _l("diamond"),
    Suit.CLUBS: _l("club"),
}


@cache
def all_messages() -> dict:
    """Every refusal: the shared ones, and those only one game's rules give (kept with it)."""
    return {**MESSAGES, **{code: text for game in all_games().values()
                           for code, text in game.messages.items()}}


def describe(error: ScoringError, side_names=None) -> str:
    """The refusal in the user's language, cards written as the user's language writes them,
    a side by its players' names where the sheet knows them ("Side 2" where not)."""
    params = {key: _shown(value) for key, value in error.params.items()}
    if "side" in params:
        side = error.params["side"]
        params["side"] = side_names[side - 1] if side_names else gettext(
            "Side %(number)s", number=side)
    message = all_messages()[error.code]
    if callable(message):
        return message(error.params["count"], params)
    return str(message) % params


def _shown(value):
    """A value in a message as the reader writes it; a number beyond any count (a hand
    number typed into the address) cut short, since number formatting cannot hold it."""
    if isinstance(value, ScoringError):
        # A rule broken inside a part (a meld of a hand): its own refusal, in its words.
        return describe(value)
    if isinstance(value, Card):
        return card_label(value)
    if isinstance(value, Rank):
        return rank_label(value)
    if isinstance(value, Suit):
        return SUIT_NAMES[value]
    if isinstance(value, int):
        return number(value) if parse_int(value) is not None else f"{str(value)[:12]}…"
    return value


def refusal(error: ScoringError, game: str, side_names=None) -> dict:
    """A refusal for a template: the message, and the link to the rule it cites."""
    return {"error": describe(error, side_names), "why": why_url(game, error.code)}


def match_full() -> str:
    """Why a match takes no further entry, on the sheet and in the API."""
    return gettext("This match holds %(num)s entries (hands, corrections and take-backs), "
                   "as many as a match can: start a new match to play on.",
                   num=number(store.MAX_ENTRIES))


def confirmed_result() -> str:
    """Why a club night's confirmed result takes no change, on the sheet and in the API."""
    return gettext("Both pairs confirmed this result, so it counts in the standings. Only the "
                   "organiser can reopen it for a correction.")


def trick_reason(trick) -> str:
    """Why this card takes the trick, in words: "J♥ is the highest heart: …"."""
    return gettext("%(card)s is the highest %(suit)s: player %(player)s wins the trick and "
                   "leads next.", card=card_label(trick.card), suit=SUIT_NAMES[trick.suit],
                   player=trick.winner + 1)
