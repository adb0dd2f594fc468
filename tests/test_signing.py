"""Forms and sessions signed once per phone (views/signing.py): each phone's token works on
every page, is its own, and follows a change of the secret key."""

from conftest import csrf_token

from app import create_app


def switch_language(client, token: str):
    return client.post("/language", data={"lang": "de", "csrf_token": token})


def test_a_phone_keeps_one_token_that_every_form_accepts(client):
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
