"""The crash test: the server as `make run` starts it, phones entering hands as fast as they
can, and the whole server killed (SIGKILL, no time to tidy up) at random moments and
started again. Every hand the server acknowledged is stored exactly once, and the database
passes SQLite's integrity check."""

import http.client
import json
import os
import random
import signal
import sqlite3
import subprocess
import threading
import time
import uuid

import pytest

from benchmarks.serve import ROOT, START_LIMIT, free_port, run_command

KILLS = 20
PHONES = 2
# Seconds the server runs, once it answers, before it is killed: a moment anywhere in a
# hand's request, its transaction or its answer.
UP_FOR = (0.05, 0.6)
# Some kills come while it boots instead (the first time: while it migrates the new
# database), within this many seconds of its start.
KILLED_BOOTING, BOOTING_FOR = 0.25, (0.0, 0.8)
# A match is started afresh after this many hands, long before Burro's limit of 99 ends it.
HANDS_PER_MATCH = 150


class Phone(threading.Thread):
    """Enters Burro hands, each with its own Idempotency-Key, and sends a hand whose answer
    it did not get again with the same key until the server acknowledges it."""

    def __init__(self, port: int, stop: threading.Event):
        super().__init__(daemon=True)
        self.port, self.stop = port, stop
        self.acknowledged: dict[str, str] = {}  # key → the match's token
        self.refusals: list[str] = []
        self.connection = None

    def send(self, method: str, path: str, body: dict, key: str | None = None) -> tuple:
        """The status and JSON answer, once the server gives one (it may be down meanwhile)."""
        headers = {"Content-Type": "application/json", **({"Idempotency-Key": key} if key else {})}
        while True:
            try:
                if self.connection is None:
                    self.connection = http.client.HTTPConnection("127.0.0.1", self.port,
                                                                 timeout=10)
                self.connection.request(method, path, json.dumps(body), headers)
                answer = self.connection.getresponse()
                status, payload = answer.status, answer.read()
            except (OSError, http.client.HTTPException):
                self.connection.close()
                self.connection = None
                # The server is down or starting: leave it the processor meanwhile.
                time.sleep(0.05)
                continue
            if status in (502, 503):
                time.sleep(0.05)
                continue
            return status, json.loads(payload)

    def run(self):
        while not self.stop.is_set():
            status, match = self.send("POST", "/api/v1/matches", {
                "game": "burro", "players": ["Anna", "Ben", "Carla"], "options": {"limit": 99}})
            if status != 201:
                self.refusals.append(f"{status} {match}")
                return
            for hand in range(HANDS_PER_MATCH):
                if self.stop.is_set():
                    return
                key = str(uuid.uuid4())
                status, answer = self.send("POST", f"/api/v1/matches/{match['token']}/hands",
                                           {"burro": hand % 3}, key)
                if status != 201:
                    self.refusals.append(f"{status} {answer}")
                    return
                self.acknowledged[key] = match["token"]


class Server:
    """The app under the command of `make run`, in a process group of its own so that one
    signal kills the master and every worker at once."""

    def __init__(self, port: int, database: str):
        self.port = port
        self.command = run_command(port)
        self.environment = {**os.environ, "FLASK_DATABASE": database,
                            "FLASK_SECRET_KEY": "crash-test"}
        self.process = None

    def start(self) -> None:
        self.process = subprocess.Popen(self.command, cwd=ROOT, env=self.environment,
                                        stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
                                        start_new_session=True)

    def wait_until_it_answers(self) -> None:
        deadline = time.monotonic() + START_LIMIT
        while not self._answers():
            assert self.process.poll() is None, "the server did not start"
            assert time.monotonic() < deadline, "the server did not answer in time"
            time.sleep(0.02)

    def _answers(self) -> bool:
        connection = http.client.HTTPConnection("127.0.0.1", self.port, timeout=2)
        try:
            connection.request("GET", "/api/v1/matches/none")
            return connection.getresponse().status == 404
        except (OSError, http.client.HTTPException):
            return False
        finally:
            connection.close()

    def kill(self) -> None:
        os.killpg(self.process.pid, signal.SIGKILL)
        self.process.wait()

    def stop(self) -> None:
        self.process.terminate()
        self.process.wait(timeout=30)


@pytest.mark.slow
def test_every_acknowledged_hand_survives_the_server_killed_at_random_moments(tmp_path):
    seed = random.randrange(2**32)
    moments = random.Random(seed)
    database = str(tmp_path / "tablemate.sqlite")
    server, stop = Server(free_port(), database), threading.Event()
    server.start()
    phones = [Phone(server.port, stop) for _ in range(PHONES)]
    for phone in phones:
        phone.start()
    try:
        for _ in range(KILLS):
            if moments.random() < KILLED_BOOTING:
                time.sleep(moments.uniform(*BOOTING_FOR))
            else:
                server.wait_until_it_answers()
                time.sleep(moments.uniform(*UP_FOR))
            server.kill()
            server.start()
        server.wait_until_it_answers()
        stop.set()
        for phone in phones:
            phone.join(timeout=30)
        assert not any(phone.is_alive() for phone in phones), "a hand was never answered"
    finally:
        stop.set()
        server.stop()

    acknowledged = {key: token for phone in phones for key, token in phone.acknowledged.items()}
    assert not [refusal for phone in phones for refusal in phone.refusals], f"seed {seed}"
    with sqlite3.connect(database) as db:
        assert db.execute("PRAGMA integrity_check").fetchall() == [("ok",)]
        stored = db.execute("SELECT e.request_key, m.token, count(*) FROM entries e "
                            "JOIN matches m ON m.id = e.match_id WHERE e.status = 'active' "
                            "GROUP BY e.request_key, m.token").fetchall()
    assert {key: token for key, token, _count in stored} == acknowledged, f"seed {seed}"
    assert all(count == 1 for _key, _token, count in stored), f"seed {seed}"
    print(f"\ncrash test (seed {seed}): {KILLS} kills survived, {len(acknowledged)} hands "
          f"acknowledged, 0 lost, 0 doubled")
