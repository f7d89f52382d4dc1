"""Verdicts on the host and the run: what failed to run and why, the CPU's, disk's and DataLoader's figures
(shown, with nothing to judge them against), and what AMP and checkpointing really do here."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import replace

from gpuconfig.core.failures import Failure
from gpuconfig.core.i18n import QT_TRANSLATE_NOOP, translate
from gpuconfig.probe.model import BenchmarkResult, Verdict
from gpuconfig.probe.stability import Stability, paired_ratio, spread_limit
from gpuconfig.probe.verdicts.common import (
    check,
    marked,
    measured,
    no_reference,
    unstable,
    unstable_verdict,
    verdict,
)

# What to do about a failed benchmark, by why it failed (a Failure the worker or the runner gave it), in
# English: a verdict says it in the language in use.
FAILURE_ADVICE = {
    Failure.OUT_OF_MEMORY: QT_TRANSLATE_NOOP(
        "ProbeVerdicts", "close other programs using memory, or run the quick suite; check RAM and GPU memory"
    ),
    Failure.TIMEOUT: QT_TRANSLATE_NOOP(
        "ProbeVerdicts",
        "the machine may be throttling or busy; watch the live graphs and run again, or allow the "
        "benchmark longer (--bench-timeout)",
    ),
    Failure.CRASH: QT_TRANSLATE_NOOP(
        "ProbeVerdicts", "a crash in torch or the driver: check the driver and torch versions (gpuconfig guide)"
    ),
}
OTHER_FAILURE_ADVICE = QT_TRANSLATE_NOOP("ProbeVerdicts", "run again; if it repeats, report it with the exported JSON")


def failed_benchmarks(results: Sequence[BenchmarkResult]) -> list[Verdict]:
    return [
        verdict(
            check(QT_TRANSLATE_NOOP("ProbeVerdicts", "Benchmark ran")),
            r.device or "machine",
            "fail",
            translate("ProbeVerdicts", "{benchmark} failed: {reason}").format(benchmark=r.label, reason=r.reason),
            threshold=translate("ProbeVerdicts", "every benchmark completes"),
            advice=marked(_failure_advice(r.failure)),
        )
        for r in results
        if r.status == "failed"
    ]


def _failure_advice(failure: Failure | None) -> str:
    return FAILURE_ADVICE.get(failure, OTHER_FAILURE_ADVICE) if failure is not None else OTHER_FAILURE_ADVICE


def cpu_figures(results: Sequence[BenchmarkResult]) -> list[Verdict]:
    verdicts = []
    cpus = translate("ProbeVerdicts", "CPUs")
    for result in measured(results, "matmul", "cpu"):
        named = check(QT_TRANSLATE_NOOP("ProbeVerdicts", "Matmul {dtype}"), dtype=result.dtype)
        verdicts.append(unstable(named, "cpu", result) or no_reference(named, "cpu", result, cpus))
    for result in measured(results, "memory_bandwidth", "cpu"):
        named = check(QT_TRANSLATE_NOOP("ProbeVerdicts", "Memory bandwidth"))
        verdicts.append(unstable(named, "cpu", result) or no_reference(named, "cpu", result, cpus))
    for result in measured(results, "disk_read"):
        named = check(QT_TRANSLATE_NOOP("ProbeVerdicts", "Disk sequential read"))
        disks = translate("ProbeVerdicts", "disks")
        verdicts.append(unstable(named, result.device, result) or no_reference(named, result.device, result, disks))
    loaders = measured(results, "dataloader")
    loader = QT_TRANSLATE_NOOP("ProbeVerdicts", "DataLoader {variant}")
    shaky = [(r, warning) for r in loaders if (warning := unstable(check(loader, variant=r.variant), "cpu", r))]
    verdicts += [warning for _, warning in shaky]
    if loaders and not shaky:  # which worker count is fastest is said only from stable figures
        best = max(loaders, key=lambda r: r.value or 0)
        others = ", ".join(f"{r.variant}: {r.value:.4g}" for r in loaders if r is not best)
        fastest = (
            translate("ProbeVerdicts", "fastest with {variant}: {value:.4g} {unit} ({others})")
            if best.variant
            else translate("ProbeVerdicts", "fastest with the default: {value:.4g} {unit} ({others})")
        )
        verdicts.append(
            verdict(
                check(QT_TRANSLATE_NOOP("ProbeVerdicts", "DataLoader workers")),
                "cpu",
                "info",
                fastest.format(variant=best.variant, value=best.value, unit=best.unit, others=others),
                best.value,
                None,
                best.unit,
                translate("ProbeVerdicts", "measured on this machine"),
            )
        )
    return verdicts


# Each technique's variant of the training step, and its check on a model; its pairs with the plain step are
# PAIRS.
TECHNIQUES = (
    ("amp", QT_TRANSLATE_NOOP("ProbeVerdicts", "AMP on {model}")),
    ("checkpointing", QT_TRANSLATE_NOOP("ProbeVerdicts", "activation checkpointing on {model}")),
)
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
            named = check(technique, model=model.removeprefix("train_"))
            found = ratio.stability
            if variant == "checkpointing" and found.stable and ratio.value > 1 + spread_limit():
                # Checkpointing recomputes the forward pass: a faster step means the measurement was disturbed.
                why = translate(
                    "ProbeVerdicts",
                    "a step that recomputes its forward pass measured {ratio:.2f}x the plain step's throughput",
                )
                found = replace(found, why=why.format(ratio=ratio.value))
            warning = unstable_verdict(named, base.device, ratio.value, "x", found)
            if warning is not None:
                verdicts.append(warning)
                continue
            how = (
                translate(
                    "ProbeVerdicts", "measured on this machine against the same step without it, in interleaved pairs"
                )
                if found.spread
                else translate(
                    "ProbeVerdicts",
                    "measured on this machine against the same step without it, one after the other (a report "
                    "without pairs)",
                )
            )
            verdicts.append(
                verdict(
                    named, base.device, "info", _throughput(ratio.value, found, base, other), ratio.value, 1.0, "x", how
                )
            )
    return verdicts


def _throughput(value: float, found: Stability, base: BenchmarkResult, other: BenchmarkResult) -> str:
    """A technique's step against the plain step: its throughput, over how many pairs, and its memory."""
    a, b = base.detail.get("peak_memory_bytes"), other.detail.get("peak_memory_bytes")
    memory = b / a if isinstance(a, (int, float)) and isinstance(b, (int, float)) and a > 0 else None
    spread = found.spread
    if spread is not None and memory is not None:
        said = translate(
            "ProbeVerdicts",
            "{ratio:.2f}x the throughput of the plain step (±{spread:.0f} % over {pairs} pairs), {memory:.2f}x its "
            "peak tensor memory",
        )
    elif spread is not None:
        said = translate(
            "ProbeVerdicts", "{ratio:.2f}x the throughput of the plain step (±{spread:.0f} % over {pairs} pairs)"
        )
    elif memory is not None:
        said = translate(
            "ProbeVerdicts", "{ratio:.2f}x the throughput of the plain step, {memory:.2f}x its peak tensor memory"
        )
    else:
        said = translate("ProbeVerdicts", "{ratio:.2f}x the throughput of the plain step")
    return said.format(
        ratio=value,
        spread=100 * spread.spread if spread else 0.0,
        pairs=spread.samples if spread else 0,
        memory=memory or 0.0,
    )
