"""The JSON API's score sheets, for other clients and scripts: start a match, read it, add,
correct and undo hands, export and import it.

Requests carry JSON (``Content-Type: application/json``); a browser form cannot send that
to another site without asking first, which is why this blueprint needs no CSRF token.
Write access to a match is its secret token, as on the pages; its view token only reads.
Each operation names its models (``views/api/models.py``): a body reaches the view checked
for its shape, and the OpenAPI document is generated from the same declarations.
"""

import hashlib

from flask import abort, jsonify, request
from flask_babel import gettext as _
from werkzeug.http import quote_etag

import store
from scoring.games import GAMES, corrected_hand, next_hand

from ..devices import presented_device
from ..games import all_games
from ..json_bodies import BadRequest
from ..loaders import get_match_or_404, options_of
from ..quotas import client_address
from . import models
from .contract import BY_LINK, COUNTED, REFUSED, api, checked, json_blueprint, refused
from .documents import (
    DOCUMENT_LIMIT,
    match_document,
    match_fields,
    parse_document,
    setup_of,
    standings_json,
)

bp = json_blueprint("api", __name__, files={"import_match": parse_document},
                    file_limit=DOCUMENT_LIMIT)
HAND = models.hand_model(all_games().values())
SETUP = models.setup_model(all_games().values())
# The answers every game's matches share, with the examples the games give of them.
STANDINGS, STARTED, DOCUMENT = (models.with_examples(model, all_games().values()) for model in
                                (models.Standings, models.MatchStarted, models.MatchDocument))
# A match by either of its links (32 characters): "/matches/import" is not one.
MATCH = "/matches/<string(minlength=16):token>"


@bp.post("/matches")
@api.validate(json=SETUP, resp=refused(*REFUSED, HTTP_201=STARTED, **COUNTED),
              tags=["matches"])
def create_match():
    """Start a match

    Answers with its secret ``token``, its read-only ``view_token`` and its standings.
    Sent again by the same client with the same ``Idempotency-Key`` and body, it answers
    with the same match."""
    match = store.match_created_with(store.get_db(), creation_key())
    if match is None:
        name, _game, players, options = setup_of(checked())
        match = store.create_match(store.get_db(), name, players, options.to_dict(),
                                   creation_key())
    return jsonify({**standings_json(match), "token": match.token}), 201


@bp.get(MATCH)
@api.validate(resp=refused(404, 410, HTTP_200=STANDINGS, HTTP_304=None),
              tags=["matches"])
def show_match(token):
    """The standings of a match

    By its edit token or its read-only view token. The answer's ETag is the match's
    version: asked again with ``If-None-Match``, an unchanged match answers 304."""
    version = store.shown_version(store.get_db(), token)
    if version is None:
        _match_by_link(token)  # 404, or 410 for a deleted match
    if request.if_none_match.contains_weak(etag_of(version)):
        return "", 304, {"ETag": etag_header(version)}
    return _standings_answer(*_match_by_link(token))


def _standings_answer(match: store.Match, editing: bool, status: int = 200):
    """The standings as the link may see them (the view token's hold no edit link), tagged
    with the version they are of."""
    response = jsonify(standings_json(match, editing))
    response.status_code = status
    response.set_etag(etag_of(match.version), weak=True)
    return response


def _changed_answer(token: str, changed: store.Match | None, status: int = 200):
    """The answer to a change: the match as the change left it, else (a change this
    request's key made before) as it stands now."""
    return _standings_answer(changed or get_match_or_404(token), True, status)


def etag_of(version) -> str:
    return f"v{version}"


def etag_header(version) -> str:
    """The ETag header of an answer of ``version``: weak, since it is the same compressed
    or not."""
    return quote_etag(etag_of(version), weak=True)


def _match_by_link(token: str) -> tuple[store.Match, bool]:
    """The match behind either link, and whether it was the players' (edit) link."""
    watched = store.get_watched_match(store.get_db(), token)
    return (watched, False) if watched is not None else (get_match_or_404(token), True)


def _hand(asked) -> dict:
    """The hand as sent, without the version it names."""
    return asked.model_dump(exclude_unset=True, exclude={"version"})


@bp.post(f"{MATCH}/hands")
@api.validate(json=HAND, resp=refused(*BY_LINK, 409, HTTP_201=STANDINGS),
              tags=["matches"])
def add_hand(token):
    """Enter the next hand

    In the shape of the match's game (Burro: ``{"burro": 2}``; Portuguese Burro, Cangkul:
    ``{"winner": 0}``; Burraco and Buraco: ``{"sides": [...]}``; Bura: ``{"outcome": …,
    "player": …}``; Burkosel: ``{"card_points": […], "tricks": […]}``)."""
    asked = checked()

    def add(match: store.Match, version: int) -> store.Match | None:
        hand, _standings = next_hand(GAMES[match.game], options_of(match), len(match.players),
                                     match.hands, _hand(asked))
        return store.add_hand(store.get_db(), match, hand, version, _idempotency_key())

    return _changed_answer(token, _change(token, asked.version, add), 201)


@bp.put(f"{MATCH}/hands/<int:number>")
@api.validate(json=HAND, resp=refused(*BY_LINK, 409, HTTP_200=STANDINGS),
              tags=["matches"])
def replace_hand(token, number):
    """Correct a hand

    Hand ``number`` counts from 1; the replaced entry stays in the history."""
    asked = checked()

    def correct(match: store.Match, version: int) -> store.Match | None:
        hand, _standings = corrected_hand(GAMES[match.game], options_of(match),
                                          len(match.players), match.hands, number, _hand(asked))
        return store.replace_hand(store.get_db(), match, number, hand, version,
                                  _idempotency_key())

    return _changed_answer(token, _change(token, asked.version, correct))


@bp.delete(f"{MATCH}/hands/last")
@api.validate(query=models.UndoQuery, resp=refused(*BY_LINK, 409, HTTP_200=STANDINGS),
              tags=["matches"])
def undo_hand(token):
    """Take back the last hand

    It stays in the history as undone."""
    def undo(match: store.Match, version: int) -> store.Match | None:
        if not match.hands:
            raise BadRequest(_("There is no hand to undo."))
        return store.undo_last_hand(store.get_db(), match, version, _idempotency_key())

    return _changed_answer(token, _change(token, request.context.query.version, undo))


def _idempotency_key() -> str | None:
    """The client's ``Idempotency-Key`` header: a request sent again with the same key (a
    retry after a lost answer) changes the match once."""
    return request.headers.get("Idempotency-Key", "")[:64] or None


def creation_key() -> str | None:
    """A new match's (or club night's) key: the client's ``Idempotency-Key`` together with
    the client that sent it (the device its cookie names, else its address) and the body it
    came with, so that only the same request sent again by the same client finds the match
    it created. Anyone else who sends that key and body starts a match of their own, and
    never learns the first one's token."""
    key = _idempotency_key()
    if not key:
        return None
    device = presented_device()
    client = f"device {device}" if device else f"address {client_address()}"
    return hashlib.sha256(f"{client}\n{key}\n".encode() + request.get_data()).hexdigest()


def _made_before(match: store.Match) -> bool:
    return store.change_made_with(store.get_db(), match, _idempotency_key()) is not None


def _change(token: str, given_version: int | None, write) -> store.Match | None:
    """Make one change, ``write(match, version)``, which checks it by the rules, stores it
    and gives the match as it left it, unless this request's key made it already (None).
    Only a client that named the version it saw gets 409 when the match has moved on;
    without one, the change is checked and stored on the match as it stands: when another
    change came between, it is checked again on the match as that left it."""
    if given_version is None:
        try:
            return _change_as_it_stands(token, write)
        except store.StaleEntry:
            # Another change came between the read and the write. Writers wait for the
            # same lock, so one that read while another wrote could lose again and again:
            # the second look holds every other writer off until it is stored.
            with store.writers_held_off(store.get_db()):
                return _change_as_it_stands(token, write)
    match = get_match_or_404(token)
    if _made_before(match):
        return None
    try:
        return write(match, given_version)
    except store.StaleEntry:
        # The same request sent twice at once finds the first's change; another is late.
        if not _made_before(match):
            abort(409)
        return None


def _change_as_it_stands(token: str, write) -> store.Match | None:
    match = get_match_or_404(token)
    return None if _made_before(match) else write(match, match.version)


# --- A match as one document: export and import -------------------------------------------


@bp.get(f"{MATCH}/export")
@api.validate(resp=refused(403, 404, 410, HTTP_200=DOCUMENT), tags=["matches"])
def export_match(token):
    """The whole match as one document

    ``POST /api/v1/matches/import`` reads it back. It holds no token or link."""
    match = get_match_or_404(token)
    response = jsonify(match_document(match))
    response.headers["Content-Disposition"] = (
        f'attachment; filename="{match.game}-{match.created_at[:10]}.json"')
    return response


@bp.post("/matches/import")
@api.validate(json=DOCUMENT, resp=refused(*REFUSED, HTTP_201=STARTED, **COUNTED),
              tags=["matches"])
def import_match():
    """Import a match

    A match exported elsewhere, as a new match with links of its own. The document is
    checked whole first; nothing is created when any of it fails."""
    match = store.match_created_with(store.get_db(), creation_key())
    if match is None:
        fields = match_fields(checked())
        match = store.import_match(store.get_db(), **fields, key=creation_key())
    return jsonify({**standings_json(match), "token": match.token}), 201


