"""Each server thread keeps its database connection from one request to the next: what
another worker saved meanwhile is still seen at once, and nothing of one request's
transaction is left to the next."""

import fcntl
import multiprocessing
import os
import threading
import time

from test_faults import enter_hand, start, totals

import store
from store.news import news_id


def test_the_news_tells_at_once_of_a_hand_another_worker_saved(app, client):
    match = start(client)
    poll = f"/m/{match['token']}/news"
    seen = {"If-None-Match": f'W/"{news_id(0, None, False)}"'}
    assert client.get(poll, headers=seen).status_code == 304
    other_worker = store.connect(app.config["DATABASE"])
    try:
        saved = store.get_match(other_worker, match["token"])
        store.add_hand(other_worker, saved, {"burro": 1}, saved.version)
    finally:
        other_worker.close()
    assert client.get(poll, headers=seen).status_code == 200
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


def _another_worker_saves_while_checking(app, monkeypatch, times: int | None = None
                                        ) -> tuple[str, list[threading.Thread], list[bool]]:
    """While the API checks a hand by the rules, another worker (its own connection, which
    no lock of this process holds back) saves a hand to the same match, as its API would:
    read, and after losing to a change, read again; at each look, or ``times`` times at
    most. The match's edit token, the other worker's saves (threads) and, for each, whether
    it was still waiting half a second after it began."""
    from views.api import matches as api
    path, check = app.config["DATABASE"], api.next_hand
    saves, still_saving = [], []

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
            still_saving.append(saves[-1].is_alive())
        return check(*args, **kwargs)

    token = start(app.test_client())["token"]
    monkeypatch.setattr(api, "next_hand", checked_while_another_saves)
    return token, saves, still_saving


def test_a_hand_sent_without_a_version_is_checked_again_when_another_worker_came_between(
        app, monkeypatch):
    """A client that names no version has its hand stored on the match as it stands: not
    refused because another worker saved in the moment between reading and writing."""
    token, saves, still_saving = _another_worker_saves_while_checking(app, monkeypatch, times=1)
    client = app.test_client()
    answer = enter_hand(client, {"token": token})
    assert answer.status_code == 201
    assert len(saves) == 1 and still_saving == [False]
    assert [hand["number"] for hand in answer.json["hands"]] == [1, 2]
    assert totals(client, {"token": token}) == [1, 0, 1]


def test_a_hand_sent_without_a_version_is_stored_at_its_second_look_however_often_others_save(
        app, monkeypatch):
    """The other worker saves while each look at the match is checked. The second look
    holds it off: the hand goes in after the other's first, and its second waits until
    the hand is stored. Without the hold, a worker that reads while the other writes can
    lose to it every time, and its phone gets no answer but 409."""
    token, saves, still_saving = _another_worker_saves_while_checking(app, monkeypatch)
    client = app.test_client()
    answer = enter_hand(client, {"token": token})
    for save in saves:
        save.join()
    assert answer.status_code == 201
    # Two looks: the other's first save went in, its second waited for this hand.
    assert still_saving == [False, True]
    assert [hand["number"] for hand in answer.json["hands"]] == [1, 2]
    assert totals(client, {"token": token}) == [1, 0, 2]


def saved_together(path: str, changes) -> tuple[list, list[str]]:
    """Run each of ``changes`` (``change(db)``) in a thread of its own, with a connection of
    its own, while another process writes: the first waits for the write lock, the others
    gather behind it. What each gave or raised, and the statements they all ran."""
    outcomes, statements = [None] * len(changes), []

    def run(index: int) -> None:
        db = store.connect(path)
        db.conn.set_trace_callback(statements.append)
        try:
            outcomes[index] = changes[index](db)
        except Exception as error:
            outcomes[index] = error
        finally:
            db.close()

    def until(condition) -> None:
        for _ in range(500):
            if condition():
                return
            time.sleep(0.01)
        raise AssertionError("the writers did not gather")

    threads = [threading.Thread(target=run, args=(index,)) for index in range(len(changes))]
    with open(f"{path}.lock", "a") as lock:
        fcntl.flock(lock, fcntl.LOCK_EX)
        threads[0].start()
        until(lambda: path in store._write_groups and store._write_groups[path].committing)
        for thread in threads[1:]:
            thread.start()
        until(lambda: len(store._write_groups[path].waiting) == len(changes) - 1)
        fcntl.flock(lock, fcntl.LOCK_UN)
    for thread in threads:
        thread.join()
    return outcomes, statements


def four_matches(path: str) -> list[store.Match]:
    db = store.connect(path)
    try:
        return [store.create_match(db, "burro", ["Anna", "Ben", "Carla"], {}) for _ in range(4)]
    finally:
        db.close()


def hands_of(path: str, matches) -> list[tuple]:
    db = store.connect(path)
    try:
        return [store.get_match(db, match.token).hands for match in matches]
    finally:
        db.close()


def test_hands_saved_while_another_is_committed_are_committed_together(tmp_path):
    """A commit waits for the disk: the phones that save meanwhile have their hands written
    after it in one transaction, with one commit (one wait) for all of them. A stale one
    among them is refused alone, and the others are kept."""
    path = str(tmp_path / "t.sqlite")
    matches = four_matches(path)

    def save(match: store.Match, version: int):
        return lambda db: store.add_hand(db, match, {"burro": 1}, version)

    stale = matches[2].version - 1
    outcomes, statements = saved_together(path, [
        save(matches[0], matches[0].version), save(matches[1], matches[1].version),
        save(matches[2], stale), save(matches[3], matches[3].version)])
    assert statements.count("COMMIT") == 2
    assert isinstance(outcomes[2], store.StaleEntry)
    assert [outcome.version for outcome in outcomes[:2] + outcomes[3:]] == [
        match.version + 1 for match in matches[:2] + matches[3:]]
    assert hands_of(path, matches) == [({"burro": 1},), ({"burro": 1},), (), ({"burro": 1},)]


def test_a_full_disk_refuses_every_hand_committed_together_and_keeps_none(tmp_path):
    """No phone is told its hand was saved when the transaction that held it failed."""
    path = str(tmp_path / "t.sqlite")
    matches = four_matches(path)

    def save_on_a_full_disk(match: store.Match):
        def save(db):
            pages = db.execute("PRAGMA page_count").fetchone()[0]
            db.execute(f"PRAGMA max_page_count = {pages}")
            return store.add_hand(db, match, {"burro": 1, "note": "x" * 5000}, match.version)
        return save

    outcomes, _statements = saved_together(path, [save_on_a_full_disk(match)
                                                  for match in matches])
    assert all(isinstance(outcome, store.Unavailable) for outcome in outcomes), outcomes
    assert hands_of(path, matches) == [()] * 4


def _hold_the_match_turn(path: str, token: str, holding, release) -> None:
    """Another server process: it takes the turn of the match, and stores a hand on it
    before it lets go."""
    db = store.connect(path)
    with store.one_writer_per_match(db, token):
        holding.set()
        release.wait(10)
        match = store.get_match(db, token)
        store.add_hand(db, match, {"burro": 2}, match.version)
    db.close()


def test_a_hand_sent_without_a_version_waits_for_another_process_changing_the_match(
        app, monkeypatch):
    """While another server process changes the match, this one does not read it: it would
    read the version the other is replacing, lose to it, and check the hand again."""
    from views.api import matches as api
    token = start(app.test_client())["token"]
    processes = multiprocessing.get_context("fork")
    holding, release = processes.Event(), processes.Event()
    other = processes.Process(target=_hold_the_match_turn,
                              args=(app.config["DATABASE"], token, holding, release))
    other.start()
    assert holding.wait(10)
    looks, look = [], api._change_as_it_stands
    monkeypatch.setattr(api, "_change_as_it_stands",
                        lambda *args: looks.append(args) or look(*args))
    answers = []
    phone = threading.Thread(target=lambda: answers.append(
        enter_hand(app.test_client(), {"token": token})))
    phone.start()
    phone.join(0.5)
    assert phone.is_alive() and not looks
    release.set()
    other.join(10)
    phone.join(10)
    assert other.exitcode == 0
    assert answers[0].status_code == 201 and len(looks) == 1
    assert [hand["number"] for hand in answers[0].json["hands"]] == [1, 2]
    assert totals(app.test_client(), {"token": token}) == [1, 0, 1]


def test_hands_are_saved_where_the_file_for_the_turns_cannot_be_opened(app):
    """Only the threads of each process take turns then; the version still guards the match."""
    os.mkdir(f"{app.config['DATABASE']}.turns")
    client = app.test_client()
    match = start(client)
    assert [enter_hand(client, match).status_code for _ in range(2)] == [201, 201]
    assert totals(client, match) == [2, 0, 0]
