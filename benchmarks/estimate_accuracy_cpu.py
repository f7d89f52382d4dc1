"""The `--device cpu` estimate against measurement: peak resident memory of a fresh process running the
same two training steps (or one inference pass) for real, for Hugging Face model configurations.

    python benchmarks/estimate_accuracy_cpu.py            # target: every estimate within +-10 %

Each real run is its own process (peak resident memory is per process), built by the same trace worker
script in its measuring mode, so the real run and the trace execute the same recipe.
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import sys
import tempfile
from pathlib import Path
from typing import Any

from machine import machine

CASES = [
    {"model": "gpt2", "task": "finetune", "precision": "fp32", "optimizer": "adamw", "batch": 4, "seq": 128},
    {"model": "bert-base", "task": "finetune", "precision": "fp32", "optimizer": "adamw", "batch": 8, "seq": 128},
    {"model": "resnet-18", "task": "finetune", "precision": "fp32", "optimizer": "sgd", "batch": 16, "seq": 224},
    {"model": "vit-base", "task": "inference", "precision": "fp32", "optimizer": "adamw", "batch": 8, "seq": 224},
    {"model": "qwen2.5-0.5b", "task": "lora", "precision": "fp32", "optimizer": "adamw", "batch": 2, "seq": 128},
    {"model": "whisper-small", "task": "inference", "precision": "fp32", "optimizer": "adamw", "batch": 1, "seq": 64},
]


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--out", default=str(Path(__file__).parent / "results" / "estimate_accuracy_cpu.json"))
    args = parser.parse_args()

    from gpuconfig.core.workers.process import run_worker
    from gpuconfig.core.workers.programs import TRACE
    from gpuconfig.core.workload.estimate import FRAGMENTATION
    from gpuconfig.core.workload.runner import trace_request
    from gpuconfig.core.workload.service import TraceService
    from gpuconfig.core.workload.spec import Workload

    os.environ.setdefault("GPUCONFIG_DATA_DIR", tempfile.mkdtemp(prefix="gpuconfig-bench-"))
    rows = []
    for case in CASES:
        workload = Workload(device="cpu", **case)  # type: ignore[arg-type]
        traced = TraceService().fit_for(workload)
        source, seconds = traced.source, traced.trace_seconds
        estimate = traced.answer(workload, None).estimate
        request = trace_request(source, workload, [(workload.batch, workload.seq, None)])
        request["measure"] = True
        events: list[dict[str, Any]] = []
        ended = run_worker(TRACE, request, events.append, sys.executable)
        if not ended.ok:
            raise SystemExit(f"measuring {case['model']} failed: {ended.reason}")
        measured: dict[str, Any] = next(e for e in events if e.get("event") == "measured")
        real = int(measured["peak_rss_bytes"])
        error = (estimate.memory.peak - real) / real
        rows.append(
            {
                **case,
                "estimate_bytes": estimate.memory.peak,
                "measured_peak_rss_bytes": real,
                "error": round(error, 4),
                "tensor_peak_bytes": estimate.memory.peak - estimate.memory.overhead,
                "overheads": {o.name: o.bytes for o in estimate.memory.overheads},
                # The estimate without the fitted fragmentation term, and the activations it is a share of.
                "unfitted_bytes": estimate.memory.peak
                - sum(o.bytes for o in estimate.memory.overheads if o.name == FRAGMENTATION),
                "activation_bytes": estimate.memory.activations,
                "trace_seconds": seconds,
                "real_step_seconds": measured["step_seconds"],
            }
        )
        print(
            f"{case['model']:14s} {case['task']:9s} estimate {estimate.memory.peak / 2**20:8.0f} MiB  "
            f"measured {real / 2**20:8.0f} MiB  error {100 * error:+6.1f}%",
            flush=True,
        )
    share, leave_one_out = fit_fragmentation(rows)
    for row, loo in zip(rows, leave_one_out, strict=True):
        row["fitted_estimate_bytes"] = round(row["unfitted_bytes"] + share * row["activation_bytes"])
        real = row["measured_peak_rss_bytes"]
        row["fitted_error"] = round((row["fitted_estimate_bytes"] - real) / real, 4)
        row["leave_one_out_share"] = round(loo, 4)
        row["leave_one_out_error"] = round(
            (row["unfitted_bytes"] + loo * row["activation_bytes"] - row["measured_peak_rss_bytes"])
            / row["measured_peak_rss_bytes"],
            4,
        )
        print(f"{row['model']:14s} leave-one-out error {100 * row['leave_one_out_error']:+6.1f}%  (share {loo:.3f})")
    errors = [abs(r["leave_one_out_error"]) for r in rows]
    result = {
        "benchmark": "estimate_accuracy_cpu",
        "target": "every |error| <= 0.10, each case predicted with the fragmentation share fitted on the others",
        "within_target": sum(e <= 0.10 for e in errors),
        "cases": len(rows),
        "median_abs_error": round(statistics.median(errors), 4),
        "max_abs_error": round(max(errors), 4),
        "fragmentation_share": round(share, 4),
        "rows": rows,
        "machine": machine(),
        "command": "python benchmarks/estimate_accuracy_cpu.py",
    }
    write_share(share, rows, result["machine"])
    Path(args.out).write_text(json.dumps(result, indent=2) + "\n", encoding="utf-8")
    print(json.dumps({k: result[k] for k in ("cases", "within_target", "median_abs_error", "max_abs_error")}))
    return 0 if all(e <= 0.10 for e in errors) else 1


def fit_fragmentation(rows: list[dict]) -> tuple[float, list[float]]:
    """The median share of the activations that the real heap grew by beyond the unfitted estimate, over
    all cases, and for each case the same median over the other cases (its leave-one-out share)."""
    shares = [(r["measured_peak_rss_bytes"] - r["unfitted_bytes"]) / max(1, r["activation_bytes"]) for r in rows]
    loo = [statistics.median(shares[:i] + shares[i + 1 :]) for i in range(len(shares))]
    return max(0.0, statistics.median(shares)), [max(0.0, x) for x in loo]


def write_share(share: float, rows: list[dict], machine_info: dict) -> None:
    """catalog/cpu_heap.toml: the share the estimator adds, with the measurement it comes from."""
    cases = ", ".join(f"{r['model']} {r['task']} {100 * r['leave_one_out_error']:+.1f} %" for r in rows)
    source = (
        f"fitted by benchmarks/estimate_accuracy_cpu.py on {len(rows)} real CPU runs (peak resident memory of a "
        f"fresh process, {machine_info.get('os', '')}): the median share; each case predicted from the "
        f"others' median: {cases}"
    )
    text = (
        "# Written by benchmarks/estimate_accuracy_cpu.py: glibc heap growth beyond the replayed tensors, as a\n"
        "# share of the traced activations (gpuconfig/core/workload/estimate.py, heap_fragmentation).\n"
        f"fragmentation_share = {share:.4f}\n"
        f"source = {json.dumps(source)}\n"
    )
    (Path(__file__).resolve().parent.parent / "catalog" / "cpu_heap.toml").write_text(text, encoding="utf-8")


if __name__ == "__main__":
    sys.exit(main())
