"""Tablemate: score sheets, rule checkers and rules for Burro, Burraco, Bura and Buraco."""

import os
import secrets
import click
from flask import Flask, current_app, request
from flask_babel import Babel
from flask_wtf.csrf import CSRFProtect

import store
from views import (api, assets, checkers, errors, home, matches, offline, rule_search, rules,
                   share, template_helpers, transfer)

LANGUAGES = ("en", "de")
HTMX_VERSION = "2.0.11"

csrf = CSRFProtect()
babel = Babel()


def select_locale() -> str:
    """The language the player chose, else the browser's best match, else English."""
    chosen = request.cookies.get("lang")
    if chosen in LANGUAGES:
        return chosen
    return request.accept_languages.best_match(LANGUAGES) or LANGUAGES[0]


def _secret_key(instance_path: str) -> str:
    """Generated once into the instance folder, so links and forms survive restarts.

    Written beside and linked into place: of several workers starting at once, one key
    wins, and none reads a half-written file.
    """
    path = os.path.join(instance_path, "secret_key")
    if not os.path.exists(path):
        draft = f"{path}.{os.getpid()}"
        with open(os.open(draft, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o600), "w") as file:
            file.write(secrets.token_hex(32))
        try:
            os.link(draft, path)
        except FileExistsError:
            pass
        finally:
            os.remove(draft)
    with open(path) as file:
        return file.read().strip()


def create_app(config=None) -> Flask:
    app = Flask(__name__, instance_relative_config=True)
    app.config.from_mapping(
        DATABASE=os.path.join(app.instance_path, "tablemate.sqlite"),
        LANGUAGES=LANGUAGES,
        BABEL_DEFAULT_LOCALE=LANGUAGES[0],
        HTMX_CDN_URL=f"https://unpkg.com/htmx.org@{HTMX_VERSION}/dist/htmx.min.js",
        HTMX_SRI="sha384-2OatzQy1H+Zd/IIrjr1TcuDGqLXeHhbooAyJY1KdQMKnr4LZ22k31GBLdYKHmVjg",
        HTMX_VENDORED=f"vendor/htmx-{HTMX_VERSION}.min.js",
        SESSION_COOKIE_SAMESITE="Lax",
        WTF_CSRF_TIME_LIMIT=None,
        RECENT_MATCHES=12,
        # A hand, a form or an API call is a few hundred bytes; anything near this is abuse.
        MAX_CONTENT_LENGTH=64 * 1024,
    )
    app.config.from_prefixed_env()
    app.config.from_pyfile("config.py", silent=True)
    if config:
        app.config.from_mapping(config)
    os.makedirs(app.instance_path, exist_ok=True)
    if not app.config.get("SECRET_KEY"):
        app.config["SECRET_KEY"] = _secret_key(app.instance_path)

    csrf.init_app(app)
    babel.init_app(app, locale_selector=select_locale)
    csrf.exempt(api.bp)
    for blueprint in (home.bp, matches.bp, share.bp, transfer.bp, checkers.bp, rules.bp,
                      api.bp, offline.bp):
        app.register_blueprint(blueprint)
    assets.register(app)
    errors.register(app)
    template_helpers.register(app)
    app.teardown_appcontext(store.close_db)
    app.after_request(_security_headers)

    @app.cli.command("init-db")
    def init_db_command():
        """Create the database or bring its schema up to date."""
        store.connect(app.config["DATABASE"]).close()
        click.echo(f"Schema version {len(store.MIGRATIONS)} ready.")

    @app.cli.command("index-rules")
    def index_rules_command():
        """Load the rules documents into the search index if they changed."""
        with app.app_context():
            rebuilt = rule_search.index_rules(store.get_db())
        click.echo("Rules index rebuilt." if rebuilt else "Rules index is up to date.")

    with app.app_context():
        rule_search.index_rules(store.get_db())
    return app


def _security_headers(response):
    """A strict CSP (scripts only from here and the one pinned CDN file), and no match link
    in referrers."""
    response.headers["Content-Security-Policy"] = (
        "default-src 'self'; "
        f"script-src 'self' {current_app.config['HTMX_CDN_URL']}; "
        "style-src 'self'; img-src 'self' data:; connect-src 'self'; "
        "form-action 'self'; frame-ancestors 'none'; base-uri 'none'; object-src 'none'"
    )
    # Match links are the keys to the sheets: never hand them to the CDN in a Referer.
    response.headers["Referrer-Policy"] = "same-origin"
    response.headers["X-Content-Type-Options"] = "nosniff"
    # The same address answers page or fragment, in the reader's language.
    for header in ("HX-Request", "HX-Boosted", "HX-History-Restore-Request",
                   "Accept-Language"):
        response.vary.add(header)
    return response
