"""Trace and fit a workload's model, then answer batches, lengths and GPUs from the fit.

A `TraceService` resolves a workload's model, names what its trace depends on (the key: two workloads
that differ only in batch, length, accumulation, GPUs or strategy share one), keeps the fits it has made
and the failures it has met, and runs the slow step (a trace in the worker process, or the disk cache,
then the fit) on whatever thread calls it. The GUI runs that step on a worker thread
(ui/workload/tracing.py); the command line calls it directly.

A fit answers exactly at the shapes it traced and between them; beyond them its lines are extended where no
trace looked (Fitted.extrapolation), so a key keeps a fit per traced shape and `fit_for` traces a shape no
fit covers.
"""

from __future__ import annotations

import math
import threading
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from gpuconfig.core.workload.answer import Answer, answer_from_fit
from gpuconfig.core.workload.estimate import Fitted, GpuSpec, fit
from gpuconfig.core.workload.families import check_length
from gpuconfig.core.workload.fit import Headroom
from gpuconfig.core.workload.models import ModelSource, resolve_model
from gpuconfig.core.workload.runner import (
    TRACE_TIMEOUT_S,
    Progress,
    TraceCancelled,
    TraceFailed,
    run_trace,
    trace_settings,
)
from gpuconfig.core.workload.spec import Workload, WorkloadError

TraceKey = tuple[Any, ...]
Shape = tuple[int, int]  # (batch per device, length)
KEPT_PER_KEY = 8  # fits kept per key, the newest: each traced another shape of the same workload


@dataclass(frozen=True)
class Fit:
    """A model's trace, fitted: it answers any workload with the same key at once."""

    source: ModelSource
    fitted: Fitted
    trace_seconds: float

    def answer(self, workload: Workload, gpu: GpuSpec | None, headroom: Headroom | None = None) -> Answer:
        """Memory, time and the verdict (with `headroom`, else the default) of `workload` (its key must be this
        fit's) on `gpu`, in milliseconds."""
        return answer_from_fit(self.source, self.fitted, workload, gpu, self.trace_seconds, headroom)

    def covers(self, shape: Shape) -> bool:
        """Whether the traced shapes cover `shape`: its answer is read between them, not extended past them."""
        return self.fitted.covers(*shape)


@dataclass(frozen=True)
class Resolved:
    """A workload with its model found: what the slow step needs, and the key its fit is kept under."""

    workload: Workload
    source: ModelSource
    key: TraceKey

    @property
    def shape(self) -> Shape:
        """The (batch, length) a trace of this workload starts from."""
        return self.workload.batch, self.workload.seq or self.source.default_seq()


def trace_key(source: ModelSource, workload: Workload) -> TraceKey:
    """What a trace depends on; two workloads with the same key share one fit."""
    return (source.kind, source.digest, *trace_settings(workload).values())


def failure_text(exc: Exception) -> str:
    """What a failed trace tells the user: an expected failure's own message, else the bug's type too."""
    if isinstance(exc, (TraceFailed, WorkloadError)):
        return str(exc)
    return f"internal error: {type(exc).__name__}: {exc}"


class TraceService:
    """The fits made and the failures met, by key. `use_cache` and `timeout_s` apply to every trace it runs.

    Safe to call from two threads: the slow step runs on a worker while the GUI thread looks fits up.
    """

    def __init__(self, use_cache: bool = True, timeout_s: float = TRACE_TIMEOUT_S) -> None:
        self.use_cache = use_cache
        self.timeout_s = timeout_s
        self._lock = threading.Lock()
        self._fits: dict[TraceKey, list[Fit]] = {}  # the newest last
        self._failures: dict[TraceKey, str] = {}

    def resolve(self, workload: Workload) -> Resolved:
        """Find the workload's model (a file is read and hashed, milliseconds) and its key.
        Raises WorkloadError when there is no such model, or when a real run of it could not take the length.
        """
        source = resolve_model(workload.model)
        if source.kind == "hf_config":
            generated = 0 if workload.training else workload.generate
            check_length(source.name, source.config, workload.seq or source.default_seq(), generated)
        return Resolved(workload, source, trace_key(source, workload))

    def fit(self, key: TraceKey, shape: Shape | None = None) -> Fit | None:
        """The newest fit made for this key whose traced shapes cover `shape` (any shape when None), or None."""
        with self._lock:
            fits = list(self._fits.get(key, ()))
        return next((f for f in reversed(fits) if shape is None or f.covers(shape)), None)

    def nearest(self, key: TraceKey, shape: Shape) -> Fit | None:
        """The fit made for this key whose traced shapes lie nearest `shape` (by the ratio of batches, then of
        lengths), to answer it, marked as extended, until a trace of it is made; None without any."""
        with self._lock:
            fits = list(self._fits.get(key, ()))

        def distance(made: Fit) -> tuple[float, float]:
            shapes = made.fitted.shapes or (shape,)
            return min(
                (abs(math.log(max(1, b) / max(1, shape[0]))), abs(math.log(max(1, s) / max(1, shape[1]))))
                for b, s in shapes
            )

        return min(reversed(fits), key=distance, default=None)

    def failure(self, key: TraceKey) -> str | None:
        """Why the last trace of this key failed, or None; it is not traced again until `forget_failures`."""
        with self._lock:
            return self._failures.get(key)

    def forget_failures(self) -> None:
        """Let every failed key be traced again (the user asked to run it again)."""
        with self._lock:
            self._failures.clear()

    def trace(
        self, resolved: Resolved, progress: Progress | None = None, cancelled: Callable[[], bool] | None = None
    ) -> Fit:
        """The slow step, on the caller's thread: trace the model (or read its trace from the disk cache) and fit
        it; the fit is kept under the key. Raises TraceCancelled when `cancelled()` turns true (the worker is
        killed); TraceFailed or WorkloadError when the model cannot be traced, which is kept as the key's failure.
        """
        workload, source = resolved.workload, resolved.source
        seq = workload.seq or source.default_seq()
        try:
            trace = run_trace(
                source, workload, workload.batch, seq, progress, cancelled, self.timeout_s, self.use_cache
            )
            made = Fit(source, fit(trace), trace.seconds)
        except TraceCancelled:
            raise
        except Exception as exc:
            with self._lock:
                self._failures[resolved.key] = failure_text(exc)
            raise
        if cancelled is not None and cancelled():  # a result asked for no more is not kept
            raise TraceCancelled("trace cancelled")
        with self._lock:
            kept = self._fits.setdefault(resolved.key, [])
            kept.append(made)
            del kept[:-KEPT_PER_KEY]
        return made

    def fit_for(
        self, workload: Workload, progress: Progress | None = None, cancelled: Callable[[], bool] | None = None
    ) -> Fit:
        """The whole sequence on the caller's thread: resolve, then a fit at hand that covers the workload's shape,
        or a trace of it. For the command line and the technique comparison, which wait for it; a failure met
        before is tried again."""
        resolved = self.resolve(workload)
        return self.fit(resolved.key, resolved.shape) or self.trace(resolved, progress, cancelled)
