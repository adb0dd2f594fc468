"""Served behind a TLS proxy: links built on BASE_URL whatever Host a request brings, the
proxy's forwarded headers trusted only when configured, cookies sent only over HTTPS, other
hosts refused, malformed ones too; and no match page or API answer kept by a shared
cache."""

import pytest
from helpers import (
    FOUR,
    GERMAN,
    HTMX,
    MATCHES,
    dark_modules,
    form_token,
    parsed,
    qr_of,
    root,
    start,
    stored,
)

from app import create_app

HOSTILE = {"Host": "evil.example"}
BASE_URL = "https://scores.example.org"


def served(tmp_path, **config):
    """The app as configured for a server, on a fresh database."""
    return create_app({"TESTING": True, "DATABASE": str(tmp_path / "tablemate.sqlite"),
                       "SECRET_KEY": "test", **config})


def links_shown(client, hand_to: dict) -> dict[str, str]:
    """Every absolute link a match hands out: the API's, the share box's and the QR codes'."""
    match = start(client)
    answer = client.get(f"{MATCHES}/{match['token']}", headers=hand_to).json
    sheet = parsed(client.get(f"/m/{match['token']}", headers=hand_to))
    shared = [field["value"] for field in sheet.select("details.share input")]
    links = {"url": answer["url"], "view_url": answer["view_url"]}
    for key, qr_path in (("url", "/m/{token}/qr.svg"), ("view_url", "/v/{view_token}/qr.svg")):
        assert links[key] in shared
        qr_code = client.get(qr_path.format(**match), headers=hand_to).data
        assert dark_modules(qr_code) == qr_of(links[key])
    return links | {"token": match["token"], "view_token": match["view_token"]}


# --- Absolute links -------------------------------------------------------------------------

def test_every_absolute_link_is_built_on_base_url_whatever_the_host_header(tmp_path):
    """A request naming another host gets the real links back, in the API, the share box and
    the QR codes alike: the players' link never points anywhere else."""
    client = served(tmp_path, BASE_URL=BASE_URL).test_client()
    links = links_shown(client, HOSTILE)
    assert links["url"] == f"{BASE_URL}/m/{links['token']}"
    assert links["view_url"] == f"{BASE_URL}/v/{links['view_token']}"


def test_without_base_url_links_follow_the_address_the_phone_used(tmp_path):
    """A laptop serving the table's wifi has no fixed name: the phones' own address it is."""
    links = links_shown(served(tmp_path).test_client(), {"Host": "192.0.2.7:5000"})
    assert links["url"] == f"http://192.0.2.7:5000/m/{links['token']}"


def test_a_proxy_prefix_stays_in_links_on_base_url(tmp_path):
    """Served under a path, the proxy names it (X-Forwarded-Prefix), and the links keep it."""
    client = served(tmp_path, BASE_URL=BASE_URL, BEHIND_PROXY=1).test_client()
    created = client.post(MATCHES, json={"game": "burro", "players": FOUR},
                          headers={"X-Forwarded-Prefix": "/tablemate"}).json
    assert created["url"] == f"{BASE_URL}/tablemate/m/{created['token']}"


@pytest.mark.parametrize("base_url", ["scores.example.org", "ftp://scores.example.org",
                                      "https://scores.example.org/tablemate", "https://"])
def test_a_base_url_that_is_not_a_scheme_and_host_stops_the_start(tmp_path, base_url):
    with pytest.raises(ValueError, match="BASE_URL"):
        served(tmp_path, BASE_URL=base_url)


# --- Behind a proxy -------------------------------------------------------------------------

FORWARDED = {"X-Forwarded-Proto": "https", "X-Forwarded-Host": "scores.example.org",
             "X-Forwarded-For": "198.51.100.4"}


@pytest.mark.parametrize("proxies, url", [
    (0, "http://localhost/m/"),
    (1, "https://scores.example.org/m/"),
])
def test_forwarded_headers_count_only_behind_a_configured_proxy(tmp_path, proxies, url):
    """Without BEHIND_PROXY anyone could claim to have come over HTTPS from anywhere."""
    client = served(tmp_path, BEHIND_PROXY=proxies).test_client()
    created = client.post(MATCHES, json={"game": "burro", "players": FOUR}, headers=FORWARDED)
    assert created.json["url"] == url + created.json["token"]


def test_behind_a_proxy_set_from_the_environment(tmp_path, monkeypatch):
    """As the README sets it: FLASK_BEHIND_PROXY=1."""
    monkeypatch.setenv("FLASK_BEHIND_PROXY", "1")
    created = served(tmp_path).test_client().post(
        MATCHES, json={"game": "burro", "players": FOUR}, headers=FORWARDED).json
    assert created["url"].startswith("https://scores.example.org/m/")


# --- Trusted hosts --------------------------------------------------------------------------

def test_trusted_hosts_refuse_a_request_for_another_host(tmp_path, monkeypatch):
    """FLASK_TRUSTED_HOSTS, as the README sets it: another Host is a 400, nothing else."""
    monkeypatch.setenv("FLASK_TRUSTED_HOSTS", '["scores.example.org"]')
    client = served(tmp_path).test_client()
    assert client.get("/", headers={"Host": "scores.example.org"}).status_code == 200
    refused = client.get("/", headers=HOSTILE)
    assert refused.status_code == 400
    assert "evil.example" not in refused.get_data(as_text=True)
    assert client.get("/", headers={"Host": "scores..example.org"}).status_code == 400
    api = client.post(MATCHES, json={"game": "burro", "players": FOUR}, headers=HOSTILE)
    assert api.status_code == 400 and "url" not in api.json


# --- Malformed hosts ------------------------------------------------------------------------

MALFORMED = {
    "an empty label": "scores..example.org",
    "a label over 63 characters": "x" * 64 + ".example.org",
    "a name over 253 characters": ("a" * 60 + ".") * 5 + "org",
    "a space": "scores example.org",
    "an underscore": "scores_table.example.org",
    "a letter outside ASCII": "scörës.example.org",
    "a path": "scores.example.org/m",
    "a port over 65535": "scores.example.org:65536",
    "a port that is no number": "scores.example.org:http",
    "an empty port": "scores.example.org:",
    "an IPv6 address that is none": "[::g]:5000",
    "nothing": "",
}
MALFORMED_HOST = ("The address is malformed (its host name or port), so no link can be built "
                  "on it. Open the link the table shares; nothing was saved.")


@pytest.mark.parametrize("host", MALFORMED.values(), ids=MALFORMED.keys())
def test_a_malformed_host_is_refused_with_a_page_that_says_why(client, host):
    """No link can be built on it: the refusal's page links only by path."""
    match = start(client)
    for address in ("/", f"/m/{match['token']}", "/rules", "/no-such-page"):
        response = client.get(address, headers={"Host": host})
        assert response.status_code == 400, address
        page = parsed(response)
        assert page.select_one("p.error[role=alert]").get_text() == MALFORMED_HOST
        assert page.select_one("main a.button")["href"] == "/"
        assert "host.invalid" not in response.get_data(as_text=True)


def test_a_malformed_host_is_refused_in_german_too(client):
    response = client.get("/", headers={"Host": "scores..example.org", **GERMAN})
    assert response.status_code == 400
    assert parsed(response).select_one("p.error[role=alert]").get_text() == (
        "Die Adresse ist fehlerhaft (ihr Hostname oder Port), daher lässt sich kein Link "
        "darauf bauen. Öffne den Link, den der Tisch teilt; es wurde nichts gespeichert.")


def test_a_malformed_host_changes_nothing(client, app):
    """Neither a form nor the API saves anything it sent."""
    match = start(client)
    before = stored(app)
    bad = {"Host": "scores..example.org"}
    api = client.post(MATCHES, json={"game": "burro", "players": FOUR}, headers=bad)
    assert api.status_code == 400 and api.json == {"error": MALFORMED_HOST}
    hand = client.post(f"{MATCHES}/{match['token']}/hands", json={"burro": 1}, headers=bad)
    assert hand.status_code == 400
    form = client.post(f"/m/{match['token']}/hands", headers=bad, data={
        "csrf_token": form_token(client.get("/")), "version": "1", "burro": "1"})
    assert form.status_code == 400
    assert stored(app) == before


def test_a_malformed_host_asked_by_htmx_shows_its_message_in_place(client):
    response = client.get("/rules", headers={"Host": "scores..example.org", **HTMX})
    assert response.status_code == 400
    assert response.headers["HX-Retarget"] == "#flash"
    assert root(response).get_text() == MALFORMED_HOST


def test_behind_a_proxy_a_malformed_forwarded_host_is_refused(tmp_path):
    client = served(tmp_path, BEHIND_PROXY=1).test_client()
    response = client.get("/", headers={"X-Forwarded-Host": "scores..example.org"})
    assert response.status_code == 400
    assert parsed(response).select_one("p.error[role=alert]").get_text() == MALFORMED_HOST


@pytest.mark.parametrize("host", ["scores.example.org", "SCORES.Example.org:8443",
                                  "laptop.local.", "192.168.1.23:5000", "[::1]:5000",
                                  "[2001:db8::7]", "x" * 63 + ".example.org"])
def test_a_well_formed_host_is_served(client, host):
    """A name, an address, a port, a name ending in its root dot: the links follow it."""
    match = start(client)
    created = client.post(MATCHES, json={"game": "burro", "players": FOUR},
                          headers={"Host": host})
    assert created.status_code == 201
    assert created.json["url"] == f"http://{host.lower()}/m/{created.json['token']}"
    assert client.get(f"/m/{match['token']}", headers={"Host": host}).status_code == 200


# --- Cookies --------------------------------------------------------------------------------

def cookies_set(client, base_url: str) -> dict[str, str]:
    """Every cookie the app sets on a first visit, a form and a language switch, by name."""
    home = client.get("/", base_url=base_url)
    # Over HTTPS the CSRF check also wants the page's own address as Referer, as browsers send.
    language = client.post("/language", data={"lang": "de", "csrf_token": form_token(home)},
                           base_url=base_url, headers={"Referer": f"{base_url}/"})
    assert language.status_code == 303
    headers = home.headers.getlist("Set-Cookie") + language.headers.getlist("Set-Cookie")
    return {header.split("=", 1)[0]: header for header in headers}


def test_served_over_https_every_cookie_is_secure(tmp_path):
    """A cookie sent over plain HTTP could be read on the way: behind HTTPS none is."""
    cookies = cookies_set(served(tmp_path, BASE_URL=BASE_URL).test_client(), BASE_URL)
    assert {"session", "lang"} <= cookies.keys()
    assert all("; Secure" in cookie for cookie in cookies.values()), cookies
    # No script reads a cookie, so none is open to one.
    assert all("; HttpOnly" in cookie for cookie in cookies.values()), cookies


def test_served_over_http_cookies_still_work(tmp_path):
    """A laptop on the table's wifi speaks plain HTTP: a Secure cookie would never come back,
    and every form would fail its CSRF check."""
    cookies = cookies_set(served(tmp_path).test_client(), "http://192.0.2.7:5000")
    assert {"session", "lang"} <= cookies.keys()
    assert not any("; Secure" in cookie for cookie in cookies.values()), cookies


# --- Caching --------------------------------------------------------------------------------

def match_addresses(match: dict) -> list[str]:
    return [f"/m/{match['token']}", f"/v/{match['view_token']}",
            f"/m/{match['token']}/export.csv", f"{MATCHES}/{match['token']}",
            f"{MATCHES}/{match['view_token']}", f"{MATCHES}/{match['token']}/export"]


def test_match_pages_and_the_match_api_are_private_and_checked_each_time(client):
    """Whoever has a match's address holds its key: no shared cache keeps the answer."""
    match = start(client)
    for address in match_addresses(match):
        response = client.get(address)
        assert response.status_code == 200, address
        assert response.headers["Cache-Control"] == "private, no-cache", address
    created = client.post(MATCHES, json={"game": "burro", "players": FOUR})
    assert created.headers["Cache-Control"] == "private, no-cache"


def test_an_unchanged_match_answers_304_and_stays_private(client):
    """The API's ETag still spares the download."""
    match = start(client)
    first = client.get(f"{MATCHES}/{match['token']}")
    again = client.get(f"{MATCHES}/{match['token']}", headers={"If-None-Match": first.headers["ETag"]})
    assert again.status_code == 304
    assert again.headers["Cache-Control"] == "private, no-cache"


def test_the_news_keeps_no_store(client):
    match = start(client)
    for address in (f"/m/{match['token']}/news", f"/v/{match['view_token']}/news"):
        assert client.get(address).headers["Cache-Control"] == "no-store"


def test_the_home_page_with_this_phones_matches_is_private(client):
    """The home page lists the matches opened on this phone, each with its link."""
    match = start(client)
    client.get(f"/m/{match['token']}")
    home = client.get("/")
    assert parsed(home).select(f'a[href="/m/{match["token"]}"]')
    assert home.headers["Cache-Control"] == "private, no-cache"


def test_pages_without_a_match_leave_caching_alone(client):
    assert "Cache-Control" not in client.get("/rules").headers


@pytest.mark.parametrize("encoding", ["zstd", "gzip", "identity"])
def test_a_file_checked_each_time_answers_304_when_the_phone_has_it(client, encoding):
    """An address without its version (an old page's, the manifest) is checked on each use:
    the second look costs no download, compressed or not."""
    first = client.get("/static/app.css", headers={"Accept-Encoding": encoding})
    assert first.status_code == 200 and first.headers["ETag"]
    again = client.get("/static/app.css", headers={"Accept-Encoding": encoding,
                                                   "If-None-Match": first.headers["ETag"]})
    assert again.status_code == 304 and again.data == b""
    changed = client.get("/static/app.css", headers={"Accept-Encoding": encoding,
                                                     "If-None-Match": '"another"'})
    assert changed.status_code == 200 and changed.data


def test_pages_and_the_api_leave_the_date_header_to_the_server(client):
    """The server dates every answer: a second Date header from the app would contradict it."""
    match = start(client)
    for address in ("/rules", f"/m/{match['token']}", f"{MATCHES}/{match['token']}"):
        assert "Date" not in client.get(address, headers={"Accept-Encoding": "gzip"}).headers
