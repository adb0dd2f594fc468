"""The Burraco sheet: its counted panel (views/sheets/counted.py) with the pozzetto, and with
three players who played alone; the side names and the live preview."""

from functools import partial
from typing import Literal

from flask import Blueprint, jsonify, request
from flask_babel import gettext
from flask_babel import lazy_gettext as _l
from pydantic import Field, RootModel

from scoring import burraco
from scoring.cards import JOKER, Rank
from scoring.errors import MeldError, ScoringError
from scoring.values import parse_int

from ..api import contract, models
from ..api.contract import REFUSED, refused
from ..api.contract import api as spec
from ..api.models import (
    Answer,
    Body,
    Cards,
    Flag,
    MeldRefused,
    Seat,
    SideByMeld,
    Whole,
    examples,
)
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

# The tap counter's buttons: one per value class, as players count cards (UX: "Joker 30 ·
# 2 20 · A 15 · K–8 10 · 7–3 5"); Burraco Reale has no joker and its 2 counts 10.
TAP_RANKS = (("joker", Rank.JOKER), ("two", Rank.TWO), ("ace", Rank.ACE), ("high", Rank.KING),
             ("low", Rank.SEVEN))


def tap_classes(variant: burraco.Variant) -> tuple[tuple[str, int], ...]:
    """The tap counter's value classes for the variant: (name, points) each."""
    values = burraco.VALUES[variant]
    return tuple((name, values[rank]) for name, rank in TAP_RANKS if rank in values)


def panel_for(options: burraco.Options) -> CountedPanel:
    """Burraco's panel: the unseen pozzetto is a pile of its own, counted like the others;
    Burraco Reale counts its own values and its nobile and reale burracos."""
    counts = {"clean": "clean_burracos", "dirty": "dirty_burracos",
              "semi": "semiclean_burracos"}
    if options.variant is burraco.Variant.REALE:
        counts.update(nobile="nobile_burracos", reale="reale_burracos")
    return CountedPanel(
        piles={"table": "table_points", "hand": "hand_points",
               "unseen": "unseen_pozzetto_points"},
        counts=counts, choice="pozzetto", choice_default=burraco.Pozzetto.TAKEN.value,
        closer_field="closed", max_count=burraco.MAX_BURRACOS,
        tap_classes=tap_classes(options.variant),
        by_meld=frozenset({"table", "hand", *counts}),
        ready_melds=burraco.ready_burracos(options),
        sets=sets_by_rank(partial(burraco.can_meld, variant=options.variant)))


def _panel(match) -> CountedPanel:
    return panel_for(burraco.verify_options(match.options, len(match.players)))
# Three players, "who played alone?": nobody, the stock ran out or play stalled (B6).
NOBODY = "none"


def nobody_ran_out(draft: Draft) -> bool:
    return draft.alone == NOBODY


def _side_count(alone: str) -> int:
    """Every player is a side of their own when nobody of three ran out (B6)."""
    return 3 if alone == NOBODY else 2


def blank_draft(panel: CountedPanel) -> Draft:
    return Draft([panel.blank_side(), panel.blank_side()])


def shown_sides(draft: Draft, players: int, panel: CountedPanel) -> list:
    """The side cards the panel holds: with three players always three, the third shown
    only while nobody ran out (so the choice can change on the phone at once)."""
    missing = (3 if players == 3 else 2) - len(draft.sides)
    return [*draft.sides, *[panel.blank_side() for _side in range(missing)]]


def draft_from_form(form, panel: CountedPanel) -> Draft:
    """Read the panel's fields (``s0_…``, ``s1_…``, with nobody out of three also ``s2_…``)."""
    alone = form.get("alone", "")
    return read_draft(form, panel, _side_count(alone), alone)


def draft_from_hand(hand: dict, panel: CountedPanel) -> Draft:
    """A stored hand back in the panel, for its correction; a side entered by meld shows
    its melds again."""
    alone = NOBODY if "alone" in hand and hand["alone"] is None else str(hand.get("alone", ""))
    return draft_of_hand(hand, panel, alone)


def hand_from_draft(draft: Draft, players: int, panel: CountedPanel) -> dict:
    """The hand as ``scoring.burraco.verify_hand`` reads it (and the API sends it)."""
    hand = {"sides": sides_of_draft(draft, panel)}
    if players == 3:
        hand["alone"] = None if nobody_ran_out(draft) else draft.alone
    return hand


# --- What the sheet shows besides the standings: side names, the draft, the preview ---


def _alone(draft, players: int) -> int | None:
    seat = parse_int(draft.alone)
    return seat if players == 3 and seat is not None and 0 <= seat < players else None


def side_names(match, draft) -> list[str] | None:
    """The two sides of the hand being entered, by their players; with three players only
    once the table has said who played alone."""
    players = len(match.players)
    alone = _alone(draft, players)
    if players == 3 and alone is None and not nobody_ran_out(draft):
        return None
    return unit_labels(burraco.sides_of(players, alone), match.players)


def alone_labels(match) -> list[dict] | None:
    """Three players: each side's name for every answer to "who played alone?" (the panel
    renames its sides at once when the answer changes); "" is the name before any answer."""
    if len(match.players) != 3:
        return None
    unanswered = [gettext("The player alone"), gettext("The partners"), ""]
    labels = [{"": name} for name in unanswered]
    for choice in [*map(str, range(3)), NOBODY]:
        alone = None if choice == NOBODY else int(choice)
        for side, name in enumerate(unit_labels(burraco.sides_of(3, alone), match.players)):
            labels[side][choice] = name
    return labels


# The ready burracos as the panel's chips name them.
READY_LABELS = {**counted.READY_LABELS, "semiclean_run": _l("Semi-clean run (8)"),
                "nobile": _l("Nobile, A–K"), "reale": _l("Reale, A–A")}


def preview(match, options, draft) -> dict:
    """The hand's scores per side as the panel stands ("N/S +410 · E/W +155"), or why the
    entry cannot be saved yet."""
    players = len(match.players)
    hand = hand_from_draft(draft, players, panel_for(options))
    try:
        sides = burraco.verify_hand_sides(hand, options, players)
    except ScoringError as error:
        return {"scores": None, "problem": describe(error, side_names(match, draft))}
    return {"scores": [side.score for side in sides], "problem": None}


def context(match, options, standings, number, draft) -> dict:
    """The template's Burraco values: the draft, its sides' names, its preview."""
    fresh = draft is None
    panel = panel_for(options)
    if fresh:
        draft = (draft_from_hand(match.hands[number - 1], panel)
                 if number and 1 <= number <= len(match.hands) else blank_draft(panel))
    return {
        "draft": draft,
        # Nothing posted: an unsaved entry kept on the phone may take the panel's place.
        "fresh": fresh,
        "panel_sides": shown_sides(draft, len(match.players), panel),
        "side_labels": side_names(match, draft),
        "tap_classes": panel.tap_classes,
        "preview": preview(match, options, draft),
        "scores_of": lambda hand: burraco.hand_scores(hand, options),
        "nobody": NOBODY,
        "nobody_ran_out": nobody_ran_out(draft),
        "max_taps": MAX_TAPS,
        "max_count": burraco.MAX_BURRACOS,
        "alone_labels": alone_labels(match),
        "ready_melds": [(name, cards, READY_LABELS[name])
                        for name, cards in panel.ready_melds.items()],
        "meld_sets": panel.sets,
        "picker": burraco.cards_by_suit(),
        "joker": JOKER if options.variant is burraco.Variant.CLASSIC else None,
    }


def _draft(form, match) -> Draft:
    panel = _panel(match)
    draft = draft_from_form(form, panel)
    panel.press(draft, form.get("press", ""))
    return draft


def _hand_from_form(form, match) -> dict:
    panel = _panel(match)
    return hand_from_draft(draft_from_form(form, panel), len(match.players), panel)


# --- The meld checker ---------------------------------------------------------------------

bp = Blueprint("burraco", __name__)


@bp.get("/burraco/meld")
def meld():
    """Is this a legal Burraco meld, what is it worth, is it a burraco? Also: may these
    cards be added to a meld on the table, may this card take its wildcard's place?"""
    try:
        variant = burraco.variant_of(request.args.get("variant"))
    except ScoringError:
        variant = burraco.Variant.CLASSIC
    semipulito = ticked(request.args.get("semipulito")) and variant is burraco.Variant.CLASSIC
    mode, into, fields, canonical = meld_request(
        "burraco.meld", MELD_MODES,
        {"variant": None if variant is burraco.Variant.CLASSIC else variant.value,
         "semipulito": "on" if semipulito else None})
    found, refused, cards, table = None, {}, [], []
    rules = {"semipulito": semipulito, "variant": variant}
    try:
        cards, table, fields = meld_cards(fields, mode)
        if mode == "check" and cards:
            found = burraco.verify_meld(cards, **rules)
        elif mode == "add" and table and cards:
            found = burraco.verify_addition(table, cards, **rules)
        elif mode == "swap" and table and cards:
            found = burraco.verify_swap(table, cards, **rules)
    except ScoringError as problem:
        refused = refusal(problem, "burraco")
    return checker_page(GAME.template("meld.html"), canonical, mode=mode, into=into,
                        variant=variant, semipulito=semipulito, fields=fields, cards=cards,
                        table=table, meld=found, picker=burraco.cards_by_suit(), joker=JOKER,
                        rule=why_url("burraco", "melds" if variant is burraco.Variant.CLASSIC
                                     else "variant-reale"), **refused)


# "Other readings" name the kind the way the verdict does: clean, not "pulito".
KINDS = {
    "pulito": _l("clean"), "semipulito": _l("semi-clean"), "sporco": _l("dirty"),
    "nobile": _l("nobile"), "reale": _l("reale"),
}


@bp.app_template_global()
def burraco_kind(name: str) -> str:
    """A burraco's kind in the reader's words: "clean", in German "rein"."""
    return str(KINDS[name])


# --- The JSON API's checkers -----------------------------------------------------------------

api_bp = contract.json_blueprint("burraco_api", __name__)


class BurracoMeldOptions(Body):
    semipulito: Flag = False
    variant: str | None = Field(None, description="`classic` (default) or `reale` "
                                                  "(Burraco Reale).")


class BurracoMeldCheck(Body):
    model_config = examples({"cards": ["3H", "4H", "5H"], "options": {"semipulito": False}})
    cards: Cards
    onto: Cards | None = Field(None, description="A meld on the table the cards are added to.")
    swap: Flag = Field(False, description="With `onto`: the one card takes the place of the "
                                          "meld's wildcard.")
    options: BurracoMeldOptions = BurracoMeldOptions()


class BurracoReading(Answer):
    kind: Literal["set", "sequence"]
    burraco: Literal["pulito", "sporco", "semipulito", "nobile", "reale"] | None
    bonus: int
    order: list[str]
    wildcard: str | None
    stands_for: str | None


class BurracoMeldRefused(MeldRefused):
    burraco: None


class BurracoMeldVerdict(BurracoReading):
    valid: Literal[True]
    points: int
    reason: None
    readings: list[BurracoReading]


class BurracoMeldAnswer(RootModel[BurracoMeldVerdict | BurracoMeldRefused]):
    """A legal meld with its best reading, or the reason it is not one."""
    model_config = examples({"valid": True, "kind": "sequence", "burraco": None, "points": 15,
                             "reason": None, "bonus": 0, "order": ["3H", "4H", "5H"],
                             "wildcard": None, "stands_for": None, "readings": []})


class BurracoSide(SideByMeld):
    """One side's hand: its parts, or only the `total` counted on paper."""
    table_points: Whole | None = None
    clean_burracos: Whole | None = None
    dirty_burracos: Whole | None = None
    semiclean_burracos: Whole | None = None
    hand_points: Whole | None = None
    pozzetto: str | None = Field(None, description="`taken`, `not_taken` or `unseen`.")
    unseen_pozzetto_points: Whole | None = None
    closed: Flag = False
    total: Whole | None = None
    nobile_burracos: Whole | None = Field(None, description="Burraco Reale: clean runs "
                                                            "from ace to king (+500).")
    reale_burracos: Whole | None = Field(None, description="Burraco Reale: clean runs from "
                                                           "ace to ace (+1000).")


class BurracoHandCheck(Body):
    model_config = examples({"sides": [
        {"table_points": 120, "clean_burracos": 1, "dirty_burracos": 0, "semiclean_burracos": 0,
         "hand_points": 10, "pozzetto": "taken", "closed": True},
        {"table_points": 95, "clean_burracos": 0, "dirty_burracos": 1, "hand_points": 40,
         "pozzetto": "taken", "closed": False}]}, {"sides": [
        {"melds": [["3H", "4H", "5H", "6H", "7H", "8H", "9H"], "AS AH AD JK"],
         "in_hand": ["7C", "3S"], "pozzetto": "taken", "closed": True},
        {"melds": [["QS", "QH", "QD", "QC", "QS", "QH", "2D"], ["4C", "5C", "6C"]],
         "in_hand": "KS JK", "pozzetto": "taken"}]})
    sides: list[BurracoSide] = Field(max_length=3)
    alone: Seat | None = Field(None, description="Three players: the one who played alone, "
                                                 "or `null` when nobody ran out.")
    options: BurracoMeldOptions = BurracoMeldOptions()


def _reading_json(reading) -> dict:
    """A Burraco meld reading: its one wildcard and what it stands for."""
    return {"kind": reading.kind.value, "burraco": reading.burraco and reading.burraco.value,
            "bonus": reading.bonus, "order": [card.code for card in reading.order],
            "wildcard": reading.wildcard and reading.wildcard.code,
            "stands_for": contract.stands_json(reading.stands_for)}


@api_bp.post("/burraco/meld")
@spec.validate(json=BurracoMeldCheck,
               resp=refused(*REFUSED, HTTP_200=BurracoMeldAnswer), tags=["burraco"])
def burraco_meld():
    """Judge a Burraco meld

    With ``onto`` (a meld on the table) the cards are added to it, with ``"swap": true``
    the one card takes the place of its wildcard. An illegal meld answers ``valid: false``
    with the reason and its code."""
    asked = contract.checked()
    cards = contract.cards(asked.cards)
    rules = {"semipulito": asked.options.semipulito,
             "variant": burraco.variant_of(asked.options.variant)}
    try:
        if asked.onto is not None:
            table = contract.cards(asked.onto)
            meld = (burraco.verify_swap(table, cards, **rules) if asked.swap
                    else burraco.verify_addition(table, cards, **rules))
        else:
            meld = burraco.verify_meld(cards, **rules)
    except MeldError as error:
        return jsonify(valid=False, kind=None, burraco=None, points=None,
                       reason=describe(error), code=error.code)
    best = _reading_json(meld.readings[0])
    return jsonify(valid=True, **best, points=meld.points, reason=None,
                   readings=[_reading_json(reading) for reading in meld.readings[1:]])


@api_bp.post("/burraco/hand")
@spec.validate(json=BurracoHandCheck, resp=refused(*REFUSED, HTTP_200=models.Scores),
               tags=["burraco"])
def burraco_hand():
    """Score one Burraco hand

    Three sides with ``"alone": null`` when nobody of three players ran out."""
    asked = contract.checked()
    hand = {"sides": contract.side_bodies(asked),
            **asked.model_dump(include={"alone"}, exclude_unset=True)}
    options = burraco.Options(semipulito=asked.options.semipulito,
                              variant=burraco.variant_of(asked.options.variant))
    sides = burraco.verify_hand_sides(hand, options)
    return jsonify(scores=[side.score for side in sides])


WHY = why_sections({
    "overview": ("player_count", "card_copies", "variant-classic"),
    "melds": (
        "meld_too_short", "meld_mixed", "meld_not_consecutive", "meld_card_twice",
        "meld_ace_both_ends", "nothing_to_add", "melds"
    ),
    "wildcards": (
        "meld_only_wildcards", "meld_too_many_wildcards", "swap_no_wildcard", "swap_wrong_card",
        "swap_one_card"
    ),
    "burraco": ("burraco_needs_cards",),
    "closing": ("closing_needs_pozzetto", "closing_needs_burraco", "both_closed", "closing"),
    "pozzetti": ("unknown_pozzetto",),
    "variant-semipulito": ("semiclean_off", "variant-semipulito"),
    "variant-two-players": ("closer_holds_no_cards", "closer_saw_pozzetto"),
    "variant-reale": (
        "variant-reale", "whole_suit_runs_off", "whole_suit_runs_need_cards",
        "closing_needs_clean_burraco", "meld_sequences_only_reale", "card_not_in_deck"
    ),
    "variants": ("unknown_variant",),
    "variant-three-players": (
        "alone_needed", "alone_took_pozzetto", "unseen_lone_pozzetto", "nobody_took_pozzetto",
        "nobody_closed", "hand_needs_three_sides", "variant-three-players"
    ),
    "end": ("target_range", "hand_after_end", "match_finished", "end"),
    # A club night's setup codes are shared, and Burraco's tournaments hold their rules.
    "tournaments": ("event_pairs", "event_pairs_unreadable", "event_pair_name",
                    "event_pair_hidden", "event_pair_markup", "event_pair_twice",
                    "event_turns_unreadable"),
    "tournament-turn": ("tournament_hands", "tournament_pairs", "event_hands"),
    "tournament-victory-points": ("vp_table_needed", "vp_table_other_hands"),
    "tournament-club-table": (
        "vp_table_unreadable", "vp_table_name", "vp_table_hands", "vp_table_total",
        "vp_table_no_bands", "vp_table_too_many_bands", "vp_table_not_open",
        "vp_band_unreadable", "vp_band_points", "vp_band_line", "vp_band_starts_at_zero",
        "vp_band_draw_uneven", "vp_band_reversed", "vp_band_overlap", "vp_band_gap",
        "vp_band_after_open", "vp_band_loser_ahead", "vp_band_total", "vp_band_falls"
    ),
    "tournament-movements": (
        "event_movement", "event_turns", "mitchell_even_tables", "mitchell_step",
        "mitchell_step_unreadable", "step_mitchell_only"
    ),
    "tournament-bye": ("event_bye_vp",),
    "setup": ("dealing",),
    "scoring": (
        "scoring", "table_points_range", "hand_points_range", "unseen_pozzetto_points_range",
        "burracos_range", "total_range", "points_multiple_of_five", "side_needs_entry",
        "hand_needs_two_sides", "pozzetto_missing", "table_points_together",
        "hand_points_together", "side_points_exceed_cards", "total_missing",
        "side_meld_illegal", "side_hand_cards", "melds_unreadable", "melds_or_parts"
    ),
})

MESSAGES = {
    "swap_no_wildcard": _l("This meld has no wildcard to swap."),
    "swap_one_card": _l("Swap one card at a time for the wildcard."),
    "swap_wrong_card": _l("The wildcard stands for %(wanted)s: only that card can take its "
                          "place, not %(card)s."),
    "burracos_range": _l("%(side)s: the number of burracos must be from %(low)s to "
                         "%(high)s."),
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
    "closer_holds_no_cards": _l("%(side)s: closing lays down or discards every card, so "
                                "the closer holds none: the points in hand are 0."),
    "closer_saw_pozzetto": _l("%(side)s: the pozzetto closed from has been seen, so it "
                              "cannot be unseen."),
    "closing_needs_clean_burraco": _l("%(side)s: in Burraco Reale a side closes only with a "
                                      "clean burraco."),
    "whole_suit_runs_off": _l("%(side)s: burracos nobile and reale count only in Burraco "
                              "Reale."),
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
    "both_closed": _l("Only one side can close a hand."),
    "alone_needed": _l("Say who played alone with the 18-card pozzetto."),
    "tournament_hands": _l("A tournament match is %(low)s to %(high)s hands, not "
                           "%(value)s."),
    "tournament_pairs": _l("A tournament match is two pairs: four players, not %(count)s."),
    "vp_table_needed": _l("No Victory Points table ships for %(hands)s hands: give your "
                          "club's table."),
    "vp_table_other_hands": _l("This Victory Points table is for %(table)s hands, but the "
                               "match has %(hands)s."),
}

GAME = Game(
    slug="burraco", name="Burraco",
    tile=_l("Italian partnership rummy with pozzetti and burracos."),
    player_order=_l("List the players in the order of play, clockwise round the table: each "
                    "player's left-hand neighbour is the next one in the list. With four, "
                    "partners sit opposite: the 1st and 3rd play against the 2nd and 4th."),
    hand_from_form=_hand_from_form, context=context, draft_from_form=_draft,
    side_names=lambda match, form: side_names(match, draft_from_form(form, _panel(match))),
    checkers=(("burraco.meld", _l("Burraco: is this meld legal?")),),
    why=WHY, messages=MESSAGES,
    preset_field="variant",
    presets=(
        Preset("classic", _l("Classic"), _l("the Burraco rules text")),
        Preset("reale", _l("Burraco Reale"), _l("eburraco.com and giocodigitale.it"),
               _l("No jokers, sequences only; nobile +500 and reale +1000; closing only "
                  "with a clean burraco.")),
    ),
    pages=bp, api=api_bp,
    setup_examples=({"players": ["Anna", "Ben", "Carla", "Dario"], "options": {"hands": 3}},),
    hand_fields={
        "sides": SIDES_FIELD,
        "alone": (Seat | None, Field(None, description="Burraco with three players.")),
    },
    # A search of the rules that lands in this game's pozzetti.
    answer_examples={"SearchHits": {"hits": [{
        "game": "burraco", "lang": "en", "section": "pozzetti", "title": "The pozzetti",
        "snippet": "…of all the cards in their hand picks up one of the pozzetti (the other "
                   "belongs to the opponents)…", "marks": [[52, 60]],
        "url": "/rules/burraco?lang=en#pozzetti"}], "corrected": {}, "nearest": False}},
)
