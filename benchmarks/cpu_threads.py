"""Whether the `--device cpu` estimate holds at another intra-op thread count. The accuracy benchmark runs at
this machine's own count; a user's machine may run many more threads, each of which can hold buffers of its own
(oneDNN scratchpads, per-thread partial sums, glibc's per-thread arenas). Each case is traced and run for real
in fresh processes with OMP_NUM_THREADS set to each count (torch takes its intra-op thread count from it), the
real peak resident memory compared with the estimate made at the same count.

    python benchmarks/cpu_threads.py                       # the default cases at 2 and 8 threads
    python benchmarks/cpu_threads.py --threads 2 16 --only gpt2-finetune

More threads than cores is slower but allocates as many threads' buffers, so a small machine measures it too.
Writes results/cpu_threads.json; nothing in the catalog is fitted or written.
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

from estimate_accuracy_cpu import CASES, measure_case, trace_case
from machine import machine

HERE = Path(__file__).resolve().parent
RESULTS = HERE / "results" / "cpu_threads.json"
# One per kind of kernel whose buffers could follow the thread count: a decoder's matmuls, an encoder's
# GELU and layer norms, a ViT's checkpointed step, convolutions, and a long generation's attention.
DEFAULT_CASES = (
    "gpt2-finetune",
    "bert-base-classify",
    "vit-base-finetune-sgd-ckpt",
    "resnet-18-finetune-sgd",
    "llama-small-generate-4096",
)


def run(case: dict[str, Any], threads: int, repeats: int) -> dict[str, Any]:
    os.environ["OMP_NUM_THREADS"] = str(threads)  # read by the trace and the real runs, both fresh processes
    row = trace_case(case, use_cache=False)  # the runtime's resident memory is measured again at this count
    if row["status"] != "traced":
        return {"case": case["case"], "threads": threads, "status": row["status"], "reason": row.get("reason")}
    real = measure_case(case, row["seq_used"], repeats)
    out = {
        "case": case["case"],
        "threads": threads,
        "estimate_bytes": row["unfitted_bytes"],
        "overheads": row["overheads"],
        **{k: v for k, v in real.items() if k != "real_step_seconds"},
    }
    if real["status"] == "measured":
        measured = real["measured_peak_rss_bytes"]
        out["error"] = round((row["unfitted_bytes"] - measured) / measured, 4)
    return out


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--threads", type=int, nargs="+", default=[2, 8])
    parser.add_argument("--only", nargs="*", default=list(DEFAULT_CASES))
    parser.add_argument("--repeats", type=int, default=3)
    parser.add_argument("--out", type=Path, default=RESULTS)
    args = parser.parse_args()
    if any(t < 1 for t in args.threads):
        parser.error("--threads: every count must be at least 1")
    os.environ.setdefault("GPUCONFIG_DATA_DIR", tempfile.mkdtemp(prefix="gpuconfig-bench-"))
    cases = [c for c in CASES if c["case"] in args.only]
    if not cases:
        parser.error(f"--only: no such case (known: {', '.join(c['case'] for c in CASES)})")
    rows = []
    for case in cases:
        for threads in args.threads:
            row = run(case, threads, args.repeats)
            rows.append(row)
            shown = f"{100 * row['error']:+.1f}%" if "error" in row else row["status"]
            print(f"{case['case']:32s} {threads:3d} threads  {shown}", flush=True)
    by_count = {}
    for threads in args.threads:
        errors = [abs(r["error"]) for r in rows if r["threads"] == threads and "error" in r]
        by_count[str(threads)] = {
            "cases": len(errors),
            "median_abs_error": round(statistics.median(errors), 4) if errors else None,
            "worst_abs_error": round(max(errors), 4) if errors else None,
        }
    base = args.threads[0]
    moved = {}
    for case in cases:
        peaks = {r["threads"]: r.get("measured_peak_rss_bytes") for r in rows if r["case"] == case["case"]}
        if peaks.get(base):
            moved[case["case"]] = {
                str(t): round((p - peaks[base]) / peaks[base], 4) for t, p in peaks.items() if p and t != base
            }
    result = {
        "benchmark": "cpu_threads",
        "question": "does the CPU estimate hold at another intra-op thread count (OMP_NUM_THREADS)?",
        "threads": args.threads,
        "by_thread_count": by_count,
        "measured_peak_moved_from_first_count": moved,
        "rows": rows,
        "machine": machine(),
        "date": time.strftime("%Y-%m-%d"),
        "command": "python benchmarks/cpu_threads.py " + " ".join(sys.argv[1:]),
    }
    args.out.write_text(json.dumps(result, indent=2) + "\n", encoding="utf-8")
    print(json.dumps({"by_thread_count": by_count, "measured_peak_moved": moved}))
    return 0


if __name__ == "__main__":
    sys.exit(main())
