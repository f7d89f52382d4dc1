"""How fast the estimator answers: a 70B-class model traced without allocating its memory, and the
instant answer for a new batch, length or GPU count from that trace.

    python benchmarks/estimate_speed.py     # targets: trace < 60 s per model, instant answer < 50 ms

Each model is traced from a cold cache in a fresh worker process (the time includes starting Python,
importing torch and transformers, and all traced points); the peak resident memory of the worker shows
that nothing of the model's size was allocated. The instant answer is timed over a sweep of batch sizes,
lengths and GPU counts, each a new question to the fitted trace.
"""

from __future__ import annotations

import json
import os
import resource
import statistics
import sys
import tempfile
import time
from pathlib import Path

from machine import machine

MODELS = ("llama-3-70b", "qwen2.5-72b")


def main() -> int:
    os.environ["GPUCONFIG_DATA_DIR"] = tempfile.mkdtemp(prefix="gpuconfig-speed-")
    from gpuconfig.core.workload.answer import answer_from_fit
    from gpuconfig.core.workload.service import TraceService
    from gpuconfig.core.workload.spec import Workload

    rows = []
    for model in MODELS:
        workload = Workload(model=model, task="finetune", precision="bf16", optimizer="adamw", batch=1, seq=4096)
        started = time.perf_counter()
        traced = TraceService(use_cache=False).fit_for(workload)
        source, fitted = traced.source, traced.fitted
        trace_s = time.perf_counter() - started
        worker_peak = resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss * 1024
        answers = []
        for batch in (1, 2, 4, 8, 16):
            for seq in (512, 2048, 8192):
                for gpus, strategy in ((1, "ddp"), (8, "fsdp"), (8, "tp")):
                    asked = workload.with_changes(batch=batch, seq=seq, gpus=gpus, strategy=strategy)
                    t0 = time.perf_counter()
                    answer = answer_from_fit(source, fitted, asked, None)
                    answers.append(time.perf_counter() - t0)
        rows.append(
            {
                "model": model,
                "params": answer.estimate.params,
                "trace_s": round(trace_s, 2),
                "method": answer.estimate.method,
                "largest_worker_peak_rss_bytes": worker_peak,
                "model_bf16_weights_bytes": 2 * answer.estimate.params,
                "instant_answers": len(answers),
                "instant_median_ms": round(1000 * statistics.median(answers), 3),
                "instant_max_ms": round(1000 * max(answers), 3),
            }
        )
        print(json.dumps(rows[-1]), flush=True)
    result = {
        "benchmark": "estimate_speed",
        "targets": {"trace_s": 60, "instant_ms": 50},
        "rows": rows,
        "machine": machine(),
        "command": "python benchmarks/estimate_speed.py",
    }
    out = Path(__file__).parent / "results" / "estimate_speed.json"
    out.write_text(json.dumps(result, indent=2) + "\n", encoding="utf-8")
    ok = all(r["trace_s"] < 60 and r["instant_max_ms"] < 50 for r in rows)
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
