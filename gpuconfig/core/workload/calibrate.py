"""Fit the time model's efficiencies to published measured step times, and check them out of sample.

Priced at the roofline (Williams, Waterman and Patterson, "Roofline", CACM 52(4), 2009), a step's matrix products
and convolutions come in classes of arithmetic intensity (FLOPs per byte), and each class takes the longer of its
FLOPs at the dense rate times 1/e_c (1/e_v for convolutions) and its bytes at the bandwidth times 1/e_m; every other
operator takes its bytes at the bandwidth times 1/e_m. A datacenter GPU's rate is high beside its bandwidth, so more
of a step's products are bandwidth-bound there than on a GeForce card: one set of efficiencies holds for both.
Channels-first batch normalization on a CUDA GPU takes the longer of its bytes at the bandwidth times 1/e_m and its
elements at c multiprocessor cycles each (PyTorch reduces each channel in one block of threads, so where the
bandwidth is high beside the SMs, on a datacenter card, they pace it). Those efficiencies and c are found by a search
(the max makes the error piecewise in them): a grid of 1/e from 1 to 40 per term and of c from 1/64 to 64, then a
pattern search from its best point. Without intensity classes (`Observation.classes` empty) the model is the
older linear one below.

The batch-norm pace needs the intensity classes: the linear model has none (it is for traces made before them).

The linear model says a step takes compute/e_c + conv/e_v + memory/e_m: matrix-multiply FLOPs and convolution
FLOPs at the GPU's dense rate, and the other operators' bytes at its bandwidth, each divided by the share
of peak real steps reach; or, where longer, its kernels at eager PyTorch's launch time each (not fitted
here: the decode calibration's, from published eager decode rates). With x = 1/e the first is linear in x,
so the fit minimises the squared relative error sum((x . t_i)/T_i - 1)^2 with every efficiency in (0, 1]
(each term free or held at 1; every combination solved in closed form, the best admissible one kept: there are
only three terms). No term
with time in it is ever dropped: a fit that priced matrix multiplications at nothing could match a set of
results and still be wrong for every compute-bound step outside it.
"""

from __future__ import annotations

import itertools
import statistics
from dataclasses import dataclass
from typing import Any

TERMS = ("compute", "conv", "memory")


@dataclass(frozen=True)
class Observation:
    id: str
    compute_s: float  # traced matmul FLOPs at the dense rate, efficiency 1
    memory_s: float  # traced other bytes at the bandwidth, efficiency 1
    measured_s: float  # the published step time
    conv_s: float = 0.0  # traced convolution FLOPs at the dense rate, efficiency 1
    launch_s: float = 0.0  # traced kernels at eager PyTorch's launch time each: the least a step can take
    # Intensity classes of the matrix products and convolutions, each (kind "mm" or "conv", seconds at the dense
    # rate, seconds at the bandwidth), all at efficiency 1; compute_s and conv_s then hold no FLOPs of theirs.
    classes: tuple[tuple[str, float, float], ...] = ()
    fixed_s: float = 0.0  # time no efficiency scales (collectives between GPUs left exposed), added as it is
    # Batch normalization's part of memory_s, and its elements at one multiprocessor cycle each where the SMs pace
    # its kernels (channels-first on a CUDA GPU; else 0): it takes the longer of the two (Efficiency.other_seconds).
    batch_norm_s: float = 0.0
    batch_norm_sm_s: float = 0.0

    def times(self) -> tuple[float, float, float]:
        return (self.compute_s, self.conv_s, self.memory_s)


@dataclass(frozen=True)
class Fit:
    """Efficiency per term; None where the results had no time in that term to fit it from."""

    compute: float | None
    conv: float | None
    memory: float | None
    batch_norm_cycles_per_element: float | None = None  # None: no result had SM-paced batch normalization

    def predict(self, observation: Observation) -> float:
        """The GPU's work at the fitted efficiencies, or the host's kernel launches where they take longer."""
        efficiencies = (self.compute, self.conv, self.memory)
        work = sum(t / e for t, e in zip(observation.times(), efficiencies, strict=True) if t and e)
        if self.batch_norm_cycles_per_element and self.memory and observation.batch_norm_sm_s:
            paced = observation.batch_norm_sm_s * self.batch_norm_cycles_per_element
            work += max(0.0, paced - observation.batch_norm_s / self.memory)  # the longer of the two paces
        rate = {"mm": self.compute, "conv": self.conv}
        for kind, at_rate, at_bandwidth in observation.classes:
            work += max(at_rate / (rate[kind] or 1.0), at_bandwidth / (self.memory or 1.0))
        return max(work, observation.launch_s) + observation.fixed_s


class CalibrationError(ValueError):
    pass


def _solve(matrix: list[list[float]], vector: list[float]) -> list[float] | None:
    """Gaussian elimination with partial pivoting; None when singular."""
    n = len(vector)
    rows = [[*row, value] for row, value in zip(matrix, vector, strict=True)]
    for col in range(n):
        pivot = max(range(col, n), key=lambda r: abs(rows[r][col]))
        scale = max(abs(v) for row in rows for v in row[:n]) or 1.0
        if abs(rows[pivot][col]) <= 1e-12 * scale:
            return None
        rows[col], rows[pivot] = rows[pivot], rows[col]
        for r in range(n):
            if r != col:
                factor = rows[r][col] / rows[col][col]
                rows[r] = [a - factor * b for a, b in zip(rows[r], rows[col], strict=True)]
    return [rows[i][n] / rows[i][i] for i in range(n)]


def fit_efficiency(observations: list[Observation]) -> Fit:
    """The efficiencies with the least squared relative error, each in (0, 1]: a step cannot beat the
    peak. Linear model: each term is either fitted freely or held at efficiency 1; every combination is solved
    and the best admissible one kept. Roofline model (any observation with classes): the search above."""
    # A result its kernel launches paced says nothing of the GPU's efficiencies.
    observations = [o for o in observations if o.launch_s < o.measured_s - o.fixed_s]
    if len(observations) < 2:
        raise CalibrationError("need at least two measured results to fit the efficiencies")
    if any(o.classes for o in observations):
        return _fit_roofline(observations)
    scaled = [[t / o.measured_s for t in o.times()] for o in observations]
    present = [j for j in range(len(TERMS)) if any(row[j] > 0 for row in scaled)]
    best: tuple[float, dict[int, float]] | None = None
    for states in itertools.product(("free", "one"), repeat=len(present)):
        free = [j for j, state in zip(present, states, strict=True) if state == "free"]
        held = [j for j, state in zip(present, states, strict=True) if state == "one"]
        target = [1 - sum(row[j] for j in held) for row in scaled]
        x = dict.fromkeys(held, 1.0)
        if free:
            matrix = [[sum(row[i] * row[j] for row in scaled) for j in free] for i in free]
            vector = [sum(row[i] * t for row, t in zip(scaled, target, strict=True)) for i in free]
            solution = _solve(matrix, vector)
            if solution is None or min(solution) < 1:  # x = 1/efficiency below 1: faster than the peak
                continue
            x.update(zip(free, solution, strict=True))
        error = sum((sum(row[j] * x.get(j, 0.0) for j in present) - 1) ** 2 for row in scaled)
        if best is None or error < best[0] * (1 - 1e-9):
            best = (error, x)
    if best is None:
        raise CalibrationError("the measured results fit no efficiency at or below the peak")
    x = best[1]
    value = [1 / x[j] if j in present else None for j in range(len(TERMS))]
    return Fit(*value)


def leave_one_out(observations: list[Observation]) -> list[float]:
    """Each result predicted by efficiencies fitted on all the others: the relative error of each."""
    errors = []
    for i, held in enumerate(observations):
        fitted = fit_efficiency(observations[:i] + observations[i + 1 :])
        errors.append(fitted.predict(held) / held.measured_s - 1.0)
    return errors


def median_abs(errors: list[float]) -> float:
    return statistics.median(abs(e) for e in errors)


# 1/e from 1 (the peak) to 40 (2.5 % of it), geometrically spaced, for the roofline search's first grid.
GRID = 32
CYCLE_GRID = 13  # SM cycles per element from 1/64 to 64: a factor of 2 apart, then the pattern search
LEAST_EFFICIENCY = 1 / 40


def _fit_roofline(observations: list[Observation]) -> Fit:
    import numpy as np

    rows = len(observations)
    width = max(len(o.classes) for o in observations) or 1
    at_rate = {kind: np.zeros((rows, width)) for kind in ("mm", "conv")}
    at_bandwidth = np.zeros((rows, width))
    linear = np.zeros((rows, 3))
    norm_bytes, norm_cycles = np.zeros(rows), np.zeros(rows)  # SM-paced batch normalization: both its paces
    target = np.ones(rows)
    for i, o in enumerate(observations):
        time_left = o.measured_s - o.fixed_s  # what the efficiencies must account for
        linear[i] = [t / time_left for t in o.times()]
        if o.batch_norm_sm_s:
            norm_bytes[i], norm_cycles[i] = o.batch_norm_s / time_left, o.batch_norm_sm_s / time_left
        for j, (kind, rate_s, bandwidth_s) in enumerate(o.classes):
            at_rate[kind][i, j] = rate_s / time_left
            at_bandwidth[i, j] = bandwidth_s / time_left
    present = {
        "mm": bool(at_rate["mm"].any() or linear[:, 0].any()),
        "conv": bool(at_rate["conv"].any() or linear[:, 1].any()),
        "memory": bool(at_bandwidth.any() or linear[:, 2].any()),
    }
    grid = np.geomspace(1.0, 1 / LEAST_EFFICIENCY, GRID)

    def axis(name: str) -> Any:
        return grid if present[name] else np.ones(1)

    paced = bool(norm_cycles.any())

    def errors(mm: Any, conv: Any, memory: Any, cycles: float = 0.0) -> Any:
        """Squared relative error summed over rows, for arrays of 1/e broadcast against each other, with batch
        normalization's elements at `cycles` SM cycles each where that is the slower pace."""
        mm, conv, memory = (np.asarray(v, dtype=float)[..., None, None] for v in (mm, conv, memory))
        compute = at_rate["mm"] * mm + at_rate["conv"] * conv
        work = np.maximum(compute, at_bandwidth * memory).sum(-1)
        work = work + linear[:, 0] * mm[..., 0] + linear[:, 1] * conv[..., 0] + linear[:, 2] * memory[..., 0]
        if cycles:
            work = work + np.maximum(0.0, norm_cycles * cycles - norm_bytes * memory[..., 0])
        return ((work - target) ** 2).sum(-1)

    best_error, best = np.inf, (1.0, 1.0, 1.0, 0.0)
    mm_axis, conv_axis = axis("mm"), axis("conv")
    # SM cycles per element: none, or from 1/64 to 64 (64 cycles an element: far slower than any kernel streams)
    cycle_axis = [0.0, *np.geomspace(1 / 64, 64, CYCLE_GRID)] if paced else [0.0]
    for cycles in cycle_axis:
        for memory in axis("memory"):
            table = errors(mm_axis[:, None], conv_axis[None, :], memory, cycles)
            at = np.unravel_index(int(np.argmin(table)), table.shape)
            if table[at] < best_error:
                chosen = (float(mm_axis[at[0]]), float(conv_axis[at[1]]), float(memory), float(cycles))
                best_error, best = float(table[at]), chosen
    step = float(grid[1] / grid[0]) if GRID > 1 else 1.1
    point = list(best)
    while step > 1.0005:  # pattern search: move one term at a time while the error falls
        moved = False
        for term, name in enumerate(("mm", "conv", "memory", "cycles")):
            if not (present[name] if term < 3 else paced and point[3] > 0):
                continue
            for factor in (step, 1 / step):
                trial = list(point)
                low, high = (1.0, 1 / LEAST_EFFICIENCY) if term < 3 else (1 / 64, 64.0)
                trial[term] = min(max(trial[term] * factor, low), high)
                error = float(errors(*trial))
                if error < best_error * (1 - 1e-12):
                    best_error, point, moved = error, trial, True
        if not moved:
            step = step**0.5
    names = ("mm", "conv", "memory")
    mm, conv, memory = (1 / x if present[name] else None for x, name in zip(point[:3], names, strict=True))
    # A pace that is the slower one on no result was not measured by any: it is not kept.
    binds = paced and point[3] > 0 and bool((norm_cycles * point[3] > norm_bytes * point[2]).any())
    return Fit(mm, conv, memory, point[3] if binds else None)
