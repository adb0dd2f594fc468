"""Storage: migrations, the connection's settings, and that nothing entered is ever lost, on
SQLite and on PostgreSQL."""

import shutil
import sqlite3
import threading
import time
from pathlib import Path

import postgres_cluster
import pytest
from helpers import MATCHES, parsed, start

import store
from app import create_app
from store.connection import exclusive


@pytest.fixture
def db(database):
    handle = store.connect(database)
    yield handle
    handle.close()


@pytest.mark.sqlite_only
def test_migrations_record_the_schema_version_and_applying_twice_changes_nothing(tmp_path):
    path = str(tmp_path / "t.sqlite")
    first = store.connect(path)
    tables = set(first.table_names())
    first.close()
    again = store.connect(path)
    store.migrate(again)
    assert store.schema_version(again) == len(store.STEPS)
    assert [step.name for step in store.MIGRATIONS.applied(again)] == [
        step.__name__ for step in store.STEPS]
    assert set(again.table_names()) == tables
    assert {"matches", "players", "entries", "device_matches", "match_news"} <= tables


@pytest.mark.sqlite_only
def test_wal_mode_and_foreign_keys(db):
    assert db.execute("PRAGMA journal_mode").fetchone()[0] == "wal"
    assert db.execute("PRAGMA foreign_keys").fetchone()[0] == 1


def test_a_match_keeps_players_in_order_and_options(db):
    match = store.create_match(db, "burro", ["Carla", "Anna", "Ben"], {"limit": 3})
    assert match.players == ("Carla", "Anna", "Ben")
    assert match.options == {"limit": 3}
    assert store.get_match(db, match.token) == match


def test_match_links_are_long_and_random(db):
    tokens = {store.create_match(db, "burro", ["A", "B"], {}).token for _ in range(20)}
    assert len(tokens) == 20
    # token_urlsafe(24): 32 characters of 6 bits each = 192 bits, more than the 128 asked.
    assert all(len(token) == 32 for token in tokens)


def test_an_unknown_token_finds_nothing(db):
    assert store.get_match(db, "no-such-token") is None


def test_edits_and_undos_keep_what_they_replaced(db):
    match = store.create_match(db, "burro", ["A", "B", "C"], {})
    store.add_hand(db, match, {"burro": 0}, 0)
    store.add_hand(db, match, {"burro": 1}, 1)
    store.replace_hand(db, match, 1, {"burro": 2}, 2)
    store.undo_last_hand(db, match, 3)
    now = store.get_match(db, match.token)
    assert now.hands == ({"burro": 2},)
    history = store.past_entries(db, now)
    assert sorted((entry.number, entry.data["burro"], entry.status) for entry in history) == \
        [(1, 0, "replaced"), (2, 1, "undone")]
    assert db.execute("SELECT count(*) FROM entries").fetchone()[0] == 3


def test_every_change_counts_up_the_match_version(db):
    match = store.create_match(db, "burro", ["A", "B"], {})
    assert match.version == 0
    store.add_hand(db, match, {"burro": 0}, 0)
    store.undo_last_hand(db, match, 1)
    store.add_hand(db, match, {"burro": 1}, 2)
    store.replace_hand(db, match, 1, {"burro": 0}, 3)
    assert store.get_match(db, match.token).version == 4


def test_a_change_from_a_sheet_that_changed_meanwhile_is_refused(db):
    """Phone A still shows version 1; phone B has undone hand 1 and entered it anew since.
    A's undo would take back B's new entry: it is refused."""
    match = store.create_match(db, "burro", ["A", "B"], {})
    store.add_hand(db, match, {"burro": 0}, 0)
    store.undo_last_hand(db, match, 1)
    store.add_hand(db, match, {"burro": 1}, 2)
    for change in (lambda: store.undo_last_hand(db, match, 1),
                   lambda: store.add_hand(db, match, {"burro": 1}, 1),
                   lambda: store.replace_hand(db, match, 1, {"burro": 0}, 1)):
        with pytest.raises(store.StaleEntry):
            change()
    assert store.get_match(db, match.token).hands == ({"burro": 1},)


def test_hands_another_process_changed_are_read_as_they_are_now(database):
    """Two server processes share the file: hands the other one added, corrected or undid
    are read as they are now."""
    here, there = store.connect(database), store.connect(database)
    try:
        match = store.create_match(here, "burro", ["Anna", "Ben", "Carla"],
                                   {"variant": "portuguese"})
        for seat in (0, 1):
            now = store.get_match(here, match.token)
            store.add_hand(here, now, {"winner": seat}, now.version)
        assert len(store.get_match(here, match.token).hands) == 2

        def elsewhere(change, *args) -> None:
            now = store.get_match(there, match.token)
            change(there, now, *args, now.version)

        elsewhere(store.add_hand, {"winner": 2})
        assert [hand["winner"] for hand in store.get_match(here, match.token).hands] == [0, 1, 2]
        elsewhere(store.replace_hand, 1, {"winner": 1})
        assert [hand["winner"] for hand in store.get_match(here, match.token).hands] == [1, 1, 2]
        elsewhere(store.undo_last_hand)
        elsewhere(store.add_hand, {"winner": 0})
        assert [hand["winner"] for hand in store.get_match(here, match.token).hands] == [1, 1, 0]
    finally:
        here.close()
        there.close()


def test_a_match_read_while_another_process_saves_a_hand_holds_the_hands_of_its_version(
        database, monkeypatch):
    """The news of a version is rendered once for every phone: the hands read with the
    match's row are those of the version the row names, even when the other server
    process saves a hand between the two reads."""
    here, there = store.connect(database), store.connect(database)
    try:
        match = store.create_match(here, "burro", ["Anna", "Ben", "Carla"],
                                   {"variant": "portuguese"})
        store.add_hand(here, match, {"winner": 0}, match.version)
        before = store.get_match(here, match.token)
        store.add_hand(here, before, {"winner": 1}, before.version)
        reading_hands = store.matches.active_hands

        def saved_there_meanwhile(db, match_id):
            monkeypatch.setattr(store.matches, "active_hands", reading_hands)
            now = store.get_match(there, match.token)
            store.add_hand(there, now, {"winner": 2}, now.version)
            return reading_hands(db, match_id)

        monkeypatch.setattr(store.matches, "active_hands", saved_there_meanwhile)
        read = store.get_match(here, match.token)
        assert read.version == before.version + 1
        assert [hand["winner"] for hand in read.hands] == [0, 1]
        after = store.get_match(here, match.token)
        assert after.version == read.version + 1
        assert [hand["winner"] for hand in after.hands] == [0, 1, 2]
    finally:
        here.close()
        there.close()


def test_a_version_is_told_and_its_history_shown_without_changes_made_after_it(database):
    """A sheet is kept for its version: what another process changed after the match was
    read (a correction, a new hand) is neither in that version's history nor in its news,
    and is told with the version it made, once."""
    here, there = store.connect(database), store.connect(database)
    try:
        match = store.create_match(here, "burro", ["Anna", "Ben", "Carla"], {})
        for seat in (0, 1):
            match = store.add_hand(here, match, {"burro": seat}, match.version)
        match = store.replace_hand(here, match, 1, {"burro": 2}, match.version)
        read = store.get_match(here, match.token)
        now = store.replace_hand(there, store.get_match(there, match.token), 2, {"burro": 0},
                                 read.version)
        now = store.add_hand(there, now, {"burro": 1}, now.version)

        def told(version_read, since):
            return [(change.kind, change.number) for change in
                    store.changes_since(here, version_read, since)]

        assert [entry.number for entry in store.past_entries(here, read)] == [1]
        assert told(read, read.version - 1) == [("corrected", 1)]
        assert [entry.number for entry in store.past_entries(here, now)] == [2, 1]
        assert told(now, read.version) == [("corrected", 2), ("saved", 3)]
    finally:
        here.close()
        there.close()


def at_once(database, change, times: int = 2) -> list:
    """``change(db)`` made by ``times`` server processes at the same moment, each on a
    connection of its own: what each returned, or the exception it raised."""
    handles = [store.connect(database) for _ in range(times)]
    ready, outcomes = threading.Barrier(times), []

    def make(db) -> None:
        ready.wait()
        try:
            outcomes.append(change(db))
        except Exception as error:
            outcomes.append(error)

    threads = [threading.Thread(target=make, args=(db,)) for db in handles]
    try:
        for thread in threads:
            thread.start()
        for thread in threads:
            thread.join(timeout=10)
    finally:
        for db in handles:
            db.close()
    return outcomes


def test_two_phones_saving_into_one_version_at_once_store_one_hand(db, database):
    """Both were shown version 0: one hand is stored, the other phone hears that the match
    changed, and no hand is stored twice or lost half-way."""
    match = store.create_match(db, "burro", ["A", "B"], {})
    outcomes = at_once(database, lambda other: store.add_hand(other, match, {"burro": 0}, 0))
    assert sorted(type(outcome).__name__ for outcome in outcomes) == ["Match", "StaleEntry"]
    assert store.get_match(db, match.token).hands == ({"burro": 0},)


def test_a_match_started_twice_at_once_with_one_key_is_one_match(db, database):
    """A client that sends "start this match" again while the first is still being saved
    (two servers behind one balancer) gets the one match either way."""
    outcomes = at_once(database, lambda other: store.create_match(
        other, "burro", ["A", "B"], {}, key="k" * 32))
    assert outcomes[0].token == outcomes[1].token
    assert db.execute("SELECT count(*) FROM matches").fetchone()[0] == 1


def test_the_database_allows_one_live_entry_per_hand(db):
    """Two phones saving hand 1 at the same moment: the index lets only one through."""
    match = store.create_match(db, "burro", ["A", "B"], {})

    def insert(status: str) -> None:
        db.execute("INSERT INTO entries (match_id, number, data, status, created_at) "
                   "VALUES (?, 1, '{}', ?, 'now')", [match.id, status])

    insert("active")
    with pytest.raises(Exception, match="(?i)unique"):
        insert("active")
    insert("replaced")


def test_init_db_command(runner, app):
    result = runner.invoke(args=["init-db"])
    assert result.exit_code == 0
    assert f"Schema version {store.schema_steps(app.config['DATABASE'])}" in result.output


@pytest.mark.sqlite_only
def test_a_sheet_reloaded_while_another_phone_saves_answers_without_waiting(app, client):
    """Every view of a sheet remembers it on the phone's list: the sheet already at the top,
    opened again, writes nothing, so a reload never queues behind the table's saves."""
    first, second = (start(client, hands=0)["token"] for _match in range(2))
    for token in (first, second):
        assert client.get(f"/m/{token}").status_code == 200
    reloaded = []
    reload = threading.Thread(target=lambda: reloaded.append(client.get(f"/m/{second}")))
    # Another phone's save holds the writers' turn meanwhile.
    with exclusive(app.config["DATABASE"]):
        reload.start()
        reload.join(timeout=5)
        assert not reload.is_alive(), "the reload waited for the save"
    reload.join()
    assert reloaded[0].status_code == 200
    # A sheet further down the list, opened again, moves to the top.
    client.get(f"/m/{first}")
    listed = parsed(client.get("/")).select("#my-matches li.listed > a")
    assert [link["href"] for link in listed] == [f"/m/{first}", f"/m/{second}"]


@pytest.mark.sqlite_only
def test_a_database_of_the_release_that_counted_its_migrations_is_adopted(tmp_path):
    """A database the release before named migrations left (its ten steps counted in
    ``user_version``): its steps are recorded as applied without running again, the later
    ones run, and every match, hand and device list is as it was."""
    path = str(tmp_path / "old.sqlite")
    shutil.copy(Path(__file__).parent / "data" / "counted-migrations.sqlite", path)
    db = store.connect(path)
    try:
        assert [step.name for step in store.MIGRATIONS.applied(db)] == [
            step.__name__ for step in store.STEPS]
        assert store.schema_version(db) == len(store.STEPS)
        assert "rule_sections" not in db.table_names()
        listed = store.device_matches(db, "d" * 43)
        assert [entry.match.players for entry in listed] == [("Anna", "Ben", "Carla")]
        burro = listed[0].match
        assert burro.hands == ({"burro": 1},)
        assert burro.imported_at is None  # an older release kept no import date
        assert [entry.status for entry in store.past_entries(db, burro)] == ["undone"]
        store.add_hand(db, burro, {"burro": 0}, burro.version)
        assert store.get_match(db, burro.token).hands == ({"burro": 1}, {"burro": 0})
    finally:
        db.close()
    again = store.connect(path)
    assert len(store.MIGRATIONS.applied(again)) == len(store.STEPS)
    again.close()


@pytest.mark.sqlite_only
def test_a_database_newer_than_this_release_is_left_alone(tmp_path):
    """A step this release does not know, counted as the releases count them: nothing is
    written, the app says so."""
    path = str(tmp_path / "t.sqlite")
    store.connect(path).close()
    with sqlite3.connect(path) as newer:
        newer.execute("INSERT INTO _sqlite_migrations (migration_set, name, applied_at) "
                      "VALUES ('tablemate', 'from_the_future', '2030-01-01')")
        newer.execute(f"PRAGMA user_version = {len(store.STEPS) + 1}")
    newer.close()
    with pytest.raises(store.Unavailable):
        store.connect(path)


def test_the_postgresql_migrations_applied_twice_change_nothing(postgres_made):
    """Each step is recorded once; a second start, or init-db, finds every one applied and
    the tables as they were."""
    def schema(db) -> list[tuple]:
        return db.execute("SELECT table_name, column_name, data_type FROM "
                          "information_schema.columns WHERE table_schema = 'public' "
                          "ORDER BY table_name, column_name").fetchall()

    first = store.connect(postgres_made)
    try:
        tables = schema(first)
    finally:
        first.close()
    again = store.connect(postgres_made)
    try:
        store.postgres_schema.migrate(again)
        assert store.postgres_schema.applied(again) == [
            step.__name__ for step in store.postgres_schema.STEPS]
        assert schema(again) == tables
        assert {"matches", "players", "entries", "device_matches"} <= {
            table for table, _column, _type in tables}
    finally:
        again.close()


def test_a_postgresql_server_out_of_reach_answers_503_and_the_app_goes_on(served_app,
                                                                          monkeypatch,
                                                                          tmp_path):
    """Nothing listens where the URL points (a server stopped, a primary lost): a save and
    a sheet answer 503, saying nothing was saved, and the rules still answer."""
    nowhere = f"postgresql://tablemate@/tablemate?host={tmp_path}"
    monkeypatch.setattr(store.postgres, "WAIT_FOR_CONNECTION", 0.5)
    monkeypatch.setitem(served_app.config, "DATABASE", nowhere)
    client = served_app.test_client()
    try:
        saved = client.post(MATCHES, json={"game": "burro", "players": ["A", "B", "C"]})
        assert saved.status_code == 503
        assert saved.json["error"].startswith("The server cannot store anything just now")
        assert saved.headers["Retry-After"]
        assert client.get("/m/some-match-link").status_code == 503
        assert client.get("/rules/burro").status_code == 200
    finally:
        store.postgres.close_pool(nowhere)


def test_the_news_of_postgresql_is_heard_again_after_its_connection_was_dropped(postgres_made):
    """The server drops the process's listening connection (a restart, a proxy's timeout):
    the waiting sheets are told to look again, and it listens again by itself."""
    postgres_cluster.emptied(postgres_made)
    db = store.connect(postgres_made)
    listening = ("SELECT pid FROM pg_stat_activity WHERE query = 'LISTEN "
                 f"{store.postgres_news.CHANNEL}'")
    try:
        match = store.create_match(db, "burro", ["A", "B"], {})
        with store.news.subscribe(postgres_made, match.id) as subscription:
            db.execute(f"SELECT pg_terminate_backend(pid) FROM ({listening}) AS listener")
            assert subscription.wait(10), "the waiting sheet was not told to look again"
            deadline = time.monotonic() + 10
            while db.execute(listening).fetchone() is None:
                assert time.monotonic() < deadline, "nobody listens again"
            subscription.wait(0)
            store.add_hand(db, match, {"burro": 0}, match.version)
            assert subscription.wait(10), "the hand saved after the drop was not heard"
    finally:
        db.close()


def test_backups_of_a_postgresql_database_are_left_to_its_own_tools(served_app, postgres_made,
                                                                    monkeypatch, tmp_path):
    monkeypatch.setitem(served_app.config, "DATABASE", postgres_made)
    runner = served_app.test_cli_runner()
    backup = runner.invoke(args=["backup", str(tmp_path / "copy.sqlite")])
    assert backup.exit_code == 1 and "pg_dump" in backup.output
    assert not (tmp_path / "copy.sqlite").exists()
    (tmp_path / "old.sqlite").write_text("")
    restored = runner.invoke(args=["restore", str(tmp_path / "old.sqlite")])
    assert restored.exit_code == 1 and "pg_dump" in restored.output


def test_a_pooled_connection_the_server_dropped_is_replaced(served_app, postgres_made,
                                                            monkeypatch):
    """PostgreSQL ends the pool's connections (a restart, an administrator): the next
    request is answered on a new one, not with the broken one's error."""
    postgres_cluster.emptied(postgres_made)
    monkeypatch.setitem(served_app.config, "DATABASE", postgres_made)
    client = served_app.test_client()
    token = start(client, hands=1)["token"]
    # Several connections wait in the pool, as after a busy evening.
    at_once(postgres_made, lambda _other: client.get(f"{MATCHES}/{token}"), times=4)
    administrator = store.connect(postgres_made)
    try:
        ended = administrator.execute(
            "SELECT count(pg_terminate_backend(pid)) FROM pg_stat_activity WHERE "
            "datname = current_database() AND backend_type = 'client backend' AND "
            "pid != pg_backend_pid()").fetchone()[0]
    finally:
        administrator.close()
    assert ended >= 1
    assert client.get(f"{MATCHES}/{token}").status_code == 200
    assert client.post(f"{MATCHES}/{token}/hands", json={"burro": 1}).status_code == 201


def test_database_url_names_the_server_as_hosting_platforms_set_it(monkeypatch, postgres_made,
                                                                   rules_index):
    """DATABASE_URL names the database unless DATABASE does."""
    monkeypatch.delenv("FLASK_DATABASE", raising=False)
    settings = {"TESTING": True, "RULES_INDEX": rules_index, "SECRET_KEY": "test"}
    monkeypatch.setenv("DATABASE_URL", postgres_made)
    assert create_app(settings).config["DATABASE"] == postgres_made
