"""The shapes of the JSON API's requests and answers (version 1), as pydantic models.

They say what a body holds and of which type; whether a hand or a meld is right by the rules
stays in ``scoring/``, which gets what the models let through. The OpenAPI document at
``/api/v1/openapi.json`` is generated from these models and the routes that name them.
"""

from typing import Annotated, Any, Literal

from pydantic import AwareDatetime, BaseModel, ConfigDict, Field, PlainValidator, RootModel
from pydantic_core import PydanticCustomError

import rules_content
import store
from scoring.values import LARGEST

# JSON's numbers as the app reads them: whole, never a bool or a string of digits, and at
# most nine digits (scoring.values.LARGEST), so SQLite and the sheets stay far off their limits.
Whole = Annotated[int, Field(strict=True, ge=-LARGEST, le=LARGEST)]
Seat = Annotated[Whole, Field(description="A seat: an index into `players`, from 0.")]
# A Burraco partner's share may be a half (152.5).
Points = Whole | float
Flag = Annotated[bool, Field(strict=True)]
CardCode = Annotated[str, Field(max_length=8, examples=["QH", "10S", "JK", "3♥"])]


MAX_CARDS = 120  # more than two packs: the rules refuse what no table holds


def _cards_shape(value):
    """Cards as a list of codes or typed as one string (``"3♥ 4♥ 5♥"``); whether they are
    cards is for ``scoring.cards`` to say, with its code."""
    if isinstance(value, str) and len(value) <= 8 * MAX_CARDS:
        return value
    if (isinstance(value, list) and len(value) <= MAX_CARDS
            and all(isinstance(code, str) and len(code) <= 8 for code in value)):
        return value
    raise PydanticCustomError("cards_type", "a list of card codes or a string of cards")


Cards = Annotated[list[str] | str,
                  PlainValidator(_cards_shape, json_schema_input_type=list[CardCode] | str)]


def examples(*bodies: dict) -> ConfigDict:
    """A request model's examples in the OpenAPI document: those of docs/api.md, which a test
    holds to them."""
    return ConfigDict(json_schema_extra={"examples": list(bodies)})


class Body(BaseModel):
    """A request body: a field the endpoint does not know is refused, not ignored (a typo
    would otherwise pass as a missing field)."""
    model_config = ConfigDict(extra="forbid")


class Answer(BaseModel):
    model_config = ConfigDict(extra="forbid")


class FieldRefusal(Answer):
    path: str = Field(description="Where in the request: fields and list positions joined "
                                  "by dots, e.g. `sides.0.pozzetto`.")
    error: str


class Refusal(Answer):
    """Every 4xx answer."""
    error: str = Field(description="The reason, in the request's language.")
    code: str | None = Field(None, description="A broken rule's stable code, e.g. "
                                               "`must_follow_suit`.")
    fields: list[FieldRefusal] | None = Field(
        None, description="A body of the wrong shape: each field refused, with its path.")


# --- The checkers ---------------------------------------------------------------------------

class BurroTrickCheck(Body):
    model_config = examples({"deck": "40", "plays": ["5H", "JH", "2H", "7H"]})
    deck: str | int | None = Field(None, description="`\"40\"` (default), `\"48\"` or `\"52\"`.")
    plays: list[CardCode | None] = Field(
        max_length=16, description="The lead first; `null` for a player who passed.")


class BurroTrickVerdict(Answer):
    winner: int
    card: str
    suit: str
    leads_next: int
    passed: list[int]
    reason: str


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


class MeldRefused(Answer):
    valid: Literal[False]
    kind: None
    points: None
    reason: str
    code: str


class BurracoMeldRefused(MeldRefused):
    burraco: None


class BurracoMeldVerdict(BurracoReading):
    valid: Literal[True]
    points: int
    reason: None
    readings: list[BurracoReading]


class BurracoMeldAnswer(RootModel[BurracoMeldVerdict | BurracoMeldRefused]):
    """A legal meld with its best reading, or the reason it is not one."""


class BurracoSide(Body):
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
         "pozzetto": "taken", "closed": False}]})
    sides: list[BurracoSide] = Field(max_length=3)
    alone: Seat | None = Field(None, description="Three players: the one who played alone, "
                                                 "or `null` when nobody ran out.")
    options: BurracoMeldOptions = BurracoMeldOptions()


class Scores(Answer):
    scores: list[Points]


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


class BuracoSide(Body):
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
         "hand_points": 25, "dead_pile": "taken", "went_out": False}]})
    sides: list[BuracoSide] = Field(max_length=3)
    options: BuracoOptions = BuracoOptions()


class BuraClaimCheck(Body):
    model_config = examples({"cards": ["AS", "10S", "KH"], "pot": 4})
    cards: Cards
    pot: Whole | None = Field(None, description="The pot before the claim.")


class BuraClaimVerdict(Answer):
    points: int
    valid: bool
    claimant: int | None = Field(None, description="With `pot`: what the claimant gains.")
    pot: int | None = Field(None, description="With `pot`: the pot afterwards.")


Suit = Annotated[str, Field(max_length=2, examples=["H", "♥"])]


class BuraTrickCheck(Body):
    model_config = examples({"trump": "H", "front": ["KC", "9C"], "response": ["AC", "6H"]})
    trump: Suit
    front: Cards
    response: Cards


class BuraTrickVerdict(Answer):
    beats: bool
    pairs: list[Annotated[list[str], Field(min_length=2, max_length=2)]] | None = Field(
        description="Each card in front with the card that beats it.")
    unbeaten: list[str]


class BuraLeadCheck(Body):
    model_config = examples({"cards": ["KC", "9C"]})
    cards: Cards
    declared: str | None = Field(None, description="`three_aces` to lead three aces.")


class Verdict(Answer):
    valid: bool
    reason: str | None
    code: str | None = None


class BuraCombinationOptions(Body):
    little_moscow: Flag = False
    three_aces_win: Flag = False
    moscow: Flag = False


class BuraCombinationCheck(Body):
    model_config = examples({"trump": "H", "cards": ["6H", "9H", "AH"]})
    trump: Suit
    cards: Cards
    options: BuraCombinationOptions = BuraCombinationOptions()


class BuraCombination(Answer):
    combination: Literal["bura", "three_aces", "molodka", "little_moscow"] | None
    wins_pot: bool
    led_together: bool


# --- Matches --------------------------------------------------------------------------------

GameName = Literal["burro", "burraco", "buraco", "bura", "burkosel"]
PlayerName = Annotated[str, Field(max_length=200)]


class MatchSetup(Body):
    model_config = examples({"game": "burro", "players": ["Anna", "Ben", "Carla"],
                              "options": {"limit": 5}})
    game: GameName
    players: list[PlayerName] = Field(max_length=16)
    options: dict[str, Any] = Field(
        {}, description="The game's options (see docs/api.md); a missing one takes its default.")


class Standings(Answer):
    """A match and everything derived from what was entered."""
    id: int
    version: int = Field(description="Counts up with every change; the answer's ETag is "
                                     "`W/\"v<version>\"`.")
    game: GameName
    players: list[str]
    options: dict[str, Any]
    units: list[list[int]] = Field(description="The seats behind each total.")
    totals: list[Points]
    to_go: list[Points] | None
    finished: bool
    winners: list[int]
    losers: list[int]
    dealer: int | None
    leader: int | None
    hands: list[dict[str, Any]] = Field(description="Each hand as entered, with its `number`, "
                                                    "`dealer` and the running `totals`.")
    pot: int | None = Field(None, description="Bura: the pot after the last game.")
    chips: list[int] | None = Field(None, description="Bura: each player's chips.")
    net: list[int] | None = Field(None, description="Bura: each player's winnings.")
    url: str | None = Field(None, description="The players' link; only by the players' token.")
    view_token: str
    view_url: str


class MatchStarted(Standings):
    token: str = Field(description="The match's secret: its write key.")


class Hand(Body):
    """The next hand or a correction, in the shape of the match's game; `version` names the
    match's version the client last saw (409 when it has moved on)."""
    model_config = examples({"burro": 2}, {"burro": 0}, {"winner": 0},
                            {"outcome": "right_claim", "player": 1})
    version: Whole | None = None
    burro: Seat | None = Field(None, description="Burro: the player left with cards.")
    winner: Seat | None = Field(None, description="Portuguese Burro, Cangkul: the first out.")
    sides: list[dict[str, Any]] | None = Field(
        None, max_length=3, description="Burraco, Buraco: one entry per side, as "
                                        "`POST /api/v1/burraco/hand` and `/buraco/hand` take.")
    alone: Seat | None = Field(None, description="Burraco with three players.")
    outcome: str | None = Field(None, description="Bura: how the game ended (`right_claim`, "
                                                  "`wrong_claim`, `bura`, `no_claim`, `claim`, "
                                                  "`moscow`, `three_aces`).")
    player: Seat | None = Field(None, description="Bura: who claimed or showed.")
    cards: Cards | None = Field(None, description="Bura, outcome `claim`: the claimant's "
                                                  "trick cards.")
    card_points: list[Whole] | None = Field(None, max_length=4, description="Burkosel.")
    tricks: list[Whole] | None = Field(None, max_length=4, description="Burkosel.")
    instant_win: Seat | None = Field(None, description="Burkosel: the side that won at once.")


class UndoQuery(Body):
    # An address's query is text: its digits are the number.
    version: Annotated[int, Field(ge=-LARGEST, le=LARGEST)] | None = None


Moment = Annotated[AwareDatetime, Field(description="A time with its time zone (ISO 8601).",
                                        examples=["2025-05-01T19:02:11+00:00"])]


class Entry(Body):
    number: Annotated[int, Field(strict=True, ge=1, le=store.MAX_ENTRIES)]
    status: Literal["active", "replaced", "undone"]
    data: dict[str, Any] = Field(description="The hand as entered.")
    created_at: Moment
    ended_at: Moment | None = Field(None, description="When a replaced or undone entry "
                                                     "ended; `null` for an active one.")


class MatchDocument(BaseModel):
    """A whole match to keep or move; it holds no token."""
    model_config = ConfigDict(extra="ignore")
    format: Literal["tablemate-match"]
    format_version: Literal[1]
    game: GameName
    players: list[PlayerName] = Field(max_length=16)
    options: dict[str, Any] = {}
    created_at: Moment
    title: str | None = None
    entries: list[Entry] = Field(max_length=store.MAX_ENTRIES)


class SearchQuery(Body):
    q: str = Field("", description="Words or parts of words, three letters and more.")
    lang: Literal[rules_content.LANGUAGES] | None = None
    game: Literal[rules_content.GAMES] | None = None


class SearchHit(Answer):
    game: str
    lang: str
    section: str
    title: str
    snippet: str
    marks: list[Annotated[list[int], Field(min_length=2, max_length=2)]] = Field(
        description="The matched characters of `snippet`, as [start, end] offsets.")
    url: str


class SearchHits(Answer):
    hits: list[SearchHit]
    corrected: dict[str, str] = Field(description="Each misspelt word and the word searched "
                                                  "in its place.")
    nearest: bool = Field(description="No section holds a word of the query: the hits are "
                                      "the sections most like it.")

