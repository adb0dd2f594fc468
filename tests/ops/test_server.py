"""`make run` serves with gunicorn's gevent workers: phones that send half a request and
stall, or hold their sheet's stream of news and never read it, do not keep the rest of the
table waiting (what the server does with them: test_edge.py); a hand saved through one
worker reaches the streams held by the other."""

import http.client
import json
import socket
import threading
import time
from pathlib import Path
from types import SimpleNamespace

import pytest
from gunicorn.util import load_class
from gunicorn.workers.ggevent import GeventWorker
from helpers import api_over_http, start
from jinja2 import TemplateNotFound

from benchmarks.serve import ROOT, TABLEMATE, run_command, served

# Well inside the streams' keep-alive and the worker timeout: only a free worker or a push
# answers within it, so a stalled phone that held a worker would be felt.
PROMPT = 5.0


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


def test_make_run_serves_with_gunicorns_gevent_workers():
    """Flask's development server is no server for a table; gunicorn's evented workers,
    where an open stream costs memory and not a thread, are."""
    command = run_command(8080, host="0.0.0.0")
    assert Path(command[0]).name == "gunicorn"
    assert command[command.index("--bind") + 1] == "0.0.0.0:8080"
    assert command[-1] == "app:create_app()"
    settings = {}
    exec((ROOT / command[command.index("--config") + 1]).read_text(), settings)
    assert issubclass(load_class(settings["worker_class"]), GeventWorker)
    assert settings["worker_connections"] >= 4000
    assert {"timeout", "graceful_timeout", "keepalive"} <= settings.keys()


def test_a_worker_compiles_every_template_before_its_first_request(app, client, monkeypatch):
    """The first phone after a restart waits for no template; compiled before the worker
    freezes what it made while starting, they are never walked by its garbage collector.
    Were the template files unreadable from the freeze on, every page is still served."""
    settings = {}
    exec((ROOT / "gunicorn.conf.py").read_text(), settings)
    templates = app.jinja_env

    def unreadable(_loader, _environment, name):
        raise TemplateNotFound(name)

    def freeze():
        monkeypatch.setattr(type(templates.loader), "get_source", unreadable)

    monkeypatch.setattr(settings["gc"], "freeze", freeze)
    settings["post_worker_init"](SimpleNamespace(wsgi=app))
    names = templates.list_templates()
    assert "games/burraco/sheet.html" in names
    for name in names:
        assert templates.get_template(name), name
    sheet = f"/m/{start(client, 'burraco')['token']}"
    for page in ("/", "/burraco/new", sheet, f"{sheet}/hands/1", "/check", "/rules/burraco",
                 "/burraco/meld?cards=3H+4H+5H", "/import"):
        assert client.get(page).status_code == 200, page
    assert client.get("/m/no-such-match").status_code == 404


def test_two_hundred_half_sent_requests_and_fifty_unread_streams_delay_no_one(
        served_as_make_run):
    """Phones that send half a request and stop (a lost wifi, or slowloris), in its headers
    or in its body, and phones that hold their sheet's stream but read nothing of it, hold
    no worker: every other player is still answered at once."""
    port = served_as_make_run
    token = api_over_http(port, "POST", "/api/v1/matches", {"game": "burro", "players": ["A", "B"]})["token"]
    stalled = [socket.create_connection(("127.0.0.1", port)) for _ in range(250)]
    try:
        for connection in stalled[:100]:
            connection.sendall(b"GET / HTTP/1.1\r\nHost: 127.0.0.1\r\nUser-Agent: half")
        for connection in stalled[100:200]:
            connection.sendall(f"POST /api/v1/matches/{token}/hands HTTP/1.1\r\n"
                               "Host: 127.0.0.1\r\nContent-Type: application/json\r\n"
                               'Content-Length: 12\r\n\r\n{"burro"'.encode())
        for connection in stalled[200:]:
            connection.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, 1024)
            connection.sendall(f"GET /m/{token}/events HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n"
                               .encode())
        for _ in range(5):
            api_over_http(port, "POST", f"/api/v1/matches/{token}/hands", {"burro": 0})
            assert get(port, "/rules", timeout=PROMPT) == 200
    finally:
        for connection in stalled:
            connection.close()


def read_until(stream: socket.socket, done, deadline: float) -> str:
    """The stream's bytes until ``done(received)`` holds."""
    received = b""
    while not done(received):
        stream.settimeout(max(deadline - time.monotonic(), 0.01))
        chunk = stream.recv(65536)
        assert chunk, "the stream ended"
        received += chunk
    return received.decode()


def read_event(stream: socket.socket, deadline: float) -> str:
    """The stream's bytes until its first event (a line "event: …") has come whole (to the
    empty line that ends it; chunked, as HTTP/1.1 sends a stream)."""
    def whole(received: bytes) -> bool:
        start = received.find(b"\nevent:")
        return start >= 0 and received.find(b"\n\n", start) >= 0
    return read_until(stream, whole, deadline)


def test_a_hand_saved_through_either_worker_reaches_every_stream_at_once(
        served_as_make_run):
    """The streams of a match may be held by both workers; each worker's one watcher learns
    of a change whichever worker made it."""
    port = served_as_make_run
    token = api_over_http(port, "POST", "/api/v1/matches", {"game": "burro", "players": ["A", "B"]})["token"]
    streams = [socket.create_connection(("127.0.0.1", port)) for _ in range(8)]
    try:
        for stream in streams:
            stream.sendall(f"GET /m/{token}/events?seen=0.e3b0c442 HTTP/1.1\r\n"
                           "Host: 127.0.0.1\r\n\r\n".encode())
            read_until(stream, lambda received: b"retry:" in received, time.monotonic() + 5)
        saved = time.monotonic()
        api_over_http(port, "POST", f"/api/v1/matches/{token}/hands", {"burro": 1})
        for stream in streams:
            assert "id: 1." in read_event(stream, saved + PROMPT)
    finally:
        for stream in streams:
            stream.close()


def test_sixteen_phones_saving_at_four_tables_through_both_workers_lose_nothing(
        served_as_make_run):
    """Writers race on one match from both workers: each waits its turn without holding
    up the worker's other greenlets, and every hand is stored once."""
    port = served_as_make_run
    tokens = [api_over_http(port, "POST", "/api/v1/matches", {"game": "burro", "players": ["A", "B"],
                                                    "options": {"variant": "portuguese"}})
              ["token"] for _table in range(4)]
    answered = []

    def phone(token: str) -> None:
        for _hand in range(10):
            connection = http.client.HTTPConnection("127.0.0.1", port, timeout=10)
            try:
                connection.request("POST", f"/api/v1/matches/{token}/hands",
                                   body=json.dumps({"winner": 0}),
                                   headers={"Content-Type": "application/json"})
                answered.append(connection.getresponse().status)
            finally:
                connection.close()

    phones = [threading.Thread(target=phone, args=(token,)) for token in tokens
              for _phone in range(4)]
    for started in phones:
        started.start()
    for started in phones:
        started.join()
    assert answered == [201] * 160
    for token in tokens:
        assert len(api_over_http(port, "GET", f"/api/v1/matches/{token}")["hands"]) == 40
