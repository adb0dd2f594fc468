"""Fixtures for the web: an app on a fresh database, its test client, its CLI runner. The
lanes: scoring/ (the rules, pure), web/ (the test client), browser/ (Chromium, with fixtures
of its own) and ops/ (real servers, crashes, faults, backups, the bench).

Every test of web/ that uses a database runs on each store ``--backend`` names: SQLite, and
PostgreSQL in a throwaway cluster when it is installed (``both``, the default)."""

import os
import shutil
from functools import partial
from pathlib import Path

import postgres_cluster
import pytest
from flask import url_for
from helpers import post_form
from hypothesis import settings

import store
from app import create_app
from rules_content.index import RulesIndex
from views import reach

# CI draws the same examples on every run, so a red run is a real finding and running it
# again repeats it; a run of one's own explores new examples each time. Either way a
# failure prints the @reproduce_failure line that replays it. No example has a deadline:
# on a shared, busy machine one took 300 ms that takes 0.06 ms, and speed is the bench's.
settings.register_profile("ci", derandomize=True, database=None, print_blob=True,
                          deadline=None)
settings.register_profile("explore", print_blob=True, deadline=None)
settings.load_profile(os.environ.get("HYPOTHESIS_PROFILE", "explore"))


BACKENDS = ("sqlite", "postgres")
WEB = Path(__file__).parent / "web"


def pytest_addoption(parser):
    parser.addoption("--backend", choices=(*BACKENDS, "both"), default=None,
                     help="the store the web tests run on (default: both when PostgreSQL is "
                          "installed, else sqlite)")


def _backends(config) -> tuple[str, ...]:
    chosen = config.getoption("--backend", None)
    installed = postgres_cluster.binaries() is not None
    if chosen in ("postgres", "both") and not installed:
        raise pytest.UsageError("PostgreSQL is not installed (no initdb found)")
    if chosen is None:
        return BACKENDS if installed else BACKENDS[:1]
    return BACKENDS if chosen == "both" else (chosen,)


def pytest_report_header(config):
    if "postgres" not in _backends(config) and config.getoption("--backend", None) is None:
        return "PostgreSQL is not installed (no initdb found): the PostgreSQL lane does not run."
    return None


def pytest_generate_tests(metafunc):
    """The web tests that use a database, on each backend chosen; a test of the SQLite file
    itself (``sqlite_only``) on SQLite alone."""
    if "backend" not in metafunc.fixturenames or WEB not in metafunc.definition.path.parents:
        return
    backends = _backends(metafunc.config)
    if metafunc.definition.get_closest_marker("sqlite_only"):
        backends = tuple(backend for backend in backends if backend == "sqlite")
    metafunc.parametrize("backend", backends)


@pytest.fixture
def backend() -> str:
    """The store a test outside web/ runs on."""
    return "sqlite"


@pytest.fixture(scope="session")
def postgres_made():
    """The run's PostgreSQL database, its schema made as a start makes it."""
    if postgres_cluster.binaries() is None:
        pytest.skip("PostgreSQL is not installed (no initdb found)")
    with postgres_cluster.cluster() as url:
        store.prepare(url)
        yield url


@pytest.fixture(scope="session")
def rules_index(tmp_path_factory) -> str:
    """The rules' search index, built once for the whole run; every app reads it, none
    writes it (a test that changes an index builds one of its own)."""
    path = str(tmp_path_factory.mktemp("rules") / "rules-index.sqlite")
    RulesIndex(path).build()
    return path


@pytest.fixture(scope="session")
def database_made(tmp_path_factory) -> str:
    """A database as the app makes it on a start, made once: each test's begins as a copy."""
    path = str(tmp_path_factory.mktemp("made") / "tablemate.sqlite")
    store.connect(path).close()
    return path


@pytest.fixture(scope="session")
def served_app(rules_index, tmp_path_factory):
    """The app, built once for the run: building it costs more than most tests do."""
    return create_app({"TESTING": True, "RULES_INDEX": rules_index, "SECRET_KEY": "test",
                       "DATABASE": str(tmp_path_factory.mktemp("served") / "tablemate.sqlite")})


@pytest.fixture
def database(backend, request, tmp_path) -> str:
    """The test's own database: a file in ``tmp_path`` copied from one made as a start makes
    it, or the run's PostgreSQL database emptied."""
    if backend == "postgres":
        url = request.getfixturevalue("postgres_made")
        postgres_cluster.emptied(url)
        return url
    path = str(tmp_path / "tablemate.sqlite")
    shutil.copy(request.getfixturevalue("database_made"), path)
    return path


@pytest.fixture
def app(served_app, database, monkeypatch):
    """The app on a database of the test's own, prepared as a start prepares it. One app
    serves every test, so a test changes it only through monkeypatch."""
    monkeypatch.setitem(served_app.config, "DATABASE", database)
    store.connect(database).close()
    # Each test begins with no start or import counted against the quotas.
    served_app.extensions["quotas"].reset()
    return served_app


@pytest.fixture
def client(app):
    return app.test_client()


@pytest.fixture
def static_url(app):
    """A static file's address as the pages name it (versioned by its content)."""
    def versioned(filename: str) -> str:
        with app.test_request_context():
            return url_for("static", filename=filename)
    return versioned


@pytest.fixture
def runner(app):
    return app.test_cli_runner()


@pytest.fixture
def post(client):
    """POST a form the way a page does: with the CSRF token the page carries."""
    return partial(post_form, client)


@pytest.fixture
def table_wifi(monkeypatch) -> str:
    """This machine on a table's wifi, at the address it returns, whatever network runs the
    tests; no server answers there, as none does for the test client and ``live_server``,
    which serve 127.0.0.1 only."""
    monkeypatch.setattr(reach, "table_address", lambda: "192.168.1.23")
    monkeypatch.setattr(reach, "answers", lambda address, port, timeout=0.2: False)
    return "192.168.1.23"


@pytest.hookimpl(trylast=True)
def pytest_collection_modifyitems(items):
    """schemathesis names each operation's contract test after it but gives them one shared
    node id, and `make test`'s workers hand out tests by node id: all but one operation
    would go unrun. Each gets its operation in its id, as its name has it."""
    for item in items:
        label = getattr(item, "operation_label", None)
        if label and item.name.endswith(f"[{label}]") and not item.nodeid.endswith("]"):
            item._id = item._id.with_params(label)
