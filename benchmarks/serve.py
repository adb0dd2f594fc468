"""Tablemate, or the baseline, served by the very command `make run` serves with, on a free
local port and a database of the benchmark's own."""

import http.client
import os
import shlex
import signal
import socket
import subprocess
import tempfile
import time
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
TABLEMATE = "app:create_app()"
HELLO = "benchmarks.hello:create_app()"
START_LIMIT = 60  # seconds for gunicorn and its workers to answer


def run_command(port: int, app: str = TABLEMATE, host: str = "127.0.0.1") -> list[str]:
    """The command `make run` serves with, as `make -n` prints it, on ``host`` and ``port``,
    serving ``app`` in place of Tablemate."""
    printed = subprocess.run(["make", "--no-print-directory", "-n", "run", f"HOST={host}",
                              f"PORT={port}"], cwd=ROOT, capture_output=True, text=True,
                             check=True).stdout
    serving = [shlex.split(line) for line in printed.splitlines() if " --bind " in line]
    if len(serving) != 1 or TABLEMATE not in serving[0]:
        raise RuntimeError(f"`make -n run` printed no single gunicorn command:\n{printed}")
    return [app if part == TABLEMATE else part for part in serving[0]]


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


def answers(port: int) -> bool:
    """The server answers its start page."""
    connection = http.client.HTTPConnection("127.0.0.1", port, timeout=5)
    try:
        connection.request("GET", "/")
        return connection.getresponse().status == 200
    except OSError:
        return False
    finally:
        connection.close()


@contextmanager
def served(app: str, database: Path | None = None) -> Iterator[str]:
    """Serve ``app`` as `make run` does, on ``database`` if it has one; yields the base URL
    once it answers, and stops the server after."""
    port = free_port()
    environment = {**os.environ, "FLASK_SECRET_KEY": "bench",
                   **({"FLASK_DATABASE": str(database)} if database else {})}
    with tempfile.TemporaryFile("w+") as log:
        server = subprocess.Popen(run_command(port, app), cwd=ROOT, env=environment,
                                  stdout=subprocess.DEVNULL, stderr=log, text=True)
        try:
            deadline = time.monotonic() + START_LIMIT
            while not answers(port):
                if server.poll() is not None or time.monotonic() > deadline:
                    log.seek(0)
                    raise RuntimeError(f"{app} did not start:\n{log.read()[-3000:]}")
                time.sleep(0.1)
            yield f"http://127.0.0.1:{port}"
        finally:
            # SIGINT: gunicorn's quick shutdown; the measured requests are all answered.
            server.send_signal(signal.SIGINT)
            try:
                server.wait(timeout=15)
            except subprocess.TimeoutExpired:
                server.kill()
                server.wait()
