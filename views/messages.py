"""Every refusal a player can see, in their language, keyed by the rule's stable code."""

from flask_babel import gettext, ngettext
from flask_babel import lazy_gettext as _l

import store
from scoring.cards import Card, Rank, Suit
from scoring.errors import ScoringError
from scoring.values import parse_int

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
    "limit_range": _l("The penalty limit must be a whole number from %(low)s to %(high)s."),
    "wins_target_range": _l("The number of wins must be a whole number from %(low)s to "
                            "%(high)s, or empty."),
    "seat_range": _l("Pick one of the match's players."),
    "hand_needs_burro": _l("Tap the player who was left holding cards."),
    "hand_needs_winner": _l("Tap the player who ran out of cards first."),
    "hand_after_end": _l("With this change the match would end before hand %(number)s. "
                         "Undo the later hands first."),
    "match_finished": _l("The match is over: no more hands can be entered."),
    "no_such_hand": _l("There is no hand %(number)s."),
    "trick_size": _l("A trick has %(low)s to %(high)s plays, not %(count)s."),
    "trick_needs_lead": _l("The first play is the lead: it cannot be a pass."),
    "card_not_in_deck": _l("%(card)s is not in the %(deck)s-card deck."),
    "card_twice": _l("%(card)s is played twice, but every card exists only once."),
    "must_follow_suit": _l("%(card)s cannot be played: the lead is a %(suit)s. Who cannot "
                           "follow suit draws until they can, or passes once the stock is "
                           "empty."),
    "card_copies": _l("There are only %(count)s of %(card)s in the two packs."),
    # Burraco melds
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
    "swap_no_wildcard": _l("This meld has no wildcard to swap."),
    "swap_one_card": _l("Swap one card at a time for the wildcard."),
    "swap_wrong_card": _l("The wildcard stands for %(wanted)s: only that card can take its "
                          "place, not %(card)s."),
    # Burraco hands and matches
    "table_points_range": _l("%(side)s: the points on the table must be from %(low)s "
                             "to %(high)s."),
    "hand_points_range": _l("%(side)s: the points in hand must be from %(low)s to "
                            "%(high)s."),
    "unseen_pozzetto_points_range": _l("%(side)s: the unseen pozzetto's points must be "
                                       "from %(low)s to %(high)s."),
    "burracos_range": _l("%(side)s: the number of burracos must be from %(low)s to "
                         "%(high)s."),
    "total_range": _l("%(side)s: a hand's total must be from %(low)s to %(high)s."),
    "points_multiple_of_five": _l("%(side)s: %(value)s is not a multiple of 5, but "
                                  "every card counts 5, 10, 15, 20 or 30."),
    "semiclean_off": _l("%(side)s: semi-clean burracos count only with that variant "
                        "switched on."),
    "unknown_pozzetto": _l("%(side)s: choose taken, not taken, or picked up but not "
                           "looked at."),
    "burraco_needs_cards": _l("%(side)s: every burraco holds at least seven cards, so "
                              "at least %(low)s points on the table each."),
    "closing_needs_pozzetto": _l("%(side)s: closing needs the side's pozzetto taken."),
    "closing_needs_burraco": _l("%(side)s: closing needs at least one burraco."),
    "pozzetto_missing": _l("%(side)s: the field “pozzetto” is missing: say whether the "
                           "pozzetto was taken, not taken or picked up unseen."),
    # Burraco and Buraco: the cards' total is the game's (and the variant's) own.
    "table_points_together": _l("%(side)s: %(value)s points on the table, and %(total)s "
                                "with the others, but the cards that can be melded count "
                                "only %(high)s."),
    "hand_points_together": _l("%(side)s: %(value)s points in hand, and %(total)s with the "
                               "others, but all the cards count only %(high)s."),
    "side_points_exceed_cards": _l("%(side)s: the side's cards make %(total)s points, but "
                                   "all the cards count only %(high)s."),
    "closer_holds_no_cards": _l("%(side)s: closing lays down or discards every card, so "
                                "the closer holds none: the points in hand are 0."),
    "closer_saw_pozzetto": _l("%(side)s: the pozzetto closed from has been seen, so it "
                              "cannot be unseen."),
    "closing_needs_clean_burraco": _l("%(side)s: in Burraco Reale a side closes only with a "
                                      "clean burraco."),
    "whole_suit_runs_off": _l("%(side)s: burracos nobile and reale count only in Burraco "
                              "Reale."),
    "whole_suit_runs_need_cards": _l("%(side)s: a run of the whole suit holds 13 or 14 cards, "
                                     "so these melds need at least %(low)s points on the "
                                     "table."),
    "meld_sequences_only_reale": _l("Burraco Reale melds only sequences: three or more "
                                    "cards of one suit in order."),
    "alone_took_pozzetto": _l("%(side)s: the player alone has taken the 18-card pozzetto, "
                              "so it cannot be “not taken”."),
    "unseen_lone_pozzetto": _l("%(side)s: the unseen pozzetto holds 18 cards, so it is "
                               "worth at least %(low)s."),
    "nobody_took_pozzetto": _l("%(side)s: when nobody ran out, nobody took a pozzetto: "
                               "every player pays the −100."),
    "nobody_closed": _l("%(side)s: when nobody ran out, nobody can have closed."),
    "hand_needs_three_sides": _l("When nobody ran out, each of the three players has an "
                                 "entry."),
    "side_needs_entry": _l("%(side)s: the entry is missing."),
    "total_missing": _l("%(side)s: type the side's total, or switch back to counting the "
                        "parts."),
    "hand_needs_two_sides": _l("A hand has an entry for each of the two sides."),
    "both_closed": _l("Only one side can close a hand."),
    "alone_needed": _l("Say who played alone with the 18-card pozzetto."),
    "target_range": _l("The target must be a whole number from %(low)s to %(high)s."),
    # Buraco melds (seed 004; RULES-NOTES C2, C3)
    "meld_sets_only": _l("Buraco melds only sets: three or more cards of one rank."),
    "meld_sequences_only": _l("Buraco Aberto melds only sequences: three or more cards of "
                              "one suit in order."),
    "meld_over_two_wildcards": _l("At most two wildcards (jokers or 2s) per set, not "
                                  "%(count)s."),
    "meld_wildcards_outnumber": _l("%(wildcards)s wildcards and %(naturals)s natural cards: "
                                   "never more wildcards than natural cards."),
    "meld_red_three": _l("Red threes (%(card)s) are bonus cards: they are laid out at once, "
                         "never melded."),
    "meld_black_three": _l("Black threes (%(card)s) cannot be melded: they only block the "
                           "discard pile."),
    # Buraco hands and matches
    "buracos_range": _l("%(side)s: the number of buracos must be from %(low)s to "
                        "%(high)s."),
    "out_holds_no_cards": _l("%(side)s: went out, so holds no cards: the points in hand "
                             "are 0."),
    "first_meld_minimum": _l("%(side)s: melds never leave the table, so a side that "
                             "melded has at least the minimum first meld on it: %(low)s "
                             "points."),
    "canastras_reais_off": _l("%(side)s: runs from ace to king or ace to ace count only "
                              "with canastras reais switched on."),
    "buraco_needs_cards": _l("%(side)s: every buraco holds at least seven cards, so at "
                             "least %(low)s points on the table each."),
    "going_out_needs_buraco": _l("%(side)s: going out needs at least one complete buraco."),
    "going_out_needs_clean_buraco": _l("%(side)s: going out needs a clean buraco at this "
                                       "table."),
    "going_out_needs_dead_pile": _l("%(side)s: going out needs the side's dead pile taken."),
    "dead_pile_at_first_meld": _l("%(side)s: a side that melded took its dead pile with its "
                                  "first set, so it cannot be “not taken”."),
    "dead_pile_without_meld": _l("%(side)s: the dead pile is taken with the side's first "
                                 "set, but the side melded nothing."),
    "dead_pile_missing": _l("%(side)s: the field “dead_pile” is missing: say whether the "
                            "dead pile was taken or not."),
    "unknown_dead_pile": _l("%(side)s: choose taken or not taken for the dead pile."),
    "red_threes_range": _l("%(side)s: the number of red threes must be from %(low)s to "
                           "%(high)s."),
    "red_threes_off": _l("%(side)s: red threes count only with that option switched on "
                         "(never in the Brazilian variants)."),
    "red_threes_together": _l("%(total)s red threes, but the two packs hold only "
                              "%(high)s."),
    "two_went_out": _l("Only one player can go out: the first one out ends the hand."),
    "hand_needs_three_players": _l("A hand of three players has an entry for each of "
                                   "them."),
    "minimum_first_meld_range": _l("The minimum first meld must be a whole number from "
                                   "%(low)s to %(high)s, or empty."),
    # Bura and Burkosel
    "unknown_suit": _l("“%(token)s” is not a suit. Write ♠ ♥ ♦ ♣ or S H D C."),
    "card_not_in_bura_deck": _l("%(card)s is not in Bura's 36 cards (6 to ace)."),
    "card_count": _l("Enter %(low)s to %(high)s cards, not %(count)s."),
    "lead_one_suit": _l("Two or three cards are led together only if they are of one suit "
                        "(three aces only as a declared combination)."),
    # Its words follow the count ("the card in front"), so it is translated when used.
    "response_count": lambda count, params: ngettext(
        "Answer the card in front with one card.",
        "Answer the %(num)s cards in front with as many cards.", count, **params),
    "outcome_needed": _l("Choose how the game ended."),
    "outcome_variant_off": _l("Three aces win the pot only where the table plays Moscow or "
                              "“three aces win”: switch the variant on for this match."),
    "claim_needs_cards": _l("Tap the cards of the claimant's tricks."),
    "chips_beyond_sheet": _l("Game %(number)s would take the pot or a player's chips past "
                             "%(high)s, more than the sheet can show: settle up and start "
                             "a new match."),
    "pot_range": _l("The pot holds a whole number of chips from %(low)s to %(high)s."),
    "ante_range": _l("The ante must be a whole number of chips from %(low)s to %(high)s."),
    "start_chips_range": _l("The starting chips must be a whole number from %(low)s to "
                            "%(high)s."),
    "burkosel_entry": _l("Enter the card points and tricks of each side, or who won at "
                         "once."),
    "losing_total_choice": _l("A Burkosel match is lost at 12, 8 or 6 penalty points."),
    "card_points_range": _l("Card points are whole numbers from %(low)s to %(high)s."),
    "card_points_missing": _l("%(side)s: the card points are missing (only one side's may "
                              "be left out: they follow from the others')."),
    "tricks_range": _l("Tricks are whole numbers from %(low)s to %(high)s."),
    "card_points_sum": _l("The card points add up to %(total)s, but all cards together "
                          "count %(expected)s."),
    "points_without_trick": _l("Card points without a trick are impossible: only tricks hold "
                               "cards."),
}

SUIT_NAMES = {
    Suit.SPADES: _l("spade"),
    Suit.HEARTS: _l("heart"),
    Suit.DIAMONDS: _l("diamond"),
    Suit.CLUBS: _l("club"),
}


def describe(error: ScoringError, side_names=None) -> str:
    """The refusal in the user's language, cards written as the user's language writes them,
    a side by its players' names where the sheet knows them ("Side 2" where not)."""
    params = {key: _shown(value) for key, value in error.params.items()}
    if "side" in params:
        side = error.params["side"]
        params["side"] = side_names[side - 1] if side_names else gettext(
            "Side %(number)s", number=side)
    message = MESSAGES[error.code]
    if callable(message):
        return message(error.params["count"], params)
    return str(message) % params


def _shown(value):
    """A value in a message as the reader writes it; a number beyond any count (a hand
    number typed into the address) cut short, since number formatting cannot hold it."""
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


def trick_reason(trick) -> str:
    """Why this card takes the trick, in words: "J♥ is the highest heart: …"."""
    return gettext("%(card)s is the highest %(suit)s: player %(player)s wins the trick and "
                   "leads next.", card=card_label(trick.card), suit=SUIT_NAMES[trick.suit],
                   player=trick.winner + 1)
