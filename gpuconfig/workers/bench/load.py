"""What else the machine's CPUs did while a figure was measured: other processes' CPU time and the time
the hypervisor stole, as shares of all CPUs' time. Linux's /proc (proc(5)) with the standard library;
elsewhere psutil, where the benchmarks' Python has it.

Other processes' time is all busy time less this worker's own: the worker, its live descendants (the
DataLoader's workers, torchrun's ranks) and the children it has already waited for.
"""

from __future__ import annotations

import os
import time
from dataclasses import dataclass
from pathlib import Path
from typing import Any

PROC = Path("/proc")
SOURCE = "/proc/stat and /proc/<pid>/stat (proc(5)): busy time of all CPUs less this worker's own"
PSUTIL_SOURCE = "psutil.cpu_times() less this worker's and its children's psutil cpu_times()"


@dataclass(frozen=True)
class _Counters:
    total: float  # all CPUs' time, seconds
    busy: float  # all CPUs' busy time (not idle, not I/O wait, not stolen)
    steal: float
    own: float  # this worker's CPU time, with its descendants
    cpus: int
    source: str


def _tick() -> float:
    try:
        return float(os.sysconf("SC_CLK_TCK"))
    except (ValueError, OSError, AttributeError):
        return 100.0


TICK = _tick()


def _read() -> _Counters | None:
    try:
        lines = (PROC / "stat").read_text(encoding="ascii").splitlines()
    except OSError:
        return _read_psutil()
    cpus = sum(1 for line in lines if line.startswith("cpu") and line[3:4].isdigit())
    # user nice system idle iowait irq softirq steal (guest time is inside user)
    values = [float(v) for v in lines[0].split()[1:9]] if lines and lines[0].startswith("cpu ") else []
    if len(values) < 8:
        return None
    user, nice, system, idle, iowait, irq, softirq, steal = values
    busy = user + nice + system + irq + softirq
    return _Counters(
        total=(busy + idle + iowait + steal) / TICK, busy=busy / TICK, steal=steal / TICK, own=_own_seconds(),
        cpus=cpus, source=SOURCE,
    )  # fmt: skip


def _read_psutil() -> _Counters | None:
    """The same counters through psutil, where this Python has it (Windows, macOS: no /proc)."""
    try:
        import psutil  # type: ignore[import-untyped, unused-ignore]
    except ImportError:
        return None
    try:
        times = psutil.cpu_times()
        me = psutil.Process()
        own = sum(me.cpu_times()[:4])  # user, system, children's user and system
        for child in me.children(recursive=True):
            try:
                own += sum(child.cpu_times()[:2])
            except psutil.Error:
                continue
    except (psutil.Error, OSError):
        return None
    idle = times.idle + getattr(times, "iowait", 0.0)
    steal = getattr(times, "steal", 0.0)
    busy = sum(times) - idle - steal - getattr(times, "guest", 0.0) - getattr(times, "guest_nice", 0.0)
    cpus = psutil.cpu_count() or 1
    return _Counters(total=busy + idle + steal, busy=busy, steal=steal, own=own, cpus=cpus, source=PSUTIL_SOURCE)


def _own_seconds() -> float:
    """This process's CPU time, its waited-for children's, and its live descendants' (from /proc)."""
    times = os.times()
    own = times.user + times.system + times.children_user + times.children_system
    children: dict[int, list[tuple[int, float]]] = {}
    for entry in PROC.iterdir():
        if not entry.name.isdigit():
            continue
        try:
            text = (entry / "stat").read_text(encoding="ascii", errors="replace")
        except OSError:
            continue
        fields = text[text.rfind(")") + 2 :].split()  # after "pid (comm) "
        if len(fields) < 15:
            continue
        # state ppid ... utime(14) stime(15) cutime(16) cstime(17): fields[11:15] once state is fields[0]
        seconds = sum(float(v) for v in fields[11:15]) / TICK
        children.setdefault(int(fields[1]), []).append((int(entry.name), seconds))
    stack = [os.getpid()]
    while stack:
        for pid, seconds in children.get(stack.pop(), []):
            own += seconds
            stack.append(pid)
    return own


class CpuLoad:
    """Other processes' CPU use and stolen time over a block of code; `record()` is empty where the OS has
    no /proc/stat (the report then says it was not measured)."""

    def __init__(self) -> None:
        self._began: _Counters | None = None
        self._ended: _Counters | None = None
        self._wall = 0.0

    def __enter__(self) -> CpuLoad:
        self._began = _read()
        self._wall = time.monotonic()
        return self

    def __exit__(self, *exc: object) -> None:
        self._ended = _read()
        self._wall = time.monotonic() - self._wall

    def record(self) -> dict[str, Any]:
        a, b = self._began, self._ended
        if a is None or b is None or b.total <= a.total:
            return {}
        total = b.total - a.total
        others = max(0.0, (b.busy - a.busy) - (b.own - a.own))
        return {
            "others_cpu": round(min(others / total, 1.0), 4),
            "steal": round((b.steal - a.steal) / total, 4),
            "cpus": b.cpus,
            "seconds": round(self._wall, 3),
            "source": b.source,
        }
