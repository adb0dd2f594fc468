"""Speed over HTTP, as `make bench` measures it: Tablemate served the way `make run` serves
it (gunicorn, gevent workers), driven from a load generator on loopback.

First the pages and checkers against a bare Flask "hello" served on two processes of eight
threads (the baseline): machines differ, ratios travel, so each one's throughput is given as
a multiple of the baseline's, the two measured in turns at the same number of connections
(other work on the machine weighs on both alike). Then hand entry, on its own. Then the
night with push (benchmarks/night.py): tables of four phones holding their streams, a hand
per table every 30 s, in steps of doubling tables until one fails; and a quiet while
without hands, in which an open stream must cost the server nothing but memory. A step's
line also gives how late the bench itself sent the saves (it shares the cores: "late p99"),
the cores the server's workers and the bench kept busy, and the workers' memory. "stolen"
is the share of the cores' time the host of a virtual machine gave to other machines
meanwhile: where it is high, a shared host slowed the run.

Settings (environment): BENCH_SECONDS per endpoint (5), BENCH_CONNECTIONS at most (64),
BENCH_LONG_MATCH hands (1000), BENCH_FIRST_TABLES (1000), BENCH_MAX_TABLES (4000),
BENCH_STEP_SECONDS (60), BENCH_HAND_SECONDS between a table's hands (30),
BENCH_QUIET_SECONDS (60), BENCH_BACKEND (sqlite; postgres: the night once more, after the one
on SQLite, with two servers on one throwaway PostgreSQL cluster on this machine).
"""

import asyncio
import json
import math
import os
import re
import tempfile
from collections import Counter
from dataclasses import dataclass, field
from pathlib import Path

import store
from app import create_app
from benchmarks import load, night
from benchmarks.host import Cores, core_ticks, machine, open_files, stolen_since
from benchmarks.serve import HELLO, TABLEMATE, THREADED, Servers, serving
from store import news
from tests import postgres_cluster

PLAYERS = ["Anna", "Ben", "Carla", "Dario"]
OPTIONS = {"target": 10000}  # the largest: no seeded match ends
MATCH_SETUP = {"game": "burraco", "players": PLAYERS, "options": OPTIONS}
# The seed's worked example (410 and 155), and the same with the sides swapped.
SIDE_410 = {"table_points": 120, "clean_burracos": 1, "dirty_burracos": 0, "hand_points": 10,
            "pozzetto": "taken", "closed": True}
SIDE_155 = {"table_points": 95, "clean_burracos": 0, "dirty_burracos": 1, "hand_points": 40,
            "pozzetto": "taken", "closed": False}
COUNTED_HANDS = ({"sides": [SIDE_410, SIDE_155]}, {"sides": [SIDE_155, SIDE_410]})
# Totals counted on paper, nearly cancelling out: a match this long stays below its target.
PAPER_HANDS = ({"sides": [{"total": 410}, {"total": -400}]},
               {"sides": [{"total": -400}, {"total": 410}]})
SHEET_HANDS = 17
SHORT_MATCH = 10
ENTRY_TABLES = 4  # hand entry: 16 clients, four phones at each of four tables
# After this many hands a hand-entry table starts a new match, as a table does after a long
# evening: each pair of hands adds 10 to both sides, and no match reaches its target.
ENTRY_MATCH_HANDS = 200
# What a phone that opened a new match's sheet has heard of it.
NEW_MATCH_NEWS = news.news_id(0, None, False)
TABLES_CARRIED = 1.5  # × the baseline's requests a second
IDLE_STREAM_BYTES = 64 * 1024  # of the workers' memory, at most, per open stream
# The bench's own open files beyond its streams: the save connections, the server's pipes.
OWN_FILES = night.SAVING_CONNECTIONS + 100
# A stream the bench closed ends on the server at its second keep-alive comment after.
SERVER_NOTICES = 2 * 20 + 5  # seconds


@dataclass(frozen=True)
class Settings:
    """How long and how hard: the defaults are what the issue's targets are stated for."""
    seconds: float = 5.0
    connections: int = 64
    long_match: int = 1000
    first_tables: int = 1000
    # 4,000 tables are 16,000 streams: within the 20,000 open files of a process here (the
    # bench's, and a server worker's), and the workers' 2 × 9,000 connections.
    max_tables: int = 4000
    step_seconds: float = 60.0
    hand_seconds: float = 30.0
    quiet_seconds: float = 60.0
    backend: str = "sqlite"

    @classmethod
    def from_environment(cls) -> "Settings":
        """The defaults, each overridden by its BENCH_ variable."""
        defaults = cls()
        return cls(*(type(getattr(defaults, name))(os.environ.get(f"BENCH_{name.upper()}",
                                                                  getattr(defaults, name)))
                     for name in cls.__dataclass_fields__))

    @property
    def warmup(self) -> float:
        return min(1.0, self.seconds / 5)

    def steps(self) -> list[int]:
        """The tables of each step: the first, doubled up to the most."""
        tables = [self.first_tables]
        while tables[-1] * 2 <= self.max_tables:
            tables.append(tables[-1] * 2)
        return tables


@dataclass(frozen=True)
class Target:
    """What an endpoint must reach: a share of the baseline's throughput, a p99 in ms."""
    ratio: float | None = None
    p99: float | None = None
    every_2xx: bool = False

    def __str__(self) -> str:
        return ", ".join(filter(None, (self.every_2xx and "every answer 2xx",
                                       self.ratio and f"≥ {self.ratio}×",
                                       self.p99 and f"p99 ≤ {self.p99:g} ms"))) or "-"

    def met(self, run: load.Run, ratio: float | None, unexpected: int) -> bool:
        return (not unexpected and (self.ratio is None or (ratio or 0) >= self.ratio)
                and (self.p99 is None or run.percentile(99) <= self.p99))


@dataclass(frozen=True)
class Seeded:
    """The matches measured, by their links."""
    sheet: str  # a Burraco match of 17 counted hands
    short: str  # 10 hands counted on paper
    long: str  # BENCH_LONG_MATCH such hands
    entry: list[str]  # fresh matches, one for each table, that the hand entry starts in
    night: list[str]  # fresh matches, one for each table of the night


def new_match(client, db, hands: tuple[dict, ...], count: int) -> store.Match:
    """A Burraco match of ``count`` hands: the first ones through the API, which checks them
    and stores them as the rules read them, the rest as copies of those, straight into the
    store (a thousand API calls would re-score the match a thousand times)."""
    token = client.post("/api/v1/matches", json=MATCH_SETUP).json["token"]
    for hand in hands[:count]:
        client.post(f"/api/v1/matches/{token}/hands", json=hand)
    match = store.get_match(db, token)
    for number in range(len(match.hands), count):
        store.add_hand(db, match, match.hands[number % len(match.hands)], number)
    return store.get_match(db, token)


def seed(database: Path, settings: Settings) -> Seeded:
    """The matches the benchmark reads and writes, made before any is measured."""
    app = create_app({"DATABASE": str(database), "SECRET_KEY": "bench"})
    client = app.test_client()
    # A handle of its own, outside the app's requests, whose ``g`` it must not share.
    db = store.connect(str(database))
    # Seeding only: a crash here loses nothing.
    db.execute("PRAGMA synchronous = OFF")
    sheet = new_match(client, db, COUNTED_HANDS, SHEET_HANDS)
    short = new_match(client, db, PAPER_HANDS, SHORT_MATCH)
    long = new_match(client, db, PAPER_HANDS, settings.long_match)
    entry = [new_match(client, db, PAPER_HANDS, 0).token for _ in range(ENTRY_TABLES)]
    tables = night_matches(client, db, settings.max_tables)
    db.close()
    return Seeded(sheet.token, short.token, long.token, entry, tables)


def night_matches(client, db, count: int) -> list[str]:
    """The links of ``count`` new matches for the night's tables, made as the API makes
    them, straight into the store."""
    made = new_match(client, db, PAPER_HANDS, 0)
    return [store.create_match(db, made.game, made.players, made.options).token
            for _ in range(count)]


def asking(method: str, url: str, **request) -> load.Ask:
    """The same request, sent again and again by every phone."""
    def ask(phone: load.Phone, _index: int):
        return phone.send(method, url, **request)
    return ask


@dataclass(frozen=True)
class Endpoint:
    """An address measured: how it is asked, its target, the answers it must give."""
    name: str
    ask: load.Ask
    target: Target
    connections: int | None = None  # None: BENCH_CONNECTIONS
    expected: tuple[int, ...] = (200,)
    in_turns: bool = True  # with the baseline


def endpoints(base: str, seeded: Seeded, settings: Settings) -> list[Endpoint]:
    """What is measured in a closed loop, with the issue's targets on two cores."""
    entered, at_table, playing = Counter(), Counter(), list(seeded.entry)

    async def start_next_match(phone: load.Phone, table: int) -> tuple[int, bytes]:
        # The new match's link is read: this one answer is unpacked.
        status, body = await phone.send("POST", f"{base}/api/v1/matches", json=MATCH_SETUP,
                                        auto_decompress=True)
        if status == 201:
            playing[table] = json.loads(body)["token"]
        return status, body

    def enter_hand(phone: load.Phone, index: int):
        table = index % ENTRY_TABLES
        at_table[table] += 1
        if at_table[table] % ENTRY_MATCH_HANDS == 0:
            return start_next_match(phone, table)
        # Each phone enters the two opposite hands in turn: however fast the phones of a
        # table are, its totals stay far below the target, and the match does not end.
        entered[index] += 1
        return phone.send("POST", f"{base}/api/v1/matches/{playing[table]}/hands",
                          json=PAPER_HANDS[entered[index] % 2])

    entry_phones = min(4 * ENTRY_TABLES, settings.connections)
    return [
        Endpoint(f"sheet page, {SHEET_HANDS} hands", asking("GET", f"{base}/m/{seeded.sheet}"),
                 Target(0.1)),
        Endpoint("rules search ?q=stapel", asking("GET", f"{base}/rules/search?q=stapel"),
                 Target(0.5)),
        Endpoint("meld checker (POST)",
                 asking("POST", f"{base}/api/v1/burraco/meld",
                        json={"cards": ["3H", "4H", "5H"]}), Target(0.5)),
        Endpoint(f"hand entry, {entry_phones} phones at {ENTRY_TABLES} tables", enter_hand,
                 Target(p99=100, every_2xx=True), connections=entry_phones,
                 expected=tuple(range(200, 300)), in_turns=False),
    ]


def percentile_cells(run: load.Run) -> str:
    return f"{run.per_second:>9.0f}{run.percentile(50):>9.1f}{run.percentile(99):>9.1f}"


def unexpected_note(run: load.Run, expected: tuple[int, ...]) -> str:
    other = run.other_than(*expected)
    if not other:
        return ""
    share = sum(other.values()) / max(1, len(run.latencies))
    return "  " + ", ".join(f"{count}× {status or 'no answer'}{why(run.first_bodies[status])}"
                            for status, count in sorted(other.items())) + f" ({share:.0%})"


def why(body: bytes) -> str:
    """The reason an error answer gives, shortened: the API's message, or the page's title."""
    found = re.search(rb'"error":\s*"([^"]{1,80})|<title>([^<]{1,80})', body)
    return f" ({(found[1] or found[2]).decode(errors='replace')})" if found else ""


# Each endpoint and its baseline take turns, a second at a time at the default settings.
TURNS = 5
HEADER = (f"{'endpoint':<44}{'conns':>6}{'req/s':>9}{'p50 ms':>9}{'p99 ms':>9}"
          f"{'hello/s':>9}{'hello p99':>10}{'× hello':>9}{'stolen':>8}  {'target':<31}")
STEP_HEADER = (f"{'tables':>7}{'streams':>9}{'saves':>7}{'save p50':>10}{'save p99':>10}"
               f"{'news':>7}{'news p50':>10}{'news p99':>10}{'events':>8}{'late p99':>10}"
               f"{'srv cores':>10}{'own cores':>10}{'srv MB':>8}{'stolen':>8}")


def floored(ratio: float) -> str:
    """Rounded down: 0.2994× of a target of 0.3× reads "0.29", not "0.30" and missed."""
    if not math.isfinite(ratio):
        return "-"
    return f"{math.floor(ratio * 100) / 100:.2f}"


def report(name: str, connections: int, run: load.Run, baseline: load.Run | None,
           target: Target, expected: tuple[int, ...], stolen: str = "-") -> bool:
    """Print one endpoint's line, with the ``baseline`` measured with it (if any): its
    requests a second and p99 (a p99 beyond the bare app's own tells of the host) and the
    ratio to it; and the share of the cores' time the host took meanwhile. Whether it met
    its target."""
    ratio = baseline and run.per_second / baseline.per_second
    met = target.met(run, ratio, sum(run.other_than(*expected).values()))
    hello, hello_p99, shown = ((f"{baseline.per_second:.0f}", f"{baseline.percentile(99):.1f}",
                                f"{floored(ratio)}×") if baseline else ("-", "-", "-"))
    print(f"{name:<44}{connections:>6}{percentile_cells(run)}{hello:>9}{hello_p99:>10}"
          f"{shown:>9}{stolen:>8}  {target!s:<31}{'met' if met else 'MISSED':<7}"
          f"{unexpected_note(run, expected)}", flush=True)
    return met


@dataclass
class Outcome:
    """What the whole bench found: the baseline over all its turns, the tables carried,
    and the targets missed."""
    hello: load.Run = field(default_factory=lambda: load.Run(0.0))
    carried: int = 0
    missed: list[str] = field(default_factory=list)

    @property
    def hello_per_second(self) -> float:
        return self.hello.per_second if self.hello.latencies else math.nan

    def carried_enough(self) -> bool:
        """Whether the tables carried reach their target against the baseline."""
        return self.carried / self.hello_per_second >= TABLES_CARRIED

    def carried_line(self, label: str) -> str:
        """The last lines of the bench: the tables carried, beside the baseline."""
        return (f"{label}: {self.carried} (hello {self.hello_per_second:.0f}/s, "
                f"{floored(self.carried / self.hello_per_second)}x)")


async def closed_loops(settings: Settings, hello: str, base: str, seeded: Seeded,
                       outcome: Outcome) -> None:
    """Every endpoint, most against the baseline, and a long sheet against a short one."""
    async def in_turns(ask: load.Ask, connections: int) -> tuple[load.Run, load.Run]:
        """The baseline's run and the endpoint's, each measured in ``TURNS`` slices taken
        in turns: the host's speed, which changes from one second to the next on a shared
        machine, weighs on both alike."""
        baseline, endpoint = [], []
        taking_turns = ((baseline, asking("GET", f"{hello}/")), (endpoint, ask))
        for turn in range(TURNS):
            warmup = settings.warmup if turn == 0 else 0.0
            for slices, asked in taking_turns:
                slices.append(await load.closed_loop(asked, connections,
                                                     settings.seconds / TURNS, warmup))
        return load.Run.joined(baseline), load.Run.joined(endpoint)

    print(HEADER)
    baselines = []
    for endpoint in endpoints(base, seeded, settings):
        connections = endpoint.connections or settings.connections
        start = core_ticks()
        if endpoint.in_turns:
            baseline, run = await in_turns(endpoint.ask, connections)
            baselines.append(baseline)
        else:
            baseline, run = None, await load.closed_loop(endpoint.ask, connections,
                                                         settings.seconds, settings.warmup)
        if not report(endpoint.name, connections, run, baseline, endpoint.target,
                      endpoint.expected, stolen_since(start)):
            outcome.missed.append(endpoint.name)
    outcome.hello = load.Run.joined(baselines)

    connections = min(16, settings.connections)
    short, long = [await load.closed_loop(asking("GET", f"{base}/m/{token}"), connections,
                                          settings.seconds, settings.warmup)
                   for token in (seeded.short, seeded.long)]
    cost = short.per_second / long.per_second if long.per_second else math.inf
    # Rounded up: 3.004× of a target of 3× reads "3.01", not "3.00" and missed.
    print(f"{f'sheet page, {SHORT_MATCH} hands':<44}{connections:>6}{percentile_cells(short)}")
    print(f"{f'sheet page, {settings.long_match} hands':<44}{connections:>6}"
          f"{percentile_cells(long)}   costs {math.ceil(cost * 100) / 100:.2f}× the "
          f"{SHORT_MATCH}-hand one "
          f"(target ≤ 3×): {'met' if cost <= 3 else 'MISSED'}")
    if cost > 3:
        outcome.missed.append(f"a {settings.long_match}-hand sheet")


def step_line(step: night.Step, cores: tuple[float, float], memory: int, stolen: str) -> str:
    """A step's figures, the server's memory after it, whether it held, and what failed."""
    notes = [f"{count}× {what}" for what, count in step.failed.most_common()]
    notes += [f"{count} streams dropped ({how})" for how, count in step.dropped.most_common()]
    notes += [f"{step.news_lost} news not heard within {night.NEWS_WITHIN:g} s"] * bool(
        step.news_lost)
    notes += [f"save p99 over {night.SAVE_P99:g} ms"] * (
        not step.saves.percentile(99) <= night.SAVE_P99)
    notes += [f"news p99 over {night.NEWS_P99:g} ms"] * (
        not load.percentile(step.news, 99) <= night.NEWS_P99)
    return (f"{step.tables:>7}{step.streams:>9}{len(step.saves.latencies):>7}"
            f"{step.saves.percentile(50):>10.1f}{step.saves.percentile(99):>10.1f}"
            f"{len(step.news):>7}{load.percentile(step.news, 50):>10.1f}"
            f"{load.percentile(step.news, 99):>10.1f}{step.events:>8}"
            f"{load.percentile(step.late, 99):>10.1f}{cores[0]:>10.2f}{cores[1]:>10.2f}"
            f"{memory / 2**20:>8.0f}{stolen:>8}  "
            f"{'held' if step.held() else 'FAILED'}" + "".join(f"  {note}" for note in notes))


async def night_with_push(settings: Settings, servers: Servers, tokens: list[str],
                          outcome: Outcome) -> None:
    """The night in steps of doubling tables until one fails, then a quiet while over the
    streams of the most tables that held."""
    allowed = open_files()
    print(f"\nTables carried: {night.PHONES} phones a table, each holding its sheet's stream, "
          f"a hand per table every {settings.hand_seconds:g} s, {settings.step_seconds:g} s a "
          "step.\nA step holds with every request answered, no stream dropped, save p99 ≤ "
          f"{night.SAVE_P99:g} ms and news p99 ≤ {night.NEWS_P99:g} ms (from the save sent to "
          "each other phone's event).")
    print(STEP_HEADER, flush=True)
    async with night.Night(servers.urls, tokens, NEW_MATCH_NEWS, PAPER_HANDS,
                           settings.hand_seconds) as tables:
        for count in settings.steps():
            if count * night.PHONES + OWN_FILES > allowed:
                print(f"{count:>7}  not run: {count * night.PHONES} streams, and this "
                      f"process may have {allowed} open files")
                break
            await tables.open(count)
            start, cores = core_ticks(), Cores(servers)
            step = await tables.step(count, settings.step_seconds)
            print(step_line(step, cores.used(), servers.workers_memory()[1],
                            stolen_since(start)), flush=True)
            if not step.held():
                break
            outcome.carried = count
        else:
            print(f"{count * 2:>7}  not run: beyond BENCH_MAX_TABLES ({settings.max_tables})")

        idle = outcome.carried or settings.first_tables
        if await tables.keep(idle):
            await asyncio.sleep(SERVER_NOTICES)
        quiet = await tables.quiet(settings.quiet_seconds)
        (workers, memory), files = servers.workers_memory(), servers.workers_files()
    a_stream = memory / max(1, quiet.streams)
    met = (not quiet.other_bytes and not quiet.dropped and quiet.streams == idle * night.PHONES
           and a_stream <= IDLE_STREAM_BYTES)
    dropped = sum(quiet.dropped.values())
    print(f"\nIdle phones: {quiet.streams} streams for {quiet.seconds:g} s without a hand: "
          f"{quiet.other_bytes} bytes beyond {quiet.comments} keep-alive comments, {dropped} "
          f"streams dropped; {workers} workers holding {files} open files, "
          f"{memory / 2**20:.0f} MB, "
          f"{a_stream / 1024:.1f} KB a stream (target: nothing beyond keep-alives, "
          f"≤ {IDLE_STREAM_BYTES // 1024} KB a stream): {'met' if met else 'MISSED'}")
    if not met:
        outcome.missed.append("idle phones")


def print_trouble(name: str, trouble: list[str]) -> None:
    """The most frequent of the lines of trouble a server logged, if any."""
    if not trouble:
        return
    print(f"\n{name} logged {len(trouble)} lines of trouble, these the most frequent:")
    for line, count in Counter(re.sub(r"^\[[^]]*\] \[\d+\] ", "", line)
                               for line in trouble).most_common(8):
        print(f"  {count}× {line}")


def night_on_postgres(settings: Settings, outcome: Outcome) -> None:
    """The night again, on two servers as `make run` starts them on one PostgreSQL database
    of a throwaway cluster, each table's phones on both."""
    print("\nOn PostgreSQL: two servers, each as `make run` starts it, on one database of a "
          "throwaway cluster on this machine; each table's phones on both, its hands saved "
          "through one of them.", flush=True)
    with postgres_cluster.cluster() as url:
        app = create_app({"DATABASE": url, "SECRET_KEY": "bench"})
        db = store.connect(url)
        tokens = night_matches(app.test_client(), db, settings.max_tables)
        db.close()
        # Seeded: the servers' pools alone hold connections to the database from here on.
        store.postgres.close_pool(url)
        with serving(TABLEMATE, url) as first, serving(TABLEMATE, url) as second:
            servers = Servers((first, second))
            asyncio.run(night_with_push(settings, servers, tokens, outcome))
            print_trouble("The PostgreSQL servers", servers.trouble())


def main(settings: Settings) -> bool:
    """Seed, serve, measure and print; whether every target was met."""
    on_postgres = settings.backend == "postgres"
    if settings.backend not in ("sqlite", "postgres"):
        raise SystemExit(f"BENCH_BACKEND is sqlite or postgres, not {settings.backend}")
    if on_postgres and postgres_cluster.binaries() is None:
        print("PostgreSQL is not installed (no initdb found): the bench on PostgreSQL cannot run.")
        return False
    print(f"Machine: {machine()}", flush=True)
    outcome = Outcome()
    with tempfile.TemporaryDirectory() as folder:
        database = Path(folder) / "bench.sqlite"
        seeded = seed(database, settings)
        with (serving(HELLO, options=THREADED) as hello,
              serving(TABLEMATE, database) as tablemate):

            async def measure() -> None:
                await closed_loops(settings, hello.url, tablemate.url, seeded, outcome)
                await night_with_push(settings, Servers((tablemate,)), seeded.night, outcome)

            asyncio.run(measure())
            trouble = tablemate.trouble()
    print_trouble("Tablemate's server", trouble)
    if not outcome.carried_enough():
        outcome.missed.insert(0, "tables carried")
    postgres = Outcome(hello=outcome.hello)
    if on_postgres:
        night_on_postgres(settings, postgres)
        if not postgres.carried_enough():
            postgres.missed.insert(0, "tables carried")
        outcome.missed += [f"{missed} on PostgreSQL" for missed in postgres.missed]
    print(f"\nTables carried, target ≥ {TABLES_CARRIED}× the hello's requests a second: "
          f"{'MISSED' if 'tables carried' in outcome.missed else 'met'}. "
          + (f"Targets missed: {', '.join(outcome.missed)}." if outcome.missed
             else "Every target met."))
    print(outcome.carried_line("tables carried"))
    if on_postgres:
        print(postgres.carried_line("tables carried on PostgreSQL, two servers"))
    return not outcome.missed


if __name__ == "__main__":
    main(Settings.from_environment())
