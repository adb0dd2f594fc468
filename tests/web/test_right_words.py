"""Words that say what happened and what a thing is.

Issue "At the table, round two", f: "the watch-only export refusal reads 'Nothing was
saved' for a download: word it for what was asked; 'Checkers' reads as the board game to
many English speakers: use 'Check' (or 'Rules check') in English everywhere the nav/titles
say Checkers (German stays); the Bura trick checker's 'Clear' clears only one field: make
it clear the whole checker."
"""

import pytest
from helpers import GERMAN, HTMX, MATCHES, parsed, shown, start

NBSP = "\u00a0"


@pytest.mark.parametrize("path", ["/m/{view_token}/export.csv",
                                  MATCHES + "/{view_token}/export"])
@pytest.mark.parametrize("headers, said", [
    ({}, "This link only shows the score: the match can be downloaded from the players' link."),
    (GERMAN, "Dieser Link zeigt nur den Spielstand; herunterladen geht mit dem Link der "
             "Spieler."),
])
def test_a_download_by_the_watch_only_link_is_refused_for_what_was_asked(
        client, path, headers, said):
    match = start(client)
    response = client.get(path.format(view_token=match["view_token"]), headers=headers)
    assert response.status_code == 403
    message = response.json["error"] if response.is_json else shown(parsed(response))
    assert said in message.replace(NBSP, " ")
    assert "saved" not in message and "gespeichert" not in message


def test_a_page_by_the_watch_only_link_says_which_link_opens_it(client):
    match = start(client)
    response = client.get(f"/m/{match['view_token']}/hands/1")
    assert response.status_code == 403
    assert "the players' link opens this page" in shown(parsed(response))


@pytest.mark.parametrize("path", ["/", "/check", "/rules"])
@pytest.mark.parametrize("headers, label", [({}, "Rules check"), (GERMAN, "Prüfhilfen")])
def test_the_checkers_are_called_a_rules_check(client, path, headers, label):
    page = parsed(client.get(path, headers=headers))
    assert [shown(link) for link in page.select(".topbar nav a")][0] == label
    assert "Checkers" not in shown(page)


@pytest.mark.parametrize("headers, title", [({}, "Rules check"), (GERMAN, "Prüfhilfen")])
def test_the_checkers_page_is_titled_a_rules_check(client, headers, title):
    page = parsed(client.get("/check", headers=headers))
    assert shown(page.h1) == title
    assert shown(page.title).startswith(title)


TRICK = "/bura/trick?trump=H&into=response&lead=KC+9C&front=AC&response=6H&declared=on"


@pytest.mark.parametrize("headers", [{}, GERMAN])
def test_clear_starts_the_trick_afresh(client, headers):
    cleared = client.get(f"{TRICK}&clear=1", headers=headers)
    assert cleared.status_code == 303
    assert cleared.headers["Location"] == "/bura/trick?trump=H&into=lead"
    page = parsed(client.get(cleared.headers["Location"], headers=headers))
    assert [field["value"] for field in page.select("#checker input.card-field, "
                                                    "#checker label.field input")] == ["", "", ""]
    assert page.select_one("input[name=trump][value=H]").has_attr("checked")
    assert not page.select_one("input[name=declared]").has_attr("checked")
    assert page.select_one("input[name=into]:checked")["value"] == "lead"


def test_clear_by_htmx_answers_the_empty_checker(client):
    response = client.get(f"{TRICK}&clear=1", headers=HTMX)
    assert response.headers["HX-Push-Url"] == "/bura/trick?trump=H&into=lead"
    fields = parsed(response).select("#checker label.field input")
    assert [field["value"] for field in fields] == ["", "", ""]


def test_clear_is_offered_while_any_row_holds_cards(client):
    """Tapping into the empty answer row, the lead's cards can still be cleared."""
    page = parsed(client.get("/bura/trick?trump=H&into=response&lead=KC+9C"))
    assert not page.select_one("button[name=clear]").has_attr("disabled")
    assert page.select_one("button[name=back]").has_attr("disabled")
    empty = parsed(client.get("/bura/trick?trump=H"))
    assert empty.select_one("button[name=clear]").has_attr("disabled")
