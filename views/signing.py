"""Signing done once rather than on every request: the session cookie's serializer, and
each phone's CSRF token. Every page a phone asks for carries both, and building them anew
cost more than the rest of a kept page."""

from flask import Flask, current_app, g, session
from flask.sessions import SecureCookieSessionInterface
from flask_wtf.csrf import generate_csrf

from .kept import Kept


class KeptSerializerSessions(SecureCookieSessionInterface):
    """Flask's signed cookie sessions, their serializer built once per set of keys: Flask
    builds one per request, and building one encodes a test document."""

    def __init__(self):
        self._serializers = {}

    def get_signing_serializer(self, app: Flask):
        keys = (app.secret_key, tuple(app.config.get("SECRET_KEY_FALLBACKS") or ()))
        if keys not in self._serializers:
            self._serializers[keys] = super().get_signing_serializer(app)
        return self._serializers[keys]


# The signed form of each session's raw token, for the phones asking now.
_signed_tokens = Kept(4096)


def csrf_token() -> str:
    """Flask-WTF's CSRF token of this session (``generate_csrf``), signed once per raw
    token: with no time limit on tokens, the one signed first is as good as a fresh one."""
    field = current_app.config["WTF_CSRF_FIELD_NAME"]
    raw = session.get(field)
    if field in g or raw is None or current_app.config["WTF_CSRF_TIME_LIMIT"] is not None:
        return generate_csrf()
    secret = current_app.config.get("WTF_CSRF_SECRET_KEY") or current_app.secret_key
    token = _signed_tokens.get((secret, raw), generate_csrf)
    setattr(g, field, token)
    return token


def register(app: Flask) -> None:
    """Use both in ``app``: the template global ``csrf_token()`` in place of Flask-WTF's."""
    app.session_interface = KeptSerializerSessions()
    app.add_template_global(csrf_token)
