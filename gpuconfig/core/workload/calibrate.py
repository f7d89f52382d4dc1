"""Fit the time model's efficiencies to published measured step times, and check them out of sample.

The model says a step takes compute/e_c + conv/e_v + memory/e_m: matrix-multiply FLOPs and convolution
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

TERMS = ("compute", "conv", "memory")


@dataclass(frozen=True)
class Observation:
    id: str
    compute_s: float  # traced matmul FLOPs at the dense rate, efficiency 1
    memory_s: float  # traced other bytes at the bandwidth, efficiency 1
    measured_s: float  # the published step time
    conv_s: float = 0.0  # traced convolution FLOPs at the dense rate, efficiency 1
    launch_s: float = 0.0  # traced kernels at eager PyTorch's launch time each: the least a step can take

    def times(self) -> tuple[float, float, float]:
        return (self.compute_s, self.conv_s, self.memory_s)


@dataclass(frozen=True)
class Fit:
    """Efficiency per term; None where the results had no time in that term to fit it from."""

    compute: float | None
    conv: float | None
    memory: float | None

    def predict(self, observation: Observation) -> float:
        """The GPU's work at the fitted efficiencies, or the host's kernel launches where they take longer."""
        efficiencies = (self.compute, self.conv, self.memory)
        work = sum(t / e for t, e in zip(observation.times(), efficiencies, strict=True) if t and e)
        return max(work, observation.launch_s)


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
    peak. Each term is either fitted freely or held at efficiency 1; every combination is solved and the
    best admissible one kept."""
    # A result its kernel launches paced says nothing of the GPU's efficiencies.
    observations = [o for o in observations if o.launch_s < o.measured_s]
    if len(observations) < 2:
        raise CalibrationError("need at least two measured results to fit the efficiencies")
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
