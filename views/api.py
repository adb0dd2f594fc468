"""The JSON API, version 1: the checkers and the score sheets for other clients and scripts.

Requests carry JSON (``Content-Type: application/json``); a browser form cannot send that
to another site without asking first, which is why this blueprint needs no CSRF token.
Write access to a match is its secret token, as on the pages; its view token only reads.
"""

import hashlib
import random
import time
from datetime import UTC, datetime

from flask import Blueprint, abort, jsonify, request
from flask_babel import get_locale
from flask_babel import gettext as _

import store
from scoring import bura, buraco, burraco, burro
from scoring.cards import Card, Rank, Suit, parse_card, parse_cards, parse_suit
from scoring.errors import HandError, MeldError, ScoringError
from scoring.values import parse_int, yes_no
from scoring.games import GAMES, corrected_hand, next_hand
from scoring.players import verify_players

from . import TitleRefused, rule_search, verify_title
from .inputs import BadRequest, json_body, not_json, parse_json
from .links import absolute_url
from .lookup import get_match_or_404, options_of, scored
from .messages import describe, match_full, trick_reason

bp = Blueprint("api", __name__, url_prefix="/api/v1")


@bp.errorhandler(ScoringError)
def refuse_by_rule(error: ScoringError):
    return jsonify(error=describe(error), code=error.code), 400


@bp.errorhandler(store.MatchFull)
def refuse_entry_beyond_limit(_error):
    return jsonify(error=match_full(), code="match_full"), 400


@bp.errorhandler(BadRequest)
def refuse_shape(error: BadRequest):
    return jsonify(error=str(error)), 400


def _body() -> dict:
    """The request's JSON object; deeper than the limit or holding invalid text, refused."""
    body = json_body() if request.is_json else None
    if not isinstance(body, dict):
        raise not_json()
    return body


def _field(body: dict, name: str, kind: type, default=None):
    value = body.get(name, default)
    if not isinstance(value, kind):
        raise BadRequest(_("The field “%(name)s” is missing or of the wrong type.", name=name))
    return value


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


@bp.get("/rules/search")
def search_rules():
    """Rules sections for ``?q=…``, best first, the sections in ``lang`` (or the reader's
    language) ahead; ``game`` narrows to one game. ``corrected`` maps each misspelt word to
    the word searched in its place."""
    query, game, lang = rule_search.search_filters()
    found = rule_search.search(query, lang or str(get_locale()), game)
    return jsonify(hits=[
        {**hit, "snippet": "".join(piece for piece, _marked in hit["snippet"]),
         "marks": _mark_offsets(hit["snippet"])} for hit in found.hits],
        corrected=found.corrected)


def _mark_offsets(pieces) -> list[list[int]]:
    """Where the snippet's matches are, as [start, end] character offsets."""
    offsets, position = [], 0
    for piece, marked in pieces:
        if marked:
            offsets.append([position, position + len(piece)])
        position += len(piece)
    return offsets


@bp.post("/burro/trick")
def burro_trick():
    """Who wins a Burro trick: ``{"deck": "40", "plays": ["5H", "JH", null, "7H"]}``."""
    body = _body()
    deck = burro.verify_deck(body.get("deck"))
    plays = [None if play is None else parse_card(str(play))
             for play in _field(body, "plays", list)]
    trick = burro.trick_winner(deck, plays)
    return jsonify(winner=trick.winner, card=trick.card.code, suit=trick.suit.value,
                   leads_next=trick.winner, passed=list(trick.passed),
                   reason=trick_reason(trick))


def _card_list(value, name: str) -> list:
    """Cards as a list of codes or as one string (``"3♥ 4♥ 5♥"``)."""
    if isinstance(value, str):
        return parse_cards(value)
    if isinstance(value, list) and all(isinstance(card, str) for card in value):
        return [parse_card(card) for card in value]
    raise BadRequest(_("The field “%(name)s” is missing or of the wrong type.", name=name))


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
def burraco_meld():
    """Judge a meld: ``{"cards": [...], "options": {"semipulito": false}}``; with ``"onto"``
    (a meld on the table) the cards are added to it, with ``"swap": true`` the one card
    takes the place of its wildcard."""
    body = _body()
    cards = _card_list(body.get("cards"), "cards")
    semipulito = yes_no(_field(body, "options", dict, {}).get("semipulito", False))
    try:
        if "onto" in body:
            table = _card_list(body["onto"], "onto")
            meld = (burraco.verify_swap(table, cards, semipulito) if yes_no(body.get("swap"))
                    else burraco.verify_addition(table, cards, semipulito))
        else:
            meld = burraco.verify_meld(cards, semipulito)
    except MeldError as error:
        return jsonify(valid=False, kind=None, burraco=None, points=None,
                       reason=describe(error), code=error.code)
    best = _reading_json(meld.readings[0])
    return jsonify(valid=True, **best, points=meld.points, reason=None,
                   readings=[_reading_json(reading) for reading in meld.readings[1:]])


@bp.post("/burraco/hand")
def burraco_hand():
    """Score one hand: ``{"sides": [{...}, {...}]}`` → ``{"scores": [410, 155]}``; three
    sides with ``"alone": null`` when nobody of three players ran out."""
    body = _body()
    semipulito = yes_no(_field(body, "options", dict, {}).get("semipulito", False))
    sides = burraco.verify_hand_sides(body, semipulito)
    return jsonify(scores=[side.score for side in sides])


@bp.post("/buraco/meld")
def buraco_meld():
    """Judge a meld: ``{"cards": [...], "options": {"variant": "seed"}}`` (or
    ``"brazilian"``, ``"aberto"``); with ``"onto"`` (a meld on the table) the cards are
    added to it."""
    body = _body()
    cards = _card_list(body.get("cards"), "cards")
    variant = buraco.variant_of(_field(body, "options", dict, {}).get("variant"))
    try:
        if "onto" in body:
            meld = buraco.verify_addition(_card_list(body["onto"], "onto"), cards, variant)
        else:
            meld = buraco.verify_meld(cards, variant)
    except MeldError as error:
        return jsonify(valid=False, kind=None, buraco=None, points=None,
                       reason=describe(error), code=error.code)
    return jsonify(valid=True, **_buraco_reading_json(meld.readings[0]), points=meld.points,
                   reason=None,
                   readings=[_buraco_reading_json(reading) for reading in meld.readings[1:]])


@bp.post("/buraco/hand")
def buraco_hand():
    """Score one hand: ``{"options": {...}, "sides": [{...}, {...}]}`` → ``{"scores":
    [550, 170]}``; with ``"players": 3`` in the options, one entry for each player."""
    body = _body()
    raw_options = _field(body, "options", dict, {})
    players = parse_int(raw_options.get("players", buraco.MAX_PLAYERS))
    if players is None:
        raise BadRequest(_("The field “%(name)s” is missing or of the wrong type.",
                           name="players"))
    options = buraco.verify_options(raw_options, players)
    sides = buraco.verify_sides(body.get("sides"), options, len(buraco.sides_of(players)))
    return jsonify(scores=[side.score for side in sides])


def _trump(body: dict) -> Suit:
    return parse_suit(_field(body, "trump", str))


@bp.post("/bura/claim")
def bura_claim():
    """``{"cards": [...]}`` (the claimant's trick cards; optional ``"pot": 4``) → the points,
    whether a claim of 31 would be right, and with a pot what happens to it."""
    body = _body()
    claim = bura.check_claim(_card_list(body.get("cards"), "cards"))
    answer = {"points": claim.points, "valid": claim.right}
    if "pot" in body:
        change, after = bura.pot_after_claim(body["pot"], claim.right)
        answer.update(claimant=change, pot=after)
    return jsonify(answer)


@bp.post("/bura/trick")
def bura_trick():
    """``{"trump": "H", "front": [...], "response": [...]}`` → does the response take the
    lead, and the pairing that beats (``null`` when none does, with the unbeaten cards)."""
    body = _body()
    verdict = bura.trick(_trump(body), _card_list(body.get("front"), "front"),
                         _card_list(body.get("response"), "response"))
    pairs = verdict.pairs and [[ahead.code, card.code] for ahead, card in verdict.pairs]
    return jsonify(beats=verdict.beats, pairs=pairs,
                   unbeaten=[card.code for card in verdict.unbeaten])


@bp.post("/bura/lead")
def bura_lead():
    """``{"cards": [...]}`` (optional ``"declared": "three_aces"``) → may these be led?"""
    body = _body()
    cards = _card_list(body.get("cards"), "cards")
    try:
        bura.verify_lead(cards, body.get("declared"))
    except HandError as error:
        return jsonify(valid=False, reason=describe(error), code=error.code)
    return jsonify(valid=True, reason=None)


@bp.post("/bura/combination")
def bura_combination():
    """``{"trump": "H", "cards": [3 cards]}`` → ``"bura"``, ``"three_aces"``, ``"molodka"``
    (with ``"options": {"little_moscow": true}`` also ``"little_moscow"``) or ``null``, and
    whether it wins the pot at once or is led all three together."""
    body = _body()
    options = {flag: yes_no(value) for flag, value in _field(body, "options", dict, {}).items()}
    found = bura.combination(_trump(body), _card_list(body.get("cards"), "cards"),
                             options.get("little_moscow", False))
    if found is None:
        return jsonify(combination=None, wins_pot=False, led_together=False)
    return jsonify(combination=found.value,
                   wins_pot=bura.wins_the_pot(found, options.get("three_aces_win", False),
                                              options.get("moscow", False)),
                   led_together=bura.led_together(found))


def _setup(body: dict) -> tuple:
    """A match's game (its name and rules), players and options, as the rules accept them."""
    name = _field(body, "game", str)
    if name not in GAMES:
        raise BadRequest(_("There is no game “%(name)s” to keep score for yet.", name=name[:30]))
    game = GAMES[name]
    players = verify_players(_field(body, "players", list), game.MIN_PLAYERS,
                             game.MAX_PLAYERS)
    return name, game, players, game.verify_options(_field(body, "options", dict, {}),
                                                    len(players))


@bp.post("/matches")
def create_match():
    """Start a match: ``{"game": "burro", "players": [...], "options": {...}}`` → 201."""
    match = store.match_created_with(store.get_db(), _creation_key())
    if match is None:
        name, _game, players, options = _setup(_body())
        match = store.create_match(store.get_db(), name, players, options.to_dict(),
                                   _creation_key())
    return jsonify({**standings_json(match), "token": match.token}), 201


@bp.get("/matches/<token>")
def show_match(token):
    """The standings of a match, by its edit token or its read-only view token. The answer's
    ETag is the match's version: asked again with ``If-None-Match``, an unchanged match
    answers 304 from its version alone."""
    version = store.match_version(store.get_db(), token)
    if version is not None and request.if_none_match.contains_weak(_etag(version)):
        return "", 304, {"ETag": f'W/"{_etag(version)}"'}
    response = _standings_of(token)
    response.set_etag(_etag(version), weak=True)
    return response


def _etag(version) -> str:
    return f"v{version}"


def _standings_of(token: str):
    """The standings as the link may see them: the view token's answer holds no edit link."""
    watched = store.get_watched_match(store.get_db(), token)
    if watched is not None:
        return jsonify(standings_json(watched, editing=False))
    return jsonify(standings_json(get_match_or_404(token)))


@bp.post("/matches/<token>/hands")
def add_hand(token):
    """Enter the next hand (Burro: ``{"burro": 2}``; Portuguese, Cangkul: ``{"winner": 0}``)."""
    match = get_match_or_404(token)
    body = _body()

    def add(match: store.Match, version: int) -> None:
        hand, _standings = next_hand(GAMES[match.game], options_of(match), len(match.players),
                                     match.hands, body)
        store.add_hand(store.get_db(), match, hand, version, _idempotency_key())

    _change(match, body.get("version"), add)
    return jsonify(standings_json(get_match_or_404(token))), 201


@bp.put("/matches/<token>/hands/<int:number>")
def replace_hand(token, number):
    """Correct hand ``number`` (from 1); the replaced entry stays in the history."""
    match = get_match_or_404(token)
    body = _body()

    def correct(match: store.Match, version: int) -> None:
        hand, _standings = corrected_hand(GAMES[match.game], options_of(match),
                                          len(match.players), match.hands, number, body)
        store.replace_hand(store.get_db(), match, number, hand, version, _idempotency_key())

    _change(match, body.get("version"), correct)
    return jsonify(standings_json(get_match_or_404(token)))


@bp.delete("/matches/<token>/hands/last")
def undo_hand(token):
    """Take back the last hand."""
    def undo(match: store.Match, version: int) -> None:
        if not match.hands:
            raise BadRequest(_("There is no hand to undo."))
        store.undo_last_hand(store.get_db(), match, version, _idempotency_key())

    _change(get_match_or_404(token), request.args.get("version"), undo)
    return jsonify(standings_json(get_match_or_404(token)))


def _version(match: store.Match, given) -> int:
    """The match's version the client last saw (``"version"``); without one, the current:
    a client that names it cannot overwrite a change it has not seen."""
    if given is None:
        return match.version
    version = parse_int(given)
    if version is None:
        raise BadRequest(_("The field “%(name)s” is missing or of the wrong type.",
                           name="version"))
    return version


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


# A change without a version applies to the match as it is: one that lost the race to
# another phone's change is checked and tried again on the match as it now stands. Four
# phones saving at once lose a few races in a row; a short random pause lets them take
# turns instead of meeting again.
RACE_RETRIES = 20
RACE_PAUSE_S = 0.005


def _change(match: store.Match, given_version, write) -> None:
    """Make one change, ``write(match, version)``, which checks it by the rules and stores
    it, unless this request's key made it already. Only a client that named the version
    it saw gets 409 when the match has moved on."""
    for attempt in range(RACE_RETRIES):
        if attempt:
            time.sleep(random.uniform(0, RACE_PAUSE_S * min(attempt, 4)))
            match = get_match_or_404(match.token)
        if _made_before(match):
            return
        try:
            write(match, _version(match, given_version))
            return
        except store.StaleEntry:
            # The same request sent twice at once: the next turn finds the first's change.
            if given_version is not None and not _made_before(match):
                abort(409)
    abort(409)


# --- A match as one document: export and import -------------------------------------------

MATCH_FORMAT = "tablemate-match"
MATCH_FORMAT_VERSION = 1
ENTRY_STATUSES = (store.ACTIVE, store.REPLACED, store.UNDONE)


def match_document(match: store.Match) -> dict:
    """A match as one document to keep or move: players, options and every entry with its
    status and times. No token: the document opens nothing."""
    return {"format": MATCH_FORMAT, "format_version": MATCH_FORMAT_VERSION,
            "game": match.game, "players": list(match.players), "options": match.options,
            "created_at": match.created_at, "title": match.title,
            "entries": store.match_entries(store.get_db(), match)}


@bp.get("/matches/<token>/export")
def export_match(token):
    """The whole match as one JSON document (``POST /matches/import`` reads it back)."""
    match = get_match_or_404(token)
    response = jsonify(match_document(match))
    response.headers["Content-Disposition"] = (
        f'attachment; filename="{match.game}-{match.created_at[:10]}.json"')
    return response


@bp.post("/matches/import")
def import_match():
    """A match exported elsewhere, as a new match with links of its own → 201."""
    match = store.match_created_with(store.get_db(), _creation_key())
    if match is None:
        fields = read_match_document(parse_document(request.get_data()))
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
    """Check a match document whole before anything is written: its format, game, players,
    options, every entry, and that the hands add up by the rules. The arguments of
    ``store.import_match``; a refusal is a ``BadRequest`` or a ``ScoringError``."""
    if not isinstance(document, dict) or document.get("format") != MATCH_FORMAT:
        raise BadRequest(_("The file is not a match exported from Tablemate."))
    version = document.get("format_version")
    if type(version) is not int or version != MATCH_FORMAT_VERSION:
        raise BadRequest(_("The file is in format %(version)s, but only format %(known)s "
                           "can be read.", version=str(version)[:10],
                           known=MATCH_FORMAT_VERSION))
    name, game, players, options = _setup(document)
    raw_entries = _field(document, "entries", list)
    if len(raw_entries) > store.MAX_ENTRIES:
        raise BadRequest(_("A match of at most %(num)s entries can be imported.",
                           num=store.MAX_ENTRIES))
    entries = [_entry(game, options, len(players), raw, position)
               for position, raw in enumerate(raw_entries, start=1)]
    _verify_hands_add_up(game, options, len(players), entries)
    return {"game": name, "players": players, "options": options.to_dict(),
            "created_at": _moment(document.get("created_at")), "entries": entries,
            "title": _title(document.get("title"))}


def _title(raw) -> str | None:
    """The match's own title, checked as a rename is; None where it has none (older files
    have no such field)."""
    try:
        return None if raw is None else verify_title(raw)
    except TitleRefused as refusal:
        raise BadRequest(str(refusal)) from None


def _entry(game, options, players: int, raw, position: int) -> dict:
    """One entry of a document, its hand checked by the game's rules (replaced and undone
    ones too: the history shows them)."""
    if not isinstance(raw, dict):
        raise BadRequest(_("Entry %(position)s is not an entry.", position=position))
    number, status, data = raw.get("number"), raw.get("status"), raw.get("data")
    if (type(number) is not int or not 1 <= number <= store.MAX_ENTRIES
            or status not in ENTRY_STATUSES or not isinstance(data, dict)):
        raise BadRequest(_("Entry %(position)s needs a hand number, a status (active, "
                           "replaced or undone) and its data.", position=position))
    try:
        hand = game.verify_hand(options, players, data)
    except ScoringError as error:
        raise BadRequest(_("Entry %(position)s: %(reason)s", position=position,
                           reason=describe(error))) from None
    ended_at = None if status == store.ACTIVE else _moment(raw.get("ended_at"))
    return {"number": number, "status": status, "data": hand,
            "created_at": _moment(raw.get("created_at")), "ended_at": ended_at}


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


def _moment(value) -> str:
    """A time from the document, as the store writes times (UTC, to the second)."""
    try:
        moment = datetime.fromisoformat(value)
    except (TypeError, ValueError):
        moment = None
    if moment is None or moment.tzinfo is None:
        raise BadRequest(_("“%(value)s” is not a time with its time zone.",
                           value=str(value)[:30]))
    return moment.astimezone(UTC).isoformat(timespec="seconds")
