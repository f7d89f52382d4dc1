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

from gpuconfig.core.i18n import translate
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
        return translate("ProbeReport", "not visible from here (another container or user)")


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
    topic = translate("ProbeReport", "CPU use by other processes")
    if not loads:
        recorded = any(r.samples for r in results)  # a report older than repeated samples has no load either
        why = (
            translate("ProbeReport", "not measured on this OS (no /proc/stat)")
            if recorded
            else translate("ProbeReport", "not recorded in this report")
        )
        return [Happening(topic, why)]
    others = [float(load["others_cpu"]) for load in loads]
    steal = [float(load.get("steal") or 0.0) for load in loads]
    busy = [r for r in results if stability(r).busy]
    unstable = [r for r in results if not stability(r).stable]
    cpus = loads[-1].get("cpus")
    if isinstance(cpus, int) and busy:
        used = translate(
            "ProbeReport",
            "median {median:.0f} %, at most {most:.0f} % of the {cpus} CPUs while a figure was measured; busy "
            "during {n} of {total} figures",
        )
    elif isinstance(cpus, int):
        used = translate(
            "ProbeReport", "median {median:.0f} %, at most {most:.0f} % of the {cpus} CPUs while a figure was measured"
        )
    elif busy:
        used = translate(
            "ProbeReport",
            "median {median:.0f} %, at most {most:.0f} % while a figure was measured; busy during {n} of {total} "
            "figures",
        )
    else:
        used = translate("ProbeReport", "median {median:.0f} %, at most {most:.0f} % while a figure was measured")
    median, most = 100 * statistics.median(others), 100 * max(others)
    used = used.format(median=median, most=most, cpus=cpus, n=len(busy), total=len(results))
    stolen = translate("ProbeReport", "median {median:.1f} %, at most {most:.1f} %")
    judged = (
        translate("ProbeReport", "{n} of {total} unstable: {figures}").format(
            n=len(unstable), total=len(results), figures=", ".join(figure_label(r) for r in unstable)
        )
        if unstable
        else translate("ProbeReport", "none: all {n} figures were stable").format(n=len(results))
    )
    return [
        Happening(topic, used, bool(busy)),
        Happening(
            translate("ProbeReport", "CPU time stolen by the hypervisor"),
            stolen.format(median=100 * statistics.median(steal), most=100 * max(steal)),
            max(steal) > 0.05,
        ),
        Happening(translate("ProbeReport", "Figures not judged"), judged, bool(unstable)),
    ]


def _repeat_lines(results: Sequence[BenchmarkResult]) -> list[Happening]:
    """How this run's figures compare with the same figures in this machine's earlier runs."""
    if not results:
        return []
    held = [(r, off) for r in results if (off := repeat_off(r)) is not None]
    topic = translate("ProbeReport", "Against this machine's earlier runs")
    if not held:
        none = translate("ProbeReport", "no earlier run of this suite in this Python and torch to compare with")
        return [Happening(topic, none)]
    runs = max(len(r.earlier) for r, _ in held)
    away = [r for r, off in held if abs(off) > repeat_limit()]
    middle = statistics.median(abs(off) for _, off in held)
    text = (
        translate(
            "ProbeReport",
            "{n} figures held against up to {runs} earlier runs: median {off:.1f} % off; {away} more than "
            "±{limit:.0f} % away: {figures}",
        )
        if away
        else translate("ProbeReport", "{n} figures held against up to {runs} earlier runs: median {off:.1f} % off")
    )
    text = text.format(
        n=len(held),
        runs=runs,
        off=100 * middle,
        away=len(away),
        limit=100 * repeat_limit(),
        figures=", ".join(figure_label(r) for r in away),
    )
    return [Happening(topic, text, bool(away))]


def _process_line(processes: Maybe[tuple[GpuProcess, ...]] | None) -> Happening:
    topic = translate("ProbeReport", "Other processes on the GPUs")
    if processes is None:
        return Happening(topic, translate("ProbeReport", "not recorded in this report"))
    if isinstance(processes, Unavailable):
        return Happening(topic, translate("ProbeReport", "not listed: {reason}").format(reason=processes.reason))
    if not processes:
        return Happening(topic, translate("ProbeReport", "none at the start or the end of the run"))
    return Happening(topic, "; ".join(_seen(p) for p in processes), True)


def _seen(process: GpuProcess) -> str:
    """'GPU 0: python (pid 4242, 1.5 GiB) at the start'."""
    memory = process.memory_bytes is not None
    if process.when == "start":
        said = (
            translate("ProbeReport", "GPU {gpu}: {name} (pid {pid}, {memory:.1f} GiB) at the start")
            if memory
            else translate("ProbeReport", "GPU {gpu}: {name} (pid {pid}) at the start")
        )
    elif process.when == "end":
        said = (
            translate("ProbeReport", "GPU {gpu}: {name} (pid {pid}, {memory:.1f} GiB) at the end")
            if memory
            else translate("ProbeReport", "GPU {gpu}: {name} (pid {pid}) at the end")
        )
    else:  # a report that names another moment
        said = (
            translate("ProbeReport", "GPU {gpu}: {name} (pid {pid}, {memory:.1f} GiB) at the {when}")
            if memory
            else translate("ProbeReport", "GPU {gpu}: {name} (pid {pid}) at the {when}")
        )
    gib = (process.memory_bytes or 0) / GIB
    return said.format(gpu=process.gpu, name=process.name, pid=process.pid, memory=gib, when=process.when)


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
        said = ", ".join(names) if names else translate("ProbeReport", "none while it worked")
        lines.append(
            Happening(translate("ProbeReport", "GPU {index} clock events").format(index=index), said, bool(names))
        )
    temps, power = seen("temp"), seen("power")
    if temps or power:
        if temps and power:
            said = translate("ProbeReport", "hottest {hottest:.0f} °C, most power {power:.0f} W")
        elif temps:
            said = translate("ProbeReport", "hottest {hottest:.0f} °C")
        else:
            said = translate("ProbeReport", "most power {power:.0f} W")
        said = said.format(hottest=max(temps, default=0.0), power=max(power, default=0.0))
        topic = translate("ProbeReport", "GPU {index} temperature and power").format(index=index)
        lines.append(Happening(topic, said))
    if not lines:
        topic = translate("ProbeReport", "GPU {index} during the run").format(index=index)
        lines.append(Happening(topic, translate("ProbeReport", "not sampled (no live series in this report)")))
    return lines
