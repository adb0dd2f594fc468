"""One client asking a long match's pages under ever new query strings, hosts and seen
versions leaves the workers' memory bounded and writes nothing to disk but the database:
what the server keeps has a size limit and a key no request can multiply."""

import http.client
import json
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

import pytest

import store
from app import create_app
from benchmarks.serve import TABLEMATE, serving

pytestmark = pytest.mark.slow

HANDS = 4999
# A worker may grow this much over what it held once each kind of page was served.
ROOM = 100 * 1024 * 1024
ROUNDS = 110
CONNECTIONS = 4


def long_match(database: Path) -> tuple[str, str]:
    """A Burraco match of ``HANDS`` hands, none of them ending it: its two links."""
    app = create_app({"DATABASE": str(database), "SECRET_KEY": "memory"})
    answer = app.test_client().post("/api/v1/matches", json={
        "game": "burraco", "players": ["Anna", "Ben", "Carla", "Dan"]}).json
    with app.app_context():
        db = store.get_db()
        match = store.get_match(db, answer["token"])
        db["entries"].insert_all(
            {"match_id": match.id, "number": number, "status": store.ACTIVE,
             "data": json.dumps({"sides": [{"total": sign * 5}, {"total": -sign * 5}]}),
             "created_at": match.created_at, "ended_at": None}
            for number, sign in zip(range(1, HANDS + 1), [1, -1] * HANDS, strict=False))
        db.execute("UPDATE matches SET version = ? WHERE id = ?", [HANDS, match.id])
        db.conn.commit()
        store.close_db()
    return answer["token"], answer["view_token"]


def requests_of_round(token: str, view: str, turn: int) -> list[tuple[str, dict]]:
    """Every page of the match, each under a query string, host and seen version of its own."""
    unique = f"u={turn}"
    seen = {"If-None-Match": f'W/"{turn % HANDS}.00000000"'}
    host = {"Host": f"table{turn}.example:5000"}
    return [
        (f"/m/{token}?{unique}", {}),
        (f"/v/{view}?{unique}", host),
        (f"/m/{token}/news?{unique}", seen),
        (f"/v/{view}/news", {**seen, **host}),
        (f"/m/{token}/hands/{1 + turn % HANDS}?{unique}", {}),
        (f"/api/v1/matches/{token}?{unique}", {}),
        (f"/m/{token}/export.csv?{unique}", {}),
        (f"/rules/search?q=joker+{turn}", {}),
        (f"/burraco/meld?cards=3H+4H+5H&{unique}", host),
    ]


def ask(port: int, path: str, headers: dict) -> int:
    connection = http.client.HTTPConnection("127.0.0.1", port, timeout=30)
    try:
        connection.request("GET", path, headers=headers)
        answer = connection.getresponse()
        answer.read()
        return answer.status
    finally:
        connection.close()


def files_beside(database: Path) -> set[str]:
    return {path.name for path in database.parent.iterdir()}


def test_pages_asked_under_ever_new_query_strings_leave_memory_and_disk_bounded(tmp_path):
    database = tmp_path / "tablemate.sqlite"
    token, view = long_match(database)
    with serving(TABLEMATE, database) as server, ThreadPoolExecutor(CONNECTIONS) as pool:
        port = int(server.url.rsplit(":", 1)[1])

        def play(rounds: range) -> list[int]:
            asked = [request for turn in rounds for request in requests_of_round(token, view, turn)]
            return list(pool.map(lambda request: ask(port, *request), asked))

        # Each kind of page served a few times by each worker: what a worker holds anyway.
        assert set(play(range(4))) <= {200, 304}
        started = server.resident_by_worker()
        files = files_beside(database)
        assert set(play(range(4, 4 + ROUNDS))) <= {200, 304}
        grown = {worker: resident - started[worker]
                 for worker, resident in server.resident_by_worker().items() if worker in started}
        assert grown and max(grown.values()) < ROOM, grown
        assert files_beside(database) == files
        assert not server.trouble()
