"""A match as the API writes it: its standings with everything derived, and the one document
that keeps or moves it (export, import, and the import page's file)."""

from datetime import UTC, datetime

from flask_babel import gettext as _
from pydantic import ValidationError

import store
from scoring.errors import ScoringError
from scoring.games import GAMES
from scoring.players import verify_players

from ..json_bodies import BadRequest, parse_json
from ..loaders import scored
from ..refusals import describe
from ..titles import TitleRefused, verify_title
from ..urls import absolute_url
from . import models
from .contract import refusal_of


def _plain(value):
    """Tuples (of tuples) as JSON lists."""
    return [_plain(item) for item in value] if isinstance(value, tuple) else value


def standings_json(match: store.Match, editing: bool = True) -> dict:
    """A match as the API shows it: what was entered and everything derived from it; the
    edit link only to those who reached it by the edit token."""
    game, options, standings = scored(match)
    extra = {name: _plain(getattr(standings, name)) for name in ("pot", "chips", "net")
             if hasattr(standings, name)}
    if hasattr(standings, "victory_points"):
        extra |= {"victory_points": _plain(standings.victory_points),
                  "victory_points_table": standings.table.name}
    return {
        "id": match.id,
        "version": match.version,
        "game": match.game,
        "players": list(match.players),
        "options": options.to_dict(),
        "units": _plain(standings.units),
        **extra,
        "totals": list(standings.totals),
        "to_go": None if standings.to_go is None else list(standings.to_go),
        "finished": standings.finished,
        "winners": list(standings.winners),
        "losers": list(standings.losers),
        "dealer": standings.dealer,
        "leader": standings.leader,
        "hands": [game.row_json(options, row) for row in standings.rows],
        **_event_seat(match),
        **({"url": absolute_url("matches.show", token=match.token)} if editing else {}),
        "view_token": match.view_token,
        "view_url": absolute_url("share.view", view_token=match.view_token),
    }


def _event_seat(match: store.Match) -> dict:
    """Where a table's match sits in its club night, for a match that is one's."""
    seat = store.events.seat_of(store.get_db(), match)
    if seat is None:
        return {}
    return {"event": {"title": seat.event.title, "turn": seat.turn.number + 1,
                      "table": seat.table.number,
                      "screen_url": absolute_url("events.screen",
                                                 view_token=seat.event.view_token)}}


def setup_of(asked) -> tuple:
    """A match's game (its name and rules), players and options, as the rules accept them."""
    game = GAMES[asked.game]
    players = verify_players(asked.players, game.MIN_PLAYERS, game.MAX_PLAYERS)
    return asked.game, game, players, game.verify_options(asked.options, len(players))


# A match of 5,000 entries, each with its times, stays well under this: whatever a match
# exports can be imported again, through the API as on the import page.
DOCUMENT_LIMIT = 2 * 1024 * 1024
MATCH_FORMAT = "tablemate-match"


MATCH_FORMAT_VERSION = 1


def match_document(match: store.Match) -> dict:
    """A match as one document to keep or move: players, options and every entry with its
    status and times. No token: the document opens nothing."""
    return {"format": MATCH_FORMAT, "format_version": MATCH_FORMAT_VERSION,
            "game": match.game, "players": list(match.players), "options": match.options,
            "created_at": match.created_at, "title": match.title,
            "entries": store.match_entries(store.get_db(), match)}


def parse_document(raw: bytes):
    """The JSON in an uploaded or posted document; a hostile one (deeply nested, not
    UTF-8, with a lone surrogate) is refused like any other that is not JSON."""
    try:
        return parse_json(raw)
    except BadRequest:
        raise BadRequest(_("The file is not a match exported from Tablemate (it is not "
                           "JSON).")) from None


def validated_file(document, kind: str, version: int, model, not_ours: str):
    """A file's document read by ``model``, once it says it is of ``kind`` at ``version``;
    else a ``BadRequest`` with ``not_ours``, or naming the version or the field at fault."""
    if not isinstance(document, dict) or document.get("format") != kind:
        raise BadRequest(not_ours)
    found = document.get("format_version")
    if found != version:
        raise BadRequest(_("The file is in format %(version)s, but only format %(known)s "
                           "can be read.", version=str(found)[:10], known=version))
    try:
        return model.model_validate(document)
    except ValidationError as error:
        raise BadRequest(refusal_of(error)["error"]) from None


def read_match_document(document) -> dict:
    """Check a match document whole before anything is written (the import page's file):
    the arguments of ``store.import_match``; a refusal is a ``BadRequest`` or a
    ``ScoringError``."""
    checked = validated_file(document, MATCH_FORMAT, MATCH_FORMAT_VERSION,
                             models.MatchDocument,
                             _("The file is not a match exported from Tablemate."))
    return match_fields(checked)


def match_fields(checked: models.MatchDocument) -> dict:
    """A document of the right shape, checked by the rules: its players, options, every
    entry, and that the hands add up."""
    name, game, players, options = setup_of(checked)
    entries = [_entry(game, options, len(players), entry, position)
               for position, entry in enumerate(checked.entries, start=1)]
    _verify_hands_add_up(game, options, len(players), entries)
    return {"game": name, "players": players, "options": options.to_dict(),
            "created_at": stored_moment(checked.created_at), "entries": entries,
            "title": _title(checked.title)}


def _title(raw: str | None) -> str | None:
    """The match's own title, checked as a rename is; None where it has none (older files
    have no such field)."""
    try:
        return None if raw is None else verify_title(raw)
    except TitleRefused as refusal:
        raise BadRequest(str(refusal)) from None


def _entry(game, options, players: int, entry: models.Entry, position: int) -> dict:
    """One entry of a document, its hand checked by the game's rules (replaced and undone
    ones too: the history shows them)."""
    if entry.status != store.ACTIVE and entry.ended_at is None:
        raise BadRequest(_("Entry %(position)s was replaced or undone, but it does not say "
                           "when (“ended_at”).", position=position))
    try:
        hand = game.verify_hand(options, players, entry.data)
    except ScoringError as error:
        raise BadRequest(_("Entry %(position)s: %(reason)s", position=position,
                           reason=describe(error))) from None
    ended_at = None if entry.status == store.ACTIVE else stored_moment(entry.ended_at)
    return {"number": entry.number, "status": entry.status, "data": hand,
            "created_at": stored_moment(entry.created_at), "ended_at": ended_at}


def _verify_hands_add_up(game, options, players: int, entries) -> None:
    """The active entries are hands 1, 2, 3 … each once, and the rules accept them in turn."""
    active = sorted((entry for entry in entries if entry["status"] == store.ACTIVE),
                    key=lambda entry: entry["number"])
    if [entry["number"] for entry in active] != list(range(1, len(active) + 1)):
        raise BadRequest(_("The hands must be numbered 1, 2, 3 … each once, without gaps."))
    try:
        game.standings(options, players, [entry["data"] for entry in active])
    except ScoringError as error:
        raise BadRequest(_("The hands do not add up by the rules: %(reason)s",
                           reason=describe(error))) from None


def stored_moment(moment: datetime) -> str:
    """A time from the document, as the store writes times (UTC, to the second)."""
    return moment.astimezone(UTC).isoformat(timespec="seconds")
