"""The JSON API's club nights: start one, read it as the organiser or as the room's screen,
and confirm or reopen a table's result, for the organiser or for a pair with its code.

The organiser's token is the night's write key, as on the organiser's page; the screen's
view token only reads, and its documents hold neither the pairs' codes nor the tables'
match tokens. Each table is an ordinary match: its hands go through ``/api/v1/matches``.
"""

from flask import abort, jsonify

import store
from scoring.victory_points import as_data

from ..json_bodies import BadRequest
from ..loaders import get_event_or_404, get_match_or_404
from ..nights import (
    CONFIRMED,
    NightView,
    TableState,
    confirm_result,
    night_game,
    night_of,
    night_setup,
    night_title,
    open_seated_turns,
    seat_at,
)
from ..titles import TitleRefused
from ..urls import absolute_url
from . import event_models as models
from .contract import COUNTED, REFUSED, api, checked, json_blueprint, refused
from .matches import creation_key

bp = json_blueprint("api_events", __name__)
EVENT = "/events/<string(minlength=16):token>"
TABLE = f"{EVENT}/turns/<int:turn>/tables/<int:table>"
TAGS = ["club nights"]
# A confirmation sent with the screen's link (403), or one the rules refuse: the table is
# still playing or the code is not the pair's (422), the result changed since (409).
CONFIRMING = (*REFUSED, 403, 404, 409, 422)


@bp.post("/events")
@api.validate(json=models.NightSetup,
              resp=refused(*REFUSED, HTTP_201=models.NightDocument, **COUNTED), tags=TAGS)
def create_event():
    """Start a club night

    Checked as the new night's form checks it; its first turn opens at once, one match a
    table. Answers with the organiser's document. Sent again by the same client with the
    same ``Idempotency-Key`` and body, it answers with the same night."""
    db, key = store.get_db(), creation_key()
    event = store.events.event_created_with(db, key)
    if event is None:
        asked = checked()
        # A setup as the page stores it; a bye's Victory Points left out take the rules'.
        game = night_game()
        setup = night_setup(game, asked.model_dump(mode="json", exclude={"title"},
                                                   exclude_none=True))
        try:
            title = night_title(asked.title)
        except TitleRefused as refusal:
            raise BadRequest(str(refusal)) from None
        event = store.events.create_event(db, game, title, setup, key=key)
    return jsonify(night_document(open_seated_turns(db, event), True)), 201


@bp.get(EVENT)
@api.validate(resp=refused(404, HTTP_200=models.NightDocument), tags=TAGS)
def show_event(token):
    """A club night

    By the organiser's token: with the pairs' codes and each table's match token and
    sheet. By the screen's view token: without them."""
    event, organiser = _event_by_link(token)
    return jsonify(night_document(event, organiser))


@bp.get(f"{EVENT}/turns/<int:turn>")
@api.validate(resp=refused(404, HTTP_200=models.NightTurn), tags=TAGS)
def show_turn(token, turn):
    """One turn of a club night

    Its seating and each table's result; ``turn`` counts from 1."""
    event, organiser = _event_by_link(token)
    if not 1 <= turn <= len(event.turns):
        abort(404)
    return jsonify(_turn_json(night_of(event), turn - 1, organiser))


@bp.get(f"{EVENT}/standings")
@api.validate(resp=refused(404, HTTP_200=models.NightStandings), tags=TAGS)
def show_standings(token):
    """The standings of a club night

    Live from every result that counts, and after each complete turn."""
    event, _organiser = _event_by_link(token)
    return jsonify(_standings_json(night_of(event)))


@bp.post(f"{TABLE}/confirm")
@api.validate(json=models.TableConfirmation,
              resp=refused(*CONFIRMING, HTTP_200=models.NightTable), tags=TAGS)
def confirm_table(token, turn, table):
    """The organiser confirms a table's result

    For both pairs (a pair without a phone, a code forgotten); the next turn opens once
    every table of this one counts."""
    seat = _seat_or_404(get_event_or_404(token), turn, table)
    version = checked().version
    refusal = confirm_result(store.get_db(), seat, store.events.ORGANISER,
                             seat.table.match.version if version is None else version)
    return _confirmation_answer(seat, refusal)


@bp.post(f"{TABLE}/reopen")
@api.validate(json=models.Reopening, resp=refused(*REFUSED, 403, 404, HTTP_200=models.NightTable),
              tags=TAGS)
def reopen_table(token, turn, table):
    """The organiser reopens a table's result

    Every confirmation of it ends, and the table's hands may change again."""
    seat = _seat_or_404(get_event_or_404(token), turn, table)
    store.events.reopen(store.get_db(), seat.table.match)
    return _confirmation_answer(seat, None)


@bp.post("/matches/<string(minlength=16):token>/confirm")
@api.validate(json=models.PairConfirmation,
              resp=refused(*CONFIRMING, 410, HTTP_200=models.NightTable), tags=TAGS)
def confirm_for_pair(token):
    """A pair confirms its table's result

    With its code, as it would sign the sheet; the result counts once both pairs (or the
    organiser) confirmed it. A wrong code changes nothing."""
    db = store.get_db()
    seat = store.events.seat_of(db, get_match_or_404(token))
    if seat is None:
        abort(404)
    asked = checked()
    return _confirmation_answer(seat, confirm_result(db, seat, asked.side, asked.version,
                                                     asked.code))


def _confirmation_answer(seat: store.events.Seat, refusal):
    """The table as the confirmation left it, or why it was refused."""
    if refusal is not None:
        return jsonify(error=refusal.message, code=refusal.code), refusal.status
    view = night_of(store.events.get_event(store.get_db(), seat.event.token))
    return jsonify(_table_json(view, view.tables[seat.turn.number][seat.table.number - 1],
                               True))


# --- The night by its links -------------------------------------------------------------

def _event_by_link(token: str) -> tuple[store.events.Event, bool]:
    """The night behind either link, and whether it was the organiser's; the organiser's
    opens a turn whose time has come, as the organiser's page does."""
    db = store.get_db()
    watched = store.events.get_watched_event(db, token)
    if watched is not None:
        return watched, False
    return open_seated_turns(db, get_event_or_404(token)), True


def _seat_or_404(event: store.events.Event, turn: int, table: int) -> store.events.Seat:
    seat = seat_at(event, turn, table)
    if seat is None:
        abort(404)
    return seat


# --- The documents --------------------------------------------------------------------------

def night_document(event: store.events.Event, organiser: bool) -> dict:
    """A club night as the API shows it: the organiser's link sees the pairs' codes and the
    tables' match tokens, the screen's link neither."""
    view = night_of(event)
    setup = view.setup
    links = {"screen": absolute_url("events.screen", view_token=event.view_token)}
    if organiser:
        links = {"organiser": absolute_url("events.organiser", token=event.token), **links}
    pairs = [{**_pair(view, pair), **({"code": event.codes[pair]} if organiser else {})}
             for pair in range(len(setup.pairs))]
    return {
        "title": event.title,
        **({"token": event.token} if organiser else {}),
        "view_token": event.view_token,
        "links": links,
        "setup": {"movement": setup.movement.value, "turns": setup.turns,
                  "hands": setup.hands, "step": setup.step, "bye_vp": setup.bye_vp,
                  "victory_points": as_data(view.table)},
        "pairs": pairs,
        "current_turn": view.current + 1,
        "turns": [_turn_json(view, number, organiser) for number in range(len(view.tables))],
        **_standings_json(view),
    }


def _pair(view: NightView, pair: int) -> dict:
    return {"number": pair + 1, "name": view.pair_name(pair)}


def _turn_json(view: NightView, number: int, organiser: bool) -> dict:
    tables = view.tables[number]
    bye = view.night.turns[number].seating.bye
    return {"number": number + 1,
            "tables": [_table_json(view, state, organiser) for state in tables],
            "bye": None if bye is None else _pair(view, bye),
            "complete": all(state.state == CONFIRMED for state in tables)}


def _table_json(view: NightView, state: TableState, organiser: bool) -> dict:
    match = state.match
    north_south, east_west = state.pairs
    by_pairs = sorted(pair + 1 for pair in state.confirmed_by if pair is not None)
    by_organiser = [models.ORGANISER] if store.events.ORGANISER in state.confirmed_by else []
    edit = ({"token": match.token, "url": absolute_url("matches.show", token=match.token)}
            if organiser else {})
    return {"turn": state.turn + 1, "number": state.number,
            "north_south": _pair(view, north_south), "east_west": _pair(view, east_west),
            "state": state.state, "game": state.game, "games": state.games,
            "confirmed_by": by_pairs + by_organiser,
            "match_points": None if state.match_points is None else list(state.match_points),
            "victory_points": (None if state.victory_points is None
                               else list(state.victory_points)),
            "version": match.version, **edit,
            "view_url": absolute_url("share.view", view_token=match.view_token)}


def _standings_json(view: NightView) -> dict:
    def rows(standings) -> list[dict]:
        return [{"rank": row.rank, "pair": row.pair + 1, "name": view.pair_name(row.pair),
                 "victory_points": row.victory_points, "match_points": row.match_points,
                 "played": row.played, "byes": row.byes} for row in standings]

    return {"standings": rows(view.night.standings),
            "standings_after_turn": [rows(after) for after in view.night.after_each],
            "finished": view.finished}
