"""The shapes of the JSON API's requests and answers (version 1), as pydantic models.

They say what a body holds and of which type; whether a hand or a meld is right by the rules
stays in ``scoring/``, which gets what the models let through. The OpenAPI document at
``/api/v1/openapi.json`` is generated from these models and the routes that name them.
"""

from datetime import UTC, datetime
from typing import Annotated, Any, Literal

from pydantic import (
    AfterValidator,
    AwareDatetime,
    BaseModel,
    BeforeValidator,
    ConfigDict,
    Field,
    PlainValidator,
    create_model,
)
from pydantic_core import PydanticCustomError

import rules_content
import store
from scoring.games import GAMES
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
    """A model's examples in the OpenAPI document: a request's are those of docs/api.md, and
    an answer's have the shape of a real answer; tests hold them to both."""
    return ConfigDict(json_schema_extra={"examples": list(bodies)})


def with_examples(model: type[BaseModel], games) -> type[BaseModel]:
    """A model shared by every game's matches, with the examples the games give of it (each
    game's ``answer_examples``, by the model's name)."""
    found = [game.answer_examples[model.__name__] for game in games
             if model.__name__ in game.answer_examples]
    return type(model.__name__, (model,), {"__module__": model.__module__,
                                            "__doc__": model.__doc__,
                                            "model_config": examples(*found)})


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


class BeyondQuota(Refusal):
    """A client that started or imported more matches than its quota in a while: wait the
    seconds of the answer's `Retry-After` before sending it again."""
    model_config = examples({"error": "Many matches were started from this network in a "
                                      "short time. Try again in 1 minute; nothing was saved."})


# --- The checkers ---------------------------------------------------------------------------


class MeldRefused(Answer):
    valid: Literal[False]
    kind: None
    points: None
    reason: str
    code: str


class Scores(Answer):
    model_config = examples({"scores": [410, 155]})
    scores: list[Points]


class Verdict(Answer):
    model_config = examples({"valid": True, "reason": None})
    valid: bool
    reason: str | None
    code: str | None = None


class SideByMeld(Body):
    """What a side of a rummy game may give in place of its points and bonus counts."""
    melds: list[list[CardCode] | str] | None = Field(
        None, max_length=40, description="In place of the points and bonus counts: the side's "
        "melds on the table, each a list of cards (or one line of text), checked as the meld "
        "checker checks them; their cards count and their bonuses are found.")
    in_hand: list[CardCode] | str | None = Field(
        None, max_length=120, description="With `melds`: the cards left in the side's hands.")


# --- Matches --------------------------------------------------------------------------------

GameName = Literal[tuple(GAMES)]
PlayerName = Annotated[str, Field(max_length=200)]


def setup_model(games) -> type[Body]:
    """The body that starts a match, with each game's example setups."""

    class MatchSetup(Body):
        model_config = examples(*({"game": game.slug, **body} for game in games
                                  for body in game.setup_examples))
        game: GameName
        players: list[PlayerName] = Field(max_length=16)
        options: dict[str, Any] = Field(
            {}, description="The game's options (see docs/api.md); a missing one takes its "
                            "default.")

    return MatchSetup


class MatchEvent(Answer):
    """Where a match is played in a club night."""
    title: str
    turn: int = Field(description="The turn, from 1.")
    table: int = Field(description="The table, from 1.")
    screen_url: str = Field(description="The room's screen of the night.")


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
    victory_points: list[int] | None = Field(
        None, description="A tournament match (`options.hands`): each side's Victory Points "
                          "after the last hand, in the order of `units`; null before it.")
    victory_points_table: str | None = Field(
        None, description="A tournament match: the name of the Victory Points table in use.")
    event: MatchEvent | None = Field(None, description="A table's match of a club night: "
                                                      "the night, turn and table.")
    url: str | None = Field(None, description="The players' link; only by the players' token.")
    view_token: str
    view_url: str


class MatchStarted(Standings):
    token: str = Field(description="The match's secret: its write key.")


def hand_model(games) -> type[Body]:
    """The body of a hand: every game's fields (views/games/), each optional, since the match's
    game decides which it reads; ``version`` is checked as every game's."""

    class Hand(Body):
        model_config = examples(*(body for game in games for body in game.hand_examples))
        version: Whole | None = None

    fields = {}
    for game in games:
        for name, field in game.hand_fields.items():
            fields.setdefault(name, field)
    return create_model("Hand", __base__=Hand, __doc__=HAND_DOC, **fields)


HAND_DOC = """The next hand or a correction, in the shape of the match's game; `version` names the
    match's version the client last saw (409 when it has moved on)."""


class UndoQuery(Body):
    # An address's query is text: its digits are the number.
    version: Annotated[int, Field(ge=-LARGEST, le=LARGEST)] | None = None


def _written_time(value):
    """A time as the document writes it, text: pydantic would read a number as seconds
    since 1970."""
    if not isinstance(value, str):
        raise PydanticCustomError("moment_type", "a time written as text (ISO 8601)")
    return value


def _in_utc_years(value: datetime) -> datetime:
    """A time the store can write: in UTC, as it writes times, still within the years 1 to
    9999 (its offset can carry one from either end past it)."""
    try:
        value.astimezone(UTC)
    except OverflowError:
        raise PydanticCustomError("moment_range", "a time within the years 1 to 9999 in UTC") \
            from None
    return value


Moment = Annotated[AwareDatetime, BeforeValidator(_written_time), AfterValidator(_in_utc_years),
                   Field(description="A time with its time zone (ISO 8601), within the years 1 "
                                     "to 9999 in UTC.",
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

