"""The load generator of `make bench` for throughput: phones on loopback, each keeping the
cookies the server gives it and asking again as soon as answered (a closed loop). Every run
ends by itself."""

import asyncio
import gc
import statistics
import time
from collections import Counter
from collections.abc import AsyncIterator, Awaitable, Callable
from contextlib import asynccontextmanager
from dataclasses import dataclass, field

import aiohttp

# Below gunicorn's keepalive (5 s): a connection is never reused just as the server drops it.
KEEPALIVE = 4
TIMEOUT = 30


@dataclass
class Run:
    """What one run measured: each answer's status and how long it took."""
    seconds: float
    latencies: list[float] = field(default_factory=list)
    statuses: Counter = field(default_factory=Counter)
    first_bodies: dict[int, bytes] = field(default_factory=dict)  # to show why, by status

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

    @classmethod
    def joined(cls, runs: list["Run"]) -> "Run":
        """The runs taken as one: their seconds and answers together."""
        whole = cls(sum(run.seconds for run in runs))
        for run in runs:
            whole.latencies += run.latencies
            whole.statuses += run.statuses
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

    async def send(self, method: str, url: str, **kwargs) -> tuple[int, bytes]:
        """The status and body of one request (as it came, packed or not, unless asked with
        ``auto_decompress=True``); status 0 when no answer came."""
        headers = dict(kwargs.pop("headers", {}))
        if self.cookies:
            headers["Cookie"] = "; ".join(f"{name}={value}"
                                          for name, value in self.cookies.items())
        try:
            async with self.session.request(method, url, headers=headers,
                                            **kwargs) as response:
                body = await response.read()
                self.cookies.update((name, morsel.value)
                                    for name, morsel in response.cookies.items())
                return response.status, body
        except (TimeoutError, aiohttp.ClientError):
            return 0, b""


def session(connections: int) -> aiohttp.ClientSession:
    """Up to ``connections`` kept-alive connections; cookies are each phone's own. Answers
    stay packed: a phone unpacks a page on its own processor, not on the server's cores."""
    return aiohttp.ClientSession(
        connector=aiohttp.TCPConnector(limit=connections, keepalive_timeout=KEEPALIVE),
        cookie_jar=aiohttp.DummyCookieJar(), auto_decompress=False,
        timeout=aiohttp.ClientTimeout(total=TIMEOUT))


@asynccontextmanager
async def without_collector_pauses() -> AsyncIterator[None]:
    """The generator's own garbage collector held off while it measures: a full collection
    over thousands of phones stops every timer, and the requests due meanwhile would count
    that pause as the server's time."""
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
