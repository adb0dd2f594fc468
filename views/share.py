"""Sharing a match: QR codes of its links, and the read-only sheet behind its view link."""

import hashlib
import io

import segno
from flask import Blueprint, Response, abort, request, url_for

from .loaders import get_match_or_404, get_watched_match_or_404
from .matches import read_only_sheet
from .urls import share_url, table_reach

bp = Blueprint("share", __name__)
# The share box's links and its note of who can open them (templates/matches/_sheet.html).
bp.add_app_template_global(share_url)
bp.add_app_template_global(table_reach)

# A code's address names the link it shows, so the phone may keep the image for good: a
# save or a reload asks for none again, and a new network address is a new address.
QR_CACHE = "private, max-age=31536000, immutable"


def link_key(url: str | None) -> str:
    """A short name of the link a QR code shows: its address's ``link`` parameter and its
    ETag."""
    return hashlib.sha256((url or "").encode()).hexdigest()[:12]


@bp.app_template_global()
def qr_url(endpoint: str, url: str | None, **values) -> str:
    """The address of the QR code of ``url`` at ``endpoint``: the same for as long as the
    link is."""
    return url_for(endpoint, link=link_key(url), **values)


def qr_svg(url: str | None) -> Response:
    """A QR code of ``url`` as an SVG image, dark on white even in dark mode (what a
    phone's camera reads best), with the standard quiet zone of four modules; a 404 when
    there is no link the other phones could open; a 304 for a phone that has it."""
    if url is None:
        abort(404)
    # Weak, as compression leaves a weak ETag as it is.
    headers = {"ETag": f'W/"{link_key(url)}"', "Cache-Control": QR_CACHE}
    if request.if_none_match.contains_weak(link_key(url)):
        return Response(status=304, headers=headers)
    image = io.BytesIO()
    segno.make(url, error="m").save(image, kind="svg", scale=1, border=4, light="#fff",
                                    xmldecl=False, svgclass=None, lineclass=None)
    return Response(image.getvalue(), mimetype="image/svg+xml", headers=headers)


@bp.get("/m/<token>/qr.svg")
def match_qr(token):
    """The QR code of the match's link: a phone that scans it can enter hands."""
    match = get_match_or_404(token)
    return qr_svg(share_url("matches.show", token=match.token))


@bp.get("/v/<view_token>")
def view(view_token):
    """The live sheet for watching: totals and history, nothing that changes the match."""
    return read_only_sheet(get_watched_match_or_404(view_token))


@bp.get("/v/<view_token>/qr.svg")
def view_qr(view_token):
    """The QR code of the read-only link."""
    match = get_watched_match_or_404(view_token)
    return qr_svg(share_url("share.view", view_token=match.view_token))
