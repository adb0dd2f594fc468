"""Tablemate, or the baseline, served by the very command `make run` serves with, on a free
local port and a database of the benchmark's own."""

import http.client
import os
import re
import shlex
import signal
import socket
import subprocess
import tempfile
import time
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import IO

ROOT = Path(__file__).resolve().parent.parent
TABLEMATE = "app:create_app()"
HELLO = "benchmarks.hello:create_app()"
# The baseline keeps the workers Tablemate had before its streams, so that its figures stay
# comparable from one release to the next: two processes of eight threads.
THREADED = ("--worker-class", "gthread", "--threads", "8")
START_LIMIT = 60  # seconds for gunicorn and its workers to answer
# What gunicorn logs of trouble: its warnings and errors, and the exceptions they end with.
TROUBLE = re.compile(r"\[(WARNING|ERROR|CRITICAL)\]|^\w+(Error|Exception)\b|Too many open files")


def run_command(port: int, app: str = TABLEMATE, host: str = "127.0.0.1",
                options: tuple[str, ...] = ()) -> list[str]:
    """The command `make run` serves with, as `make -n` prints it, on ``host`` and ``port``,
    serving ``app`` in place of Tablemate, with gunicorn's ``options`` added."""
    printed = subprocess.run(["make", "--no-print-directory", "-n", "run", f"HOST={host}",
                              f"PORT={port}"], cwd=ROOT, capture_output=True, text=True,
                             check=True).stdout
    serving = [shlex.split(line) for line in printed.splitlines() if " --bind " in line]
    if len(serving) != 1 or TABLEMATE not in serving[0]:
        raise RuntimeError(f"`make -n run` printed no single gunicorn command:\n{printed}")
    command = [app if part == TABLEMATE else part for part in serving[0]]
    return [*command[:-1], *options, command[-1]]


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


def answers(port: int, page: str = "/") -> bool:
    """The server answers ``page``, its start page unless told."""
    connection = http.client.HTTPConnection("127.0.0.1", port, timeout=5)
    try:
        connection.request("GET", page)
        return connection.getresponse().status == 200
    except OSError:
        return False
    finally:
        connection.close()


@dataclass(frozen=True)
class Server:
    """A server that answers: its base URL, its gunicorn master's process id, its log."""
    url: str
    pid: int
    log: IO[str]

    def trouble(self) -> list[str]:
        """The lines of its log that tell of trouble (warnings, errors, exceptions)."""
        self.log.seek(0)
        return [line.rstrip() for line in self.log if TROUBLE.search(line)]

    def _workers(self) -> list[str]:
        return Path(f"/proc/{self.pid}/task/{self.pid}/children").read_text().split()

    def resident_by_worker(self) -> dict[str, int]:
        """Each worker's resident memory in bytes, by its process id."""
        resident = {}
        for worker in self._workers():
            try:
                status = Path(f"/proc/{worker}/status").read_text()
            except OSError:  # a worker just replaced
                continue
            resident[worker] = int(re.search(r"^VmRSS:\s+(\d+) kB", status, re.MULTILINE)[1]) * 1024
        return resident

    def workers_memory(self) -> tuple[int, int]:
        """How many workers the master has, and their resident memory together, in bytes."""
        return len(self._workers()), sum(self.resident_by_worker().values())

    def workers_files(self) -> int:
        """How many files the workers hold open together: their streams, mostly."""
        files = 0
        for worker in self._workers():
            try:
                files += len(os.listdir(f"/proc/{worker}/fd"))
            except OSError:
                continue
        return files

    def workers_cpu(self) -> float:
        """The processor time the workers have used, in seconds (user and system)."""
        ticks = 0
        for worker in self._workers():
            try:
                stat = Path(f"/proc/{worker}/stat").read_text()
            except OSError:
                continue
            # After the name in parentheses: utime and stime are the 12th and 13th fields.
            ticks += sum(map(int, stat.rsplit(")", 1)[1].split()[11:13]))
        return ticks / os.sysconf("SC_CLK_TCK")


@dataclass(frozen=True)
class Servers:
    """Servers of one app side by side, measured as one: their workers' figures added up."""
    each: tuple[Server, ...]

    @property
    def urls(self) -> list[str]:
        return [server.url for server in self.each]

    def trouble(self) -> list[str]:
        return [line for server in self.each for line in server.trouble()]

    def workers_memory(self) -> tuple[int, int]:
        figures = [server.workers_memory() for server in self.each]
        return sum(count for count, _memory in figures), sum(memory for _count, memory in figures)

    def workers_files(self) -> int:
        return sum(server.workers_files() for server in self.each)

    def workers_cpu(self) -> float:
        return sum(server.workers_cpu() for server in self.each)


@contextmanager
def serving(app: str, database: Path | None = None,
            options: tuple[str, ...] = ()) -> Iterator[Server]:
    """Serve ``app`` as `make run` does, with gunicorn's ``options`` added, on ``database``
    if it has one; yields the server once it answers, and stops it after."""
    port = free_port()
    environment = {**os.environ, "FLASK_SECRET_KEY": "bench",
                   **({"FLASK_DATABASE": str(database)} if database else {})}
    with tempfile.TemporaryFile("w+") as log:
        server = subprocess.Popen(run_command(port, app, options=options), cwd=ROOT,
                                  env=environment, stdout=subprocess.DEVNULL, stderr=log,
                                  text=True)
        try:
            deadline = time.monotonic() + START_LIMIT
            while not answers(port):
                if server.poll() is not None or time.monotonic() > deadline:
                    log.seek(0)
                    raise RuntimeError(f"{app} did not start:\n{log.read()[-3000:]}")
                time.sleep(0.1)
            yield Server(f"http://127.0.0.1:{port}", server.pid, log)
        finally:
            # SIGINT: gunicorn's quick shutdown; the measured requests are all answered.
            server.send_signal(signal.SIGINT)
            try:
                server.wait(timeout=15)
            except subprocess.TimeoutExpired:
                server.kill()
                server.wait()


@contextmanager
def served(app: str, database: Path | None = None,
           options: tuple[str, ...] = ()) -> Iterator[str]:
    """``serving``, yielding the base URL alone."""
    with serving(app, database, options) as server:
        yield server.url
