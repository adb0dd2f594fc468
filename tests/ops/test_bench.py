"""`make bench` runs end to end: a tiny run of the benchmark over HTTP, so that it cannot rot
between the releases whose figures it measures, and the rules its lines are judged by."""

import asyncio
import contextlib
import dataclasses
import gc
import io
import re
from collections import Counter
from concurrent.futures import ThreadPoolExecutor

import postgres_cluster
import pytest

import store
from benchmarks import bench, host, load, night
from benchmarks.serve import HELLO, THREADED, run_command

# Where PostgreSQL is installed, the night runs there too, as `make bench BACKEND=postgres`
# runs it: one tiny run for both, the cores being shared with the other lanes.
TINY = bench.Settings(seconds=0.1, connections=4, long_match=20, first_tables=4, max_tables=8,
                      step_seconds=2, hand_seconds=0.5, quiet_seconds=1,
                      backend="postgres" if postgres_cluster.binaries() else "sqlite")
ON_POSTGRES = "\nOn PostgreSQL: "
# connections, requests per second, p50 and p99 in ms
FIGURES = r"\s+(\d+)\s+(\d+)\s+([\d.]+)\s+([\d.]+)"
# the share of the cores' time the host took meanwhile ("-" when no tick passed)
STOLEN = r"(\d+%|-)"
# tables, streams, saves, save p50 and p99, news, news p50 and p99, events, late p99, the
# cores the server and the bench kept busy, the server's memory, stolen
STEP = (r"^\s+(\d+)\s+(\d+)\s+(\d+)\s+([\d.]+)\s+([\d.]+)\s+(\d+)\s+([\d.]+)\s+([\d.]+)"
        r"\s+(\d+)\s+([\d.]+)\s+([\d.]+)\s+([\d.]+)\s+(\d+)"
        rf"\s+{STOLEN}\s+(held|FAILED)(.*)$")


def in_a_thread(work, *given):
    """``work(*given)`` in a thread of its own: after the browser tests, Playwright keeps an
    event loop running in this one, and the load generator starts its own."""
    with ThreadPoolExecutor(max_workers=1) as thread:
        return thread.submit(work, *given).result()


@pytest.fixture(scope="module")
def printed() -> str:
    """What a tiny bench prints, from the machine's line to the tables carried."""
    out = io.StringIO()
    with contextlib.redirect_stdout(out):
        in_a_thread(bench.main, TINY)
    return out.getvalue()


@pytest.fixture(scope="module")
def on_sqlite(printed) -> str:
    """What the bench printed of its run on SQLite."""
    return printed.split(ON_POSTGRES)[0]


@pytest.fixture(scope="module")
def on_postgres(printed) -> str:
    """What the bench printed of its night on two servers on one PostgreSQL database."""
    if TINY.backend != "postgres":
        pytest.skip("PostgreSQL is not installed (no initdb found)")
    return printed.split(ON_POSTGRES)[1]


# The targets, as the report's last column prints them; the baseline's columns are
# empty for hand entry, which is no longer compared with it.
TARGETS = [("sheet page, 17 hands", "≥ 0.1×", True),
           ("rules search ?q=stapel", "≥ 0.5×", True),
           ("meld checker (POST)", "≥ 0.5×", True),
           ("hand entry, 4 phones at 4 tables", "every answer 2xx, p99 ≤ 100 ms", False)]


def test_every_endpoint_is_measured_beside_its_target(printed):
    assert re.search(r"^Machine: \d+ cores, .+, Python 3\.\d+", printed, re.MULTILINE)
    for name, target, against_hello in TARGETS:
        baseline = r"\s+(\d+)\s+([\d.]+)\s+([\d.]+)×" if against_hello else r"\s+(-)\s+(-)\s+(-)"
        line = re.search(rf"^{re.escape(name)}{FIGURES}{baseline}\s+{STOLEN}\s+"
                         rf"{re.escape(target)}\s+(met|MISSED)(.*)$", printed, re.MULTILINE)
        assert line, f"no figures for {name}:\n{printed}"
        assert int(line[2]) > 0, f"nothing answered: {line[0]}"
        assert "no answer" not in line[10], line[0]
    for hands in (bench.SHORT_MATCH, TINY.long_match):
        assert re.search(rf"^sheet page, {hands} hands{FIGURES}", printed, re.MULTILINE)
    assert re.search(r"costs [\d.]+× the 10-hand one \(target ≤ 3×\): (met|MISSED)", printed)


CARRIED = re.compile(r"^tables carried: (\d+) \(hello (\d+)/s, (\d+\.\d\d)x\)$", re.MULTILINE)
CARRIED_ON_POSTGRES = re.compile(r"^tables carried on PostgreSQL, two servers: (\d+) "
                                 r"\(hello (\d+)/s, (\d+\.\d\d)x\)$", re.MULTILINE)


def night_steps(night_printed: str) -> tuple[list[int], list[bool]]:
    """The tables of each step of a night and whether it held, each step's figures checked:
    every saved hand heard on the table's three other phones."""
    steps = [step for line in night_printed.splitlines() if (step := re.search(STEP, line))]
    tables = [int(step[1]) for step in steps]
    held = [step[15] == "held" for step in steps]
    # The steps double from the first until one fails.
    assert tables == TINY.steps()[:len(tables)] and all(held[:-1]), printed
    for step in steps:
        streams, saves, news, events = (int(step[index]) for index in (2, 3, 6, 9))
        assert streams == 4 * int(step[1]), step[0]
        # A hand per table every half second, for two seconds.
        assert saves == 4 * int(step[1]), step[0]
        assert news == 3 * saves, step[0]
        assert events >= 3 * int(step[1]), step[0]
        assert float(step[7]) <= float(step[8]), step[0]
        assert float(step[11]) > 0 and float(step[12]) > 0 and int(step[13]) > 0, step[0]
    if all(held):
        assert re.search(r"^\s+16\s+not run: beyond BENCH_MAX_TABLES \(8\)$", night_printed,
                         re.MULTILINE)
    return tables, held


def assert_carried(carried: re.Match, tables: list[int], held: list[bool]) -> None:
    """The tables carried are those of the last step that held, beside the baseline."""
    assert int(carried[1]) == max([0] + [count for count, hold in zip(tables, held) if hold])
    assert float(carried[3]) == pytest.approx(int(carried[1]) / int(carried[2]), abs=0.01)


def test_each_step_of_the_night_hears_every_saved_hand_on_the_three_other_phones(
        printed, on_sqlite):
    carried = CARRIED.search(printed)
    last = CARRIED_ON_POSTGRES.search(printed) or carried
    assert carried and printed.endswith(last[0] + "\n"), printed
    assert_carried(carried, *night_steps(on_sqlite))


def test_on_postgresql_two_servers_carry_the_night_and_its_figure_comes_last(
        printed, on_postgres):
    """Each table's phones on both servers: a hand saved through one is heard on the
    phones of the other, and the bench ends with both figures, SQLite's first."""
    carried = CARRIED_ON_POSTGRES.search(printed)
    assert carried and printed.endswith(f"{CARRIED.search(printed)[0]}\n{carried[0]}\n"), printed
    assert_carried(carried, *night_steps(on_postgres))
    assert carried[2] == CARRIED.search(printed)[2]


def test_on_postgresql_without_its_server_the_bench_says_so_in_one_line_and_runs_nothing(
        monkeypatch, capsys):
    monkeypatch.setattr(bench.postgres_cluster, "binaries", lambda: None)
    assert bench.main(dataclasses.replace(TINY, backend="postgres")) is False
    assert capsys.readouterr().out == ("PostgreSQL is not installed (no initdb found): the bench "
                                       "on PostgreSQL cannot run.\n")


def idle_line(printed: str, workers: int) -> re.Match:
    line = re.search(r"^Idle phones: (\d+) streams for 1 s without a hand: (\d+) bytes beyond "
                     rf"(\d+) keep-alive comments, (\d+) streams dropped; {workers} workers "
                     r"holding (\d+) open files, (\d+) MB, ([\d.]+) KB a stream \(target: "
                     r"nothing beyond keep-alives, ≤ 64 KB a stream\): (met|MISSED)$",
                     printed, re.MULTILINE)
    assert line, printed
    assert (line[2], line[4]) == ("0", "0")
    assert int(line[5]) >= int(line[1])
    assert float(line[7]) == pytest.approx(int(line[6]) * 1024 / int(line[1]), rel=0.05)
    return line


def test_the_idle_phones_line_tells_what_came_beyond_keep_alives_and_the_memory(
        printed, on_sqlite):
    line = idle_line(on_sqlite, workers=2)
    # Over the streams of the most tables carried, or of the first step if none held.
    assert int(line[1]) == 4 * (int(CARRIED.search(printed)[1]) or TINY.first_tables)


def test_on_postgresql_the_idle_phones_line_counts_both_servers_workers(printed, on_postgres):
    line = idle_line(on_postgres, workers=4)
    assert int(line[1]) == 4 * (int(CARRIED_ON_POSTGRES.search(printed)[1])
                                or TINY.first_tables)


@pytest.mark.parametrize(("change", "held"), [
    ({}, True),
    ({"failed": Counter({"save answered 500": 1})}, False),
    ({"dropped": Counter({"ended by the server": 1})}, False),
    ({"news_lost": 1}, False),
    ({"saves": [0.01] * 98 + [0.2] * 2}, False),  # save p99 beyond 100 ms
    ({"news": [0.1] * 98 + [0.6] * 2}, False),  # news p99 beyond 500 ms
    ({"news": [0.1] * 99 + [0.6]}, True),  # one in a hundred late: p99 still on time
])
def test_a_step_holds_with_every_request_answered_every_stream_kept_and_all_on_time(
        change, held):
    saves = load.Run(60.0, latencies=change.pop("saves", [0.01] * 100))
    step = night.Step(1000, 60.0, saves, news=change.pop("news", [0.1] * 300), **change)
    assert step.held() is held


@pytest.mark.parametrize(("first", "most", "steps"), [
    (1000, 32000, [1000, 2000, 4000, 8000, 16000, 32000]),
    (1000, 4000, [1000, 2000, 4000]),
    (1000, 3000, [1000, 2000]),
    (4, 8, [4, 8]),
])
def test_the_tables_double_from_the_first_step_up_to_the_most(first, most, steps):
    assert bench.Settings(first_tables=first, max_tables=most).steps() == steps


def test_a_stream_is_read_as_events_keep_alive_comments_and_its_retry_time():
    """Pieces of a stream end anywhere, an event's lines among them; what counts is when the
    event of a version, or of a later one, had come whole."""
    async def read() -> tuple[night.Heard, float, float, bool]:
        heard = night.Heard()
        pieces = [b"retry: 3000\n", b"\n: still here\n\n", b"id: 7.e3b0c442\nevent: sheet\n",
                  b"data: <section>\ndata: </section>\n", b"\n", b"id: 9.0a1b2c3d\ndata: x\n\n"]
        for at, piece in enumerate(pieces):
            heard.feed(piece, float(at))
        waiting = heard.heard(10)
        heard.feed(b": still here\n\nid: 10.0a1b2c3d\ndata: y\n\n", 6.0)
        return heard, await heard.heard(8), await waiting, heard.connected.is_set()

    heard, version_8, version_10, connected = in_a_thread(asyncio.run, read())
    assert connected
    assert (heard.events, heard.comments) == (3, 2)
    assert version_8 == 5.0 and version_10 == 6.0
    assert heard.other_bytes == sum(map(len, (
        b"retry: 3000\n\n", b"id: 7.e3b0c442\nevent: sheet\ndata: <section>\ndata: </section>\n\n",
        b"id: 9.0a1b2c3d\ndata: x\n\n", b"id: 10.0a1b2c3d\ndata: y\n\n")))


def test_the_baseline_keeps_two_processes_of_eight_threads():
    """The hello is served as before the streams, so that its figures compare across
    releases: gunicorn's options on the command line override its config file."""
    command = run_command(8080, HELLO, options=THREADED)
    assert command[-1] == HELLO
    assert command.index("--config") < command.index("--worker-class")
    assert command[command.index("--worker-class") + 1] == "gthread"
    assert command[command.index("--threads") + 1] == "8"


def test_the_share_of_the_cores_time_the_host_took_is_read_from_the_systems_ticks(tmp_path):
    """A shared host's other machines slow a run by the time they take from its cores
    (steal)."""
    stat = tmp_path / "stat"
    # user, nice, system, idle, iowait, irq, softirq, steal, guest, guest_nice
    stat.write_text("cpu  100 0 50 800 10 0 0 40 0 0\ncpu0 50 0 25 400 5 0 0 20 0 0\n")
    start = host.core_ticks(stat)
    assert start == (1000, 40)
    stat.write_text("cpu  400 0 150 1100 10 0 0 240 0 0\n")  # 900 ticks on, 200 of them taken
    assert host.stolen_since(start, stat) == "22%"
    assert host.stolen_since(host.core_ticks(stat), stat) == "-"  # no tick passed
    assert host.stolen_since(start, tmp_path / "elsewhere") == "-"
    stat.write_text("cpu  100 0 50 800\n")  # a system that does not count it
    assert host.core_ticks(stat) is None


def test_a_hand_entry_table_starts_a_new_match_long_before_its_match_could_end():
    """However long the run, no hand entry's match reaches its target (every hand after
    would answer 400) or the store's limit of entries (422): each table starts a new match
    after a long evening's hands, and its phones go on in that one."""
    sent = []

    class Phone:
        async def send(self, method: str, url: str, **request) -> tuple[int, bytes]:
            sent.append(url)
            return 201, b'{"token": "next"}'

    seeded = bench.Seeded("", "", "", [f"table{t}" for t in range(bench.ENTRY_TABLES)], [])
    entry = next(endpoint for endpoint in bench.endpoints("", seeded, TINY)
                 if endpoint.name.startswith("hand entry"))
    phones = [Phone() for _ in range(bench.ENTRY_TABLES)]

    async def rounds() -> None:
        for _round in range(bench.ENTRY_MATCH_HANDS + 1):
            for index, phone in enumerate(phones):
                await entry.ask(phone, index)

    in_a_thread(asyncio.run, rounds())
    into_first = [url for url in sent if url == "/api/v1/matches/table0/hands"]
    assert len(into_first) == bench.ENTRY_MATCH_HANDS - 1 < store.MAX_ENTRIES
    # Each phone's hands cancel out but for 10 a pair, and one hand of 410 at most.
    assert bench.ENTRY_MATCH_HANDS // 2 * 10 + 4 * 410 < bench.OPTIONS["target"]
    assert sent.count("/api/v1/matches") == bench.ENTRY_TABLES
    assert sent.count("/api/v1/matches/next/hands") == bench.ENTRY_TABLES


def test_the_load_generator_holds_off_its_own_garbage_collector_while_it_measures():
    """A full collection over thousands of phones holds every timer; the requests due
    meanwhile would count that pause as the server's time."""
    collecting = []

    class Phone:
        async def send(self, *asked, **request) -> tuple[int, bytes]:
            collecting.append(gc.isenabled())
            return 200, b""

    async def ask(_phone, _index) -> tuple[int, bytes]:
        await asyncio.sleep(0.01)
        return await Phone().send()

    in_a_thread(asyncio.run, load.closed_loop(ask, 2, seconds=0.05, warmup=0.0))
    assert collecting and not any(collecting)
    assert gc.isenabled()


def test_a_ratio_just_short_of_its_target_is_not_printed_as_reaching_it(capsys):
    run, baseline = load.Run(seconds=1.0), load.Run(seconds=1.0)
    run.latencies, baseline.latencies = [0.01] * 2994, [0.01] * 10000
    met = bench.report("meld checker", 64, run, baseline, bench.Target(0.3), (200,))
    assert not met
    assert re.search(r"\s0\.29×\s+-\s+≥ 0\.3×\s+MISSED", capsys.readouterr().out)


def test_an_endpoint_and_its_baseline_take_turns_and_are_compared_over_all_their_turns(
        monkeypatch, capsys):
    """A shared host's speed changes from one second to the next: measured one after the
    other, a slow stretch that fell on one of them alone moved the ratio. In turns, both
    see the same host: here it slows to half speed for the last two turns of each, and the
    ratio comes out as at full speed."""
    settings = bench.Settings(seconds=5.0, connections=64)
    turn = settings.seconds / bench.TURNS
    slow_from = 2 * settings.warmup + 2 * settings.seconds - 4 * turn
    now = 0.0
    asked = []  # what the server was asked, and when (on this test's clock)

    class Phone:
        async def send(self, method: str, url: str, **request) -> tuple[int, bytes]:
            asked.append((now, url))
            return 200, b""

    async def closed_loop(ask, connections, seconds, warmup) -> load.Run:
        """The host as the load generator meets it, on this test's clock: 100 hellos and 40
        checks a second, half as many from ``slow_from`` on."""
        nonlocal now
        now += warmup
        await ask(Phone(), 0)
        answers = (100 if asked[-1][1] == "hello/" else 40) * (0.5 if now >= slow_from else 1)
        now += seconds
        return load.Run(seconds, latencies=[0.01] * round(answers * seconds))

    seeded = bench.Seeded("sheet", "short", "long", [], [])
    checker = next(endpoint for endpoint in bench.endpoints("", seeded, TINY)
                   if endpoint.name.startswith("meld checker"))
    monkeypatch.setattr(bench, "endpoints", lambda *given: [checker])
    monkeypatch.setattr(load, "closed_loop", closed_loop)
    outcome = bench.Outcome()
    in_a_thread(asyncio.run, bench.closed_loops(settings, "hello", "", seeded, outcome))

    turns = asked[:2 * bench.TURNS]
    assert [url for _at, url in turns] == ["hello/", "/api/v1/burraco/meld"] * bench.TURNS
    # Each turn is a fifth of the run; only the first turn of each warms the server up.
    began = [settings.warmup, 2 * settings.warmup + turn]
    began += [began[-1] + turn * step for step in range(1, 2 * bench.TURNS - 1)]
    assert [at for at, _url in turns] == pytest.approx(began)
    # 80 hellos and 32 checks a second over the run: the ratio of the host at full speed.
    line = (rf"^{re.escape(checker.name)}\s+64\s+32\s.*\s80\s+10\.0\s+0\.40×\s+{STOLEN}"
            r"\s+≥ 0\.5×\s+MISSED")
    assert re.search(line, capsys.readouterr().out, re.MULTILINE)
    assert outcome.hello_per_second == 80


def test_runs_taken_together_count_every_answer_over_all_their_seconds():
    first = load.Run(1.0, latencies=[0.01, 0.03], statuses=Counter({200: 2}),
                     first_bodies={200: b"first"})
    second = load.Run(0.5, latencies=[0.02], statuses=Counter({200: 1, 409: 1}),
                      first_bodies={200: b"second", 409: b"late"})
    whole = load.Run.joined([first, second])
    assert whole.per_second == 2.0
    assert sorted(whole.latencies) == [0.01, 0.02, 0.03]
    assert whole.other_than(200) == Counter({409: 1})
    assert whole.first_bodies == {200: b"first", 409: b"late"}
