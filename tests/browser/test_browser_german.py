"""Real-browser checks that the German controls fit a small phone: at 360 px every tab, button
and chip the German copy review measured stays on one line, and the button rows stay rows.

The phone comes from conftest.py (Debian's Chromium, touch, the htmx CDN refused), here in
German and narrowed to 360 × 740. Screenshots go to tests/browser/screenshots/de360_*.png.
"""

import pytest
from playwright.sync_api import Locator, Page, expect

from phone import shot

pytestmark = pytest.mark.browser

NBH = "\u2011"  # the no-break hyphen of "31‑Ansage"

# How many lines an element's text takes: one client rect per line box of each text node.
TEXT_LINES = """element => {
  const tops = new Set();
  const walker = document.createTreeWalker(element, NodeFilter.SHOW_TEXT);
  for (let node = walker.nextNode(); node; node = walker.nextNode()) {
    if (!node.textContent.trim()) continue;
    const range = document.createRange();
    range.selectNodeContents(node);
    for (const rect of range.getClientRects()) if (rect.width > 1) tops.add(Math.round(rect.top));
  }
  return tops.size;
}"""


@pytest.fixture
def locale() -> str:
    return "de-DE"


def sheet(page: Page, game: str, players: int) -> str:
    """A fresh match made through the JSON API; its sheet's path."""
    created = page.request.post("/api/v1/matches", data={
        "game": game, "players": ["Anna", "Ben", "Carla", "Dan"][:players]})
    assert created.status == 201, created.text()
    return f"/m/{created.json()['token']}"


def text_lines(controls: Locator) -> dict[str, int]:
    """Each control's text and the number of lines it is drawn on."""
    lines = controls.evaluate_all(f"elements => elements.map({TEXT_LINES})")
    return dict(zip(controls.all_inner_texts(), lines))


def rows(controls: Locator) -> int:
    """How many rows the controls are laid out in."""
    return len(set(controls.evaluate_all(
        "elements => elements.map(element => Math.round(element.getBoundingClientRect().top))")))


# (name, where: a path or a game sheet to make, the controls, their German texts, most rows)
CONTROLS = [
    ("topbar", "/", ".topbar nav a", ["Prüfhilfen", "Regeln"], 1),
    ("bura_tabs", "/bura/claim", ".tool-tabs a", [f"31{NBH}Ansage", "Stich", "Kombinationen"], 1),
    ("bura_claims", ("bura", 3),
     "#panel .outcomes button:text-matches('^Ansage (richtig|falsch)$')",
     ["Ansage richtig", "Ansage falsch"], None),
    ("picker_tools", "/burro/trick", ".picker-tools button",
     ["Passe", "Letzte löschen", "Leeren"], 1),
    ("meld_modes", "/burraco/meld", ".modes-3 .chip",
     ["Auslegen", "Anlegen", "Platzhalter tauschen"], 2),
    ("meld_into", "/burraco/meld?mode=add", "[role=radiogroup][aria-label='Eingabe in'] .chip",
     ["Eingabe: Kombination", "Eingabe: neue Karten"], None),
    ("trick_into", "/bura/trick", ".choice-row.into .chip",
     ["Eingabe: ausgespielt", "Eingabe: vorn liegend", "Eingabe: Antwort"], None),
    ("pozzetto", ("burraco", 4), "#panel fieldset.pozzetto >> nth=0 >> .chip",
     ["genommen", "nicht genommen (−100)", "genommen, noch verdeckt"], None),
]


@pytest.mark.parametrize("name, where, selector, texts, most_rows", CONTROLS,
                         ids=[case[0] for case in CONTROLS])
def test_german_controls_fit_on_one_line_at_360_px(page: Page, name, where, selector, texts,
                                                   most_rows):
    page.set_viewport_size({"width": 360, "height": 740})
    page.goto(where if isinstance(where, str) else sheet(page, *where))
    expect(page.locator("html")).to_have_attribute("lang", "de")
    controls = page.locator(selector)
    expect(controls).to_have_text(texts)
    controls.first.scroll_into_view_if_needed()
    shot(page, f"de360_{name}")
    assert text_lines(controls) == dict.fromkeys(texts, 1)
    if most_rows:
        assert rows(controls) <= most_rows
