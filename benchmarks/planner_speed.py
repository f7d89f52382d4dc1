"""How fast the planner answers over the whole catalog, once the workload is traced.

    python benchmarks/planner_speed.py     # target: under 200 ms per plan

For each workload the trace is made (or read from cache) first, with the traced changes the plan may make
(core/planner/changes.py, as `gpuconfig recommend` does by default); then recommend() is timed over every
GPU model, count and data-parallel strategy in the catalog for the workload as asked and with each change, the
platform search around each, the full compatibility check of every candidate, and every cloud instance
(with --rent), each run from a fresh planner (nothing cached between runs).
"""

from __future__ import annotations

import json
import os
import statistics
import sys
import tempfile
import time
from pathlib import Path

from machine import machine

RUNS = 20
CASES = (
    (
        "llama-3-8b LoRA seq 2048, bf16, as a new user asks it (no checkpointing), $3000",
        {"model": "llama-3-8b", "task": "lora", "seq": 2048, "precision": "bf16"},
        {"budget": 3000.0},
    ),
    (
        "llama-3-8b LoRA seq 2048, bf16, checkpointing, $3000, rent",
        {"model": "llama-3-8b", "task": "lora", "seq": 2048, "precision": "bf16", "checkpointing": True},
        {"budget": 3000.0, "rent": True},
    ),
    (
        "llama-3-8b LoRA seq 2048, no budget, rent",
        {"model": "llama-3-8b", "task": "lora", "seq": 2048, "precision": "bf16", "checkpointing": True},
        {"rent": True},
    ),
    (
        "llama-3-70b full fine-tune seq 2048, $3000 (shortfall)",
        {"model": "llama-3-70b", "task": "finetune", "seq": 2048},
        {"budget": 3000.0},
    ),
    ("gpt2 fine-tune, CNY, rent", {"model": "gpt2", "task": "finetune", "batch": 8}, {"currency": "CNY", "rent": True}),
)


def main() -> int:
    os.environ.setdefault("GPUCONFIG_DATA_DIR", tempfile.mkdtemp(prefix="gpuconfig-planner-"))
    from gpuconfig.core.build.rules import build_rules
    from gpuconfig.core.planner.changes import Variant, traced_variants
    from gpuconfig.core.planner.recommend import Constraints, plan_parts, recommend
    from gpuconfig.core.userdata.store import open_default_store
    from gpuconfig.core.workload.service import TraceService
    from gpuconfig.core.workload.spec import Workload

    store = open_default_store()
    parts = plan_parts(store)
    rows = []
    for label, workload_fields, limits in CASES:
        workload = Workload(**workload_fields)  # type: ignore[arg-type]
        service = TraceService()
        traced = service.fit_for(workload)
        source, fitted = traced.source, traced.fitted
        changes = traced_variants(Variant("", workload, source, fitted), False, service)[1:]
        constraints = Constraints(**limits)  # type: ignore[arg-type]
        times = []
        for _ in range(RUNS):
            t0 = time.perf_counter()
            plan = recommend(
                source, fitted, workload, constraints, parts, build_rules(), store.exchange_rate(), store.part, changes
            )
            times.append(time.perf_counter() - t0)
        rows.append(
            {
                "case": label,
                "catalog_parts": len(parts),
                "gpu_choices_considered": plan.considered,
                "changes_tried": list(plan.changes_tried),
                "changed_candidates": sum(1 for c in plan.candidates if c.change.label),
                "candidates": len(plan.candidates),
                "rentals": len(plan.rentals),
                "shortfall": plan.shortfall is not None,
                "median_ms": round(1000 * statistics.median(times), 2),
                "max_ms": round(1000 * max(times), 2),
            }
        )
        print(json.dumps(rows[-1]), flush=True)
    result = {
        "benchmark": "planner_speed",
        "target_ms": 200,
        "runs_per_case": RUNS,
        "rows": rows,
        "machine": machine(),
        "command": "python benchmarks/planner_speed.py",
    }
    out = Path(__file__).parent / "results" / "planner_speed.json"
    out.write_text(json.dumps(result, indent=2) + "\n", encoding="utf-8")
    return 0 if all(r["max_ms"] < 200 for r in rows) else 1


if __name__ == "__main__":
    sys.exit(main())
