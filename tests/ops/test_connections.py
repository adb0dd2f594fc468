"""Each server thread keeps its database connection from one request to the next: what
another worker saved meanwhile is still seen at once, and nothing of one request's
transaction is left to the next."""

import threading

from helpers import OPEN_BURRO, api_totals, enter_burro_hand, saved_by_another_worker, start

import store
from store.news import news_id


def test_the_news_tells_at_once_of_a_hand_another_worker_saved(app, client):
    match = start(client, **OPEN_BURRO)
    poll = f"/m/{match['token']}/news"
    seen = {"If-None-Match": f'W/"{news_id(0, None, False)}"'}
    assert client.get(poll, headers=seen).status_code == 304
    saved_by_another_worker(app, match, {"burro": 1})
    assert client.get(poll, headers=seen).status_code == 200
    assert api_totals(client, match) == [0, 1, 0]


def test_hands_saved_by_two_threads_at_once_are_all_kept(app):
    """Two phones of a table served by two threads of one worker, each thread with its own
    connection."""
    match, answers = start(app.test_client(), **OPEN_BURRO), []

    def phone():
        client = app.test_client()
        answers.extend(enter_burro_hand(client, match).status_code for _ in range(10))

    threads = [threading.Thread(target=phone) for _ in range(2)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert answers == [201] * 20
    assert api_totals(app.test_client(), match) == [20, 0, 0]


def _another_worker_saves_while_checking(app, monkeypatch, times: int | None = None
                                        ) -> tuple[str, list[threading.Thread]]:
    """While the API checks a hand by the rules, another worker (its own connection, which
    no lock of this process holds back) saves a hand to the same match, as its API would:
    read, and after losing to a change, read again; at each check, or ``times`` times at
    most. The match's edit token and the other worker's saves (threads)."""
    from views.api import matches as api
    path, check = app.config["DATABASE"], api.next_hand
    saves = []

    def save_elsewhere() -> None:
        other_worker = store.connect(path)
        try:
            while True:
                match = store.get_match(other_worker, token)
                try:
                    store.add_hand(other_worker, match, {"burro": 2}, match.version)
                    return
                except store.StaleEntry:
                    continue
        finally:
            other_worker.close()

    def checked_while_another_saves(*args, **kwargs):
        if times is None or len(saves) < times:
            saves.append(threading.Thread(target=save_elsewhere))
            saves[-1].start()
            saves[-1].join(timeout=0.5)
        return check(*args, **kwargs)

    token = start(app.test_client(), **OPEN_BURRO)["token"]
    monkeypatch.setattr(api, "next_hand", checked_while_another_saves)
    return token, saves


def test_a_hand_sent_without_a_version_is_checked_again_when_another_worker_came_between(
        app, monkeypatch):
    """A client that names no version has its hand stored on the match as it stands: not
    refused because another worker saved in the moment between reading and writing."""
    token, saves = _another_worker_saves_while_checking(app, monkeypatch, times=1)
    client = app.test_client()
    answer = enter_burro_hand(client, {"token": token})
    assert answer.status_code == 201
    assert [hand["number"] for hand in answer.json["hands"]] == [1, 2]
    assert api_totals(client, {"token": token}) == [1, 0, 1]


def test_a_hand_sent_without_a_version_is_stored_however_often_others_save(app, monkeypatch):
    """The other worker saves whenever this one checks the hand. This hand is stored all the
    same, after the other's first: without holding the others off at its second look, a
    worker that reads while the other writes can lose to it every time, and its phone gets
    no answer but 409."""
    token, saves = _another_worker_saves_while_checking(app, monkeypatch)
    client = app.test_client()
    answer = enter_burro_hand(client, {"token": token})
    for save in saves:
        save.join()
    assert answer.status_code == 201
    assert [hand["number"] for hand in answer.json["hands"]] == [1, 2]
    assert api_totals(client, {"token": token}) == [1, 0, 2]
