"""Run the probe's benchmark suite in a worker process and turn what it says into results.

The worker (the bench program, gpuconfig/workers/bench) runs in the Python the user chose. Whatever happens
to it (a crash, a hang past its benchmark's time-out, running out of memory, a Python without torch)
becomes a result with its reason, never an exception here: the benchmark it was running fails, and a fresh
worker runs the ones still to come. Cancel kills the worker's whole process tree at once and returns what
had finished.
"""

from __future__ import annotations

import contextlib
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from gpuconfig.core.failures import Failure
from gpuconfig.core.workers.process import Deadline, WorkerExit, run_worker
from gpuconfig.core.workers.programs import BENCH
from gpuconfig.core.workers.pythons import NoTorchPython, plain_python, worker_python
from gpuconfig.probe.model import BenchmarkResult, Maybe, Unavailable, failure_of, read_samples
from gpuconfig.probe.torch_devices import TorchFacts

# Until the worker has imported torch and said what it will run (a cold import from a slow disk is slow).
STARTUP_TIMEOUT_S = 180.0
# Each benchmark's default limit: about ten times what the full suite takes on a 2-CPU machine, so that
# only a hung or runaway worker reaches it; a benchmark not listed gets DEFAULT_TIMEOUT_S.
TIMEOUTS_S = {
    "matmul": 600.0,
    "memory_bandwidth": 300.0,
    "h2d_bandwidth": 120.0,
    "d2h_bandwidth": 120.0,
    "train_cnn": 600.0,
    "train_transformer": 600.0,
    "train_from_host": 300.0,
    "dataloader": 300.0,
    "disk_read": 300.0,
    "allreduce": 300.0,
}
DEFAULT_TIMEOUT_S = 300.0
# The time each suite promises, from the probe's start to its report (the Probe tab names it): the
# worker fits its benchmarks' time boxes into it, less BUDGET_RESERVE of it for what a busy machine overruns
# (a warm-up step or a last sample cannot be cut short: with every CPU taken by other processes, a quick run
# on a 2-CPU machine overran its boxes by about 13 s, benchmarks/results/probe_repeatability_busy.json).
SUITE_BUDGET_S = {"quick": 60.0, "full": 180.0}
BUDGET_RESERVE = 0.25
PLAN_TIMEOUT_S = 30.0
Progress = Callable[[int, int, str], None]


@dataclass(frozen=True)
class Limits:
    """How long a run may take. `budget_s`: the whole run, which the benchmarks' time boxes fit into (None:
    the suite's, SUITE_BUDGET_S). The time-outs, which only a hung or runaway worker reaches: to start
    (import torch and say what it runs, or between two benchmarks), and for each benchmark (None: each its
    own default, TIMEOUTS_S)."""

    start_s: float = STARTUP_TIMEOUT_S
    benchmark_s: float | None = None
    budget_s: float | None = None

    def benchmark(self, name: str) -> float:
        return self.benchmark_s if self.benchmark_s is not None else TIMEOUTS_S.get(name, DEFAULT_TIMEOUT_S)

    def budget(self, suite: str) -> float:
        return self.budget_s if self.budget_s is not None else SUITE_BUDGET_S.get(suite, SUITE_BUDGET_S["quick"])


DEFAULT_LIMITS = Limits()


@dataclass(frozen=True)
class SuiteOutcome:
    """What a suite run gave: the worker's torch facts (or why it had none), its results, whether it was
    cancelled, how long it took, and the Python it ran in."""

    torch: Maybe[TorchFacts]
    results: tuple[BenchmarkResult, ...]
    cancelled: bool
    seconds: float
    python: str = ""


@dataclass
class _Progress:
    """Where a suite run stands, across the workers it needed."""

    began: float
    plan: list[str] = field(default_factory=list)
    finished: list[str] = field(default_factory=list)
    results: list[BenchmarkResult] = field(default_factory=list)
    torch: Maybe[TorchFacts] | None = None
    current: dict[str, Any] | None = None  # the start event of the benchmark running now
    mark: float = 0.0  # when the current benchmark started, or its last figure arrived

    def now(self) -> float:
        return time.monotonic() - self.began

    @property
    def remaining(self) -> list[str]:
        return [name for name in self.plan if name not in self.finished]


def run_suite(
    suite: str,
    python: str | None = None,
    only: Sequence[str] | None = None,
    progress: Progress | None = None,
    on_result: Callable[[BenchmarkResult], None] | None = None,
    cancelled: Callable[[], bool] | None = None,
    limits: Limits = DEFAULT_LIMITS,
    worker: Path = BENCH,
    began: float | None = None,
) -> SuiteOutcome:
    """Run the quick or full suite (or `only` the benchmarks named) in `python` and collect the results.

    `progress(done, total, what)` is called as each benchmark starts and at the end; `on_result` with each
    result as it arrives; `cancelled()` is polled about every 50 ms; `limits` are the run's budget and the
    worker's time-outs; the budget counts from `began` (time.monotonic(); None: now).
    A worker failure never raises: it is a failed or skipped result with its reason and its Failure.
    """
    state = _Progress(time.monotonic())
    ends = (state.began if began is None else began) + limits.budget(suite) * (1 - BUDGET_RESERVE)
    asked = list(only) if only is not None else None

    def record(result: BenchmarkResult) -> None:
        state.results.append(result)
        if on_result is not None:
            on_result(result)

    def tell(what: str) -> None:
        if progress is not None:
            progress(len(state.finished), max(len(state.plan), 1), what)

    def not_run(reason: str, failure: Failure) -> SuiteOutcome:
        """No worker could start: every benchmark asked is skipped, saying why."""
        state.plan = state.plan or _plan_from_here(worker, suite, asked)
        return _finish(state, Unavailable(reason, failure), python or "", record, tell)

    try:
        python = python or worker_python()
    except NoTorchPython as exc:
        return not_run(str(exc), Failure.NO_TORCH)
    except OSError as exc:  # GPUCONFIG_TORCH_PYTHON names nothing
        return not_run(str(exc), Failure.NO_PYTHON)
    while True:
        deadline = Deadline(limits.start_s)
        started_with = len(state.finished)
        request = {
            "suite": suite,
            "only": state.remaining if state.plan else asked,
            "device": None,
            "budget_s": max(ends - time.monotonic(), 0.0),
        }

        def on_event(event: dict[str, Any], deadline: Deadline = deadline) -> None:
            _handle(event, state, deadline, limits, record, tell)

        try:
            ended = run_worker(worker, request, on_event, python, cancelled, deadline)
        except OSError as exc:  # no such interpreter, or not executable
            return not_run(f"cannot run {python}: {exc.strerror or exc}", Failure.NO_PYTHON)
        if ended.stopped == "cancelled":
            return SuiteOutcome(_torch(state, python, ended), tuple(state.results), True, state.now(), python)
        if state.current is not None:  # it died, hung or ran out of memory in the middle of a benchmark
            _fail_current(state, ended, record)
        if state.torch is None or isinstance(state.torch, Unavailable) or not state.remaining:
            break
        if len(state.finished) == started_with:  # a fresh worker that cannot even start the next one
            _fail_current(state, ended, record, name=state.remaining[0])
            if not state.remaining:
                break
    return _finish(state, _torch(state, python, ended), python, record, tell)


def _finish(
    state: _Progress, torch: Maybe[TorchFacts], python: str, record: Callable[[BenchmarkResult], None],
    tell: Callable[[str], None],
) -> SuiteOutcome:  # fmt: skip
    """The outcome; without torch, each benchmark still to run is skipped with the reason."""
    if isinstance(torch, Unavailable):
        for name in state.remaining:
            record(_unrun(name, "skipped", torch.reason, state, torch.failure))
            state.finished.append(name)
    tell("done")
    return SuiteOutcome(torch, tuple(state.results), False, round(state.now(), 3), python)


def benchmark_names(worker: Path = BENCH) -> tuple[str, ...]:
    """Every benchmark the worker knows (the full suite's plan), asked of it without importing torch."""
    return tuple(_plan_from_here(worker, "full", None))


def _handle(
    event: dict[str, Any],
    state: _Progress,
    deadline: Deadline,
    limits: Limits,
    record: Callable[[BenchmarkResult], None],
    tell: Callable[[str], None],
) -> None:
    kind = event.get("event")
    if kind == "plan" and not state.plan:
        state.plan = [str(name) for name in event.get("benchmarks", [])]
    elif kind == "torch" and state.torch is None:
        state.torch = TorchFacts.read(event)
    elif kind == "start":
        name = str(event.get("name", ""))
        deadline.reset(limits.benchmark(name))
        state.current = event
        state.mark = state.now()
        tell(str(event.get("what") or name))
    elif kind in ("result", "skipped", "error") and state.current is not None:
        record(_result(event, state))
        state.mark = state.now()
    elif kind == "done" and state.current is not None:
        state.finished.append(str(state.current.get("name", "")))
        state.current = None
        deadline.reset(limits.start_s)  # between benchmarks: only a stuck worker waits this long


def _result(event: dict[str, Any], state: _Progress) -> BenchmarkResult:
    current = state.current or {}
    status = {"result": "ok", "skipped": "skipped", "error": "failed"}[str(event["event"])]
    value = event.get("value")
    return BenchmarkResult(
        name=str(event.get("name") or current.get("name", "")),
        dtype=str(event.get("dtype") or ""),
        device=str(event.get("device") or current.get("device", "")),
        value=float(value) if isinstance(value, (int, float)) and status == "ok" else None,
        unit=str(event.get("unit") or current.get("unit", "")),
        status=status,
        reason=str(event.get("reason") or event.get("message") or ""),
        variant=str(event.get("variant") or ""),
        detail=dict(event.get("detail") or {}),
        started=round(state.mark, 3),
        seconds=round(state.now() - state.mark, 3),
        failure=(failure_of(event.get("failure")) or Failure.ERROR) if status == "failed" else None,
        samples=read_samples(event.get("samples")),
        load=dict(event.get("load") or {}),
    )


def _fail_current(
    state: _Progress,
    ended: WorkerExit,
    record: Callable[[BenchmarkResult], None],
    name: str | None = None,
) -> None:
    """The benchmark the worker was in when it stopped fails with the reason it stopped."""
    current = state.current or {}
    name = name or str(current.get("name", ""))
    reason = ended.reason
    if ended.stopped == "timeout":
        reason = f"timed out after {ended.timeout_s:g} s"
    elif ended.code == 0:
        reason = "the worker exited in the middle of the benchmark" + (f": {reason}" if ended.stderr_tail else "")
    words = f"worker {reason}" if ended.code < 0 and not ended.stopped else reason
    record(_unrun(name, "failed", words, state, ended.failure or Failure.ERROR))
    state.finished.append(name)
    state.current = None


def _unrun(name: str, status: str, reason: str, state: _Progress, failure: Failure | None) -> BenchmarkResult:
    current = state.current or {}
    device = str(current.get("device") or (state.torch.device if isinstance(state.torch, TorchFacts) else ""))
    return BenchmarkResult(
        name,
        "",
        device,
        None,
        str(current.get("unit", "")),
        status=status,
        reason=reason,
        started=round(state.mark, 3),
        seconds=round(state.now() - state.mark, 3),
        failure=failure,
    )


def _torch(state: _Progress, python: str, ended: WorkerExit) -> Maybe[TorchFacts]:
    if state.torch is not None:
        return state.torch
    if ended.stopped == "cancelled":
        return Unavailable("cancelled before torch was imported", Failure.CANCELLED)
    if ended.stopped == "timeout":
        return Unavailable(f"no answer from {python} within {ended.timeout_s:g} s (importing torch)", Failure.TIMEOUT)
    why = f"the worker in {python} stopped before importing torch: {ended.reason}"
    return Unavailable(why, ended.failure or Failure.ERROR)


def _plan_from_here(worker: Path, suite: str, only: list[str] | None) -> list[str]:
    """The suite's benchmark names, asked of the worker program in any Python (it answers before torch)."""
    names: list[str] = []

    def on_event(event: dict[str, Any]) -> None:
        if event.get("event") == "plan":
            names.extend(str(name) for name in event.get("benchmarks", []))

    request = {"suite": suite, "only": only, "plan_only": True}
    python = plain_python()
    if python is None:  # the installed app on a machine with no Python at all
        return names
    with contextlib.suppress(OSError):  # that Python vanished since it was found: no plan to show
        run_worker(worker, request, on_event, python, None, Deadline(PLAN_TIMEOUT_S))
    return names
