"""Club nights: the organiser starts one, runs it from a page that shows every table, and
confirms or reopens a table's result; each pair confirms its table's result on the table's
own sheet with its code; the room's screen shows the standings. The organiser's page and the
screen hear the news of every table's match and are sent anew when one moves on."""

from flask import (
    Blueprint,
    Response,
    abort,
    current_app,
    redirect,
    request,
    stream_with_context,
    url_for,
)
from jinja2_fragments.flask import render_block

import store
from scoring.errors import ScoringError
from scoring.movements import BYE_VP, Movement
from scoring.values import parse_int
from scoring.victory_points import parse_bands

from . import is_fragment_request, render
from .cache import Cache
from .devices import device_id
from .forms import shared_render
from .i18n import locale_name
from .live import KEEP_ALIVE, RETRY_MS
from .loaders import get_event_or_404, get_match_or_404, get_watched_event_or_404
from .matches import sheet_page
from .nights import (
    FIBUR,
    confirm_result,
    event_log,
    night_game,
    night_of,
    night_setup,
    night_title,
    open_seated_turns,
    seat_at,
)
from .refusals import refusal
from .share import qr_svg
from .titles import TitleRefused
from .urls import share_url

bp = Blueprint("events", __name__)
# The board each state of a night is sent as to its waiting pages (a room's screen on many
# phones): keyed by the link, the state, the language and the path the app is served under.
_boards = Cache(64)
# The organiser's page lists what was confirmed and corrected (templates/events/organiser.html).
bp.add_app_template_global(event_log)


# --- A new club night --------------------------------------------------------------------

def draft_of(form) -> dict:
    """The form as typed: kept whole when it is refused."""
    return {key: form.get(key, "") for key in
            ("title", "pairs", "movement", "turns", "hands", "step", "bye_vp", "table",
             "table_name", "bands")}


def setup_of(draft: dict) -> dict:
    """The form's setup in the shape the rules read; a club's table from its lines. A line
    of the bands that cannot be read raises, naming the line."""
    raw = {"pairs": [line for line in draft["pairs"].splitlines() if line.strip()],
           "movement": draft["movement"] or Movement.MITCHELL.value,
           "turns": draft["turns"], "hands": draft["hands"], "step": draft["step"] or 1,
           "bye_vp": draft["bye_vp"] or BYE_VP, "victory_points": FIBUR}
    if draft["table"] == "club":
        raw["victory_points"] = {"name": draft["table_name"], "hands": parse_int(draft["hands"]),
                                 "bands": parse_bands(draft["bands"])}
    return raw


def _refused(draft: dict, refused: dict):
    """The form back as typed, saying what to change, at its top."""
    body, status = _new_page(draft, 422, **refused)
    return body, status, {"HX-Reswap": "outerHTML show:top"}


def _new_page(draft: dict, status: int = 200, **refused):
    return render("events/new.html", "form", status, draft=draft, movements=list(Movement),
                  game=night_game(), bye_vp=BYE_VP, **refused)


@bp.get("/events/new")
def new():
    """The form for a club night: its pairs, movement, turns, hands and table."""
    return _new_page({"movement": Movement.MITCHELL.value, "turns": "3", "hands": "3",
                      "table": "fibur", "step": "1", "bye_vp": str(BYE_VP)})


@bp.post("/events/new")
def create():
    """Start the club night the form describes and open its first turn."""
    draft = draft_of(request.form)
    game = night_game()
    try:
        title = night_title(draft["title"])
        setup = night_setup(game, setup_of(draft))
    except TitleRefused as refused:
        return _refused(draft, {"error": str(refused)})
    except ScoringError as error:
        return _refused(draft, refusal(error, game))
    db = store.get_db()
    event = store.events.create_event(db, game, title, setup)
    open_seated_turns(db, event)
    page = url_for("events.organiser", token=event.token)
    if is_fragment_request():
        return "", 200, {"HX-Redirect": page}
    return redirect(page, 303)


# --- The organiser's page and the room's screen ----------------------------------------

def news_id(event: store.events.Event) -> str:
    """What a page that shows the night has seen (see ``store.events.night_news``)."""
    matches = [table.match for turn in event.turns for table in turn.tables]
    return f"{len(matches)}.{sum(match.version for match in matches)}"


def _context(event: store.events.Event, read_only: bool) -> dict:
    return {"event": event, "view": night_of(event), "read_only": read_only,
            "seen": news_id(event)}


@bp.get("/e/<token>")
def organiser(token):
    """The organiser's page: every table's state and link, the pairs' codes, the
    standings, and the night's log."""
    event = open_seated_turns(store.get_db(), get_event_or_404(token))
    try:
        store.events.remember_event(store.get_db(), device_id(), event)
    except store.Unavailable as error:
        # The page still shows; the home page catches up the next time it is opened.
        current_app.logger.warning("This device's list of nights was not updated: %s", error)
    return render("events/organiser.html", "board", **_context(event, False))


@bp.get("/s/<view_token>")
def screen(view_token):
    """The room's screen: the standings and each table's state, in large type, nothing to
    press."""
    return render("events/screen.html", "board", **_context(get_watched_event_or_404(view_token), True))


@bp.get("/s/<view_token>/qr.svg")
def screen_qr(view_token):
    """The QR code of the screen's link: the players follow the standings on their phones."""
    event = get_watched_event_or_404(view_token)
    return qr_svg(share_url("events.screen", view_token=event.view_token))


def _seat_or_404(event: store.events.Event, turn: int, table: int) -> store.events.Seat:
    seat = seat_at(event, turn, table)
    if seat is None:
        abort(404)
    return seat


def _back_to_organiser(event: store.events.Event, status: int = 200, **said):
    if is_fragment_request() or status != 200:
        return render("events/organiser.html", "board", status,
                      **_context(store.events.get_event(store.get_db(), event.token), False),
                      **said)
    return redirect(url_for("events.organiser", token=event.token), 303)


@bp.post("/e/<token>/turns/<int:turn>/tables/<int:table>/confirm")
def organiser_confirms(token, turn, table):
    """The organiser confirms a table's result for both pairs (a pair without a phone, a
    code forgotten)."""
    event = get_event_or_404(token)
    seat = _seat_or_404(event, turn, table)
    version = parse_int(request.form.get("version"))
    refused = confirm_result(store.get_db(), seat, store.events.ORGANISER,
                             seat.table.match.version if version is None else version)
    if refused is not None:
        return _back_to_organiser(event, refused.status, error=refused.message)
    return _back_to_organiser(event)


@bp.post("/e/<token>/turns/<int:turn>/tables/<int:table>/reopen")
def organiser_reopens(token, turn, table):
    """The organiser takes a confirmed result back for a correction at the table."""
    event = get_event_or_404(token)
    store.events.reopen(store.get_db(), _seat_or_404(event, turn, table).table.match)
    return _back_to_organiser(event)


# --- Confirming at the table --------------------------------------------------------------

@bp.post("/m/<token>/confirm")
def pair_confirms(token):
    """A pair confirms its table's result with its code, as it would sign the sheet."""
    match = get_match_or_404(token)
    db = store.get_db()
    seat = store.events.seat_of(db, match)
    side = parse_int(request.form.get("side"))
    version = parse_int(request.form.get("version"))
    if seat is None or side not in (0, 1) or version is None:
        abort(404 if seat is None else 400)
    refused = confirm_result(db, seat, side, version, request.form.get("code", ""))
    if refused is not None:
        # A result changed meanwhile is shown as it stands now.
        shown = store.get_match(db, token) if refused.status == 409 else match
        return sheet_page(shown, refused.status, error=refused.message)
    if is_fragment_request():
        return sheet_page(store.get_match(db, token))
    return redirect(url_for("matches.show", token=token), 303)


# --- The news -----------------------------------------------------------------------------

def _board(template: str, link: str, event: store.events.Event, news: str,
           read_only: bool) -> str:
    """The board as every page of this link and language is sent it at ``news``: rendered
    once for all of them, without a phone's token."""
    def rendered() -> str:
        with shared_render():
            return render_block(template, "board", **_context(event, read_only))
    return _boards.get((link, news, locale_name(), request.script_root), rendered)


def _stream(find, link: str, template: str, read_only: bool) -> Response:
    event = find(link)
    path = current_app.config["DATABASE"]
    seen = request.headers.get("Last-Event-ID") or request.args.get("seen")
    store.close_db()

    @stream_with_context
    def events():
        yield f"retry: {RETRY_MS}\n\n"
        last = seen
        while True:
            ids = store.events.event_ids_of(store.get_db(), event)
            store.close_db()
            with store.news.subscribe(path, *ids) as subscription:
                while True:
                    try:
                        tables, versions = store.events.night_news(store.get_db(), event)
                        found = f"{tables}.{versions}"
                        if found != last:
                            board = _board(template, link, find(link), found, read_only)
                            last = found
                            lines = "".join(f"data: {line}\n" for line in board.splitlines()
                                            if line.strip())
                            yield f"id: {found}\nevent: board\n{lines}\n"
                    except Exception as error:
                        if store.storage_fault(error, path) is None:
                            raise
                        # The page asks again in RETRY_MS, and hears of the fault then.
                        return
                    finally:
                        # A waiting stream holds no database connection.
                        store.close_db()
                    if tables != len(ids):
                        break  # a turn opened: its tables' news is the night's too
                    if not subscription.wait(KEEP_ALIVE):
                        yield ": still here\n\n"

    return Response(events(), mimetype="text/event-stream",
                    headers={"Cache-Control": "no-store", "X-Accel-Buffering": "no"})


@bp.get("/e/<token>/events")
def organiser_events(token):
    """The organiser's page anew whenever a table moves on."""
    return _stream(get_event_or_404, token, "events/organiser.html", False)


@bp.get("/s/<view_token>/events")
def screen_events(view_token):
    """The room's screen anew whenever a table moves on."""
    return _stream(get_watched_event_or_404, view_token, "events/screen.html", True)
