"""One probe run end to end: inventory, the benchmark suite in a worker process, the verdicts.

`probe()` is what the CLI and the Probe tab both call; its `ProbeRun` is what the history stores and the
reports export.
"""

from __future__ import annotations

import platform
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field, replace
from datetime import datetime
from typing import Any

from gpuconfig import __version__
from gpuconfig.probe import torch_devices
from gpuconfig.probe.context import GpuProcess, Happening, gpu_processes, what_else
from gpuconfig.probe.gpu_facts import GpuFacts
from gpuconfig.probe.machine import System
from gpuconfig.probe.model import BenchmarkResult, Maybe, Unavailable, Verdict, to_json
from gpuconfig.probe.runner import DEFAULT_LIMITS, Limits, run_suite
from gpuconfig.probe.stability import stability
from gpuconfig.probe.torch_devices import TorchFacts
from gpuconfig.probe.verdicts import counts, judge

Progress = Callable[[int, int, str], None]
# How many earlier values of a figure it is held against (the newest).
EARLIER_VALUES = 5


@dataclass(frozen=True)
class ProbeRun:
    """One probe run: the machine, the torch the benchmarks ran in, what they measured, the verdicts, and the
    live series recorded during it (its JSON form, as the sampler's Series.record() writes it)."""

    started_at: str  # ISO 8601, local time with offset
    suite: str
    python: str
    host: str
    system: System
    devices: tuple[GpuFacts, ...]
    torch: Maybe[TorchFacts]
    results: tuple[BenchmarkResult, ...]
    verdicts: tuple[Verdict, ...]
    seconds: float = 0.0
    cancelled: bool = False
    series: dict[str, Any] | None = field(default=None, compare=False)
    budget_s: float | None = None
    gpu_processes: Maybe[tuple[GpuProcess, ...]] | None = None

    def what_else(self) -> list[Happening]:
        """What else the machine did during the run (context.what_else)."""
        return what_else(self.results, self.gpu_processes, self.series, len(self.devices))

    @property
    def counts(self) -> dict[str, int]:
        return counts(self.verdicts)

    @property
    def failed(self) -> bool:
        return any(v.status == "fail" for v in self.verdicts)

    def record(self) -> dict[str, Any]:
        """The JSON form (`gpuconfig probe --json`): stable keys, plain types."""
        return {
            "gpuconfig": __version__,
            "started_at": self.started_at,
            "suite": self.suite,
            "python": self.python,
            "host": self.host,
            "seconds": self.seconds,
            "budget_s": self.budget_s,
            "cancelled": self.cancelled,
            "system": self.system.record(),
            "devices": [d.record() for d in self.devices],
            "torch": self.torch.record(),
            "benchmarks": [r.record() for r in self.results],
            "verdicts": [v.record() for v in self.verdicts],
            "summary": self.counts,
            "series": self.series,
            "gpu_processes": to_json(self.gpu_processes),
        }

    @classmethod
    def from_record(cls, data: dict[str, Any]) -> ProbeRun:
        return cls(
            started_at=str(data["started_at"]),
            suite=str(data["suite"]),
            python=str(data.get("python", "")),
            host=str(data.get("host", "")),
            system=System.from_record(data.get("system", {})),
            devices=tuple(GpuFacts.from_record(d) for d in data.get("devices", [])),
            torch=TorchFacts.read(data.get("torch", {})),
            results=tuple(BenchmarkResult.from_record(r) for r in data.get("benchmarks", [])),
            verdicts=tuple(Verdict.from_record(v) for v in data.get("verdicts", [])),
            seconds=float(data.get("seconds", 0.0)),
            cancelled=bool(data.get("cancelled", False)),
            series=data.get("series"),
            budget_s=_number(data.get("budget_s")),
            gpu_processes=_processes(data.get("gpu_processes")),
        )


def probe(
    suite: str = "quick",
    python: str | None = None,
    only: Sequence[str] | None = None,
    progress: Progress | None = None,
    on_result: Callable[[BenchmarkResult], None] | None = None,
    cancelled: Callable[[], bool] | None = None,
    series: Callable[[], dict[str, Any] | None] | None = None,
    extra_pythons: Sequence[str] = (),
    limits: Limits = DEFAULT_LIMITS,
    earlier: Callable[[str, str], Sequence[ProbeRun]] | None = None,
) -> ProbeRun:
    """Inventory this machine, run the suite in `python` (a worker process), judge what it measured.

    `series` returns the recorded live metrics (the JSON form of the sampler's series) at the end, so the
    verdicts can look at throttling and temperature during the run and the history keeps the graphs.
    `limits` replaces the worker's default time-outs. `earlier(host, suite)` gives this machine's earlier
    runs (the history's): each figure keeps its values there, to say whether it repeats.
    """
    from gpuconfig.probe.inventory import inventory

    started_at = datetime.now().astimezone().isoformat(timespec="seconds")
    clock = time.monotonic()
    found = inventory(extra_pythons=extra_pythons)
    before = gpu_processes("start") if found.devices else None
    outcome = run_suite(suite, python, only, progress, on_result, cancelled, limits, began=clock)
    after = gpu_processes("end") if found.devices else None
    recorded = series() if series is not None else None
    # Each NVIDIA GPU says which torch device it is, so the report and the verdicts name it the same way.
    system, devices = found.system, tuple(torch_devices.link(found.devices, outcome.torch))
    host = platform.node()
    past = earlier(host, suite) if earlier is not None and not outcome.cancelled else ()
    results = with_earlier(outcome.results, past, outcome.python, outcome.torch)
    return ProbeRun(
        started_at=started_at,
        suite=suite,
        python=outcome.python,
        host=host,
        system=system,
        devices=devices,
        torch=outcome.torch,
        results=results,
        verdicts=judge(system, devices, outcome.torch, results, recorded),
        seconds=round(time.monotonic() - clock, 2),
        cancelled=outcome.cancelled,
        series=recorded,
        budget_s=limits.budget(suite),
        gpu_processes=_both(before, after),
    )


def judged_again(run: ProbeRun) -> ProbeRun:
    """A saved run with its verdicts judged again from what it recorded: in the language in use now (a run saved
    in English reads in Chinese once the window is), against the references of this version. A run whose records
    an older version wrote in a form the verdicts no longer read keeps the verdicts it was saved with."""
    try:
        verdicts = judge(run.system, run.devices, run.torch, run.results, run.series)
    except (AttributeError, KeyError, TypeError, ValueError):
        return run
    return replace(run, verdicts=verdicts)


def with_earlier(
    results: Sequence[BenchmarkResult], past: Sequence[ProbeRun], python: str, torch: Maybe[TorchFacts]
) -> tuple[BenchmarkResult, ...]:
    """Each measured figure with its values in `past` runs of the same Python and torch (newest first), where
    they were stable in their own run, at most EARLIER_VALUES of each: what says whether this machine's
    figures repeat."""
    version = torch.version if isinstance(torch, TorchFacts) else None
    alike = [run for run in past if run.python == python and getattr(run.torch, "version", None) == version]
    figures: dict[tuple[str, str, str, str], list[float]] = {}
    for run in alike:
        for old in run.results:
            # A report from before figures were sampled measured them another way: not held against.
            if old.status == "ok" and old.value is not None and old.samples and stability(old, repeats=False).stable:
                figures.setdefault(old.key, []).append(old.value)
    return tuple(
        replace(r, earlier=tuple(figures[r.key][:EARLIER_VALUES])) if r.status == "ok" and r.key in figures else r
        for r in results
    )


def _both(
    before: Maybe[tuple[GpuProcess, ...]] | None, after: Maybe[tuple[GpuProcess, ...]] | None
) -> Maybe[tuple[GpuProcess, ...]] | None:
    """The processes seen at the start and at the end, or why they could not be listed."""
    if isinstance(before, Unavailable) or before is None:
        return before
    return before + after if isinstance(after, tuple) else before


def _number(value: object) -> float | None:
    return float(value) if isinstance(value, int | float) and not isinstance(value, bool) else None


def _processes(value: object) -> Maybe[tuple[GpuProcess, ...]] | None:
    if value is None:
        return None
    missing = Unavailable.read(value)
    if missing is not None:
        return missing
    return tuple(GpuProcess.from_record(p) for p in value if isinstance(p, dict)) if isinstance(value, list) else None
