"""`make run` serves with gunicorn's threaded workers: phones that send half a request and
stall do not keep the rest of the table waiting."""

import http.client
import socket
import time
from pathlib import Path
from types import SimpleNamespace

import pytest
from benchmarks.serve import ROOT, TABLEMATE, run_command, served
from jinja2 import TemplateNotFound

# A stalled phone must not be felt: another player's answer comes within this.
PROMPT = 1.0


def get(port: int, path: str = "/", timeout: float = 5.0) -> int:
    """The status of a plain GET, as a phone sends it."""
    connection = http.client.HTTPConnection("127.0.0.1", port, timeout=timeout)
    try:
        connection.request("GET", path)
        return connection.getresponse().status
    finally:
        connection.close()


@pytest.fixture
def served_as_make_run(tmp_path):
    """The app under the exact command of `make run`, on a free port and a fresh database;
    yields the port once it answers."""
    with served(TABLEMATE, tmp_path / "tablemate.sqlite") as address:
        yield int(address.rsplit(":", 1)[1])


def test_make_run_serves_with_gunicorns_threaded_workers():
    """Flask's development server is no server for a table; gunicorn with threads is."""
    command = run_command(8080, host="0.0.0.0")
    assert Path(command[0]).name == "gunicorn"
    assert command[command.index("--bind") + 1] == "0.0.0.0:8080"
    assert command[-1] == "app:create_app()"
    settings = {}
    exec((ROOT / command[command.index("--config") + 1]).read_text(), settings)
    assert settings["worker_class"] == "gthread" and settings["threads"] > 2
    assert {"timeout", "graceful_timeout", "keepalive"} <= settings.keys()


def test_a_worker_compiles_every_template_before_its_first_request(app, monkeypatch):
    """The first phone after a restart waits for no template; compiled before the worker
    freezes what it made while starting, they are never walked by its garbage collector."""
    settings = {}
    exec((ROOT / "gunicorn.conf.py").read_text(), settings)
    templates = app.jinja_env
    names = templates.list_templates()
    compiled_when_frozen = []

    def freeze():
        # From now on a template not compiled yet cannot be read.
        monkeypatch.setattr(type(templates.loader), "get_source", unreadable)
        compiled_when_frozen.extend(name for name in names if templates.get_template(name))

    def unreadable(_loader, _environment, name):
        raise TemplateNotFound(name)

    monkeypatch.setattr(settings["gc"], "freeze", freeze)
    settings["post_worker_init"](SimpleNamespace(wsgi=app))
    assert compiled_when_frozen == names and "matches/burraco.html" in names


def test_two_stalled_requests_do_not_delay_a_third(served_as_make_run):
    """Two phones that send half a request and stop (a lost wifi, or slowloris) hold no
    worker: every other player is still answered at once."""
    port = served_as_make_run
    stalled = [socket.create_connection(("127.0.0.1", port)) for _ in range(2)]
    try:
        for connection in stalled:
            connection.sendall(b"GET / HTTP/1.1\r\nHost: 127.0.0.1\r\nUser-Agent: half")
        time.sleep(0.5)
        for _ in range(3):
            began = time.monotonic()
            assert get(port, "/rules", timeout=PROMPT * 5) == 200
            assert time.monotonic() - began < PROMPT
    finally:
        for connection in stalled:
            connection.close()
