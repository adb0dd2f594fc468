"""The rules' table of contents: sub-sections counted within their section.

Issue "At the table, round two", e: "the contents number sub-sections on and let two-digit
numbers hang out: fix the numbering and alignment."
"""

import pytest
from helpers import parsed, shown


def contents(client, game: str, lang: str):
    page = parsed(client.get(f"/rules/{game}?lang={lang}"))
    return page.select_one("nav.toc details > ol")


@pytest.mark.parametrize("lang, variants", [("en", "Variants"), ("de", "Varianten")])
def test_sub_sections_sit_in_their_section_and_do_not_count_on(client, lang, variants):
    toc = contents(client, "bura", lang)
    parts = toc.find_all("li", recursive=False)
    titles = [shown(part.a) for part in parts]
    assert len(parts) == 14 and titles[12] == variants
    under = parts[12].find("ol").select("li > a")
    assert [link["href"] for link in under][:2] == ["#variant-hidden", "#variant-three-aces-win"]
    assert len(under) == 8
    # The section after the variants is the fourteenth, not the twenty-second.
    assert parts[13].a["href"] == "#background"


@pytest.mark.parametrize("game", ["burro", "burraco", "buraco", "bura"])
@pytest.mark.parametrize("lang", ["en", "de"])
def test_every_section_is_in_the_contents_once(client, game, lang):
    page = parsed(client.get(f"/rules/{game}?lang={lang}"))
    linked = [link["href"][1:] for link in page.select("nav.toc a")]
    assert linked == [section["id"] for section in page.select("section.rule")]
