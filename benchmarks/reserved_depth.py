"""The CUDA caching allocator's reserved memory of a deep model, from shallow traces, against the same model
traced at full depth (on this CPU: the allocations are replayed through the allocator's model, not run).

The reserved memory moves in steps as a model deepens (which cached segments a new block can reuse), so it
is not extended along a line like the tensors: the shape asked is also traced at full depth (an anchor), and
the other shapes take its reserved memory as the same share of their step's peak (core/workload/depth.py).
The estimator does this only for a model whose whole trace would take over a minute (the 70B class in
training); here it is forced on smaller ones too, so that each can be set against its own full-depth trace.
Each case is traced three ways: at 2, 3 and 4 layers with the anchors (runner.with_anchors, as the estimator
does), at full depth for every shape (the reference), and the line through the shallow depths alone (the old
extension, for comparison). Where the anchored trace is not usable (depth.check_depth) the estimator would
trace the model whole; the row says so. The anchors themselves are exact by construction, so the target is
held on the other shapes. Nothing is fitted.

    python benchmarks/reserved_depth.py    # target: every other shape within 10 % of the full-depth replay

The target is the band the estimator holds its reserved memory to against real runs: a shape outside it would
carry the extension's error past that band.
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

CASES = [
    {"model": "gpt2-medium", "batch": 4, "seq": 1024},
    {"model": "bert-large", "batch": 8, "seq": 512},
    {"model": "qwen2.5-1.5b", "batch": 2, "seq": 2048},
    {"model": "qwen2.5-7b", "batch": 1, "seq": 4096},
    {"model": "mistral-7b", "batch": 1, "seq": 4096},
    {"model": "llama-3-8b", "batch": 1, "seq": 4096},
    {"model": "llama-3-70b", "batch": 1, "seq": 4096},
]
KEY = "cuda_reserved_peak_bytes"
TARGET = 0.10


def main() -> int:
    os.environ["GPUCONFIG_DATA_DIR"] = tempfile.mkdtemp(prefix="gpuconfig-reserved-")  # no cached traces
    from gpuconfig.core.workload.depth import along_lines, check_depth, extrapolated, quantities, shallow_depths
    from gpuconfig.core.workload.models import resolve_model
    from gpuconfig.core.workload.runner import trace_at, traced_shapes, with_anchors
    from gpuconfig.core.workload.spec import Workload

    rows = []
    for case in CASES:
        workload = Workload(device="cuda", precision="bf16", optimizer="adamw", task="finetune", **case)  # type: ignore[arg-type]
        source = resolve_model(workload.model)
        assert source.layers is not None
        shapes = traced_shapes(source, workload.batch, workload.seq)
        depths = shallow_depths(*source.depth_pattern())  # type: ignore[misc]
        started = time.monotonic()
        shallow = trace_at(source, workload, [(b, s, d) for b, s in shapes for d in depths], source.layers)
        anchored = with_anchors(source, workload, shallow, source.layers)
        anchored_s = time.monotonic() - started
        started = time.monotonic()
        full = trace_at(source, workload, [(b, s, None) for b, s in shapes], None)
        full_s = time.monotonic() - started
        check = check_depth(anchored.points, source.layers)
        estimated = {(b, s): v for b, s, v in extrapolated(anchored.points, source.layers)}
        lines = {(b, s): v for b, s, v in along_lines(shallow.points, source.layers)}
        for point in full.points:
            shape = (int(point["batch"]), int(point["seq"]))
            truth = float(quantities(point)[KEY])
            rows.append(
                {
                    **case,
                    "layers": source.layers,
                    "shape": list(shape),
                    "anchor": shape in check.anchored,
                    "full_depth_bytes": int(truth),
                    "estimated_bytes": int(estimated[shape][KEY]),
                    "error": round(estimated[shape][KEY] / truth - 1, 4),
                    "line_bytes": int(lines[shape][KEY]),
                    "line_error": round(lines[shape][KEY] / truth - 1, 4),
                    "usable": check.usable,
                    "method": check.method(),
                    "anchored_trace_s": round(anchored_s, 1),
                    "full_trace_s": round(full_s, 1),
                }
            )
            r = rows[-1]
            print(
                f"{case['model']:13s} b{shape[0]} s{shape[1]:5d} {'anchor' if r['anchor'] else 'shared'} "
                f"full {truth / 1e9:7.2f} GB est {r['error']:+.2%} line {r['line_error']:+.2%} "
                f"traces {r['anchored_trace_s']:.0f} s / {r['full_trace_s']:.0f} s"
                + ("" if check.usable else f"  NOT usable: {check.fallback()}"),
                flush=True,
            )
    shared = [abs(r["error"]) for r in rows if not r["anchor"]]
    result = {
        "benchmark": "reserved_depth",
        "target": f"every shape not traced at full depth within {TARGET:.0%} of its full-depth replay",
        "cases": len(CASES),
        "shapes": len(rows),
        "within_target": sum(e <= TARGET for e in shared),
        "usable_cases": len({r["model"] for r in rows if r["usable"]}),
        "shared_shapes": {
            "count": len(shared),
            "median_abs_error": round(statistics.median(shared), 4) if shared else None,
            "worst_abs_error": max(shared, default=None),
        },
        "line_median_abs_error": round(statistics.median(abs(r["line_error"]) for r in rows), 4),
        "line_worst_abs_error": max(abs(r["line_error"]) for r in rows),
        "rows": rows,
        "machine": machine(),
        "command": "python benchmarks/reserved_depth.py",
    }
    out = Path(__file__).parent / "results" / "reserved_depth.json"
    out.write_text(json.dumps(result, indent=2) + "\n", encoding="utf-8")
    print(
        json.dumps({k: result[k] for k in ("usable_cases", "within_target", "shared_shapes", "line_median_abs_error")})
    )
    return 0 if result["within_target"] == len(shared) else 1


if __name__ == "__main__":
    sys.exit(main())
