"""Faults the table's server survives by itself: several workers starting on an empty
database, the database file deleted or replaced while the app runs, a read-only file and a
full disk, each answered with "nothing was saved, try again" and gone once put right (a
deleted database by restoring a backup)."""

import fcntl
import logging
import multiprocessing
import os
import sqlite3
import struct
from contextlib import contextmanager

import pytest
from helpers import (
    MATCHES,
    OPEN_BURRO,
    another_apps_database,
    api_totals,
    enter_burro_hand,
    older_database,
    parsed,
    shown,
    standings,
    start,
    text_file,
)

import store
from app import create_app
from views import errors

NOTHING_SAVED = "nothing was saved"
WORKERS = 6
STARTS = 3


def schema(path) -> list:
    """What the database's tables and indexes are made of, and its schema version."""
    with sqlite3.connect(path) as db:
        shape = db.execute("SELECT type, name, sql FROM sqlite_master "
                           "WHERE name NOT LIKE 'sqlite_%' ORDER BY name").fetchall()
        return [db.execute("PRAGMA user_version").fetchone()[0], *shape]


def remove_database(path: str) -> None:
    """``rm tablemate.sqlite*``: the file and its journal files."""
    for suffix in ("", "-wal", "-shm"):
        if os.path.exists(path + suffix):
            os.remove(path + suffix)


# --- Several workers start on an empty database ---------------------------------------------

def _start_app(path: str, together) -> None:
    together.wait()
    create_app({"TESTING": True, "DATABASE": path, "SECRET_KEY": "test"})


def test_workers_starting_at_once_on_an_empty_database_all_start(tmp_path):
    """One migrates, the others wait for it: no "database is locked", no worker that fails
    to boot, whichever comes first."""
    processes = multiprocessing.get_context("fork")
    for attempt in range(STARTS):
        path = str(tmp_path / f"start-{attempt}.sqlite")
        together = processes.Barrier(WORKERS)
        workers = [processes.Process(target=_start_app, args=(path, together))
                   for _ in range(WORKERS)]
        for worker in workers:
            worker.start()
        for worker in workers:
            worker.join(timeout=60)
        assert [worker.exitcode for worker in workers] == [0] * WORKERS
        assert schema(path)[0] == len(store.STEPS)


# --- The database file deleted or replaced while the app runs --------------------------------

def test_a_database_deleted_while_the_app_runs_answers_503_until_a_backup_is_restored(
        app, client, runner, tmp_path, caplog):
    """Not made anew, empty: the hands entered into a new file would be lost to the restore
    that brings the old ones back."""
    path = app.config["DATABASE"]
    match = start(client, **OPEN_BURRO)
    assert runner.invoke(args=["backup", str(tmp_path / "backup.sqlite")]).exit_code == 0
    remove_database(path)
    for ask in (lambda: enter_burro_hand(client, match),
                lambda: client.get(f"{MATCHES}/{match['token']}"),
                lambda: client.post(MATCHES, json={"game": "burro", "players": ["Anna", "Ben"]})):
        caplog.clear()
        answer = ask()
        assert answer.status_code == 503 and NOTHING_SAVED in answer.json["error"]
        assert one_line_logged(caplog, "is missing")
    assert not os.path.exists(path)
    assert runner.invoke(args=["restore", str(tmp_path / "backup.sqlite")]).exit_code == 0
    assert enter_burro_hand(client, match).status_code == 201
    assert api_totals(client, match) == [1, 0, 0]


def test_the_rules_search_answers_while_the_database_is_missing(app, client):
    """The rules' index is a file of its own: only what needs the matches waits for them."""
    remove_database(app.config["DATABASE"])
    assert client.get("/api/v1/rules/search?q=pozzetto").json["hits"]


@pytest.mark.parametrize(("lost", "said"), [(False, False), (True, True)],
                         ids=["first-start", "database-lost"])
def test_a_start_says_so_when_it_makes_a_new_database_where_one_was_lost(tmp_path, caplog,
                                                                        lost, said):
    """A database deleted while the server was down is made anew at the next start (what
    else is a first start?), but the log says what happened and what to do."""
    path = str(tmp_path / "tablemate.sqlite")
    if lost:
        store.connect(path).close()
        remove_database(path)
    create_app({"TESTING": True, "DATABASE": path, "SECRET_KEY": "test"})
    told = [record.getMessage() for record in caplog.records
            if record.levelno >= logging.WARNING]
    assert bool([line for line in told if "flask restore" in line]) == said
    assert schema(path)[0] == len(store.STEPS)


@pytest.mark.parametrize("make", [text_file, another_apps_database],
                         ids=["text-file", "another-apps-database"])
def test_the_app_starts_on_a_file_not_ours_and_says_nothing_can_be_saved(tmp_path, make):
    """A worker that cannot boot leaves the table with no answer at all; one that starts
    answers every write with the 503 that says what is wrong."""
    path = str(tmp_path / "tablemate.sqlite")
    make(path)
    client = create_app({"TESTING": True, "DATABASE": path, "SECRET_KEY": "test"}).test_client()
    answer = client.post(MATCHES, json={"game": "burro", "players": ["Anna", "Ben"]})
    assert answer.status_code == 503 and NOTHING_SAVED in answer.json["error"]


def test_no_hand_is_acknowledged_into_a_database_file_deleted_while_it_was_open(tmp_path):
    """A request that opened the file before it was deleted: SQLite would write the hand
    into the deleted file, and it would be lost. It is refused, and the next request works
    on a new file."""
    path = str(tmp_path / "tablemate.sqlite")
    db = store.connect(path)
    match = store.create_match(db, "burro", ["Anna", "Ben"], {})
    remove_database(path)
    with pytest.raises(store.Unavailable):
        store.add_hand(db, match, {"burro": 0}, match.version)
    db.close()
    again = store.connect(path)
    store.add_hand(again, store.create_match(again, "burro", ["Anna", "Ben"], {}), {"burro": 0}, 0)
    again.close()
    assert schema(path)[0] == len(store.STEPS)


def test_a_database_replaced_by_an_older_one_is_brought_up_to_date(app, client, tmp_path):
    """A copy put back with ``mv`` (a new file under the same name), taken before the last
    migrations: the app migrates it before its first write."""
    older_database(tmp_path / "older.sqlite", 3)
    start(client, **OPEN_BURRO)
    os.replace(tmp_path / "older.sqlite", app.config["DATABASE"])
    match = start(client, **OPEN_BURRO)
    assert enter_burro_hand(client, match).status_code == 201
    assert schema(app.config["DATABASE"])[0] == len(store.STEPS)


@pytest.mark.parametrize("make", [text_file, another_apps_database],
                         ids=["text-file", "another-apps-database"])
def test_a_database_replaced_by_a_file_not_ours_is_left_alone(app, client, make):
    """The app never writes over a file it did not make: every write answers 503, nothing
    saved, and the file stays as it was."""
    path = app.config["DATABASE"]
    start(client, **OPEN_BURRO)
    remove_database(path)
    make(path)
    before = open(path, "rb").read()
    answer = client.post(MATCHES, json={"game": "burro", "players": ["Anna", "Ben"]})
    assert answer.status_code == 503
    assert NOTHING_SAVED in answer.json["error"]
    assert open(path, "rb").read() == before


# --- A read-only file and a full disk --------------------------------------------------------

FS_IOC_GETFLAGS, FS_IOC_SETFLAGS, FS_IMMUTABLE_FL = 0x80086601, 0x40086602, 0x10


def _set_immutable(path: str, immutable: bool) -> None:
    handle = os.open(path, os.O_RDONLY)
    try:
        flags = struct.unpack("l", fcntl.ioctl(handle, FS_IOC_GETFLAGS, b"\0" * 8))[0]
        flags = flags | FS_IMMUTABLE_FL if immutable else flags & ~FS_IMMUTABLE_FL
        fcntl.ioctl(handle, FS_IOC_SETFLAGS, struct.pack("l", flags))
    finally:
        os.close(handle)


def _make_read_only(path: str, read_only: bool) -> None:
    """The superuser writes through any mode, so for it the file is made immutable."""
    if os.geteuid() != 0:
        mode = 0o755 if os.path.isdir(path) else 0o644
        os.chmod(path, mode & 0o555 if read_only else mode)
        return
    try:
        _set_immutable(path, read_only)
    except OSError as error:
        pytest.fail("The superuser writes through any file mode, and this file system keeps "
                    f"no immutable flag ({error}): run the tests as another user, or with "
                    "their temporary files on a file system that keeps it (ext4, xfs, btrfs).")


@contextmanager
def read_only(*paths: str):
    """These files (or folders) cannot be written, as after a wrong ``chmod`` or a disk
    remounted read-only."""
    for path in paths:
        _make_read_only(path, True)
    try:
        yield
    finally:
        for path in paths:
            _make_read_only(path, False)


def database_and_folder(path: str) -> tuple[str, ...]:
    return path, os.path.dirname(path)


def one_line_logged(caplog, naming: str = "") -> bool:
    """The fault was logged in one line, without a traceback, naming what happened."""
    errors = [record for record in caplog.records if record.levelno >= logging.ERROR]
    return (len(errors) == 1 and errors[0].exc_info is None
            and "\n" not in errors[0].getMessage() and naming in errors[0].getMessage())


@pytest.mark.parametrize("read_only_paths", [lambda path: (path,), database_and_folder],
                         ids=["file", "file-and-folder"])
def test_a_read_only_database_answers_503_and_takes_writes_again_once_fixed(
        app, client, caplog, read_only_paths):
    match = start(client, **OPEN_BURRO)
    with read_only(*read_only_paths(app.config["DATABASE"])):
        answer = enter_burro_hand(client, match)
        assert answer.status_code == 503
        assert NOTHING_SAVED in answer.json["error"]
        assert answer.headers["Retry-After"] == str(errors.RETRY_AFTER_SECONDS)
        assert one_line_logged(caplog)
    assert enter_burro_hand(client, match).status_code == 201
    assert api_totals(client, match) == [1, 0, 0]


def test_a_read_only_database_answers_a_form_with_a_page_saying_nothing_was_saved(app, post):
    with read_only(app.config["DATABASE"]):
        answer = post("/burro/new", data={"players": ["Anna", "Ben", "Carla"], "dealer": "0",
                                           "limit": "5", "variant": "classic"})
    assert answer.status_code == 503
    assert NOTHING_SAVED in shown(answer)


def small_disk(app, monkeypatch) -> dict:
    """The database's disk from now on, as every request's handle sees it: room for the
    ``pages`` the file holds now, and no free pages inside it either (raise "pages" to make
    room)."""
    with sqlite3.connect(app.config["DATABASE"]) as db:
        db.execute("VACUUM")
        disk = {"pages": db.execute("PRAGMA page_count").fetchone()[0]}
    get_db = store.get_db

    def db_on_a_small_disk():
        # Every request's handle, the kept one too, sees the disk as it is now.
        db = get_db()
        db.execute(f"PRAGMA max_page_count = {disk['pages']}")
        return db

    monkeypatch.setattr(store, "get_db", db_on_a_small_disk)
    return disk


def test_a_full_disk_answers_503_and_takes_writes_again_once_there_is_room(app, client, caplog,
                                                                           monkeypatch):
    """The disk fills up during the evening: the hand that does not fit answers 503 and is
    not stored; once there is room again the next one is."""
    match = start(client, **OPEN_BURRO)
    disk = small_disk(app, monkeypatch)
    saved = 0
    while (answer := enter_burro_hand(client, match)).status_code == 201:
        saved += 1
        assert saved < 500, "the disk never filled up"
    assert answer.status_code == 503
    assert NOTHING_SAVED in answer.json["error"]
    assert one_line_logged(caplog)
    assert api_totals(client, match) == [saved, 0, 0]
    disk["pages"] *= 1000
    assert enter_burro_hand(client, match).status_code == 201
    assert api_totals(client, match) == [saved + 1, 0, 0]


def listed(client) -> list[str]:
    """The sheets on this phone's list of matches, last opened first."""
    return [link["href"] for link in parsed(client.get("/")).select("#my-matches li.listed > a")]


def test_a_sheet_opened_on_a_full_disk_is_shown_and_the_phones_list_catches_up_later(
        app, client, monkeypatch):
    """Opening a sheet puts it at the top of the phone's list of matches, which is a write:
    with the disk full the sheet is shown all the same, and the list takes it on the next
    time the sheet is opened once there is room."""
    # The list's first page holds some fifty: enough sheets to fill it twice, started
    # beyond the quota one client has.
    monkeypatch.setitem(app.config, "MATCHES_PER_CLIENT", "200 per minute")
    sheets = [f"/m/{start(client, **OPEN_BURRO)['token']}" for _ in range(100)]
    disk = small_disk(app, monkeypatch)
    for sheet in sheets:
        answer = client.get(sheet)
        assert answer.status_code == 200
        assert [name for name, _total in standings(answer)] == OPEN_BURRO["players"]
        if listed(client)[0] != sheet:
            break
    else:
        pytest.fail("the disk never filled up")
    disk["pages"] *= 1000
    assert client.get(sheet).status_code == 200
    assert listed(client)[0] == sheet
