"""The trace worker's measuring mode: the traced recipe run for real in its own process, which the accuracy
benchmarks set against the estimate (benchmarks/estimate_accuracy_cpu.py here, benchmarks/gpu_session.py on a
lent GPU). Run here for real on the CPU; asked for a GPU this machine does not have, it says so in one line."""

from __future__ import annotations

import sys
from pathlib import Path
from typing import Any

from gpuconfig.core.workers.process import run_worker
from gpuconfig.core.workers.programs import TRACE
from gpuconfig.core.workload.models import resolve_model
from gpuconfig.core.workload.runner import trace_request
from gpuconfig.core.workload.spec import Workload

TINY_LLAMA = str(Path(__file__).parents[1] / "data" / "tiny_llama.json")


def measure(workload: Workload, **extra: Any) -> tuple[bool, list[dict[str, Any]]]:
    request = trace_request(resolve_model(workload.model), workload, [(workload.batch, workload.seq, None)])
    request |= {"measure": True, "generate": workload.generate, **extra}
    events: list[dict[str, Any]] = []
    ended = run_worker(TRACE, request, events.append, sys.executable)
    return ended.ok, events


def measured(events: list[dict[str, Any]]) -> dict[str, Any]:
    found = [e for e in events if e.get("event") == "measured"]
    assert len(found) == 1, events
    return found[0]


def test_a_training_step_is_run_twice_then_timed_as_a_distribution() -> None:
    workload = Workload(TINY_LLAMA, task="finetune", precision="fp32", device="cpu", batch=2, seq=32)
    ok, events = measure(workload, timed_steps=4)
    assert ok
    run = measured(events)
    assert (run["batch"], run["seq"]) == (2, 32)
    assert len(run["step_seconds"]) == 2 and all(s > 0 for s in run["step_seconds"])
    timed = run["timed_steps"]
    assert len(timed["samples_seconds"]) == 4 and min(timed["samples_seconds"]) <= timed["median_seconds"]
    assert timed["spread"] == (max(timed["samples_seconds"]) - min(timed["samples_seconds"])) / timed["median_seconds"]
    assert run["peak_rss_bytes"] > 0
    assert not any(key.startswith("cuda") for key in run)  # a CPU run has no allocator figures


def test_a_generation_times_its_prompt_and_every_decode_step() -> None:
    workload = Workload(TINY_LLAMA, task="inference", precision="fp32", device="cpu", batch=1, seq=16, generate=6)
    ok, events = measure(workload)
    assert ok
    run = measured(events)
    assert run["generate"] == 6 and len(run["decode_steps"]["samples_seconds"]) == 6
    assert run["prompt_seconds"] > 0 and len(run["decode_first_seconds"]) == 6
    assert sum(run["decode_steps"]["samples_seconds"]) <= run["step_seconds"][1]


def test_a_gpu_run_without_a_gpu_says_so_in_one_line() -> None:
    workload = Workload(TINY_LLAMA, task="finetune", precision="bf16", device="cuda", batch=1, seq=16)
    ok, events = measure(workload)
    assert not ok
    errors = [e for e in events if e.get("event") == "error"]
    assert [(e["kind"], e["message"]) for e in errors] == [
        ("input", "a real run on cuda needs a CUDA GPU that torch can see")
    ]
