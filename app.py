"""Tablemate: score sheets, rule checkers and rules for Burro, Burraco, Bura and Buraco."""

import os
import secrets
import sqlite3
from urllib.parse import urlsplit

from flask import Flask, current_app, request
from flask_babel import Babel
from flask_babel import gettext as _
from flask_compress import Compress
from flask_wtf.csrf import CSRFProtect
from werkzeug.datastructures import LanguageAccept
from werkzeug.exceptions import SecurityError
from werkzeug.http import parse_accept_header
from werkzeug.middleware.proxy_fix import ProxyFix

import store
from rules_content.index import RulesIndex
from views import (
    api,
    assets,
    checkers,
    commands,
    errors,
    event_transfer,
    events,
    home,
    hosts,
    live,
    matches,
    offline,
    quotas,
    rules,
    share,
    template_helpers,
    transfer,
    vary_on,
)
from views import games as web_games

LANGUAGES = ("en", "de")
HTMX_VERSION = "2.0.11"
MATCH_ADDRESSES = ("/m/", "/v/", "/api/v1/matches")
# What besides the address decides an answer (compression and the session add theirs).
VARY = ("HX-Request", "HX-Boosted", "HX-History-Restore-Request", "Accept-Language")

csrf = CSRFProtect()
babel = Babel()
compress = Compress()


def select_locale() -> str:
    """The language the player chose, else the browser's best match, else English."""
    chosen = request.cookies.get("lang")
    if chosen in LANGUAGES:
        return chosen
    accepted = parse_accept_header(request.headers.get("Accept-Language", ""), LanguageAccept)
    return accepted.best_match(LANGUAGES) or LANGUAGES[0]


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


def _database_url() -> str | None:
    """The PostgreSQL server ``DATABASE_URL`` names, if it names one."""
    url = os.environ.get("DATABASE_URL", "")
    return url if store.postgres.is_url(url) else None


def create_app(config=None) -> Flask:
    app = Flask(__name__, instance_relative_config=True)
    app.config.from_mapping(
        # A SQLite file, or a PostgreSQL server's URL (as hosting platforms set DATABASE_URL).
        DATABASE=_database_url() or os.path.join(app.instance_path, "tablemate.sqlite"),
        # The rules' search index, built from the documents by each server for itself.
        RULES_INDEX=os.path.join(app.instance_path, "rules-index.sqlite"),
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
        # How long worker.py waits on a phone stalled in its request's body or its answer.
        STALL_TIMEOUT=10,
        # Where the players reach the app ("https://scores.example.org"): every absolute
        # link is built on it. Unset, links follow the address a request came to, as on a
        # laptop serving the table's wifi.
        BASE_URL="",
        # How many proxies in front set X-Forwarded-For, -Proto, -Host and -Prefix.
        BEHIND_PROXY=0,
        # How many matches one client address may start, and import, in a while: a club's
        # tables all start theirs from the one address of its router.
        MATCHES_PER_CLIENT="60 per minute; 600 per hour",
        IMPORTS_PER_CLIENT="20 per minute; 200 per hour",
        # How many refused confirmations (a wrong code) one client address may send: a code
        # of four signs takes some 300,000 tries to guess.
        CONFIRMS_PER_CLIENT="30 per minute; 300 per hour",
        # Where the quotas are counted: each process on its own, unless a store they share
        # is named ("redis://localhost:6379").
        RATELIMIT_STORAGE_URI="memory://",
        # A shared store that stops answering: each process counts on its own meanwhile.
        RATELIMIT_IN_MEMORY_FALLBACK_ENABLED=True,
        # Static files are sent as streams: gzip for them too, for phones that take no other.
        COMPRESS_ALGORITHM_STREAMING=["zstd", "br", "gzip", "deflate"],
        # Done below for static files only (_static_file_conditional).
        COMPRESS_EVALUATE_CONDITIONAL_REQUEST=False,
    )
    app.config.from_prefixed_env()
    app.config.from_pyfile("config.py", silent=True)
    if config:
        app.config.from_mapping(config)
    # The tests hold every API answer to its documented model (views/api/contract.py).
    app.config.setdefault("CHECK_API_ANSWERS", app.config.get("TESTING", False))
    os.makedirs(app.instance_path, exist_ok=True)
    if not app.config.get("SECRET_KEY"):
        app.config["SECRET_KEY"] = _secret_key(app.instance_path)
    # Inside the proxy fix, so a forwarded Host is checked too; before the CSRF check.
    hosts.register(app)
    _serve_as_configured(app)

    csrf.init_app(app)
    # After the CSRF check: a form that fails it starts nothing and is not counted.
    quotas.register(app)
    babel.init_app(app, locale_selector=select_locale)
    # Runs after compression (handlers run last registered first), which changes the ETag.
    app.after_request(_static_file_conditional)
    # Pages, styles, scripts and JSON compressed for a slow wifi; empty answers (304) and
    # statuses other than 2xx are left as they are, and so are the news streams.
    compress.init_app(app)
    for blueprint in (home.bp, matches.bp, live.bp, share.bp, transfer.bp, checkers.bp,
                      rules.bp, offline.bp, events.bp, event_transfer.bp):
        app.register_blueprint(blueprint)
    api.register(app, csrf)
    web_games.register(app)
    assets.register(app)
    errors.register(app)
    app.register_error_handler(SecurityError, _refuse_unknown_host)
    template_helpers.register(app)
    app.teardown_request(store.release_db)
    app.teardown_appcontext(store.close_db)
    app.after_request(_security_headers)

    commands.register(app)
    _prepare_storage(app)
    return app


def _prepare_storage(app: Flask) -> None:
    """Bring the database's schema up to date, check the file whole, and build the rules'
    index, before the first request. A fault in either is logged and the app still starts:
    every page that needs them says what is wrong, and the first request that needs them
    tries again."""
    path = app.config["DATABASE"]
    try:
        if store.prepare(path):
            app.logger.warning("The database %s was missing or empty, where one had been: a "
                               "new, empty one was made. If it held matches, restore a backup "
                               "(flask restore).", path)
    except store.Unavailable as error:
        app.logger.error("The database is unavailable: %s", error)
    try:
        RulesIndex(app.config["RULES_INDEX"]).build()
    except (OSError, sqlite3.Error) as error:
        app.logger.error("Rules index not built: %s", error)


def _serve_as_configured(app: Flask) -> None:
    """Check ``BASE_URL``; served over HTTPS, send every cookie only over HTTPS; trust the
    forwarded headers of ``BEHIND_PROXY`` proxies and no others."""
    base_url = app.config["BASE_URL"]
    if base_url:
        address = urlsplit(base_url)
        if (address.scheme not in ("http", "https") or not address.netloc
                or address.path.strip("/") or address.query or address.fragment):
            raise ValueError(f"BASE_URL is a scheme and host such as "
                             f"https://scores.example.org, not {base_url!r}")
        app.config["BASE_URL"] = f"{address.scheme}://{address.netloc}"
        if address.scheme == "https":
            app.config["SESSION_COOKIE_SECURE"] = True
    proxies = int(app.config["BEHIND_PROXY"])
    if proxies:
        app.wsgi_app = ProxyFix(app.wsgi_app, x_for=proxies, x_proto=proxies, x_host=proxies,
                                x_prefix=proxies)


def _refuse_unknown_host(error: SecurityError):
    """A request for a host that ``TRUSTED_HOSTS`` does not name: a 400 in plain text, since
    the error page cannot link to a host the app does not serve."""
    if request.path.startswith("/api/"):
        return errors.handle_http_error(error)
    return (_("The request could not be read; nothing was saved."), 400,
            {"Content-Type": "text/plain; charset=utf-8"})


def _static_file_conditional(response):
    """A 304 for a phone that has this static file already, judged by the ETag compression
    gave it. Only these: the match API answers its ETag before it builds the answer, pages
    have none, and Flask-Compress's check of every answer gave each a second Date header
    besides the server's."""
    if request.endpoint == "static" and request.method in ("GET", "HEAD"):
        response.make_conditional(request)
    return response


def _security_headers(response):
    """A strict CSP (scripts only from here and the one pinned CDN file, and the page's
    import map, which runs nothing), no match link in referrers, and no match in a shared
    cache."""
    scripts = " ".join(filter(None, ("'self'", current_app.config["HTMX_CDN_URL"],
                                     assets.import_map_source())))
    response.headers["Content-Security-Policy"] = (
        "default-src 'self'; "
        f"script-src {scripts}; "
        "style-src 'self'; img-src 'self' data:; connect-src 'self'; "
        "form-action 'self'; frame-ancestors 'none'; base-uri 'none'; object-src 'none'"
    )
    # Match links are the keys to the sheets: never hand them to the CDN in a Referer.
    response.headers["Referrer-Policy"] = "same-origin"
    response.headers["X-Content-Type-Options"] = "nosniff"
    # An answer reached by a match's link shows the match, and the home page this device's
    # matches: no shared cache may keep them, and the phone asks again each time (the API's
    # ETag makes that cheap). Polls keep no-store.
    private = _shows_a_match() or request.endpoint == "home.index"
    if private and "Cache-Control" not in response.headers:
        response.headers["Cache-Control"] = "private, no-cache"
    # The same address answers page or fragment, in the reader's language.
    vary_on(response, *VARY)
    return response


def _shows_a_match() -> bool:
    """The answer is a match's page (by its players' or watch-only link) or the match API's."""
    return request.url_rule is not None and request.url_rule.rule.startswith(MATCH_ADDRESSES)
