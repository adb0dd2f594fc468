"""A Burraco hand entered by meld, through the API and on the sheet's panel (with and
without scripts): scored as the seed counts, kept as entered and shown again for its
correction, and an illegal meld refused with the checker's reason, in the reader's
language."""

import pytest
from helpers import GERMAN, HTMX, MATCHES, form_value, new_sheet, parsed, shown, totals

NORTH_SOUTH = {"melds": [["3H", "4H", "5H", "6H", "7H", "8H", "9H"], "AS AH AD JK"],
               "in_hand": ["7C", "3S"], "pozzetto": "taken", "closed": True}
EAST_WEST = {"melds": [["QS", "QH", "QD", "QC", "QS", "QH", "2D"], ["4C", "5C", "6C"]],
             "in_hand": "KS JK", "pozzetto": "taken"}


def burraco_match(client) -> str:
    return client.post(MATCHES, json={"game": "burraco", "players": ["Anna", "Ben", "Carla",
                                                                     "Dan"]}).json["token"]


def test_a_hand_by_meld_is_scored_and_its_melds_come_back(client):
    token = burraco_match(client)
    saved = client.post(f"{MATCHES}/{token}/hands", json={"sides": [NORTH_SOUTH, EAST_WEST]})
    assert saved.status_code == 201, saved.json
    assert saved.json["totals"] == [410, 155]
    exported = client.get(f"{MATCHES}/{token}/export").json
    assert exported["entries"][0]["data"]["sides"][0]["melds"][1] == ["AS", "AH", "AD", "JK"]


def test_an_illegal_meld_is_refused_with_its_place_and_the_checkers_reason(client):
    token = burraco_match(client)
    broken = {**EAST_WEST, "melds": [["4C", "5C", "6C"], ["QS", "QS", "QS"]]}
    english = client.post(f"{MATCHES}/{token}/hands", json={"sides": [NORTH_SOUTH, broken]})
    german = client.post(f"{MATCHES}/{token}/hands", json={"sides": [NORTH_SOUTH, broken]},
                         headers=GERMAN)
    assert english.status_code == german.status_code == 400
    assert english.json["error"] == ("Side 2, meld 2: There are only 2 of Q♠ in the two "
                                     "packs.")
    assert german.json["error"].replace("\xa0", " ").startswith("Partei 2, Kombination 2: ")
    assert client.get(f"{MATCHES}/{token}").json["hands"] == []


def test_a_hand_by_meld_shows_on_the_sheet_and_its_correction_form(client):
    token = burraco_match(client)
    client.post(f"{MATCHES}/{token}/hands", json={"sides": [NORTH_SOUTH, EAST_WEST]})
    sheet = client.get(f"/m/{token}")
    assert sheet.status_code == 200
    assert totals(sheet) == ["410", "155"]
    assert "cards 120 · burracos +200 · closing +100 · hand −10" in shown(sheet)
    correction = parsed(client.get(f"/m/{token}/hands/1"))
    assert form_value(correction, "s0_mode") == form_value(correction, "s1_mode") == "melds"
    assert form_value(correction, "s0_melds") == "3♥ 4♥ 5♥ 6♥ 7♥ 8♥ 9♥ / A♠ A♥ A♦ Joker"
    assert form_value(correction, "s1_in_hand") == "K♠ Joker"
    assert pressed_modes(correction) == ["By meld", "By meld"]
    assert not correction.select_one(".by-meld").has_attr("hidden")


# --- The panel ---------------------------------------------------------------------------

# The seed's hand as the panel's fields send it, each side typed by meld.
TYPED = {
    "s0_mode": "melds", "s0_melds": "3H 4H 5H 6H 7H 8H 9H / AS AH AD JK",
    "s0_in_hand": "7C 3S", "s0_pozzetto": "taken",
    "s1_mode": "melds", "s1_melds": "QS QH QD QC QS QH 2D / 4C 5C 6C",
    "s1_in_hand": "KS JK", "s1_pozzetto": "taken", "closer": "0",
}


def pressed_modes(page) -> list[str]:
    """Each side's way of entry, as its pressed button says."""
    return [shown(button) for button in page.select('.modes button[aria-pressed="true"]')]


def preview(page) -> list[str]:
    return [shown(side) for side in page.select("#preview .preview-side")]


def save(post, sheet, form, **kwargs):
    return post(f"{sheet}/hands", {**form, "version": "0"}, **kwargs)


def test_a_side_chooses_by_meld_beside_counting_the_parts_and_the_total(post):
    sheet = new_sheet(post, "burraco")
    blank = parsed(post(f"{sheet}/draft", {"press": "mode:1:melds"}))
    assert [shown(button) for button in blank.select(".side")[1].select(".modes button")] == \
        ["Count the parts", "By meld", "Total only"]
    assert pressed_modes(blank) == ["Count the parts", "By meld"]
    by_meld = [side.select_one(".by-meld") for side in blank.select(".side")]
    assert [part.has_attr("hidden") for part in by_meld] == [True, False]
    counted = [side.select_one(".counted") for side in blank.select(".side")]
    assert [part.has_attr("hidden") for part in counted] == [False, True]


def test_a_hand_typed_by_meld_without_scripts_is_saved_as_entered(post, client):
    """The panel's one line per side ("7H 8H 9H / QS QH QD") is read as the API reads a meld
    given as one line of text; the seed's hand scores 410 and 155."""
    sheet = new_sheet(post, "burraco")
    response = save(post, sheet, TYPED)
    assert response.status_code == 303
    page = parsed(client.get(response.headers["Location"]))
    assert totals(page) == ["410", "155"]
    token = sheet.rsplit("/", 1)[-1]
    stored = client.get(f"{MATCHES}/{token}/export").json["entries"][0]["data"]["sides"]
    assert stored[1]["melds"] == [["QS", "QH", "QD", "QC", "QS", "QH", "2D"],
                                  ["4C", "5C", "6C"]]
    assert stored[0]["in_hand"] == ["7C", "3S"]


def test_the_preview_counts_the_melds(post):
    sheet = new_sheet(post, "burraco")
    fragment = parsed(post(f"{sheet}/draft", {**TYPED, "only": "preview"}, headers=HTMX))
    assert preview(fragment) == ["Anna & Carla +410", "Ben & Dan +155"]


@pytest.mark.parametrize("languages, expected", [
    ({}, "Ben & Dan, meld 2: There are only 2 of Q♠ in the two packs."),
    (GERMAN, "Ben & Dan, Kombination 2: D♠ gibt es in den zwei Blättern nur 2\u2011mal."),
])
def test_an_illegal_meld_is_refused_with_the_checkers_reason_and_nothing_changes(
        post, client, languages, expected):
    sheet = new_sheet(post, "burraco")
    broken = {**TYPED, "s1_melds": "4C 5C 6C / QS QS QS"}
    response = save(post, sheet, broken, headers=languages)
    assert response.status_code == 422
    page = parsed(response)
    assert shown(page.select_one("#sheet > .error")).replace("\xa0", " ").startswith(expected)
    assert form_value(page, "s1_melds") == "4C 5C 6C / QS QS QS"
    token = sheet.rsplit("/", 1)[-1]
    assert client.get(f"{MATCHES}/{token}").json["hands"] == []


@pytest.mark.parametrize("form, field, value", [
    ({"press": "meld:0:clean_run"}, "s0_melds", "3♥ 4♥ 5♥ 6♥ 7♥ 8♥ 9♥ /"),
    ({"s0_melds": "3♥ 4♥ 5♥ 6♥ 7♥ 8♥ 9♥ /", "s0_add": "QS"}, "s0_melds",
     "3♥ 4♥ 5♥ 6♥ 7♥ 8♥ 9♥ / Q♠"),
    ({"s0_melds": "QS QH", "press": "newmeld:0"}, "s0_melds", "QS QH /"),
    ({"s0_melds": "QS QH", "s0_into": "s0_in_hand", "s0_add": "JK"}, "s0_in_hand", "Joker"),
    ({"s0_melds": "QS QH QD", "s0_back": "1"}, "s0_melds", "Q♠ Q♥"),
    ({"s1_in_hand": "KS JK", "s1_into": "s1_in_hand", "s1_clear": "1"}, "s1_in_hand", ""),
    ({"press": "meld:0:nobile"}, "s0_melds", ""),        # not in the classic game
    ({"s0_melds": "3♥ 4♥ 5♥ 6♥ 7♥ 8♥ 9♥ /", "press": "set:0:K"}, "s0_melds",
     "3♥ 4♥ 5♥ 6♥ 7♥ 8♥ 9♥ / K♠ K♥ K♦ /"),
    ({"s0_melds": "K♠ K♥ K♦ /", "press": "set:0:K"}, "s0_melds", "K♠ K♥ K♦ K♣ /"),
    ({"s0_melds": "K♠ K♥ K♦ K♣ /", "press": "set:0:5"}, "s0_melds", "K♠ K♥ K♦ K♣ / 5♠ 5♥ 5♦ /"),
    ({"press": "set:0:2"}, "s0_melds", ""),              # B5: "No set of 2s"
])
def test_without_scripts_the_picker_and_the_ready_burracos_post_the_panel(
        post, form, field, value):
    sheet = new_sheet(post, "burraco")
    page = parsed(post(f"{sheet}/draft", {"s0_mode": "melds", "s1_mode": "melds", **form}))
    assert page.html is not None and form_value(page, field) == value


@pytest.mark.parametrize("options, chips, joker", [
    ({}, ["Clean run (7)", "Dirty run (7)", "Clean set (7)", "Dirty set (7)"], True),
    ({"semipulito": "on"}, ["Clean run (7)", "Dirty run (7)", "Clean set (7)",
                            "Dirty set (7)", "Semi-clean run (8)"], True),
    ({"variant": "reale"}, ["Clean run (7)", "Dirty run (7)", "Nobile, A–K", "Reale, A–A"],
     False),
])
def test_the_ready_burracos_and_the_picker_follow_the_tables_game(post, client, options,
                                                                   chips, joker):
    """RULES-NOTES B4 (semi-clean, an option) and B7 (Burraco Reale: no jokers, runs only,
    nobile and reale)."""
    page = parsed(client.get(new_sheet(post, "burraco", **options)))
    side = page.select(".side")[0]
    ready = [shown(chip) for chip in side.select(".ready-melds button[value^='meld:']")]
    assert ready == chips
    assert bool(side.select(".by-meld .pick.joker")) is joker


def test_a_ready_burraco_lays_its_cards_on_the_phone_as_typed(post, client):
    """A chip adds its cards to the side's melds at once (static/panel/controls.js): they
    are the ones the server lays without scripts."""
    page = parsed(client.get(new_sheet(post, "burraco")))
    chip = page.select_one('.side button[value="meld:0:clean_run"]')
    assert chip["data-append"] == "s0_melds"
    assert chip["data-value"] == "/ 3♥ 4♥ 5♥ 6♥ 7♥ 8♥ 9♥ /"
    pick = page.select_one('.side .by-meld button.pick[value="QS"]')
    assert (pick["name"], pick["data-append"], pick["data-into"]) == \
        ("s0_add", "s0_melds", "s0_into")


@pytest.mark.parametrize("options, ranks", [
    ({}, "A 3 4 5 6 7 8 9 10 J Q K"),
    ({"variant": "reale"}, ""),                          # B7: "sequences only, no sets"
])
def test_a_set_is_laid_by_its_rank_where_the_game_has_sets(post, client, options, ranks):
    """A rank's button lays the cards the server lays without scripts, named as the
    reader names them."""
    page = parsed(client.get(new_sheet(post, "burraco", **options)))
    side = page.select(".side")[0]
    assert " ".join(shown(button) for button in side.select(".set-row button")) == ranks
    if ranks:
        king = side.select_one('.set-row button[value="set:0:K"]')
        assert (king["data-lay"], king["data-cards"]) == ("s0_melds",
                                                         "K♠ K♥ K♦ K♣ K♠ K♥ K♦ K♣")


def test_a_corrected_hand_by_meld_is_saved_with_its_new_melds(post, client):
    token = burraco_match(client)
    client.post(f"{MATCHES}/{token}/hands", json={"sides": [NORTH_SOUTH, EAST_WEST]})
    correction = parsed(client.get(f"/m/{token}/hands/1"))
    fields = {name: form_value(correction, name) for name in TYPED}
    fields["s1_in_hand"] = "K♠"               # the joker was laid after all
    response = post(f"/m/{token}/hands/1", {**fields, "version": "1", "number": "1"})
    assert response.status_code == 303
    assert totals(client.get(f"/m/{token}")) == ["410", "185"]
