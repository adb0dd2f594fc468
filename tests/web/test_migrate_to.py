"""Moving a running SQLite installation to PostgreSQL (``flask migrate-to URL``): every match
comes across with its links, versions, keys, hands and history, deletion and the device
lists, and a second run duplicates nothing."""

import postgres_cluster
import pytest
from helpers import HANDS, MATCHES, THREE, parsed, post_form, shown

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
        assert "4 matches and 0 club nights copied" in result.output
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


def a_club_night(client) -> str:
    """A club night as the room leaves it: turn 1 confirmed by a pair's code and by the
    organiser, reopened and confirmed again, turn 2 at its first games; its organiser's page."""
    organiser = post_form(client, "/events/new", {
        "title": "Friday", "pairs": "Anna & Carla\nBruno & Dario\nElena & Fabio\nGina & Hugo",
        "movement": "mitchell", "turns": "2", "hands": "3", "table": "fibur"}
        ).headers["Location"]
    night = client.get(f"{organiser}/export.json").json
    tables = [link["href"].rsplit("/", 1)[1]
              for link in parsed(client.get(organiser)).select('li.event-table a[href^="/m/"]')]
    for token in tables:
        for _game in range(3):
            client.post(f"{MATCHES}/{token}/hands", json=HANDS["burraco"])
    version = client.get(f"{MATCHES}/{tables[0]}").json["version"]
    pair = night["turns"][0]["seating"]["tables"][0][0]
    post_form(client, f"/m/{tables[0]}/confirm",
              {"side": 0, "code": night["codes"][pair], "version": version})
    for table, action in ((1, "confirm"), (2, "confirm"), (2, "reopen"), (2, "confirm")):
        post_form(client, f"{organiser}/turns/1/tables/{table}/{action}")
    for link in parsed(client.get(organiser)).select(
            'section[aria-labelledby="turn-2"] a[href^="/m/"]'):
        client.post(f"{MATCHES}/{link['href'].rsplit('/', 1)[1]}/hands", json=HANDS["burraco"])
    return organiser


def night_as_seen(client, organiser: str) -> dict:
    """The organiser's page as it reads, the screen's, and the night's whole file."""
    page = parsed(client.get(organiser))
    screen = page.select_one('a[href^="/s/"]')["href"]
    return {"organiser": shown(page.select_one("main")),
            "screen": shown(parsed(client.get(screen)).select_one("main")),
            "file": client.get(f"{organiser}/export.json").json}


def test_a_club_night_moves_with_its_turns_tables_and_confirmations_once(
        app, client, runner, postgres_made, monkeypatch):
    postgres_cluster.emptied(postgres_made)
    organiser = a_club_night(client)
    before = night_as_seen(client, organiser)
    for _run in range(2):
        result = runner.invoke(args=["migrate-to", postgres_made])
        assert result.exit_code == 0, result.output
        assert "4 matches and 1 club night copied" in result.output
    monkeypatch.setitem(app.config, "DATABASE", postgres_made)

    assert night_as_seen(client, organiser) == before
    # The organiser's phone still finds the night on its start page.
    assert [link["href"] for link in parsed(client.get("/")).select(".nights a")] == [organiser]
    assert [turn["tables"][0]["confirmations"] for turn in before["file"]["turns"]][0]
    with app.app_context():
        db = store.get_db()
        assert [db.execute(f"SELECT count(*) FROM {table}").fetchone()[0] for table in
                ("events", "event_turns", "event_tables", "confirmations",
                 "device_events")] == [1, 2, 4, 5, 1]
    # The organiser goes on where the room left off: a table of turn 2 is confirmed.
    second = parsed(client.get(organiser)).select_one(
        'section[aria-labelledby="turn-2"] a[href^="/m/"]')["href"].rsplit("/", 1)[1]
    for _game in range(2):
        client.post(f"{MATCHES}/{second}/hands", json=HANDS["burraco"])
    assert post_form(client, f"{organiser}/turns/2/tables/1/confirm").status_code == 303
    assert "Confirmed by the organiser" in shown(parsed(client.get(organiser)).select_one(
        'section[aria-labelledby="turn-2"] li.event-table'))
