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
