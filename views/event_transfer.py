"""A club night leaves and enters the app as a file: the organiser downloads it whole (JSON)
or as the sheet a club files (CSV), and the import page opens a night exported elsewhere as
a new one with links of its own."""


from flask import (
    Blueprint,
    get_template_attribute,
    jsonify,
    redirect,
    url_for,
)
from flask_babel import gettext as _
from flask_limiter import RateLimitExceeded

import store
from scoring.errors import ScoringError

from . import is_fragment_request, render
from .api.documents import DOCUMENT_LIMIT
from .api.event_transfer import (
    file_name,
    night_document,
    parse_night,
    read_night_document,
)
from .chart import hand_gains, running_totals
from .json_bodies import BadRequest
from .loaders import get_event_or_404, scored
from .nights import night_of
from .refusals import describe
from .template_helpers import number
from .transfer import UploadRefused, csv_file, import_page_beyond_quota, uploaded_file

bp = Blueprint("event_transfer", __name__)


@bp.get("/e/<token>/export.json")
def export_json(token):
    """The whole night as one file, to keep or to open on another server."""
    event = get_event_or_404(token)
    return jsonify(night_document(event)), 200, {
        "Content-Disposition": f'attachment; filename="{file_name(event)}.json"'}


def night_rows(event: store.events.Event) -> list[list]:
    """The night as a club files it: a row per table of each turn with its pairs, each
    game's points, match points, Victory Points and state; a blank row; the standings."""
    view = night_of(event)
    state_line = get_template_attribute("events/_night.html", "state_line")
    sides = (_("North–South"), _("East–West"))
    header = [_("Turn"), _("Table"), *sides]
    for game in range(1, view.setup.hands + 1):
        header += [_("Game %(number)s: %(side)s", number=game, side=side) for side in sides]
    header += [_("%(side)s: MP", side=side) for side in sides]
    header += [_("%(side)s: VP", side=side) for side in sides]
    rows = [[*header, _("State")]]
    for tables in view.tables:
        for table in tables:
            _game, _options, standings = scored(table.match)
            points, before = [], (0, 0)
            for row in standings.rows:
                points += hand_gains(row, before)
                before = running_totals(row)
            rows.append([table.turn + 1, table.number, *map(view.pair_name, table.pairs),
                         *points, *[""] * (2 * view.setup.hands - len(points)),
                         *(table.match_points or ("", "")),
                         *(table.victory_points or ("", "")),
                         state_line(view, table).striptags()])
    rows += [[], [_("Rank"), _("Pair"), _("VP"), _("MP"), _("Played")]]
    rows += [[standing.rank, view.pair_name(standing.pair), standing.victory_points,
              standing.match_points, standing.played + standing.byes]
             for standing in view.night.standings]
    return rows


@bp.get("/e/<token>/export.csv")
def export_csv(token):
    """The night's results and standings as a CSV file a spreadsheet opens."""
    event = get_event_or_404(token)
    return csv_file(night_rows(event), f"{file_name(event)}.csv")


# --- The import page ----------------------------------------------------------------------

def _too_large() -> str:
    return _("The file is larger than %(num)s KB, too large for a club night.",
             num=number(DOCUMENT_LIMIT // 1024))


def _import_page(status: int = 200, error: str | None = None):
    return render("events/import.html", "form", status, error=error)


@bp.get("/events/import")
def import_form():
    """The import page: a club night's file from another server becomes a night here."""
    return _import_page()


@bp.errorhandler(RateLimitExceeded)
def import_beyond_quota(error: RateLimitExceeded):
    """Sent as a whole page, the import page comes back saying when to try again."""
    return import_page_beyond_quota(error, _import_page)


@bp.post("/events/import")
def import_event():
    """Open an uploaded club night's file as a new night, or say why it cannot be read."""
    try:
        raw = uploaded_file(_("Choose the club night's file to import."), _too_large())
        fields = read_night_document(parse_night(raw))
    except UploadRefused as refused:
        return _import_page(refused.status, refused.message)
    except BadRequest as error:
        return _import_page(400, str(error))
    except ScoringError as error:
        return _import_page(400, describe(error))
    event = store.events.import_event(store.get_db(), **fields)
    page = url_for("events.organiser", token=event.token)
    if is_fragment_request():
        # As for a new night: the organiser's page has its own address, not a fragment.
        return "", 200, {"HX-Redirect": page}
    return redirect(page, 303)


@bp.record_once
def _check_uploads_after_their_limit(state) -> None:
    # As for a match's import: the app-wide CSRF check would read the upload under the
    # app's small body limit; import_event runs it itself once the upload's limit is set.
    state.app.extensions["csrf"].exempt(import_event)
