"""`make bench` runs end to end: a tiny run of the benchmark over HTTP, so that it cannot rot
between the releases whose figures it measures."""

import asyncio
import gc
import re
import time
from collections import Counter
from concurrent.futures import ThreadPoolExecutor

import store
from app import create_app
from benchmarks import bench, load
from benchmarks.serve import TABLEMATE, served

TINY = bench.Settings(seconds=0.1, connections=4, matches=4, night_seconds=3, long_match=20)
# connections, requests per second, p50 and p99 in ms
FIGURES = r"\s+(\d+)\s+(\d+)\s+([\d.]+)\s+([\d.]+)"
# the share of the cores' time the host took meanwhile ("-" when no tick passed)
STOLEN = r"(\d+%|-)"


def test_a_tiny_bench_measures_every_endpoint_against_the_baseline(capsys):
    # In its own thread: after the browser tests, Playwright keeps an event loop running in
    # this one, and the load generator starts its own.
    with ThreadPoolExecutor(max_workers=1) as thread:
        thread.submit(bench.main, TINY).result()
    printed = capsys.readouterr().out
    assert re.search(r"^Machine: \d+ cores, .+, Python 3\.\d+", printed, re.M)
    measured = bench.endpoints("", bench.Seeded("", 0, "", "", [], []), TINY)
    for endpoint in measured:
        line = re.search(rf"^{re.escape(endpoint.name)}{FIGURES}\s+(\d+)\s+([\d.]+)\s+"
                         rf"([\d.]+)×\s+(\d+%)\s+{re.escape(str(endpoint.target))}\s+"
                         r"(met|MISSED)(.*)$", printed, re.M)
        assert line, f"no figures for {endpoint.name}:\n{printed}"
        assert int(line[2]) > 0 and int(line[5]) > 0, f"nothing answered: {line[0]}"
        assert float(line[6]) > 0, f"no p99 of the baseline: {line[0]}"
        assert "no answer" not in line[10], line[0]
    for name in (f"sheet page, {bench.SHORT_MATCH} hands", f"sheet page, {TINY.long_match} hands",
                 r"table night, \d+ requests"):
        assert re.search(rf"^{name}{FIGURES}", printed, re.M), f"no figures for {name}"
    assert re.search(rf"^table night, \d+ requests{FIGURES}\s+-\s+-\s+-\s+\d+%\s+p99 ≤ 100 ms",
                     printed, re.M)
    assert re.search(r"costs [\d.]+× the 10-hand one \(target ≤ 3×\): (met|MISSED)", printed)
    assert re.search(rf"^{re.escape(bench.OWN_DELAY)}\s+[\d.]+\s+[\d.]+\s+\(the phones' own "
                     r"share of the times above\)$", printed, re.M)


def test_the_share_of_the_cores_time_the_host_took_is_read_from_the_systems_ticks(tmp_path):
    """A shared host's other machines slow a run by the time they take from its cores
    (steal): a fifth of it while hand entry was measured one morning."""
    stat = tmp_path / "stat"
    # user, nice, system, idle, iowait, irq, softirq, steal, guest, guest_nice
    stat.write_text("cpu  100 0 50 800 10 0 0 40 0 0\ncpu0 50 0 25 400 5 0 0 20 0 0\n")
    start = bench.core_ticks(stat)
    assert start == (1000, 40)
    stat.write_text("cpu  400 0 150 1100 10 0 0 240 0 0\n")  # 900 ticks on, 200 of them taken
    assert bench.stolen_since(start, stat) == "22%"
    assert bench.stolen_since(bench.core_ticks(stat), stat) == "-"  # no tick passed
    assert bench.stolen_since(start, tmp_path / "elsewhere") == "-"
    stat.write_text("cpu  100 0 50 800\n")  # a system that does not count it
    assert bench.core_ticks(stat) is None


def test_the_phones_leave_what_they_only_count_packed_and_unpack_what_they_read(tmp_path):
    """A phone unpacks a page on its own processor: the generator unpacking every page on
    the server's cores took up to a fifth of the sheet page's answers a second. What it
    reads (the night's news, a new match's link) it unpacks."""
    database = tmp_path / "bench.sqlite"
    app = create_app({"DATABASE": str(database), "SECRET_KEY": "bench"})
    token = app.test_client().post("/api/v1/matches", json=bench.MATCH_SETUP).json["token"]

    async def ask(base: str) -> list[tuple[int, bytes]]:
        async with load.session(1) as client:
            phone = load.Phone(client)
            return [await phone.send("GET", f"{base}/m/{token}"),
                    await phone.send("GET", f"{base}/m/{token}", reads=True)]

    with served(TABLEMATE, database) as base, ThreadPoolExecutor(max_workers=1) as thread:
        (counted_status, counted), (read_status, read) = (
            thread.submit(asyncio.run, ask(base)).result())
    assert counted_status == read_status == 200
    assert counted.startswith(b"\x28\xb5\x2f\xfd")  # a zstd frame, as a browser gets it
    assert b"data-poll=" in load.unpacked(counted, "zstd")
    assert b"data-poll=" in read and len(read) > 3 * len(counted)


def test_a_hand_entry_table_starts_a_new_match_long_before_its_match_could_end():
    """However long the run, no hand entry's match reaches its target (every hand after
    would answer 400) or the store's limit of entries (422): each table starts a new match
    after a long evening's hands, and its phones go on in that one."""
    sent = []

    class Phone:
        async def send(self, method: str, url: str, **request) -> tuple[int, bytes]:
            sent.append(url)
            return 201, b'{"token": "next"}'

    seeded = bench.Seeded("", 0, "", "", [f"table{t}" for t in range(bench.ENTRY_TABLES)], [])
    entry = next(endpoint for endpoint in bench.endpoints("", seeded, TINY)
                 if endpoint.name.startswith("hand entry"))
    phones = [Phone() for _ in range(bench.ENTRY_TABLES)]

    async def rounds() -> None:
        for _round in range(bench.ENTRY_MATCH_HANDS + 1):
            for index, phone in enumerate(phones):
                await entry.ask(phone, index)

    # In a thread of its own, as the tiny bench above and for the same reason.
    with ThreadPoolExecutor(max_workers=1) as thread:
        thread.submit(asyncio.run, rounds()).result()
    into_first = [url for url in sent if url == "/api/v1/matches/table0/hands"]
    assert len(into_first) == bench.ENTRY_MATCH_HANDS - 1 < store.MAX_ENTRIES
    # Each phone's hands cancel out but for 10 a pair, and one hand of 410 at most.
    assert bench.ENTRY_MATCH_HANDS // 2 * 10 + 4 * 410 < bench.OPTIONS["target"]
    assert sent.count("/api/v1/matches") == bench.ENTRY_TABLES
    assert sent.count("/api/v1/matches/next/hands") == bench.ENTRY_TABLES


def test_the_table_night_tells_how_late_the_load_generator_itself_was():
    """The phones run on the server's cores: a generator held up sends its requests late,
    and that delay counts in their times. The night says how much it was."""
    async def night_with_a_held_generator() -> load.Run:
        async def hold() -> None:
            await asyncio.sleep(0.2)
            time.sleep(0.08)  # the generator busy, its timers not served

        run, _held = await asyncio.gather(
            load.table_night([], seconds=0.6, poll_every=3, hand_every=30), hold())
        return run

    with ThreadPoolExecutor(max_workers=1) as thread:
        run = thread.submit(asyncio.run, night_with_a_held_generator()).result()
    assert run.latencies == []
    # Held 80 ms: its next tick, due within 10 ms, came at least 60 ms late; most came on time.
    assert max(run.own_delays) >= 0.06
    assert run.own_delay(50) < 60


def test_the_load_generator_holds_off_its_own_garbage_collector_while_it_measures():
    """A full collection of the generator's thousands of phones holds every timer; the
    requests due meanwhile would count that pause as the server's time."""
    collecting = []

    async def night_looked_at() -> None:
        async def look() -> None:
            await asyncio.sleep(0.1)
            collecting.append(gc.isenabled())

        await asyncio.gather(load.table_night([], seconds=0.3, poll_every=3, hand_every=30),
                             look())

    with ThreadPoolExecutor(max_workers=1) as thread:
        thread.submit(asyncio.run, night_looked_at()).result()
    assert collecting == [False]
    assert gc.isenabled()


def test_the_night_phones_ask_with_the_sides_of_the_sheets_they_loaded(tmp_path, monkeypatch):
    """A phone polling at a table night loaded its sheet before: every question names the
    panel's sides that sheet showed, as the sheet's own question does."""
    seeded = bench.seed(tmp_path / "bench.sqlite", TINY)
    sheets = create_app({"DATABASE": str(tmp_path / "bench.sqlite"),
                         "SECRET_KEY": "bench"}).test_client()
    for match, sides in seeded.night:
        assert f'data-sides="{sides}"'.encode() in sheets.get(f"/m/{match.token}").data
    asked = []

    async def send(phone, method: str, url: str, **request) -> tuple[int, bytes]:
        asked.append(url)
        return 204, b""

    monkeypatch.setattr(load.Phone, "send", send)
    tables = [load.Table("", match.token, match.version, {}, sides)
              for match, sides in seeded.night]
    with ThreadPoolExecutor(max_workers=1) as thread:
        thread.submit(asyncio.run, load.table_night(tables, seconds=0.5, poll_every=0.1,
                                                    hand_every=30)).result()
    held = {f"/m/{match.token}/since/{match.version}?sides={sides}"
            for match, sides in seeded.night}
    # A table's hand falls due at a random moment of its 30 s, now and then within the run.
    assert {url for url in asked if "/since/" in url} == held


def test_a_ratio_just_short_of_its_target_is_not_printed_as_reaching_it(capsys):
    run, baseline = load.Run(seconds=1.0), load.Run(seconds=1.0)
    run.latencies, baseline.latencies = [0.01] * 2994, [0.01] * 10000
    met = bench.report("hand entry", 16, run, baseline, bench.Target(0.3), (200,))
    assert not met
    assert re.search(r"\s0\.29×\s+-\s+≥ 0\.3×\s+MISSED", capsys.readouterr().out)


def test_an_endpoint_and_its_baseline_take_turns_and_are_compared_over_all_their_turns(
        monkeypatch, capsys):
    """A shared host's speed changes from one second to the next: measured one after the
    other, a slow stretch that fell on one of them alone moved the ratio (0.09× and 0.22×
    for hand entry in two rounds 12 s apart). In turns, both see the same host."""
    measured = []

    class Phone:
        async def send(self, method: str, url: str, **request) -> tuple[int, bytes]:
            measured[-1]["url"] = url
            return 200, b""

    async def closed_loop(ask, connections, seconds, warmup) -> load.Run:
        measured.append({"seconds": seconds, "warmup": warmup})
        await ask(Phone(), 0)
        # The baseline answers 100 a second, the checker 40, in every turn.
        answers = 100 if measured[-1]["url"] == "hello/" else 40
        return load.Run(seconds, latencies=[0.01] * round(answers * seconds))

    async def night(tables, seconds, **timetable) -> load.Run:
        return load.Run(seconds, latencies=[0.01], own_delays=[0.001])

    seeded = bench.Seeded("sheet", 1, "short", "long", [], [])
    checker = next(endpoint for endpoint in bench.endpoints("", seeded, TINY)
                   if endpoint.name.startswith("meld checker"))
    monkeypatch.setattr(bench, "endpoints", lambda *given: [checker])
    monkeypatch.setattr(load, "closed_loop", closed_loop)
    monkeypatch.setattr(load, "table_night", night)
    settings = bench.Settings(seconds=5.0, connections=64)
    with ThreadPoolExecutor(max_workers=1) as thread:
        thread.submit(asyncio.run, bench.measure(settings, "hello", "", seeded)).result()

    turns = measured[:2 * bench.TURNS]
    assert [turn["url"] for turn in turns] == ["hello/", "/api/v1/burraco/meld"] * bench.TURNS
    assert [turn["seconds"] for turn in turns] == [5.0 / bench.TURNS] * 2 * bench.TURNS
    # Only the first turn of each warms the server up.
    assert [turn["warmup"] for turn in turns] == [1.0, 1.0] + [0.0] * 2 * (bench.TURNS - 1)
    line = (rf"^{re.escape(checker.name)}\s+64\s+40\s.*\s100\s+10\.0\s+0\.40×\s+{STOLEN}"
            r"\s+≥ 0\.5×\s+MISSED")
    assert re.search(line, capsys.readouterr().out, re.M)


def test_runs_taken_together_count_every_answer_over_all_their_seconds():
    first = load.Run(1.0, latencies=[0.01, 0.03], statuses=Counter({200: 2}),
                     first_bodies={200: b"first"})
    second = load.Run(0.5, latencies=[0.02], statuses=Counter({200: 1, 409: 1}),
                      first_bodies={200: b"second", 409: b"late"}, own_delays=[0.004])
    whole = load.Run.joined([first, second])
    assert whole.per_second == 2.0
    assert sorted(whole.latencies) == [0.01, 0.02, 0.03]
    assert whole.other_than(200) == Counter({409: 1})
    assert whole.first_bodies == {200: b"first", 409: b"late"}
    assert whole.own_delays == [0.004]
