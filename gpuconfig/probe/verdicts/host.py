"""Verdicts on the host and the run: what failed to run and why, the CPU's, disk's and DataLoader's figures
(shown, with nothing to judge them against), and what AMP and checkpointing really do here."""

from __future__ import annotations

from collections.abc import Sequence

from gpuconfig.core.failures import Failure
from gpuconfig.probe.model import BenchmarkResult, Verdict
from gpuconfig.probe.verdicts.common import measured, no_reference

# What to do about a failed benchmark, by why it failed (a Failure the worker or the runner gave it).
FAILURE_ADVICE = {
    Failure.OUT_OF_MEMORY: "close other programs using memory, or run the quick suite; check RAM and GPU memory",
    Failure.TIMEOUT: "the machine may be throttling or busy; watch the live graphs and run again, or allow the "
    "benchmark longer (--bench-timeout)",
    Failure.CRASH: "a crash in torch or the driver: check the driver and torch versions (gpuconfig guide)",
}
OTHER_FAILURE_ADVICE = "run again; if it repeats, report it with the exported JSON"


def failed_benchmarks(results: Sequence[BenchmarkResult]) -> list[Verdict]:
    return [
        Verdict(
            "Benchmark ran",
            r.device or "machine",
            "fail",
            f"{r.label} failed: {r.reason}",
            threshold="every benchmark completes",
            advice=_failure_advice(r.failure),
        )
        for r in results
        if r.status == "failed"
    ]


def _failure_advice(failure: Failure | None) -> str:
    return FAILURE_ADVICE.get(failure, OTHER_FAILURE_ADVICE) if failure is not None else OTHER_FAILURE_ADVICE


def cpu_figures(results: Sequence[BenchmarkResult]) -> list[Verdict]:
    verdicts = []
    for name, check in (("matmul", "Matmul"), ("memory_bandwidth", "Memory bandwidth")):
        for result in measured(results, name, "cpu"):
            label = f"{check} {result.dtype}" if name == "matmul" else check
            verdicts.append(no_reference(label, "cpu", result, "CPUs"))
    verdicts += [no_reference("Disk sequential read", r.device, r, "disks") for r in measured(results, "disk_read")]
    loaders = measured(results, "dataloader")
    if loaders:
        best = max(loaders, key=lambda r: r.value or 0)
        others = ", ".join(f"{r.variant}: {r.value:.4g}" for r in loaders if r is not best)
        verdicts.append(
            Verdict(
                "DataLoader workers",
                "cpu",
                "info",
                f"fastest with {best.variant or 'the default'}: {best.value:.4g} {best.unit} ({others})",
                best.value,
                None,
                best.unit,
                "measured on this machine",
            )
        )
    return verdicts


def technique_verdicts(results: Sequence[BenchmarkResult]) -> list[Verdict]:
    """What AMP and activation checkpointing really do on this machine (the seeds' claims, measured)."""
    verdicts = []
    for model in ("train_cnn", "train_transformer"):
        runs = {r.variant: r for r in measured(results, model)}
        base = runs.get("") or runs.get("fp32")
        if base is None or not base.value:
            continue
        for variant, technique in (("amp", "AMP"), ("checkpointing", "activation checkpointing")):
            other = runs.get(variant)
            if other is None or not other.value:
                continue
            speed = other.value / base.value
            memory = _memory_change(base, other)
            verdicts.append(
                Verdict(
                    f"{technique} on {model.removeprefix('train_')}",
                    base.device,
                    "info",
                    f"{speed:.2f}x the throughput of the plain step{memory}",
                    other.value,
                    base.value,
                    base.unit,
                    "measured on this machine against the same step without it",
                )
            )
    return verdicts


def _memory_change(base: BenchmarkResult, other: BenchmarkResult) -> str:
    a, b = base.detail.get("peak_memory_bytes"), other.detail.get("peak_memory_bytes")
    if isinstance(a, (int, float)) and isinstance(b, (int, float)) and a > 0:
        return f", {b / a:.2f}x its peak tensor memory"
    return ""
