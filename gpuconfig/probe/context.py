"""What else was happening during a probe run, for the report to say beside its figures: other processes'
CPU use and stolen time while each figure was measured (the worker's own account, BenchmarkResult.load),
other processes on the GPUs at the run's start and end (NVML), and each GPU's clock events, temperature
and power while it ran (the live series). A busy machine is the likely cause of an unstable figure.
"""

from __future__ import annotations

import statistics
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from gpuconfig.probe import nvml
from gpuconfig.probe.labels import figure_label
from gpuconfig.probe.model import BenchmarkResult, Maybe, Record, Unavailable
from gpuconfig.probe.stability import repeat_limit, repeat_off, stability
from gpuconfig.probe.verdicts.health import sampled

GIB = 2**30


@dataclass(frozen=True)
class GpuProcess(Record):
    """A process NVML saw on a GPU when the run started or ended (the probe's own worker runs in between)."""

    gpu: int
    pid: int
    name: str
    memory_bytes: int | None
    kind: str
    when: str


def gpu_processes(when: str) -> Maybe[tuple[GpuProcess, ...]]:
    """The processes on every NVIDIA GPU now, named where this OS lets us see them; why not, where NVML
    cannot list them."""
    session = nvml.Nvml.open()
    if isinstance(session, Unavailable):
        return session
    with session:
        count = session.device_count()
        if isinstance(count, Unavailable):
            return count
        found: list[GpuProcess] = []
        for index in range(count):
            listed = nvml.processes_from_raw(session.raw_processes(index))
            if isinstance(listed, Unavailable):
                return listed
            found += [GpuProcess(index, pid, _name(pid), used, kind, when) for pid, used, kind in listed]
    return tuple(found)


def _name(pid: int) -> str:
    import psutil  # type: ignore[import-untyped, unused-ignore]

    try:
        return str(psutil.Process(pid).name())
    except (psutil.Error, OSError):
        return "not visible from here (another container or user)"


@dataclass(frozen=True)
class Happening:
    """One line of the report's "what else was happening": its topic, what was seen, and whether it may
    have disturbed the figures."""

    topic: str
    text: str
    notable: bool = False


def what_else(
    results: Sequence[BenchmarkResult],
    processes: Maybe[tuple[GpuProcess, ...]] | None,
    series: Mapping[str, Any] | None,
    gpus: int,
) -> list[Happening]:
    """The report's account of what else the machine did, from a run's results, GPU processes and series."""
    measured = [r for r in results if r.status == "ok"]
    lines = _cpu_lines(measured) + _repeat_lines(measured)
    if gpus:
        lines.append(_process_line(processes))
    for index in range(gpus):
        lines += _series_lines(series, index)
    return lines


def _cpu_lines(results: Sequence[BenchmarkResult]) -> list[Happening]:
    loads = [r.load for r in results if isinstance(r.load.get("others_cpu"), int | float)]
    if not results:
        return []
    if not loads:
        recorded = any(r.samples for r in results)  # a report older than repeated samples has no load either
        why = "not measured on this OS (no /proc/stat)" if recorded else "not recorded in this report"
        return [Happening("CPU use by other processes", why)]
    others = [float(load["others_cpu"]) for load in loads]
    steal = [float(load.get("steal") or 0.0) for load in loads]
    busy = [r for r in results if stability(r).busy]
    unstable = [r for r in results if not stability(r).stable]
    cpus = loads[-1].get("cpus")
    of = f" of the {cpus} CPUs" if isinstance(cpus, int) else ""
    return [
        Happening(
            "CPU use by other processes",
            f"median {100 * statistics.median(others):.0f} %, at most {100 * max(others):.0f} %{of} while a "
            f"figure was measured" + (f"; busy during {len(busy)} of {len(results)} figures" if busy else ""),
            bool(busy),
        ),
        Happening(
            "CPU time stolen by the hypervisor",
            f"median {100 * statistics.median(steal):.1f} %, at most {100 * max(steal):.1f} %",
            max(steal) > 0.05,
        ),
        Happening(
            "Figures not judged",
            (f"{len(unstable)} of {len(results)} unstable: " + ", ".join(figure_label(r) for r in unstable))
            if unstable
            else f"none: all {len(results)} figures were stable",
            bool(unstable),
        ),
    ]


def _repeat_lines(results: Sequence[BenchmarkResult]) -> list[Happening]:
    """How this run's figures compare with the same figures in this machine's earlier runs."""
    if not results:
        return []
    held = [(r, off) for r in results if (off := repeat_off(r)) is not None]
    topic = "Against this machine's earlier runs"
    if not held:
        return [Happening(topic, "no earlier run of this suite in this Python and torch to compare with")]
    runs = max(len(r.earlier) for r, _ in held)
    away = [r for r, off in held if abs(off) > repeat_limit()]
    middle = statistics.median(abs(off) for _, off in held)
    text = f"{len(held)} figures held against up to {runs} earlier runs: median {100 * middle:.1f} % off"
    if away:
        text += f"; {len(away)} more than ±{100 * repeat_limit():.0f} % away: " + ", ".join(
            figure_label(r) for r in away
        )
    return [Happening(topic, text, bool(away))]


def _process_line(processes: Maybe[tuple[GpuProcess, ...]] | None) -> Happening:
    topic = "Other processes on the GPUs"
    if processes is None:
        return Happening(topic, "not recorded in this report")
    if isinstance(processes, Unavailable):
        return Happening(topic, f"not listed: {processes.reason}")
    if not processes:
        return Happening(topic, "none at the start or the end of the run")
    shown = []
    for p in processes:
        memory = f", {p.memory_bytes / GIB:.1f} GiB" if p.memory_bytes is not None else ""
        shown.append(f"GPU {p.gpu}: {p.name} (pid {p.pid}{memory}) at the {p.when}")
    return Happening(topic, "; ".join(shown), True)


def _series_lines(series: Mapping[str, Any] | None, index: int) -> list[Happening]:
    channels = (series or {}).get("channels", {})

    def seen(name: str) -> list[float]:
        return list(sampled(channels.get(f"gpu{index}.{name}", [])))

    lines = []
    events = 0
    for value in seen("throttle"):
        events |= int(value)
    if seen("throttle"):
        names = [n for n in nvml.clocks_event_names(events) if n != "gpu_idle"]
        lines.append(
            Happening(f"GPU {index} clock events", ", ".join(names) if names else "none while it worked", bool(names))
        )
    temps, power = seen("temp"), seen("power")
    if temps or power:
        parts = [f"hottest {max(temps):.0f} °C"] * bool(temps) + [f"most power {max(power):.0f} W"] * bool(power)
        lines.append(Happening(f"GPU {index} temperature and power", ", ".join(parts)))
    if not lines:
        lines.append(Happening(f"GPU {index} during the run", "not sampled (no live series in this report)"))
    return lines
