"""What the machine gave a run of `make bench`: its cores and processor, the share of the
cores' time the host of a virtual machine took meanwhile, the open files a process may have,
and the cores the server and the bench kept busy."""

import os
import platform
import resource
import time
from pathlib import Path

from benchmarks.serve import Servers


def machine() -> str:
    """Cores, processor, Python and the load average before the run (during it, the
    benchmark's own threads count in it): what the figures ran on."""
    model = next((line.split(":", 1)[1].strip() for line in
                  Path("/proc/cpuinfo").read_text().splitlines()
                  if line.startswith("model name")), platform.processor() or "unknown")
    return (f"{os.cpu_count()} cores, {model}, Python {platform.python_version()}, "
            f"load average {os.getloadavg()[0]:.2f}")


# Where Linux counts the cores' time, the host's share (steal) with it.
PROC_STAT = Path("/proc/stat")


def core_ticks(stat: Path = PROC_STAT) -> tuple[int, int] | None:
    """The cores' time since the machine started, in ticks (Linux): all of it, and what the
    host of a virtual machine gave to other machines while this one had work to run
    (steal). None where the system does not tell."""
    try:
        ticks = [int(count) for count in stat.read_text().split("\n", 1)[0].split()[1:9]]
    except (OSError, ValueError):
        return None
    # user, nice, system, idle, iowait, irq, softirq, steal
    return (sum(ticks), ticks[7]) if len(ticks) == 8 else None


def stolen_since(start: tuple[int, int] | None, stat: Path = PROC_STAT) -> str:
    """The share of the cores' time the host took since ``start`` (``core_ticks()``): on a
    shared host, the other machines' load that slowed this run."""
    end = core_ticks(stat)
    if start is None or end is None or end[0] <= start[0]:
        return "-"
    return f"{(end[1] - start[1]) / (end[0] - start[0]):.0%}"


def open_files() -> int:
    """The open files this process may have, raised to the most the system allows it."""
    _soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    resource.setrlimit(resource.RLIMIT_NOFILE, (hard, hard))
    return hard


class Cores:
    """How many cores the servers' workers and the bench itself kept busy from now on."""

    def __init__(self, servers: Servers):
        self.servers = servers
        self.start = self._now()

    def _now(self) -> tuple[float, float, float]:
        own = resource.getrusage(resource.RUSAGE_SELF)
        return time.perf_counter(), self.servers.workers_cpu(), own.ru_utime + own.ru_stime

    def used(self) -> tuple[float, float]:
        """The servers' cores and the bench's, on average since the start."""
        (began, server, own), (now, server_now, own_now) = self.start, self._now()
        return (server_now - server) / (now - began), (own_now - own) / (now - began)
