"""Sharing a match: QR codes of its links, and the read-only sheet behind its view link."""

import io

import segno
from flask import Blueprint, Response

from .links import absolute_url
from .lookup import get_match_or_404, get_watched_match_or_404
from .matches import NOTHING_NEW, changed_since, read_only_sheet

bp = Blueprint("share", __name__)


def qr_svg(url: str) -> Response:
    """A QR code of ``url`` as an SVG image, dark on white even in dark mode (what a
    phone's camera reads best), with the standard quiet zone of four modules."""
    image = io.BytesIO()
    segno.make(url, error="m").save(image, kind="svg", scale=1, border=4, light="#fff",
                                    xmldecl=False, svgclass=None, lineclass=None)
    return Response(image.getvalue(), mimetype="image/svg+xml")


@bp.get("/m/<token>/qr.svg")
def match_qr(token):
    """The QR code of the match's link: a phone that scans it can enter hands."""
    match = get_match_or_404(token)
    return qr_svg(absolute_url("matches.show", token=match.token))


@bp.get("/v/<view_token>")
def view(view_token):
    """The live sheet for watching: totals and history, nothing that changes the match."""
    return read_only_sheet(get_watched_match_or_404(view_token))


@bp.get("/v/<view_token>/since/<int:version>")
def view_since(view_token, version):
    """The read-only sheet's question every few seconds: anything new since ``version``?"""
    changed = changed_since(view_token, version, get_watched_match_or_404)
    if changed is None:
        return NOTHING_NEW
    match, news = changed
    body, status, _headers = read_only_sheet(match, news=news)
    return body, status, {"Cache-Control": "no-store"}


@bp.get("/v/<view_token>/qr.svg")
def view_qr(view_token):
    """The QR code of the read-only link."""
    match = get_watched_match_or_404(view_token)
    return qr_svg(absolute_url("share.view", view_token=match.view_token))
