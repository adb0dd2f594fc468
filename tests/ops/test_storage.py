"""The database's files lost or damaged under a server served as `make run` serves it: the
write-ahead log deleted while phones save, a database damaged or cut short before the start.
What counts is what the phones are answered, what the log says and which hands are kept."""

import http.client
import json
import os
import signal
import sqlite3
import subprocess
import sys
import tempfile
import threading
import time
import uuid
from contextlib import contextmanager

import pytest
from helpers import cut_short

import store
from benchmarks.serve import (
    ROOT,
    START_LIMIT,
    TABLEMATE,
    answers,
    free_port,
    run_command,
    serving,
)

WRITERS = 4
RUNS = 8
# Hands acknowledged before each deletion (the writers are under way), and after it (the
# server saves again by itself).
HANDS_BETWEEN = 15
DEADLINE = 60  # seconds for any one wait


def api(address: str, method: str, path: str, body: dict | None = None,
        headers: dict | None = None) -> tuple[int, dict]:
    """The status and JSON answer of one request to the server at ``address``."""
    connection = http.client.HTTPConnection(address.removeprefix("http://"), timeout=10)
    try:
        connection.request(method, path, body=None if body is None else json.dumps(body),
                           headers={"Content-Type": "application/json", **(headers or {})})
        answer = connection.getresponse()
        return answer.status, json.loads(answer.read() or b"null")
    finally:
        connection.close()


class Table:
    """Phones entering Burro hands through the API, each on a match of its own, each hand
    with its own Idempotency-Key; a hand answered 503 is sent again with the same key
    until it is acknowledged (a 2xx). Any other answer stops them."""

    def __init__(self, address: str, phones: int):
        self.address, self.stop = address, threading.Event()
        self.acknowledged: list[str] = []
        self.refused = 0
        self.unexpected: list[str] = []
        self.changed = threading.Condition()
        self.phones = [threading.Thread(target=self.enter_hands, daemon=True)
                       for _ in range(phones)]

    def __enter__(self):
        for phone in self.phones:
            phone.start()
        return self

    def __exit__(self, *_exc):
        self.stop.set()
        for phone in self.phones:
            phone.join(timeout=30)

    def enter_hands(self) -> None:
        status, answer = api(self.address, "POST", "/api/v1/matches", {
            "game": "burro", "players": ["Anna", "Ben", "Carla"], "options": {"limit": 99}})
        hands, hand, key = f"/api/v1/matches/{answer.get('token')}/hands", 0, uuid.uuid4()
        while status in (201, 503) and not self.stop.is_set():
            try:
                status, answer = api(self.address, "POST", hands, {"burro": hand % 3},
                                     {"Idempotency-Key": str(key)})
            except (OSError, http.client.HTTPException) as error:
                status, answer = 0, str(error)
            if status in (200, 201):
                self.tell(self.acknowledged, str(key))
                hand, key = hand + 1, uuid.uuid4()
            elif status == 503 and "nothing was saved" in answer["error"]:
                self.refused += 1
                # "Try again in a moment."
                self.stop.wait(0.02)
        if not self.stop.is_set():
            self.tell(self.unexpected, f"{status} {answer}")

    def tell(self, record: list, item) -> None:
        with self.changed:
            record.append(item)
            self.changed.notify_all()

    def wait_until(self, condition, what: str) -> None:
        """Until ``condition()`` holds, while every answer so far was an expected one."""
        deadline = time.monotonic() + DEADLINE
        with self.changed:
            while not condition():
                assert not self.unexpected, f"{what}: {self.unexpected}"
                assert time.monotonic() < deadline, f"not within {DEADLINE} s: {what}"
                self.changed.wait(deadline - time.monotonic())

    def acknowledge(self, hands: int, what: str) -> None:
        """Wait for ``hands`` more hands acknowledged."""
        target = len(self.acknowledged) + hands
        self.wait_until(lambda: len(self.acknowledged) >= target, what)


def stored_keys(database: str) -> set[str]:
    """The keys of the live hands in the database, which passes SQLite's integrity check."""
    with sqlite3.connect(database) as db:
        assert db.execute("PRAGMA integrity_check").fetchall() == [("ok",)]
        return {key for (key,) in db.execute(
            "SELECT request_key FROM entries WHERE status = 'active'")}


def logged(server) -> str:
    server.log.seek(0)
    return server.log.read()


@pytest.mark.slow
def test_no_acknowledged_hand_is_lost_when_the_write_ahead_log_is_deleted_under_writers(
        tmp_path):
    """``rm tablemate.sqlite-wal`` while four phones save: SQLite would go on writing into
    the deleted file. Every hand a phone was answered 2xx for is in the database afterwards,
    every other answer said nothing was saved, the log names the deleted file without a
    traceback, and each time the server saves again by itself."""
    database = tmp_path / "tablemate.sqlite"
    log = f"{database}-wal"
    with serving(TABLEMATE, database) as server:
        with Table(server.url, WRITERS) as table:
            for run in range(RUNS):
                table.acknowledge(HANDS_BETWEEN, f"run {run}: the phones save")
                table.wait_until(lambda: os.path.exists(log), f"run {run}: a log to delete")
                os.remove(log)
                table.acknowledge(HANDS_BETWEEN, f"run {run}: saving again after the deletion")
            assert not table.unexpected
        told = logged(server)
    missing = set(table.acknowledged) - stored_keys(str(database))
    assert not missing, f"{len(missing)} of {len(table.acknowledged)} acknowledged hands lost"
    assert f"The write-ahead log {log} was deleted" in told and "Traceback" not in told
    print(f"\nthe write-ahead log deleted {RUNS} times under {WRITERS} phones: "
          f"{len(table.acknowledged)} hands acknowledged, 0 lost, {table.refused} answered 503")


@contextmanager
def served_on(database, environment: dict):
    """The server as `make run` starts it, on ``database``, however that is: yields its
    address and its log once it answers a page that needs no database (the rules)."""
    port = free_port()
    with tempfile.TemporaryFile("w+") as log:
        server = subprocess.Popen(run_command(port), cwd=ROOT, env=environment,
                                  stdout=subprocess.DEVNULL, stderr=log, text=True)
        try:
            address, deadline = f"127.0.0.1:{port}", time.monotonic() + START_LIMIT
            while not answers(port, "/rules"):
                log.seek(0)
                assert server.poll() is None, f"the server did not start:\n{log.read()}"
                assert time.monotonic() < deadline, "the server did not answer in time"
                time.sleep(0.05)
            yield address, log
        finally:
            server.send_signal(signal.SIGINT)
            server.wait(timeout=30)


def test_a_server_started_on_a_database_cut_short_answers_503_until_flask_restore(tmp_path):
    """Its workers boot (none fails on the file and takes the server down), the log says
    what is wrong and what to do, and `flask restore` puts the backup back while the server
    runs: it answers at once, without a restart."""
    database, backup = str(tmp_path / "tablemate.sqlite"), str(tmp_path / "backup.sqlite")
    db = store.connect(database)
    tokens = [store.create_match(db, "burro", ["Anna", "Ben", "Carla"], {}).token
              for _ in range(40)]
    db.close()
    store.backup(database, backup)
    cut_short(database)
    environment = {**os.environ, "FLASK_DATABASE": database, "FLASK_SECRET_KEY": "faults"}
    with served_on(database, environment) as (address, log):
        for token in tokens[:4]:
            status, answer = api(address, "GET", f"/api/v1/matches/{token}")
            assert status == 503 and "nothing was saved" in answer["error"]
        restored = subprocess.run([sys.executable, "-m", "flask", "--app", "app", "restore",
                                   backup], cwd=ROOT, env=environment, capture_output=True,
                                  text=True)
        assert restored.returncode == 0, restored.stderr
        for token in tokens:
            assert api(address, "GET", f"/api/v1/matches/{token}")[0] == 200
        log.seek(0)
        told = log.read()
    assert "is damaged" in told and "flask restore" in told
    assert "Traceback" not in told and "Worker failed to boot" not in told
