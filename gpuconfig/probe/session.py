"""One probe run end to end: inventory, the benchmark suite in a worker process, the verdicts.

`probe()` is what the CLI and the Probe tab both call; its `ProbeRun` is what the history stores and the
reports export.
"""

from __future__ import annotations

import platform
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from datetime import datetime
from typing import Any

from gpuconfig import __version__
from gpuconfig.probe import torch_devices
from gpuconfig.probe.gpu_facts import GpuFacts
from gpuconfig.probe.machine import System
from gpuconfig.probe.model import BenchmarkResult, Maybe, Verdict
from gpuconfig.probe.runner import DEFAULT_LIMITS, Limits, run_suite
from gpuconfig.probe.torch_devices import TorchFacts
from gpuconfig.probe.verdicts import counts, judge

Progress = Callable[[int, int, str], None]


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
            "cancelled": self.cancelled,
            "system": self.system.record(),
            "devices": [d.record() for d in self.devices],
            "torch": self.torch.record(),
            "benchmarks": [r.record() for r in self.results],
            "verdicts": [v.record() for v in self.verdicts],
            "summary": self.counts,
            "series": self.series,
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
) -> ProbeRun:
    """Inventory this machine, run the suite in `python` (a worker process), judge what it measured.

    `series` returns the recorded live metrics (the JSON form of the sampler's series) at the end, so the
    verdicts can look at throttling and temperature during the run and the history keeps the graphs.
    `limits` replaces the worker's default time-outs.
    """
    from gpuconfig.probe.inventory import inventory

    started_at = datetime.now().astimezone().isoformat(timespec="seconds")
    clock = time.monotonic()
    found = inventory(extra_pythons=extra_pythons)
    outcome = run_suite(suite, python, only, progress, on_result, cancelled, limits)
    recorded = series() if series is not None else None
    # Each NVIDIA GPU says which torch device it is, so the report and the verdicts name it the same way.
    system, devices = found.system, tuple(torch_devices.link(found.devices, outcome.torch))
    return ProbeRun(
        started_at=started_at,
        suite=suite,
        python=outcome.python,
        host=platform.node(),
        system=system,
        devices=devices,
        torch=outcome.torch,
        results=outcome.results,
        verdicts=judge(system, devices, outcome.torch, outcome.results, recorded),
        seconds=round(time.monotonic() - clock, 2),
        cancelled=outcome.cancelled,
        series=recorded,
    )
