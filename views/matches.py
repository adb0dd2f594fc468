"""Score sheets: start a match, enter hands by tapping, undo and edit, see who won."""

import dataclasses

from flask import Blueprint, abort, current_app, redirect, request, url_for
from flask_babel import gettext as _
from flask_limiter import RateLimitExceeded
from jinja2_fragments.flask import render_block

import store
from scoring.errors import ScoringError
from scoring.games import GAMES, corrected_hand, next_hand
from scoring.players import verify_players
from scoring.values import parse_int

from . import errors, is_fragment_request, render
from .change_notes import describe_changes, saved_gains
from .devices import remember_match
from .forms import shared_render
from .games import all_games
from .loaders import get_game_or_404, get_match_or_404, options_of, scored
from .refusals import confirmed_result, match_full, refusal

bp = Blueprint("matches", __name__)
# The toast after a save says what the hand gave (templates/matches/_sheet.html).
bp.add_app_template_global(saved_gains)

DEFAULT_PLAYERS = 4


# --- New match ---------------------------------------------------------------------------

def _draft_from_form(form, game) -> dict:
    """What the new-match form holds: names in order, who deals first, the options as typed."""
    names = form.getlist("players")
    dealer = parse_int(form.get("dealer", "0"))
    return {
        "players": names,
        "dealer": dealer if dealer is not None and 0 <= dealer < len(names) else 0,
        "options": _options_from_form(form, game),
    }


def _options_from_form(form, game) -> dict:
    """The options as the rules take them: a ticked box is true and an unticked one false, a
    number as typed, and the target the one chosen or, for "other:", the one typed (or the
    number of hands, where those are chosen instead)."""
    flags = {option.name for option in dataclasses.fields(game.Options)
             if option.type in (bool, "bool")}
    options = {key: form.get(key) == "on" if key in flags else form.get(key, "")
               for key in game.OPTION_FIELDS}
    choice = form.get("target_choice", "custom")
    # A fixed number of hands is chosen in place of a target: "hands-3".
    if "hands" in options and choice.startswith("hands-"):
        options["hands"] = choice.removeprefix("hands-")
    elif "target" in options and choice not in ("", "custom"):
        options["target"] = choice
    return options


def _named_rows(draft: dict) -> tuple[list[str], int]:
    """The players of the rows that hold a name (a row left empty is a player not there) and
    the dealer among them: the one ticked, or the first if the ticked row is empty."""
    seats = [seat for seat, name in enumerate(draft["players"]) if name.strip()]
    dealer = seats.index(draft["dealer"]) if draft["dealer"] in seats else 0
    return [draft["players"][seat] for seat in seats], dealer


def _move(draft: dict, seat: int, to: int) -> None:
    names = draft["players"]
    if 0 <= seat < len(names) and 0 <= to < len(names):
        names[seat], names[to] = names[to], names[seat]
        if draft["dealer"] in (seat, to):
            draft["dealer"] = to if draft["dealer"] == seat else seat


def _edit_draft(draft: dict, action: str, game) -> None:
    """The list buttons: add a row, remove one, move one up or down (no JavaScript needed)."""
    names = draft["players"]
    verb, _sep, seat = action.partition("-")
    seat = parse_int(seat)
    if seat is None:
        seat = -1
    if verb == "add" and len(names) < game.MAX_PLAYERS:
        names.append("")
    elif verb == "remove" and 0 <= seat < len(names) and len(names) > game.MIN_PLAYERS:
        del names[seat]
        if draft["dealer"] == seat:
            draft["dealer"] = 0
        elif draft["dealer"] > seat:
            draft["dealer"] -= 1
    elif verb == "up":
        _move(draft, seat, seat - 1)
    elif verb == "down":
        _move(draft, seat, seat + 1)


def _blank_draft(game) -> dict:
    db, again_link = store.get_db(), request.args.get("again", "")
    # The read-only sheet's "Play again" names the match by its view token.
    again = store.get_match(db, again_link) or store.get_watched_match(db, again_link)
    if again is not None and GAMES.get(again.game) is game:
        # The deal moves on, as between hands: to the next player in the list of play.
        next_dealer = (again.options.get("first_dealer", 0) + 1) % len(again.players)
        return {"players": list(again.players), "dealer": next_dealer, "options": again.options}
    return {"players": [""] * DEFAULT_PLAYERS, "dealer": 0, "options": {}}


def _new_page(game_name: str, draft: dict, status: int = 200, **refused):
    return render("matches/new.html", "form", status, game=game_name, spec=GAMES[game_name],
                  draft=draft, order_hint=all_games()[game_name].player_order, **refused)


@bp.get("/<game>/new")
def new(game):
    """The new-match form, empty or filled from an earlier match ("play again")."""
    spec = get_game_or_404(game)
    return _new_page(game, _blank_draft(spec))


@bp.errorhandler(RateLimitExceeded)
def start_beyond_quota(error: RateLimitExceeded):
    """Sent as a whole page (before the page's script took over), the form comes back as it
    was filled in, saying when to try again: nothing the players typed is lost."""
    if is_fragment_request() or request.endpoint != "matches.create":
        return errors.handle_beyond_quota(error)
    game = request.view_args["game"]
    message, seconds = errors.beyond_quota(error)
    body, status = _new_page(game, _draft_from_form(request.form, get_game_or_404(game)),
                             429, error=message)
    return body, status, {"Retry-After": str(seconds)}


@bp.post("/<game>/new")
def create(game):
    """Change the draft's player list, or start the match it describes."""
    spec = get_game_or_404(game)
    draft = _draft_from_form(request.form, spec)
    action = request.form.get("action", "start")
    if action != "start":
        _edit_draft(draft, action, spec)
        return _new_page(game, draft)
    named, dealer = _named_rows(draft)
    try:
        names = verify_players(named, spec.MIN_PLAYERS, spec.MAX_PLAYERS)
        options = spec.verify_options({**draft["options"], "first_dealer": dealer}, len(names))
    except ScoringError as error:
        body, status = _new_page(game, draft, 422, **refusal(error, game))
        return body, status, {"HX-Reswap": "outerHTML show:top"}
    match = store.create_match(store.get_db(), game, names, options.to_dict())
    remember_match(match.token)
    sheet = url_for("matches.show", token=match.token)
    if is_fragment_request():
        # A followed redirect would swap the sheet into the form and keep /new in the
        # address bar; the sheet is a new page with its own link.
        return "", 200, {"HX-Redirect": sheet}
    return redirect(sheet, 303)


# --- The sheet ---------------------------------------------------------------------------

def _sheet_context(match: store.Match, draft=None, **extra) -> dict:
    """What the game's sheet template renders from: standings derived afresh."""
    game, options, standings = scored(match)
    adapter = all_games()[match.game]
    seat = store.events.seat_of(store.get_db(), match)
    return {**adapter.context(match, options, standings, extra.get("number"), draft),
            "news": (), "all_hands": request.args.get("hands") == "all", **extra,
            "match": match, "game": game, "options": options, "standings": standings, "history": store.past_entries(store.get_db(), match),
            # A club night's table whose result counts: no game of it can be changed.
            "seat": seat, "locked": seat is not None and seat.table.confirmed}


def sheet_page(match: store.Match, status: int = 200, block: str = "sheet", **extra):
    """Render the game's sheet (or one of its blocks for htmx)."""
    body, status = render(all_games()[match.game].template("sheet.html"), block, status,
                          **_sheet_context(match, **extra))
    # After a save, an undo or a refusal the sheet's top shows what happened: bring it
    # into view, wherever on the long panel the thumb was.
    scroll = block == "sheet" and request.method == "POST"
    return body, status, {"HX-Reswap": "outerHTML show:#sheet:top"} if scroll else {}


def shared_sheet(match: store.Match, read_only: bool, news) -> str:
    """The sheet block as every phone of this link and language is sent it when the match
    moves on: with ``news`` (what changed, in words) and no phone's token or keys."""
    if read_only:
        match = dataclasses.replace(match, token=match.view_token)
    with shared_render():
        return render_block(all_games()[match.game].template("sheet.html"), "sheet",
                            **_sheet_context(match, news=news, read_only=read_only,
                                             all_hands=False))


def read_only_sheet(match: store.Match, **extra):
    """The sheet as its read-only link shows it: without entry controls, and rendered with
    the view token in the edit token's place, so no link on it can reveal the edit token."""
    return sheet_page(dataclasses.replace(match, token=match.view_token), read_only=True, **extra)


def _hand_from_form(match: store.Match) -> dict:
    """The hand a sheet's form describes, in the shape the game's rules read."""
    return all_games()[match.game].hand_from_form(request.form, match)


def _match_as_shown(token: str) -> store.Match:
    """The match a form was posted from, as long as it is still the version the form showed:
    the guard against two phones changing the same sheet."""
    match = get_match_or_404(token)
    version = parse_int(request.form.get("version"))
    if version is None:
        abort(400)
    if version != match.version:
        raise store.StaleEntry()
    return match


def _entry_key() -> str | None:
    """The key the entry form carries (a resend of the same form carries the same one)."""
    return request.form.get("key", "")[:64] or None


DONE_BY = {"saved": "saved", "corrected": "edited", store.UNDONE: "undone"}


@bp.errorhandler(store.StaleEntry)
def refuse_stale_form(_error):
    """The sheet moved on since the form was shown. The same form sent again (a double tap,
    a resend after a dropped answer) is answered as if it had just been saved; otherwise
    the sheet comes back with this phone's entry kept and what changed meanwhile."""
    db = store.get_db()
    match = store.get_match(db, request.view_args["token"])
    made = store.change_made_with(db, match, _entry_key())
    if made is not None:
        return _after_change(match, **{DONE_BY[made.kind]: made.number})
    # A correction of a hand another phone took back meanwhile comes back as a new hand.
    number = _existing_hand(match, request.view_args.get("number"))
    if request.endpoint == "matches.undo":
        return sheet_page(match, 409, error=_("The sheet changed on another phone before the "
                                          "undo: here it is as it stands now."))
    seen = parse_int(request.form.get("version")) or 0
    stale = stale_entry(match, store.changes_since(db, match, seen), number)
    return sheet_page(match, 409, number=number, draft=_draft_or_none(match), stale=stale)


@bp.errorhandler(store.ResultConfirmed)
def refuse_change_of_confirmed_result(_error):
    """A club night's table whose result both pairs confirmed: only the organiser reopens it."""
    match = get_match_or_404(request.view_args["token"])
    return sheet_page(match, 409, error=confirmed_result())


@bp.errorhandler(store.MatchFull)
def refuse_entry_beyond_limit(_error):
    """The match holds as many entries as a match can: the entry comes back, refused."""
    match = get_match_or_404(request.view_args["token"])
    return sheet_page(match, 422, number=_existing_hand(match, request.view_args.get("number")),
                  draft=_draft_or_none(match), error=match_full())


def stale_entry(match: store.Match, changes, number: int | None) -> dict:
    """What an outdated form needs to keep its entry: what changed meanwhile, in words, and
    the fields to send again as the next hand (or the same correction)."""
    kept = [(name, value) for name, value in request.form.items(multi=True)
            if name not in ("csrf_token", "version", "key")]
    return {"changes": describe_changes(match, changes), "fields": kept,
            "number": number or len(match.hands) + 1, "correction": number is not None}


def _after_change(match: store.Match, **done):
    """POST → redirect → GET for plain forms; for htmx the fresh sheet block, and the
    address moves to the sheet (a correction was made from its own address)."""
    if is_fragment_request():
        body, status, headers = sheet_page(store.get_match(store.get_db(), match.token), **done)
        return body, status, {**headers, "HX-Push-Url": url_for("matches.show", token=match.token)}
    return redirect(url_for("matches.show", token=match.token, **done), 303)


@bp.get("/m/<token>")
def show(token):
    """The score sheet: totals, next dealer and leader, the entry panel, the history."""
    match = get_match_or_404(token)
    remember_match(token)
    done = {key: request.args.get(key, type=int) for key in ("saved", "undone", "edited")}
    return sheet_page(match, **{key: value for key, value in done.items() if value})


@bp.post("/m/<token>/hands")
def add_hand(token):
    """Enter the next hand with one tap on a player."""
    match = _match_as_shown(token)
    try:
        hand, _standings = next_hand(GAMES[match.game], options_of(match), len(match.players),
                                     match.hands, _hand_from_form(match))
    except ScoringError as error:
        return sheet_page(match, 422, draft=_draft_or_none(match), **_refusal(error, match))
    store.add_hand(store.get_db(), match, hand, match.version, _entry_key())
    return _after_change(match, saved=len(match.hands) + 1)


@bp.post("/m/<token>/undo")
def undo(token):
    """Take back the last hand (it stays in the match's history)."""
    match = _match_as_shown(token)
    if not match.hands:
        return sheet_page(match, 422, error=_("There is no hand to undo."))
    store.undo_last_hand(store.get_db(), match, match.version, _entry_key())
    return _after_change(match, undone=len(match.hands))


@bp.get("/m/<token>/hands/<int:number>")
def edit_hand(token, number):
    """Correct an earlier hand: the same panel, with the entry it holds now marked."""
    match = get_match_or_404(token)
    if not 1 <= number <= len(match.hands):
        abort(404)
    return sheet_page(match, number=number)


@bp.post("/m/<token>/hands/<int:number>")
def replace_hand(token, number):
    """Save the correction; the replaced entry stays in the history."""
    match = _match_as_shown(token)
    options = options_of(match)
    try:
        hand, _standings = corrected_hand(GAMES[match.game], options, len(match.players),
                                         match.hands, number, _hand_from_form(match))
    except ScoringError as error:
        return sheet_page(match, 422, number=_existing_hand(match, number),
                      draft=_draft_or_none(match), **_refusal(error, match))
    store.replace_hand(store.get_db(), match, number, hand, match.version, _entry_key())
    return _after_change(match, edited=number)


@bp.post("/m/<token>/hands/<int:number>/restore")
def restore_hand(token, number):
    """Undo a correction: hand ``number`` gets back the very entry the form names."""
    match = _match_as_shown(token)
    entry_id = parse_int(request.form.get("entry"))
    previous = next((entry for entry in store.past_entries(store.get_db(), match)
                     if entry.id == entry_id and entry.number == number
                     and entry.status == store.REPLACED), None)
    if previous is None:
        abort(404)
    options = options_of(match)
    try:
        hand, _standings = corrected_hand(GAMES[match.game], options, len(match.players),
                                         match.hands, number, previous.data)
    except ScoringError as error:
        return sheet_page(match, 422, **_refusal(error, match))
    store.replace_hand(store.get_db(), match, number, hand, match.version, _entry_key())
    return _after_change(match, edited=number)


def _existing_hand(match: store.Match, number: int | None) -> int | None:
    """The hand ``number`` of the match, if it has one: a panel corrects only those."""
    return number if number is not None and 1 <= number <= len(match.hands) else None


def _refusal(error: ScoringError, match: store.Match) -> dict:
    """A refused entry's message (its sides named by their players) and rule link."""
    return refusal(error, match.game, all_games()[match.game].side_names(match, request.form))


def _draft_or_none(match: store.Match):
    """A refused entry comes back with everything typed and tapped."""
    draft_from_form = all_games()[match.game].draft_from_form
    return draft_from_form(request.form, match) if draft_from_form else None


def _sheet_has_block(game: str, block: str) -> bool:
    template = all_games()[game].template("sheet.html")
    return block in current_app.jinja_env.get_template(template).blocks


@bp.post("/m/<token>/draft")
def update_draft(token):
    """A tap on a panel that builds up a hand (Burraco's counters, Bura's claim cards).
    Nothing is stored; the panel comes back with the new state and its preview."""
    match = get_match_or_404(token)
    draft_from_form = all_games()[match.game].draft_from_form
    if draft_from_form is None:
        abort(404)
    draft = draft_from_form(request.form, match)
    number = _existing_hand(match, parse_int(request.form.get("number")))
    # Only the panels that preview a hand have that block; the others answer whole.
    asked = "preview" if request.form.get("only") == "preview" else "panel"
    block = asked if _sheet_has_block(match.game, asked) else "panel"
    return sheet_page(match, block=block, draft=draft, number=number)
