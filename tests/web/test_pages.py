"""Every page through the Flask test client: full page and htmx fragment, both languages,
and every bad input the foundation issue lists (clear message, nothing stored, no 500)."""

import base64
import hashlib
import re

import pytest
from helpers import (
    FOUR,
    GERMAN,
    HTMX,
    MATCHES,
    ROOT,
    THREE,
    count_rows,
    inline_scripts,
    new_sheet,
    parsed,
    root,
    shown,
    standings,
    text,
)


def names_typed(page) -> list[str]:
    """The player names the new-match form holds, in order."""
    return [field["value"] for field in page.select("input[name=players]")]


def dealer_chosen(page) -> list[str]:
    """The seats ticked as the first dealer on the new-match form."""
    return [radio["value"] for radio in page.select("input[name=dealer][checked]")]


def links(page) -> set[str]:
    return {anchor["href"] for anchor in page.select("a[href]")}


# --- Home and language ---------------------------------------------------------------------

def test_home_offers_every_game(client):
    offered = links(parsed(client.get("/")))
    for game in ("burro", "burraco", "bura", "burkosel", "buraco"):
        assert f"/{game}/new" in offered


def test_home_in_german_from_the_browser_language(client):
    page = parsed(client.get("/", headers=GERMAN))
    assert page.html["lang"] == "de"
    assert "Neue Partie" in shown(page)


def test_each_phone_gets_its_own_browsers_best_language_request_after_request(client):
    """Phones of one table ask in turn, each with its browser's preferences and their
    weights; English when none of them is one we have."""
    preferences = [("de-DE,de;q=0.9", "de"), ("en-GB,en;q=0.9,de;q=0.8", "en"),
                   ("fr-FR, en;q=0.2, de;q=0.5", "de"), ("fr, it;q=0.8", "en"),
                   ("de;q=0.1, en;q=0.2", "en"), ("", "en"), ("de-DE,de;q=0.9", "de")]
    for _round in range(2):
        for accepted, language in preferences:
            page = parsed(client.get("/", headers={"Accept-Language": accepted}))
            assert page.html["lang"] == language, accepted


@pytest.mark.parametrize("headers, blurb", [
    ({}, "A cousin of Bura with 4 cards, played for penalty points: 12 or more loses."),
    (GERMAN, "Ein Verwandter von Bura mit 4 Karten, um Strafpunkte: Wer 12 oder mehr hat, "
             "verliert."),
])
def test_home_offers_burkosel_as_a_game_of_its_own(client, headers, blurb):
    """Burkosel is scored apart from Bura (RULES-NOTES D8: "12 or more loses the match"),
    so it gets a tile of its own, not only a link on Bura's form."""
    tile = parsed(client.get("/", headers=headers)).select_one('a.tile[href="/burkosel/new"]')
    words = shown(tile).replace("\N{NO-BREAK SPACE}", " ")
    assert "Burkosel" in words and blurb in words


def test_home_fragment_for_htmx(client):
    fragment = parsed(client.get("/", headers=HTMX))
    assert fragment.html is None and "Burraco" in shown(fragment)


def test_the_language_switch_is_remembered(post, client):
    response = post("/language", {"lang": "de", "next": "/burro/new"})
    assert response.status_code == 303 and response.headers["Location"] == "/burro/new"
    assert parsed(client.get("/")).html["lang"] == "de"
    post("/language", {"lang": "en", "next": "/"})
    assert parsed(client.get("/", headers=GERMAN)).html["lang"] == "en"


@pytest.mark.parametrize("target", ["https://evil.example/", "//evil.example/", "javascript:x",
                                    "/\t/evil.example/", "/\\evil.example", "/\n/x"])
def test_the_language_switch_only_returns_to_this_site(post, target):
    assert post("/language", {"lang": "de", "next": target}).headers["Location"] == "/"


def test_matches_opened_on_this_device_are_listed_at_home(post, client):
    sheet = new_sheet(post, players=("Ulla", "Vera"))
    home = parsed(client.get("/"))
    assert "Ulla · Vera" in shown(home) and sheet in links(home)


def test_a_match_is_not_listed_on_another_device(post, app):
    new_sheet(post, players=("Ulla", "Vera"))
    assert "Ulla" not in text(app.test_client().get("/"))


# --- New match -----------------------------------------------------------------------------

def test_new_match_form_defaults(client):
    page = parsed(client.get("/burro/new"))
    assert len(page.select("input[name=players]")) == 4
    limit = page.select_one("input[name=limit]")
    assert {key: limit.get(key) for key in ("type", "inputmode", "min", "max", "value")} == \
        {"type": "number", "inputmode": "numeric", "min": "1", "max": "99", "value": "5"}
    assert "order of play" in shown(page)


def test_the_name_fields_suit_a_phone_keyboard(client):
    """Names start with a capital, no stale suggestions, and the keyboard's Enter key says
    "next" until the last name, where it says "done"."""
    fields = parsed(client.get("/burro/new")).select("input[name=players]")
    assert len(fields) == 4
    for field in fields:
        assert field["autocomplete"] == "off" and field["autocapitalize"] == "words"
    assert [field["enterkeyhint"] for field in fields] == ["next", "next", "next", "done"]


def test_the_new_match_form_leaves_checking_to_the_app(client):
    """novalidate: the app's own message, in the player's language, not the browser's."""
    assert parsed(client.get("/burro/new")).select_one("form#new-match").has_attr("novalidate")


def test_new_match_form_fragment(client):
    fragment = parsed(client.get("/burro/new", headers=HTMX))
    assert root(fragment).name == "form" and fragment.html is None


def test_unknown_game_is_404(client):
    assert client.get("/chess/new").status_code == 404


@pytest.mark.parametrize("action, names, dealer, expected, expected_dealer", [
    ("add", ["A", "B"], "0", ["A", "B", ""], 0),
    ("remove-1", ["A", "B", "C"], "2", ["A", "C"], 1),
    ("up-2", ["A", "B", "C"], "2", ["A", "C", "B"], 1),
    ("down-0", ["A", "B", "C"], "1", ["B", "A", "C"], 0),
    ("remove-0", ["A", "B"], "0", ["A", "B"], 0),            # never fewer than two rows
])
def test_the_player_list_buttons(post, action, names, dealer, expected, expected_dealer):
    page = parsed(post("/burro/new", {"players": names, "dealer": dealer, "action": action},
                       headers=HTMX))
    assert names_typed(page) == expected
    assert dealer_chosen(page) == [str(expected_dealer)]


def test_start_creates_the_match_and_opens_its_sheet(post, client):
    sheet = new_sheet(post, dealer="2")
    assert re.fullmatch(r"/m/[A-Za-z0-9_-]{32}", sheet)
    assert "Hand 1: Carla deals, Dan leads." in shown(client.get(sheet))


BAD_SETUPS = [
    ({"players": ["Anna", ""]}, "A match needs 2 to 8 players, not 1."),
    ({"players": ["Anna", "anna"]}, "“anna” is in the list twice"),
    ({"players": ["Anna"]}, "A match needs 2 to 8 players, not 1."),
    ({"players": [f"P{n}" for n in range(9)]}, "A match needs 2 to 8 players, not 9."),
    ({"limit": "0"}, "The penalty limit must be a whole number from 1 to 99."),
    ({"limit": "1000000000"}, "The penalty limit must be a whole number from 1 to 99."),
    ({"players": ["Anna", "<script>alert(1)</script>"]}, "may not contain < or >"),
    ({"players": ["Anna", "B" * 31]}, "too long"),
    ({"variant": "portuguese", "wins_target": "-3"}, "number of wins"),
]


@pytest.mark.parametrize("change, message", BAD_SETUPS)
def test_bad_setups_are_refused_with_a_message_and_nothing_stored(post, app, change, message):
    form = {"players": ["Anna", "Ben"], "dealer": "0", "limit": "5", "action": "start", **change}
    response = post("/burro/new", form)
    assert response.status_code == 422
    page = parsed(response)
    assert message in shown(page)
    # What was typed comes back as text: no script of it, nor any other, runs on the page.
    assert not inline_scripts(page)
    assert count_rows(app, "matches") == 0


def test_a_refused_form_keeps_what_was_typed(post):
    page = parsed(post("/burro/new", {"players": ["Anna", "anna", "Carla"], "dealer": "2",
                                      "limit": "7", "action": "start"}))
    assert names_typed(page) == ["Anna", "anna", "Carla"]
    assert page.select_one("input[name=limit]")["value"] == "7"
    assert dealer_chosen(page) == ["2"]


def test_bad_setup_message_in_german(post, client):
    client.set_cookie("lang", "de")
    response = post("/burro/new", {"players": ["Anna", ""], "action": "start"})
    # German keeps a number with its word (a no-break space).
    assert "Eine Partie braucht 2 bis 8 Spieler, nicht 1." in shown(response).replace("\u00a0", " ")


def test_a_form_without_its_csrf_token_is_refused(client, app):
    response = client.post("/burro/new", data={"players": ["A", "B"], "action": "start"})
    assert response.status_code == 400
    assert "This form has expired" in shown(response)
    assert count_rows(app, "matches") == 0


def test_a_stale_csrf_token_is_refused_in_german_as_an_htmx_message(client, app):
    client.set_cookie("lang", "de")
    response = client.post("/burro/new", headers=HTMX,
                           data={"players": ["A", "B"], "action": "start", "csrf_token": "old"})
    assert response.status_code == 400
    assert response.headers["HX-Retarget"] == "#flash"
    assert "Formular ist abgelaufen" in shown(response)
    assert count_rows(app, "matches") == 0


def test_play_again_fills_in_the_same_players(post, client):
    sheet = new_sheet(post, players=("Ulla", "Vera", "Wim"), dealer="1", limit="3")
    page = parsed(client.get(f"/burro/new?again={sheet.split('/')[-1]}"))
    assert names_typed(page) == ["Ulla", "Vera", "Wim"]
    assert page.select_one("input[name=limit]")["value"] == "3"


@pytest.mark.parametrize("game, players, first_dealer, next_dealer", [
    ("burro", ["Ulla", "Vera", "Wim"], 0, 1),
    ("burro", ["Ulla", "Vera", "Wim"], 2, 0),
    ("burraco", ["Ulla", "Vera", "Wim", "Xaver"], 1, 2),
    ("bura", ["Ulla", "Vera", "Wim"], 2, 0),
    ("burkosel", ["Ulla", "Vera"], 0, 1),
])
def test_play_again_moves_the_deal_on(client, game, players, first_dealer, next_dealer):
    """The next match's first dealer is the player after the last match's first dealer,
    down the list of play (RULES-NOTES E1: "the next dealer [...] the dealer's next player
    in that list"; Burraco, Bura and Burkosel deal clockwise, down the list too)."""
    token = client.post(MATCHES, json={
        "game": game, "players": players, "options": {"first_dealer": first_dealer}}).json["token"]
    page = parsed(client.get(f"/{game}/new?again={token}"))
    assert dealer_chosen(page) == [str(next_dealer)]


# --- The sheet -----------------------------------------------------------------------------

def tap(post, sheet, seat, seen, **kwargs):
    return post(f"{sheet}/hands", {"burro": str(seat), "version": str(seen)}, **kwargs)


def test_a_tap_saves_a_hand_and_the_sheet_shows_the_undo_toast(post, client):
    sheet = new_sheet(post)
    response = tap(post, sheet, 1, 0)
    assert response.status_code == 303 and response.headers["Location"] == f"{sheet}?saved=1"
    page = parsed(client.get(response.headers["Location"]))
    # What the hand gave, and its Undo right there.
    assert shown(page.select_one(".toast")) == "Hand 1: Ben +1 · Undo"
    assert "Hand 2: Ben deals, Carla leads." in shown(page)


def test_a_tap_through_htmx_returns_the_whole_sheet_block(post):
    sheet = new_sheet(post)
    response = tap(post, sheet, 2, 0, headers=HTMX)
    assert response.status_code == 200
    fragment = parsed(response)
    assert root(fragment).name == "section" and root(fragment)["id"] == "sheet"
    assert fragment.html is None
    assert shown(fragment.select_one(".toast")) == "Hand 1: Carla +1 · Undo"
    assert ("Carla", "1") in standings(fragment)


@pytest.mark.parametrize("game, players, form, headers, said", [
    ("burro", FOUR, {"burro": "3"}, {}, "Hand 1: Dan +1 · Undo"),
    ("burro", FOUR, {"burro": "3"}, GERMAN, "Runde\u00a01: Dan +1 · Rückgängig"),
    ("bura", ["Anna", "Ben", "Carla"], {"outcome": "right_claim", "player": "1"}, {},
     None),
])
def test_the_toast_after_a_save_says_who_got_what_with_its_undo(post, client, game, players,
                                                                form, headers, said):
    """UX.md: "an 'Undo' toast follows every save"; what the hand gave each side is in it,
    as the history and the other phones' note say it."""
    sheet = new_sheet(post, game, players)
    answer = post(f"{sheet}/hands", {"version": "0", **form}, headers={**HTMX, **headers})
    assert answer.status_code == 200
    toast = shown(parsed(answer).select_one(".toast"))
    if said:
        assert toast == said
    else:
        assert toast.startswith("Game 1: ") and toast.endswith(" · Undo") and "+" in toast


def test_an_older_toast_keeps_no_undo_of_a_later_hand(post, client):
    """After two saves, the first's toast (an old address) names its hand but offers no
    Undo: the Undo takes back the last hand only."""
    sheet = new_sheet(post)
    tap(post, sheet, 1, 0)
    tap(post, sheet, 2, 1)
    toast = parsed(client.get(f"{sheet}?saved=1")).select_one(".toast")
    assert shown(toast) == "Hand 1: Ben +1" and not toast.select("form")


def test_the_sheet_in_german(post, client):
    sheet = new_sheet(post)
    tap(post, sheet, 1, 0)
    client.set_cookie("lang", "de")
    assert "Runde\u00a02: Ben gibt, Carla spielt aus." in shown(client.get(sheet))


def test_the_match_ends_at_the_limit_and_names_loser_and_winners(post, client, app):
    """Seed 000: "Sobald jemand diese Zahl erreicht, ist Schluss – er hat verloren, und wer
    die wenigsten Strafpunkte hat, gewinnt"."""
    sheet = new_sheet(post, players=THREE, limit="2")
    for seen, seat in enumerate([1, 2, 1]):
        tap(post, sheet, seat, seen)
    page = parsed(client.get(sheet))
    assert "Ben reached the limit: the burro!" in shown(page)
    assert "Winner: Anna" in shown(page)
    assert not page.select("[name=burro]")
    response = tap(post, sheet, 0, 3)
    assert response.status_code == 422
    assert "The match is over" in shown(response)
    assert count_rows(app, "entries") == 3


def test_a_tie_shares_the_win(post, client):
    """Seed 000: "bei Gleichstand teilen sich mehrere den Sieg"."""
    sheet = new_sheet(post, players=THREE, limit="1")
    tap(post, sheet, 0, 0)
    assert "Winners: Ben, Carla" in shown(client.get(sheet))


def test_a_hand_from_a_sheet_that_changed_on_another_phone_is_refused(post, app):
    sheet = new_sheet(post)
    tap(post, sheet, 1, 0)
    response = tap(post, sheet, 2, 0)
    assert response.status_code == 409
    assert "changed on another phone" in shown(response)
    assert count_rows(app, "entries") == 1


@pytest.mark.parametrize("form", [{"burro": "7"}, {"burro": "x"}, {"winner": "0"}, {}])
def test_an_impossible_hand_is_refused(post, app, form):
    sheet = new_sheet(post)
    response = post(f"{sheet}/hands", {**form, "version": "0"})
    assert response.status_code == 422
    assert count_rows(app, "entries") == 0


def test_a_hand_without_the_sheet_state_is_a_bad_request(post):
    sheet = new_sheet(post)
    assert post(f"{sheet}/hands", {"burro": "0"}).status_code == 400


def test_undo_takes_back_the_last_hand_and_keeps_it_in_the_changes(post, client):
    sheet = new_sheet(post)
    tap(post, sheet, 1, 0)
    tap(post, sheet, 3, 1)
    response = post(f"{sheet}/undo", {"version": "2"})
    assert response.headers["Location"] == f"{sheet}?undone=2"
    page = shown(client.get(response.headers["Location"]))
    assert "Hand 2 taken back: Dan" in page
    assert "Hand 2: Ben deals" in page


def test_undo_with_nothing_to_undo(post):
    sheet = new_sheet(post)
    response = post(f"{sheet}/undo", {"version": "0"})
    assert response.status_code == 422 and "no hand to undo" in shown(response)


def test_editing_an_earlier_hand_recomputes_and_keeps_the_old_entry(post, client):
    sheet = new_sheet(post)
    tap(post, sheet, 1, 0)
    tap(post, sheet, 1, 1)
    assert "Correct hand 1" in shown(client.get(f"{sheet}/hands/1"))
    response = post(f"{sheet}/hands/1", {"burro": "3", "version": "2"})
    assert response.headers["Location"] == f"{sheet}?edited=1"
    page = parsed(client.get(sheet))
    assert {("Dan", "1"), ("Ben", "1")} <= set(standings(page))
    assert "Hand 1 before its correction: Ben" in shown(page)


def test_an_edit_that_would_end_the_match_before_later_hands_is_refused(post, app, client):
    sheet = new_sheet(post, players=("Anna", "Ben"), limit="2")
    tap(post, sheet, 0, 0)
    tap(post, sheet, 1, 1)
    tap(post, sheet, 1, 2)          # Ben reaches 2: the match is over after hand 3
    response = post(f"{sheet}/hands/2", {"burro": "0", "version": "3"})
    assert response.status_code == 422
    assert "before hand 3" in shown(response)
    assert "Ben reached the limit" in shown(client.get(sheet))


def test_editing_a_hand_that_does_not_exist_is_404(post, client):
    sheet = new_sheet(post)
    assert client.get(f"{sheet}/hands/1").status_code == 404


def test_an_unknown_match_link_is_404_in_the_users_language(client):
    response = client.get("/m/not-a-real-token", headers=GERMAN)
    assert response.status_code == 404
    assert "Diese Seite gibt es nicht" in shown(response)


def test_player_names_are_escaped(post, client):
    """Markup's own characters in a name are the name's letters, never markup."""
    sheet = new_sheet(post, players=('Ann & "Bo"', "Cy's"))
    page = parsed(client.get(sheet))
    assert [name for name, _total in standings(page)] == ['Ann & "Bo"', "Cy's"]
    assert page.h1.get_text().endswith(': Ann & "Bo", Cy\'s')


# --- Portuguese Burro -----------------------------------------------------------------------

def test_portuguese_burro_counts_hand_wins_to_the_agreed_number(post, client):
    sheet = new_sheet(post, players=("Anna", "Ben"), variant="portuguese", wins_target="2")
    page = parsed(client.get(sheet))
    assert "Who ran out of cards first?" in shown(page) and page.select("[name=winner]")
    post(f"{sheet}/hands", {"winner": "1", "version": "0"})
    post(f"{sheet}/hands", {"winner": "1", "version": "1"})
    assert "Winner: Ben" in shown(client.get(sheet))


# --- The trick checker ---------------------------------------------------------------------

def test_the_trick_checker_settles_the_seed_example(client):
    page = shown(client.get("/burro/trick?deck=40&plays=5H+JH+2H+7H"))
    assert "J♥ is the highest heart: player 2 wins the trick and leads next." in page


def test_the_trick_checker_in_german_writes_bube(client):
    client.set_cookie("lang", "de")
    page = shown(client.get("/burro/trick?deck=40&plays=5H+BH+2H+7H"))
    assert "B♥ ist das höchste Herz" in page


def test_the_trick_checker_fragment(client):
    fragment = parsed(client.get("/burro/trick?plays=5H+JH", headers=HTMX))
    assert root(fragment).name == "form" and root(fragment)["id"] == "checker"
    assert fragment.html is None


@pytest.mark.parametrize("button, expected", [
    ({"add": "2H"}, "5H+JH+2H"), ({"pass": "1"}, "5H+JH+-"), ({"back": "1"}, "5H"),
])
def test_picker_buttons_edit_the_trick_and_keep_a_clean_address(client, button, expected):
    response = client.get("/burro/trick", query_string={"deck": "40", "plays": "5H JH", **button})
    assert response.status_code == 303
    assert response.headers["Location"] == f"/burro/trick?deck=40&plays={expected}"
    fragment = client.get("/burro/trick", headers=HTMX,
                          query_string={"deck": "40", "plays": "5H JH", **button})
    assert fragment.headers["HX-Push-Url"] == f"/burro/trick?deck=40&plays={expected}"


def test_clear_empties_the_trick(client):
    response = client.get("/burro/trick?deck=48&plays=5H&clear=1")
    assert response.headers["Location"] == "/burro/trick?deck=48"


def test_a_card_played_already_is_greyed_out_in_the_picker(client):
    picker = parsed(client.get("/burro/trick?plays=5H"))
    played = picker.select_one('.pick[value="5H"]')
    assert played.has_attr("disabled") and "red" in played["class"]
    assert not picker.select_one('.pick[value="6H"]').has_attr("disabled")


@pytest.mark.parametrize("plays, message", [
    ("5H ZZ", "“ZZ” is not a card"),
    ("5H 9H", "9♥ is not in the 40-card deck."),
    ("5H 5H", "5♥ is played twice"),
    ("- 5H", "The first play is the lead"),
])
def test_the_trick_checker_explains_what_is_wrong(client, plays, message):
    response = client.get("/burro/trick", query_string={"plays": plays})
    assert response.status_code == 200 and message in shown(response)


def test_a_card_of_another_suit_is_refused_with_the_rule(client):
    """RULES-NOTES E6: "A card of another suit cannot be played in Burro … the trick checker
    refuses it with that rule"."""
    response = client.get("/burro/trick?plays=2H+KS+AH")
    page = parsed(response)
    assert "K♠ cannot be played: the lead is a heart." in shown(page)
    assert page.select("a[href^='/rules/burro']")
    assert "wins the trick" not in text(response)


# --- htmx, CSP and headers -----------------------------------------------------------------

def test_htmx_comes_from_a_pinned_cdn_with_sri_and_a_bundled_fallback(client, app, static_url):
    page = parsed(client.get("/"))
    url, sri = app.config["HTMX_CDN_URL"], app.config["HTMX_SRI"]
    assert re.fullmatch(r"https://unpkg\.com/htmx\.org@2\.0\.\d+/dist/htmx\.min\.js", url)
    bundled = ROOT / "static" / app.config["HTMX_VENDORED"]
    digest = base64.b64encode(hashlib.sha384(bundled.read_bytes()).digest()).decode()
    assert sri == f"sha384-{digest}", "the bundled copy is not the pinned CDN file"
    assert client.get(static_url(app.config["HTMX_VENDORED"])).status_code == 200
    loader = page.select_one(f'script[src="{static_url("htmx-loader.js")}"]')
    assert (loader["data-cdn"], loader["data-integrity"], loader["data-bundled"]) == \
        (url, sri, static_url(app.config["HTMX_VENDORED"]))


@pytest.mark.parametrize("url", ["/", "/burro/new", "/rules"])
def test_no_script_holds_up_the_first_paint(client, url):
    """UX.md: "The page never waits on a third party. First paint comes from our own
    server alone." A module waits for the page as a deferred script does; the import map
    runs nothing."""
    scripts = parsed(client.get(url)).find_all("script")
    assert scripts and all(script.has_attr("defer") or script.get("type") in
                           ("module", "importmap") for script in scripts)


def test_every_page_has_a_strict_csp_and_no_inline_script(post, client, app):
    """But the import map, which runs nothing: the CSP allows its text by its hash."""
    sheet = new_sheet(post)
    for url in ("/", "/burro/new", sheet, "/burro/trick", "/m/nope"):
        response = client.get(url)
        csp = response.headers["Content-Security-Policy"]
        [import_map] = re.findall(r'<script type="importmap">(.*?)</script>', text(response))
        allowed = base64.b64encode(hashlib.sha256(import_map.encode()).digest()).decode()
        assert f"script-src 'self' {app.config['HTMX_CDN_URL']} 'sha256-{allowed}';" in csp
        assert "unsafe-inline" not in csp and "unsafe-eval" not in csp
        assert "frame-ancestors 'none'" in csp
        assert response.headers["Referrer-Policy"] == "same-origin"
        assert "HX-Request" in response.headers["Vary"]
        page = parsed(response)
        assert not inline_scripts(page), url
        assert not page.select("[style]"), url


def test_a_page_names_everything_its_answer_depends_on_once(client):
    """A cache keeps the page apart by fragment or page, language, compression and the
    phone's cookie (its form token), each named once."""
    for url in ("/", "/rules/search?q=stapel", "/check/burraco"):
        response = client.get(url, headers={"Accept-Encoding": "gzip"})
        vary = [name.strip().lower() for name in response.headers["Vary"].split(",")]
        assert sorted(vary) == sorted({"hx-request", "hx-boosted", "hx-history-restore-request",
                                       "accept-language", "accept-encoding", "cookie"}), url


def test_every_form_carries_a_csrf_token(post, client):
    sheet = new_sheet(post)
    tap(post, sheet, 0, 0)
    for url in ("/", "/burro/new", sheet, f"{sheet}/hands/1"):
        posting_forms = parsed(client.get(url)).select("form[method=post]")
        assert posting_forms, url
        assert all(form.select("input[name=csrf_token]") for form in posting_forms), url


# --- Every page: full and fragment, English and German -------------------------------------

@pytest.mark.parametrize("language", ["en", "de"])
@pytest.mark.parametrize("fragment", [False, True])
def test_every_page_renders_in_both_languages_as_page_and_fragment(post, client, language,
                                                                    fragment):
    sheet = new_sheet(post)
    tap(post, sheet, 0, 0)
    client.set_cookie("lang", language)
    headers = HTMX if fragment else {}
    for url in ("/", "/burro/new", sheet, f"{sheet}/hands/1", "/burro/trick?plays=5H+JH"):
        response = client.get(url, headers=headers)
        assert response.status_code == 200, url
        page = parsed(response)
        if fragment:
            assert page.html is None and page.body is None, url
        else:
            assert page.html["lang"] == language, url


def test_the_checkers_page_lists_every_checker(client):
    listed = links(parsed(client.get("/check")))
    for path in ("/burraco/meld", "/bura/claim", "/bura/trick", "/bura/combination",
                 "/burro/trick"):
        assert path in listed
    assert parsed(client.get("/check", headers=HTMX)).html is None


def test_a_page_the_browser_history_restores_comes_whole(post, client):
    sheet = new_sheet(post)
    response = client.get(sheet, headers={**HTMX, "HX-History-Restore-Request": "true"})
    assert parsed(response).html is not None
    assert "HX-History-Restore-Request" in response.headers["Vary"]


@pytest.mark.parametrize("form", [
    {"limit": "²"}, {"limit": "9" * 5000}, {"dealer": "²", "action": "start"},
    {"action": "up-²"},
])
def test_odd_digits_and_huge_numbers_never_crash(post, form):
    response = post("/burro/new", {"players": ["A", "B"], "action": "start", **form})
    assert response.status_code in (200, 422)


def test_a_sheet_form_with_odd_digits_is_a_bad_request(post):
    sheet = new_sheet(post)
    assert post(f"{sheet}/hands", {"burro": "0", "version": "²"}).status_code == 400
    assert post(f"{sheet}/hands", {"burro": "²", "version": "0"}).status_code == 422


def test_a_request_body_is_capped(client, post):
    response = client.post(MATCHES, data="x" * 70000, content_type="application/json")
    assert response.status_code == 413
    assert response.json["error"] == ("That is more than 64 KB, the most one request may "
                                      "send here; nothing was saved.")
    page = client.post("/burro/new", data={"players": "x" * 70000}, headers=GERMAN)
    assert page.status_code == 413
    assert shown(parsed(page).select_one("[role=alert]")) == (
        "Das sind mehr als 64 KB, mehr als eine Anfrage hier senden darf; es wurde nichts "
        "gespeichert.")
