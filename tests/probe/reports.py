"""Probe data written as a report holds it (JSON objects), read by the probe's own parsers for the tests."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from gpuconfig.probe.gpu_facts import GpuFacts
from gpuconfig.probe.machine import System
from gpuconfig.probe.model import BenchmarkResult, Maybe, Unavailable, Verdict
from gpuconfig.probe.torch_devices import TorchFacts, link
from gpuconfig.probe.verdicts import judge

Json = Mapping[str, Any]


def typed(
    system: Json, devices: Sequence[Json | GpuFacts], torch: Json | Maybe[TorchFacts]
) -> tuple[System, tuple[GpuFacts, ...], Maybe[TorchFacts]]:
    """The system, the NVIDIA GPUs and the torch facts of a report, as the program holds them."""
    gpus = tuple(d if isinstance(d, GpuFacts) else GpuFacts.from_record(d) for d in devices)
    facts = torch if isinstance(torch, TorchFacts | Unavailable) else TorchFacts.read(torch)
    return System.from_record(system), gpus, facts


def judge_json(
    system: Json,
    devices: Sequence[Json | GpuFacts],
    torch: Json | Maybe[TorchFacts],
    results: Sequence[BenchmarkResult],
    series: Json | None = None,
) -> tuple[Verdict, ...]:
    """The verdicts of a run whose machine and torch are given in their JSON forms."""
    return judge(*typed(system, devices, torch), results, series)


def link_json(devices: Sequence[Json | GpuFacts], torch: Json) -> list[dict[str, Any]]:
    """torch_devices.link over a report's JSON forms, answered in the JSON form."""
    _, gpus, facts = typed({}, devices, torch)
    return [d.record() for d in link(gpus, facts)]
