"""New hands entered while the phone cannot reach the server wait on it, in order, and go
out one after another when it can: in real Chromium, with the wifi switched off.

The issue: "Offline, a second hand replaces the first one still waiting. … a Burro sheet, the
wifi gone, Ben tapped for hand 1, Carla for hand 2, the wifi back — the server holds one
hand, Carla's; Ben's is lost, and nothing showed which hand was waiting. A Burraco panel
cannot take a second hand at all until the wifi returns."

UX.md: "Nothing typed or tapped is ever lost: not to a slow answer, a stale sheet, a reload,
a language switch or a dropped wifi." Screenshots go to tests/browser/screenshots/queue_*.png.
"""

import re
from urllib.parse import parse_qs

import pytest
from playwright.sync_api import Locator, Page, expect

from phone import (
    TABLE_LATENCY_MS,
    TWO,
    after_a_chance_to_send,
    expect_totals,
    history_rows,
    later,
    looked_after,
    nothing_waits,
    open_match,
    save_button,
    send_again_now,
    shot,
    stored_hands,
    typed,
    waiting_rows,
    with_latency,
)

pytestmark = pytest.mark.browser

BURRO = ["Anna", "Ben", "Carla"]
KEY = re.compile(r"^[0-9a-f]{24}$")


# --- Helpers -------------------------------------------------------------------------------

def burro_button(page: Page, name: str) -> Locator:
    return page.locator("form[data-queue] .player-buttons button").filter(
        has=page.locator(".name", has_text=re.compile(rf"^{re.escape(name)}$")))


def note(page: Page) -> Locator:
    return page.locator("[data-queue-note]")


def hand_posts(page: Page, token: str) -> list[dict]:
    """The new hands this phone posts for the match from now on, as their fields (kept up
    to date)."""
    sent = []
    page.on("request", lambda request: request.method == "POST"
            and request.url.endswith(f"/m/{token}/hands")
            and sent.append({name: values[0] for name, values
                             in parse_qs(request.post_data or "").items()}))
    return sent


def panel_fields(page: Page) -> dict:
    return page.locator("form[data-queue]").evaluate(
        "form => ({version: form.elements.version.value, key: form.elements.key.value})")


def go_offline(page: Page) -> None:
    """The wifi drops; the sheet says so."""
    page.context.set_offline(True)
    expect(page.locator("[data-offline-note]")).to_be_visible()


# --- Burro: one tap a hand --------------------------------------------------------------------

def test_two_burro_hands_tapped_offline_wait_in_order_and_arrive_once_each(page: Page):
    """The issue's table: the wifi gone, Ben tapped for hand 1, Carla for hand 2. Each hand
    shows greyed in the history, "Not sent yet", and the panel moves on at once to the next
    hand, with a version one higher and a key of its own; a reload keeps them. The wifi back,
    Ben's hand and then Carla's are stored, once each."""
    problems: list[str] = []
    token = open_match(page, "burro", BURRO)
    looked_after(page)
    heading = page.locator("form[data-queue] h2")
    expect(heading).to_contain_text("Hand 1")
    first = panel_fields(page)
    go_offline(page)

    burro_button(page, "Ben").tap()
    expect(heading).to_contain_text("Hand 2")
    expect(waiting_rows(page)).to_have_count(1)
    expect(waiting_rows(page).first).to_have_text(re.compile(r"^1\s*Not sent yet Ben \+1$"))
    expect(note(page)).to_contain_text("1 hand waits on this phone: it goes out by itself "
                                       "when the connection returns.")
    second = panel_fields(page)
    assert int(second["version"]) == int(first["version"]) + 1
    assert KEY.match(second["key"]) and second["key"] != first["key"]

    burro_button(page, "Carla").tap()
    expect(heading).to_contain_text("Hand 3")
    expect(waiting_rows(page)).to_have_text([re.compile(r"^1\s*Not sent yet Ben \+1$"),
                                             re.compile(r"^2\s*Not sent yet Carla \+1$")])
    expect(note(page)).to_contain_text("2 hands wait on this phone: they go out by themselves, "
                                       "in order, when the connection returns.")
    third = panel_fields(page)
    assert int(third["version"]) == int(first["version"]) + 2
    assert KEY.match(third["key"]) and third["key"] not in (first["key"], second["key"])
    later(problems, "nothing counted before it is stored", lambda: expect_totals(page, 0, 0, 0))
    later(problems, "a waiting hand's player no longer marked on the panel", lambda: expect(
        page.locator(".player-buttons button.waiting")).to_have_count(0))
    shot(page, "queue_burro_two_waiting", full_page=True)

    page.reload()
    expect(waiting_rows(page)).to_have_count(2)
    expect(waiting_rows(page).nth(1)).to_contain_text("Carla")
    expect(heading).to_contain_text("Hand 3")
    assert panel_fields(page)["key"] not in (first["key"], second["key"])
    assert stored_hands(page, token) == []

    sent = hand_posts(page, token)
    page.context.set_offline(False)
    expect(history_rows(page)).to_have_count(2)
    expect(waiting_rows(page)).to_have_count(0)
    expect(note(page)).to_be_hidden()
    expect(page.locator(".toast")).to_contain_text("Hand 2: ")
    expect_totals(page, 0, 1, 1)
    expect(heading).to_contain_text("Hand 3")
    nothing_waits(page, token)
    assert [hand["burro"] for hand in stored_hands(page, token)] == [1, 2]
    assert [post["burro"] for post in sent] == ["1", "2"], "sent again, or out of order"
    assert [post["key"] for post in sent] == [first["key"], second["key"]]
    assert not problems, "\n".join(problems)


def test_a_refused_waiting_hand_comes_back_with_the_choice_and_the_next_waits_for_it(
        page: Page, other_phone: Page):
    """Anna's phone is offline for hands 1 and 2 (Ben, then Carla); Ben's phone saves hand 1
    (Ben) meanwhile. Back online, on the table's slow wifi, hand 1 is refused: the sheet says
    what the other phone saved and offers "Save mine as hand 2"; Carla's hand still waits,
    greyed, and is not sent. "Discard mine" drops Ben's hand only; Carla's then goes, as
    hand 2, once."""
    token = open_match(page, "burro", BURRO)
    looked_after(page)
    offline = with_latency(page, TABLE_LATENCY_MS)
    offline(True)
    expect(page.locator("[data-offline-note]")).to_be_visible()
    burro_button(page, "Ben").tap()
    burro_button(page, "Carla").tap()
    expect(waiting_rows(page)).to_have_count(2)

    other_phone.goto(f"/m/{token}")
    burro_button(other_phone, "Ben").tap()
    expect(other_phone.locator(".toast")).to_contain_text("Hand 1: ")

    sent = hand_posts(page, token)
    offline(False)
    stale = page.locator(".stale")
    expect(stale).to_contain_text("Hand 1 was saved on another phone")
    expect(stale.get_by_role("button", name="Save mine as hand 2")).to_be_visible()
    expect(waiting_rows(page)).to_have_text([re.compile(r"^2\s*Not saved yet: see above Ben \+1$"),
                                             re.compile(r"^3\s*Not sent yet Carla \+1$")])
    expect(note(page)).to_contain_text("1 more hand waits: it goes out once you have chosen above.")
    shot(page, "queue_refused_first_second_waits", full_page=True)
    # Told the connection is back, the phone still sends nothing: the choice comes first.
    after_a_chance_to_send(page)
    assert len(sent) == 1 and len(stored_hands(page, token)) == 1

    stale.get_by_role("link", name="Discard mine").tap()
    expect(stale).to_have_count(0)
    expect(history_rows(page)).to_have_count(2)
    expect(waiting_rows(page)).to_have_count(0)
    expect(page.locator(".toast")).to_contain_text("Hand 2: ")
    nothing_waits(page, token)
    assert [hand["burro"] for hand in stored_hands(page, token)] == [1, 2]
    assert [post["burro"] for post in sent] == ["1", "2"]
    shot(page, "queue_refused_discarded_next_saved")


def test_a_refused_waiting_hand_saved_after_all_lets_the_next_follow(
        page: Page, other_phone: Page):
    """As above, but Ben's phone saved a different hand 1 (Anna). "Save mine as hand 2"
    stores Ben's; Carla's hand, made on a sheet without Anna's, then meets the same choice
    as hand 3, and is stored once it is made: nothing is stored twice, nothing lost."""
    token = open_match(page, "burro", BURRO)
    looked_after(page)
    go_offline(page)
    burro_button(page, "Ben").tap()
    burro_button(page, "Carla").tap()
    other_phone.goto(f"/m/{token}")
    burro_button(other_phone, "Anna").tap()
    expect(other_phone.locator(".toast")).to_contain_text("Hand 1: ")

    sent = hand_posts(page, token)
    page.context.set_offline(False)
    stale = page.locator(".stale")
    stale.get_by_role("button", name="Save mine as hand 2").tap()
    expect(stale.get_by_role("button", name="Save mine as hand 3")).to_be_visible()
    expect(waiting_rows(page)).to_have_text([re.compile(r"^3\s*Not saved yet: see above Carla \+1$")])
    stale.get_by_role("button", name="Save mine as hand 3").tap()
    expect(page.locator(".toast")).to_contain_text("Hand 3: ")
    expect(waiting_rows(page)).to_have_count(0)
    nothing_waits(page, token)
    assert [hand["burro"] for hand in stored_hands(page, token)] == [0, 1, 2]
    assert [post["burro"] for post in sent] == ["1", "1", "2", "2"]


def test_a_hand_whose_answer_was_lost_goes_again_with_its_key_and_is_stored_once(page: Page):
    """The server stores Ben's hand but its answer never reaches the phone: the hand waits
    greyed and goes again with the same key; the server knows the key and answers "Hand 1
    saved." without storing it twice."""
    page.clock.install()
    token = open_match(page, "burro", BURRO)
    sent = hand_posts(page, token)

    def lose_the_answer(route):
        route.fetch()
        route.abort("connectionreset")

    page.route(f"**/m/{token}/hands", lose_the_answer)
    burro_button(page, "Ben").tap()
    # (Hand 2 if the news of hand 1 reached the phone: the phone cannot know it is its own.)
    expect(waiting_rows(page)).to_have_text([re.compile(r"^[12]\s*Not sent yet Ben \+1$")])
    assert [hand["burro"] for hand in stored_hands(page, token)] == [1]
    page.unroute(f"**/m/{token}/hands")
    send_again_now(page)
    expect(page.locator(".toast")).to_contain_text("Hand 1: ")
    expect(history_rows(page)).to_have_count(1)
    expect(waiting_rows(page)).to_have_count(0)
    nothing_waits(page, token)
    expect_totals(page, 0, 1, 0)
    assert [hand["burro"] for hand in stored_hands(page, token)] == [1]
    assert len(sent) >= 2 and len({post["key"] for post in sent}) == 1


# --- Burraco: a panel full of taps ---------------------------------------------------------

def test_two_burraco_games_entered_offline_on_a_small_phone(page: Page):
    """At 360×640, offline: game 1 saved, the panel comes back blank as game 2 at once, and
    game 1 waits greyed with what was entered; game 2 the same. A third game half typed, a
    reload keeps all of it. The wifi back, games 1 and 2 are stored in order, and the third
    stays in the panel."""
    page.set_viewport_size({"width": 360, "height": 640})
    token = open_match(page, "burraco", TWO, target=2005)
    looked_after(page)
    heading = page.locator("#panel h2")
    go_offline(page)

    typed(page, "Anna", "Cards on the table").fill("50")
    typed(page, "Ben", "Cards left in hand").fill("20")
    save_button(page).tap()
    expect(heading).to_have_text("Enter game 2")
    expect(typed(page, "Anna", "Cards on the table")).to_have_value("")
    expect(typed(page, "Ben", "Cards left in hand")).to_have_value("")
    expect(note(page)).to_contain_text("1 game waits on this phone")
    expect(note(page)).to_be_in_viewport()
    shot(page, "queue_burraco_360_game1_waits")

    typed(page, "Anna", "Cards on the table").fill("30")
    typed(page, "Ben", "Cards left in hand").fill("10")
    save_button(page).tap()
    expect(heading).to_have_text("Enter game 3")
    expect(waiting_rows(page)).to_have_text([
        re.compile(r"^1\s*Not sent yet Anna: Cards on the table 50 · Ben: Cards left in hand 20$"),
        re.compile(r"^2\s*Not sent yet Anna: Cards on the table 30 · Ben: Cards left in hand 10$")])
    expect(note(page)).to_contain_text("2 games wait on this phone")
    typed(page, "Anna", "Cards on the table").fill("15")
    waiting_rows(page).first.scroll_into_view_if_needed()
    shot(page, "queue_burraco_360_two_waiting")

    page.reload()
    expect(heading).to_have_text("Enter game 3")
    expect(waiting_rows(page)).to_have_count(2)
    expect(typed(page, "Anna", "Cards on the table")).to_have_value("15")
    assert stored_hands(page, token) == []

    sent = hand_posts(page, token)
    page.context.set_offline(False)
    expect(history_rows(page)).to_have_count(2)
    expect(waiting_rows(page)).to_have_count(0)
    expect_totals(page, 80, -30)
    expect(heading).to_have_text("Enter game 3")
    expect(typed(page, "Anna", "Cards on the table")).to_have_value("15")
    nothing_waits(page, token)
    stored = stored_hands(page, token)
    assert [hand["entries"][0]["table_points"] for hand in stored] == [50, 30]
    assert len(sent) == 2
    shot(page, "queue_burraco_360_sent", full_page=True)


def test_a_correction_made_offline_waits_in_its_own_panel(page: Page):
    """Only new hands queue: a correction whose save finds no server stays in its panel,
    "Not sent yet", as before, and is stored once the server answers."""
    page.clock.install()
    token = open_match(page, "burraco", TWO, target=2005)
    typed(page, "Anna", "Cards on the table").fill("50")
    save_button(page).tap()
    expect(page.locator(".toast")).to_contain_text("Game 1: ")
    page.get_by_role("link", name="Correct game 1").tap()
    expect(page.get_by_role("heading", name="Correct game 1")).to_be_visible()
    typed(page, "Anna", "Cards on the table").fill("60")
    page.route(f"**/m/{token}/hands/1", lambda route: route.abort("connectionrefused"))
    save_button(page).tap()
    expect(page.locator("#panel [data-save-failed]")).to_contain_text("Not sent yet")
    expect(page.get_by_role("heading", name="Correct game 1")).to_be_visible()
    expect(typed(page, "Anna", "Cards on the table")).to_have_value("60")
    expect(waiting_rows(page)).to_have_count(0)
    expect(note(page)).to_be_hidden()
    page.unroute(f"**/m/{token}/hands/1")
    send_again_now(page)
    expect(page.locator(".toast")).to_contain_text("Game 1 corrected")
    assert [hand["entries"][0]["table_points"] for hand in stored_hands(page, token)] == [60]


# --- The other sheets, and in German -------------------------------------------------------

@pytest.mark.parametrize("locale", ["de-DE"])
def test_bura_games_entered_offline_say_who_and_how_in_german(page: Page):
    """A German phone: two Bura games offline wait as "Noch nicht gesendet", each with how
    it ended and who; the line says how many wait."""
    token = open_match(page, "bura", BURRO)
    looked_after(page)
    go_offline(page)
    panel = page.locator("#panel")
    panel.locator(".outcomes").get_by_role("button", name="Ansage richtig", exact=True).tap()
    panel.locator(".player-buttons button", has_text="Ben").tap()
    expect(panel.locator("h2")).to_have_text("Wie endete Spiel 2?")
    panel.locator(".outcomes").get_by_role("button", name="Ansage falsch", exact=True).tap()
    panel.locator(".player-buttons button", has_text="Carla").tap()
    expect(panel.locator("h2")).to_have_text("Wie endete Spiel 3?")
    expect(waiting_rows(page)).to_have_text([
        re.compile(r"^1\s*Noch nicht gesendet Ansage richtig · Ben$"),
        re.compile(r"^2\s*Noch nicht gesendet Ansage falsch · Carla$")])
    expect(note(page)).to_contain_text("2 Spiele warten auf diesem Handy")
    expect(panel.locator(".player-buttons")).to_be_hidden()
    shot(page, "queue_bura_de_two_waiting", full_page=True)

    page.context.set_offline(False)
    expect(history_rows(page)).to_have_count(2)
    nothing_waits(page, token)
    assert [(hand["outcome"], hand["player"]) for hand in stored_hands(page, token)] == [
        ("right_claim", 1), ("wrong_claim", 2)]


@pytest.mark.parametrize("game, players, fill, words", [
    ("buraco", TWO, lambda page: typed(page, "Anna", "Cards on the table").fill("70"),
     "Anna: Cards on the table 70"),
    ("burkosel", TWO, lambda page: page.locator("fieldset.side").first.get_by_label(
        "Card points").fill("95"), "Anna: Card points 95"),
])
def test_a_waiting_hand_says_what_was_entered(page: Page, game, players, fill, words):
    """Offline nothing checks the entry: the waiting row shows what was typed, side by side."""
    open_match(page, game, players)
    looked_after(page)
    go_offline(page)
    fill(page)
    page.locator("#panel button.primary").tap()
    expect(waiting_rows(page)).to_have_text([re.compile(rf"^1\s*Not sent yet {re.escape(words)}")])
    expect(page.locator("#panel h2")).to_contain_text("2")
