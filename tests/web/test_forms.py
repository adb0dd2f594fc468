"""What every form carries (views/forms.py): each phone's CSRF token works on every page, is
its own, and follows a change of the secret key; a forged session is refused; every entry
form has a key of its own."""

from helpers import MATCHES, csrf_token, form_value

from app import create_app


def switch_language(client, token: str):
    return client.post("/language", data={"lang": "de", "csrf_token": token})


def test_every_token_a_phone_was_given_works_on_every_form(client):
    tokens = [csrf_token(client, page) for page in ("/", "/rules", "/rules/search?q=stapel",
                                                    "/check/burraco")]
    for token in tokens:
        assert switch_language(client, token).status_code == 303


def test_every_entry_form_has_a_key_of_its_own(client):
    """A form sent twice carries its key twice and stores one hand; two forms, even on two
    phones showing the same sheet, never share one."""
    token = client.post(MATCHES, json={"game": "burro", "players": ["A", "B"]}).json["token"]
    keys = [form_value(client.get(f"/m/{token}"), "key") for _phone in range(3)]
    assert len(set(keys)) == 3 and all(len(key) >= 16 for key in keys)


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


def test_a_forged_session_cookie_is_refused_however_often_it_comes(client):
    token = csrf_token(client, "/rules")
    genuine = client.get_cookie("session").value
    forged = genuine[:-2] + ("AA" if not genuine.endswith("AA") else "BB")
    for _ in range(2):
        client.set_cookie("session", forged)
        assert csrf_token(client, "/rules") != token
    client.set_cookie("session", genuine)
    assert switch_language(client, token).status_code == 303
