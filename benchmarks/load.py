"""The load generator of `make bench`: phones on loopback, each keeping the cookies the
server gives it, either asking again as soon as answered (closed loop, for throughput) or
on a timetable (the table-night scenario, for latency). Every run ends by itself."""

import asyncio
import gc
import gzip
import random
import re
import statistics
import time
import zlib
from collections import Counter
from collections.abc import AsyncIterator, Awaitable, Callable
from contextlib import asynccontextmanager
from dataclasses import dataclass, field

import aiohttp
import brotli
from backports import zstd

# Below gunicorn's keepalive (5 s): a connection is never reused just as the server drops it.
KEEPALIVE = 4
TIMEOUT = 30
# The sheet's own poll address, in the fragment a poll answers with: the version to ask
# about next.
POLL_VERSION = re.compile(rb'data-poll="[^"]*/since/(\d+)"')
# The panel's sides in that fragment, which the sheet names when it asks again.
HELD_SIDES = re.compile(rb'data-sides="([0-9a-f]+)"')
# The sheet's poll is an htmx request: its answer is the sheet, not a whole page.
AS_THE_SHEET_ASKS = {"HX-Request": "true"}
# How an answer is unpacked, by the encoding the server chose among those the phones accept
# (aiohttp's: gzip, deflate, br, zstd, as a browser's).
UNPACK = {"zstd": zstd.decompress, "br": brotli.decompress, "gzip": gzip.decompress,
          "deflate": zlib.decompress}


@dataclass
class Run:
    """What one run measured: each answer's status and how long it took."""
    seconds: float
    latencies: list[float] = field(default_factory=list)
    statuses: Counter = field(default_factory=Counter)
    first_bodies: dict[int, bytes] = field(default_factory=dict)  # to show why, by status
    # How late the load generator's own timers woke (table night): its share of the times.
    own_delays: list[float] = field(default_factory=list)

    def record(self, status: int, latency: float, body: bytes = b"") -> None:
        self.statuses[status] += 1
        self.latencies.append(latency)
        self.first_bodies.setdefault(status, body)

    @property
    def per_second(self) -> float:
        return len(self.latencies) / self.seconds

    def percentile(self, share: int) -> float:
        """The latency below which ``share`` per cent of the answers came, in ms."""
        return percentile(self.latencies, share)

    def own_delay(self, share: int) -> float:
        """How late the load generator woke for its own timers, at percentile ``share``,
        in ms: a request's time counts from when it was due, so this much of it may be the
        generator's, busy or waiting for a core, not the server's."""
        return percentile(self.own_delays, share)

    @classmethod
    def joined(cls, runs: list["Run"]) -> "Run":
        """The runs taken as one: their seconds, answers and delays together."""
        whole = cls(sum(run.seconds for run in runs))
        for run in runs:
            whole.latencies += run.latencies
            whole.statuses += run.statuses
            whole.own_delays += run.own_delays
            for status, body in run.first_bodies.items():
                whole.first_bodies.setdefault(status, body)
        return whole

    def other_than(self, *expected: int) -> Counter:
        """The answers of another status than expected (0: no answer at all)."""
        return Counter({status: count for status, count in self.statuses.items()
                        if status not in expected})


def percentile(values: list[float], share: int) -> float:
    """The value below which ``share`` per cent of ``values`` (seconds) lie, in ms."""
    if len(values) < 2:
        return values[0] * 1000 if values else float("nan")
    return statistics.quantiles(values, n=100, method="inclusive")[share - 1] * 1000


class Phone:
    """One client: its own cookies (session, device, language), as a phone keeps them."""

    def __init__(self, session: aiohttp.ClientSession):
        self.session = session
        self.cookies: dict[str, str] = {}

    async def send(self, method: str, url: str, reads: bool = False,
                   **kwargs) -> tuple[int, bytes]:
        """The status and body of one request; status 0 when no answer came. The body is
        unpacked when the caller ``reads`` it; otherwise it stays as it came. (Only
        successful answers come packed: an error's reason can be read as it is.)"""
        headers = dict(kwargs.pop("headers", {}))
        if self.cookies:
            headers["Cookie"] = "; ".join(f"{name}={value}"
                                          for name, value in self.cookies.items())
        try:
            async with self.session.request(method, url, headers=headers,
                                            **kwargs) as response:
                body = await response.read()
                if reads:
                    body = unpacked(body, response.headers.get("Content-Encoding"))
                self.cookies.update((name, morsel.value)
                                    for name, morsel in response.cookies.items())
                return response.status, body
        except (aiohttp.ClientError, asyncio.TimeoutError):
            return 0, b""


def unpacked(body: bytes, encoding: str | None) -> bytes:
    """``body`` as it was before the server compressed it with ``encoding`` (None: as is)."""
    unpack = UNPACK.get(encoding)
    return unpack(body) if unpack else body


def session(connections: int) -> aiohttp.ClientSession:
    """Up to ``connections`` kept-alive connections; cookies are each phone's own. Answers
    are not unpacked as they come: a phone unpacks a page on its own processor, and the
    generator doing it for every page took the server's cores from it (up to a fifth of
    the sheet page's answers a second in alternating runs, nothing measurable in some)."""
    return aiohttp.ClientSession(
        connector=aiohttp.TCPConnector(limit=connections, keepalive_timeout=KEEPALIVE),
        cookie_jar=aiohttp.DummyCookieJar(), auto_decompress=False,
        timeout=aiohttp.ClientTimeout(total=TIMEOUT))


@asynccontextmanager
async def without_collector_pauses() -> AsyncIterator[None]:
    """The generator's own garbage collector held off while it measures: a full collection
    over its thousands of phones stopped every timer for 90-200 ms, which the requests due
    meanwhile counted as the server's time. A run of seconds leaves little garbage."""
    gc.collect()
    gc.freeze()
    gc.disable()
    try:
        yield
    finally:
        gc.enable()
        gc.unfreeze()


Answer = Awaitable[tuple[int, bytes]]  # a request's status and body, once answered
Ask = Callable[[Phone, int], Answer]


async def closed_loop(ask: Ask, connections: int, seconds: float, warmup: float) -> Run:
    """``connections`` phones, each asking again as soon as answered, for ``seconds`` after
    ``warmup`` seconds that are not counted. ``ask(phone, index)`` sends one request and
    returns its status and body."""
    run = Run(seconds)
    async with session(connections) as client, without_collector_pauses():
        phones = [Phone(client) for _ in range(connections)]
        # Each phone's first answer (its cookies, a worker's first use of a template) is
        # not what a table waits for: the clock starts once every phone has had one.
        await asyncio.gather(*(ask(phone, index) for index, phone in enumerate(phones)))
        start = time.perf_counter() + warmup
        end = start + seconds

        async def phone_asking(index: int, phone: Phone) -> None:
            # A window too short for the slowest page is stretched to its first answer.
            while (sent := time.perf_counter()) < end or not run.latencies:
                status, body = await ask(phone, index)
                answered = time.perf_counter()
                # Throughput is answers per second of the window, whenever they were asked.
                if start <= answered <= end or (answered > end and not run.latencies):
                    run.record(status, answered - sent, body)
                    run.seconds = max(run.seconds, answered - start)

        await asyncio.gather(*(phone_asking(index, phone) for index, phone in enumerate(phones)))
    return run


@dataclass
class Table:
    """A match at the table-night: its link, the version its phones last saw, the hand its
    scorer enters, and the panel's sides its phones show."""
    base: str
    token: str
    version: int
    hand: dict
    sides: str


async def table_night(tables: list[Table], seconds: float, poll_every: float,
                      hand_every: float, phones_per_table: int = 4,
                      connections: int = 256) -> Run:
    """Every table's phones ask for news every ``poll_every`` seconds (as the sheet does)
    and one phone enters a hand every ``hand_every`` seconds, for ``seconds``, each at a
    random moment of its period. Latency counts from the moment a request was due, so a
    server falling behind shows in it; a request due but not sent by the end, because the
    phone still waited for its last answer, counts as no answer (status 0). The run also
    holds how late the generator's own timers woke (``own_delays``)."""
    run = Run(seconds)
    async with session(connections) as client, without_collector_pauses():
        start = time.perf_counter()
        end = start + seconds

        async def on_time(every: float, request: Callable[[], Answer]) -> None:
            due = start + random.uniform(0, every)
            while due < end:
                if time.perf_counter() >= end:
                    run.record(0, end - due)
                else:
                    await asyncio.sleep(max(0.0, due - time.perf_counter()))
                    status, body = await request()
                    run.record(status, time.perf_counter() - due, body)
                due += every

        def watching(table: Table, phone: Phone):
            seen, sides = table.version, table.sides

            async def poll() -> tuple[int, bytes]:
                nonlocal seen, sides
                held = f"?sides={sides}" if sides else ""
                status, body = await phone.send(
                    "GET", f"{table.base}/m/{table.token}/since/{seen}{held}",
                    reads=True, headers=AS_THE_SHEET_ASKS)
                if status == 200:
                    seen = int(POLL_VERSION.search(body)[1])
                    shown = HELD_SIDES.search(body)
                    sides = shown[1].decode() if shown else sides
                return status, body
            return poll

        def scoring(table: Table, phone: Phone):
            def enter_hand() -> Answer:
                return phone.send("POST", f"{table.base}/api/v1/matches/{table.token}/hands",
                                  json=table.hand)
            return enter_hand

        async def own_delays(every: float = 0.01) -> None:
            while (asleep := time.perf_counter()) < end:
                await asyncio.sleep(every)
                run.own_delays.append(max(0.0, time.perf_counter() - asleep - every))

        chores = [own_delays()]
        for table in tables:
            phones = [Phone(client) for _ in range(phones_per_table)]
            chores += [on_time(poll_every, watching(table, phone)) for phone in phones]
            chores.append(on_time(hand_every, scoring(table, phones[0])))
        await asyncio.gather(*chores)
    return run
