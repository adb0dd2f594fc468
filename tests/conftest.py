"""Fixtures for the web: an app on a fresh database, its test client, its CLI runner,
and for the browser tests the app served on a free local port."""

import re
import threading

import pytest
from werkzeug.serving import make_server

from app import create_app

CSRF_FIELD = re.compile(r'name="csrf_token" value="([^"]+)"')


@pytest.fixture
def app(tmp_path):
    return create_app({"TESTING": True, "DATABASE": str(tmp_path / "tablemate.sqlite"),
                       "SECRET_KEY": "test"})


@pytest.fixture
def client(app):
    return app.test_client()


@pytest.fixture
def runner(app):
    return app.test_cli_runner()


def csrf_token(client, page: str = "/") -> str:
    """The form token a page hands out, as a browser would read it."""
    return CSRF_FIELD.search(client.get(page).get_data(as_text=True)).group(1)


@pytest.fixture
def post(client):
    """POST a form the way a page does: with the CSRF token the page carries."""
    def send(url, data=None, **kwargs):
        form = {"csrf_token": csrf_token(client), **(data or {})}
        return client.post(url, data=form, **kwargs)
    return send


@pytest.fixture
def live_server(app):
    """The app on 127.0.0.1 in a thread, for Playwright; yields its base URL."""
    server = make_server("127.0.0.1", 0, app, threaded=True)
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    yield f"http://127.0.0.1:{server.server_port}"
    server.shutdown()
    thread.join()
