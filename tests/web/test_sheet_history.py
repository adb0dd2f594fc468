"""What every phone at a table sees alike (a version's history, the entry panel before
anything is typed) is rendered once and kept for the other phones: each still sees it in
its own language, through its own link, and as the match now stands."""

import re

from helpers import HANDS, MATCHES, start, text

TABLE_POINTS = re.compile(r'name="s0_table" [^>]*value="(\d*)"')


def test_the_same_history_comes_in_each_readers_language(client):
    match = start(client, "burraco", hands=2)
    sheet = f"/m/{match['token']}"
    assert "Games (tap a number to correct it)" in text(client.get(sheet))
    german = text(client.get(sheet, headers={"Accept-Language": "de"}))
    assert "Spiele (zum Korrigieren auf die Nummer tippen)" in german
    assert "Karten\u00a0120" in german and "cards 120" not in german


def test_the_watch_only_link_shows_the_history_without_the_edit_link(client):
    match = start(client, "burraco", hands=2)
    assert f"/m/{match['token']}/hands/2" in text(client.get(f"/m/{match['token']}"))
    watched = text(client.get(f"/v/{match['view_token']}"))
    assert match["token"] not in watched
    assert "Games (tap a number to correct it)" not in watched and "<h2" in watched


def test_a_hand_saved_on_another_phone_is_in_the_history_at_once(client):
    match = start(client, "burraco", hands=1)
    sheet = f"/m/{match['token']}"
    assert f"{sheet}/hands/2" not in text(client.get(sheet))
    client.post(f"{MATCHES}/{match['token']}/hands", json=HANDS["burraco"])
    assert f"{sheet}/hands/2" in text(client.get(sheet))


def test_each_correction_panel_holds_its_own_hand_and_the_next_one_is_empty(client):
    match = start(client, "burraco", hands=1)
    other = {"sides": [{**HANDS["burraco"]["sides"][0], "table_points": 185},
                       HANDS["burraco"]["sides"][1]]}
    client.post(f"{MATCHES}/{match['token']}/hands", json=other)
    sheet = f"/m/{match['token']}"
    assert TABLE_POINTS.search(text(client.get(sheet)))[1] == ""
    assert TABLE_POINTS.search(text(client.get(f"{sheet}/hands/1")))[1] == "120"
    assert TABLE_POINTS.search(text(client.get(f"{sheet}/hands/2")))[1] == "185"
    assert TABLE_POINTS.search(text(client.get(sheet)))[1] == ""


def test_the_chart_is_drawn_in_each_readers_language_and_follows_a_new_hand(client):
    match = start(client, "burraco", hands=2)
    sheet = f"/m/{match['token']}"
    assert "In the lead after 2 games" in text(client.get(sheet))
    german = text(client.get(sheet, headers={"Accept-Language": "de"}))
    assert "Spielstand nach jedem Spiel" in german and "In the lead" not in german
    client.post(f"{MATCHES}/{match['token']}/hands", json=HANDS["burraco"])
    assert "In the lead after 3 games" in text(client.get(sheet))
