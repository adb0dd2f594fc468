"""The JSON API, version 1: the checkers and the score sheets for other clients and scripts.

Requests carry JSON (``Content-Type: application/json``); a browser form cannot send that
to another site without asking first, which is why this blueprint needs no CSRF token.
Write access to a match is its secret token, as on the pages; its view token only reads.
Each operation names its models (``views.api_models``): a body reaches the view checked
for its shape, and the OpenAPI document is generated from the same declarations.
"""

import hashlib
from datetime import UTC, datetime

from flask import Blueprint, abort, jsonify, request
from flask_babel import gettext as _
from pydantic import ValidationError
from werkzeug.http import quote_etag

import store
from scoring import bura, buraco, burraco, burro
from scoring.cards import Card, Rank, parse_card, parse_cards, parse_suit
from scoring.errors import HandError, MeldError, ScoringError
from scoring.games import GAMES, corrected_hand, next_hand
from scoring.players import verify_players

from . import TitleRefused, rule_search, verify_title
from . import api_models as models
from .contract import api, refusal_of, refused
from .i18n import locale_name
from .inputs import BadRequest, json_body, not_json, parse_json
from .links import absolute_url
from .lookup import get_match_or_404, options_of, scored
from .messages import describe, match_full, trick_reason

bp = Blueprint("api", __name__, url_prefix="/api/v1")
# A match by either of its links (32 characters): "/matches/import" is not one.
MATCH = "/matches/<string(minlength=16):token>"

# Every body may be refused (400) or be beyond the app's limit (413); a match's link may
# only read (403), be unknown (404) or be of a deleted match (410).
REFUSED = (400, 413)
BY_LINK = (*REFUSED, 403, 404, 410)


@bp.errorhandler(ScoringError)
def refuse_by_rule(error: ScoringError):
    return jsonify(error=describe(error), code=error.code), 400


@bp.errorhandler(store.MatchFull)
def refuse_entry_beyond_limit(_error):
    return jsonify(error=match_full(), code="match_full"), 400


@bp.errorhandler(BadRequest)
def refuse_shape(error: BadRequest):
    return jsonify(error=str(error)), 400


@bp.before_request
def read_body() -> None:
    """A body that is not a JSON object within the limits (``views.inputs``) is refused
    before its models see it; an import says so as a file."""
    if request.method not in ("POST", "PUT"):
        return
    if not request.is_json:
        raise not_json()
    body = (parse_document(request.get_data()) if request.endpoint == "api.import_match"
            else json_body())
    if not isinstance(body, dict):
        raise not_json()


def _checked():
    """The request's body as its model checked it."""
    return request.context.json


def _plain(value):
    """Tuples (of tuples) as JSON lists."""
    return [_plain(item) for item in value] if isinstance(value, tuple) else value


def standings_json(match: store.Match, editing: bool = True) -> dict:
    """A match as the API shows it: what was entered and everything derived from it; the
    edit link only to those who reached it by the edit token."""
    game, options, standings = scored(match)
    extra = {name: _plain(getattr(standings, name)) for name in ("pot", "chips", "net")
             if hasattr(standings, name)}
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
        **({"url": absolute_url("matches.show", token=match.token)} if editing else {}),
        "view_token": match.view_token,
        "view_url": absolute_url("share.view", view_token=match.view_token),
    }


@bp.get("/openapi.json")
def openapi_document():
    """This API as an OpenAPI 3.1 document, generated from its models and routes."""
    return jsonify(api.spec)


@bp.get("/rules/search")
@api.validate(query=models.SearchQuery, resp=refused(*REFUSED, HTTP_200=models.SearchHits),
              tags=["rules"])
def search_rules():
    """Search the rules

    Rules sections for ``q``, best first, the sections in ``lang`` (or the reader's
    language) ahead; ``game`` narrows to one game. ``corrected`` maps each misspelt word to
    the word searched in its place."""
    asked = request.context.query
    found = rule_search.search(asked.q[:rule_search.MAX_QUERY], asked.lang or locale_name(),
                               asked.game, detect_language=asked.lang is None)
    return jsonify(hits=[
        {**hit, "snippet": "".join(piece for piece, _marked in hit["snippet"]),
         "marks": _mark_offsets(hit["snippet"])} for hit in found.hits],
        corrected=found.corrected, nearest=found.nearest)


def _mark_offsets(pieces) -> list[list[int]]:
    """Where the snippet's matches are, as [start, end] character offsets."""
    offsets, position = [], 0
    for piece, marked in pieces:
        if marked:
            offsets.append([position, position + len(piece)])
        position += len(piece)
    return offsets


@bp.post("/burro/trick")
@api.validate(json=models.BurroTrickCheck,
              resp=refused(*REFUSED, HTTP_200=models.BurroTrickVerdict), tags=["burro"])
def burro_trick():
    """Who wins a Burro trick

    The first play is the lead; ``null`` is a player who passed."""
    asked = _checked()
    deck = burro.verify_deck(asked.deck)
    trick = burro.trick_winner(deck, [None if play is None else parse_card(play)
                                      for play in asked.plays])
    return jsonify(winner=trick.winner, card=trick.card.code, suit=trick.suit.value,
                   leads_next=trick.winner, passed=list(trick.passed),
                   reason=trick_reason(trick))


def _cards(value: str | list[str]) -> list[Card]:
    """Cards as a list of codes or typed as one string (``"3♥ 4♥ 5♥"``)."""
    return parse_cards(value) if isinstance(value, str) else [parse_card(code) for code in value]


def _stands_json(stands: Card | Rank | None) -> str | None:
    """What a wildcard stands for: a card in a sequence, a rank in a set."""
    return None if stands is None else stands.code if isinstance(stands, Card) else stands.value


def _reading_json(reading) -> dict:
    """A Burraco meld reading: its one wildcard and what it stands for."""
    return {"kind": reading.kind.value, "burraco": reading.burraco and reading.burraco.value,
            "bonus": reading.bonus, "order": [card.code for card in reading.order],
            "wildcard": reading.wildcard and reading.wildcard.code,
            "stands_for": _stands_json(reading.stands_for)}


def _buraco_reading_json(reading: buraco.Reading) -> dict:
    """A Buraco meld reading: a set may hold two wildcards (seed 004)."""
    return {"kind": reading.kind.value, "buraco": reading.buraco and reading.buraco.value,
            "bonus": reading.bonus, "order": [card.code for card in reading.order],
            "wildcards": [card.code for card in reading.wildcards],
            "stands_for": _stands_json(reading.stands_for)}


@bp.post("/burraco/meld")
@api.validate(json=models.BurracoMeldCheck,
              resp=refused(*REFUSED, HTTP_200=models.BurracoMeldAnswer), tags=["burraco"])
def burraco_meld():
    """Judge a Burraco meld

    With ``onto`` (a meld on the table) the cards are added to it, with ``"swap": true``
    the one card takes the place of its wildcard. An illegal meld answers ``valid: false``
    with the reason and its code."""
    asked = _checked()
    cards = _cards(asked.cards)
    rules = {"semipulito": asked.options.semipulito,
             "variant": burraco.variant_of(asked.options.variant)}
    try:
        if asked.onto is not None:
            table = _cards(asked.onto)
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


def _sides(asked) -> list[dict]:
    """The sides as sent, for the rules to check: a part left out stays out."""
    return [side.model_dump(exclude_unset=True) for side in asked.sides]


@bp.post("/burraco/hand")
@api.validate(json=models.BurracoHandCheck, resp=refused(*REFUSED, HTTP_200=models.Scores),
              tags=["burraco"])
def burraco_hand():
    """Score one Burraco hand

    Three sides with ``"alone": null`` when nobody of three players ran out."""
    asked = _checked()
    hand = {"sides": _sides(asked), **asked.model_dump(include={"alone"}, exclude_unset=True)}
    options = burraco.Options(semipulito=asked.options.semipulito,
                              variant=burraco.variant_of(asked.options.variant))
    sides = burraco.verify_hand_sides(hand, options)
    return jsonify(scores=[side.score for side in sides])


@bp.post("/buraco/meld")
@api.validate(json=models.BuracoMeldCheck,
              resp=refused(*REFUSED, HTTP_200=models.BuracoMeldAnswer), tags=["buraco"])
def buraco_meld():
    """Judge a Buraco meld

    With ``onto`` (a meld on the table) the cards are added to it. An illegal meld
    answers ``valid: false`` with the reason and its code."""
    asked = _checked()
    cards, variant = _cards(asked.cards), buraco.variant_of(asked.options.variant)
    reais = asked.options.canastras_reais
    try:
        if asked.onto is not None:
            meld = buraco.verify_addition(_cards(asked.onto), cards, variant, reais)
        else:
            meld = buraco.verify_meld(cards, variant, reais)
    except MeldError as error:
        return jsonify(valid=False, kind=None, buraco=None, points=None,
                       reason=describe(error), code=error.code)
    return jsonify(valid=True, **_buraco_reading_json(meld.readings[0]), points=meld.points,
                   reason=None,
                   readings=[_buraco_reading_json(reading) for reading in meld.readings[1:]])


@bp.post("/buraco/hand")
@api.validate(json=models.BuracoHandCheck, resp=refused(*REFUSED, HTTP_200=models.Scores),
              tags=["buraco"])
def buraco_hand():
    """Score one Buraco hand

    With ``"players": 3`` in the options, one entry for each player."""
    asked = _checked()
    players = asked.options.players
    options = buraco.verify_options(asked.options.model_dump(exclude_unset=True), players)
    sides = buraco.verify_sides(_sides(asked), options, len(buraco.sides_of(players)), players)
    return jsonify(scores=[side.score for side in sides])


@bp.post("/bura/claim")
@api.validate(json=models.BuraClaimCheck,
              resp=refused(*REFUSED, HTTP_200=models.BuraClaimVerdict), tags=["bura"])
def bura_claim():
    """Check a claim of 31

    The claimant's trick cards: their points and whether a claim of 31 would be right;
    with a ``pot``, what happens to it."""
    asked = _checked()
    claim = bura.check_claim(_cards(asked.cards))
    answer = {"points": claim.points, "valid": claim.right}
    if asked.pot is not None:
        change, after = bura.pot_after_claim(asked.pot, claim.right)
        answer.update(claimant=change, pot=after)
    return jsonify(answer)


@bp.post("/bura/trick")
@api.validate(json=models.BuraTrickCheck,
              resp=refused(*REFUSED, HTTP_200=models.BuraTrickVerdict), tags=["bura"])
def bura_trick():
    """Does a response beat the cards in front

    The pairing that beats (``null`` when none does, with the unbeaten cards)."""
    asked = _checked()
    verdict = bura.trick(parse_suit(asked.trump), _cards(asked.front), _cards(asked.response))
    pairs = verdict.pairs and [[ahead.code, card.code] for ahead, card in verdict.pairs]
    return jsonify(beats=verdict.beats, pairs=pairs,
                   unbeaten=[card.code for card in verdict.unbeaten])


@bp.post("/bura/lead")
@api.validate(json=models.BuraLeadCheck, resp=refused(*REFUSED, HTTP_200=models.Verdict),
              tags=["bura"])
def bura_lead():
    """May these cards be led

    One card, or two or three of one suit; three aces only when declared."""
    asked = _checked()
    try:
        bura.verify_lead(_cards(asked.cards), asked.declared)
    except HandError as error:
        return jsonify(valid=False, reason=describe(error), code=error.code)
    return jsonify(valid=True, reason=None)


@bp.post("/bura/combination")
@api.validate(json=models.BuraCombinationCheck,
              resp=refused(*REFUSED, HTTP_200=models.BuraCombination), tags=["bura"])
def bura_combination():
    """Name a combination of three cards

    ``bura``, ``three_aces``, ``molodka``, ``little_moscow`` (with that option) or
    ``null``, and whether it wins the pot at once or is led all three together."""
    asked = _checked()
    options = asked.options
    found = bura.combination(parse_suit(asked.trump), _cards(asked.cards),
                             options.little_moscow)
    if found is None:
        return jsonify(combination=None, wins_pot=False, led_together=False)
    return jsonify(combination=found.value,
                   wins_pot=bura.wins_the_pot(found, options.three_aces_win, options.moscow),
                   led_together=bura.led_together(found))


def _setup(asked) -> tuple:
    """A match's game (its name and rules), players and options, as the rules accept them."""
    game = GAMES[asked.game]
    players = verify_players(asked.players, game.MIN_PLAYERS, game.MAX_PLAYERS)
    return asked.game, game, players, game.verify_options(asked.options, len(players))


@bp.post("/matches")
@api.validate(json=models.MatchSetup, resp=refused(*REFUSED, HTTP_201=models.MatchStarted),
              tags=["matches"])
def create_match():
    """Start a match

    Answers with its secret ``token``, its read-only ``view_token`` and its standings.
    Sent again with the same ``Idempotency-Key`` and body, it answers with the same match."""
    match = store.match_created_with(store.get_db(), _creation_key())
    if match is None:
        name, _game, players, options = _setup(_checked())
        match = store.create_match(store.get_db(), name, players, options.to_dict(),
                                   _creation_key())
    return jsonify({**standings_json(match), "token": match.token}), 201


@bp.get(MATCH)
@api.validate(resp=refused(404, 410, HTTP_200=models.Standings, HTTP_304=None),
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
@api.validate(json=models.Hand, resp=refused(*BY_LINK, 409, HTTP_201=models.Standings),
              tags=["matches"])
def add_hand(token):
    """Enter the next hand

    In the shape of the match's game (Burro: ``{"burro": 2}``; Portuguese Burro, Cangkul:
    ``{"winner": 0}``; Burraco and Buraco: ``{"sides": [...]}``; Bura: ``{"outcome": …,
    "player": …}``; Burkosel: ``{"card_points": […], "tricks": […]}``)."""
    asked = _checked()

    def add(match: store.Match, version: int) -> store.Match | None:
        hand, _standings = next_hand(GAMES[match.game], options_of(match), len(match.players),
                                     match.hands, _hand(asked))
        return store.add_hand(store.get_db(), match, hand, version, _idempotency_key())

    return _changed_answer(token, _change(token, asked.version, add), 201)


@bp.put(f"{MATCH}/hands/<int:number>")
@api.validate(json=models.Hand, resp=refused(*BY_LINK, 409, HTTP_200=models.Standings),
              tags=["matches"])
def replace_hand(token, number):
    """Correct a hand

    Hand ``number`` counts from 1; the replaced entry stays in the history."""
    asked = _checked()

    def correct(match: store.Match, version: int) -> store.Match | None:
        hand, _standings = corrected_hand(GAMES[match.game], options_of(match),
                                          len(match.players), match.hands, number, _hand(asked))
        return store.replace_hand(store.get_db(), match, number, hand, version,
                                  _idempotency_key())

    return _changed_answer(token, _change(token, asked.version, correct))


@bp.delete(f"{MATCH}/hands/last")
@api.validate(query=models.UndoQuery, resp=refused(*BY_LINK, 409, HTTP_200=models.Standings),
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


def _creation_key() -> str | None:
    """A new match's key: the client's ``Idempotency-Key`` together with the body it came
    with, so that only the same request sent again finds the match it created (another
    client that happens to use the same key cannot reach it)."""
    key = _idempotency_key()
    return key and hashlib.sha256(f"{key}\n".encode() + request.get_data()).hexdigest()


def _made_before(match: store.Match) -> bool:
    return store.change_made_with(store.get_db(), match, _idempotency_key()) is not None


def _change(token: str, given_version: int | None, write) -> store.Match | None:
    """Make one change, ``write(match, version)``, which checks it by the rules, stores it
    and gives the match as it left it, unless this request's key made it already (None).
    Only a client that named the version it saw gets 409 when the match has moved on;
    without one, the change is checked and stored on the match as it stands: when another
    change came between, it is checked again on the match as that left it."""
    if given_version is None:
        with store.one_writer_per_match(store.get_db(), token):
            try:
                return _change_as_it_stands(token, write)
            except store.StaleEntry:
                # The other server process saved meanwhile. Both wait for the same lock to
                # write, so the one that read while the other wrote would lose again and
                # again: the second look holds every other writer off until it is stored.
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

MATCH_FORMAT = "tablemate-match"
MATCH_FORMAT_VERSION = 1


def match_document(match: store.Match) -> dict:
    """A match as one document to keep or move: players, options and every entry with its
    status and times. No token: the document opens nothing."""
    return {"format": MATCH_FORMAT, "format_version": MATCH_FORMAT_VERSION,
            "game": match.game, "players": list(match.players), "options": match.options,
            "created_at": match.created_at, "title": match.title,
            "entries": store.match_entries(store.get_db(), match)}


@bp.get(f"{MATCH}/export")
@api.validate(resp=refused(403, 404, 410, HTTP_200=models.MatchDocument), tags=["matches"])
def export_match(token):
    """The whole match as one document

    ``POST /api/v1/matches/import`` reads it back. It holds no token or link."""
    match = get_match_or_404(token)
    response = jsonify(match_document(match))
    response.headers["Content-Disposition"] = (
        f'attachment; filename="{match.game}-{match.created_at[:10]}.json"')
    return response


@bp.post("/matches/import")
@api.validate(json=models.MatchDocument, resp=refused(*REFUSED, HTTP_201=models.MatchStarted),
              tags=["matches"])
def import_match():
    """Import a match

    A match exported elsewhere, as a new match with links of its own. The document is
    checked whole first; nothing is created when any of it fails."""
    match = store.match_created_with(store.get_db(), _creation_key())
    if match is None:
        fields = _match_fields(_checked())
        match = store.import_match(store.get_db(), **fields, key=_creation_key())
    return jsonify({**standings_json(match), "token": match.token}), 201


def parse_document(raw: bytes):
    """The JSON in an uploaded or posted document; a hostile one (deeply nested, not
    UTF-8, with a lone surrogate) is refused like any other that is not JSON."""
    try:
        return parse_json(raw)
    except BadRequest:
        raise BadRequest(_("The file is not a match exported from Tablemate (it is not "
                           "JSON).")) from None


def read_match_document(document) -> dict:
    """Check a match document whole before anything is written (the import page's file):
    the arguments of ``store.import_match``; a refusal is a ``BadRequest`` or a
    ``ScoringError``."""
    if not isinstance(document, dict) or document.get("format") != MATCH_FORMAT:
        raise BadRequest(_("The file is not a match exported from Tablemate."))
    version = document.get("format_version")
    if version != MATCH_FORMAT_VERSION:
        raise BadRequest(_("The file is in format %(version)s, but only format %(known)s "
                           "can be read.", version=str(version)[:10],
                           known=MATCH_FORMAT_VERSION))
    try:
        checked = models.MatchDocument.model_validate(document)
    except ValidationError as error:
        raise BadRequest(refusal_of(error)["error"]) from None
    return _match_fields(checked)


def _match_fields(checked: models.MatchDocument) -> dict:
    """A document of the right shape, checked by the rules: its players, options, every
    entry, and that the hands add up."""
    name, game, players, options = _setup(checked)
    entries = [_entry(game, options, len(players), entry, position)
               for position, entry in enumerate(checked.entries, start=1)]
    _verify_hands_add_up(game, options, len(players), entries)
    return {"game": name, "players": players, "options": options.to_dict(),
            "created_at": _moment(checked.created_at), "entries": entries,
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
    ended_at = None if entry.status == store.ACTIVE else _moment(entry.ended_at)
    return {"number": entry.number, "status": entry.status, "data": hand,
            "created_at": _moment(entry.created_at), "ended_at": ended_at}


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


def _moment(moment: datetime) -> str:
    """A time from the document, as the store writes times (UTC, to the second)."""
    return moment.astimezone(UTC).isoformat(timespec="seconds")
