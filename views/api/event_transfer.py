"""A club night as one document: the organiser exports it whole (setup, codes, each turn's
seating and each table's match with its entries and confirmations) and imports it elsewhere
as a new night with links of its own, checked whole by the rules before anything is written.
The pages' file and the API read and write the same document."""

from dataclasses import asdict
from typing import Annotated, Any, Literal

from flask import jsonify
from flask_babel import gettext as _
from pydantic import BaseModel, ConfigDict, Field
from werkzeug.utils import secure_filename

import store
from scoring.errors import ScoringError
from scoring.games import tournament_games
from scoring.values import LARGEST

from ..json_bodies import BadRequest, parse_json
from ..loaders import get_event_or_404
from ..nights import PLAYERS, night_setup, night_title, tournament_options
from ..refusals import describe
from ..titles import TitleRefused
from ..urls import absolute_url
from . import models
from .contract import COUNTED, REFUSED, api, checked, json_blueprint, refused
from .documents import DOCUMENT_LIMIT, match_document, match_fields, stored_moment, validated_file

NIGHT_FORMAT = "tablemate-club-night"
NIGHT_FORMAT_VERSION = 1
Version = Annotated[int, Field(strict=True, ge=0, le=LARGEST)]
Numbered = Annotated[int, Field(strict=True, ge=1, le=999)]
Pair = Annotated[int, Field(strict=True, ge=0, le=999)]
Code = Annotated[str, Field(min_length=1, max_length=16)]

EXAMPLE = {
    "format": NIGHT_FORMAT, "format_version": NIGHT_FORMAT_VERSION,
    "game": tournament_games()[0], "title": "Friday club night",
    "setup": {"pairs": ["Anna & Carla", "Bruno & Dario", "Elena & Fabio", "Gina & Hugo"],
              "movement": "mitchell", "turns": 2, "hands": 3, "step": 1, "bye_vp": 12,
              "victory_points": "FIBUR"},
    "codes": ["ACDE", "FHJK", "LMNP", "RTUV"], "created_at": "2025-05-01T19:00:00+00:00",
    "turns": [],
}


class NightFileEntry(models.Entry):
    version: Version | None = Field(None, description="The match's version this entry "
                                                      "was made at.")
    ended_version: Version | None = Field(None, description="The match's version this entry "
                                                            "was replaced or undone at.")


class NightFileMatch(models.MatchDocument):
    """A table's match as a match's export holds it, with the versions of its changes."""
    version: Version
    entries: list[NightFileEntry] = Field(max_length=store.MAX_ENTRIES)


class NightFileConfirmation(models.Body):
    side: Literal[0, 1] | None = Field(description="0: North–South, 1: East–West, null: "
                                                   "the organiser.")
    kind: Literal["confirmed", "reopened"]
    version: Version = Field(description="The match's version the confirmation was made "
                                         "at: it counts if no hand changed after it.")
    made_at: models.Moment


class NightFileSeating(models.Body):
    tables: list[Annotated[list[Pair], Field(min_length=2, max_length=2)]] = Field(
        max_length=500, description="Each table's (North–South, East–West) pairs, by their "
                                    "place in `setup.pairs` from 0.")
    bye: Pair | None = None


class NightFileTable(models.Body):
    table: Numbered
    match: NightFileMatch
    confirmations: list[NightFileConfirmation] = Field(max_length=1000)


class NightFileTurn(models.Body):
    turn: Numbered
    seating: NightFileSeating
    opened_at: models.Moment
    tables: list[NightFileTable] = Field(max_length=500)


class NightFile(BaseModel):
    """A whole club night to keep or move: its organiser's codes, but no link."""
    model_config = models.examples(EXAMPLE) | ConfigDict(extra="ignore")
    format: Literal["tablemate-club-night"]
    format_version: Literal[1]
    game: models.GameName
    title: str = Field(max_length=200)
    setup: dict[str, Any] = Field(description="The organiser's setup, as a night is started "
                                              "with it.")
    codes: list[Code] = Field(max_length=1000, description="Each pair's code.")
    created_at: models.Moment
    turns: list[NightFileTurn] = Field(max_length=99)


class NightImported(models.Answer):
    model_config = models.examples({
        "title": "Friday club night", "token": "1yN2gkQe0r4Yb9cWmVt3hA5sXfLpJz7u",
        "url": "https://scores.example.org/e/1yN2gkQe0r4Yb9cWmVt3hA5sXfLpJz7u",
        "view_token": "Qm8rT2vX9cLp4bNz7aHs1kWd3fGy6jEu",
        "view_url": "https://scores.example.org/s/Qm8rT2vX9cLp4bNz7aHs1kWd3fGy6jEu"})
    title: str
    token: str = Field(description="The organiser's secret link's token.")
    url: str
    view_token: str = Field(description="The room screen's watch-only token.")
    view_url: str


# --- The document -------------------------------------------------------------------------

def night_document(event: store.events.Event) -> dict:
    """The night as one document: setup, codes, each turn's seating, and each table's match
    as a match's export holds it, with the versions its confirmations are told by."""
    entries = store.events.night_entries(store.get_db(), event)
    return {
        "format": NIGHT_FORMAT, "format_version": NIGHT_FORMAT_VERSION, "game": event.game,
        "title": event.title, "setup": event.setup, "codes": list(event.codes),
        "created_at": event.created_at,
        "turns": [{"turn": turn.number + 1, "seating": turn.seating,
                   "opened_at": turn.opened_at,
                   "tables": [{"table": table.number,
                               "match": {**match_document(table.match),
                                         "version": table.match.version,
                                         "entries": entries.get(table.match.id, [])},
                               "confirmations": [asdict(made) for made in table.confirmations]}
                              for table in turn.tables]}
                  for turn in event.turns]}


def file_name(event: store.events.Event) -> str:
    """The night's files are named after it and its day: "Friday_club_night-2025-05-01"."""
    return f"{secure_filename(event.title) or 'club-night'}-{event.created_at[:10]}"


def parse_night(raw: bytes):
    """The JSON of an uploaded or posted night; anything else is refused as not JSON."""
    try:
        return parse_json(raw)
    except BadRequest:
        raise BadRequest(_("The file is not a club night exported from Tablemate (it is not "
                           "JSON).")) from None


def read_night_document(document) -> dict:
    """Check a night document whole before anything is written (the import page's file):
    the arguments of ``store.events.import_event``; a refusal is a ``BadRequest`` or a
    ``ScoringError``."""
    found = validated_file(document, NIGHT_FORMAT, NIGHT_FORMAT_VERSION, NightFile,
                           _("The file is not a club night exported from Tablemate."))
    return night_fields(found)


def night_fields(found: NightFile) -> dict:
    """A night document of the right shape, checked by the rules: its setup, a code for
    each pair, every turn seating each pair once, and each table's match a match of the
    night whose hands the game's rules accept."""
    game = found.game
    if game not in tournament_games():
        raise BadRequest(_("Club nights are not played in this game."))
    try:
        title = night_title(found.title)
    except TitleRefused as refusal:
        raise BadRequest(str(refusal)) from None
    setup = night_setup(game, found.setup)
    if len(found.codes) != len(setup["pairs"]):
        raise BadRequest(_("The file must hold one code for each pair."))
    if len(found.turns) > setup["turns"]:
        raise BadRequest(_("The file holds more turns than the club night plays."))
    options = tournament_options(game, found.setup).to_dict()
    turns = []
    for number, turn in enumerate(found.turns, start=1):
        if turn.turn != number or [table.table for table in turn.tables] != list(
                range(1, len(turn.tables) + 1)):
            raise BadRequest(_("The turns and their tables must be numbered 1, 2, 3 … in "
                               "order."))
        seating = turn.seating
        seated = [pair for pairs in seating.tables for pair in pairs]
        if sorted(seated + [seating.bye] * (seating.bye is not None)) != list(
                range(len(setup["pairs"]))):
            raise BadRequest(_("Turn %(turn)s must seat each pair of the club night once.",
                               turn=number))
        if len(seating.tables) != len(turn.tables):
            raise BadRequest(_("Turn %(turn)s must have a match for each table it seats.",
                               turn=number))
        turns.append({"seating": seating.model_dump(), "opened_at": stored_moment(turn.opened_at),
                      "tables": [_table_fields(game, options, number, table)
                                 for table in turn.tables]})
    return {"game": game, "title": title, "setup": setup, "codes": found.codes,
            "created_at": stored_moment(found.created_at), "turns": turns}


def _table_fields(game: str, options: dict, turn: int, table: NightFileTable) -> dict:
    """A table's match checked as a match's import is, played as the night plays them, and
    its confirmations."""
    where = {"turn": turn, "table": table.table}
    try:
        fields = match_fields(table.match)
    except ScoringError as error:
        raise BadRequest(_("Turn %(turn)s, table %(table)s: %(reason)s",
                           reason=describe(error), **where)) from None
    except BadRequest as error:
        raise BadRequest(_("Turn %(turn)s, table %(table)s: %(reason)s", reason=str(error),
                           **where)) from None
    if (fields["game"], fields["options"], len(fields["players"])) != (game, options, PLAYERS):
        raise BadRequest(_("Turn %(turn)s, table %(table)s is not a match of the club night's "
                           "game, games a turn and Victory Points table.", **where))
    entries = [{**entry, "version": sent.version, "ended_version": sent.ended_version}
               for entry, sent in zip(fields["entries"], table.match.entries)]
    return {"match": {**fields, "entries": entries, "version": table.match.version},
            "confirmations": [{**made.model_dump(), "made_at": stored_moment(made.made_at)}
                              for made in table.confirmations]}


def imported_json(event: store.events.Event) -> dict:
    """A night just imported: its new links."""
    return {"title": event.title, "token": event.token,
            "url": absolute_url("events.organiser", token=event.token),
            "view_token": event.view_token,
            "view_url": absolute_url("events.screen", view_token=event.view_token)}


# --- The API ------------------------------------------------------------------------------

bp = json_blueprint("api_event_transfer", __name__, files={"import_event": parse_night},
                    file_limit=DOCUMENT_LIMIT)


@bp.get("/events/<string(minlength=16):token>/export")
@api.validate(resp=refused(403, 404, HTTP_200=NightFile), tags=["events"])
def export_event(token):
    """A whole club night as one document

    By the organiser's token. ``POST /api/v1/events/import`` reads it back; it holds the
    pairs' codes but no link."""
    event = get_event_or_404(token)
    response = jsonify(night_document(event))
    response.headers["Content-Disposition"] = f'attachment; filename="{file_name(event)}.json"'
    return response


@bp.post("/events/import")
@api.validate(json=NightFile, resp=refused(*REFUSED, HTTP_201=NightImported,
                                               **COUNTED), tags=["events"])
def import_event():
    """Import a club night

    A night exported elsewhere, as a new night with links of its own. The document is
    checked whole first; nothing is created when any of it fails."""
    event = store.events.import_event(store.get_db(), **night_fields(checked()))
    return jsonify(imported_json(event)), 201
