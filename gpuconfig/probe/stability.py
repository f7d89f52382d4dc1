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

from gpuconfig.core.i18n import translate
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

    def text(self, pairs: bool = False) -> str:
        """'±3.1 % over 5 samples' (or pairs)."""
        said = (
            translate("ProbeReport", "±{spread:.1f} % over {n} pairs")
            if pairs
            else translate("ProbeReport", "±{spread:.1f} % over {n} samples")
        )
        return said.format(spread=100 * self.spread, n=self.samples)


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
    counted = isinstance(cpus, int) and cpus > 0
    if counted and steal >= 0.005:
        said = translate(
            "ProbeReport", "other processes used {others:.0f} % of the {cpus} CPUs, the hypervisor stole {steal:.0f} %"
        )
    elif counted:
        said = translate("ProbeReport", "other processes used {others:.0f} % of the {cpus} CPUs")
    elif steal >= 0.005:
        said = translate(
            "ProbeReport", "other processes used {others:.0f} % of the CPUs, the hypervisor stole {steal:.0f} %"
        )
    else:
        said = translate("ProbeReport", "other processes used {others:.0f} % of the CPUs")
    return said.format(others=100 * others, cpus=cpus, steal=100 * steal)


def stability(result: BenchmarkResult, repeats: bool = True) -> Stability:
    """Whether a measured figure is stable enough to judge: by its samples, the machine's load while it was
    measured and (`repeats`) how far it lies from the same figure in this machine's earlier runs."""
    spread = spread_of(result.samples)
    limit = spread_limit()
    load = busy(result)
    own_cpus = result.device == "cpu" or result.name in CPU_BOUND
    reasons = []
    if load and own_cpus:  # the cause first
        reasons.append(translate("ProbeReport", "it was measured while {load}").format(load=load))
    if spread is not None and spread.spread > limit:
        said = translate("ProbeReport", "its samples spread {spread}, more than ±{limit:.0f} %")
        reasons.append(said.format(spread=spread.text(), limit=100 * limit))
    fewest = int(references().thresholds["min_samples"])
    if 0 < len(result.samples) < fewest:
        said = translate("ProbeReport", "only {n} of the {fewest} samples it needs fit in its time box")
        reasons.append(said.format(n=len(result.samples), fewest=fewest))
    drift = _drift(result, spread.spread if spread is not None else 0.0) if repeats else ""
    if drift:
        reasons.append(drift)
    if load and reasons and not own_cpus:
        reasons.append(translate("ProbeReport", "likely cause: {load}").format(load=load))
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
    several = len(result.earlier) > 1
    if swing > allowed and several:
        said = translate(
            "ProbeReport",
            "it lies {off:+.1f} % from this machine's last {n} runs ({before:.4g} {unit}), which themselves swing "
            "±{swing:.1f} %, where ±{allowed:.0f} % is allowed (±{limit:.0f} % with its own spread)",
        )
    elif several:
        said = translate(
            "ProbeReport",
            "it lies {off:+.1f} % from this machine's last {n} runs ({before:.4g} {unit}), where ±{allowed:.0f} % "
            "is allowed (±{limit:.0f} % with its own spread)",
        )
    else:
        said = translate(
            "ProbeReport",
            "it lies {off:+.1f} % from this machine's last {n} run ({before:.4g} {unit}), where ±{allowed:.0f} % "
            "is allowed (±{limit:.0f} % with its own spread)",
        )
    return said.format(
        off=100 * off,
        n=len(result.earlier),
        before=statistics.median(result.earlier),
        unit=result.unit,
        swing=100 * swing,
        allowed=100 * allowed,
        limit=100 * limit,
    )


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
    reasons = []
    if len(shaky) > 1:
        said = translate("ProbeReport", "{first} and {second} are unstable")
        reasons.append(said.format(first=shaky[0], second=shaky[1]))
    elif shaky:
        reasons.append(translate("ProbeReport", "{figure} is unstable").format(figure=shaky[0]))
    limit = spread_limit()
    if spread is not None and spread.spread > limit:
        said = translate("ProbeReport", "its pairs spread {spread}, more than ±{limit:.0f} %")
        reasons.append(said.format(spread=spread.text(pairs=True), limit=100 * limit))
    load = busy(result) or busy(base)
    if load and reasons:
        reasons.append(translate("ProbeReport", "likely cause: {load}").format(load=load))
    return Ratio(value, Stability(spread, "; ".join(reasons), load))
