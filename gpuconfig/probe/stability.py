"""Whether a measured figure can be trusted: its samples' spread, and what else the machine did meanwhile.

A figure is the median of repeated samples (the worker's time boxes). It is unstable, and is not judged,
when the middle half of its samples spans more than the stated spread; for a figure of the CPU, when
other processes and the hypervisor took more than the stated share of the CPUs while it was measured;
or when it lies further than the stated share from the same figure in this machine's earlier runs, or
those earlier runs themselves spread further (a shared machine's speed can change between runs while each
run is steady; thresholds and their source in catalog/probe_references.toml). A ratio of two figures (AMP's speed-up,
checkpointing's cost, the host link's cost) comes from pairs measured moments apart; it is unstable when
either figure is, or when its own pairs spread as much. Everything here reads the raw samples a report
keeps, so an older report's figures can be judged again.
"""

from __future__ import annotations

import statistics
from collections.abc import Sequence
from dataclasses import dataclass

from gpuconfig.probe.labels import figure_label
from gpuconfig.probe.model import BenchmarkResult, read_samples
from gpuconfig.probe.references import references

# Figures the host's CPUs produce, which other processes' CPU use slows directly.
CPU_BOUND = ("dataloader",)


def spread_limit() -> float:
    """The largest spread a figure may have and be judged (a share of its median)."""
    return float(references().thresholds["stable_spread"])


def repeat_limit() -> float:
    """How far a figure may lie from the same figure in this machine's earlier runs and be judged."""
    return float(references().thresholds["repeat_spread"])


def repeat_off(result: BenchmarkResult) -> float | None:
    """How far a figure lies from its median in this machine's earlier runs (a share); None without them."""
    if not result.earlier or result.value is None:
        return None
    before = statistics.median(result.earlier)
    return result.value / before - 1 if before else None


def half_range(values: Sequence[float]) -> float:
    """Half the distance between the largest and the smallest value, over their middle (a share)."""
    middle = (max(values) + min(values)) / 2
    return (max(values) - min(values)) / 2 / middle if middle else 0.0


@dataclass(frozen=True)
class Spread:
    """A distribution of samples: its median, and half its interquartile range as a share of the median."""

    median: float
    spread: float
    samples: int

    def text(self, of: str = "samples") -> str:
        return f"±{100 * self.spread:.1f} % over {self.samples} {of}"


def spread_of(samples: Sequence[float]) -> Spread | None:
    """The spread of two or more samples (quartiles as the inclusive method draws them); None for fewer."""
    if len(samples) < 2:
        return None
    middle = statistics.median(samples)
    low, _, high = statistics.quantiles(samples, n=4, method="inclusive")
    return Spread(middle, (high - low) / 2 / abs(middle) if middle else float("inf"), len(samples))


@dataclass(frozen=True)
class Stability:
    """Whether a figure is judged, and why not: `why` is empty for a stable figure; `busy` names what else
    used the CPUs, where that passed the threshold (the likely cause of a wide spread); `drifting`: it
    does not repeat across this machine's earlier runs."""

    spread: Spread | None
    why: str = ""
    busy: str = ""
    drifting: bool = False  # it does not repeat across this machine's earlier runs

    @property
    def stable(self) -> bool:
        return not self.why


def busy(result: BenchmarkResult) -> str:
    """What else the CPUs did while `result` was measured, in words, when it passed the threshold."""
    load = result.load
    others, steal = load.get("others_cpu"), load.get("steal")
    if not isinstance(others, int | float) or not isinstance(steal, int | float):
        return ""
    if others + steal <= references().thresholds["busy_share"]:
        return ""
    cpus = load.get("cpus")
    of = f" of the {cpus} CPUs" if isinstance(cpus, int) and cpus > 0 else " of the CPUs"
    stolen = f", the hypervisor stole {100 * steal:.0f} %" if steal >= 0.005 else ""
    return f"other processes used {100 * others:.0f} %{of}{stolen}"


def stability(result: BenchmarkResult, repeats: bool = True) -> Stability:
    """Whether a measured figure is stable enough to judge: by its samples, the machine's load while it was
    measured and (`repeats`) how far it lies from the same figure in this machine's earlier runs."""
    spread = spread_of(result.samples)
    limit = spread_limit()
    load = busy(result)
    own_cpus = result.device == "cpu" or result.name in CPU_BOUND
    reasons = [f"it was measured while {load}"] if load and own_cpus else []  # the cause first
    if spread is not None and spread.spread > limit:
        reasons.append(f"its samples spread {spread.text()}, more than ±{100 * limit:.0f} %")
    fewest = int(references().thresholds["min_samples"])
    if 0 < len(result.samples) < fewest:
        reasons.append(f"only {len(result.samples)} of the {fewest} samples it needs fit in its time box")
    drift = _drift(result, spread.spread if spread is not None else 0.0) if repeats else ""
    if drift:
        reasons.append(drift)
    if load and reasons and not own_cpus:
        reasons.append(f"likely cause: {load}")
    return Stability(spread, "; ".join(reasons), load, bool(drift))


def _drift(result: BenchmarkResult, own: float) -> str:
    """Why a figure does not repeat across this machine's earlier runs, in words; "" when it does: it lies
    more than the allowed share from their median (or, with its own spread, more than the judgement's
    resolution), or those runs themselves swing more than the allowed share."""
    off = repeat_off(result)
    if off is None:
        return ""
    allowed, limit = repeat_limit(), spread_limit()
    swing = half_range(result.earlier) if len(result.earlier) > 1 else 0.0
    far = abs(off) > allowed or abs(off) + own > limit
    if not far and swing <= allowed:
        return ""
    runs = f"this machine's last {len(result.earlier)} run" + "s" * (len(result.earlier) > 1)
    before = statistics.median(result.earlier)
    said = f"it lies {100 * off:+.1f} % from {runs} ({before:.4g} {result.unit})"
    if swing > allowed:
        said += f", which themselves swing ±{100 * swing:.1f} %"
    return f"{said}, where ±{100 * allowed:.0f} % is allowed (±{100 * limit:.0f} % with its own spread)"


@dataclass(frozen=True)
class Ratio:
    """One figure against another measured beside it: the median of the pairs' ratios and its stability."""

    value: float
    stability: Stability


def paired_ratio(result: BenchmarkResult, base: BenchmarkResult, key: str) -> Ratio | None:
    """`result` against `base` from the pairs in result.detail[key] (interleaved samples); an older report
    without pairs gives the ratio of the two medians, judged by the two figures alone."""
    if not result.value or not base.value:
        return None
    pairs = read_samples(result.detail.get(key))
    spread = spread_of(pairs)
    value = spread.median if spread is not None else result.value / base.value
    shaky = [figure_label(figure) for figure in (base, result) if not stability(figure).stable]
    reasons = [f"{' and '.join(shaky)} {'are' if len(shaky) > 1 else 'is'} unstable"] if shaky else []
    limit = spread_limit()
    if spread is not None and spread.spread > limit:
        reasons.append(f"its pairs spread {spread.text('pairs')}, more than ±{100 * limit:.0f} %")
    load = busy(result) or busy(base)
    if load and reasons:
        reasons.append(f"likely cause: {load}")
    return Ratio(value, Stability(spread, "; ".join(reasons), load))
