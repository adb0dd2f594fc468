"""Every phone reaches the table: `make run` serves every interface and prints the address
the phones open, with its QR code; a sheet opened on the laptop's own loopback address
hands out its network address, never one only the laptop can open, and says when the
table cannot open it."""

import io
import os
import shlex
import socket
import subprocess
import sys
import types

import pytest
import segno
from bs4 import BeautifulSoup
from helpers import GERMAN, MATCHES, ROOT, dark_modules, parsed, qr_of, start

from app import create_app
from views import reach

ONLY_THIS_MACHINE = ("Only this computer can open these links: serve the table with "
                     "make run HOST=0.0.0.0.")
NO_NETWORK = "This computer is on no network: join the table's wifi to share the match."


# --- The machine's address on its network ---------------------------------------------------

def network(monkeypatch, routed: str | None, host_addresses=(), resolvable: bool = True):
    """This machine, as far as ``reach`` can tell: the address a UDP socket "connected" to a
    private address gets (None: no route there), and the host name's addresses."""
    class UDP:
        def __init__(self, *args):
            pass

        def __enter__(self):
            return self

        def __exit__(self, *exc):
            return False

        def connect(self, target):
            if routed is None:
                raise OSError(101, "Network is unreachable")

        def getsockname(self):
            return (routed, 40000)

    def getaddrinfo(host, port, family):
        if not resolvable:
            raise socket.gaierror(-2, "Name or service not known")
        return [(family, socket.SOCK_DGRAM, 17, "", (address, 0)) for address in host_addresses]

    monkeypatch.setattr(reach, "socket", types.SimpleNamespace(
        AF_INET=socket.AF_INET, SOCK_DGRAM=socket.SOCK_DGRAM, socket=UDP,
        gethostname=lambda: "laptop", getaddrinfo=getaddrinfo))


@pytest.mark.parametrize("routed, host_addresses, resolvable, found", [
    ("192.168.1.23", ["127.0.1.1"], True, "192.168.1.23"),
    ("10.0.0.7", [], False, "10.0.0.7"),
    # No route to any private network: the host name's own addresses, loopback ones left out.
    (None, ["127.0.1.1", "192.168.1.23"], True, "192.168.1.23"),
    (None, ["127.0.0.1", "127.0.1.1"], True, None),
    (None, ["169.254.10.3"], True, None),
    (None, [], False, None),
    # A system that routes through its loopback interface still names no loopback address.
    ("127.0.0.1", ["127.0.1.1", "172.16.4.2"], True, "172.16.4.2"),
])
def test_the_address_is_the_network_one_and_never_a_loopback_one(monkeypatch, routed,
                                                                 host_addresses, resolvable,
                                                                 found):
    network(monkeypatch, routed, host_addresses, resolvable)
    assert reach.table_address() == found


def test_the_address_of_the_machine_running_the_tests_is_no_loopback_one():
    address = reach.table_address()
    assert address is None or not reach.only_this_machine(address)


@pytest.mark.parametrize("host, only_here", [
    ("127.0.0.1", True), ("127.0.1.1", True), ("localhost", True), ("LOCALHOST.", True),
    ("app.localhost", True), ("::1", True), ("[::1]", True), ("::ffff:127.0.0.1", True),
    ("0.0.0.0", True), ("192.168.1.23", False), ("laptop.local", False),
    ("scores.example.org", False), ("", False),
])
def test_loopback_addresses_open_only_on_this_machine(host, only_here):
    assert reach.only_this_machine(host) is only_here


def test_a_server_answers_where_it_listens_and_nowhere_else():
    with socket.create_server(("127.0.0.1", 0)) as server:
        port = server.getsockname()[1]
        assert reach.answers("127.0.0.1", port)
    assert not reach.answers("127.0.0.1", port)


# --- What `make run` serves and prints --------------------------------------------------------

def make_run(*overrides: str) -> list[list[str]]:
    """The commands `make run` runs (as `make -n` prints them), with no HOST or PORT from the
    environment or a calling make."""
    environment = {name: value for name, value in os.environ.items()
                   if name not in ("HOST", "PORT", "MAKEFLAGS", "MFLAGS", "MAKELEVEL")}
    printed = subprocess.run(["make", "--no-print-directory", "-n", "run", *overrides],
                             cwd=ROOT, env=environment, capture_output=True, text=True,
                             check=True).stdout
    return [shlex.split(line) for line in printed.splitlines()]


@pytest.mark.parametrize("overrides, bind", [
    ((), "0.0.0.0:5000"),
    (("HOST=127.0.0.1",), "127.0.0.1:5000"),
    (("PORT=8080",), "0.0.0.0:8080"),
])
def test_make_run_serves_the_tables_wifi_unless_told_to_keep_it_local(overrides, bind):
    """The banner comes first, for the same host and port gunicorn then binds."""
    commands = make_run(*overrides)
    [serving] = [command for command in commands if "--bind" in command]
    assert serving[serving.index("--bind") + 1] == bind
    [banner] = [command for command in commands if command[1:3] == ["-m", "views.reach"]]
    assert commands.index(banner) < commands.index(serving)
    assert ":".join(banner[3:]) == bind


def terminal_qr(url: str) -> str:
    code = io.StringIO()
    segno.make(url).terminal(out=code, compact=True)
    return code.getvalue()


def test_the_banner_names_the_address_the_phones_open_with_its_qr_code(monkeypatch, capsys):
    monkeypatch.setattr(reach, "table_address", lambda: "192.168.1.23")
    reach.main(["0.0.0.0", "5000"])
    printed = capsys.readouterr().out
    assert printed.splitlines()[0] == \
        "Open http://192.168.1.23:5000/ on the phones at the table, or scan:"
    assert terminal_qr("http://192.168.1.23:5000/") in printed


def test_the_banner_on_a_named_host_shows_that_host(capsys):
    reach.main(["laptop.local", "8080"])
    printed = capsys.readouterr().out
    assert "Open http://laptop.local:8080/ on the phones" in printed
    assert terminal_qr("http://laptop.local:8080/") in printed


def test_the_banner_on_no_network_names_no_address(monkeypatch, capsys):
    monkeypatch.setattr(reach, "table_address", lambda: None)
    reach.main(["0.0.0.0", "5000"])
    assert capsys.readouterr().out == ("This machine is on no network, so no phone can reach "
                                       "it: join the table's wifi and start again for the "
                                       "address to open.\n")


@pytest.mark.parametrize("host, url", [("127.0.0.1", "http://127.0.0.1:5000/"),
                                       ("localhost", "http://localhost:5000/"),
                                       ("::1", "http://[::1]:5000/")])
def test_the_banner_on_loopback_says_only_this_machine_and_how_to_serve_the_table(host, url):
    """Run as the Makefile runs it; a QR code of a loopback address would be a dead link."""
    printed = subprocess.run([sys.executable, "-m", "views.reach", host, "5000"], cwd=ROOT,
                             capture_output=True, text=True, check=True).stdout
    assert printed == (f"Serving {url} to this machine only: no other phone can open it.\n"
                       "To serve the table's wifi: make run HOST=0.0.0.0\n")


# --- The share box on the laptop -----------------------------------------------------------

def share_box(client, path: str, headers: dict) -> BeautifulSoup:
    return parsed(client.get(path, headers=headers)).find("details", class_="share")


def links_in(box: BeautifulSoup) -> dict[str, str]:
    """The links the share box hands out, by the id of their field."""
    return {field["id"]: field["value"] for field in box.select(".share-link input")}


def qr_link(client, path: str, headers: dict) -> set[tuple[int, int]]:
    response = client.get(path, headers=headers)
    assert response.status_code == 200
    return dark_modules(response.data)


LOOPBACK = ["127.0.0.1:5000", "localhost:5000", "[::1]:5000"]


@pytest.mark.parametrize("host", LOOPBACK)
def test_a_sheet_opened_on_loopback_hands_out_the_wifi_address(client, table_wifi, host):
    """Same port and path, on the address the other phones reach; both QR codes alike."""
    match, on_host = start(client), {"Host": host}
    wifi = f"http://{table_wifi}:5000"
    expected = {"share-edit": f"{wifi}/m/{match['token']}",
                "share-view": f"{wifi}/v/{match['view_token']}"}
    box = share_box(client, f"/m/{match['token']}", on_host)
    assert links_in(box) == expected
    assert qr_link(client, f"/m/{match['token']}/qr.svg", on_host) == \
        qr_of(expected["share-edit"])
    assert qr_link(client, f"/v/{match['view_token']}/qr.svg", on_host) == \
        qr_of(expected["share-view"])
    watched = share_box(client, f"/v/{match['view_token']}", on_host)
    assert links_in(watched) == {"share-view": expected["share-view"]}


@pytest.mark.parametrize("host", LOOPBACK)
@pytest.mark.parametrize("headers, hint", [({}, ONLY_THIS_MACHINE), (GERMAN, (
    "Nur dieser Computer kann diese Links öffnen: Für den ganzen Tisch starte mit "
    "make run HOST=0.0.0.0."))])
def test_served_on_loopback_only_the_share_box_says_how_to_serve_the_table(
        client, table_wifi, host, headers, hint):
    match = start(client)
    box = share_box(client, f"/m/{match['token']}", {"Host": host, **headers})
    note = box.find(class_="share-reach")
    assert note.get_text() == hint
    assert note.code.get_text() == "make run HOST=0.0.0.0"


def test_served_on_the_wifi_too_the_share_box_gives_no_hint(client, table_wifi, monkeypatch):
    """A server bound to every interface answers at the machine's network address."""
    monkeypatch.setattr(reach, "answers", lambda address, port, timeout=0.2:
                        (address, port) == (table_wifi, 5000))
    match = start(client)
    box = share_box(client, f"/m/{match['token']}", {"Host": "127.0.0.1:5000"})
    assert box.find(class_="share-reach") is None
    assert links_in(box)["share-edit"] == f"http://{table_wifi}:5000/m/{match['token']}"


def test_on_no_network_the_share_box_hands_out_no_link(client, monkeypatch):
    monkeypatch.setattr(reach, "table_address", lambda: None)
    match = start(client)
    box = share_box(client, f"/m/{match['token']}", {"Host": "127.0.0.1:5000"})
    assert box.find(class_="share-reach").get_text() == NO_NETWORK
    assert links_in(box) == {} and box.find("img") is None
    for qr_path in (f"/m/{match['token']}/qr.svg", f"/v/{match['view_token']}/qr.svg"):
        response = client.get(qr_path, headers={"Host": "127.0.0.1:5000"})
        assert response.status_code == 404


@pytest.mark.parametrize("host", LOOPBACK)
def test_base_url_still_names_every_link_on_loopback(tmp_path, table_wifi, host):
    client = create_app({"TESTING": True, "DATABASE": str(tmp_path / "tablemate.sqlite"),
                         "SECRET_KEY": "test",
                         "BASE_URL": "https://scores.example.org"}).test_client()
    match, on_host = start(client), {"Host": host}
    box = share_box(client, f"/m/{match['token']}", on_host)
    assert links_in(box) == {"share-edit": f"https://scores.example.org/m/{match['token']}",
                             "share-view": f"https://scores.example.org/v/{match['view_token']}"}
    assert box.find(class_="share-reach") is None
    assert qr_link(client, f"/m/{match['token']}/qr.svg", on_host) == \
        qr_of(f"https://scores.example.org/m/{match['token']}")


@pytest.mark.parametrize("host", ["laptop.local:5000", "192.168.1.40:8080",
                                  "scores.example.org"])
def test_a_sheet_opened_on_a_real_host_keeps_it(client, table_wifi, host):
    match, on_host = start(client), {"Host": host}
    box = share_box(client, f"/m/{match['token']}", on_host)
    assert links_in(box) == {"share-edit": f"http://{host}/m/{match['token']}",
                             "share-view": f"http://{host}/v/{match['view_token']}"}
    assert box.find(class_="share-reach") is None
    assert qr_link(client, f"/v/{match['view_token']}/qr.svg", on_host) == \
        qr_of(f"http://{host}/v/{match['view_token']}")



@pytest.mark.parametrize("host", LOOPBACK)
def test_the_api_names_the_address_it_was_asked_on(client, table_wifi, host):
    """A script on the laptop follows the links it gets back, even from a server that
    listens on 127.0.0.1 alone; handing them to the table is the share box's job."""
    created = client.post(MATCHES, json={"game": "burro", "players": ["A", "B"]},
                          headers={"Host": host}).json
    assert created["url"] == f"http://{host}/m/{created['token']}"
