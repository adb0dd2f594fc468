"""The shapes of the club night's requests and answers in the JSON API (version 1), as
pydantic models: the setup that starts a night, the night's document as the organiser and
the room's screen read it, and the confirmations of a table's result.

Whether a setup is right (the pairs, a movement's turns, a club's table of Victory Points)
is the rules' to say (``scoring.tournament``), after these models checked its shape.
"""

from typing import Annotated, Any, Literal

from pydantic import Field

from scoring.movements import MAX_PAIRS, Movement

from ..nights import CONFIRMED, FIBUR, NOT_STARTED, PLAYING, TO_CONFIRM
from ..titles import TITLE_LIMIT
from .models import Answer, Body, Points, Whole, examples

PairNumber = Annotated[int, Field(ge=1, description="A pair's number: its place in the "
                                                    "setup's `pairs`, from 1.")]
ORGANISER = "organiser"

# The night of docs/api.md: four pairs, two tables, two turns of three hands.
SETUP_EXAMPLE = {"title": "Friday club", "pairs": ["Anna & Carla", "Bruno & Dario",
                                                   "Elena & Fabio", "Gina & Hugo"],
                 "movement": "mitchell", "turns": 2, "hands": 3}
CLUB_TABLE_EXAMPLE = {
    "pairs": ["Rossi", "Bianchi", "Verdi", "Neri", "Gallo", "Conti"], "movement": "danish",
    "turns": 3, "hands": 4, "bye_vp": 12,
    "victory_points": {"name": "Club 4", "hands": 4, "bands": [
        {"from": 0, "to": 100, "vp": [10, 10]}, {"from": 105, "to": 600, "vp": [14, 6]},
        {"from": 605, "to": None, "vp": [20, 0]}]}}

# Answers as the organiser reads the night of SETUP_EXAMPLE: table 1 of turn 1 confirmed by
# both pairs, table 2 still playing.
SERVER = "http://127.0.0.1:5000"
TABLE_EXAMPLE = {
    "turn": 1, "number": 1, "north_south": {"number": 1, "name": "Anna & Carla"},
    "east_west": {"number": 3, "name": "Elena & Fabio"}, "state": "confirmed", "game": 3,
    "games": 3, "confirmed_by": [1, 3], "match_points": [1230, 465],
    "victory_points": [16, 4], "version": 5, "token": "Tb8yLwD0pVf2kZs9mN4aHcE7uJ1gQx3r",
    "url": f"{SERVER}/m/Tb8yLwD0pVf2kZs9mN4aHcE7uJ1gQx3r",
    "view_url": f"{SERVER}/v/Kp2qRn5tXz8cLb3mYd6fGj9sWa4eVw7h"}
TURN_EXAMPLE = {"number": 1, "tables": [TABLE_EXAMPLE, {
    **TABLE_EXAMPLE, "number": 2, "north_south": {"number": 2, "name": "Bruno & Dario"},
    "east_west": {"number": 4, "name": "Gina & Hugo"}, "state": "playing", "game": 2,
    "confirmed_by": [], "match_points": None, "victory_points": None, "version": 1,
    "token": "Zs9mN4aHcE7uJ1gQx3rTb8yLwD0pVf2k",
    "url": f"{SERVER}/m/Zs9mN4aHcE7uJ1gQx3rTb8yLwD0pVf2k",
    "view_url": f"{SERVER}/v/Xz8cLb3mYd6fGj9sWa4eVw7hKp2qRn5t"}], "bye": None,
    "complete": False}
STANDINGS_EXAMPLE = {"standings": [
    {"rank": 1, "pair": 1, "name": "Anna & Carla", "victory_points": 16,
     "match_points": 1230, "played": 1, "byes": 0},
    {"rank": 2, "pair": 3, "name": "Elena & Fabio", "victory_points": 4,
     "match_points": 465, "played": 1, "byes": 0},
    {"rank": 3, "pair": 2, "name": "Bruno & Dario", "victory_points": 0,
     "match_points": 0, "played": 0, "byes": 0},
    {"rank": 3, "pair": 4, "name": "Gina & Hugo", "victory_points": 0,
     "match_points": 0, "played": 0, "byes": 0}],
    "standings_after_turn": [], "finished": False}
FIBUR_BANDS = ((0, 50), (55, 150), (155, 250), (255, 350), (355, 500), (505, 650),
               (655, 800), (805, 1000), (1005, 1250), (1255, 1500), (1505, None))
DOCUMENT_EXAMPLE = {
    "title": "Friday club", "token": "Fq2Lm8Rt4Xw9Bz3Nc7Vh1Kd6Jp5Sg0Ya",
    "view_token": "Hs4Wq7Ne2Rb9Tk5Lm1Xc8Vz3Pd6Gj0Fa",
    "links": {"organiser": f"{SERVER}/e/Fq2Lm8Rt4Xw9Bz3Nc7Vh1Kd6Jp5Sg0Ya",
              "screen": f"{SERVER}/s/Hs4Wq7Ne2Rb9Tk5Lm1Xc8Vz3Pd6Gj0Fa"},
    "setup": {"movement": "mitchell", "turns": 2, "hands": 3, "step": 1, "bye_vp": 12,
              "victory_points": {"name": FIBUR, "hands": 3, "total": 20, "bands": [
                  {"from": low, "to": high, "vp": [10 + band, 10 - band]}
                  for band, (low, high) in enumerate(FIBUR_BANDS)]}},
    "pairs": [{"number": number, "name": name, "code": code} for number, (name, code)
              in enumerate(zip(SETUP_EXAMPLE["pairs"], ("K7RX", "M3TA", "W9HC", "P4LE")),
                           start=1)],
    "current_turn": 1, "turns": [TURN_EXAMPLE], **STANDINGS_EXAMPLE}


class NightSetup(Body):
    """The body that starts a club night; its first turn opens at once."""
    model_config = examples(SETUP_EXAMPLE, CLUB_TABLE_EXAMPLE)
    title: str | None = Field(None, max_length=TITLE_LIMIT,
                              description="Shown on every page of the night; "
                                          "\"Club night\" when left out.")
    pairs: list[Annotated[str, Field(max_length=200)]] = Field(
        max_length=MAX_PAIRS, description="The pairs' names in their numbered order; "
                                          "\"Anna & Carla\" seats Anna and Carla.")
    movement: Literal[tuple(Movement)]
    turns: Whole
    hands: Whole = Field(description="Hands a turn: 2 to 4.")
    step: Whole = Field(1, description="Mitchell: how many tables East–West pairs move up.")
    bye_vp: Whole | None = Field(None, description="What a bye scores; 12 Victory Points "
                                                   "when left out.")
    victory_points: Literal[FIBUR] | dict[str, Any] = Field(
        FIBUR, description="`\"FIBUR\"` (3 or 4 hands), or a club's own table: `name`, "
                           "`hands`, `total` and `bands` (`from`, `to`, `vp`), as the "
                           "export writes it.")


class PairShown(Answer):
    number: PairNumber
    name: str


class NightPair(PairShown):
    code: str | None = Field(None, description="The pair's code, with which it confirms its "
                                               "tables' results: in the organiser's "
                                               "document only.")


class NightTable(Answer):
    """One table of a turn: its pairs, its match and where its result stands."""
    model_config = examples(TABLE_EXAMPLE)
    turn: int = Field(description="The turn, from 1.")
    number: int = Field(description="The table, from 1.")
    north_south: PairShown
    east_west: PairShown
    state: Literal[NOT_STARTED, PLAYING, TO_CONFIRM, CONFIRMED]
    game: int = Field(description="The game being played, from 1; the last one once "
                                  "finished.")
    games: int
    confirmed_by: list[PairNumber | Literal[ORGANISER]] = Field(
        description="The pairs whose confirmation stands, and `\"organiser\"` when the "
                    "organiser confirmed for the table.")
    match_points: list[Points] | None = Field(description="North–South's and East–West's, "
                                                          "once the last game is in.")
    victory_points: list[int] | None
    version: int = Field(description="The match's version: the one to confirm.")
    token: str | None = Field(None, description="The match's secret, its write key: in the "
                                                "organiser's document only.")
    url: str | None = Field(None, description="The table's score sheet: in the organiser's "
                                              "document only.")
    view_url: str


class NightTurn(Answer):
    model_config = examples(TURN_EXAMPLE)
    number: int = Field(description="The turn, from 1.")
    tables: list[NightTable] = Field(description="The seating, with each table's result.")
    bye: PairShown | None = Field(description="The pair sitting this turn out.")
    complete: bool = Field(description="Every table's result counts.")


class Standing(Answer):
    rank: int
    pair: PairNumber
    name: str
    victory_points: int
    match_points: Points
    played: int
    byes: int


class NightStandings(Answer):
    model_config = examples(STANDINGS_EXAMPLE)
    standings: list[Standing] = Field(description="Live: from every result that counts.")
    standings_after_turn: list[list[Standing]] = Field(
        description="After each turn that is complete along with every turn before it.")
    finished: bool


class NightLinks(Answer):
    organiser: str | None = Field(None, description="The organiser's page: in the "
                                                    "organiser's document only.")
    screen: str = Field(description="The room's screen, which only watches.")


class NightSetupShown(Answer):
    movement: Literal[tuple(Movement)]
    turns: int
    hands: int
    step: int
    bye_vp: int
    victory_points: dict[str, Any] = Field(description="The table in use, as a setup "
                                                       "gives a club's own.")


class NightDocument(NightStandings):
    """A club night. By the organiser's token it holds the pairs' codes and the tables'
    match tokens and sheets; by the screen's view token it only watches."""
    model_config = examples(DOCUMENT_EXAMPLE)
    title: str
    token: str | None = Field(None, description="The organiser's secret: in the "
                                                "organiser's document only.")
    view_token: str
    links: NightLinks
    setup: NightSetupShown
    pairs: list[NightPair]
    current_turn: int = Field(description="The turn being played, from 1; the last once "
                                          "every turn is complete.")
    turns: list[NightTurn] = Field(description="Every turn opened so far.")


class TableConfirmation(Body):
    """The organiser confirms a table's result for both pairs."""
    model_config = examples({"version": 3}, {})
    version: Whole | None = Field(None, description="The match's version the organiser saw: "
                                                    "409 when its result changed since.")


class Reopening(Body):
    """The organiser takes a table's result back; the body is empty."""
    model_config = examples({})


class PairConfirmation(Body):
    """A pair confirms its table's result with its code."""
    model_config = examples({"side": 0, "code": "K7RX", "version": 3})
    side: Literal[0, 1] = Field(description="0: North–South, 1: East–West.")
    code: str = Field(max_length=40, description="The pair's code, from the organiser.")
    version: Whole = Field(description="The match's version the pair saw: 409 when its "
                                       "result changed since.")
