"""`make bench` runs end to end: a tiny run of the benchmark over HTTP, so that it cannot rot
between the releases whose figures it measures."""

import re
from concurrent.futures import ThreadPoolExecutor

from benchmarks import bench

TINY = bench.Settings(seconds=0.1, connections=4, matches=4, night_seconds=3, long_match=20)
# connections, requests per second, p50 and p99 in ms
FIGURES = r"\s+(\d+)\s+(\d+)\s+([\d.]+)\s+([\d.]+)"


def test_a_tiny_bench_measures_every_endpoint_against_the_baseline(capsys):
    # In its own thread: after the browser tests, Playwright keeps an event loop running in
    # this one, and the load generator starts its own.
    with ThreadPoolExecutor(max_workers=1) as thread:
        thread.submit(bench.main, TINY).result()
    printed = capsys.readouterr().out
    assert re.search(r"^Machine: \d+ cores, .+, Python 3\.\d+", printed, re.M)
    measured = bench.endpoints("", bench.Seeded("", 0, "", "", [], []), TINY)
    for endpoint in measured:
        line = re.search(rf"^{re.escape(endpoint.name)}{FIGURES}\s+(\d+)\s+([\d.]+)×\s+"
                         rf"{re.escape(str(endpoint.target))}\s+(met|MISSED)(.*)$",
                         printed, re.M)
        assert line, f"no figures for {endpoint.name}:\n{printed}"
        assert int(line[2]) > 0 and int(line[5]) > 0, f"nothing answered: {line[0]}"
        assert "no answer" not in line[8], line[0]
    for name in (f"sheet page, {bench.SHORT_MATCH} hands", f"sheet page, {TINY.long_match} hands",
                 r"table night, \d+ requests"):
        assert re.search(rf"^{name}{FIGURES}", printed, re.M), f"no figures for {name}"
    assert re.search(r"costs [\d.]+× the 10-hand one \(target ≤ 3×\): (met|MISSED)", printed)
