"""Fixtures for the web: an app on a fresh database, its test client, its CLI runner. The
lanes: scoring/ (the rules, pure), web/ (the test client), browser/ (Chromium, with fixtures
of its own) and ops/ (real servers, crashes, faults, backups, the bench)."""

import os
from functools import partial

import pytest
from flask import url_for
from helpers import post_form
from hypothesis import settings
from jinja2 import BytecodeCache

from app import create_app
from rules_content.index import RulesIndex
from views import reach

# CI draws the same examples on every run, so a red run is a real finding and running it
# again repeats it; a run of one's own explores new examples each time. Either way a
# failure prints the @reproduce_failure line that replays it.
settings.register_profile("ci", derandomize=True, database=None, print_blob=True)
settings.register_profile("explore", print_blob=True)
settings.load_profile(os.environ.get("HYPOTHESIS_PROFILE", "explore"))


@pytest.fixture(scope="session")
def rules_index(tmp_path_factory) -> str:
    """The rules' search index, built once for the whole run; every app reads it, none
    writes it (a test that changes an index builds one of its own)."""
    path = str(tmp_path_factory.mktemp("rules") / "rules-index.sqlite")
    RulesIndex(path).build()
    return path


class CompiledTemplates(BytecodeCache):
    """Templates compiled once for the whole run, whichever test's app renders them; a
    template whose source changed is compiled again (Jinja compares the source)."""

    def __init__(self):
        self.code = {}

    def load_bytecode(self, bucket):
        if bucket.key in self.code:
            bucket.bytecode_from_string(self.code[bucket.key])

    def dump_bytecode(self, bucket):
        self.code[bucket.key] = bucket.bytecode_to_string()


COMPILED_TEMPLATES = CompiledTemplates()


@pytest.fixture
def app(tmp_path, rules_index):
    app = create_app({"TESTING": True, "DATABASE": str(tmp_path / "tablemate.sqlite"),
                      "RULES_INDEX": rules_index, "SECRET_KEY": "test"})
    # Each test's app is new; the templates it renders are the run's.
    app.jinja_env.bytecode_cache = COMPILED_TEMPLATES
    return app


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
