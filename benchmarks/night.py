"""The night with push, as `make bench` measures it: tables of four phones, each phone
holding its sheet's stream of news (Server-Sent Events), and one phone of each table saving
a hand every so often, the tables' turns spread evenly in time. A step is so many tables for
so long: how long each save took to answer, how long from sending it until each of the
table's other three phones heard the new version, which requests failed and which streams
dropped."""

import asyncio
import re
import time
from collections import Counter
from dataclasses import dataclass, field
from typing import Self

import aiohttp

from benchmarks import load

PHONES = 4  # at a table, each with its stream; the first one saves the hands
# A loopback source address for this many tables: 4,000 streams, far fewer than its ports.
TABLES_AN_ADDRESS = 1000
OPENING_AT_ONCE = 100  # streams being opened together, well within the server's listen queue
OPEN_WITHIN = 30.0  # seconds for a stream's first line, else its opening failed
NEWS_WITHIN = 10.0  # seconds from a save: news not heard by then is lost
# A stream silent this long has dropped: the server says "still here" every 20 s.
SILENT_FOR = 50.0
SAVING_CONNECTIONS = 64
SAVE_P99, NEWS_P99 = 100.0, 500.0  # ms, for a step to hold
EVENT_ID = re.compile(rb"id: (\d+)\.")
VERSION_TAG = re.compile(r'W/"v(\d+)"')


class Heard:
    """What one stream received, read as Server-Sent Events: when the event of each version
    came, how many keep-alive comments, and the bytes of everything else."""

    def __init__(self) -> None:
        self.connected = asyncio.Event()  # its first line (the retry time) came
        self.events = 0
        self.comments = 0
        self.other_bytes = 0
        self._pending = bytearray()
        self._arrivals: dict[int, float] = {}
        self._waiting: list[tuple[int, asyncio.Future]] = []

    def feed(self, chunk: bytes, at: float) -> None:
        """A piece of the stream, received at ``at``; events may end in a later piece."""
        pending = self._pending
        pending += chunk
        start = 0
        while (end := pending.find(b"\n\n", start)) >= 0:
            self._block(pending, start, end + 2, at)
            start = end + 2
        del pending[:start]

    def _block(self, pending: bytearray, start: int, end: int, at: float) -> None:
        if pending.startswith(b":", start):
            self.comments += 1
            return
        self.other_bytes += end - start
        if pending.startswith(b"retry:", start):
            self.connected.set()
        elif found := EVENT_ID.match(pending, start):
            self.events += 1
            version = int(found[1])
            self._arrivals.setdefault(version, at)
            waiting = []
            for wanted, future in self._waiting:
                if wanted > version:
                    waiting.append((wanted, future))
                elif not future.done():
                    future.set_result(at)
            self._waiting = waiting

    def heard(self, version: int) -> asyncio.Future:
        """When the first event of ``version`` or a later one came, once it has."""
        future = asyncio.get_running_loop().create_future()
        came = [at for heard, at in self._arrivals.items() if heard >= version]
        if came:
            future.set_result(min(came))
        else:
            self._waiting.append((version, future))
        return future


@dataclass
class Step:
    """One step of the night: ``tables`` tables for ``seconds``, and what they met."""
    tables: int
    seconds: float
    saves: load.Run
    streams: int = 0  # open at its end
    events: int = 0  # heard by the streams
    news: list[float] = field(default_factory=list)  # from a save sent to another phone's event
    news_lost: int = 0
    late: list[float] = field(default_factory=list)  # how late the generator sent each save
    failed: Counter = field(default_factory=Counter)  # requests, by what went wrong
    dropped: Counter = field(default_factory=Counter)  # streams, by how

    def held(self) -> bool:
        """Every request answered, every stream kept, saves and their news on time."""
        return (not self.failed and not self.dropped and not self.news_lost
                and self.saves.percentile(99) <= SAVE_P99
                and load.percentile(self.news, 99) <= NEWS_P99)


@dataclass(frozen=True)
class Quiet:
    """A while without hands: what the streams received besides the keep-alive comments."""
    streams: int
    seconds: float
    comments: int
    other_bytes: int
    dropped: Counter


class Night:
    """Tables of phones holding the streams of the new matches ``tokens`` (whose news id is
    ``seen``) against the servers at ``bases``, saving ``hands`` in turn every ``hand_every``
    seconds. With several servers each table's phones take them in turn, so that most news
    crosses from the server that saved to another."""

    def __init__(self, bases: list[str], tokens: list[str], seen: str,
                 hands: tuple[dict, ...], hand_every: float):
        self.bases, self.tokens, self.seen = bases, tokens, seen
        self.hands, self.hand_every = hands, hand_every
        self.tables: list[list[Heard]] = []
        self._holding: list[list[asyncio.Task]] = []
        self._saved: Counter = Counter()
        self.failed: Counter = Counter()
        self.dropped: Counter = Counter()
        self._addresses: list[aiohttp.ClientSession] = []
        self._saving = aiohttp.ClientSession(
            connector=aiohttp.TCPConnector(limit=SAVING_CONNECTIONS,
                                           keepalive_timeout=load.KEEPALIVE),
            cookie_jar=aiohttp.DummyCookieJar(), auto_decompress=False,
            timeout=aiohttp.ClientTimeout(total=load.TIMEOUT))

    async def __aenter__(self) -> Self:
        return self

    async def __aexit__(self, *_exc) -> None:
        await self.keep(0)
        for session in (*self._addresses, self._saving):
            await session.close()

    def _session(self, table: int) -> aiohttp.ClientSession:
        """The streams of a thousand tables come from one loopback address of their own."""
        index = table // TABLES_AN_ADDRESS
        while len(self._addresses) <= index:
            address = f"127.0.0.{len(self._addresses) + 2}"
            self._addresses.append(aiohttp.ClientSession(
                connector=aiohttp.TCPConnector(limit=0, local_addr=(address, 0)),
                cookie_jar=aiohttp.DummyCookieJar(), auto_decompress=False,
                timeout=aiohttp.ClientTimeout(total=None, sock_connect=OPEN_WITHIN,
                                              sock_read=SILENT_FOR)))
        return self._addresses[index]

    def _base(self, table: int, phone: int) -> str:
        """The server a table's phone talks to; the first phone saves the table's hands."""
        return self.bases[(table + phone) % len(self.bases)]

    async def _hold(self, table: int, phone: int, heard: Heard) -> None:
        url = f"{self._base(table, phone)}/m/{self.tokens[table]}/events"
        try:
            async with self._session(table).get(url, params={"seen": self.seen}) as response:
                if response.status != 200:
                    self.failed[f"stream answered {response.status}"] += 1
                    return
                async for chunk in response.content.iter_any():
                    heard.feed(chunk, time.perf_counter())
            how = "ended by the server"
        except TimeoutError:
            how = "timed out"
        except (aiohttp.ClientError, OSError) as error:
            how = f"{type(error).__name__}: {str(error)[:80]}"
        if heard.connected.is_set():
            self.dropped[how] += 1
        else:
            self.failed[f"stream not opened: {how}"] += 1

    async def _open(self, table: int, phone: int,
                    at_once: asyncio.Semaphore) -> tuple[Heard, asyncio.Task]:
        heard = Heard()
        async with at_once:
            holding = asyncio.create_task(self._hold(table, phone, heard))
            connected = asyncio.create_task(heard.connected.wait())
            await asyncio.wait({holding, connected}, timeout=OPEN_WITHIN,
                               return_when=asyncio.FIRST_COMPLETED)
            connected.cancel()
            if not heard.connected.is_set() and not holding.done():
                holding.cancel()
                self.failed[f"stream not opened within {OPEN_WITHIN:g} s"] += 1
        return heard, holding

    async def open(self, tables: int) -> None:
        """Open the streams of every table up to ``tables`` that holds none yet."""
        at_once = asyncio.Semaphore(OPENING_AT_ONCE)
        new = range(len(self.tables), tables)
        opened = await asyncio.gather(*(self._open(table, phone, at_once)
                                        for table in new for phone in range(PHONES)))
        for first in range(0, len(opened), PHONES):
            phones = opened[first:first + PHONES]
            self.tables.append([heard for heard, _holding in phones])
            self._holding.append([holding for _heard, holding in phones])

    async def keep(self, tables: int) -> int:
        """Close the streams of the tables beyond the first ``tables``, and open again
        those of theirs that dropped; how many were closed."""
        closing = [holding for phones in self._holding[tables:] for holding in phones]
        closed = sum(not holding.done() for holding in closing)
        for holding in closing:
            holding.cancel()
        await asyncio.gather(*closing, return_exceptions=True)
        del self.tables[tables:], self._holding[tables:]
        at_once = asyncio.Semaphore(OPENING_AT_ONCE)
        dropped = [(table, phone) for table, phones in enumerate(self._holding)
                   for phone, holding in enumerate(phones) if holding.done()]
        reopened = await asyncio.gather(*(self._open(table, phone, at_once)
                                          for table, phone in dropped))
        for (table, phone), (heard, holding) in zip(dropped, reopened):
            self.tables[table][phone], self._holding[table][phone] = heard, holding
        return closed

    def streams(self) -> int:
        """How many streams are open now."""
        return sum(heard.connected.is_set() and not holding.done()
                   for heards, phones in zip(self.tables, self._holding)
                   for heard, holding in zip(heards, phones))

    def _heard(self, counted: str) -> int:
        return sum(getattr(heard, counted) for phones in self.tables for heard in phones)

    async def step(self, tables: int, seconds: float) -> Step:
        """Open the streams of ``tables`` tables, then let each save a hand every
        ``hand_every`` seconds for ``seconds``, table after table evenly spaced."""
        failed, dropped = self.failed.copy(), self.dropped.copy()
        await self.open(tables)
        step = Step(tables, seconds, load.Run(seconds))
        events = self._heard("events")
        saving = []
        async with load.without_collector_pauses():
            start = time.perf_counter()
            end = start + seconds
            due = [(start + turn * self.hand_every + table * self.hand_every / tables, table)
                   for turn in range(int(seconds / self.hand_every) + 1)
                   for table in range(tables)]
            for when, table in sorted(due):
                if when >= end:
                    break
                await asyncio.sleep(max(0.0, when - time.perf_counter()))
                step.late.append(max(0.0, time.perf_counter() - when))
                saving.append(asyncio.create_task(self._save(table, step)))
            await asyncio.sleep(max(0.0, end - time.perf_counter()))
            await asyncio.gather(*saving)
        step.streams = self.streams()
        step.events = self._heard("events") - events
        step.failed, step.dropped = self.failed - failed, self.dropped - dropped
        return step

    async def _save(self, table: int, step: Step) -> None:
        hand = self.hands[self._saved[table] % len(self.hands)]
        self._saved[table] += 1
        sent = time.perf_counter()
        try:
            async with self._saving.post(f"{self._base(table, 0)}/api/v1/matches/"
                                         f"{self.tokens[table]}/hands", json=hand) as response:
                body = await response.read()
                status, tag = response.status, response.headers.get("ETag", "")
        except (TimeoutError, aiohttp.ClientError):
            status, tag, body = 0, "", b""
        step.saves.record(status, time.perf_counter() - sent, body)
        version = VERSION_TAG.fullmatch(tag)
        if status != 201 or not version:
            self.failed[f"save answered {status}" if status else "save not answered"] += 1
            return
        # The saving phone's own stream hears it too: a step ends with every event heard.
        own, *others = await asyncio.gather(*(self._heard_by(heard, int(version[1]))
                                             for heard in self.tables[table]))
        step.news_lost += (own is None) + others.count(None)
        step.news += [came - sent for came in others if came is not None]

    @staticmethod
    async def _heard_by(heard: Heard, version: int) -> float | None:
        try:
            return await asyncio.wait_for(heard.heard(version), NEWS_WITHIN)
        except TimeoutError:
            return None

    async def quiet(self, seconds: float) -> Quiet:
        """``seconds`` without a hand: what the open streams received meanwhile."""
        dropped = self.dropped.copy()
        comments, other = self._heard("comments"), self._heard("other_bytes")
        async with load.without_collector_pauses():
            await asyncio.sleep(seconds)
        return Quiet(self.streams(), seconds, self._heard("comments") - comments,
                     self._heard("other_bytes") - other, self.dropped - dropped)
