"""Deep models traced at three shallow depths and extended to their real depth, one phase at a time.

A step has three phases, forward, backward and the optimizer step, and each has its own peak: at two
layers a model may peak in the optimizer step (every gradient and state at once) and at three in the
backward pass (the activations). One line through the step's peaks at several depths would join different
moments of the step; so every quantity at each phase's peak is extended along its own line, and the step's
peak at full depth is the largest phase's (estimate.memory_at). The third depth checks the lines: it must
lie on the line of the first two within LINEAR_TOLERANCE, else the shallow traces do not describe the deep
model and it is traced at full depth instead (runner.run_trace). So is a model whose lines cross between the
deepest traced depth and its own: its peak would move to another phase, or to another moment of one, where
no trace has looked.

The depths follow how the config repeats its layers (ModelSource.depth_pattern, shallow_depths): a model
whose first layers differ (DeepSeek-V3's three dense layers before its expert ones) is traced past them,
and one whose layers repeat in blocks (Gemma 3: five sliding-window layers, one global) in whole blocks, so
each step of depth adds the same layers; one that names its odd layers one by one is traced at full depth.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from gpuconfig.core.i18n import QT_TRANSLATE_NOOP, translate
from gpuconfig.core.workload import cpu_heap

# The depths deep models are traced at: three, so that the third checks the line of the first two.
SHALLOW_LAYERS = (2, 3, 4)


def shallow_depths(leading: int, period: int) -> tuple[int, ...]:
    """The three depths to trace a model whose `leading` first layers differ from the rest, which repeat in
    blocks of `period` layers: each depth holds the leading layers and whole blocks, so one more block is
    what one step of depth adds (a DeepSeek-V3 with three dense layers first: 5, 6, 7; a Gemma 3 whose
    layers repeat five sliding-window and one global: 6, 12, 18)."""
    if period == 1:
        return tuple(leading + d for d in SHALLOW_LAYERS)
    return tuple(leading + period * blocks for blocks in (1, 2, 3))


# How far the third depth may sit off the line of the first two, as a share of its phase's memory (or of
# the quantity itself, for the others). Fake tensors are exact, and identical layers add identical
# tensors: traced models stay within 0.1 %; a peak that moves to another moment of its phase as the model
# deepens does not.
LINEAR_TOLERANCE = 0.01
# Extended but not checked: the heap replayed through glibc also depends on where its allocator placed each
# block, which moves in steps as the model deepens (BERT-large's replay is 1.1 % off a line at 4 layers
# while its tensors are exactly on one).
NOT_CHECKED = (
    "cpu_heap_peak_bytes",
    "cpu_heap_peak_low_bytes",
    "cpu_heap_peak_high_bytes",
    "cpu_heap_tensors_peak_bytes",
)
# The phases of a step, each with its own peak, and the memory categories read at each peak.
PHASES = ("forward", "backward", "optimizer step")
# The phases in words (the keys above are also the traced quantities' names): phase_name says them.
PHASE_NAMES = {
    "forward": QT_TRANSLATE_NOOP("Workload", "forward"),
    "backward": QT_TRANSLATE_NOOP("Workload", "backward"),
    "optimizer step": QT_TRANSLATE_NOOP("Workload", "optimizer step"),
}
CATEGORIES = ("weights", "buffers", "gradients", "optimizer", "activations", "temporaries", "inputs")
POINT_KEYS = (
    "kernels",
    "matmul_bytes",
    "other_bytes",
    "batch_norm_bytes",
    "batch_norm_elements",
    "fused_bytes",
    "fused_kernels",
    "kv_cache_bytes",
    "cpu_heap_peak_bytes",
    "cpu_heap_peak_low_bytes",
    "cpu_heap_peak_high_bytes",
    "cpu_heap_tensors_peak_bytes",
    "cuda_reserved_peak_bytes",
    *cpu_heap.TRACED_KEYS,
    "params",
    "trainable_params",
    "grad_bytes",
    "input_bytes",
)


def phase_name(phase: str) -> str:
    """A phase of the step (a PHASES key) in the language in use."""
    return translate("Workload", PHASE_NAMES[phase]) if phase in PHASE_NAMES else phase


def quantities(point: dict[str, Any]) -> dict[str, float]:
    """Every quantity a traced point measured; "phase.category" keys are memory at that phase's peak."""
    values: dict[str, float] = {}
    for phase, snapshot in point.get("phases", {}).items():
        for category in CATEGORIES:
            values[f"{phase}.{category}"] = float(snapshot.get(category, 0))
    values["flops"] = float(point["flops"])
    for dtype, flops in point.get("flops_by_dtype", {}).items():
        values[f"flops.{dtype}"] = float(flops)
    for dtype, flops in point.get("conv_flops_by_dtype", {}).items():
        values[f"convflops.{dtype}"] = float(flops)
    for key, (flops, moved) in point.get("by_intensity", {}).items():  # "kind.dtype.class"
        values[f"roofflops.{key}"] = float(flops)
        values[f"roofbytes.{key}"] = float(moved)
    for key in POINT_KEYS:
        values[key] = float(point.get(key) or 0)
    return values


@dataclass(frozen=True)
class DepthCheck:
    """How well shallow traces describe the deep model: their worst distance from a line in depth, and the
    phase the step peaks in at each traced depth (for the batch and length asked)."""

    depths: tuple[int, ...]
    layers: int
    off_line: float  # the worst deviation, as a share of its scale
    worst: str  # the quantity that deviates most
    peak_phases: tuple[str, ...]  # one per depth
    crossing: str = ""  # a shape whose peak the lines move to another phase at full depth: "backward to ..."

    @property
    def linear(self) -> bool:
        return self.off_line <= LINEAR_TOLERANCE

    @property
    def usable(self) -> bool:
        """Linear, and the phase that peaks at full depth is the one that peaks at the deepest trace."""
        return self.linear and not self.crossing

    def peaks_text(self) -> str:
        """Where the step peaks at each depth, in words."""
        phases = dict.fromkeys(self.peak_phases)
        if len(phases) == 1:
            return translate("Workload", "peak in {phase} at every depth").format(phase=phase_name(self.peak_phases[0]))
        where = [
            translate("Workload", "{phase} at {depths}").format(
                phase=phase_name(phase),
                depths=_listed([d for d, p in zip(self.depths, self.peak_phases, strict=True) if p == phase]),
            )
            for phase in phases
        ]
        return translate("Workload", "peak in {where} layers, each phase extended on its own").format(
            where=", ".join(where)
        )

    def method(self) -> str:
        """How the estimate was obtained, for the answer."""
        words = {"depths": _listed(self.depths), "layers": self.layers, "peaks": self.peaks_text()}
        if not self.linear:
            return translate(
                "Workload",
                "traced at {depths} layers, extrapolated to {layers}: NOT linear in depth ({worst} {off:.1%} off the "
                "line), {peaks}",
            ).format(**words, worst=self.worst, off=self.off_line)
        if self.crossing:
            return translate(
                "Workload",
                "traced at {depths} layers, extrapolated to {layers}: linear within {off:.1%}, {peaks}, but the lines "
                "move the peak from {crossing}",
            ).format(**words, off=max(self.off_line, 0.001), crossing=self.crossing)
        return translate(
            "Workload", "traced at {depths} layers, extrapolated to {layers}: linear within {off:.1%}, {peaks}"
        ).format(**words, off=max(self.off_line, 0.001))

    def fallback(self) -> str:
        """Why a full-depth trace replaced the shallow ones."""
        if self.linear:
            return translate(
                "Workload", "extended from {depths} layers the peak would move from {crossing} at {layers} layers"
            ).format(depths=_listed(self.depths), crossing=self.crossing, layers=self.layers)
        return translate(
            "Workload", "at {depths} layers {worst} was {off:.1%} off a line in depth (more than {tolerance:.0%})"
        ).format(depths=_listed(self.depths), worst=self.worst, off=self.off_line, tolerance=LINEAR_TOLERANCE)


def _listed(numbers: Sequence[int]) -> str:
    return ", ".join(str(n) for n in numbers)


def by_shape(points: Sequence[dict[str, Any]]) -> dict[tuple[int, int], dict[int, dict[str, Any]]]:
    """The traced points by (batch, length), then by depth, in the order they were traced."""
    shapes: dict[tuple[int, int], dict[int, dict[str, Any]]] = {}
    for p in points:
        shapes.setdefault((int(p["batch"]), int(p["seq"])), {})[int(p["layers"])] = p
    return shapes


def _off_line(depths: list[int], values: list[float]) -> float:
    """How far the last depth's value is from the line through the first two."""
    (d0, d1, d2), (v0, v1, v2) = depths[:3], values[:3]
    return abs(v2 - (v0 + (v1 - v0) * (d2 - d0) / (d1 - d0)))


def check_depth(points: Sequence[dict[str, Any]], layers: int) -> DepthCheck:
    """Whether every quantity of every shallow shape is linear in depth, and where the step peaks."""
    shapes = by_shape(points)
    worst, worst_key = 0.0, ""
    for by_depth in shapes.values():
        depths = sorted(by_depth)
        if len(depths) < 3:
            return DepthCheck(tuple(depths), layers, float("inf"), translate("Workload", "a depth"), ())
        deepest = by_depth[depths[-1]]
        values = [quantities(by_depth[d]) for d in depths]
        for key in values[-1]:
            if key in NOT_CHECKED:
                continue
            phase, _, category = key.partition(".")
            if category in CATEGORIES:  # memory at a phase's peak, against that phase's whole memory
                scale = float(sum(deepest.get("phases", {}).get(phase, {}).values()))
            else:
                scale = abs(values[-1][key])
            if scale <= 0:
                continue
            off = _off_line(depths, [v.get(key, 0.0) for v in values]) / scale
            if off > worst:
                worst, worst_key = off, key.replace(".", " ")
    first = next(iter(shapes.values()), {})
    depths = sorted(first)
    peak_phases = tuple(str(first[d].get("peak_phase", "")) for d in depths)
    crossing = ""
    for batch, seq, at_full_depth in extrapolated(points, layers):
        traced = shapes[batch, seq]
        deepest_phase = str(traced[max(traced)].get("peak_phase", ""))
        extended = _peak_phase(at_full_depth)
        if extended != deepest_phase:
            crossing = crossing or translate("Workload", "{before} to {after} (batch {batch}, length {seq})").format(
                before=phase_name(deepest_phase), after=phase_name(extended), batch=batch, seq=seq
            )
    return DepthCheck(tuple(depths), layers, worst, worst_key, peak_phases, crossing)


def _peak_phase(values: dict[str, float]) -> str:
    """The phase with the most memory at its peak."""
    totals = {p: sum(values.get(f"{p}.{c}", 0.0) for c in CATEGORIES) for p in PHASES if f"{p}.weights" in values}
    return max(totals, key=lambda p: totals[p]) if totals else ""


def extrapolated(points: Sequence[dict[str, Any]], layers: int) -> list[tuple[int, int, dict[str, float]]]:
    """Each shape's quantities at `layers` layers: every one along its least-squares line in depth, each
    phase's peak on its own (phases are never mixed: they are separate quantities)."""
    out = []
    for (batch, seq), by_depth in by_shape(points).items():
        depths = sorted(by_depth)
        values = [quantities(by_depth[d]) for d in depths]
        mean_depth = sum(depths) / len(depths)
        spread = sum((d - mean_depth) ** 2 for d in depths)
        at_depth: dict[str, float] = {}
        for key in {k for v in values for k in v}:
            column = [v.get(key, 0.0) for v in values]
            mean = sum(column) / len(column)
            slope = sum((d - mean_depth) * (q - mean) for d, q in zip(depths, column, strict=True)) / spread
            at_depth[key] = mean + slope * (layers - mean_depth)
        out.append((batch, seq, at_depth))
    return out
