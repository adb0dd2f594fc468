"""Signing done once rather than on every request: the session cookie's serializer, the
check of each phone's session cookie, and each phone's CSRF token. Every page a phone asks
for carries a cookie and a token, and building them anew cost more than the rest of a kept
page."""

import copy
from datetime import datetime, timezone

from flask import Flask, current_app, g, session
from flask.sessions import SecureCookieSessionInterface
from flask_wtf.csrf import generate_csrf
from itsdangerous import BadSignature

from . import vary_on
from .kept import Kept


class KeptSerializerSessions(SecureCookieSessionInterface):
    """Flask's signed cookie sessions, their serializer built once per set of keys (Flask
    builds one per request, and building one encodes a test document), and each cookie's
    signature checked and its data read once: a phone sends the same cookie with every
    request until its session changes."""

    def __init__(self):
        self._serializers = {}
        # By keys and cookie: the data the cookie holds, and when it was signed.
        self._read_cookies = Kept(4096)

    def get_signing_serializer(self, app: Flask):
        keys = _keys(app)
        if keys not in self._serializers:
            self._serializers[keys] = super().get_signing_serializer(app)
        return self._serializers[keys]

    def open_session(self, app: Flask, request):
        serializer = self.get_signing_serializer(app)
        cookie = request.cookies.get(self.get_cookie_name(app))
        if serializer is None or not cookie:
            return super().open_session(app, request)
        try:
            data, signed_at = self._read_cookies.get(
                (_keys(app), cookie), lambda: serializer.loads(cookie, return_timestamp=True))
        except BadSignature:
            return self.session_class()
        # Flask's own limit on a cookie's age, whatever the session's lifetime.
        if datetime.now(timezone.utc) - signed_at > app.permanent_session_lifetime:
            return self.session_class()
        # The session is the request's to change; the kept data stays as it was read.
        return self.session_class(copy.deepcopy(data))

    def save_session(self, app: Flask, session, response) -> None:
        """Flask's, without looking up the cookie's settings when no cookie is sent: most
        answers leave the session as it came."""
        if session.modified or (session.permanent and app.config["SESSION_REFRESH_EACH_REQUEST"]):
            super().save_session(app, session, response)
        elif session.accessed:
            vary_on(response, "Cookie")


def _keys(app: Flask) -> tuple:
    """The keys a session cookie may be signed with."""
    return app.secret_key, tuple(app.config.get("SECRET_KEY_FALLBACKS") or ())


# The signed form of each session's raw token, for the phones asking now.
_signed_tokens = Kept(4096)


def csrf_token() -> str:
    """Flask-WTF's CSRF token of this session (``generate_csrf``), signed once per raw
    token: with no time limit on tokens, the one signed first is as good as a fresh one."""
    field = current_app.config["WTF_CSRF_FIELD_NAME"]
    if field in g or current_app.config["WTF_CSRF_TIME_LIMIT"] is not None:
        return generate_csrf()
    secret = current_app.config.get("WTF_CSRF_SECRET_KEY") or current_app.secret_key
    token = _signed_tokens.find((secret, session.get(field)))
    if token is None:
        # Signs the session's raw token, made first for a new phone. Kept at once: signed
        # again a second later, the next page's token would differ from this one.
        token = generate_csrf()
        _signed_tokens.keep((secret, session[field]), token)
    setattr(g, field, token)
    return token


def register(app: Flask) -> None:
    """Use both in ``app``: ``csrf_token()`` in place of Flask-WTF's, as a template global
    (for macros) and in every template's context (where Flask-WTF puts its own)."""
    app.session_interface = KeptSerializerSessions()
    app.add_template_global(csrf_token)
    app.context_processor(lambda: {"csrf_token": csrf_token})
