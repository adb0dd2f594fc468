"""A damaged database: cut short, a page overwritten with noise, an index that no longer
finds a match's link. Found at the start or by the request that meets it, it is answered
503 ("nothing was saved"), said in the log in one line, and refused until a backup is
restored; then the app goes on without a restart."""

import logging

import pytest
from helpers import (
    GERMAN,
    MATCHES,
    OPEN_BURRO,
    api_totals,
    cut_short,
    enter_burro_hand,
    garbled_matches,
    misspelled_in_its_index,
    shown,
    start,
)

from app import create_app

NOTHING_SAVED = "nothing was saved"
NICHTS_GESPEICHERT = "nichts gespeichert"
MATCHES_STARTED = 40  # more than a page of rows


def errors_logged(caplog) -> list[str]:
    return [record.getMessage() for record in caplog.records if record.levelno >= logging.ERROR
            and record.exc_info is None and "\n" not in record.getMessage()]


def evening(client, runner, tmp_path) -> list[dict]:
    """Matches with a hand each, and a backup of them."""
    matches = [start(client, **OPEN_BURRO) for _ in range(MATCHES_STARTED)]
    for match in matches:
        assert enter_burro_hand(client, match).status_code == 201
    assert runner.invoke(args=["backup", str(tmp_path / "backup.sqlite")]).exit_code == 0
    return matches


def refused_until_restored(client, runner, tmp_path, matches, caplog) -> None:
    """Every request that needs the database answers 503 in the reader's language with one
    line in the log, until the backup is restored; then the matches are back."""
    for ask in (lambda: client.get(f"{MATCHES}/{matches[0]['token']}"),
                lambda: enter_burro_hand(client, matches[-1]),
                lambda: client.post(MATCHES, json={"game": "burro", "players": ["A", "B"]})):
        caplog.clear()
        answer = ask()
        assert answer.status_code == 503 and NOTHING_SAVED in answer.json["error"]
        assert [line for line in errors_logged(caplog) if "is damaged" in line]
    page = client.get(f"/m/{matches[1]['token']}", headers=GERMAN)
    assert page.status_code == 503 and NICHTS_GESPEICHERT in shown(page)
    assert runner.invoke(args=["restore", str(tmp_path / "backup.sqlite")]).exit_code == 0
    assert all(api_totals(client, match) == [1, 0, 0] for match in matches)
    assert enter_burro_hand(client, matches[0]).status_code == 201


@pytest.mark.parametrize("damage", [cut_short, garbled_matches], ids=["cut-short", "garbled"])
def test_an_app_started_on_a_damaged_database_says_so_and_answers_503_until_restored(
        tmp_path, caplog, damage):
    """The start does not fail (a worker that cannot boot leaves the table with no answer
    at all): it checks the file whole and says what it found."""
    path = str(tmp_path / "tablemate.sqlite")
    config = {"TESTING": True, "DATABASE": path, "SECRET_KEY": "test"}
    first = create_app(config)
    matches = evening(first.test_client(), first.test_cli_runner(), tmp_path)
    damage(path)
    caplog.clear()
    app = create_app(config)
    assert [line for line in errors_logged(caplog) if "is damaged" in line]
    refused_until_restored(app.test_client(), app.test_cli_runner(), tmp_path, matches, caplog)


@pytest.mark.parametrize("damage", [garbled_matches, "misspelled"], ids=["garbled", "index"])
def test_a_database_damaged_while_the_app_runs_answers_503_until_restored(
        app, client, runner, tmp_path, caplog, damage):
    """Met by a read: not a 500 with a traceback for a malformed page, not a false 404 for a
    link its index no longer finds."""
    matches = evening(client, runner, tmp_path)
    damage = misspelled_in_its_index(matches[0]["token"]) if damage == "misspelled" else damage
    damage(app.config["DATABASE"])
    refused_until_restored(client, runner, tmp_path, matches, caplog)
