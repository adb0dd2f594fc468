"""What every phone at a table sees alike (a version's history, the entry panel before
anything is typed) is rendered once and kept for the other phones: each still sees it in
its own language, through its own link, and as the match now stands."""

import pytest
from helpers import GERMAN, HANDS, MATCHES, form_value, parsed, shown, start, text


def test_the_same_history_comes_in_each_readers_language(client):
    match = start(client, "burraco", hands=2)
    sheet = f"/m/{match['token']}"
    assert "Games (tap a number to correct it)" in shown(client.get(sheet))
    german = client.get(sheet, headers=GERMAN)
    assert "Spiele (zum Korrigieren auf die Nummer tippen)" in shown(german)
    assert "Karten\u00a0120" in shown(german) and "cards 120" not in text(german)


def test_the_watch_only_link_shows_the_history_without_the_edit_link(client):
    match = start(client, "burraco", hands=2)
    correction = f"/m/{match['token']}/hands/2"
    assert parsed(client.get(f"/m/{match['token']}")).select(f'a[href="{correction}"]')
    watched = client.get(f"/v/{match['view_token']}")
    assert match["token"] not in text(watched)
    assert "Games (tap a number to correct it)" not in text(watched)
    assert parsed(watched).select("h2")


def test_a_hand_saved_on_another_phone_is_in_the_history_at_once(client):
    match = start(client, "burraco", hands=1)
    sheet = f"/m/{match['token']}"
    assert f"{sheet}/hands/2" not in text(client.get(sheet))
    client.post(f"{MATCHES}/{match['token']}/hands", json=HANDS["burraco"])
    assert parsed(client.get(sheet)).select(f'a[href="{sheet}/hands/2"]')


def test_each_correction_panel_holds_its_own_hand_and_the_next_one_is_empty(client):
    match = start(client, "burraco", hands=1)
    other = {"sides": [{**HANDS["burraco"]["sides"][0], "table_points": 185},
                       HANDS["burraco"]["sides"][1]]}
    client.post(f"{MATCHES}/{match['token']}/hands", json=other)
    sheet = f"/m/{match['token']}"
    assert form_value(client.get(sheet), "s0_table") == ""
    assert form_value(client.get(f"{sheet}/hands/1"), "s0_table") == "120"
    assert form_value(client.get(f"{sheet}/hands/2"), "s0_table") == "185"
    assert form_value(client.get(sheet), "s0_table") == ""


def test_the_chart_is_drawn_in_each_readers_language_and_follows_a_new_hand(client):
    match = start(client, "burraco", hands=2)
    sheet = f"/m/{match['token']}"
    assert "In the lead after 2 games" in shown(client.get(sheet))
    german = client.get(sheet, headers=GERMAN)
    assert "Spielstand nach jedem Spiel" in shown(german) and "In the lead" not in text(german)
    client.post(f"{MATCHES}/{match['token']}/hands", json=HANDS["burraco"])
    assert "In the lead after 3 games" in shown(client.get(sheet))


@pytest.mark.parametrize("game, hint", [
    ("burro", "Marked: the hand's burro. Framed: the dealer."),
    ("bura", "Framed: the dealer. Every game starts with everyone's ante."),
])
def test_the_history_marks_its_dealer_without_an_underline_only_links_have(client, game, hint):
    """Only a hand's number is a link in the history; the dealer's cell says how it is
    marked, and not as a link looks."""
    match = start(client, game)
    page = parsed(client.get(f"/m/{match['token']}"))
    history = page.select_one("table.history")
    assert history.select("td.dealt") and not history.select("td a")
    assert [link.get_text() for link in history.select("th a")] == ["1"]
    assert hint in [shown(note) for note in page.select("p.hint")]
    assert "Underlined" not in shown(page)


# --- A tie at the target -----------------------------------------------------------------------

TIED = {"sides": [{"total": 1000}, {"total": 1000}]}


@pytest.mark.parametrize("game, headers, note", [
    ("burraco", {}, "Tie at 1000 — one more game decides."),
    ("burraco", GERMAN, "Gleichstand bei 1000 – ein weiteres Spiel entscheidet."),
    ("buraco", {}, "Tie at 1000 — one more hand decides."),
    ("buraco", GERMAN, "Gleichstand bei 1000 – eine weitere Runde entscheidet."),
])
def test_a_tie_at_the_target_says_one_more_hand_decides(client, game, headers, note):
    """Seed 002, "Partieende": "bei Gleichstand wird noch ein Spiel gespielt" (RULES-NOTES
    B3): both sides show "0 to go" and the sheet goes on; the scoreboard says why, in the
    game's own word, on the page and in the fragment a save brings alike."""
    token = client.post(MATCHES, json={"game": game, "players": ["Anna", "Ben"],
                                       "options": {"target": 1000}}).json["token"]
    assert client.post(f"{MATCHES}/{token}/hands", json=TIED).status_code == 201
    for answer in (client.get(f"/m/{token}", headers=headers),
                   client.get(f"/m/{token}", headers={**headers, "HX-Request": "true"})):
        board = parsed(answer).select_one("header.scoreboard")
        assert [shown(tie) for tie in board.select(".tie")] == [note]
        assert not board.select("li.won")


@pytest.mark.parametrize("hands", [
    [{"sides": [{"total": 995}, {"total": 995}]}],  # level, short of the target
    [TIED, {"sides": [{"total": 5}, {"total": 0}]}],  # decided by the next hand
])
def test_no_tie_is_told_short_of_the_target_nor_once_it_is_decided(client, hands):
    token = client.post(MATCHES, json={"game": "burraco", "players": ["Anna", "Ben"],
                                       "options": {"target": 1000}}).json["token"]
    for hand in hands:
        assert client.post(f"{MATCHES}/{token}/hands", json=hand).status_code == 201
    assert not parsed(client.get(f"/m/{token}")).select(".scoreboard .tie")
