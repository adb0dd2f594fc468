"""The sheets' news (views/live.py): each open sheet holds a stream of its match's news
(Server-Sent Events); a change sends every stream the new sheet with what changed, the same
bytes for every phone of one link and language; a phone that reconnects hears what it
missed and nothing twice; a phone without a stream asks with If-None-Match and hears 304
while nothing is new."""

import threading

import pytest
from bs4 import BeautifulSoup
from helpers import GERMAN, MATCHES, THREE, parsed, saved_by_another_worker, shown, start

import store
from store.news import news_id
from views import live

FIRST = news_id(0, None, False)


@pytest.fixture(autouse=True)
def quick_keep_alive(monkeypatch):
    """A quiet stream says so within a fraction of a second, not 20 s."""
    monkeypatch.setattr(live, "KEEP_ALIVE", 0.3)


def sheet_in(event: dict) -> BeautifulSoup:
    """The sheet an event of news brings, as the phone puts it in place."""
    return BeautifulSoup(event["data"], "html.parser")


class Stream:
    """A phone's open stream, read chunk by chunk as the server sends them."""

    def __init__(self, client, path, **headers):
        self.response = client.get(path, headers=headers, buffered=False)
        self._chunks = iter(self.response.response)

    def next_event(self, skipping_keep_alives: int = 10) -> dict:
        """The next event, its fields by name; keep-alive comments skipped."""
        for _chunk in range(skipping_keep_alives + 1):
            chunk = next(self._chunks)
            chunk = chunk.decode() if isinstance(chunk, bytes) else chunk
            if chunk.startswith(("retry:", ":")):
                continue
            fields = {"data": []}
            for line in chunk.strip("\n").split("\n"):
                name, _, value = line.partition(": ")
                if name == "data":
                    fields["data"].append(value)
                else:
                    fields[name] = value
            fields["data"] = "\n".join(fields["data"])
            return fields
        raise AssertionError("no event came")

    def first_chunks(self, count: int) -> list[str]:
        return [next(self._chunks).decode() for _ in range(count)]

    def close(self):
        self.response.close()


def test_a_stream_is_an_uncompressed_event_stream_that_no_one_keeps(client):
    match = start(client, hands=0)
    stream = Stream(client, f"/m/{match['token']}/events?seen={FIRST}",
                    **{"Accept-Encoding": "gzip, br, zstd"})
    headers = stream.response.headers
    assert headers["Content-Type"].startswith("text/event-stream")
    assert headers["Cache-Control"] == "no-store" and headers["X-Accel-Buffering"] == "no"
    assert "Content-Encoding" not in headers
    # The first chunk at once (a server sends no headers before it), then, while nothing
    # changes, only keep-alive comments.
    assert stream.first_chunks(2) == ["retry: 2000\n\n", ": still here\n\n"]
    stream.close()


def test_a_phone_that_missed_news_hears_it_on_connecting_and_not_twice(client):
    """Last-Event-ID (EventSource sends it when it reconnects) names what the phone has."""
    match = start(client, hands=0, players=THREE)
    client.post(f"{MATCHES}/{match['token']}/hands", json={"burro": 2})
    stream = Stream(client, f"/m/{match['token']}/events", **{"Last-Event-ID": FIRST})
    event = stream.next_event()
    stream.close()
    assert event["event"] == "sheet" and event["id"] == news_id(1, None, False)
    assert "Hand 1 was saved on another phone: Carla +1" in shown(sheet_in(event))
    again = Stream(client, f"/m/{match['token']}/events", **{"Last-Event-ID": event["id"]})
    assert again.first_chunks(2) == ["retry: 2000\n\n", ": still here\n\n"]
    again.close()


def test_a_hand_saved_while_a_phone_listens_reaches_it(client):
    match = start(client, hands=0, players=THREE)
    stream = Stream(client, f"/m/{match['token']}/events?seen={FIRST}")
    stream.first_chunks(1)
    # Another phone saves while this one waits for its next event.
    saving = threading.Thread(target=lambda: client.post(f"{MATCHES}/{match['token']}/hands",
                                                         json={"burro": 0}))
    saving.start()
    heard = stream.next_event()
    saving.join()
    stream.close()
    assert heard["id"] == news_id(1, None, False)
    sheet = sheet_in(heard)
    assert [total.get_text() for total in sheet.select(".total")] == ["1", "0", "0"]
    assert "Hand 1 was saved on another phone: Anna +1" in sheet.select_one(".news").get_text()


def test_every_phone_of_a_link_and_language_gets_the_same_bytes_without_anyones_token(client):
    """Rendered once for all: no phone's CSRF token nor entry key is in it; each phone puts
    in its own (static/panel/live.js)."""
    match = start(client, hands=0)
    client.post(f"{MATCHES}/{match['token']}/hands", json={"burro": 1})
    events = []
    for _phone in range(2):
        stream = Stream(client, f"/m/{match['token']}/events?seen={FIRST}")
        events.append(stream.next_event())
        stream.close()
    assert events[0] == events[1]
    sheet = sheet_in(events[0])
    assert sheet.select("form input[name=csrf_token]")
    assert {field["value"] for field in sheet.select("input[name=csrf_token]")} == {""}
    assert {field["value"] for field in sheet.select("input[name=key]")} == {""}


# Where a sheet sends the phone: links, forms, images, the panel's requests and its stream.
ADDRESSES = ("href", "src", "action", "formaction", "hx-get", "hx-post", "data-events")


@pytest.mark.parametrize("path", ["/m/{token}/events", "/v/{view_token}/events"])
def test_a_forged_host_changes_no_news_the_other_phones_hear(client, path):
    """Without BASE_URL the share box follows each phone's Host, but the news is rendered
    once for every phone: the phone that names another host first, and hears it first,
    hands the others no link to that host."""
    match = start(client, hands=0)
    client.post(f"{MATCHES}/{match['token']}/hands", json={"burro": 1})
    heard = []
    for host in ("evil.example", "192.168.1.23:5000"):
        stream = Stream(client, f"{path.format(**match)}?seen={FIRST}", Host=host)
        heard.append(stream.next_event())
        stream.close()
    assert heard[0] == heard[1]
    sheet = sheet_in(heard[1])
    addresses = [element[name] for name in ADDRESSES for element in sheet.select(f"[{name}]")]
    assert addresses and all(address.startswith("/") for address in addresses), addresses
    assert "evil.example" not in heard[1]["data"]


def test_hands_saved_one_after_another_elsewhere_are_told_in_one_line(client):
    """A phone back after a while, or a script that entered an evening's hands: a line each
    would push the sheet off the screen. Two hands are still told one by one."""
    match = start(client, hands=0, players=THREE)
    for loser in (0, 1, 2, 0, 1):
        client.post(f"{MATCHES}/{match['token']}/hands", json={"burro": loser})
    stream = Stream(client, f"/m/{match['token']}/events?seen={FIRST}")
    event = stream.next_event()
    stream.close()
    told = shown(sheet_in(event))
    assert "Hands 1 to 5 were saved on another phone: Anna +2 · Ben +2 · Carla +1" in told
    assert "was saved" not in event["data"]
    stream = Stream(client, f"/m/{match['token']}/events?seen={news_id(3, None, False)}")
    told = shown(sheet_in(stream.next_event()))
    stream.close()
    assert "Hand 4 was saved on another phone: Anna +1" in told
    assert "Hand 5 was saved on another phone: Ben +1" in told


def test_a_run_of_games_saved_elsewhere_is_told_in_german_with_what_it_gave_each_side(client):
    match = client.post(MATCHES, json={"game": "burraco",
                                       "players": ["Anna", "Ben", "Carla", "Dario"]}).json
    for table_points in (100, 150, 200):
        client.post(f"{MATCHES}/{match['token']}/hands",
                    json={"sides": [{"total": table_points}, {"total": 10}]})
    client.delete(f"{MATCHES}/{match['token']}/hands/last")
    stream = Stream(client, f"/m/{match['token']}/events?seen={FIRST}", **GERMAN)
    told = shown(sheet_in(stream.next_event()))
    stream.close()
    assert ("Spiele\u00a01 bis\u00a03 wurden auf einem anderen Handy gespeichert: "
            "Anna & Carla +450 · Ben & Dario +30") in told
    assert "Spiel\u00a03 wurde auf einem anderen Handy zurückgenommen." in told


def test_the_watch_only_link_follows_without_revealing_the_edit_token(client):
    match = start(client, hands=0)
    client.post(f"{MATCHES}/{match['token']}/hands", json={"burro": 0})
    stream = Stream(client, f"/v/{match['view_token']}/events?seen={FIRST}")
    event = stream.next_event()
    stream.close()
    assert "Hand 1 was saved on another phone" in shown(sheet_in(event))
    assert match["token"] not in event["data"] and not sheet_in(event).select("#panel")


def test_a_new_title_is_news_of_the_same_version(client, post):
    match = start(client, hands=0)
    assert post(f"/m/{match['token']}/title", {"title": "Friday"}).status_code in (200, 303)
    stream = Stream(client, f"/m/{match['token']}/events?seen={FIRST}")
    event = stream.next_event()
    stream.close()
    assert event["id"] == news_id(0, "Friday", False) != FIRST
    assert "Friday" in sheet_in(event).h1.get_text()


def test_a_deleted_match_is_told_gone(client, post):
    match = start(client, hands=0)
    assert post(f"/m/{match['token']}/delete").status_code in (200, 303)
    stream = Stream(client, f"/m/{match['token']}/events?seen={FIRST}")
    event = stream.next_event()
    stream.close()
    assert event["event"] == "gone" and event["id"].endswith(".gone")


@pytest.mark.parametrize("path", ["/m/{view}/events", "/v/{edit}/events", "/m/{view}/news",
                                  "/v/{edit}/news"])
def test_each_link_listens_only_through_its_own_door(client, path):
    """A view token cannot open the editing sheet's news, nor an edit token the watching
    one."""
    match = start(client, hands=0)
    response = client.get(path.format(view=match["view_token"], edit=match["token"]))
    assert response.status_code == 404


def test_an_unknown_match_is_404(client):
    assert client.get("/m/nothing-here/events").status_code == 404
    assert client.get("/m/nothing-here/news").status_code == 404


# --- A phone that cannot hold a stream ------------------------------------------------------

def test_asked_again_with_the_news_it_has_a_phone_hears_304(client):
    match = start(client, hands=0)
    path = f"/m/{match['token']}/news"
    unchanged = client.get(path, headers={"If-None-Match": f'W/"{FIRST}"'})
    assert unchanged.status_code == 304 and unchanged.data == b""
    assert unchanged.headers["Cache-Control"] == "no-store"
    client.post(f"{MATCHES}/{match['token']}/hands", json={"burro": 1})
    changed = client.get(path, headers={"If-None-Match": f'W/"{FIRST}"'})
    assert changed.status_code == 200 and changed.headers["X-News"] == "sheet"
    assert changed.headers["ETag"] == f'W/"{news_id(1, None, False)}"'
    assert "Hand 1 was saved on another phone: Ben +1" in shown(changed)
    again = client.get(path, headers={"If-None-Match": changed.headers["ETag"]})
    assert again.status_code == 304


def test_the_match_api_answers_an_unchanged_match_with_304(client):
    """`GET /api/v1/matches/<token>` sends an ETag (the version) and answers If-None-Match
    with 304."""
    match = start(client, hands=0)
    first = client.get(f"{MATCHES}/{match['token']}")
    etag = first.headers["ETag"]
    assert etag == 'W/"v0"'
    again = client.get(f"{MATCHES}/{match['token']}", headers={"If-None-Match": etag})
    assert again.status_code == 304 and again.data == b""
    client.post(f"{MATCHES}/{match['token']}/hands", json={"burro": 0})
    changed = client.get(f"{MATCHES}/{match['token']}", headers={"If-None-Match": etag})
    assert changed.status_code == 200 and changed.headers["ETag"] == 'W/"v1"'


def test_the_sheet_names_its_news_and_where_to_listen(client):
    match = start(client, hands=0)
    news = parsed(client.get(f"/m/{match['token']}")).select_one("#sheet [data-seen]")
    assert news["data-seen"] == FIRST
    assert news["data-events"] == f"/m/{match['token']}/events"
    assert news["data-news"] == f"/m/{match['token']}/news"
    watched = parsed(client.get(f"/v/{match['view_token']}")).select_one("#sheet [data-seen]")
    assert watched["data-events"] == f"/v/{match['view_token']}/events"
    assert match["token"] not in str(watched)


def test_a_change_another_server_process_commits_reaches_a_listening_phone_at_once(
        app, client, monkeypatch):
    """Every change of a match is written down for the phones in the change's own
    transaction (a trigger): another server process's hand, and a title another program
    sets in the file, each reach a stream held here at once, long before the stream would
    look again by itself."""
    monkeypatch.setattr(live, "KEEP_ALIVE", 5.0)
    match = start(client, hands=0, players=THREE)
    stream = Stream(client, f"/m/{match['token']}/events?seen={FIRST}")
    stream.first_chunks(1)

    def heard_at_once(change) -> dict:
        change()
        # Before the keep-alive: the stream was woken, it did not look again by itself.
        return stream.next_event(skipping_keep_alives=0)

    def hand_saved_by_another_worker():
        saved_by_another_worker(app, match, {"burro": 2})

    def title_set_elsewhere():
        elsewhere = store.connect(app.config["DATABASE"])
        try:
            elsewhere.execute("UPDATE matches SET title = 'Friday' WHERE token = ?",
                              [match["token"]])
        finally:
            elsewhere.close()

    heard = heard_at_once(hand_saved_by_another_worker)
    assert heard["id"] == news_id(1, None, False)
    assert "Hand 1 was saved on another phone: Carla +1" in shown(sheet_in(heard))
    heard = heard_at_once(title_set_elsewhere)
    stream.close()
    assert heard["id"] == news_id(1, "Friday", False)
    assert "Friday" in sheet_in(heard).h1.get_text()
