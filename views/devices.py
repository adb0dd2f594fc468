"""The matches on this device: a random device id in a cookie keys its list on the server
(the cookie holds nothing else)."""

import re
import secrets

from flask import after_this_request, current_app, g, request, session

import store

DEVICE_COOKIE = "device"
# Browsers keep a cookie at most 400 days; every visit that reads the list renews it.
DEVICE_COOKIE_AGE = 400 * 24 * 3600
DEVICE_ID = re.compile(r"[A-Za-z0-9_-]{43}")


def device_id() -> str:
    """This device's random id, which keys its list of matches on the server (the cookie
    holds nothing else). A list an older version kept in the session cookie moves over."""
    if "device_id" in g:
        return g.device_id
    device = request.cookies.get(DEVICE_COOKIE, "")
    if not DEVICE_ID.fullmatch(device):
        device = secrets.token_urlsafe(32)
    g.device_id = device

    @after_this_request
    def keep_device_cookie(response):
        response.set_cookie(DEVICE_COOKIE, device, max_age=DEVICE_COOKIE_AGE, httponly=True,
                            samesite="Lax", secure=current_app.config["SESSION_COOKIE_SECURE"])
        return response

    if "matches" in session:
        for token in reversed(session.pop("matches")):
            store.remember_match(store.get_db(), device, token)
    return device


def presented_device() -> str | None:
    """The device id this request's cookie carries, if it carries one (none is handed out)."""
    device = request.cookies.get(DEVICE_COOKIE, "")
    return device if DEVICE_ID.fullmatch(device) else None


def remembered_matches() -> list[store.ListedMatch]:
    """The matches opened on this device, last opened first, with those it deleted that can
    still be restored."""
    return store.device_matches(store.get_db(), device_id())


def remember_match(token: str) -> None:
    """Put the match behind this edit link at the top of this device's list. A database that
    cannot take the write just now (a full disk) does not keep the sheet from showing: the
    list catches up the next time the sheet is opened."""
    try:
        store.remember_match(store.get_db(), device_id(), token)
    except store.Unavailable as error:
        current_app.logger.warning("This device's list of matches was not updated: %s", error)
