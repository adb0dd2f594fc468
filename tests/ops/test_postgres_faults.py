"""Faults on PostgreSQL, with four phones entering hands through a server as `make run`
starts it (each hand with its own Idempotency-Key, sent again until acknowledged): the
database server stopped at once and started again, and the app server killed at random
moments. Afterwards every acknowledged hand is stored, and each once."""

import http.client
import random
import threading
import time

import postgres_cluster
import psycopg
import pytest
from test_crash import Phone, Server

from benchmarks.serve import free_port

PHONES = 4
KILLS = 8
# A bound for a failure only: each wait ends as soon as what it waits for happened.
DEADLINE = 60.0  # seconds


def acknowledged_by(phones) -> dict[str, str]:
    return {key: token for phone in phones for key, token in phone.acknowledged.items()}


def more_acknowledged(phones, than: int) -> None:
    """Wait until the phones have had more than ``than`` hands acknowledged."""
    deadline = time.monotonic() + DEADLINE
    while len(acknowledged_by(phones)) <= than:
        assert time.monotonic() < deadline, "no hand was acknowledged"
        assert all(phone.is_alive() for phone in phones), "a phone gave up"
        time.sleep(0.05)


def status_of(port: int, path: str) -> int:
    connection = http.client.HTTPConnection("127.0.0.1", port, timeout=30)
    try:
        connection.request("GET", path)
        return connection.getresponse().status
    finally:
        connection.close()


class Table:
    """A server on the run's PostgreSQL database and four phones entering hands on it."""

    def __init__(self, url: str):
        self.url, self.stop = url, threading.Event()
        self.server = Server(free_port(), url)
        self.server.start()
        self.server.wait_until_it_answers()
        self.phones = [Phone(self.server.port, self.stop) for _ in range(PHONES)]
        for phone in self.phones:
            phone.start()

    def assert_every_acknowledged_hand_stored_once(self) -> None:
        """Once the phones have stopped (each after its last answer): every hand they were
        answered for is stored, live, once, and no other is."""
        self.stop.set()
        for phone in self.phones:
            phone.join(timeout=30)
        assert not any(phone.is_alive() for phone in self.phones), "a hand was never answered"
        assert not [refusal for phone in self.phones for refusal in phone.refusals]
        with psycopg.connect(self.url) as db:
            stored = db.execute("SELECT e.request_key, m.token, count(*) FROM entries e "
                                "JOIN matches m ON m.id = e.match_id "
                                "WHERE e.status = 'active' "
                                "GROUP BY e.request_key, m.token").fetchall()
        assert {key: token for key, token, _count in stored} == acknowledged_by(self.phones)
        assert all(count == 1 for _key, _token, count in stored)


@pytest.fixture
def table(postgres_made):
    postgres_cluster.emptied(postgres_made)
    table = Table(postgres_made)
    try:
        yield table
    finally:
        table.stop.set()
        table.server.stop()


@pytest.mark.slow
def test_postgresql_stopped_under_load_answers_503_and_the_app_goes_on_by_itself(table):
    more_acknowledged(table.phones, than=20)
    postgres_cluster.stop(table.url)
    try:
        # A link as a match has one: the app must ask the database about it.
        assert status_of(table.server.port, f"/api/v1/matches/{'A' * 32}") == 503
    finally:
        postgres_cluster.start(table.url)
    more_acknowledged(table.phones, than=len(acknowledged_by(table.phones)) + 20)
    table.assert_every_acknowledged_hand_stored_once()


@pytest.mark.slow
def test_every_acknowledged_hand_survives_the_app_server_killed_at_random_moments(table):
    moments = random.Random()
    for _kill in range(KILLS):
        more_acknowledged(table.phones, than=len(acknowledged_by(table.phones)))
        time.sleep(moments.uniform(0.0, 0.3))
        table.server.kill()
        table.server.start()
        table.server.wait_until_it_answers()
    more_acknowledged(table.phones, than=len(acknowledged_by(table.phones)) + 10)
    table.assert_every_acknowledged_hand_stored_once()
