"""A sheet's history is rendered once per match version and kept for the other phones:
each still sees it in its own language, through its own link, and as it now stands."""

from test_share import MATCHES, HANDS, start, text


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
