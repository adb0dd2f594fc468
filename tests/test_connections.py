"""Each server thread keeps its database connection from one request to the next: what
another worker saved meanwhile is still seen at once, and nothing of one request's
transaction is left to the next."""

import threading

from test_faults import enter_hand, start, totals

import store


def test_a_poll_sees_at_once_a_hand_another_worker_saved(app, client):
    match = start(client)
    poll = f"/m/{match['token']}/since/0"
    assert client.get(poll).status_code == 204
    other_worker = store.connect(app.config["DATABASE"])
    try:
        saved = store.get_match(other_worker, match["token"])
        store.add_hand(other_worker, saved, {"burro": 1}, saved.version)
    finally:
        other_worker.close()
    assert client.get(poll).status_code == 200
    assert totals(client, match) == [0, 1, 0]


def test_hands_saved_by_two_threads_at_once_are_all_kept(app):
    """Two phones of a table served by two threads of one worker, each thread with its own
    connection."""
    match, answers = start(app.test_client()), []

    def phone():
        client = app.test_client()
        answers.extend(enter_hand(client, match).status_code for _ in range(10))

    threads = [threading.Thread(target=phone) for _ in range(2)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert answers == [201] * 20
    assert totals(app.test_client(), match) == [20, 0, 0]


def _another_worker_saves_while_checking(app, monkeypatch, times: int) -> tuple[str, list]:
    """While the API checks a hand by the rules, another worker (its own connection, which
    no lock of this process holds back) saves a hand to the same match, ``times`` times
    at most. The match's edit token, and a list with an item for each hand it saved."""
    from views import api
    saved, check = [], api.next_hand

    def checked_while_another_saves(*args, **kwargs):
        if len(saved) < times:
            other_worker = store.connect(app.config["DATABASE"])
            try:
                match = store.get_match(other_worker, token)
                store.add_hand(other_worker, match, {"burro": 2}, match.version)
            finally:
                other_worker.close()
            saved.append(1)
        return check(*args, **kwargs)

    token = start(app.test_client())["token"]
    monkeypatch.setattr(api, "next_hand", checked_while_another_saves)
    return token, saved


def test_a_hand_sent_without_a_version_is_checked_again_when_another_worker_came_between(
        app, monkeypatch):
    """A client that names no version has its hand stored on the match as it stands: not
    refused because another worker saved in the moment between reading and writing."""
    token, saved = _another_worker_saves_while_checking(app, monkeypatch, times=1)
    client = app.test_client()
    answer = enter_hand(client, {"token": token})
    assert answer.status_code == 201
    assert len(saved) == 1
    assert [hand["number"] for hand in answer.json["hands"]] == [1, 2]
    assert totals(client, {"token": token}) == [1, 0, 1]


def test_a_match_that_others_change_at_every_attempt_answers_409_and_stores_nothing(
        app, monkeypatch):
    from views import api
    token, saved = _another_worker_saves_while_checking(app, monkeypatch,
                                                         times=api.WRITE_ATTEMPTS)
    client = app.test_client()
    assert enter_hand(client, {"token": token}).status_code == 409
    assert len(saved) == api.WRITE_ATTEMPTS
    assert totals(client, {"token": token}) == [0, 0, api.WRITE_ATTEMPTS]
