"""Deep models traced at 2, 3 and 4 layers and extended to full depth, against the same model traced at
full depth: the estimated peak of each, the phase it is in, how linear the shallow traces were, and what
each trace cost (the figures core/workload/runner.py decides the depth from).

    python benchmarks/trace_depth.py            # target: every extended peak within 2 % of the full trace
"""

from __future__ import annotations

import argparse
import json
import os
import sys
import tempfile
from pathlib import Path
from typing import Any

from machine import machine

CASES = [
    {"model": "bert-large", "task": "finetune", "batch": 2, "seq": 512},
    {"model": "bert-large", "task": "pretrain", "batch": 2, "seq": 512},
    {"model": "gpt2-medium", "task": "inference", "batch": 8, "seq": 1024},
    {"model": "gpt2-medium", "task": "finetune", "batch": 4, "seq": 512},
    {"model": "gpt2-medium", "task": "finetune", "batch": 4, "seq": 512, "checkpointing": True},
    {"model": "gpt2", "task": "finetune", "batch": 4, "seq": 512},
    {"model": "gpt2", "task": "finetune", "batch": 4, "seq": 512, "checkpointing": True},
    {"model": "llama-3-8b", "task": "finetune", "batch": 1, "seq": 512},
]
GB = 1e9


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--out", default=str(Path(__file__).parent / "results" / "trace_depth.json"))
    args = parser.parse_args()

    from gpuconfig.core.workload.depth import SHALLOW_LAYERS
    from gpuconfig.core.workload.estimate import estimate_from_fit, fit
    from gpuconfig.core.workload.models import resolve_model
    from gpuconfig.core.workload.runner import trace_at, traced_shapes
    from gpuconfig.core.workload.spec import Workload

    os.environ.setdefault("GPUCONFIG_DATA_DIR", tempfile.mkdtemp(prefix="gpuconfig-bench-"))
    rows, timings = [], []
    for case in CASES:
        workload = Workload(device="cpu", precision="fp32", optimizer="adamw", **case)  # type: ignore[arg-type]
        source = resolve_model(workload.model)
        shapes = traced_shapes(source, workload.batch, workload.seq)
        shallow = trace_at(source, workload, [(b, s, d) for b, s in shapes for d in SHALLOW_LAYERS], source.layers)
        full = trace_at(source, workload, [(b, s, None) for b, s in shapes], None)
        found = {}
        for name, trace in (("extended", shallow), ("full", full)):
            fitted = fit(trace)
            estimate = estimate_from_fit(source, workload, fitted, workload.seq)
            m = estimate.memory
            found[name] = {
                "peak_bytes": m.peak,
                "tensor_bytes": m.peak - m.overhead,
                "phase": m.phase,
                "weights": m.weights,
                "gradients": m.gradients,
                "optimizer": m.optimizer,
                "activations": m.activations,
                "method": estimate.method,
                "trace_seconds": trace.seconds,
            }
            for i, point in enumerate(trace.points):
                if i:  # the first point of a worker also imports the model's modules
                    layers = point["layers"] or source.layers
                    timings.append({"training": workload.training, "layers": layers, "seconds": point["seconds"]})
        ext, deep = found["extended"], found["full"]
        row = {
            **case,
            "layers": source.layers,
            **found,
            "tensor_error": round((ext["tensor_bytes"] - deep["tensor_bytes"]) / deep["tensor_bytes"], 4),
        }
        rows.append(row)
        print(
            f"{case['model']:12s} {case['task']:9s} {'ckpt' if case.get('checkpointing') else '    '} "
            f"extended {ext['tensor_bytes'] / GB:6.2f} GB ({ext['phase']}) full {deep['tensor_bytes'] / GB:6.2f} GB "
            f"({deep['phase']}) {100 * row['tensor_error']:+5.1f}%  traces {ext['trace_seconds']:.0f} s / "
            f"{deep['trace_seconds']:.0f} s\n    {ext['method']}",
            flush=True,
        )
    result = {
        "benchmark": "trace_depth",
        "target": "every extended tensor peak within 2 % of the full-depth trace",
        "within_target": sum(abs(r["tensor_error"]) <= 0.02 for r in rows),
        "cases": len(rows),
        "seconds_per_layer": {
            kind: per_layer([t for t in timings if t["training"] == training])
            for kind, training in (("training", True), ("inference", False))
        },
        "rows": rows,
        "point_seconds": timings,
        "machine": machine(),
        "command": "python benchmarks/trace_depth.py",
    }
    Path(args.out).write_text(json.dumps(result, indent=2) + "\n", encoding="utf-8")
    print(json.dumps({k: result[k] for k in ("cases", "within_target", "seconds_per_layer")}))
    return 0 if result["within_target"] == len(rows) else 1


def per_layer(timings: list[dict[str, Any]]) -> dict[str, float]:
    """Seconds per traced point as a + b * layers, least squares."""
    if len(timings) < 2:
        return {}
    xs, ys = [t["layers"] for t in timings], [t["seconds"] for t in timings]
    mx, my = sum(xs) / len(xs), sum(ys) / len(ys)
    slope = sum((x - mx) * (y - my) for x, y in zip(xs, ys, strict=True)) / sum((x - mx) ** 2 for x in xs)
    return {"per_point": round(my - slope * mx, 3), "per_layer": round(slope, 4)}


if __name__ == "__main__":
    sys.exit(main())
