"""A match leaves and enters the app as a file: the sheet as a spreadsheet (CSV), and the
import page that opens a match exported as JSON on another device."""

import csv
import io

from flask import Blueprint, current_app, redirect, request, url_for
from flask_babel import gettext as _
from flask_limiter import RateLimitExceeded
from werkzeug.exceptions import RequestEntityTooLarge

import store
from scoring.errors import ScoringError

from . import errors, is_fragment_request, render
from .api.documents import DOCUMENT_LIMIT, parse_document, read_match_document
from .chart import hand_gains, running_totals
from .devices import remember_match
from .games import all_games
from .json_bodies import BadRequest
from .loaders import get_match_or_404, scored
from .refusals import describe
from .template_helpers import number, unit_labels

bp = Blueprint("transfer", __name__)

# The form around the file: its token and the multipart boundaries.
FORM_ROOM = 16 * 1024
# A spreadsheet runs a cell starting with one of these as a formula.
FORMULA_STARTS = ("=", "+", "-", "@", "\t", "\r")


def spreadsheet_text(text: str) -> str:
    """Text a spreadsheet shows as written, never runs as a formula.

    >>> spreadsheet_text("=SUM(A1)"), spreadsheet_text("Anna")
    ("'=SUM(A1)", 'Anna')
    """
    return f"'{text}" if text.startswith(FORMULA_STARTS) else text


def spreadsheet_rows(rows: list[list]) -> list[list]:
    """Rows whose text cells a spreadsheet shows as written."""
    return [[spreadsheet_text(cell) if isinstance(cell, str) else cell for cell in cells]
            for cells in rows]


def csv_file(rows: list[list], filename: str):
    """The rows as a CSV file a spreadsheet opens, downloaded as ``filename``."""
    text = io.StringIO()
    csv.writer(text).writerows(spreadsheet_rows(rows))
    # The byte order mark tells spreadsheets the file is UTF-8 (names like Jürgen, ♥).
    return "\ufeff" + text.getvalue(), 200, {
        "Content-Type": "text/csv; charset=utf-8",
        "Content-Disposition": f'attachment; filename="{filename}"'}


class UploadRefused(Exception):
    """An import page's upload that cannot be read: the status and what to say."""

    def __init__(self, status: int, message: str):
        super().__init__(message)
        self.status, self.message = status, message


def uploaded_file(missing: str, too_large: str) -> bytes:
    """The file an import page's form sends, at most DOCUMENT_LIMIT bytes, its form's CSRF
    token checked once the upload's own limit is set (the app-wide check would read it
    under the app's small body limit); ``UploadRefused`` with ``missing`` or ``too_large``."""
    request.max_content_length = DOCUMENT_LIMIT + FORM_ROOM
    try:
        current_app.extensions["csrf"].protect()
    except RequestEntityTooLarge:
        # Said as the file's limit, which the player chose the file by, not the form's.
        raise UploadRefused(413, too_large) from None
    upload = request.files.get("document")
    raw = upload.stream.read(DOCUMENT_LIMIT + 1) if upload else b""
    if not raw:
        raise UploadRefused(400, missing)
    if len(raw) > DOCUMENT_LIMIT:
        raise UploadRefused(400, too_large)
    return raw


def import_page_beyond_quota(error: RateLimitExceeded, page):
    """Sent as a whole page, an import page comes back (``page(status, error)``) saying
    when to try again; for htmx the app's own answer."""
    if is_fragment_request():
        return errors.handle_beyond_quota(error)
    message, seconds = errors.beyond_quota(error)
    body, status = page(429, message)
    return body, status, {"Retry-After": str(seconds)}


def sheet_rows(match: store.Match) -> list[list]:
    """The sheet as a table: a header, then one row per hand with its number, dealer, and
    each unit's gain and running total; a tournament match's Victory Points at its end."""
    _game, _options, standings = scored(match)
    hand = _("Game") if all_games()[match.game].says_game else _("Hand")
    header = [hand, _("Dealer")]
    for label in unit_labels(standings.units, match.players):
        header += [_("%(name)s: gain", name=label), _("%(name)s: total", name=label)]
    rows, before = [header], (0,) * len(standings.units)
    for row in standings.rows:
        cells = [row.number, match.players[row.dealer]]
        for gain, total in zip(hand_gains(row, before), running_totals(row)):
            cells += [gain, total]
        rows.append(cells)
        before = running_totals(row)
    # A tournament match ends with each pair's Victory Points, under its total as on the sheet.
    if getattr(standings, "victory_points", None) is not None:
        rows.append([_("Victory Points"), ""] + [cell for points in standings.victory_points
                                                  for cell in ("", points)])
    return rows


@bp.get("/m/<token>/export.csv")
def export_csv(token):
    """The sheet as a CSV file a spreadsheet opens: a row per hand with running totals."""
    match = get_match_or_404(token)
    return csv_file(sheet_rows(match), f"{match.game}-{match.created_at[:10]}.csv")


def _too_large() -> str:
    return _("The file is larger than %(num)s KB, too large for a match.",
             num=number(DOCUMENT_LIMIT // 1024))


def _import_page(status: int = 200, error: str | None = None):
    return render("matches/import.html", "form", status, error=error)


@bp.get("/import")
def import_form():
    """The import page: a match file from another device becomes a match here."""
    return _import_page()


@bp.errorhandler(RateLimitExceeded)
def import_beyond_quota(error: RateLimitExceeded):
    """Sent as a whole page, the import page comes back saying when to try again."""
    if request.endpoint != "transfer.import_match":
        return errors.handle_beyond_quota(error)
    return import_page_beyond_quota(error, _import_page)


@bp.post("/import")
def import_match():
    """Open an uploaded match file as a new match, or say why it cannot be read."""
    try:
        raw = uploaded_file(_("Choose the match file to import."), _too_large())
        fields = read_match_document(parse_document(raw))
    except UploadRefused as refused:
        return _import_page(refused.status, refused.message)
    except BadRequest as error:
        return _import_page(400, str(error))
    except ScoringError as error:
        return _import_page(400, describe(error))
    match = store.import_match(store.get_db(), **fields)
    remember_match(match.token)
    sheet = url_for("matches.show", token=match.token)
    if is_fragment_request():
        # As for a new match: the sheet is a page with its own address, not a fragment.
        return "", 200, {"HX-Redirect": sheet}
    return redirect(sheet, 303)


@bp.record_once
def _check_uploads_after_their_limit(state) -> None:
    # The app-wide CSRF check would read the upload under the app's small body limit;
    # import_match runs the same check itself once the upload's limit is set.
    state.app.extensions["csrf"].exempt(import_match)
