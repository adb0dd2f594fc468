"""`make bench` runs end to end: a tiny run of the benchmark over HTTP, so that it cannot rot
between the releases whose figures it measures."""

import re

from benchmarks import bench

TINY = bench.Settings(seconds=0.2, connections=4, matches=4, night_seconds=0.5, long_match=20)
FIGURES = r"\s+(\d+)\s+(\d+)\s+([\d.]+)\s+([\d.]+)"


def test_a_tiny_bench_measures_every_endpoint_against_the_baseline(capsys):
    bench.main(TINY)
    printed = capsys.readouterr().out
    assert re.search(r"^Machine: \d+ cores, .+, Python 3\.\d+", printed, re.M)
    names = ["baseline: bare Flask hello",
             *(endpoint.name for endpoint in bench.endpoints("", bench.Seeded(
                 "", 0, "", "", [], []), TINY)),
             f"sheet page, {bench.SHORT_MATCH} hands", f"sheet page, {TINY.long_match} hands"]
    for name in names:
        line = re.search(rf"^{re.escape(name)}{FIGURES}", printed, re.M)
        assert line, f"no figures for {name}:\n{printed}"
        assert int(line[2]) > 0, f"nothing answered: {line[0]}"
        assert "no answer" not in line.string[line.end():].split("\n")[0], line[0]
    assert re.search(r"^table night, \d+ requests" + FIGURES, printed, re.M), printed
    assert re.search(r"(met|MISSED)\s*$", printed, re.M) and "× hello" in printed
