"""Judge a probe run: each result against what this part should reach, with the threshold and its source.

References and thresholds are data (catalog/probe_references.toml, read by references.py). A figure with
no reference for this part is reported as info with the reason, never judged against an invented number.
Each NVIDIA GPU (NVML's numbering) is judged with the figures of the torch device it is (torch_devices.py).
One module per subject: the torch and the driver (software), the GPU's health and link (health), its
measured figures (figures), the host's figures and what failed to run (host).
Their words are in the language in use (core/i18n.py); each keeps its check's English name (Verdict.key).
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from typing import Any

from gpuconfig.core.i18n import QT_TRANSLATE_NOOP, translate
from gpuconfig.probe import torch_devices
from gpuconfig.probe.gpu_facts import GpuFacts
from gpuconfig.probe.machine import System
from gpuconfig.probe.model import BenchmarkResult, Maybe, Unavailable, Verdict
from gpuconfig.probe.references import references
from gpuconfig.probe.torch_devices import TorchFacts
from gpuconfig.probe.verdicts.common import check, verdict
from gpuconfig.probe.verdicts.figures import figure_verdicts, unlinked_figures
from gpuconfig.probe.verdicts.health import health_verdicts, loaded_link, series_verdicts
from gpuconfig.probe.verdicts.host import (
    FAILURE_ADVICE,
    OTHER_FAILURE_ADVICE,
    cpu_figures,
    failed_benchmarks,
    technique_verdicts,
)
from gpuconfig.probe.verdicts.software import torch_verdicts

__all__ = ["FAILURE_ADVICE", "OTHER_FAILURE_ADVICE", "counts", "judge", "loaded_link", "references"]


def judge(
    system: System,
    devices: Sequence[GpuFacts],
    torch: Maybe[TorchFacts],
    results: Sequence[BenchmarkResult],
    series: Mapping[str, Any] | None = None,
) -> tuple[Verdict, ...]:
    """Every verdict of a run, in the order a reader checks a machine: software, hardware, each figure.

    `series` is the JSON form of the live metrics recorded during the run (the sampler's Series.record())."""
    refs = references()
    devices = torch_devices.link(devices, torch)
    verdicts: list[Verdict] = []
    verdicts += torch_verdicts(torch, devices)
    verdicts += failed_benchmarks(results)
    no_gpu = (
        system.gpu.reason
        if isinstance(system.gpu, Unavailable)
        else translate("ProbeVerdicts", "no NVIDIA GPU found by NVML")
    )
    if not devices:
        verdicts.append(
            verdict(
                check(QT_TRANSLATE_NOOP("ProbeVerdicts", "GPU")),
                "machine",
                "info",
                translate("ProbeVerdicts", "No NVIDIA GPU: {why}").format(why=no_gpu),
                threshold=translate("ProbeVerdicts", "nothing to compare"),
            )
        )
    for index, device in enumerate(devices):
        label = device.label(index)
        verdicts += health_verdicts(device, label, refs, loaded_link(series, index))
        verdicts += series_verdicts(series, index, device, label, refs)
        if isinstance(device.torch_device, str):
            verdicts += figure_verdicts(results, device.torch_device, device, refs, system)
    verdicts += unlinked_figures(results, devices, no_gpu)
    verdicts += cpu_figures(results)
    verdicts += technique_verdicts(results)
    return tuple(verdicts)


def counts(verdicts: Iterable[Verdict]) -> dict[str, int]:
    """How many verdicts of each status."""
    out = dict.fromkeys(("pass", "warn", "fail", "info"), 0)
    for v in verdicts:
        out[v.status] = out.get(v.status, 0) + 1
    return out
