"""The phones' "anything new?" answered before Flask makes a request of it, when nothing is:
the same 204 (the sheets) or 304 (the API) with the same headers, and every other answer
still Flask's."""

import pytest
from test_headers import HOSTILE, served
from test_live import MATCHES, new_match

import store


def polls(match: dict) -> list[str]:
    """The sheet's and the read-only sheet's question, at the version the match stands."""
    return [f"/m/{match['token']}/since/{match['version']}",
            f"/v/{match['view_token']}/since/{match['version']}"]


def counting_flask_views(app, monkeypatch) -> list[str]:
    """The poll views Flask runs from now on, by endpoint."""
    ran = []
    for endpoint in ("matches.since", "share.view_since", "api.show_match"):
        view = app.view_functions[endpoint]
        monkeypatch.setitem(app.view_functions, endpoint,
                            lambda *args, view=view, endpoint=endpoint, **kwargs:
                            ran.append(endpoint) or view(*args, **kwargs))
    return ran


def test_nothing_new_is_answered_without_flask_with_the_headers_flask_gave(
        app, client, monkeypatch):
    match = new_match(client)
    first = [client.get(poll) for poll in polls(match)]
    ran = counting_flask_views(app, monkeypatch)
    for answer_of_flask, poll in zip(first, polls(match)):
        quick = client.get(poll, headers={"HX-Request": "true"})
        assert quick.status_code == answer_of_flask.status_code == 204
        assert quick.data == b""
        assert sorted(quick.headers.items()) == sorted(answer_of_flask.headers.items())
        assert quick.headers["Cache-Control"] == "no-store"
        assert "script-src 'self'" in quick.headers["Content-Security-Policy"]
    assert ran == []


def test_the_api_asked_again_with_its_etag_is_answered_304_without_flask(
        app, client, monkeypatch):
    """Also after a change: the early 304 carries the ETag of the version as it stands."""
    match = new_match(client)
    address = f"{MATCHES}/{match['token']}"
    for _version in range(2):
        etag = client.get(address).headers["ETag"]
        answer_of_flask = client.get(address, headers={"If-None-Match": etag})
        ran = counting_flask_views(app, monkeypatch)
        quick = client.get(address, headers={"If-None-Match": etag})
        assert quick.status_code == answer_of_flask.status_code == 304
        assert sorted(quick.headers.items()) == sorted(answer_of_flask.headers.items())
        assert quick.headers["ETag"] == etag and ran == []
        monkeypatch.undo()
        client.post(f"{address}/hands", json={"burro": 1})
    ran = counting_flask_views(app, monkeypatch)
    assert client.get(address, headers={"If-None-Match": etag}).status_code == 200
    assert ran == ["api.show_match"]


def test_news_an_unknown_link_and_a_version_written_otherwise_are_flasks_to_answer(
        app, client, monkeypatch):
    match = new_match(client, players=("Anna", "Ben", "Carla"))
    for poll in polls(match):
        assert client.get(poll).status_code == 204
    ran = counting_flask_views(app, monkeypatch)
    client.post(f"{MATCHES}/{match['token']}/hands", json={"burro": 2})
    news = client.get(polls(match)[0], headers={"HX-Request": "true"})
    assert news.status_code == 200
    assert "Hand 1 was saved on another phone: Carla +1" in news.get_data(as_text=True)
    assert client.get("/m/no-such-link/since/0").status_code == 404
    # Flask reads "07" as 7, the version as it stands: its 204, not an early one.
    version = client.get(f"{MATCHES}/{match['token']}").json["version"]
    assert client.get(f"/m/{match['token']}/since/0{version}").status_code == 204
    assert ran == ["matches.since", "matches.since", "api.show_match", "matches.since"]


def test_a_host_the_app_does_not_serve_is_refused_also_when_nothing_is_new(
        tmp_path, monkeypatch):
    monkeypatch.setenv("FLASK_TRUSTED_HOSTS", '["scores.example.org"]')
    client = served(tmp_path).test_client()
    served_host = {"Host": "scores.example.org"}
    match = client.post(MATCHES, json={"game": "burro", "players": ["Anna", "Ben"]},
                        headers=served_host).json
    poll = polls(match)[0]
    assert client.get(poll, headers=served_host).status_code == 204
    assert client.get(poll, headers=served_host).status_code == 204
    assert client.get(poll, headers=HOSTILE).status_code == 400


def test_a_database_that_cannot_be_read_gets_flasks_page_that_says_so(
        app, client, monkeypatch):
    match = new_match(client)
    poll = polls(match)[0]
    assert client.get(poll).status_code == 204

    def unavailable(*args):
        raise store.Unavailable("disk I/O error")

    monkeypatch.setattr(store, "thread_connection", unavailable)
    answer = client.get(poll)
    assert answer.status_code == 503


@pytest.mark.parametrize("method", ["POST", "HEAD"])
def test_only_the_question_itself_is_answered_early(app, client, monkeypatch, method):
    match = new_match(client)
    poll = polls(match)[0]
    assert client.get(poll).status_code == 204
    ran = counting_flask_views(app, monkeypatch)
    client.open(poll, method=method)
    assert ran == (["matches.since"] if method == "HEAD" else [])
