"""Quotas: one client address starts, and imports, only so many matches in a while; beyond
them it is refused (429) in its language and told when to try again, while everything else,
and every other address, goes on as before."""

import io
import json

import pytest
from helpers import FORM_DEFAULTS, GERMAN, HTMX, MATCHES, THREE, csrf_token, parsed, shown

from app import create_app

SETUP = {"game": "burro", "players": THREE}
STARTED_TOO_OFTEN = {
    "en": "Many matches were started from this network in a short time. Try again in",
    "de": "Von diesem Netz aus wurden in kurzer Zeit sehr viele Partien begonnen. "
          "Versuche es in",
}
IMPORTED_TOO_OFTEN = {
    "en": "Many matches were imported from this network in a short time. Try again in",
    "de": "Von diesem Netz aus wurden in kurzer Zeit sehr viele Partien importiert. "
          "Versuche es in",
}
LANGUAGES = {"en": {"Accept-Language": "en"}, "de": GERMAN}


@pytest.fixture
def quotas(app, monkeypatch):
    """Quotas small enough to reach in a test: two starts and two imports a minute."""
    monkeypatch.setitem(app.config, "MATCHES_PER_CLIENT", "2 per minute")
    monkeypatch.setitem(app.config, "IMPORTS_PER_CLIENT", "2 per minute")


def start(client, **kwargs):
    return client.post(MATCHES, json=SETUP, **kwargs)


def start_on_the_page(client, **kwargs):
    form = {"csrf_token": csrf_token(client, "/burro/new"), "players": THREE,
            "action": "start", **FORM_DEFAULTS["burro"]}
    return client.post("/burro/new", data=form, **kwargs)


def document(client) -> dict:
    return client.get(f"{MATCHES}/{start(client).json['token']}/export").json


def import_on_the_page(client, exported: dict, **kwargs):
    form = {"csrf_token": csrf_token(client, "/import"),
            "document": (io.BytesIO(json.dumps(exported).encode()), "match.json")}
    return client.post("/import", data=form, content_type="multipart/form-data", **kwargs)


def form_values(page, name: str) -> list[str]:
    return [field.get("value", "") for field in parsed(page).select(f"input[name={name}]")]


def assert_told_when_to_try_again(response) -> None:
    assert response.status_code == 429
    assert 1 <= int(response.headers["Retry-After"]) <= 61


@pytest.mark.parametrize("language", LANGUAGES)
def test_a_client_beyond_its_starts_is_refused_in_its_language(client, quotas, language):
    headers = LANGUAGES[language]
    assert [start(client, headers=headers).status_code for _ in range(2)] == [201, 201]
    refused = start(client, headers=headers)
    assert_told_when_to_try_again(refused)
    assert refused.json["error"].startswith(STARTED_TOO_OFTEN[language])
    assert refused.json["error"].endswith(("nothing was saved.",
                                           "es wurde nichts gespeichert."))
    page = start_on_the_page(client, headers=headers)
    assert_told_when_to_try_again(page)
    assert STARTED_TOO_OFTEN[language] in shown(parsed(page).select_one("[role=alert]"))
    # The form comes back as it was filled in: nothing the players typed is lost.
    assert form_values(page, "players")[:3] == THREE


def test_the_pages_and_the_api_draw_on_one_quota_of_starts(client, quotas):
    assert start_on_the_page(client).status_code == 303
    assert start(client).status_code == 201
    assert start(client).status_code == 429
    assert start_on_the_page(client).status_code == 429


def test_an_htmx_form_beyond_the_quota_says_so_where_the_page_shows_messages(client, quotas):
    for _ in range(2):
        start(client)
    refused = start_on_the_page(client, headers=HTMX)
    assert_told_when_to_try_again(refused)
    assert refused.headers["HX-Retarget"] == "#flash"
    assert shown(refused).startswith(STARTED_TOO_OFTEN["en"])


def test_editing_the_players_list_of_the_new_match_form_is_not_a_start(client, quotas):
    for _ in range(2):
        start(client)
    form = {"csrf_token": csrf_token(client, "/burro/new"), "players": THREE, "action": "add"}
    page = client.post("/burro/new", data=form)
    assert page.status_code == 200
    assert len(parsed(page).select("input[name=players]")) == 4


@pytest.mark.parametrize("language", LANGUAGES)
def test_a_client_beyond_its_imports_is_refused_in_its_language(client, quotas, language):
    headers = LANGUAGES[language]
    exported = document(client)
    for _ in range(2):
        assert client.post(f"{MATCHES}/import", json=exported).status_code == 201
    refused = client.post(f"{MATCHES}/import", json=exported, headers=headers)
    assert_told_when_to_try_again(refused)
    assert refused.json["error"].startswith(IMPORTED_TOO_OFTEN[language])
    page = import_on_the_page(client, exported, headers=headers)
    assert_told_when_to_try_again(page)
    assert IMPORTED_TOO_OFTEN[language] in shown(parsed(page).select_one("[role=alert]"))
    assert parsed(page).select_one("input[type=file][name=document]") is not None


def test_a_client_beyond_its_starts_still_plays_imports_and_reads(client, quotas):
    """Only starting is held back: hands, pages, checkers and imports go on."""
    token = start(client).json["token"]
    start(client)
    assert start(client).status_code == 429
    assert client.post(f"{MATCHES}/{token}/hands", json={"burro": 0}).status_code == 201
    assert client.delete(f"{MATCHES}/{token}/hands/last").status_code == 200
    for page in ("/", "/burro/new", f"/m/{token}", "/rules", "/import"):
        assert client.get(page).status_code == 200, page
    checked = client.post("/api/v1/burro/trick", json={"plays": ["5H", "JH"]})
    assert checked.status_code == 200
    exported = client.get(f"{MATCHES}/{token}/export").json
    assert client.post(f"{MATCHES}/import", json=exported).status_code == 201


def test_a_client_beyond_its_imports_still_starts(client, quotas):
    exported = document(client)
    for _ in range(2):
        client.post(f"{MATCHES}/import", json=exported)
    assert client.post(f"{MATCHES}/import", json=exported).status_code == 429
    assert start(client).status_code == 201


@pytest.mark.parametrize("first, other", [
    ("192.0.2.7", "192.0.2.8"),
    ("2001:db8:1::7", "2001:db8:2::7"),
])
def test_another_address_has_its_own_quota(client, quotas, first, other):
    for _ in range(2):
        start(client, environ_base={"REMOTE_ADDR": first})
    assert start(client, environ_base={"REMOTE_ADDR": first}).status_code == 429
    assert start(client, environ_base={"REMOTE_ADDR": other}).status_code == 201


def test_a_device_roaming_its_ipv6_network_keeps_its_quota(client, quotas):
    """A phone takes a new IPv6 address at will within its network's /64."""
    for host in ("7", "8"):
        assert start(client, environ_base={"REMOTE_ADDR": f"2001:db8::{host}"}).status_code == 201
    assert start(client, environ_base={"REMOTE_ADDR": "2001:db8::9"}).status_code == 429


@pytest.mark.parametrize("quota, starts", [("1 per minute", 1), ("5 per minute", 5),
                                           ("3 per minute; 4 per hour", 3)])
def test_the_quota_is_the_configs(app, client, monkeypatch, quota, starts):
    monkeypatch.setitem(app.config, "MATCHES_PER_CLIENT", quota)
    answers = [start(client).status_code for _ in range(starts + 1)]
    assert answers == [201] * starts + [429]


def test_a_quota_the_app_cannot_read_stops_it_at_start(tmp_path, rules_index):
    with pytest.raises(ValueError, match="MATCHES_PER_CLIENT"):
        create_app({"TESTING": True, "SECRET_KEY": "test", "RULES_INDEX": rules_index,
                    "DATABASE": str(tmp_path / "tablemate.sqlite"),
                    "MATCHES_PER_CLIENT": "plenty"})


def test_without_a_trusted_proxy_a_forwarded_address_is_not_believed(client, quotas):
    for _ in range(2):
        start(client)
    forged = start(client, headers={"X-Forwarded-For": "198.51.100.9"})
    assert forged.status_code == 429


def test_behind_a_proxy_each_client_it_forwards_has_its_own_quota(tmp_path, rules_index):
    app = create_app({"TESTING": True, "SECRET_KEY": "test", "RULES_INDEX": rules_index,
                      "DATABASE": str(tmp_path / "tablemate.sqlite"), "BEHIND_PROXY": 1,
                      "MATCHES_PER_CLIENT": "2 per minute"})
    client = app.test_client()
    proxy = {"REMOTE_ADDR": "127.0.0.1"}

    def start_for(address: str):
        return start(client, environ_base=proxy, headers={"X-Forwarded-For": address})

    assert [start_for("192.0.2.7").status_code for _ in range(3)] == [201, 201, 429]
    assert start_for("192.0.2.8").status_code == 201
    # A client's own X-Forwarded-For comes first; the proxy appends the address it saw.
    assert start_for("192.0.2.8, 192.0.2.7").status_code == 429



def test_the_api_document_describes_the_refusal_with_an_example(client, quotas):
    """A client generator learns of the 429, its Retry-After and the shape of its body."""
    document = client.get("/api/v1/openapi.json").json
    for _ in range(2):
        start(client)
    refused = start(client).json
    for path in (MATCHES, f"{MATCHES}/import"):
        answer = document["paths"][path]["post"]["responses"]["429"]
        assert answer["headers"]["Retry-After"]["schema"]["type"] == "integer"
        name = answer["content"]["application/json"]["schema"]["$ref"].rsplit("/", 1)[1]
        example, = document["components"]["schemas"][name]["examples"]
        assert example.keys() == refused.keys()
        assert example["error"].startswith(STARTED_TOO_OFTEN["en"])


def test_a_start_too_large_to_read_starts_nothing_and_the_quotas_count_on(app, client, quotas):
    """Refused for its size, a start is no start, and the quotas go on counting where the
    config says (a shared store), not in a worker's own memory as when that store fails."""
    assert client.post(MATCHES, data="x" * 70000,
                       content_type="application/json").status_code == 413
    assert client.post("/burro/new", data={"players": "x" * 70000}).status_code == 413
    assert [start(client).status_code for _ in range(3)] == [201, 201, 429]
    # Emptied, the configured store has room again: the starts were counted there.
    app.extensions["quotas"].reset()
    assert start(client).status_code == 201
