"""Moving a running SQLite installation to PostgreSQL (``flask migrate-to URL``): every match
comes across with its links, versions, keys, hands and history, deletion and the device
lists, and a second run duplicates nothing."""

import postgres_cluster
import pytest
from helpers import MATCHES, THREE, parsed, post_form, shown

import store

pytestmark = pytest.mark.sqlite_only  # the installation moved is a SQLite file


def an_evening(client) -> dict[str, str]:
    """Matches as a table leaves them: hands saved, corrected and undone, a title, one
    archived and one deleted, all on this device's list; their edit links by name."""
    def started(game="burro", **body) -> str:
        return client.post(MATCHES, json={"game": game, "players": list(THREE), **body}).json[
            "token"]

    played = started()
    for burro, key in ((0, "a"), (1, "b"), (2, "c")):
        client.post(f"{MATCHES}/{played}/hands", json={"burro": burro},
                    headers={"Idempotency-Key": key})
    client.put(f"{MATCHES}/{played}/hands/1", json={"burro": 2})
    client.delete(f"{MATCHES}/{played}/hands/last")
    named, archived, deleted = started(), started(), started()
    for token in (played, named, archived, deleted):
        assert client.get(f"/m/{token}").status_code == 200
    post_form(client, f"/m/{named}/title", {"title": "Friday"})
    post_form(client, f"/m/{archived}/archive")
    post_form(client, f"/m/{deleted}/delete")
    return {"played": played, "named": named, "archived": archived, "deleted": deleted}


def as_seen(client, tokens: dict[str, str]) -> dict:
    """Everything the app shows of the matches: each one's API answer and its whole
    document, its watch-only sheet, and this device's home page."""
    seen = {"home": [(shown(item), item.get("class")) for item in
                     parsed(client.get("/")).select("#my-matches li")]}
    for name, token in tokens.items():
        answer = client.get(f"{MATCHES}/{token}")
        seen[name] = {"status": answer.status_code, "answer": answer.json,
                      "document": client.get(f"{MATCHES}/{token}/export").json}
        if answer.status_code == 200:
            watched = client.get(f"/v/{answer.json['view_token']}")
            seen[name]["watched"] = shown(parsed(watched).select_one("main"))
    return seen


def test_every_match_moves_to_postgresql_as_it_was_and_a_second_run_duplicates_nothing(
        app, client, runner, postgres_made, monkeypatch):
    postgres_cluster.emptied(postgres_made)
    tokens = an_evening(client)
    before = as_seen(client, tokens)

    for _run in range(2):
        result = runner.invoke(args=["migrate-to", postgres_made])
        assert result.exit_code == 0, result.output
        assert "4 matches copied" in result.output
    monkeypatch.setitem(app.config, "DATABASE", postgres_made)

    assert as_seen(client, tokens) == before
    assert client.get(f"/m/{tokens['deleted']}").status_code == 410
    with app.app_context():
        db = store.get_db()
        assert db.execute("SELECT count(*) FROM matches").fetchone()[0] == 4
        assert db.execute("SELECT count(*) FROM entries").fetchone()[0] == 4
    # A hand sent again with its key finds the hand it saved before the move.
    again = client.post(f"{MATCHES}/{tokens['played']}/hands", json={"burro": 0},
                        headers={"Idempotency-Key": "a"})
    assert again.json["hands"] == before["played"]["answer"]["hands"]
    # The next change counts on from the version the phones were shown.
    version = before["played"]["answer"]["version"]
    saved = client.post(f"{MATCHES}/{tokens['played']}/hands",
                        json={"burro": 1, "version": version})
    assert saved.status_code == 201 and saved.json["version"] == version + 1
    assert post_form(client, f"/m/{tokens['deleted']}/restore").status_code in (200, 302, 303)
    assert client.get(f"{MATCHES}/{tokens['deleted']}").status_code == 200


def test_a_change_made_after_the_first_run_comes_across_with_the_second(
        app, client, runner, postgres_made, monkeypatch):
    postgres_cluster.emptied(postgres_made)
    tokens = an_evening(client)
    runner.invoke(args=["migrate-to", postgres_made])
    client.post(f"{MATCHES}/{tokens['named']}/hands", json={"burro": 1})
    before = as_seen(client, tokens)
    assert runner.invoke(args=["migrate-to", postgres_made]).exit_code == 0
    monkeypatch.setitem(app.config, "DATABASE", postgres_made)
    assert as_seen(client, tokens) == before


def test_a_server_out_of_reach_is_told_and_nothing_is_copied(app, client, runner, tmp_path):
    an_evening(client)
    result = runner.invoke(args=["migrate-to",
                                 f"postgresql://tablemate@/tablemate?host={tmp_path}"])
    assert result.exit_code == 1
    assert "Nothing copied: PostgreSQL:" in result.output
