"""Real-browser tests of the Bura pot ledger, the Bura checkers and the Burkosel sheet, on a
phone.

The phone comes from conftest.py: Debian's Chromium at a 390 px touch viewport, every
request to the htmx CDN refused so the bundled copy loads, any script error fails the test.
Screenshots go to tests/browser/screenshots/bura_*.png for a human to look at.
"""

import re

import pytest
from playwright.sync_api import Locator, Page, expect

from phone import in_view, later, shot

pytestmark = pytest.mark.browser

M = "\u2212"  # the sheet writes negative numbers with the typographic minus
PLAYERS = ["Anna", "Ben", "Carla"]
# The seed's example of a wrong claim: 4 + 0 + 11 + 0 + 10 + 2 + 3 + 0 = 30 card points.
SEED_30 = ["K♣", "9♣", "A♣", "6♥", "10♠", "J♦", "Q♥", "7♦"]


# --- Fixtures (as in tests/test_browser.py) -------------------------------------------------







# --- Helpers -------------------------------------------------------------------------------







def fill_players(page: Page, names: list[str]) -> None:
    """The new-match form starts with four rows: drop the extra ones, then type the names."""
    rows = page.locator("input[name=players]")
    while rows.count() > len(names):
        seat = rows.count()
        page.get_by_role("button", name=f"Remove player {seat}", exact=True).tap()
        expect(rows).to_have_count(seat - 1)
    for seat, name in enumerate(names):
        rows.nth(seat).fill(name)


def start_button(page: Page) -> Locator:
    return page.locator("button.primary[name=action][value=start]")


def outcome_button(page: Page, label: str) -> Locator:
    return page.locator("#panel .outcomes").get_by_role("button", name=label, exact=True)


def player_button(page: Page, name: str) -> Locator:
    return page.locator("#panel .player-buttons button").filter(
        has=page.locator(".name", has_text=re.compile(rf"^{re.escape(name)}$")))


def expect_chips(page: Page, *chips: int) -> None:
    expect(page.locator(".totals .total")).to_have_text(
        [str(c).replace("-", M) for c in chips])


def signed(value: int) -> str:
    return ("+" if value >= 0 else M) + str(abs(value))


def expect_row(row: Locator, result: str, pot: int, changes, chips,
               problems: list[str]) -> None:
    """A ledger row: each player's change and chips; under it how the game ended and the pot
    after it. Every negative number is written with the typographic minus."""
    cells = [f"{signed(c)} {str(t).replace('-', M)}" for c, t in zip(changes, chips)]
    expect(row.locator("td")).to_have_text(cells)
    below = row.locator("xpath=following-sibling::tr[1]")
    expect(below).to_have_class("breakdown")
    expect(below).to_contain_text(result)
    expect(below).to_contain_text(f"pot {pot}")


def new_bura_match(page: Page, players=PLAYERS, **options) -> str:
    """Arrange a match quickly through the JSON API; returns its sheet's path."""
    created = page.request.post("/api/v1/matches", data={
        "game": "bura", "players": list(players), "options": {"ante": 1, **options}})
    assert created.status == 201, created.text()
    return f"/m/{created.json()['token']}"


def looks_pressed(page: Page, label: str, problems: list[str]) -> None:
    """The chosen outcome must look chosen, not only say so to a screen reader: its
    background differs from an outcome not chosen (as the Burraco panel's mode buttons)."""
    background = "el => getComputedStyle(el).backgroundColor"
    pressed = outcome_button(page, label).evaluate(background)
    others = page.locator("#panel .outcomes button[aria-pressed=false]").first.evaluate(
        background)
    if pressed == others:
        problems.append(f"the chosen outcome {label!r} (aria-pressed=true) looks like the "
                        f"others: background {pressed} on both")


def large_type(page: Page, locator: Locator, what: str, problems: list[str]) -> None:
    """UX.md: "the pot in large type": at least 1.5 × the body text (17 px → 25.5 px)."""
    size = locator.evaluate("el => parseFloat(getComputedStyle(el).fontSize)")
    body = page.locator("body").evaluate("el => parseFloat(getComputedStyle(el).fontSize)")
    totals = page.locator(".totals .total").first.evaluate(
        "el => getComputedStyle(el).fontSize")
    if size < 1.5 * body:
        problems.append(f"{what} is not in large type: {size:g} px, the body text {body:g} px "
                        f"(the chip totals above it: {totals})")


# --- 1. The pot ledger: three games and an undo ---------------------------------------------

def test_bura_ledger_right_claim_wrong_claim_nobody_and_undo(page: Page):
    later_problems: list[str] = []
    page.goto("/")
    page.locator("a.tile").filter(
        has=page.locator("strong", has_text=re.compile(r"^Bura$"))).tap()
    expect(page.get_by_role("heading", name="New Bura match")).to_be_visible()
    fill_players(page, PLAYERS)
    expect(page.locator("input[name=players]")).to_have_count(3)
    page.locator("input[name=ante]").fill("1")
    expect(page.locator("input[name=dealer]").first).to_be_checked()  # Anna deals first
    expect(page.get_by_role("link", name=re.compile(r"^Play Burkosel instead"))).to_be_visible()
    later(later_problems, "the variant's name as written in the rules",
          lambda: expect(page.locator(".choices label").nth(2)).to_contain_text(
              "Little Moscow", timeout=500))
    shot(page, "bura_en_new_match", full_page=True)
    start_button(page).tap()

    header = page.locator(".scoreboard .next")
    expect(header).to_contain_text("Anna deals, Ben leads.")
    expect(page.locator("#sheet > .unit")).to_contain_text("Chips in hand · ante 1 chip")
    expect(page).to_have_url(re.compile(r"/m/[^/?]+$"))
    expect(page).to_have_title(re.compile(r"^Anna · Ben · Carla · Bura"))
    expect(page.locator(".totals .name")).to_have_text(PLAYERS)
    expect_chips(page, 0, 0, 0)
    expect(page.locator(".totals li.dealer .name")).to_have_text("Anna")
    pot = page.locator("p.pot strong")
    expect(pot).to_have_text("0")
    expect(page.locator("p.pot")).to_contain_text(
        "Next game: everyone antes 1, the pot then holds 3.")
    large_type(page, pot, "the pot", later_problems)
    expect(page.get_by_role("heading", name="How did game 1 end?")).to_be_visible()
    expect(page.locator(".debts")).to_have_count(0)
    shot(page, "bura_en_sheet_start", full_page=True)
    page.evaluate("window.__marker = 1")

    toast = page.locator(".toast")
    rows = page.locator(".history tbody tr:not(.breakdown)")

    # --- (a) Game 1: Ben claims 31, rightly. The antes make the pot 3; Ben takes it.
    outcome_button(page, "Right claim").tap()
    expect(outcome_button(page, "Right claim")).to_have_attribute("aria-pressed", "true")
    expect(page.get_by_role("heading", name="Who claimed?")).to_be_visible()
    looks_pressed(page, "Right claim", later_problems)
    expect(page.locator("#panel .player-buttons button")).to_have_count(3)
    shot(page, "bura_en_game1_who_claimed", full_page=True)
    player_button(page, "Ben").tap()
    expect(toast).to_contain_text("Game 1: ")
    expect(toast.get_by_role("button", name="Undo", exact=True)).to_be_visible()
    in_view(page, toast, "after game 1, the toast with its Undo", later_problems)
    expect(pot).to_have_text("0")
    expect_chips(page, -1, 2, -1)
    expect(page.locator(".totals li.dealer .name")).to_have_text("Ben")
    expect(header).to_contain_text("Ben deals, Carla leads.")
    expect(page.locator(".debts span")).to_have_text(["Anna owes 1", "Carla owes 1"])
    expect(rows).to_have_count(1)
    expect_row(rows.nth(0), "Right claim: Ben", 0, (-1, 2, -1), (-1, 2, -1),
               later_problems)
    expect(page.get_by_role("heading", name="How did game 2 end?")).to_be_visible()
    expect(page.locator("#panel .player-buttons")).to_be_hidden()  # a fresh panel
    shot(page, "bura_en_game1_saved_viewport")

    # --- (b) Game 2: Carla claims wrongly. Antes: pot 3; Carla pays 3, the pot holds 6.
    outcome_button(page, "Wrong claim").tap()
    expect(outcome_button(page, "Wrong claim")).to_have_attribute("aria-pressed", "true")
    expect(outcome_button(page, "Right claim")).to_have_attribute("aria-pressed", "false")
    player_button(page, "Carla").tap()
    expect(toast).to_contain_text("Game 2: ")
    expect(pot).to_have_text("6")
    expect_chips(page, -2, 1, -5)
    expect(page.locator(".totals li.dealer .name")).to_have_text("Carla")
    expect(header).to_contain_text("Carla deals, Anna leads.")
    expect(page.locator(".debts span")).to_have_text(["Anna owes 2", "Carla owes 5"])
    expect(page.locator("p.pot")).to_contain_text("the pot then holds 9.")
    expect(rows).to_have_count(2)
    expect_row(rows.nth(1), "Wrong claim: Carla", 6, (-1, -1, -4), (-2, 1, -5),
               later_problems)
    shot(page, "bura_en_game2_saved", full_page=True)

    # --- (c) Game 3: nobody claimed. Everyone antes again (pot 9), Carla deals again.
    page.locator("#panel").get_by_role(
        "button", name="Nobody claimed: everyone antes again, same dealer").tap()
    expect(toast).to_contain_text("Game 3: ")
    expect(pot).to_have_text("9")
    expect_chips(page, -3, 0, -6)
    expect(page.locator(".totals li.dealer .name")).to_have_text("Carla")
    expect(header).to_contain_text("Carla deals, Anna leads.")
    expect(header).to_contain_text(re.compile(r"(Hand|Game) 4"))
    expect(page.locator(".debts span")).to_have_text(["Anna owes 3", "Carla owes 6"])
    expect(rows).to_have_count(3)
    expect_row(rows.nth(2), "Nobody claimed", 9, (-1, -1, -1), (-3, 0, -6),
               later_problems)
    in_view(page, toast, "after game 3, the toast with its Undo", later_problems)
    shot(page, "bura_en_game3_saved_viewport")
    shot(page, "bura_en_game3_saved", full_page=True)

    # --- Undo once: back to the state after game 2.
    toast.get_by_role("button", name="Undo", exact=True).tap()
    expect(toast).to_contain_text(re.compile(r"(Hand|Game) 3 taken back"))
    expect(pot).to_have_text("6")
    expect_chips(page, -2, 1, -5)
    expect(page.locator(".totals li.dealer .name")).to_have_text("Carla")
    expect(header).to_contain_text(re.compile(r"(Hand|Game) 3: Carla deals, Anna leads\."))
    expect(page.locator(".debts span")).to_have_text(["Anna owes 2", "Carla owes 5"])
    expect(rows).to_have_count(2)
    expect(page.get_by_role("heading", name="How did game 3 end?")).to_be_visible()
    expect(page.locator("details.changes summary")).to_have_text("1 change")
    assert page.evaluate("window.__marker") == 1, "a tap reloaded the whole page"
    shot(page, "bura_en_after_undo", full_page=True)

    assert not later_problems, "\n".join(later_problems)


# --- 2. The claim checker inside the sheet's panel -------------------------------------------

def test_bura_inline_claim_checker_books_a_right_claim(page: Page):
    later_problems: list[str] = []
    page.goto(new_bura_match(page))
    expect(page.get_by_role("heading", name="How did game 1 end?")).to_be_visible()
    outcome_button(page, "Check a claim").tap()
    expect(outcome_button(page, "Check a claim")).to_have_attribute("aria-pressed", "true")
    looks_pressed(page, "Check a claim", later_problems)
    panel = page.locator("#panel")
    verdict = panel.locator(".claim-verdict")
    expect(verdict).to_contain_text("Tap the trick cards.")
    panel.locator(".choice-row").get_by_label("Ben", exact=True).check()
    cards = panel.locator("input[name=cards]")

    def tap_card(card: str) -> None:
        panel.get_by_role("button", name=card, exact=True).tap()
        # A card in the tricks is greyed out: the tap's round trip is over.
        expect(panel.get_by_role("button", name=card, exact=True)).to_be_disabled()

    for count, card in enumerate(SEED_30, start=1):
        tap_card(card)
        expect(cards).to_have_value(" ".join(SEED_30[:count]))
    expect(verdict).to_contain_text("30 card points: wrong, the claimant doubles the pot.")
    expect(panel.locator(".choice-row").get_by_label("Ben", exact=True)).to_be_checked()
    shot(page, "bura_en_claim_30_wrong", full_page=True)
    verdict.scroll_into_view_if_needed()
    shot(page, "bura_en_claim_30_wrong_viewport")

    for card in ["K♠", "8♠"]:
        tap_card(card)
    expect(cards).to_have_value(" ".join([*SEED_30, "K♠", "8♠"]))
    expect(verdict).to_contain_text("34 card points: right, the claimant takes the pot.")
    expect(panel.locator(".choice-row").get_by_label("Ben", exact=True)).to_be_checked()
    shot(page, "bura_en_claim_34_right", full_page=True)

    panel.get_by_role("button", name="Save the claim").tap()
    expect(page.locator(".toast")).to_contain_text("Game 1: ")
    expect_chips(page, -1, 2, -1)
    expect(page.locator("p.pot strong")).to_have_text("0")
    expect(page.locator(".totals li.dealer .name")).to_have_text("Ben")
    rows = page.locator(".history tbody tr:not(.breakdown)")
    expect(rows).to_have_count(1)
    expect_row(rows.nth(0), "Right claim: Ben (34 card points)", 0, (-1, 2, -1), (-1, 2, -1),
               later_problems)
    shot(page, "bura_en_claim_saved", full_page=True)

    assert not later_problems, "\n".join(later_problems)


# --- 3. The Bura trick checker -----------------------------------------------------------------

def test_bura_trick_checker_beats_does_not_beat_and_refuses_a_mixed_lead(page: Page):
    later_problems: list[str] = []
    page.goto("/bura/trick")
    expect(page.get_by_role("heading", name="Bura: does this beat the cards in front?")
           ).to_be_visible()
    expect(page.locator(".tool-tabs a[aria-current=page]")).to_have_text("Trick")
    page.locator("fieldset.trump").get_by_label("♥").check()
    expect(page.locator("fieldset.trump").get_by_label("♥")).to_be_checked()
    page.evaluate("window.__marker = 1")
    picker = page.locator(".picker")
    lead = page.locator("input[name=lead]")
    answer = page.locator("input[name=response]")
    into = page.get_by_role("radiogroup", name="Cards go to")

    def tap(card: str) -> None:
        picker.get_by_role("button", name=card, exact=True).tap()
        expect(picker.get_by_role("button", name=card, exact=True)).to_be_disabled()

    def choose(option: Locator) -> None:
        """Check where the cards go, and wait for the checker's answer to take the form's
        place: a card tapped before it comes is lost with the old form."""
        form = page.locator("#checker").element_handle()
        option.check()
        page.wait_for_function("(form) => !form.isConnected", arg=form)
        expect(option).to_be_checked()

    expect(into.get_by_label("Tap into: the lead")).to_be_checked()
    tap("K♣")
    tap("9♣")
    expect(lead).to_have_value("K♣ 9♣")
    choose(into.get_by_label("Tap into: the answer"))
    tap("A♣")
    tap("6♥")
    expect(answer).to_have_value("A♣ 6♥")
    verdict = page.locator(".verdict")
    # The wording has moved ("takes the lead", "beats every card in front"): the verdict's
    # yes or no and the pairing are what this test holds on to.
    expect(verdict.locator("p").first).to_have_text(re.compile(
        r"^Yes: the answer (takes the lead|beats every card in front)\.$"))
    expect(verdict.locator(".pairs li")).to_have_text(["A♣ beats K♣", "6♥ beats 9♣"])
    expect(verdict.locator(".pairs .card.red")).to_have_text(["6♥"])
    expect(verdict.get_by_role("link", name="Why?")).to_have_attribute(
        "href", re.compile(r"^/rules/bura(\?[^#]*)?#trick$"))
    expect(page).to_have_url(re.compile(r"/bura/trick\?.*response=AC\+6H"))
    shot(page, "bura_en_trick_yes", full_page=True)
    verdict.scroll_into_view_if_needed()
    shot(page, "bura_en_trick_yes_viewport")

    # The answer becomes A♣ 8♠: the 8♠ is neither a club nor a trump, the 9♣ stays unbeaten.
    page.locator(".picker-tools").get_by_role("button", name="Remove last").tap()
    expect(answer).to_have_value("A♣")
    tap("8♠")
    expect(answer).to_have_value("A♣ 8♠")
    expect(verdict.locator("p").first).to_have_text(re.compile(
        r"^No: (not every card in front can be beaten|the answer cannot beat each card in "
        r"front) (by|with) a card of its own\.$"))
    expect(verdict).to_contain_text(re.compile(r"Unbeaten:\s*9♣"))
    expect(verdict.locator(".pairs")).to_have_count(0)
    shot(page, "bura_en_trick_no", full_page=True)

    # A lead of K♣ 9♥: two suits cannot be led together.
    choose(into.get_by_label("Tap into: the lead"))
    page.locator(".picker-tools").get_by_role("button", name="Clear").tap()
    # Clear starts the trick afresh: the answer goes with the lead.
    expect(lead).to_have_value("")
    expect(answer).to_have_value("")
    tap("K♣")
    tap("9♥")
    expect(lead).to_have_value("K♣ 9♥")
    error = page.get_by_role("alert")
    expect(error).to_contain_text("Two or three cards are led together only if they are of "
                                  "one suit (three aces only as a declared combination).")
    later(later_problems, "the refusal's 'Why?' link",
          lambda: expect(error.get_by_role("link", name="Why?")).to_have_attribute(
              "href", re.compile(r"^/rules/bura(\?[^#]*)?#trick$"), timeout=1000))
    expect(page.locator(".verdict")).to_have_count(0)
    in_view(page, error, "the refusal of the lead K♣ 9♥ (all of it)", later_problems,
            whole=True)
    shot(page, "bura_en_trick_refused_viewport")
    shot(page, "bura_en_trick_refused", full_page=True)
    assert page.evaluate("window.__marker") == 1, "a tap reloaded the whole page"

    assert not later_problems, "\n".join(later_problems)


# --- 4. Burkosel ---------------------------------------------------------------------------------

def test_burkosel_two_players_penalty_and_a_refused_sum(page: Page):
    later_problems: list[str] = []
    page.goto("/bura/new")
    expect(page.get_by_role("heading", name="New Bura match")).to_be_visible()
    page.get_by_role("link", name="Play Burkosel instead (penalty points, no chips)").tap()
    expect(page.get_by_role("heading", name="New Burkosel match")).to_be_visible()
    expect(page).to_have_url(re.compile(r"/burkosel/new$"))
    # The new page replaces the old one; it is not drawn inside the Bura form.
    later(later_problems, "after the link, one top bar on the page",
          lambda: expect(page.locator("header.topbar")).to_have_count(1, timeout=1000))
    later(later_problems, "after the link, one page heading",
          lambda: expect(page.locator("h1")).to_have_count(1, timeout=1000))
    later(later_problems, "after the link, no Bura form around the Burkosel one",
          lambda: expect(page.locator("form#new-match form#new-match, "
                                      "#new-match #new-match")).to_have_count(0, timeout=1000))
    fill_players(page, ["Anna", "Ben"])
    expect(page.locator("input[name=players]")).to_have_count(2)
    shot(page, "bura_burkosel_new_match", full_page=True)
    start_button(page).tap()

    header = page.locator(".scoreboard .next")
    expect(header).to_contain_text("Anna deals, Ben leads.")
    expect(page.locator("#sheet > .unit")).to_contain_text("Penalty points · 12 or more loses")
    expect(page).to_have_title(re.compile(r"^Anna · Ben · Burkosel"))
    expect(page.locator(".totals .name")).to_have_text(["Anna", "Ben"])
    expect_chips(page, 0, 0)
    expect(page.locator(".totals .to-go")).to_have_text(["12 to go", "12 to go"])
    expect(page.get_by_role("heading", name="Game 1")).to_be_visible()
    shot(page, "bura_burkosel_sheet_start", full_page=True)

    anna = page.locator("fieldset.side").filter(has=page.locator("legend", has_text="Anna"))
    ben = page.locator("fieldset.side").filter(has=page.locator("legend", has_text="Ben"))
    anna.get_by_label("Card points").fill("95")
    anna.get_by_label("Tricks").fill("5")
    ben.get_by_label("Card points").fill("25")
    ben.get_by_label("Tricks").fill("2")
    page.locator("#panel").get_by_role("button", name="Save game").tap()

    toast = page.locator(".toast")
    expect(toast).to_contain_text("Game 1: ")
    # Ben lost with fewer than 31 card points but a trick: 4 penalty points.
    expect_chips(page, 0, 4)
    expect(page.locator(".totals .to-go")).to_have_text(["12 to go", "8 to go"])
    rows = page.locator(".history tbody tr:not(.breakdown)")
    expect(rows).to_have_count(1)
    expect(rows.nth(0).locator("td")).to_have_text(["+0 0", "+4 4"])
    expect(rows.nth(0).locator("td.hit")).to_have_text("+4 4")
    expect(header).to_contain_text("Ben deals, Anna leads.")
    expect(page.get_by_role("heading", name="Game 2")).to_be_visible()
    shot(page, "bura_burkosel_game1_saved", full_page=True)

    # Game 2, typed wrong: 90 + 25 = 115, not 120.
    anna.get_by_label("Card points").fill("90")
    anna.get_by_label("Tricks").fill("4")
    ben.get_by_label("Card points").fill("25")
    ben.get_by_label("Tricks").fill("3")
    page.locator("#panel").get_by_role("button", name="Save game").tap()
    error = page.get_by_role("alert")
    expect(error).to_contain_text(
        "The card points add up to 115, but all cards together count 120.")
    later(later_problems, "the refusal's 'Why?' link",
          lambda: expect(error.get_by_role("link", name="Why?")).to_have_attribute(
              "href", re.compile(r"^/rules/bura(\?[^#]*)?#variant-burkosel$"), timeout=1000))
    in_view(page, error, "the refusal 'The card points add up to 115'", later_problems,
            whole=True)
    shot(page, "bura_burkosel_refused_viewport")
    # Nothing was saved ...
    expect_chips(page, 0, 4)
    expect(rows).to_have_count(1)
    expect(page.get_by_role("heading", name="Game 2")).to_be_visible()
    # ... and what was typed is still there, to be corrected rather than typed again.
    for where, field, value in [(anna, "Card points", "90"), (anna, "Tricks", "4"),
                                (ben, "Card points", "25"), (ben, "Tricks", "3")]:
        later(later_problems, f"after the refusal, {field} of "
              f"{where.locator('legend').inner_text()} still as typed ({value})",
              lambda where=where, field=field, value=value: expect(
                  where.get_by_label(field)).to_have_value(value, timeout=1000))
    shot(page, "bura_burkosel_refused", full_page=True)

    assert not later_problems, "\n".join(later_problems)
