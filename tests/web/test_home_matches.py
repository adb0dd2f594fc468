"""The matches on this device: titles, rename, archive, delete with undo, and the device's
list kept on the server under a random device id instead of in the cookie.

Issue 11, point 7: "The home page names each match by a title (default: the game and the
date; editable), shows its players, the leader and the last change; a match can be renamed,
archived and deleted (with undo for 30 days); ended matches are marked." Issue 12, point 5:
"the device's list of recent matches no longer readable from the cookie".
"""

import io
import json
import re
from datetime import UTC, datetime, timedelta

import pytest
from helpers import GERMAN, HTMX, MATCHES, count_rows, parsed, post_form, root, shown, text

import store

# The home page's groups of matches, each where the page lists it.
GROUPS = {"continue": 'section[aria-labelledby="recent-title"]', "archived": "details.archived",
          "deleted": "details.deleted"}


class Clock:
    """A clock the test moves by hand."""

    def __init__(self, at: datetime):
        self.at = at

    def __call__(self) -> datetime:
        return self.at

    def advance(self, **delta) -> None:
        self.at += timedelta(**delta)


@pytest.fixture
def clock(monkeypatch) -> Clock:
    """The store's clock, fixed at 3 May 2025, 19:02:11 UTC until the test moves it."""
    fixed = Clock(datetime(2025, 5, 3, 19, 2, 11, tzinfo=UTC))
    monkeypatch.setattr(store.matches, "clock", fixed)
    return fixed


def opened(client, players=("Anna", "Ben", "Carla"), burros=(), **options) -> str:
    """A Burro match started through the API with these burros saved, then its sheet opened
    on this device (the client); its edit token."""
    token = client.post(MATCHES, json={"game": "burro", "players": list(players),
                                       "options": options}).json["token"]
    for player in burros:
        assert client.post(f"{MATCHES}/{token}/hands", json={"burro": player}).status_code == 201
    assert client.get(f"/m/{token}").status_code == 200
    return token


def view_token(client, token: str) -> str:
    return client.get(f"{MATCHES}/{token}").json["view_token"]


def listed(page) -> dict[str, list[tuple[str, str, bool]]]:
    """The home page's matches per group, in the order shown: (title, players, ended)."""
    mine = page.select_one("#my-matches")
    groups = {}
    for group, where in GROUPS.items():
        part = mine.select_one(where) if mine else None
        groups[group] = [(shown(title.strong), shown(title.find_next_sibling("span")),
                          bool(title.select(".ended-mark")))
                         for title in (part.select("li.listed .title-line") if part else [])]
    return groups


def titles(client, group: str = "continue") -> list[str]:
    return [title for title, _players, _ended in listed(parsed(client.get("/")))[group]]


def stored_title(app, token: str) -> str | None:
    with app.app_context():
        return store.get_match(store.get_db(), token).title


# --- Titles --------------------------------------------------------------------------------

@pytest.mark.parametrize("headers, title", [({}, "Burro · May 3, 2025"),
                                            (GERMAN, "Burro · 03.05.2025")])
def test_a_match_is_named_by_its_game_and_the_day_it_began(client, clock, headers, title):
    opened(client)
    clock.advance(days=2)
    page = parsed(client.get("/", headers=headers))
    assert [entry[0] for entry in listed(page)["continue"]] == [title]


def test_the_list_shows_players_leader_and_last_change_in_the_phones_time(client, clock):
    token = opened(client)
    clock.advance(minutes=8)
    client.post(f"{MATCHES}/{token}/hands", json={"burro": 1})
    page = parsed(client.get("/"))
    assert listed(page)["continue"] == [("Burro · May 3, 2025", "Anna · Ben · Carla", False)]
    assert "1 hand · ahead: Anna, Carla" in shown(page)
    # static/panel/main.js shows such a time in the phone's zone, as in the sheet's history.
    changed = page.select_one("#my-matches time")
    assert changed["datetime"] == "2025-05-03T19:10:11+00:00"
    assert shown(changed.parent) == "Last change: May 3, 2025, 19:10 UTC"


def test_ended_matches_are_marked_and_follow_running_ones_newest_change_first(client, clock):
    """Within the list, running matches come first; in each part the latest change leads."""
    for first, ended in (("Anna", False), ("Ben", True), ("Carla", False), ("Dan", True)):
        opened(client, (first, "Zoe"), burros=[1], limit=1 if ended else 5)
        clock.advance(minutes=1)
    assert [(players.split(" · ")[0], ended)
            for _title, players, ended in listed(parsed(client.get("/")))["continue"]] == [
        ("Carla", False), ("Anna", False), ("Dan", True), ("Ben", True)]


def test_a_renamed_match_shows_its_title_on_every_phone(app, client):
    token = opened(client)
    response = post_form(client, f"/m/{token}/title", {"title": "Friday at Anna's"})
    assert response.status_code == 303 and response.headers["Location"] == "/#my-matches"
    assert titles(client) == ["Friday at Anna's"]
    heading = parsed(client.get(f"/m/{token}")).select_one("h1.visually-hidden")
    assert shown(heading) == "Friday at Anna's: Anna, Ben, Carla"
    other_phone = app.test_client()
    other_phone.get(f"/m/{token}")
    assert titles(other_phone) == ["Friday at Anna's"]


def test_a_rename_by_htmx_answers_the_list_alone(client):
    token = opened(client)
    response = post_form(client, f"/m/{token}/title", {"title": "Revenge"}, headers=HTMX)
    assert response.status_code == 200
    fragment = parsed(response)
    assert fragment.html is None
    assert root(fragment).name == "div" and root(fragment)["id"] == "my-matches"
    assert listed(fragment)["continue"][0][0] == "Revenge"


def test_a_title_is_normalised_and_its_spaces_collapsed(app, client):
    token = opened(client)
    post_form(client, f"/m/{token}/title", {"title": "  Ｆｒｉｄａｙ \u00a0  night "})
    assert stored_title(app, token) == "Friday night"


@pytest.mark.parametrize("typed, message", [
    ("", "Give the match a title."),
    ("   ", "Give the match a title."),
    ("x" * 61, "A title has at most 60 characters."),
    ("Anna\x00Ben", "A title cannot hold control or invisible characters."),
    ("Anna\u202eneB", "A title cannot hold control or invisible characters."),
    ("Ann\u200ba", "A title cannot hold control or invisible characters."),
])
@pytest.mark.parametrize("headers", [{}, HTMX], ids=["page", "fragment"])
def test_a_refused_title_is_explained_and_changes_nothing(app, client, typed, message, headers):
    token = opened(client)
    post_form(client, f"/m/{token}/title", {"title": "Kept"})
    response = post_form(client, f"/m/{token}/title", {"title": typed}, headers=headers)
    assert response.status_code == 422
    page = parsed(response)
    assert message in shown(page) and page.select('[aria-invalid="true"]')
    assert (page.html is not None) == (headers == {})
    assert stored_title(app, token) == "Kept"


def test_sixty_characters_are_a_title(app, client):
    token = opened(client)
    assert post_form(client, f"/m/{token}/title", {"title": "x" * 60}).status_code == 303
    assert stored_title(app, token) == "x" * 60


# --- Every write: its form token, its edit link ---------------------------------------------

WRITES = ("title", "archive", "unarchive", "delete", "restore")


@pytest.mark.parametrize("action", WRITES)
def test_a_write_without_the_form_token_is_refused_and_changes_nothing(app, client, action):
    token = opened(client)
    response = client.post(f"/m/{token}/{action}", data={"title": "Sneaky"})
    assert response.status_code == 400
    assert stored_title(app, token) is None and len(titles(client)) == 1


@pytest.mark.parametrize("action", WRITES)
def test_only_the_edit_link_changes_the_match(app, client, action):
    """Issue 11, point 2: "every write with a view token answers 403"."""
    token = opened(client)
    response = post_form(client, f"/m/{view_token(client, token)}/{action}", {"title": "Sneaky"})
    assert response.status_code == 403
    assert "This link only shows the score" in shown(response)
    assert stored_title(app, token) is None and len(titles(client)) == 1
    assert post_form(client, f"/m/no-such-match/{action}", {"title": "x"}).status_code == 404
    assert post_form(client, f"/m/{token}/{action}", {"title": "Mine"}).status_code == 303


# --- Archive: this device's list only -------------------------------------------------------

def test_archiving_tidies_this_phones_list_only(app, client):
    token = opened(client)
    other_phone = app.test_client()
    other_phone.get(f"/m/{token}")
    response = post_form(client, f"/m/{token}/archive")
    assert response.status_code == 303
    assert titles(client) == [] and len(titles(client, "archived")) == 1
    assert "Unarchive" in shown(client.get("/"))
    assert len(titles(other_phone)) == 1 and titles(other_phone, "archived") == []
    # Opening it again does not undo the archiving: only "Unarchive" does.
    client.get(f"/m/{token}")
    assert titles(client) == []
    assert post_form(client, f"/m/{token}/unarchive", headers=HTMX).status_code == 200
    assert len(titles(client)) == 1 and titles(client, "archived") == []


def test_the_archive_is_folded_and_says_how_many_it_holds(client):
    post_form(client, f"/m/{opened(client)}/archive")
    archive = parsed(client.get("/")).select_one("#my-matches details.archived")
    assert not archive.has_attr("open") and shown(archive.summary) == "Archived (1)"


def test_a_match_not_on_this_phones_list_cannot_be_archived_there(app, client):
    token = opened(client)
    assert post_form(app.test_client(), f"/m/{token}/archive").status_code == 404
    assert post_form(client, f"/m/{token}/archive").status_code == 303


# --- Delete, and its undo for 30 days -------------------------------------------------------

def test_a_deleted_match_offers_its_undo_on_this_phone(client):
    token = opened(client)
    response = post_form(client, f"/m/{token}/delete")
    assert response.status_code == 303
    assert re.fullmatch(r"/\?deleted=\d+#my-matches", response.headers["Location"])
    page = parsed(client.get(response.headers["Location"]))
    assert "was deleted." in shown(page) and page.select(f'form[action="/m/{token}/restore"]')
    assert titles(client) == [] and len(titles(client, "deleted")) == 1


def test_the_undo_after_an_htmx_delete_comes_with_the_list(client):
    token = opened(client)
    fragment = parsed(post_form(client, f"/m/{token}/delete", headers=HTMX))
    assert fragment.html is None and fragment.select('.toast[role="status"]')
    assert fragment.select(f'.toast [hx-post="/m/{token}/restore"]')
    restored = post_form(client, f"/m/{token}/restore", headers=HTMX)
    assert restored.status_code == 200 and listed(parsed(restored))["continue"]
    assert client.get(f"/m/{token}").status_code == 200


def test_a_deleted_match_is_gone_by_every_link_and_its_edit_link_can_restore_it(client):
    token = opened(client)
    watching = view_token(client, token)
    post_form(client, f"/m/{token}/delete")
    sheet = client.get(f"/m/{token}")
    assert sheet.status_code == 410
    assert "was deleted" in shown(sheet)
    assert parsed(sheet).select(f'form[action="/m/{token}/restore"]')
    watched = client.get(f"/v/{watching}")
    assert watched.status_code == 410
    assert token not in text(watched) and "/restore" not in text(watched)
    for link in (token, watching):
        answer = client.get(f"{MATCHES}/{link}")
        assert answer.status_code == 410 and answer.json == {"error": "This match was deleted."}
    assert client.get(f"{MATCHES}/{token}/export").status_code == 410
    assert client.post(f"{MATCHES}/{token}/hands", json={"burro": 0}).status_code == 410


def test_restoring_from_the_matchs_page_opens_its_sheet_again(client):
    token = opened(client, burros=[2])
    post_form(client, f"/m/{token}/delete")
    response = post_form(client, f"/m/{token}/restore", {"next": f"/m/{token}"})
    assert response.status_code == 303 and response.headers["Location"] == f"/m/{token}"
    assert client.get(f"/m/{token}").status_code == 200
    assert client.get(f"{MATCHES}/{token}").json["hands"][0]["number"] == 1


def test_a_form_on_a_sheet_deleted_meanwhile_leads_to_the_deleted_page(client):
    token = opened(client)
    post_form(client, f"/m/{token}/delete")
    response = post_form(client, f"/m/{token}/hands", {"burro": "1", "version": "0"}, headers=HTMX)
    assert response.status_code == 410 and response.headers["HX-Redirect"] == f"/m/{token}"


def test_another_phone_no_longer_lists_a_deleted_match_nor_offers_its_undo(app, client):
    token = opened(client)
    other_phone = app.test_client()
    other_phone.get(f"/m/{token}")
    post_form(client, f"/m/{token}/delete")
    page = parsed(other_phone.get("/"))
    assert listed(page) == {"continue": [], "archived": [], "deleted": []}
    post_form(client, f"/m/{token}/restore")
    assert len(titles(other_phone)) == 1


def test_after_30_days_a_deleted_match_is_gone_for_good(app, client, runner, clock):
    """The undo lasts 30 days; then the match and its entries are removed."""
    token = opened(client, burros=[0, 1])
    kept = opened(client, burros=[2])
    post_form(client, f"/m/{token}/delete")
    clock.advance(days=30)
    assert client.get(f"/m/{token}").status_code == 410
    assert len(titles(client, "deleted")) == 1
    clock.advance(seconds=1)
    assert client.get(f"/m/{token}").status_code == 404
    assert titles(client, "deleted") == []
    assert post_form(client, f"/m/{token}/restore").status_code == 404
    result = runner.invoke(args=["purge-deleted"])
    assert result.exit_code == 0 and "1 deleted matches removed for good." in result.output
    with app.app_context():
        db = store.get_db()
        assert [row["token"] for row in db.query("SELECT token FROM matches")] == [kept]
    assert count_rows(app, "entries") == 1 and count_rows(app, "players") == 3
    assert count_rows(app, "device_matches") == 1


def test_the_next_delete_removes_what_expired(app, client, clock):
    token = opened(client, burros=[0])
    post_form(client, f"/m/{token}/delete")
    clock.advance(days=31)
    post_form(client, f"/m/{opened(client)}/delete")
    assert count_rows(app, "matches") == 1


# --- The device's list, on the server --------------------------------------------------------

def session_of(app, client) -> dict:
    """The session cookie as the server reads it: signed, not encrypted, so anyone can."""
    cookie = client.get_cookie("session")
    return app.session_interface.get_signing_serializer(app).loads(cookie.value) if cookie else {}


def test_the_cookies_hold_a_random_device_id_and_no_match_link(app, client):
    token = opened(client)
    device = client.get_cookie("device")
    assert re.fullmatch(r"[A-Za-z0-9_-]{43}", device.value)
    assert device.http_only and device.same_site == "Lax"
    assert device.max_age >= 365 * 24 * 3600
    for cookie in ("session", "device"):
        assert token not in (client.get_cookie(cookie).value if client.get_cookie(cookie) else "")
    assert "matches" not in session_of(app, client)
    other_phone = app.test_client()
    other_phone.get("/")
    assert other_phone.get_cookie("device").value != device.value


def test_a_list_an_older_session_cookie_holds_moves_to_the_server(app, client):
    newer, older = (client.post(MATCHES, json={"game": "burro", "players": ["A", "B"]})
                    .json["token"] for _ in range(2))
    with client.session_transaction() as session:
        session["matches"] = [newer, older]
    page = parsed(client.get("/"))
    assert len(page.select("#my-matches li.listed")) == 2
    assert page.select(f'a[href="/m/{newer}"]') and page.select(f'a[href="/m/{older}"]')
    assert "matches" not in session_of(app, client)
    assert len(titles(client)) == 2


def test_a_forged_device_id_gets_a_fresh_one(client):
    client.set_cookie("device", "x'; DROP TABLE matches")
    client.get("/")
    assert re.fullmatch(r"[A-Za-z0-9_-]{43}", client.get_cookie("device").value)


# --- The title travels with the match file ---------------------------------------------------

def test_an_exported_match_keeps_its_title_when_imported(client):
    token = opened(client)
    post_form(client, f"/m/{token}/title", {"title": "Summer cup"})
    document = client.get(f"{MATCHES}/{token}/export").json
    assert document["title"] == "Summer cup"
    copy = client.post(f"{MATCHES}/import", json=document).json["token"]
    client.get(f"/m/{copy}")
    assert titles(client) == ["Summer cup", "Summer cup"]


@pytest.mark.parametrize("headers, mark", [({}, "imported May 5, 2025"),
                                           (GERMAN, "importiert am 05.05.2025")])
def test_an_imported_match_is_marked_with_the_day_it_came_apart_from_its_original(
        post, client, clock, headers, mark):
    """A copy keeps its original's title, day and hands: on this phone's list the mark and
    its date tell it from the original, whether the file came by the page or the API."""
    token = opened(client)
    post_form(client, f"/m/{token}/title", {"title": "Summer cup"})
    document = client.get(f"{MATCHES}/{token}/export").json
    clock.advance(days=2)
    by_api = client.post(f"{MATCHES}/import", json=document).json["token"]
    client.get(f"/m/{by_api}")
    by_page = post("/import", {"document": (io.BytesIO(json.dumps(document).encode()),
                                              "match.json")}, content_type="multipart/form-data")
    assert by_page.status_code == 303
    page = parsed(client.get("/", headers=headers))
    entries = page.select('section[aria-labelledby="recent-title"] li.listed .title-line')
    assert [(shown(entry.strong), [shown(tag) for tag in entry.select(".imported-mark")])
            for entry in entries] == [("Summer cup", [mark]), ("Summer cup", [mark]),
                                      ("Summer cup", [])]


def test_a_match_file_without_a_title_still_imports(client):
    document = client.get(f"{MATCHES}/{opened(client)}/export").json
    assert document.pop("title") is None
    assert client.post(f"{MATCHES}/import", json=document).status_code == 201


def test_a_match_file_with_a_spoilt_title_is_refused(app, client):
    document = client.get(f"{MATCHES}/{opened(client)}/export").json
    answer = client.post(f"{MATCHES}/import", json={**document, "title": "x" * 61})
    assert answer.status_code == 400
    assert answer.json["error"] == "A title has at most 60 characters."
    assert count_rows(app, "matches") == 1


# --- On the phone ----------------------------------------------------------------------------




def test_the_match_opened_last_tops_the_list_even_when_the_clock_steps_back(client, clock):
    """A phone's clock set back (a time server's correction) must not reorder its list: the
    sheet opened last is the first one listed."""
    first, second = opened(client), opened(client, players=("Dora", "Emil"))
    clock.advance(hours=-1)
    client.get(f"/m/{first}")
    listed = parsed(client.get("/")).select("#my-matches li.listed > a")
    assert [link["href"] for link in listed] == [f"/m/{first}", f"/m/{second}"]
