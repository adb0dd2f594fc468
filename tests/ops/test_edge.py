"""What a phone meets at the edge of the server `make run` starts (worker.py): a request
that stalls halfway is dropped, a body refused for its size ends its connection and the
answer says so, a body that cannot be read is a 400 that stores nothing, and no answer
names the software behind it."""

import http.client
import io
import json
import socket
import time

import pytest
from helpers import api_over_http

from benchmarks.serve import TABLEMATE, served

# Well inside the worker timeout: a connection the server means to close is closed within
# this after its own timeout, and an answer due at once comes within it.
PROMPT = 5.0
# The stall timeout and keepalive of the server here, cut so that a test of them is short.
QUICK = 1
HAND = b'{"burro": 0}'
UNREADABLE = "The request could not be read; nothing was saved."


@pytest.fixture(scope="module")
def port(tmp_path_factory):
    """The app under the exact command of `make run`, its stall timeout and keepalive cut
    to ``QUICK``; its port once it answers."""
    with pytest.MonkeyPatch.context() as patch:
        patch.setenv("FLASK_STALL_TIMEOUT", str(QUICK))
        with served(TABLEMATE, tmp_path_factory.mktemp("edge") / "tablemate.sqlite",
                    options=("--keep-alive", str(QUICK))) as address:
            yield int(address.rsplit(":", 1)[1])


def api(port: int, method: str, path: str, body=None) -> dict:
    return api_over_http(port, method, path, body, timeout=PROMPT)


@pytest.fixture
def hands(port) -> str:
    """The address a new match takes its hands at."""
    match = api(port, "POST", "/api/v1/matches", {"game": "burro", "players": ["A", "B"]})
    return f"/api/v1/matches/{match['token']}/hands"


def sent(port: int, head: str, body: bytes = b"", *, done_sending: bool = False
         ) -> socket.socket:
    """A connection that has sent ``head`` (the request line and headers, a line each) and
    ``body``; then, if ``done_sending``, nothing more (its sending side shut)."""
    connection = socket.create_connection(("127.0.0.1", port))
    connection.sendall(head.replace("\n", "\r\n").encode() + body)
    if done_sending:
        connection.shutdown(socket.SHUT_WR)
    return connection


def until_closed(connection: socket.socket, deadline: float) -> bytes:
    """Everything the server sends until it closes the connection, which it does before
    ``deadline``: an end, not a reset, so nothing it sent is lost."""
    received = b""
    with connection:
        while True:
            connection.settimeout(max(deadline - time.monotonic(), 0.01))
            try:
                chunk = connection.recv(65536)
            except TimeoutError:
                raise AssertionError(f"still open, after {received[:60]!r}") from None
            if not chunk:
                return received
            received += chunk


class Recorded:
    """Bytes received, as a socket ``http.client`` reads an answer from."""

    def __init__(self, received: bytes):
        self.file = io.BytesIO(received)

    def makefile(self, _mode):
        return self.file


def answer(received: bytes) -> http.client.HTTPResponse:
    """The one answer in ``received``, read as a client reads it."""
    response = http.client.HTTPResponse(Recorded(received))
    response.begin()
    return response


def head_of(connection: socket.socket) -> http.client.HTTPMessage:
    """The headers of the answer the connection receives, whether or not its body ends."""
    received = b""
    connection.settimeout(PROMPT)
    with connection:
        while b"\r\n\r\n" not in received:
            chunk = connection.recv(65536)
            assert chunk, f"the connection ended after {received!r}"
            received += chunk
    return answer(received.split(b"\r\n\r\n")[0] + b"\r\n\r\n").headers


def getting(path: str) -> str:
    """The head of a GET of ``path``."""
    return f"GET {path} HTTP/1.1\nHost: 127.0.0.1\n\n"


def posting(path: str, *headers: str) -> str:
    """The head of a POST of JSON to ``path``, with ``headers`` besides."""
    return "\n".join((f"POST {path} HTTP/1.1", "Host: 127.0.0.1",
                      "Content-Type: application/json", *headers, "", ""))


# --- A request that stalls halfway ----------------------------------------------------------

@pytest.mark.parametrize("framing, body", [
    (f"Content-Length: {len(HAND)}\nUser-Agent: half", None),
    (f"Content-Length: {len(HAND)}", HAND[:5]),
    ("Transfer-Encoding: chunked", b"c\r\n" + HAND[:5]),
], ids=["in its headers", "in a body of known length", "in a chunked body"])
def test_a_request_that_stalls_halfway_is_dropped_after_its_timeout(port, hands, framing,
                                                                    body):
    """A phone that stops sending (a lost wifi, or slowloris) holds a connection only so
    long: its headers get the keepalive, its body the stall timeout. A stalled body is
    answered 400 (the request could not be read), and nothing of it is stored."""
    head = posting(hands, framing)
    stalled = sent(port, head.removesuffix("\n\n") if body is None else head, body or b"")
    received = until_closed(stalled, time.monotonic() + QUICK + PROMPT)
    if body is not None:
        assert answer(received).status == 400
        assert answer(received).getheader("Connection") == "close"
    assert api(port, "GET", hands.removesuffix("/hands"))["hands"] == []


# --- A body too large -----------------------------------------------------------------------

TOO_LARGE = 100 * 1024  # over the app's MAX_CONTENT_LENGTH


@pytest.mark.parametrize("sent_of_it", [0, 1000, TOO_LARGE],
                         ids=["none of it", "some of it", "all of it"])
def test_a_body_too_large_is_refused_and_its_connection_closed_as_the_answer_says(
        port, hands, sent_of_it):
    """The server does not wait for a body it will not read, so it cannot take another
    request on that connection: it answers 413 with "Connection: close", and closes. A
    phone that sends the whole body first still reads the whole answer (an end, not a
    reset)."""
    phone = sent(port, posting(hands, f"Content-Length: {TOO_LARGE}"), b" " * sent_of_it)
    refused = answer(until_closed(phone, time.monotonic() + PROMPT))
    assert refused.status == 413
    assert refused.getheader("Connection") == "close"
    assert json.loads(refused.read())["error"] == (
        "That is more than 64 KB, the most one request may send here; nothing was saved.")


# --- A body that cannot be read -------------------------------------------------------------

@pytest.mark.parametrize("chunks, done_sending", [
    (b"zz\r\n" + HAND + b"\r\n0\r\n\r\n", False),
    (b"-c\r\n" + HAND + b"\r\n0\r\n\r\n", False),
    (b"c;=x\r\n" + HAND + b"\r\n0\r\n\r\n", False),
    (b"5\r\n" + HAND + b"\r\n0\r\n\r\n", False),
    (b"40\r\n" + HAND, True),
    (b"c\r\n" + HAND + b"\r\n", True),
], ids=["a size that is no number", "a negative size", "a malformed extension",
        "a chunk longer than its size", "a chunk cut short", "no last chunk"])
def test_a_malformed_chunked_body_is_a_bad_request_that_stores_nothing(
        port, hands, chunks, done_sending):
    """The phone's fault, not the server's: 400, the connection closed as the answer says
    (where a next request would start is unknown), and no hand stored."""
    phone = sent(port, posting(hands, "Transfer-Encoding: chunked"), chunks,
                 done_sending=done_sending)
    refused = answer(until_closed(phone, time.monotonic() + PROMPT))
    assert refused.status == 400
    assert refused.getheader("Connection") == "close"
    assert json.loads(refused.read())["error"] == UNREADABLE
    assert api(port, "GET", hands.removesuffix("/hands"))["hands"] == []


def test_a_well_formed_chunked_body_is_stored(port, hands):
    """The other side of the refusals above: chunks are fine when they are whole."""
    phone = sent(port, posting(hands, "Transfer-Encoding: chunked", "Connection: close"),
                 b"5\r\n" + HAND[:5] + b"\r\n7\r\n" + HAND[5:] + b"\r\n0\r\n\r\n")
    assert answer(until_closed(phone, time.monotonic() + PROMPT)).status == 201
    assert len(api(port, "GET", hands.removesuffix("/hands"))["hands"]) == 1


# --- The Server header ----------------------------------------------------------------------

def test_no_answer_names_the_software_that_serves_it(port, hands):
    """Nothing for a scanner to look up: no Server header names a product or a version, on
    pages, API answers, errors and the streams of news."""
    sheet = hands.removeprefix("/api/v1/matches").removesuffix("/hands")
    requests = {
        "the start page": (getting("/"), b""),
        "a sheet": (getting(f"/m{sheet}"), b""),
        "an API answer": (getting(hands.removesuffix("/hands")), b""),
        "a page not found": (getting("/no-such-page"), b""),
        "an API refusal": (posting(hands, "Content-Length: 2"), b"[]"),
        "a body too large": (posting(hands, f"Content-Length: {TOO_LARGE}"), b""),
        "a malformed body": (posting(hands, "Transfer-Encoding: chunked"), b"zz\r\n"),
        "a request gunicorn cannot read": ("GET / HTTP/9.9\nHost: 127.0.0.1\n\n", b""),
        "a stream of news": (getting(f"/m{sheet}/events"), b""),
    }
    for what, (head, body) in requests.items():
        named = [value for value in head_of(sent(port, head, body)).get_all("Server", [])
                 if value.strip()]
        assert named == [], what
