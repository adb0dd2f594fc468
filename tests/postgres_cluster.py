"""A throwaway PostgreSQL cluster for a test run: initdb into a temporary folder, listening
on a Unix socket in that folder only, stopped and removed at the end. Run by an unprivileged
user, since the server refuses to run as root."""

import glob
import os
import pwd
import shutil
import subprocess
import tempfile
from contextlib import contextmanager

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


@contextmanager
def cluster():
    """A running cluster; yields the URL of a database named ``tablemate`` on it."""
    folder = binaries()
    home = tempfile.mkdtemp(prefix="tablemate-pg-")
    if os.geteuid() == 0:
        postgres = pwd.getpwnam("postgres")
        os.chown(home, postgres.pw_uid, postgres.pw_gid)
    data = os.path.join(home, "data")
    pg_ctl = [os.path.join(folder, "pg_ctl"), "-D", data]
    subprocess.run(_as_server_user([os.path.join(folder, "initdb"), "-D", data, "-U", USER,
                                    "-A", "trust", "-E", "UTF8", "--no-sync"]),
                   check=True, capture_output=True)
    # Durability is the server's own business, not the tests': no fsync, no TCP port.
    options = f"-k {home} -c listen_addresses='' -c fsync=off -c synchronous_commit=off"
    subprocess.run(_as_server_user([*pg_ctl, "-o", options, "-l",
                                    os.path.join(home, "log"), "-w", "start"]),
                   check=True, capture_output=True)
    try:
        with psycopg.connect(f"postgresql://{USER}@/postgres?host={home}",
                             autocommit=True) as server:
            server.execute(f"CREATE DATABASE {USER}")
        yield f"postgresql://{USER}@/{USER}?host={home}"
    finally:
        subprocess.run(_as_server_user([*pg_ctl, "-m", "immediate", "-w", "stop"]),
                       capture_output=True)
        shutil.rmtree(home, ignore_errors=True)


def emptied(url: str) -> None:
    """Every match and what belongs to it gone, the ids counted from 1 again."""
    with psycopg.connect(url, autocommit=True) as db:
        db.execute("SET lock_timeout = '10s'")
        db.execute("TRUNCATE matches, players, entries, device_matches RESTART IDENTITY")
