"""Deep models traced at three shallow depths and extended to their real depth, one phase at a time.

A step has three phases, forward, backward and the optimizer step, and each has its own peak: at two
layers a model may peak in the optimizer step (every gradient and state at once) and at three in the
backward pass (the activations). One line through the step's peaks at several depths would join different
moments of the step; so every quantity at each phase's peak is extended along its own line, and the step's
peak at full depth is the largest phase's (estimate.memory_at). The third depth checks the lines: it must
lie on the line of the first two within LINEAR_TOLERANCE, else the shallow traces do not describe the deep
model and it is traced at full depth instead (runner.run_trace). A few shapes are also traced at full depth
(anchors, runner.with_anchors): one whose lines cross between the deepest traced depth and its own (its peak
would move to another phase, where no shallow trace looked), and on a CUDA trace the one asked, whose caching
allocator's reserved memory is read there (AT_FULL_DEPTH). The lines must meet each anchor too: each phase's
peak, and the parts of the phase the step peaks in, within LINEAR_TOLERANCE; else the model is traced whole.

The depths follow how the config repeats its layers (ModelSource.depth_pattern, shallow_depths): a model
whose first layers differ (DeepSeek-V3's three dense layers before its expert ones) is traced past them,
and one whose layers repeat in blocks (Gemma 3: five sliding-window layers, one global) in whole blocks, so
each step of depth adds the same layers; one that names its odd layers one by one is traced at full depth.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator, Sequence
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
# Not extended at all: the CUDA caching allocator's reserved memory depends on which cached segments each new
# block can reuse, which changes in steps as the model deepens: on seven models from 24 to 80 layers the line
# through 2, 3 and 4 layers is a median 9.8 % and up to 31 % off the replay at full depth
# (benchmarks/reserved_depth.py). So the shape asked is also traced at full depth (runner.with_anchors), and the
# other shapes take its reserved memory as the same share of their step's peak (extrapolated).
AT_FULL_DEPTH = ("cuda_reserved_peak_bytes",)
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
    anchored: tuple[tuple[int, int], ...] = ()  # the (batch, length) shapes also traced at full depth

    @property
    def linear(self) -> bool:
        return self.off_line <= LINEAR_TOLERANCE

    @property
    def usable(self) -> bool:
        """Linear (at the shallow depths and against every anchor), and the phase that peaks at full depth is
        the one that peaks at the deepest trace, or was read from an anchor where it moves."""
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
        text = translate(
            "Workload", "traced at {depths} layers, extrapolated to {layers}: linear within {off:.1%}, {peaks}"
        ).format(**words, off=max(self.off_line, 0.001))
        if self.anchored:
            shapes = ", ".join(
                translate("Workload", "batch {batch} at length {seq}").format(batch=b, seq=s) for b, s in self.anchored
            )
            text += translate("Workload", "; {shapes} also traced at full depth, and read there").format(shapes=shapes)
        return text

    def fallback(self) -> str:
        """Why a full-depth trace replaced the shallow ones."""
        if self.linear:
            return translate(
                "Workload", "extended from {depths} layers the peak would move from {crossing} at {layers} layers"
            ).format(depths=_listed(self.depths), crossing=self.crossing, layers=self.layers)
        if self.anchored:
            return translate(
                "Workload",
                "{worst} was {off:.1%} off the line through {depths} layers and the full-depth trace (more than "
                "{tolerance:.0%})",
            ).format(depths=_listed(self.depths), worst=self.worst, off=self.off_line, tolerance=LINEAR_TOLERANCE)
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


def split_anchors(
    points: Sequence[dict[str, Any]], layers: int
) -> tuple[list[dict[str, Any]], dict[tuple[int, int], dict[str, Any]]]:
    """The shallow points, and the points traced at the full depth beside them by (batch, length)."""
    shallow = [p for p in points if int(p["layers"]) < layers]
    anchors = {(int(p["batch"]), int(p["seq"])): p for p in points if int(p["layers"]) >= layers}
    return shallow, anchors


def check_depth(points: Sequence[dict[str, Any]], layers: int) -> DepthCheck:
    """Whether every quantity of every shallow shape is linear in depth, and where the step peaks. A shape
    also traced at full depth (an anchor) checks the lines there too, and its peak is read, not extended."""
    shallow, anchors = split_anchors(points, layers)
    shapes = by_shape(shallow)
    for by_depth in shapes.values():
        if len(by_depth) < 3:
            return DepthCheck(tuple(sorted(by_depth)), layers, float("inf"), translate("Workload", "a depth"), ())
    lines = {(b, s): values for b, s, values in along_lines(shallow, layers)}
    # The heap's figures serve only the CPU's estimate (cpu_heap.PREDICTORS): a CUDA trace does not check them.
    unchecked = {*NOT_CHECKED, *AT_FULL_DEPTH, *(cpu_heap.TRACED_KEYS if replays_cuda(shallow) else ())}
    worst, worst_key = 0.0, ""
    for shape, by_depth in shapes.items():
        depths = sorted(by_depth)
        deepest = by_depth[depths[-1]]
        values = [quantities(by_depth[d]) for d in depths]
        anchor = anchors.get(shape)
        full = quantities(anchor) if anchor is not None else {}
        for key in values[-1]:
            if key in unchecked:
                continue
            phase, _, category = key.partition(".")
            if category in CATEGORIES:  # memory at a phase's peak, against that phase's whole memory
                scale = float(sum(deepest.get("phases", {}).get(phase, {}).values()))
                at_full = float(sum(anchor.get("phases", {}).get(phase, {}).values())) if anchor else 0.0
            else:
                scale = abs(values[-1][key])
                at_full = abs(full.get(key, 0.0))
            if scale <= 0:
                continue
            off = _off_line(depths, [v.get(key, 0.0) for v in values]) / scale
            if anchor is not None and at_full > 0 and _compared_at_full_depth(key, anchor):
                off = max(off, abs(lines[shape].get(key, 0.0) - full.get(key, 0.0)) / at_full)
            if off > worst:
                worst, worst_key = off, key.replace(".", " ")
        for phase in PHASES if anchor is not None else ():  # each phase's peak, which decides the step's
            at_full = sum(full.get(f"{phase}.{c}", 0.0) for c in CATEGORIES)
            on_line = sum(lines[shape].get(f"{phase}.{c}", 0.0) for c in CATEGORIES)
            if at_full > 0 and abs(on_line - at_full) / at_full > worst:
                worst, worst_key = abs(on_line - at_full) / at_full, phase_name(phase)
    first = next(iter(shapes.values()), {})
    depths = sorted(first)
    peak_phases = tuple(str(first[d].get("peak_phase", "")) for d in depths)
    crossing = next(
        (
            translate("Workload", "{before} to {after} (batch {batch}, length {seq})").format(
                before=phase_name(before), after=phase_name(after), batch=batch, seq=seq
            )
            for batch, seq, before, after in _crossings(shapes, lines.items())
            if (batch, seq) not in anchors  # an anchor's peak at full depth was traced, not extended
        ),
        "",
    )
    return DepthCheck(tuple(depths), layers, worst, worst_key, peak_phases, crossing, tuple(sorted(anchors)))


def replays_cuda(points: Sequence[dict[str, Any]]) -> bool:
    """Whether the points are of a CUDA trace (the caching allocator was replayed)."""
    return any(p.get("cuda_reserved_peak_bytes") for p in points)


def _compared_at_full_depth(key: str, anchor: dict[str, Any]) -> bool:
    """Whether a quantity's line is held to the full-depth trace. A phase's parts are compared only in the
    phase the step peaks in: another phase's peak may move to another moment of it as the model deepens
    (Llama-3-70B's backward pass peaks on its activations at 2 to 4 layers and on its gradients at 80), which
    changes its parts, not the step's peak; each phase's total is compared apart. The heap's figures are read
    at the step's peak moment, which a crossing shape's anchor finds in another phase."""
    phase, _, category = key.partition(".")
    if category in CATEGORIES:
        return phase == anchor.get("peak_phase")
    return key not in cpu_heap.TRACED_KEYS


def _crossings(
    shapes: dict[tuple[int, int], dict[int, dict[str, Any]]], lines: Iterable[tuple[tuple[int, int], dict[str, float]]]
) -> Iterator[tuple[int, int, str, str]]:
    """(batch, length, phase at the deepest trace, phase on the lines at full depth) for each shape whose lines
    move the step's peak to another phase."""
    for (batch, seq), at_full_depth in lines:
        traced = shapes[batch, seq]
        deepest, extended = str(traced[max(traced)].get("peak_phase", "")), _peak_phase(at_full_depth)
        if extended != deepest:
            yield batch, seq, deepest, extended


def crossing_shapes(points: Sequence[dict[str, Any]], layers: int) -> list[tuple[int, int]]:
    """The shallow shapes whose lines move the step's peak to another phase at full depth."""
    shapes = by_shape(split_anchors(points, layers)[0])
    lines = (((b, s), values) for b, s, values in along_lines(points, layers))
    return [(batch, seq) for batch, seq, _, _ in _crossings(shapes, lines)]


def _peak_phase(values: dict[str, float]) -> str:
    """The phase with the most memory at its peak."""
    totals = {p: sum(values.get(f"{p}.{c}", 0.0) for c in CATEGORIES) for p in PHASES if f"{p}.weights" in values}
    return max(totals, key=lambda p: totals[p]) if totals else ""


def along_lines(points: Sequence[dict[str, Any]], layers: int) -> list[tuple[int, int, dict[str, float]]]:
    """Each shallow shape's quantities at `layers` layers, every one along its least-squares line in depth."""
    out = []
    for (batch, seq), by_depth in by_shape(split_anchors(points, layers)[0]).items():
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


def step_peak(values: dict[str, float]) -> float:
    """The memory at the step's peak: the largest phase's."""
    phase = _peak_phase(values)
    return sum(values.get(f"{phase}.{c}", 0.0) for c in CATEGORIES) if phase else 0.0


def extrapolated(points: Sequence[dict[str, Any]], layers: int) -> list[tuple[int, int, dict[str, float]]]:
    """Each shape's quantities at `layers` layers: every one along its least-squares line in depth, each
    phase's peak on its own (phases are never mixed: they are separate quantities). The AT_FULL_DEPTH ones are
    read from a shape's full-depth trace where there is one, and the other shapes take them as the same share
    of their step's peak as the first shape so traced has (the one asked, on a CUDA trace); without any they
    are extended like the rest. A full-depth trace's other figures are not taken: check_depth holds the lines
    to them, but a phase that does not peak may peak at another moment there (other parts, the same total),
    and one fit over shapes must not join different moments of a phase."""
    anchors = {shape: quantities(p) for shape, p in split_anchors(points, layers)[1].items()}
    first = next(iter(anchors.values()), {})
    first_peak = step_peak(first)
    out = []
    for batch, seq, at_depth in along_lines(points, layers):
        anchor = anchors.get((batch, seq))
        if anchor is not None:
            at_depth.update({key: anchor.get(key, 0.0) for key in AT_FULL_DEPTH})
        elif first_peak > 0:
            share = step_peak(at_depth) / first_peak
            at_depth.update({key: first.get(key, 0.0) * share for key in AT_FULL_DEPTH})
        out.append((batch, seq, at_depth))
    return out
