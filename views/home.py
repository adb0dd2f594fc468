"""The home page (games, the matches on this device, checkers), what a device does with its
matches (rename, archive, delete and restore), and the language switch."""

from urllib.parse import urlsplit

from flask import (
    Blueprint,
    abort,
    current_app,
    jsonify,
    redirect,
    render_template,
    request,
    send_from_directory,
    url_for,
)
from flask_babel import gettext as _
from flask_babel import ngettext
from werkzeug.exceptions import Conflict

import store

from . import is_fragment_request, render
from .devices import device_id, remembered_matches
from .errors import handle_http_error
from .games import all_games
from .loaders import get_match_or_404, scored
from .template_helpers import unit_labels
from .titles import TitleRefused, day_of, match_title, verify_title

bp = Blueprint("home", __name__)
bp.add_app_template_global(match_title)

# A year: the choice of language should outlast the evening.
LANGUAGE_COOKIE_AGE = 365 * 24 * 3600


def _listed(entry: store.ListedMatch) -> dict:
    """What the home page shows of a match: its title and players, how far it has come, who
    leads (or won), and when its hands last changed."""
    match = entry.match
    item = {"match": match, "title": match_title(match), "changed_at": entry.changed_at,
            "changed_on": day_of(entry.changed_at), "archived": bool(entry.archived_at),
            "finished": False,
            "imported_on": match.imported_at and day_of(match.imported_at)}
    if entry.deleted_at:
        return {**item, "deleted_at": entry.deleted_at,
                "restorable_until": day_of(entry.restorable_until)}
    _game, _options, standings = scored(match)
    labels = unit_labels(standings.units, match.players)
    leading = standings.winners if standings.finished else standings.ahead
    return {**item, "finished": standings.finished,
            "played": _played(match.game, len(match.hands)),
            "ahead": [labels[unit] for unit in leading]}


def _in_order(entries) -> list[dict]:
    """Running matches first, then ended ones; each the latest change first."""
    items = sorted(map(_listed, entries), key=lambda item: item["changed_at"], reverse=True)
    return sorted(items, key=lambda item: item["finished"])


def _device_lists() -> dict:
    """This device's matches: to continue (the most recently opened), archived, and deleted
    here and still restorable."""
    entries = remembered_matches()
    live = [entry for entry in entries if not entry.deleted_at]
    kept = [entry for entry in live if not entry.archived_at]
    deleted = sorted((entry for entry in entries if entry.deleted_at),
                     key=lambda entry: entry.deleted_at, reverse=True)
    return {"recent": _in_order(kept[:current_app.config["RECENT_MATCHES"]]),
            "archived": _in_order(entry for entry in live if entry.archived_at),
            "deleted": [_listed(entry) for entry in deleted]}


def _played(game: str, count: int) -> str:
    """How far a match has come, in its game's word: "3 games", in Burro "3 hands"."""
    if all_games()[game].says_game:
        return ngettext("%(num)s game", "%(num)s games", count)
    return ngettext("%(num)s hand", "%(num)s hands", count)


@bp.get("/favicon.ico")
def favicon():
    """Browsers ask for /favicon.ico whatever a page names: the app's icon (a PNG)."""
    return send_from_directory(current_app.static_folder, "icon-192.png", mimetype="image/png",
                               max_age=7 * 24 * 3600)


@bp.get("/")
def index():
    """A tile per game, the matches to continue, the checkers."""
    return _home(just_deleted=request.args.get("deleted", type=int))


def _home(status: int = 200, block: str = "main", **shown):
    """The home page, or for htmx its ``block``; ``shown``: a refused title, a deletion to
    undo."""
    tiles = [{"game": known.slug, "name": known.name, "blurb": known.tile}
             for known in all_games().values()]
    lists = _device_lists()
    # A match in play is what a phone at the table opens the app for: it comes first.
    running = any(not item["finished"] for item in lists["recent"])
    nights = store.events.device_events(store.get_db(), device_id())
    return render("home/index.html", block, status, tiles=tiles, running=running, **lists,
                  nights=nights, **shown)


def _back_home(deleted: int | None = None):
    """After a change to the list: POST → redirect → GET, or for htmx the list itself;
    ``deleted``: the match just deleted, whose undo the list offers first."""
    if is_fragment_request():
        return _home(block="matches", just_deleted=deleted)
    return redirect(url_for("home.index", deleted=deleted, _anchor="my-matches"), 303)


# --- What a device does with its matches ----------------------------------------------------

@bp.post("/m/<token>/title")
def rename(token):
    """Give a match the title every phone shows (its edit link only)."""
    match = get_match_or_404(token)
    typed = request.form.get("title", "")
    try:
        title = verify_title(typed)
    except TitleRefused as refusal:
        return _home(422, "matches", renaming={"id": match.id, "typed": typed,
                                               "error": str(refusal)})
    store.rename_match(store.get_db(), match, title)
    return _back_home()


def _set_archived(token: str, archived: bool):
    match = get_match_or_404(token)
    if not store.archive_match(store.get_db(), device_id(), match, archived):
        abort(404)
    return _back_home()


@bp.post("/m/<token>/archive")
def archive(token):
    """Tidy this device's list: the match moves to its archive (other phones keep theirs)."""
    return _set_archived(token, archived=True)


@bp.post("/m/<token>/unarchive")
def unarchive(token):
    """Bring an archived match back to this device's list of matches to continue."""
    return _set_archived(token, archived=False)


@bp.post("/m/<token>/delete")
def delete(token):
    """Delete a match on every phone; for 30 days its link, and this device's home page,
    can restore it."""
    match = get_match_or_404(token)
    if store.events.seat_of(store.get_db(), match) is not None:
        # Its result belongs to the night's standings and export.
        return handle_http_error(Conflict(), _("This match is a table of a club night: it "
                                               "stays with the night."))
    store.delete_match(store.get_db(), match, device_id())
    return _back_home(deleted=match.id)


@bp.post("/m/<token>/restore")
def restore(token):
    """Bring a deleted match back for every phone, then go where the form says."""
    if not store.restore_match(store.get_db(), token):
        # Not restorable: a read-only, unknown or expired link is refused; a match already
        # restored (by another phone) is simply there.
        get_match_or_404(token)
    if is_fragment_request():
        return _home(block="matches")
    return redirect(_local(request.form.get("next", "/")), 303)


@bp.app_errorhandler(store.MatchDeleted)
def answer_deleted_match(deleted: store.MatchDeleted):
    """A deleted match is gone (410) by every link; its edit link's page offers Restore."""
    if request.path.startswith("/api/"):
        return jsonify(error=_("This match was deleted.")), 410
    if is_fragment_request():
        # A form on a sheet that was deleted meanwhile: the whole page says so.
        link = (url_for("share.view", view_token=deleted.match.view_token) if deleted.read_only
                else url_for("matches.show", token=deleted.match.token))
        return "", 410, {"HX-Redirect": link}
    return render_template("home/deleted.html", match=deleted.match,
                           can_restore=not deleted.read_only,
                           restorable_until=day_of(deleted.restorable_until)), 410


def _local(path: str) -> str:
    """Only a path on this site may be returned to (no open redirect): browsers drop tabs and
    line breaks and read a backslash as a slash, so "/\t/evil" would leave the site."""
    address = urlsplit(path)
    if (path.startswith("/") and not path.startswith("//") and "\\" not in path
            and not any(ord(char) < 32 for char in path)
            and not address.scheme and not address.netloc):
        return path
    return url_for("home.index")


@bp.post("/language")
def set_language():
    """Switch the language and remember it on this device."""
    response = redirect(_local(request.form.get("next", "/")), 303)
    language = request.form.get("lang")
    if language in current_app.config["LANGUAGES"]:
        response.set_cookie("lang", language, max_age=LANGUAGE_COOKIE_AGE, httponly=True,
                            samesite="Lax", secure=current_app.config["SESSION_COOKIE_SECURE"])
    return response
