"""The sheets' news as it happens. Each open sheet (by the players' link or the watch-only
link) holds one stream of Server-Sent Events for its match; when the match moves on (a hand
saved, corrected or undone, a new title, a deletion or its undoing), every stream of it is
sent the new sheet, rendered once for all phones of one link and language. Nothing is sent
while nothing changes but a comment now and then that keeps the connection open. A phone
that cannot hold a stream asks every few seconds instead, naming the news it has
(``If-None-Match``), and is answered 304 while there is nothing new."""

from dataclasses import dataclass
from functools import cached_property

from flask import Blueprint, Response, abort, current_app, request, stream_with_context
from werkzeug.http import unquote_etag

import store
from store import news

from .cache import Cache
from .change_notes import describe_changes
from .i18n import locale_name
from .matches import shared_sheet

bp = Blueprint("live", __name__)

# A comment this often keeps proxies and phones from closing a quiet stream, and tells the
# server within as long that a phone went away.
KEEP_ALIVE = 20  # seconds
# How long a phone waits before it asks for its stream again after losing it.
RETRY_MS = 2000


@dataclass(frozen=True)
class News:
    """One event: its id (the version and title it shows), its name and its data."""

    id: str
    event: str
    data: str = ""

    @cached_property
    def encoded(self) -> str:
        """As the stream sends it, once for all its phones; the sheet's empty lines left out,
        which no page shows."""
        lines = [line for line in self.data.splitlines() if line.strip()] or [""]
        data = "".join(f"data: {line}\n" for line in lines)
        return f"id: {self.id}\nevent: {self.event}\n{data}\n"


def _version_seen(news_id: str | None) -> int | None:
    head = (news_id or "").split(".")[0]
    return int(head) if head.isdigit() and len(head) < 10 else None


# The news the streams were last sent, by everything it is rendered from: read, rendered
# and encoded once however many phones of a match (by one link, in one language) wait.
# Its links are paths, so the Host a phone names is no part of it nor of its key.
_sent = Cache(256)


def _news_of(read_only: bool, link: str, seen: str | None) -> News | None:
    """The news a phone that has seen ``seen`` is to hear now, if any."""
    db = store.get_db()
    state = store.match_state(db, link, read_only)
    if state is None:
        return None
    _match_id, version, title, deleted = state
    news_id = news.news_id(version, title, deleted)
    if news_id == seen:
        return None
    if deleted:
        return News(news_id, "gone")
    since = _version_seen(seen)
    if since is not None and since >= version:
        since = None
    if since not in (None, version - 1):
        # A phone back after several changes is told alone: no seen version multiplies what is kept.
        return _sheet_news(db, read_only, link, news_id, since)
    key = (read_only, link, since, news_id, locale_name(), request.script_root)
    return _sent.get(key, lambda: _sheet_news(db, read_only, link, news_id, since))


def _sheet_news(db, read_only: bool, link: str, news_id: str, since: int | None) -> News | None:
    """The sheet as ``news_id`` shows it, telling what changed after version ``since``."""
    try:
        match = (store.get_watched_match if read_only else store.get_match)(db, link)
    except store.MatchDeleted:
        return News(news_id, "gone")
    if match is None:
        return None
    told = (describe_changes(match, store.changes_since(db, match, since))
            if since is not None and since < match.version else ())
    return News(news_id, "sheet", shared_sheet(match, read_only, told))


def _known_link(read_only: bool, link: str) -> int:
    """The id of the match behind ``link`` (deleted or not), else a 404."""
    state = store.match_state(store.get_db(), link, read_only)
    if state is None:
        store.verify_unknown(store.get_db(), link)
        abort(404)
    return state[0]


def _stream(read_only: bool, link: str) -> Response:
    match_id = _known_link(read_only, link)
    path = current_app.config["DATABASE"]
    seen = request.headers.get("Last-Event-ID") or request.args.get("seen")
    store.close_db()

    @stream_with_context
    def events():
        with news.subscribe(path, match_id) as subscription:
            # Sent at once: the phone knows it is connected, and a server that sends no
            # headers before the first data sends them now.
            yield f"retry: {RETRY_MS}\n\n"
            last = seen
            while True:
                try:
                    found = _news_of(read_only, link, last)
                except Exception as error:
                    if store.storage_fault(error, path) is None:
                        raise
                    # The phone asks again in RETRY_MS, and hears of the fault then.
                    return
                finally:
                    # A waiting stream holds no database connection.
                    store.close_db()
                if found is not None:
                    last = found.id
                    yield found.encoded
                if not subscription.wait(KEEP_ALIVE):
                    yield ": still here\n\n"

    return Response(events(), mimetype="text/event-stream",
                    headers={"Cache-Control": "no-store", "X-Accel-Buffering": "no"})


def _asked_again(read_only: bool, link: str):
    """The news for a phone that asks instead of listening: 304 while it has it."""
    _known_link(read_only, link)
    seen, _weak = unquote_etag(request.headers.get("If-None-Match"))
    found = _news_of(read_only, link, seen)
    if found is None:
        return "", 304, {"ETag": f'W/"{seen}"', "Cache-Control": "no-store"}
    return found.data, 200, {"ETag": f'W/"{found.id}"', "X-News": found.event,
                             "Content-Type": "text/html; charset=utf-8",
                             "Cache-Control": "no-store"}


@bp.get("/m/<token>/events")
def sheet_events(token):
    """The stream of the match's news for a sheet opened by its players' link."""
    return _stream(False, token)


@bp.get("/v/<view_token>/events")
def watch_events(view_token):
    """The stream of the match's news for the watch-only sheet."""
    return _stream(True, view_token)


@bp.get("/m/<token>/news")
def sheet_news(token):
    """The match's news for a phone whose stream cannot be held (e.g. a buffering proxy)."""
    return _asked_again(False, token)


@bp.get("/v/<view_token>/news")
def watch_news(view_token):
    """The same for the watch-only sheet."""
    return _asked_again(True, view_token)
