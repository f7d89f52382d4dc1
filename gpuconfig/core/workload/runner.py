"""Run the trace worker in a Python that has torch, stream its progress, cache its result on disk.

The worker is a separate process: a model that crashes or hangs while tracing takes only the worker
down, and cancelling kills it. Results are cached per model, settings and traced points (the points
follow the batch and length asked; the instant tier answers any other batch and length from them), and
per interpreter and the versions of Python, torch, transformers and diffusers in it: an upgrade traces again.
"""

from __future__ import annotations

import hashlib
import json
import os
import platform
import time
from collections.abc import Callable
from dataclasses import dataclass
from functools import cache
from pathlib import Path
from typing import Any

from gpuconfig.core.paths import user_data_dir, write_text_atomic
from gpuconfig.core.workers.interpreters import Interpreter, interpreter
from gpuconfig.core.workers.process import Deadline, run_worker
from gpuconfig.core.workers.programs import TRACE, program_digest
from gpuconfig.core.workers.pythons import NoTorchPython, PythonNotFound, worker_python
from gpuconfig.core.workload import cpu_heap
from gpuconfig.core.workload.depth import check_depth, crossing_shapes, replays_cuda, shallow_depths, split_anchors
from gpuconfig.core.workload.models import ModelSource
from gpuconfig.core.workload.spec import Workload, WorkloadError

# A deep LLM or encoder is traced at its full depth when that takes less than FULL_DEPTH_SECONDS, else at
# three shallow depths and extended (core/workload/depth.py). A trace's time grows with the layers, not
# their size (fake tensors hold no memory): per point about POINT_SECONDS plus LAYER_SECONDS per layer on
# a 2-core CPU (benchmarks/trace_depth.py: 0.09 s + 0.26 s per layer for training, 0.03 s + 0.03 s for
# inference; a training step is traced twice). 60 s is the target for a whole trace
# (benchmarks/estimate_speed.py): 74 layers of training (BERT-large's 24: about 20 s) and inference of any
# zoo model fit in it. With MemTracker's per-module peaks a 16-layer model took 40 s a point. The shallow
# traces' anchors (with_anchors) add one full-depth point on a CUDA trace, and one for each shape whose lines
# cross (rare): at most the three points a full-depth trace would take, usually one (Llama 3 70B: 47 s).
LAYER_SECONDS = {True: 0.26, False: 0.03}
POINT_SECONDS = 0.5
FULL_DEPTH_SECONDS = 60.0
# The longest a trace may take unless the caller says otherwise (gpuconfig estimate --trace-timeout).
TRACE_TIMEOUT_S = 900.0
Progress = Callable[[int, int, str], None]


class TraceFailed(RuntimeError):
    """The worker could not trace the model; `kind` is model, input, unsupported or internal."""

    def __init__(self, kind: str, message: str) -> None:
        super().__init__(message)
        self.kind = kind


class TraceCancelled(RuntimeError):
    pass


@dataclass(frozen=True)
class Trace:
    """The worker's measurements: one entry per traced point, and the runtime's own memory."""

    key: str
    points: tuple[dict[str, Any], ...]
    runtime: dict[str, Any]
    seconds: float
    layers: int | None  # the model's real depth when the points were traced shallower
    fallback: str = ""  # why the full depth was traced after shallow traces (DepthCheck.fallback)


def trace_python() -> Interpreter:
    """The Python that runs traces (core.workers.pythons.worker_python, the one choice), asked its versions once."""
    try:
        found = interpreter(worker_python())
    except PythonNotFound as exc:
        raise WorkloadError(str(exc)) from exc
    except NoTorchPython as exc:
        raise WorkloadError(f"tracing needs PyTorch: {exc}") from exc
    if not found.has_torch:  # named by GPUCONFIG_TORCH_PYTHON, which is taken as it is
        raise WorkloadError(f"tracing needs PyTorch: {found.problem or f'{found.path} has no torch'}")
    return found


def full_depth_seconds(layers: int, points: int, training: bool) -> float:
    """About how long tracing `points` points of a `layers`-layer model takes."""
    return points * (POINT_SECONDS + LAYER_SECONDS[training] * layers)


def traced_shapes(source: ModelSource, batch: int, seq: int) -> list[tuple[int, int]]:
    """(b, s), (2b, s) and (b, s/2): the shapes that pin down the linear and quadratic terms."""
    half = max(1, seq // 2)
    if source.family == "vision" and any(key in source.config for key in ("patch_size", "window_size")):
        # Position embeddings (ViT) or attention windows a stage's grid must fill (Swin) fix the image size:
        # only the batch varies. Convolutional networks take any size.
        half = seq
    if source.family == "diffusion":
        half = max(64, (seq // 2) // 64 * 64)
    return [(batch, seq), (2 * batch, seq)] + ([(batch, half)] if half != seq else [])


def plan_points(
    source: ModelSource, batch: int, seq: int, training: bool = True
) -> tuple[list[tuple[int, int, int | None]], int | None]:
    """Three (batch, length) points that pin down the linear and quadratic terms, at full depth, or at
    each shallow depth when the full depth would take long to trace."""
    shapes = traced_shapes(source, batch, seq)
    depth = source.layers
    pattern = source.depth_pattern()
    depths = shallow_depths(*pattern) if pattern is not None else None
    if (
        depth is not None
        and depths is not None
        and depth > max(depths)
        and source.family in ("llm", "encoder")
        and full_depth_seconds(depth, len(shapes), training) > FULL_DEPTH_SECONDS
    ):
        return [(b, s, layers) for b, s in shapes for layers in depths], depth
    return [(b, s, None) for b, s in shapes], None


# The workload fields a trace depends on; batch, length, accumulation and GPUs are answered from its fit.
# LoRA's alpha only scales the adapters' output: no memory or time of its own, so it is not traced. The
# attention implementation is traced as asked; "auto" is its own key, the same for every GPU (see
# core/workload/attention.py for why no GPU changes what it traces).
TRACED_FIELDS = (
    "task", "precision", "optimizer", "checkpointing", "lora_rank", "lora_targets", "lora_dropout", "double_quant",
    "device", "attention",
)  # fmt: skip


def trace_settings(workload: Workload) -> dict[str, Any]:
    return {name: getattr(workload, name) for name in TRACED_FIELDS}


def trace_request(source: ModelSource, workload: Workload, points: list[tuple[int, int, int | None]]) -> dict[str, Any]:
    request = {"model": source.request(), **trace_settings(workload), "points": points}
    objects = cpu_heap.autograd_objects() if workload.device == "cpu" else None
    if objects:  # the small blocks the heap replay places among the tensors
        request["autograd_objects"] = objects
    return request


def cache_key(request: dict[str, Any], source: ModelSource, python: Interpreter) -> str:
    """What a trace depends on: the request, the model's files, every module of the trace program, and the
    interpreter with the versions of what it imports."""
    fields = {k: v for k, v in request.items() if k != "model"}
    fields["model"] = source.digest
    fields["worker"] = program_digest(TRACE)[:16]
    fields["python"] = [python.path, python.python, python.torch, python.transformers, python.diffusers]
    if request.get("device") == "cpu":  # the kernels' buffers measured on this CPU (tracer/kernel_scratch.py)
        fields["cpu"] = this_cpu()
    return hashlib.sha256(json.dumps(fields, sort_keys=True).encode()).hexdigest()[:24]


def this_cpu() -> list[str]:
    """What a CPU trace's measured kernel buffers follow: the processor and its instruction sets (oneDNN picks
    its kernels, and their buffers, by them) and the threads PyTorch would run (per-thread buffers)."""
    threads = [os.environ.get(name, "") for name in ("OMP_NUM_THREADS", "MKL_NUM_THREADS")]
    return [*_processor(), str(os.cpu_count()), *threads]


@cache
def _processor() -> tuple[str, str]:
    """The first processor's model name in /proc/cpuinfo (else what platform says) and a digest of its flags
    (the core cannot import the probe's reader of the same file); read once per process."""
    fields: dict[str, str] = {}
    try:
        with open("/proc/cpuinfo", encoding="utf-8", errors="replace") as handle:
            for line in handle:
                if not line.strip():
                    break  # the first processor's block
                name, _, value = line.partition(":")
                fields.setdefault(name.strip(), value.strip())
    except OSError:
        pass
    flags = hashlib.sha256(fields["flags"].encode()).hexdigest()[:16] if "flags" in fields else ""
    return fields.get("model name") or platform.processor() or platform.machine(), flags


def cache_dir() -> Path:
    path = user_data_dir() / "traces"
    path.mkdir(parents=True, exist_ok=True)
    return path


def cached_trace(key: str) -> Trace | None:
    path = cache_dir() / f"{key}.json"
    try:
        data = json.loads(path.read_text(encoding="utf-8"))
        points, runtime, seconds = tuple(data["points"]), data["runtime"], float(data["seconds"])
        return Trace(key, points, runtime, seconds, data.get("layers"))
    except (OSError, ValueError, KeyError, TypeError):
        return None  # absent or damaged: trace again


def run_trace(
    source: ModelSource,
    workload: Workload,
    batch: int,
    seq: int,
    progress: Progress | None = None,
    cancelled: Callable[[], bool] | None = None,
    timeout_s: float = TRACE_TIMEOUT_S,
    use_cache: bool = True,
) -> Trace:
    """The model traced at the points plan_points chooses. Shallow traces are joined by a few shapes traced at
    full depth (with_anchors); shallow traces that are not linear in depth, or whose full-depth shapes are off
    their lines, are replaced by a trace at full depth (the anchors' own traces kept), which says why. The
    traces share one time limit."""
    python = trace_python()
    started = time.monotonic()

    def left() -> float:  # what is left of the time limit for the next worker
        return max(1.0, timeout_s - (time.monotonic() - started))

    points, depth = plan_points(source, batch, seq, workload.training)
    trace = trace_at(source, workload, points, depth, python, progress, cancelled, timeout_s, use_cache)
    if depth is None:
        return trace
    check = check_depth(trace.points, depth)
    if check.linear:
        trace = with_anchors(source, workload, trace, depth, python, progress, cancelled, left(), use_cache)
        check = check_depth(trace.points, depth)
        if check.usable:
            return trace
    anchors = {shape: {**p, "layers": None} for shape, p in split_anchors(trace.points, depth)[1].items()}
    shapes = list(dict.fromkeys((b, s) for b, s, _ in points))
    rest: list[tuple[int, int, int | None]] = [(b, s, None) for b, s in shapes if (b, s) not in anchors]
    done = after(progress, len(trace.points))
    deep = trace_at(source, workload, rest, None, python, done, cancelled, left(), use_cache) if rest else None
    found = {(int(p["batch"]), int(p["seq"])): p for p in (deep.points if deep else ())} | anchors
    return Trace(
        deep.key if deep else trace.key,
        tuple(found[shape] for shape in shapes),
        deep.runtime if deep else trace.runtime,
        round(trace.seconds + (deep.seconds if deep else 0.0), 2),
        None,
        check.fallback(),
    )


def anchor_shapes(trace: Trace, depth: int) -> list[tuple[int, int]]:
    """The shapes of a shallow trace to trace at full depth too: the one asked (the first) where the trace
    replays the CUDA caching allocator, whose reserved memory is not extended (depth.AT_FULL_DEPTH), and any
    whose lines move the step's peak to another phase at full depth, where no shallow trace looked."""
    first = trace.points[0]
    asked = [(int(first["batch"]), int(first["seq"]))] if replays_cuda(trace.points) else []
    return list(dict.fromkeys(asked + crossing_shapes(trace.points, depth)))


def after(progress: Progress | None, done: int) -> Progress | None:
    """A worker's progress counted on from the `done` points traced before it, so the bar does not start over."""
    if progress is None:
        return None
    return lambda step, total, what: progress(done + step, done + total, what)


def with_anchors(
    source: ModelSource,
    workload: Workload,
    trace: Trace,
    depth: int,
    python: Interpreter | None = None,
    progress: Progress | None = None,
    cancelled: Callable[[], bool] | None = None,
    timeout_s: float = TRACE_TIMEOUT_S,
    use_cache: bool = True,
) -> Trace:
    """A shallow trace joined by its anchor shapes traced at full depth (depth.extrapolated reads them there;
    depth.check_depth holds the lines to them)."""
    wanted = anchor_shapes(trace, depth)
    if not wanted:
        return trace
    deep = trace_at(source, workload, [(b, s, None) for b, s in wanted], None, python,
                    after(progress, len(trace.points)), cancelled, timeout_s, use_cache)  # fmt: skip
    return Trace(
        f"{trace.key}+{deep.key}",
        (*trace.points, *({**p, "layers": depth} for p in deep.points)),
        trace.runtime,
        round(trace.seconds + deep.seconds, 2),
        depth,
    )


def trace_at(
    source: ModelSource,
    workload: Workload,
    points: list[tuple[int, int, int | None]],
    depth: int | None,
    python: Interpreter | None = None,
    progress: Progress | None = None,
    cancelled: Callable[[], bool] | None = None,
    timeout_s: float = TRACE_TIMEOUT_S,
    use_cache: bool = True,
) -> Trace:
    """The model traced at these (batch, length, layers) points, or read from the cache; `depth` is its real
    depth when the points are shallower."""
    python = python or trace_python()
    request = trace_request(source, workload, points)
    key = cache_key(request, source, python)
    if use_cache and (hit := cached_trace(key)) is not None:
        return hit
    started = time.monotonic()
    lines = _run_worker(request, python.path, len(points), progress, cancelled, timeout_s)
    found = [e for e in lines if e.get("event") == "point"]
    runtime = next((e for e in lines if e.get("event") == "runtime"), {})
    trace = Trace(key, tuple(found), runtime, round(time.monotonic() - started, 2), depth)
    if not any(point.get("kernel_calls_too_large") for point in found):  # left out for want of memory now: not kept
        path = cache_dir() / f"{key}.json"
        write_text_atomic(
            path, json.dumps({"points": found, "runtime": runtime, "seconds": trace.seconds, "layers": depth})
        )
    return trace


def _run_worker(
    request: dict[str, Any],
    python: str,
    total: int,
    progress: Progress | None,
    cancelled: Callable[[], bool] | None,
    timeout_s: float,
) -> list[dict[str, Any]]:
    events: list[dict[str, Any]] = []

    def on_event(event: dict[str, Any]) -> None:
        events.append(event)
        if event.get("event") == "progress" and progress is not None:
            progress(int(event["done"]), int(event["total"]), str(event.get("what", "")))
        if event.get("event") == "error":
            raise TraceFailed(str(event.get("kind", "internal")), str(event.get("message", "trace failed")))

    try:
        ended = run_worker(TRACE, request, on_event, python, cancelled, Deadline(timeout_s))
    except OSError as exc:  # the Python vanished or lost its execute permission since it was chosen
        raise TraceFailed("internal", f"cannot run {python}: {exc.strerror or exc}") from exc
    if ended.stopped == "cancelled":
        raise TraceCancelled("trace cancelled")
    if ended.stopped == "timeout":
        raise TraceFailed("internal", f"trace took longer than {timeout_s:g} s")
    if ended.code != 0 or len([e for e in events if e.get("event") == "point"]) != total:
        raise TraceFailed("internal", f"trace worker stopped: {ended.reason}")
    return events
