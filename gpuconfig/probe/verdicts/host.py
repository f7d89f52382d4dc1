"""Verdicts on the host and the run: what failed to run and why, the CPU's, disk's and DataLoader's figures
(shown, with nothing to judge them against), and what AMP and checkpointing really do here."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import replace

from gpuconfig.core.failures import Failure
from gpuconfig.probe.model import BenchmarkResult, Verdict
from gpuconfig.probe.stability import paired_ratio, spread_limit
from gpuconfig.probe.verdicts.common import measured, no_reference, unstable, unstable_verdict

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
            verdicts.append(unstable(label, "cpu", result) or no_reference(label, "cpu", result, "CPUs"))
    for result in measured(results, "disk_read"):
        check = "Disk sequential read"
        verdicts.append(unstable(check, result.device, result) or no_reference(check, result.device, result, "disks"))
    loaders = measured(results, "dataloader")
    shaky = [(r, warning) for r in loaders if (warning := unstable(f"DataLoader {r.variant}", "cpu", r))]
    verdicts += [warning for _, warning in shaky]
    if loaders and not shaky:  # which worker count is fastest is said only from stable figures
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


# Each technique's variant of the training step, and its name; its pairs with the plain step are PAIRS.
TECHNIQUES = (("amp", "AMP"), ("checkpointing", "activation checkpointing"))
PAIRS = "vs_plain_samples"


def technique_verdicts(results: Sequence[BenchmarkResult]) -> list[Verdict]:
    """What AMP and activation checkpointing really do on this machine (the seeds' claims, measured): each
    from pairs of steps measured moments apart, and not said where the pairs or the figures are unstable."""
    verdicts = []
    for model in ("train_cnn", "train_transformer"):
        runs = {r.variant: r for r in measured(results, model)}
        base = runs.get("") or runs.get("fp32")
        if base is None or not base.value:
            continue
        for variant, technique in TECHNIQUES:
            other = runs.get(variant)
            ratio = paired_ratio(other, base, PAIRS) if other is not None else None
            if other is None or ratio is None:
                continue
            check = f"{technique} on {model.removeprefix('train_')}"
            found = ratio.stability
            if variant == "checkpointing" and found.stable and ratio.value > 1 + spread_limit():
                # Checkpointing recomputes the forward pass: a faster step means the measurement was disturbed.
                found = replace(found, why=f"a step that recomputes its forward pass measured {ratio.value:.2f}x "
                                "the plain step's throughput")  # fmt: skip
            warning = unstable_verdict(check, base.device, ratio.value, "x", found)
            if warning is not None:
                verdicts.append(warning)
                continue
            spread = f" (±{100 * found.spread.spread:.0f} % over {found.spread.samples} pairs)" if found.spread else ""
            verdicts.append(
                Verdict(
                    check,
                    base.device,
                    "info",
                    f"{ratio.value:.2f}x the throughput of the plain step{spread}{_memory_change(base, other)}",
                    ratio.value,
                    1.0,
                    "x",
                    "measured on this machine against the same step without it, "
                    + ("in interleaved pairs" if found.spread else "one after the other (a report without pairs)"),
                )
            )
    return verdicts


def _memory_change(base: BenchmarkResult, other: BenchmarkResult) -> str:
    a, b = base.detail.get("peak_memory_bytes"), other.detail.get("peak_memory_bytes")
    if isinstance(a, (int, float)) and isinstance(b, (int, float)) and a > 0:
        return f", {b / a:.2f}x its peak tensor memory"
    return ""
