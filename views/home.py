"""The home page (games, matches on this device, checkers) and the language switch."""

from urllib.parse import urlsplit

from flask import Blueprint, current_app, redirect, request, send_from_directory, url_for
from flask_babel import lazy_gettext as _l
from flask_babel import ngettext

import store
from scoring.games import score

from . import remembered_matches, render
from .sheets import SHEETS
from .template_helpers import unit_labels

bp = Blueprint("home", __name__)

GAME_TILES = (
    ("burro", "Burro", _l("Spanish trick game: whoever is left holding cards is the donkey.")),
    ("burraco", "Burraco", _l("Italian partnership rummy with pozzetti and burracos.")),
    ("bura", "Bura", _l("Russian ace-ten trick game played for a pot.")),
    ("burkosel", "Burkosel", _l("A cousin of Bura with 4 cards, played for penalty points: "
                                "12 or more loses.")),
    ("buraco", "Buraco", _l("Brazilian rummy, Burraco's cousin.")),
)

# A year: the choice of language should outlast the evening.
LANGUAGE_COOKIE_AGE = 365 * 24 * 3600


def _recent() -> list[dict]:
    """The matches opened on this device, each with its leader and how far it has come."""
    recent = []
    for match in store.get_matches(store.get_db(), remembered_matches()):
        _game, _options, standings = score(match.game, match.options, len(match.players),
                                           match.hands)
        labels = unit_labels(standings.units, match.players)
        recent.append({"match": match, "standings": standings,
                       "played": _played(match.game, len(match.hands)),
                       "ahead": [labels[unit] for unit in standings.ahead]})
    return recent


def _played(game: str, count: int) -> str:
    """How far a match has come, in its game's word: "3 games", in Burro "3 hands"."""
    if SHEETS[game].says_game:
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
    tiles = [{"game": game, "name": name, "blurb": blurb} for game, name, blurb in GAME_TILES]
    return render("home/index.html", "main", tiles=tiles, recent=_recent())


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
        response.set_cookie("lang", language, max_age=LANGUAGE_COOKIE_AGE, samesite="Lax")
    return response
