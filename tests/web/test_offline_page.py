"""A page this phone never opened, asked for with the wifi gone: the service worker answers
with a page of the app saying what works offline and what does not, and the rules search
says that it needs the connection.

Issue "At the table, round two", d: "Rules and checker pages not opened before show the
browser's error page offline, and a search typed offline says nothing."
"""

import json
import re

import pytest
from helpers import GERMAN, parsed, shown


@pytest.mark.parametrize("lang, title, works, needs", [
    ("en", "No connection", "What works offline", "What needs the connection"),
    ("de", "Keine Verbindung", "Was offline geht", "Was die Verbindung braucht"),
])
def test_the_offline_page_says_what_works_and_what_does_not(client, lang, title, works, needs):
    page = parsed(client.get(f"/offline/{lang}"))
    assert page.html["lang"] == lang
    assert shown(page.h1) == title
    assert [shown(heading) for heading in page.select("main h2")] == [works, needs]
    assert len(page.select("main ul li")) == 5
    # "Try again" asks for the address the worker showed this page at.
    again = page.select_one("main a.button")
    assert again["href"] == ""


def test_the_offline_page_keeps_its_language_whatever_the_phone_reads(client):
    """The worker keeps both at once, with one phone's cookies: each is in its own language."""
    assert shown(parsed(client.get("/offline/en", headers=GERMAN)).h1) == "No connection"


def test_an_unknown_language_has_no_offline_page(client):
    assert client.get("/offline/fr").status_code == 404


def test_the_worker_keeps_both_offline_pages_when_it_installs(client):
    worker = client.get("/sw.js").get_data(as_text=True)
    pages = json.loads(re.search(r"const OFFLINE_PAGES = (\{.*?\});", worker).group(1))
    assert pages == {"en": "/offline/en", "de": "/offline/de"}
    assert "cache.addAll([...ASSETS, ...Object.values(OFFLINE_PAGES)])" in worker
    for path in pages.values():
        assert client.get(path).status_code == 200


@pytest.mark.parametrize("headers, said", [
    ({}, "The search needs the connection."),
    (GERMAN, "Die Suche braucht die Verbindung."),
])
def test_the_search_form_carries_its_offline_note_hidden(client, headers, said):
    for path in ("/rules", "/rules/search?q=pozzetto"):
        page = parsed(client.get(path, headers=headers))
        note = page.select_one("form.rules-search [data-search-offline]")
        assert note.has_attr("hidden") and shown(note).startswith(said)
