"""Speed a phone feels on a slow wifi: pages, styles and scripts come compressed, while the
answers that carry nothing (the no-change poll's 204, the API's 304) stay empty and cheap."""

import gzip
import os
import re
import subprocess
import sys
import time

import brotli
import pytest
from benchmarks.serve import ROOT
from conftest import CSRF_FIELD
from flask_compress import flask_compress
from test_share import HANDS, MATCHES, start

import store
import views
from scoring import burraco, burro
from views import api, kept_pages, lookup
from views.kept import Kept
from views.rule_search import index_rules

DECODE = {"gzip": gzip.decompress, "br": brotli.decompress}


def fetched(client, address: str, encoding: str):
    """The answer to a phone that accepts ``encoding``, and its body decoded."""
    response = client.get(address, headers={"Accept-Encoding": encoding})
    assert response.headers.get("Content-Encoding") == encoding, address
    return response, DECODE[encoding](response.get_data())


@pytest.mark.parametrize("encoding", DECODE)
@pytest.mark.parametrize("filename", ["app.css", "panel.js", "vendor/htmx-2.0.11.min.js"])
def test_styles_and_scripts_come_compressed(client, static_url, encoding, filename):
    plain = client.get(static_url(filename)).get_data()
    response, decoded = fetched(client, static_url(filename), encoding)
    assert decoded == plain
    assert len(response.get_data()) < len(plain) / 2
    assert "Accept-Encoding" in response.headers["Vary"]


@pytest.mark.parametrize("encoding", DECODE)
def test_pages_come_compressed_with_their_security_headers(client, encoding):
    match = start(client, "burraco", hands=3)
    for address in ("/", "/rules/burraco", f"/m/{match['token']}", "/rules/search?q=stapel"):
        response, decoded = fetched(client, address, encoding)
        assert decoded.lstrip().lower().startswith(b"<!doctype html>"), address
        assert "script-src 'self'" in response.headers["Content-Security-Policy"]
        assert "Accept-Encoding" in response.headers["Vary"]


def test_a_phone_that_accepts_no_compression_gets_the_plain_page(client):
    response = client.get("/", headers={"Accept-Encoding": "identity"})
    assert "Content-Encoding" not in response.headers
    assert response.get_data().lstrip().lower().startswith(b"<!doctype html>")


def test_the_match_api_etag_still_answers_304_when_compressed(client):
    """The ETag is the match's version (README "Live"): compression keeps it, and asking
    again with it still answers an empty 304."""
    match = start(client, "burraco", hands=3)
    first, decoded = fetched(client, f"{MATCHES}/{match['token']}", "gzip")
    assert first.headers["ETag"] == 'W/"v3"' and b'"version":3' in decoded.replace(b" ", b"")
    again = client.get(f"{MATCHES}/{match['token']}",
                       headers={"Accept-Encoding": "gzip", "If-None-Match": first.headers["ETag"]})
    assert again.status_code == 304 and again.get_data() == b""
    assert "Content-Encoding" not in again.headers
    assert "Content-Security-Policy" in again.headers


def test_the_no_change_poll_stays_an_empty_uncompressed_204(client):
    match = start(client, "burraco", hands=3)
    for address in (f"/m/{match['token']}/since/3", f"/v/{match['view_token']}/since/3"):
        response = client.get(address, headers={"Accept-Encoding": "gzip, br"})
        assert response.status_code == 204 and response.get_data() == b""
        assert "Content-Encoding" not in response.headers
        assert response.headers["Cache-Control"] == "no-store"


def test_a_search_asked_again_is_answered_without_searching_the_index_until_it_changes(
        app, client, monkeypatch):
    """Players at every table look up the same words ("Stapel", "pozzetto"): asked again, in
    any case, the same hits come without another search; a rebuilt index is searched anew."""
    def rebuild(digest: str) -> None:
        monkeypatch.setattr("rules_content.documents_digest", lambda: digest)
        with app.app_context():
            assert index_rules(store.get_db())

    searched = []
    search_index = store.search_rules
    monkeypatch.setattr(store, "search_rules",
                        lambda *args, **kwargs: searched.append(args) or search_index(*args,
                                                                                    **kwargs))
    rebuild("first")
    first = client.get("/api/v1/rules/search", query_string={"q": "Stapel", "lang": "de"}).json
    again = client.get("/api/v1/rules/search", query_string={"q": "STAPEL", "lang": "de"}).json
    assert again == first and len(searched) == 1
    assert "Ablagestapel" in " ".join(hit["snippet"] for hit in first["hits"])
    rebuild("second")
    assert client.get("/api/v1/rules/search", query_string={"q": "stapel", "lang": "de"}).json \
        == first
    assert len(searched) == 2


@pytest.fixture
def rendered(monkeypatch) -> list:
    """The templates of the pages rendered from now on, with no page kept from other
    tests."""
    monkeypatch.setattr(kept_pages, "_kept_pages", Kept(8))
    renders = []
    original = views.render_template
    monkeypatch.setattr(views, "render_template",
                        lambda *args, **kwargs: renders.append(args) or original(*args,
                                                                                  **kwargs))
    return renders


def test_a_search_page_is_rendered_once_and_each_phone_gets_its_own_form_token(
        app, rendered):
    """The same search from every table renders once; the language switch on each phone's
    copy still carries that phone's own token, which no other phone can use."""
    phones = [app.test_client() for _ in range(2)]
    pages = [phone.get("/rules/search?q=stapel").get_data(as_text=True) for phone in phones]
    assert len(rendered) == 1
    tokens = [CSRF_FIELD.search(page)[1] for page in pages]
    assert tokens[0] != tokens[1]
    assert CSRF_FIELD.sub("", pages[0]) == CSRF_FIELD.sub("", pages[1])
    assert "<mark>" in pages[0]

    def switch(phone, token):
        return phone.post("/language", data={"csrf_token": token, "lang": "de",
                                             "next": "/rules/search?q=stapel"}).status_code

    assert switch(phones[0], tokens[1]) == 400
    assert [switch(phone, token) for phone, token in zip(phones, tokens)] == [303, 303]
    german = phones[0].get("/rules/search?q=stapel").get_data(as_text=True)
    assert len(rendered) == 2 and '<html lang="de">' in german


@pytest.fixture
def compressions(monkeypatch) -> list[str]:
    """The encodings of every compression from now on, with nothing kept from other tests."""
    monkeypatch.setattr(kept_pages, "_kept_pages", Kept(8))
    monkeypatch.setattr(kept_pages, "_compressed_answers", Kept(8))
    done = []
    original = flask_compress._compress_data
    monkeypatch.setattr(flask_compress, "_compress_data",
                        lambda app, data, algorithm: done.append(algorithm)
                        or original(app, data, algorithm))
    return done


def test_a_page_asked_again_is_compressed_once_for_each_encoding(app, compressions):
    """Compressing a rules page cost more than searching and rendering it: the same phone's
    page asked again, and the search results htmx asks for from any phone, come from the
    first compression, in each encoding a phone accepts."""
    phone = app.test_client()
    first, page = fetched(phone, "/rules/search?q=stapel", "gzip")
    again, page_again = fetched(phone, "/rules/search?q=stapel", "gzip")
    assert page_again == page and b"<mark>" in page and compressions == ["gzip"]
    assert again.headers["Vary"] == first.headers["Vary"]
    _, brotli_page = fetched(phone, "/rules/search?q=stapel", "br")
    assert brotli_page == page and compressions == ["gzip", "br"]
    results = {gzip.decompress(app.test_client().get(
        "/rules/search?q=stapel", headers={"HX-Request": "true", "Accept-Encoding": "gzip"},
    ).get_data()) for _ in range(3)}
    assert len(results) == 1 and b"<mark>" in results.pop()
    assert compressions == ["gzip", "br", "gzip"]


def test_a_watched_sheet_is_compressed_once_per_version_for_every_phone(app, compressions):
    """The watch link's sheet, as htmx asks for it, is the same for every phone watching:
    compressed once, and anew for the next version, which shows the new hand."""
    match = start(app.test_client(), "burro", hands=1)
    address, htmx = f"/v/{match['view_token']}", {"HX-Request": "true", "Accept-Encoding": "br"}

    def watched() -> list[bytes]:
        return [brotli.decompress(app.test_client().get(address, headers=htmx).get_data())
                for _ in range(3)]

    before = watched()
    assert len(set(before)) == 1 and compressions == ["br"]
    assert app.test_client().post(f"{MATCHES}/{match['token']}/hands",
                                  json=HANDS["burro"]).status_code == 201
    after = watched()
    assert len(set(after)) == 1 and compressions == ["br", "br"]
    assert b"Hand 2: " in before[0] and b"Hand 3: " in after[0]


def test_a_sheet_is_rendered_once_per_version_and_each_phone_gets_its_own_form_keys(
        app, rendered):
    """Four phones ask for each version of the sheet: it renders once, and every form on
    each phone's copy carries a key of its own (a save and an undo are two changes) and
    that phone's token, with which it saves."""
    token = burro_match(app, app.test_client(), 3)
    phones = [app.test_client() for _ in range(4)]
    pages = [phone.get(f"/m/{token}").get_data(as_text=True) for phone in phones]
    assert len(rendered) == 1
    keys = [re.findall(r'name="key" value="([^"]+)"', page) for page in pages]
    assert len(keys[0]) >= 2 and len({key for page in keys for key in page}) == 4 * len(keys[0])
    tokens = [CSRF_FIELD.search(page)[1] for page in pages]
    assert len(set(tokens)) == 4
    saved = phones[1].post(f"/m/{token}/hands", data={
        "csrf_token": tokens[1], "version": "3", "key": keys[1][0], "winner": "2"})
    assert saved.status_code == 303
    after = [phone.get(f"/m/{token}").get_data(as_text=True) for phone in phones]
    assert len(rendered) == 2 and all(history_numbers(page) == [1, 2, 3, 4] for page in after)


def without_form_tokens(page: str) -> str:
    """A page without what each phone's copy carries of its own: form keys, CSRF token."""
    return CSRF_FIELD.sub("", re.sub(r'name="key" value="[^"]+"', "", page))


def test_the_phones_of_a_table_hear_of_another_phones_hand_from_one_reading_of_it(
        app, monkeypatch):
    """After a hand, the sheet's question "anything new?" from each of four phones gets the
    news; the changes are read and told once, for the sheet kept for the first."""
    match = start(app.test_client())
    monkeypatch.setattr(kept_pages, "_kept_pages", Kept(8))
    assert app.test_client().post(f"{MATCHES}/{match['token']}/hands",
                                  json=HANDS["burro"]).status_code == 201
    read = []
    original = store.changes_since
    monkeypatch.setattr(store, "changes_since",
                        lambda *args: read.append(args) or original(*args))
    pages = [app.test_client().get(f"/m/{match['token']}/since/{match['version']}",
                                   headers={"HX-Request": "true"}) for _ in range(4)]
    assert [page.status_code for page in pages] == [200] * 4
    assert all("Hand 2 was saved on another phone: Carla +1" in page.get_data(as_text=True)
               for page in pages)
    assert len(read) == 1


@pytest.mark.parametrize("game", ["burraco", "buraco"])
def test_a_new_entrys_sides_are_rendered_once_a_match_and_look_as_if_rendered_afresh(
        app, monkeypatch, game):
    """The sides of the next hand's panel, before anything is typed, look the same at every
    version: rendered for the first and kept, they are what a fresh render shows."""
    from views import template_helpers
    match = start(app.test_client(), game, hands=0)
    monkeypatch.setattr(template_helpers, "_kept_html", Kept(64))
    phone = app.test_client()
    phone.get(f"/m/{match['token']}")
    assert phone.post(f"{MATCHES}/{match['token']}/hands", json=HANDS[game]).status_code == 201
    kept = without_form_tokens(phone.get(f"/m/{match['token']}").get_data(as_text=True))
    sides = [key for key in template_helpers._kept_html._results if key[0] == f"{game} sides"]
    assert len(sides) == 1
    monkeypatch.setattr(template_helpers, "_kept_html", Kept(64))
    monkeypatch.setattr(kept_pages, "_kept_pages", Kept(8))
    fresh = without_form_tokens(phone.get(f"/m/{match['token']}").get_data(as_text=True))
    assert "Enter game 2" in kept if game == "burraco" else "Enter hand 2" in kept
    assert kept == fresh


HELD_SIDES = re.compile(r'data-sides="([0-9a-f]+)"')
SIDE = '<fieldset class="side"'


@pytest.mark.parametrize("game", ["burraco", "buraco"])
def test_a_phone_that_holds_the_panels_sides_gets_the_news_without_them(app, game):
    """After another phone's save, the sides of the next entry are the ones the phone shows
    already: the answer leaves them out (panel.js keeps the phone's own), and is smaller."""
    match = start(app.test_client(), game, hands=0)
    phone = app.test_client()
    page = phone.get(f"/m/{match['token']}").get_data(as_text=True)
    held = HELD_SIDES.search(page)[1]
    assert app.test_client().post(f"{MATCHES}/{match['token']}/hands",
                                  json=HANDS[game]).status_code == 201
    since = f"/m/{match['token']}/since/{match['version']}"
    news = phone.get(f"{since}?sides={held}", headers={"HX-Request": "true"})
    text = news.get_data(as_text=True)
    assert news.status_code == 200 and "saved on another phone" in text
    assert f'data-sides-held="{held}"' in text and SIDE not in text
    whole = phone.get(since, headers={"HX-Request": "true"}).get_data(as_text=True)
    assert f'data-sides="{held}"' in whole and SIDE in whole
    assert len(text) < len(whole) / 2
    # Sides other than these, or a whole page asked for, come in full.
    for asked in (f"{since}?sides=0123456789abcdef", f"/m/{match['token']}?sides={held}"):
        assert SIDE in phone.get(asked, headers={"HX-Request": "true"}).get_data(as_text=True)


def test_held_sides_are_neither_rendered_nor_kept_again_when_the_kept_ones_are_gone(
        app, monkeypatch):
    """At a table night the rendered sides leave memory long before the match's next hand:
    what a phone holds is still known by its digest."""
    from views import template_helpers
    match = start(app.test_client(), "burraco", hands=0)
    phone = app.test_client()
    held = HELD_SIDES.search(phone.get(f"/m/{match['token']}").get_data(as_text=True))[1]
    app.test_client().post(f"{MATCHES}/{match['token']}/hands", json=HANDS["burraco"])
    monkeypatch.setattr(template_helpers, "_kept_html", Kept(64))
    news = phone.get(f"/m/{match['token']}/since/{match['version']}?sides={held}",
                     headers={"HX-Request": "true"}).get_data(as_text=True)
    assert f'data-sides-held="{held}"' in news
    assert not [key for key in template_helpers._kept_html._results if "sides" in key[0]]


# The sheet as another server process renders it, and the sides it names.
OTHER_PROCESS = """
import re, sys
from app import create_app
page = create_app({"DATABASE": sys.argv[1], "SECRET_KEY": "other"}).test_client().get(sys.argv[2])
print(re.search(r'data-sides="([0-9a-f]+)"', page.get_data(as_text=True))[1])
"""


def test_held_sides_are_known_to_a_process_that_never_rendered_them(app):
    """A phone loaded its sheet from the other server process, or from this one before it
    was restarted: its sides are still recognised, and not rendered to find out."""
    from views import template_helpers
    match = start(app.test_client(), "burraco", hands=1)
    held = subprocess.run([sys.executable, "-c", OTHER_PROCESS, app.config["DATABASE"],
                           f"/m/{match['token']}"], cwd=ROOT, capture_output=True, text=True,
                          check=True).stdout.strip()
    app.config["SHARED_PAGES"] = ""  # nothing the other process rendered is read here
    app.test_client().post(f"{MATCHES}/{match['token']}/hands", json=HANDS["burraco"])
    news = app.test_client().get(f"/m/{match['token']}/since/{match['version']}?sides={held}",
                                 headers={"HX-Request": "true"}).get_data(as_text=True)
    assert f'data-sides-held="{held}"' in news and SIDE not in news
    assert not [key for key in template_helpers._kept_html._results
                if "sides" in key[0] and match["token"] in key]


def test_sides_held_from_before_a_release_come_again_in_full(app, monkeypatch):
    """A new release may render the sides otherwise: a phone that loaded its sheet before
    gets them whole, under their new name."""
    from views import template_helpers
    match = start(app.test_client(), "burraco", hands=1)
    phone = app.test_client()
    held = HELD_SIDES.search(phone.get(f"/m/{match['token']}").get_data(as_text=True))[1]
    app.test_client().post(f"{MATCHES}/{match['token']}/hands", json=HANDS["burraco"])
    monkeypatch.setattr(template_helpers, "release_fingerprint", lambda _root: "next release")
    news = phone.get(f"/m/{match['token']}/since/{match['version']}?sides={held}",
                     headers={"HX-Request": "true"}).get_data(as_text=True)
    assert SIDE in news and HELD_SIDES.search(news)[1] != held


def test_the_release_fingerprint_changes_with_what_pages_are_rendered_from(tmp_path):
    """Code, templates, translations, rules texts and static files make a release; compiled
    code, tests and the database do not."""
    from views.template_helpers import release_fingerprint
    fingerprint = release_fingerprint.__wrapped__
    files = {"app.py": "app", "views/sheet.py": "view", "templates/sheet.html": "<p>",
             "translations/de/LC_MESSAGES/messages.mo": "mo", "rules_content/de/burraco.md": "#",
             "static/app.css": "p {}", "tests/test_sheet.py": "test", "instance/t.sqlite": "db",
             "views/__pycache__/sheet.cpython-311.pyc": "compiled"}
    for name, text in files.items():
        (tmp_path / name).parent.mkdir(parents=True, exist_ok=True)
        (tmp_path / name).write_text(text)
    first = fingerprint(str(tmp_path))
    for name in files:
        (tmp_path / name).write_text(files[name] + " changed")
        changed = fingerprint(str(tmp_path))
        assert (changed != first) == (name.split("/")[0] not in ("tests", "instance")
                                      and "__pycache__" not in name), name
        (tmp_path / name).write_text(files[name])
    (tmp_path / "templates/sheet.html").rename(tmp_path / "templates/other.html")
    assert fingerprint(str(tmp_path)) != first


def as_another_process(monkeypatch) -> None:
    """From now on the module's memory and slots are those of the other server process."""
    monkeypatch.setattr(kept_pages, "_kept_pages", Kept(8))
    monkeypatch.setattr(kept_pages, "_TOKEN_SLOT", "token-slot-of-the-other")
    monkeypatch.setattr(kept_pages, "_KEY_SLOT", "key-slot-of-the-other")


def test_a_sheet_one_process_rendered_is_read_by_the_other_with_forms_of_its_own(
        app, monkeypatch, rendered):
    """The phones of a table reach both server processes: a version of the sheet is
    rendered by the first asked, and the other sends the same page with each phone's own
    token and form keys, with which that phone saves."""
    token = burro_match(app, app.test_client(), 3)
    first = app.test_client().get(f"/m/{token}").get_data(as_text=True)
    as_another_process(monkeypatch)
    phone = app.test_client()
    page = phone.get(f"/m/{token}").get_data(as_text=True)
    assert len(rendered) == 1
    assert without_form_tokens(page) == without_form_tokens(first)
    keys = re.findall(r'name="key" value="([^"]+)"', page)
    assert len(keys) >= 2 and len(set(keys)) == len(keys)
    assert not set(keys) & set(re.findall(r'name="key" value="([^"]+)"', first))
    assert "slot" not in CSRF_FIELD.search(page)[1] + "".join(keys)
    saved = phone.post(f"/m/{token}/hands", data={
        "csrf_token": CSRF_FIELD.search(page)[1], "version": "3", "key": keys[0],
        "winner": "2"})
    assert saved.status_code == 303
    assert history_numbers(phone.get(f"/m/{token}").get_data(as_text=True)) == [1, 2, 3, 4]
    assert len(rendered) == 2


def shared_pages(app) -> list:
    return [entry for entry in os.scandir(app.config["SHARED_PAGES"])
            if kept_pages._SHARED_NAME.fullmatch(entry.name)]


def test_shared_pages_are_removed_once_the_phones_have_asked(app, monkeypatch):
    """A shared page is kept for the seconds the phones take to ask for it; a server
    started again begins without the pages of its last run, and leaves other files
    alone."""
    token = burro_match(app, app.test_client(), 1)
    monkeypatch.setattr(kept_pages, "_kept_pages", Kept(8))
    app.test_client().get(f"/m/{token}")
    [page] = shared_pages(app)
    long_ago = time.time() - kept_pages.SHARED_FOR - 1
    os.utime(page.path, (long_ago, long_ago))
    monkeypatch.setattr(kept_pages, "_next_sweep", 0.0)
    app.test_client().get("/rules/search?q=stapel")
    assert not os.path.exists(page.path) and len(shared_pages(app)) == 1
    other = os.path.join(app.config["SHARED_PAGES"], "notes.txt")
    with open(other, "w") as file:
        file.write("not a page")
    kept_pages.start_sharing(app.config["SHARED_PAGES"])
    assert shared_pages(app) == [] and os.path.exists(other)


def test_a_page_that_cannot_be_shared_is_still_sent(app, monkeypatch, tmp_path):
    """A folder that cannot hold the shared pages (here a file in its place) costs a
    render in each process, never an answer, nor the start of the server."""
    token = burro_match(app, app.test_client(), 2)
    blocked = tmp_path / "not-a-folder"
    blocked.write_text("")
    kept_pages.start_sharing(str(blocked))
    app.config["SHARED_PAGES"] = str(blocked)
    monkeypatch.setattr(kept_pages, "_kept_pages", Kept(8))
    response = app.test_client().get(f"/m/{token}")
    assert response.status_code == 200
    assert history_numbers(response.get_data(as_text=True)) == [1, 2]


# --- A long match -------------------------------------------------------------------------

def burro_match(app, client, hands: int) -> str:
    """A Burro match of ``hands`` hands (the Portuguese variant has no end), entered
    straight into the store; its token."""
    token = client.post(MATCHES, json={"game": "burro", "players": ["Anna", "Ben", "Carla"],
                                       "options": {"variant": "portuguese"}}).json["token"]
    with app.app_context():
        db = store.get_db()
        for number in range(hands):
            match = store.get_match(db, token)
            store.add_hand(db, match, {"winner": number % 3}, match.version)
    return token


def history_numbers(page: str) -> list[int]:
    return [int(number) for number in re.findall(r'<th scope="row"><a [^>]*>(\d+)</a>', page)]


def test_a_long_match_shows_its_last_fifty_hands_and_a_link_to_all(app, client):
    """Issue #13: "a 1,000-hand match's sheet costs at most 3× a 10-hand one (… the
    history paged or folded)"."""
    token = burro_match(app, client, 60)
    page = client.get(f"/m/{token}").get_data(as_text=True)
    assert history_numbers(page) == list(range(11, 61))
    assert 'href="?hands=all#history">Show all 60 hands</a>' in page
    everything = client.get(f"/m/{token}?hands=all").get_data(as_text=True)
    assert history_numbers(everything) == list(range(1, 61))
    assert "Show all" not in everything
    short = client.get(f"/m/{burro_match(app, client, 50)}").get_data(as_text=True)
    assert history_numbers(short) == list(range(1, 51)) and "Show all" not in short


def test_standings_are_derived_once_per_version_of_a_match(app, client, monkeypatch):
    """Every phone asks for the sheet after each change, and the API for the standings: a
    version's standings are derived once, and a hand sent through the API keeps those it
    was checked with for the version it wrote."""
    token = burro_match(app, client, 3)
    derived = []
    original = lookup.score
    monkeypatch.setattr(lookup, "score", lambda *args: derived.append(args) or original(*args))
    for _phone in range(4):
        client.get(f"/m/{token}")
    assert client.get(f"{MATCHES}/{token}").json["totals"] == [1, 1, 1]
    assert len(derived) == 1
    client.post(f"{MATCHES}/{token}/hands", json={"winner": 0})
    assert client.get(f"{MATCHES}/{token}").json["totals"] == [2, 1, 1]
    client.get(f"/m/{token}")
    assert len(derived) == 1


def test_hands_saved_by_another_server_process_go_on_from_those_already_scored(
        app, client, monkeypatch):
    """Two server processes share the table's database, and a hand one saved is new to the
    other: when only hands were added, the standings go on from those already derived
    here, those of a hand saved here included; after a correction, the whole match is
    scored again."""
    token = burro_match(app, client, 40)
    assert client.get(f"{MATCHES}/{token}").json["totals"] == [14, 13, 13]
    scored = []
    original = burro.verify_hand
    monkeypatch.setattr(burro, "verify_hand",
                        lambda *args: scored.append(args[2]) or original(*args))

    def elsewhere(change, *args) -> None:
        with app.app_context():
            db = store.get_db()
            match = store.get_match(db, token)
            change(db, match, *args, match.version)

    elsewhere(store.add_hand, {"winner": 1})
    assert client.get(f"{MATCHES}/{token}").json["totals"] == [14, 14, 13]
    assert scored == [{"winner": 1}]
    # A hand saved here, then one saved there: only the latter is scored anew.
    client.post(f"{MATCHES}/{token}/hands", json={"winner": 2})
    scored.clear()
    elsewhere(store.add_hand, {"winner": 0})
    assert client.get(f"{MATCHES}/{token}").json["totals"] == [15, 14, 14]
    assert scored == [{"winner": 0}]
    elsewhere(store.replace_hand, 3, {"winner": 0})
    assert client.get(f"{MATCHES}/{token}").json["totals"] == [16, 14, 13]
    assert len(scored) == 1 + 43


def test_a_change_answers_with_what_the_phones_ask_for_next(app, client, monkeypatch):
    """The answer to a saved hand is the standings the other phones then fetch, tagged with
    the version it wrote: they get it without its being derived again."""
    token = burro_match(app, client, 3)
    saved = client.post(f"{MATCHES}/{token}/hands", json={"winner": 2})
    assert saved.status_code == 201 and saved.json["totals"] == [1, 1, 2]
    monkeypatch.setattr(lookup, "score", None)
    asked = client.get(f"{MATCHES}/{token}")
    assert asked.get_data() == saved.get_data()
    assert asked.headers["ETag"] == saved.headers["ETag"] == f'W/"v{saved.json["version"]}"'


def test_a_change_writes_out_only_the_new_hands_of_its_answer(app, client, monkeypatch):
    """A long evening's answer is not encoded whole for each hand: only the new hand's row
    is, and the answer is the one written out afresh, corrections and undos included."""
    token = start(client, "burraco", hands=3)["token"]
    written = []
    original = burraco.row_json
    monkeypatch.setattr(burraco, "row_json",
                        lambda *args: written.append(args[1].number) or original(*args))
    added = client.post(f"{MATCHES}/{token}/hands", json=HANDS["burraco"]).json
    assert written == [4]
    monkeypatch.undo()
    swapped = {"sides": HANDS["burraco"]["sides"][::-1]}
    corrected = client.put(f"{MATCHES}/{token}/hands/2", json=swapped).json
    undone = client.delete(f"{MATCHES}/{token}/hands/last").json
    with app.test_request_context():
        assert undone == api.standings_json(store.get_match(store.get_db(), token))
    assert [len(answer["hands"]) for answer in (added, corrected, undone)] == [4, 4, 3]
    assert corrected["hands"][1]["scores"] == added["hands"][1]["scores"][::-1]
    assert corrected["totals"] != added["totals"] and undone["hands"] == corrected["hands"][:3]


def test_the_match_api_answers_a_version_asked_again_without_reading_the_match(
        app, client, monkeypatch):
    """Phones and scripts ask for the standings again and again: an unchanged match is
    answered from the version alone, each link with its own answer, a deleted one with 410."""
    token = burro_match(app, client, 3)
    view_token = client.get(f"{MATCHES}/{token}").json["view_token"]
    read = []
    original = store.get_match
    monkeypatch.setattr(store, "get_match", lambda *args: read.append(args) or original(*args))
    assert client.get(f"{MATCHES}/{token}").json["url"].endswith(f"/m/{token}")
    assert read == []
    assert "url" not in client.get(f"{MATCHES}/{view_token}").json
    with app.app_context():
        store.delete_match(store.get_db(), original(store.get_db(), token), "phone")
    assert client.get(f"{MATCHES}/{token}").status_code == 410
    assert client.get(f"{MATCHES}/{view_token}").status_code == 410


def test_a_bounded_memory_keeps_the_last_asked_and_lets_the_oldest_go():
    kept, derived = Kept(2), []

    def derive(key):
        return lambda: derived.append(key) or key * 10

    assert [kept.get(key, derive(key)) for key in (1, 2, 1, 3, 1, 2)] == [10, 20, 10, 30, 10, 20]
    # 1 was asked again before 3 came, so 2 went first; then 2 was derived anew.
    assert derived == [1, 2, 3, 2]
    kept.keep(3, "newer")
    assert kept.find(3) == "newer" and kept.find(1, "gone") == "gone"
