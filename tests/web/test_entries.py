"""Entries on a real table's wifi: the same form sent twice stores one hand, and an entry
from an outdated sheet is kept, with what changed meanwhile, to be saved after all."""

import pytest
from helpers import HTMX, THREE, new_sheet, parsed, shown, totals

import store

BURRACO_HAND = {
    "s0_mode": "parts", "s0_table": "120", "s0_clean": "1", "s0_hand": "10",
    "s0_pozzetto": "taken",
    "s1_mode": "parts", "s1_table": "95", "s1_dirty": "1", "s1_hand": "40",
    "s1_pozzetto": "taken", "closer": "0",
}
OTHER_HAND = {**BURRACO_HAND, "s0_table": "200", "s1_table": "60", "s1_hand": "25"}


def entries(app) -> list[dict]:
    with app.app_context():
        return list(store.get_db().query("SELECT number, status FROM entries ORDER BY id"))


def hidden_fields(page, form_class: str) -> dict:
    """The hidden fields of the first form with this class, as a browser would send them."""
    form = page.select_one(f"form.{form_class}")
    return {field["name"]: field.get("value", "") for field in form.select("input[type=hidden]")}


@pytest.mark.parametrize("headers", [{}, HTMX])
def test_the_same_form_sent_twice_stores_one_hand(post, client, app, headers):
    """A double tap, or a resend after the answer was lost on the wifi, stores one hand and
    is answered as if it had just been saved."""
    sheet = new_sheet(post, "burraco")
    form = {**BURRACO_HAND, "version": "0", "key": "k-double-tap"}
    first = post(f"{sheet}/hands", form, headers=headers)
    again = post(f"{sheet}/hands", form, headers=headers)
    assert entries(app) == [{"number": 1, "status": "active"}]
    if headers:
        assert first.status_code == again.status_code == 200
        assert shown(parsed(again).select_one(".toast")).startswith("Game 1: ")
        assert not parsed(again).select(".stale")
    else:
        assert first.status_code == again.status_code == 303
        assert again.headers["Location"] == first.headers["Location"]


def test_a_resent_correction_and_undo_change_the_sheet_once(post, client, app):
    sheet = new_sheet(post, "burraco")
    post(f"{sheet}/hands", {**BURRACO_HAND, "version": "0", "key": "a"})
    correction = {**OTHER_HAND, "version": "1", "key": "b"}
    for _attempt in range(2):
        assert post(f"{sheet}/hands/1", correction).status_code == 303
    undo = {"version": "2", "key": "c"}
    for _attempt in range(2):
        response = post(f"{sheet}/undo", undo)
        assert response.status_code == 303 and "undone=1" in response.headers["Location"]
    assert entries(app) == [{"number": 1, "status": "replaced"},
                            {"number": 1, "status": "undone"}]


def test_a_stale_save_keeps_the_entry_and_says_what_changed(post, client, app):
    """Phone A saves game 1 while phone B is still filling it in: B's entry comes back whole,
    with A's game above it and "Save mine as game 2"."""
    sheet = new_sheet(post, "burraco")
    post(f"{sheet}/hands", {**BURRACO_HAND, "version": "0", "key": "phone-a"})
    refused = post(f"{sheet}/hands", {**OTHER_HAND, "version": "0", "key": "phone-b"},
                   headers=HTMX)
    assert refused.status_code == 409
    page = parsed(refused)
    assert "Game 1 was saved on another phone: Anna & Carla +410 · Ben & Dan +155" \
        in shown(page)
    assert "Save mine as game 2" in shown(page) and "Discard mine" in shown(page)
    # B's table points are still in the panel.
    assert page.select_one("form.panel input[name=s0_table]")["value"] == "200"
    assert entries(app) == [{"number": 1, "status": "active"}]
    kept = hidden_fields(page, "stale-actions")
    assert kept["version"] == "1" and kept["s0_table"] == "200" and kept["key"] != "phone-b"
    saved = post(f"{sheet}/hands", {key: value for key, value in kept.items()
                                    if key != "csrf_token"})
    assert saved.status_code == 303
    assert totals(client.get(sheet)) == [str(410 + 200 + 200 + 100 - 10),
                                         str(155 + 60 + 100 - 25)]


def test_a_stale_correction_names_the_undo(post, client):
    sheet = new_sheet(post, "burro", THREE)
    post(f"{sheet}/hands", {"burro": "1", "version": "0", "key": "x"})
    post(f"{sheet}/hands", {"burro": "2", "version": "1", "key": "y"})
    post(f"{sheet}/undo", {"version": "2", "key": "z"})
    refused = post(f"{sheet}/hands", {"burro": "0", "version": "1", "key": "w"})
    assert refused.status_code == 409
    page = parsed(refused)
    assert "Hand 2 was saved on another phone: Carla +1" in shown(page)
    assert "Hand 2 was taken back on another phone." in shown(page)
    assert "Save mine as hand 2" in shown(page)
    assert hidden_fields(page, "stale-actions")["burro"] == "0"


def test_changes_since_a_version(app, post):
    sheet = new_sheet(post, "burro", ("Anna", "Ben"))
    token = sheet.rsplit("/", 1)[1]
    post(f"{sheet}/hands", {"burro": "1", "version": "0"})
    post(f"{sheet}/hands/1", {"burro": "0", "version": "1"})
    post(f"{sheet}/hands", {"burro": "1", "version": "2"})
    with app.app_context():
        db = store.get_db()
        match = store.get_match(db, token)
        changes = store.changes_since(db, match, 1)
    assert [(change.kind, change.number, change.data) for change in changes] == [
        ("corrected", 1, {"burro": 0}), ("saved", 2, {"burro": 1})]
