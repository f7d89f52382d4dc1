"""Run the trace worker in a Python that has torch, stream its progress, cache its result on disk.

The worker is a separate process: a model that crashes or hangs while tracing takes only the worker
down, and cancelling kills it. Results are cached per model, settings and traced points (the points
follow the batch and length asked; the instant tier answers any other batch and length from them), and
per interpreter and the versions of Python, torch, transformers and diffusers in it: an upgrade traces again.
"""

from __future__ import annotations

import hashlib
import json
import time
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from gpuconfig.core.paths import user_data_dir, write_text_atomic
from gpuconfig.core.workers.interpreters import Interpreter, interpreter
from gpuconfig.core.workers.process import Deadline, run_worker
from gpuconfig.core.workers.programs import TRACE, program_digest
from gpuconfig.core.workers.pythons import NoTorchPython, PythonNotFound, worker_python
from gpuconfig.core.workload.models import ModelSource
from gpuconfig.core.workload.spec import Workload, WorkloadError

# Deep models are traced at two shallow depths and extrapolated layer by layer (their layers are identical).
EXTRAPOLATE_ABOVE_LAYERS = 16
SHALLOW_LAYERS = (2, 3)
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


def plan_points(source: ModelSource, batch: int, seq: int) -> tuple[list[tuple[int, int, int | None]], int | None]:
    """Three (batch, length) points that pin down the linear and quadratic terms, at full or shallow depth."""
    half = max(1, seq // 2)
    if source.model_type == "vit":  # position embeddings fix the image size: only the batch varies
        half = seq
    if source.family == "diffusion":
        half = max(64, (seq // 2) // 64 * 64)
    shapes = [(batch, seq), (2 * batch, seq)] + ([(batch, half)] if half != seq else [])
    depth = source.layers
    if depth is not None and depth > EXTRAPOLATE_ABOVE_LAYERS and source.family in ("llm", "encoder"):
        return [(b, s, layers) for b, s in shapes for layers in SHALLOW_LAYERS], depth
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
    return {"model": source.request(), **trace_settings(workload), "points": points}


def cache_key(request: dict[str, Any], source: ModelSource, python: Interpreter) -> str:
    """What a trace depends on: the request, the model's files, every module of the trace program, and the
    interpreter with the versions of what it imports."""
    fields = {k: v for k, v in request.items() if k != "model"}
    fields["model"] = source.digest
    fields["worker"] = program_digest(TRACE)[:16]
    fields["python"] = [python.path, python.python, python.torch, python.transformers, python.diffusers]
    return hashlib.sha256(json.dumps(fields, sort_keys=True).encode()).hexdigest()[:24]


def cache_dir() -> Path:
    path = user_data_dir() / "traces"
    path.mkdir(parents=True, exist_ok=True)
    return path


def cached_trace(key: str) -> Trace | None:
    path = cache_dir() / f"{key}.json"
    try:
        data = json.loads(path.read_text(encoding="utf-8"))
        return Trace(key, tuple(data["points"]), data["runtime"], float(data["seconds"]), data.get("layers"))
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
    points, depth = plan_points(source, batch, seq)
    request = trace_request(source, workload, points)
    python = trace_python()
    key = cache_key(request, source, python)
    if use_cache and (hit := cached_trace(key)) is not None:
        return hit
    started = time.monotonic()
    lines = _run_worker(request, python.path, len(points), progress, cancelled, timeout_s)
    found = [e for e in lines if e.get("event") == "point"]
    runtime = next((e for e in lines if e.get("event") == "runtime"), {})
    trace = Trace(key, tuple(found), runtime, round(time.monotonic() - started, 2), depth)
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
