"""`flask backup` copies the database while the table plays on; `flask restore` puts a copy
back, and refuses a file that is not a sound Tablemate database."""

import os
import sqlite3
import threading
import time
import uuid

import pytest
from helpers import (
    MATCHES,
    OPEN_BURRO,
    another_apps_database,
    api_totals,
    enter_burro_hand,
    older_database,
    start,
    text_file,
)

import store


def stored_keys(path) -> set[str]:
    with sqlite3.connect(path) as db:
        return {key for (key,) in db.execute("SELECT request_key FROM entries")}


def test_a_backup_taken_while_hands_are_entered_holds_every_hand_saved_before_it(app, runner,
                                                                                tmp_path):
    """A plain copy of the live file can miss hands still in its write-ahead log; the
    backup holds every hand acknowledged before it started."""
    match, acknowledged, stop = start(app.test_client(), **OPEN_BURRO), [], threading.Event()

    def play():
        client = app.test_client()
        while not stop.is_set():
            key = str(uuid.uuid4())
            assert enter_burro_hand(client, match, key).status_code == 201
            acknowledged.append(key)

    player = threading.Thread(target=play)
    player.start()
    try:
        while len(acknowledged) < 20:
            time.sleep(0.01)
        saved_before = list(acknowledged)
        result = runner.invoke(args=["backup", str(tmp_path / "backup.sqlite")])
    finally:
        stop.set()
        player.join()
    assert result.exit_code == 0, result.output
    assert "Backup of 1 matches written" in result.output
    assert set(saved_before) <= stored_keys(tmp_path / "backup.sqlite")
    # One file, whole: nothing of it waits in a journal beside it.
    assert [name for name in os.listdir(tmp_path)
            if name.startswith("backup.sqlite")] == ["backup.sqlite"]
    with sqlite3.connect(tmp_path / "backup.sqlite") as copy:
        assert copy.execute("PRAGMA integrity_check").fetchone() == ("ok",)


def test_a_restore_puts_the_backup_back_while_the_app_runs(app, client, runner, tmp_path):
    match = start(client, **OPEN_BURRO)
    enter_burro_hand(client, match)
    runner.invoke(args=["backup", str(tmp_path / "backup.sqlite")])
    enter_burro_hand(client, match)
    later = start(client, **OPEN_BURRO)
    assert api_totals(client, match) == [2, 0, 0]

    result = runner.invoke(args=["restore", str(tmp_path / "backup.sqlite")])

    assert result.exit_code == 0, result.output
    assert "Restored 1 matches" in result.output
    assert api_totals(client, match) == [1, 0, 0]
    assert client.get(f"{MATCHES}/{later['token']}").status_code == 404
    assert enter_burro_hand(client, match).status_code == 201
    assert api_totals(client, match) == [2, 0, 0]


def test_hands_entered_after_a_restore_are_not_mistaken_for_those_it_undid(
        app, client, runner, tmp_path):
    match = start(client, **OPEN_BURRO)
    runner.invoke(args=["backup", str(tmp_path / "backup.sqlite")])
    enter_burro_hand(client, match)
    assert api_totals(client, match) == [1, 0, 0]
    client.get(f"/m/{match['token']}")

    assert runner.invoke(args=["restore", str(tmp_path / "backup.sqlite")]).exit_code == 0
    client.post(f"{MATCHES}/{match['token']}/hands", json={"burro": 1})

    # The match's version after the restored one is new: Ben's hand, not Anna's undone one.
    assert api_totals(client, match) == [0, 1, 0]


def test_a_backup_from_before_the_last_migrations_is_restored_and_brought_up_to_date(
        app, client, runner, tmp_path):
    older_database(tmp_path / "older.sqlite", 4)
    assert runner.invoke(args=["restore", str(tmp_path / "older.sqlite")]).exit_code == 0
    assert enter_burro_hand(client, start(client, **OPEN_BURRO)).status_code == 201
    with sqlite3.connect(app.config["DATABASE"]) as db:
        assert db.execute("PRAGMA user_version").fetchone()[0] == len(store.STEPS)


def _damaged_backup(path):
    """A Tablemate database whose index of match links no longer matches its rows."""
    store.connect(str(path)).close()
    with sqlite3.connect(path) as db:
        db.execute("INSERT INTO matches (token, view_token, game, options, created_at) "
                   "VALUES ('a-match-link', 'a-view-link', 'burro', '{}', 'now')")
        db.execute("PRAGMA writable_schema = ON")
        db.execute("""UPDATE sqlite_master SET sql = replace(sql, '("token")', '("game")')
                      WHERE name = 'idx_matches_token'""")


@pytest.mark.parametrize(("make", "reason"), [
    (text_file, "not a Tablemate database"),
    (another_apps_database, "not a Tablemate database"),
    (_damaged_backup, "integrity check"),
], ids=["text-file", "another-apps-database", "damaged"])
def test_a_restore_refuses_a_file_that_is_no_sound_tablemate_database(app, client, runner,
                                                                      tmp_path, make, reason):
    match = start(client, **OPEN_BURRO)
    make(tmp_path / "offered.sqlite")
    result = runner.invoke(args=["restore", str(tmp_path / "offered.sqlite")])
    assert result.exit_code != 0
    assert "Nothing restored" in result.output and reason in result.output
    assert api_totals(client, match) == [0, 0, 0]
