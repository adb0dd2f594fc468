"""A throwaway PostgreSQL cluster for a test run: initdb into a temporary folder, listening
on a Unix socket in that folder only, stopped and removed at the end. Run by an unprivileged
user, since the server refuses to run as root."""

import glob
import os
import pwd
import shutil
import subprocess
import tempfile
import urllib.parse
from contextlib import contextmanager, suppress

import psycopg

# Debian's postgresql package puts the server's binaries off the PATH.
_SEARCHED = ("/usr/local/bin", *sorted(glob.glob("/usr/lib/postgresql/*/bin"), reverse=True))
USER = "tablemate"


def binaries() -> str | None:
    """The folder holding initdb and pg_ctl, if PostgreSQL is installed."""
    for folder in _SEARCHED:
        if all(os.access(os.path.join(folder, name), os.X_OK) for name in ("initdb", "pg_ctl")):
            return folder
    found = shutil.which("initdb")
    return found and os.path.dirname(found)


def _as_server_user(command: list[str]) -> list[str]:
    """``command`` as the ``postgres`` user when running as root."""
    if os.geteuid() != 0:
        return command
    return ["runuser", "-u", "postgres", "--", *command]


def _pg_ctl(home: str, *arguments: str) -> None:
    subprocess.run(_as_server_user([os.path.join(binaries(), "pg_ctl"), "-D",
                                    os.path.join(home, "data"), *arguments]),
                   check=True, capture_output=True)


def _home(url: str) -> str:
    """The cluster's folder, where its socket is."""
    return urllib.parse.parse_qs(urllib.parse.urlsplit(url).query)["host"][0]


def start(url: str) -> None:
    """Start the cluster of ``url`` and wait until it takes connections."""
    home = _home(url)
    # No TCP port. No fsync: the tests stop the server at once, never the machine, and what
    # a commit wrote is in the system's cache; but every commit is written before it is
    # acknowledged (synchronous_commit stays on), as a server in production writes it.
    options = f"-k {home} -c listen_addresses='' -c fsync=off"
    _pg_ctl(home, "-o", options, "-l", os.path.join(home, "log"), "-w", "start")


def stop(url: str) -> None:
    """Stop the cluster of ``url`` at once, as a crash would: every connection ends."""
    _pg_ctl(_home(url), "-m", "immediate", "-w", "stop")


@contextmanager
def cluster():
    """A running cluster; yields the URL of a database named ``tablemate`` on it."""
    home = tempfile.mkdtemp(prefix="tablemate-pg-")
    if os.geteuid() == 0:
        postgres = pwd.getpwnam("postgres")
        os.chown(home, postgres.pw_uid, postgres.pw_gid)
    subprocess.run(_as_server_user([os.path.join(binaries(), "initdb"), "-D",
                                    os.path.join(home, "data"), "-U", USER, "-A", "trust",
                                    "-E", "UTF8", "--no-sync"]),
                   check=True, capture_output=True)
    url = f"postgresql://{USER}@/{USER}?host={home}"
    start(url)
    try:
        with psycopg.connect(f"postgresql://{USER}@/postgres?host={home}",
                             autocommit=True) as server:
            server.execute(f"CREATE DATABASE {USER}")
        yield url
    finally:
        # A test that stopped it and failed before starting it again left it stopped.
        with suppress(subprocess.CalledProcessError):
            stop(url)
        shutil.rmtree(home, ignore_errors=True)


def emptied(url: str) -> None:
    """Every match and club night and what belongs to them gone, the ids counted from 1
    again."""
    with psycopg.connect(url, autocommit=True) as db:
        db.execute("SET lock_timeout = '10s'")
        db.execute("TRUNCATE matches, players, entries, device_matches, events, event_turns, "
                   "event_tables, confirmations, device_events RESTART IDENTITY")
