"""The Buraco sheet: the counted panel (views/sheets/counted.py) with this game's card values,
red threes, the dead pile and who went out; teams of two, or two or three players alone."""

from functools import partial
from typing import Annotated, Literal

from flask import Blueprint, jsonify, request
from flask_babel import lazy_gettext as _l
from pydantic import Field, RootModel

from scoring import buraco
from scoring.cards import JOKER, Rank
from scoring.errors import MeldError, ScoringError

from ..api import contract, models
from ..api.contract import REFUSED, refused
from ..api.contract import api as spec
from ..api.models import Answer, Body, Cards, Flag, MeldRefused, SideByMeld, Whole, examples
from ..checkers import MELD_MODES, checker_page, meld_cards, meld_request, ticked
from ..presets import Preset
from ..refusals import describe, refusal
from ..rule_search import why_url
from ..template_helpers import unit_labels
from . import counted
from .counted import (
    MAX_TAPS,
    SIDES_FIELD,
    CountedPanel,
    Draft,
    draft_of_hand,
    read_draft,
    sets_by_rank,
    sides_of_draft,
)
from .game import Game, why_sections

# The tap counter's buttons, one per value class as players count cards (UX: seed "Joker 30
# · A/2 20 · K–10 10 · 9–4 5 · black 3 5"); each class named by its cards.
TAP_RANKS = {
    buraco.Variant.SEED: (("joker", Rank.JOKER), ("ace_two", Rank.ACE), ("king_ten", Rank.KING),
                          ("nine_four", Rank.NINE), ("black_three", Rank.THREE)),
    buraco.Variant.BRAZILIAN: (("joker", Rank.JOKER), ("ace", Rank.ACE), ("two", Rank.TWO),
                               ("king_eight", Rank.KING), ("seven_three", Rank.SEVEN)),
}
TAP_RANKS[buraco.Variant.ABERTO] = TAP_RANKS[buraco.Variant.STBL] = \
    TAP_RANKS[buraco.Variant.BRAZILIAN]


def tap_classes(variant: buraco.Variant) -> tuple[tuple[str, int], ...]:
    """The tap counter's value classes for the variant: (name, points) each, at the
    variant's card values."""
    return tuple((name, buraco.CARD_VALUES[variant][rank]) for name, rank in TAP_RANKS[variant])


def panel_for(options: buraco.Options) -> CountedPanel:
    """The panel for the table's variant: its tap counter counts the variant's values."""
    counts = {"clean": "clean_buracos", "dirty": "dirty_buracos", "red": "red_threes"}
    if options.canastras_reais:
        counts.update(real="real_buracos", ace="ace_to_ace_buracos")
    return CountedPanel(
        piles={"table": "table_points", "hand": "hand_points"},
        counts=counts,
        choice="dead_pile", choice_default=buraco.DeadPile.TAKEN.value,
        closer_field="went_out", max_count=buraco.MAX_BURACOS,
        tap_classes=tap_classes(options.variant),
        # Red threes are no meld: a side by meld still counts them on their stepper.
        by_meld=frozenset({"table", "hand", *counts} - {"red"}),
        ready_melds=buraco.ready_buracos(options),
        sets=sets_by_rank(partial(buraco.can_meld, variant=options.variant)))


def _match_rules(match) -> tuple[buraco.Options, CountedPanel, int]:
    options = buraco.verify_options(match.options, len(match.players))
    return options, panel_for(options), len(buraco.sides_of(len(match.players)))


def draft_from_form(form, match) -> Draft:
    """The panel's fields, after the button that was pressed (without JavaScript)."""
    _options, panel, sides = _match_rules(match)
    draft = read_draft(form, panel, sides)
    panel.press(draft, form.get("press", ""))
    return draft


def hand_from_form(form, match) -> dict:
    _options, panel, sides = _match_rules(match)
    return {"sides": sides_of_draft(read_draft(form, panel, sides), panel)}


def side_names(match, form=None) -> list[str]:
    """The sides by their players: "Anna & Carla", or each player alone."""
    return unit_labels(buraco.sides_of(len(match.players)), match.players)


def preview(match, options, panel, draft) -> dict:
    """The hand's scores per side as the panel stands, or why it cannot be saved yet."""
    try:
        sides = buraco.verify_sides(sides_of_draft(draft, panel), options, len(draft.sides),
                                    len(match.players))
    except ScoringError as error:
        return {"scores": None, "problem": describe(error, side_names(match))}
    return {"scores": [side.score for side in sides], "problem": None}


def context(match, options, standings, number, draft) -> dict:
    """The template's Buraco values: the draft, the sides' names, the preview."""
    panel = panel_for(options)
    fresh = draft is None
    if fresh:
        draft = (draft_of_hand(match.hands[number - 1], panel)
                 if number and 1 <= number <= len(match.hands)
                 else Draft([panel.blank_side() for _side in standings.units]))
    labels = side_names(match)
    return {
        "draft": draft, "fresh": fresh, "side_labels": labels,
        # "Who went out?" offers every side, and is not asked while all count on paper.
        "closer_names": [(str(side), label) for side, label in enumerate(labels)],
        "all_on_paper": "&".join(f"s{side}_mode=total" for side in range(len(labels))),
        "tap_classes": panel.tap_classes, "max_taps": MAX_TAPS,
        "max_count": buraco.MAX_BURACOS, "red_threes_max": buraco.RED_THREES,
        "preview": preview(match, options, panel, draft),
        "scores_of": lambda hand: buraco.hand_scores(hand, options),
        "ready_melds": [(name, cards, READY_LABELS[name])
                        for name, cards in panel.ready_melds.items()],
        "meld_sets": panel.sets, "picker": buraco.cards_by_suit(), "joker": JOKER,
    }


# The ready buracos as the panel's chips name them.
READY_LABELS = {**counted.READY_LABELS, "real": _l("Canastra real, A–K"),
                "ace_to_ace": _l("Canastra, A–A")}


# --- The meld checker ---------------------------------------------------------------------

bp = Blueprint("buraco", __name__)

# Buraco's rules know no swap of a wildcard for its card.
BURACO_MELD_MODES = MELD_MODES[:2]


@bp.get("/buraco/meld")
def meld():
    """Is this a legal Buraco meld in the chosen variant, what is it worth, is it a buraco?
    Also: may these cards be added to a meld on the table?"""
    try:
        variant = buraco.variant_of(request.args.get("variant"))
    except ScoringError:
        variant = buraco.Variant.SEED
    reais = ticked(request.args.get("canastras_reais")) and variant is not buraco.Variant.SEED
    mode, into, fields, canonical = meld_request(
        "buraco.meld", BURACO_MELD_MODES,
        {"variant": variant.value, "canastras_reais": "on" if reais else None})
    found, refused, cards, table = None, {}, [], []
    try:
        cards, table, fields = meld_cards(fields, mode)
        if mode == "check" and cards:
            found = buraco.verify_meld(cards, variant, reais)
        elif mode == "add" and table and cards:
            found = buraco.verify_addition(table, cards, variant, reais)
    except ScoringError as problem:
        refused = refusal(problem, "buraco")
    return checker_page(GAME.template("meld.html"), canonical, mode=mode, into=into,
                        variant=variant, canastras_reais=reais, fields=fields,
                        cards=cards, table=table, meld=found, picker=buraco.cards_by_suit(),
                        joker=JOKER, buraco_length=buraco.BURACO_LENGTH,
                        rule=why_url("buraco", f"melds_{variant.value}"), **refused)


# --- The JSON API's checkers -----------------------------------------------------------------

api_bp = contract.json_blueprint("buraco_api", __name__)


Variant = Annotated[str | None, Field(description="`seed` (default), `brazilian` (Fechado), "
                                                  "`aberto` or `stbl`.")]


class BuracoMeldOptions(Body):
    variant: Variant = None
    canastras_reais: Flag = False


class BuracoMeldCheck(Body):
    model_config = examples({"cards": ["QS", "QH", "QD", "JK"], "options": {"variant": "seed"}})
    cards: Cards
    onto: Cards | None = None
    options: BuracoMeldOptions = BuracoMeldOptions()


class BuracoReading(Answer):
    kind: Literal["set", "sequence"]
    buraco: Literal["clean", "dirty", "real", "ace_to_ace"] | None
    bonus: int
    order: list[str]
    wildcards: list[str]
    stands_for: str | None


class BuracoMeldRefused(MeldRefused):
    buraco: None


class BuracoMeldVerdict(BuracoReading):
    valid: Literal[True]
    points: int
    reason: None
    readings: list[BuracoReading]


class BuracoMeldAnswer(RootModel[BuracoMeldVerdict | BuracoMeldRefused]):
    """A legal meld with its best reading, or the reason it is not one."""
    model_config = examples({"valid": True, "kind": "set", "buraco": None, "points": 60,
                             "reason": None, "bonus": 0, "order": ["QS", "QH", "QD", "JK"],
                             "wildcards": ["JK"], "stands_for": "Q", "readings": []})


class BuracoSide(SideByMeld):
    table_points: Whole | None = None
    clean_buracos: Whole | None = None
    dirty_buracos: Whole | None = None
    red_threes: Whole | None = None
    hand_points: Whole | None = None
    dead_pile: str | None = Field(None, description="`taken` or `not_taken`.")
    went_out: Flag = False
    total: Whole | None = None
    real_buracos: Whole | None = Field(None, description="With `canastras_reais`: clean runs "
                                                         "from ace to king (+500).")
    ace_to_ace_buracos: Whole | None = Field(None, description="With `canastras_reais`: clean "
                                                               "runs from ace to ace (+1000).")


class BuracoOptions(Body):
    variant: Variant = None
    red_threes: Flag = True
    going_out_bonus: Flag = True
    dead_pile_penalty: Flag = True
    clean_to_go_out: Flag = False
    minimum_first_meld: Whole | None = None
    canastras_reais: Flag = False
    target: Whole | None = None
    players: Whole = Field(4, description="2 or 4 score two sides, 3 one side per player.")


class BuracoHandCheck(Body):
    model_config = examples({"options": {"variant": "seed"}, "sides": [
        {"table_points": 150, "clean_buracos": 1, "dirty_buracos": 0, "red_threes": 1,
         "hand_points": 0, "dead_pile": "taken", "went_out": True},
        {"table_points": 95, "clean_buracos": 0, "dirty_buracos": 1, "red_threes": 0,
         "hand_points": 25, "dead_pile": "taken", "went_out": False}]}, {"sides": [
        {"melds": [["KS", "KS", "KH", "KH", "KD", "KD", "KC"], "QS QH JK"], "in_hand": [],
         "red_threes": 1, "dead_pile": "taken", "went_out": True},
        {"melds": [["5S", "5H", "5D", "5C", "5S", "2D", "JK"], ["AS", "AH", "AD"]],
         "in_hand": "KC 9S 3C", "dead_pile": "taken"}]})
    sides: list[BuracoSide] = Field(max_length=3)
    options: BuracoOptions = BuracoOptions()


def _buraco_reading_json(reading: buraco.Reading) -> dict:
    """A Buraco meld reading: a set may hold two wildcards (seed 004)."""
    return {"kind": reading.kind.value, "buraco": reading.buraco and reading.buraco.value,
            "bonus": reading.bonus, "order": [card.code for card in reading.order],
            "wildcards": [card.code for card in reading.wildcards],
            "stands_for": contract.stands_json(reading.stands_for)}


@api_bp.post("/buraco/meld")
@spec.validate(json=BuracoMeldCheck,
               resp=refused(*REFUSED, HTTP_200=BuracoMeldAnswer), tags=["buraco"])
def buraco_meld():
    """Judge a Buraco meld

    With ``onto`` (a meld on the table) the cards are added to it. An illegal meld
    answers ``valid: false`` with the reason and its code."""
    asked = contract.checked()
    cards, variant = contract.cards(asked.cards), buraco.variant_of(asked.options.variant)
    reais = asked.options.canastras_reais
    try:
        if asked.onto is not None:
            meld = buraco.verify_addition(contract.cards(asked.onto), cards, variant, reais)
        else:
            meld = buraco.verify_meld(cards, variant, reais)
    except MeldError as error:
        return jsonify(valid=False, kind=None, buraco=None, points=None,
                       reason=describe(error), code=error.code)
    return jsonify(valid=True, **_buraco_reading_json(meld.readings[0]), points=meld.points,
                   reason=None,
                   readings=[_buraco_reading_json(reading) for reading in meld.readings[1:]])


@api_bp.post("/buraco/hand")
@spec.validate(json=BuracoHandCheck, resp=refused(*REFUSED, HTTP_200=models.Scores),
               tags=["buraco"])
def buraco_hand():
    """Score one Buraco hand

    With ``"players": 3`` in the options, one entry for each player."""
    asked = contract.checked()
    players = asked.options.players
    options = buraco.verify_options(asked.options.model_dump(exclude_unset=True), players)
    sides = buraco.verify_sides(contract.side_bodies(asked), options,
                                len(buraco.sides_of(players)), players)
    return jsonify(scores=[side.score for side in sides])


WHY = why_sections({
    "overview": ("player_count", "card_copies", "variant-seed"),
    "variants": ("unknown_variant", "variants"),
    "turn": (
        "melds_seed", "meld_too_short", "meld_only_wildcards", "meld_sets_only",
        "meld_over_two_wildcards", "meld_wildcards_outnumber", "nothing_to_add",
        "buraco_needs_cards", "going_out_needs_dead_pile", "dead_pile_at_first_meld",
        "dead_pile_without_meld"
    ),
    "variant-brazilian": (
        "melds_brazilian", "meld_too_many_wildcards", "meld_mixed", "meld_not_consecutive",
        "meld_card_twice", "meld_ace_both_ends"
    ),
    "variant-aberto": ("melds_aberto", "meld_sequences_only", "variant-aberto"),
    "special-rules": (
        "meld_red_three", "meld_black_three", "red_threes_range", "red_threes_together"
    ),
    "end": (
        "going_out_needs_buraco", "two_went_out", "hand_points_range", "buracos_range",
        "total_range", "points_multiple_of_five", "side_needs_entry", "hand_needs_two_sides",
        "hand_points_together", "side_points_exceed_cards", "total_missing", "hand_after_end",
        "match_finished", "side_meld_illegal", "side_hand_cards", "melds_unreadable",
        "melds_or_parts", "end"
    ),
    "scoring-notes": (
        "going_out_needs_clean_buraco", "red_threes_off", "dead_pile_missing",
        "unknown_dead_pile", "target_range", "table_points_range", "table_points_together",
        "scoring-notes"
    ),
    "variant-minimum-meld": (
        "minimum_first_meld_range", "first_meld_minimum", "variant-minimum-meld"
    ),
    "two-or-three": ("hand_needs_three_players", "out_holds_no_cards"),
    "variant-stbl": ("melds_stbl", "variant-stbl"),
    "variant-canastras-reais": (
        "canastras_reais_off", "whole_suit_runs_need_cards", "variant-canastras-reais"
    ),
    "variant-fechado": ("variant-brazilian",),
    "setup": ("dealing", "seat_range"),
})

MESSAGES = {
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
}

GAME = Game(
    slug="buraco", name="Buraco", tile=_l("Brazilian rummy, Burraco's cousin."),
    player_order=_l("List the players in the order of play, clockwise round the table. With "
                    "four, partners sit opposite: the 1st and 3rd play against the 2nd and 4th; "
                    "two or three play alone."),
    hand_from_form=hand_from_form, context=context, draft_from_form=draft_from_form,
    side_names=side_names, says_game=False,
    checkers=(("buraco.meld", _l("Buraco: is this meld legal?")),),
    why=WHY, messages=MESSAGES,
    preset_field="variant",
    presets=(
        Preset("seed", _l("Classic"), _l("the Buraco rules text"),
               _l("Sets only; red threes are bonus cards.")),
        Preset("brazilian", _l("Fechado"), _l("jogatina.com"),
               _l("Brazilian values; sets and sequences, one wildcard; out with any buraco.")),
        Preset("aberto", _l("Aberto"), _l("jogatina.com"),
               _l("Brazilian values; sequences only; out with a clean buraco.")),
        Preset("stbl", _l("STBL"), _l("jogatina.com"),
               _l("“Sem trinca, bate limpo”: sequences only, the discard pile closed; out "
                  "with a clean buraco.")),
    ),
    pages=bp, api=api_bp,
    hand_fields={"sides": SIDES_FIELD},
)
