"""Forms and sessions signed once per phone (views/signing.py): each phone's token works on
every page, is its own, and follows a change of the secret key; a session cookie read once
is still refused once it is too old, and a forged one always."""

import itertools
import time
from datetime import timedelta

import pytest
from conftest import csrf_token
from itsdangerous import TimestampSigner

from app import create_app


@pytest.fixture
def slow_phone(monkeypatch):
    """Every signature is made a second after the one before, as on a phone whose player
    takes a while between pages."""
    clock = itertools.count(int(time.time()))
    monkeypatch.setattr(TimestampSigner, "get_timestamp", lambda _signer: next(clock))


def switch_language(client, token: str):
    return client.post("/language", data={"lang": "de", "csrf_token": token})


def test_a_phone_keeps_one_token_that_every_form_accepts(client, slow_phone):
    tokens = {csrf_token(client, page) for page in ("/", "/rules", "/rules/search?q=stapel",
                                                     "/check/burraco")}
    assert len(tokens) == 1
    assert switch_language(client, tokens.pop()).status_code == 303


def test_another_phones_token_is_refused(app):
    mine, theirs = app.test_client(), app.test_client()
    for phone in (mine, theirs):
        phone.get("/rules/search?q=stapel")
    their_token = csrf_token(theirs, "/rules/search?q=stapel")
    assert csrf_token(mine, "/rules/search?q=stapel") != their_token
    refused = switch_language(mine, their_token)
    assert refused.status_code == 400 and "lang=de" not in refused.headers.get("Set-Cookie", "")


def test_with_a_time_limit_tokens_are_still_accepted(tmp_path):
    app = create_app({"TESTING": True, "DATABASE": str(tmp_path / "t.sqlite"),
                      "SECRET_KEY": "test", "WTF_CSRF_TIME_LIMIT": 3600})
    client = app.test_client()
    assert switch_language(client, csrf_token(client, "/rules")).status_code == 303


def test_after_the_secret_key_changes_a_reloaded_page_gives_a_working_token(tmp_path):
    """The token signed with the old key is refused; the page loaded again signs the same
    session's token with the new one."""
    database = str(tmp_path / "t.sqlite")
    phone = create_app({"TESTING": True, "DATABASE": database, "SECRET_KEY": "old"}).test_client()
    old_token = csrf_token(phone, "/rules")
    phone.application = create_app({"TESTING": True, "DATABASE": database,
                                    "SECRET_KEY": "new", "SECRET_KEY_FALLBACKS": ["old"]})
    assert switch_language(phone, old_token).status_code == 400
    new_token = csrf_token(phone, "/rules")
    assert new_token != old_token
    assert switch_language(phone, new_token).status_code == 303


def test_a_session_cookie_read_before_is_refused_once_it_is_too_old(app, monkeypatch):
    phone = app.test_client()
    with monkeypatch.context() as two_hours_ago:
        earlier = int(time.time()) - 2 * 3600
        two_hours_ago.setattr(TimestampSigner, "get_timestamp", lambda _signer: earlier)
        first_token = csrf_token(phone, "/rules")
    app.permanent_session_lifetime = timedelta(hours=3)
    assert csrf_token(phone, "/rules") == first_token
    app.permanent_session_lifetime = timedelta(hours=1)
    assert csrf_token(phone, "/rules") != first_token
    assert switch_language(phone, first_token).status_code == 400


def test_a_forged_session_cookie_is_refused_however_often_it_comes(client):
    token = csrf_token(client, "/rules")
    genuine = client.get_cookie("session").value
    forged = genuine[:-2] + ("AA" if not genuine.endswith("AA") else "BB")
    for _ in range(2):
        client.set_cookie("session", forged)
        assert csrf_token(client, "/rules") != token
    client.set_cookie("session", genuine)
    assert csrf_token(client, "/rules") == token
