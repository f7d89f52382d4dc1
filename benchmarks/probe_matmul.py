"""The probe's CPU fp32 matmul figure against a plain torch.matmul loop measured in the same run.

    python benchmarks/probe_matmul.py        # target: probe >= 90 % of the plain loop

Each round times a plain loop (`torch.matmul(a, b)` over square fp32 matrices of the probe's quick-suite
sizes, mean time per call after one warm-up, best size) in a fresh Python with torch, then runs the probe's
own matmul benchmark through `run_suite(only=["matmul"])` (a fresh worker process), and compares the two
fp32 figures. Rounds alternate which of the two goes first, so that a busy moment of this shared machine
hits both alike; the result is the ratio of the medians, and every round is recorded with the machine's
1-minute load average when it began (two CPUs: other work on one halves a two-thread matmul).
"""

from __future__ import annotations

import json
import os
import statistics
import subprocess
import sys
import time
from pathlib import Path

from machine import machine

from gpuconfig.probe.runner import run_suite

ROUNDS = 9
TARGET_RATIO = 0.9
# The quick suite's CPU sizes (gpuconfig/workers/bench/compute.py, matmul); iterations give each size ~0.3-0.5 s here.
PLAIN_LOOP = """
import json, time, torch
torch.set_float32_matmul_precision("highest")
tflops = {}
for n, iterations in ((1024, 40), (2048, 6)):
    a, b = torch.randn(n, n), torch.randn(n, n)
    torch.matmul(a, b)
    began = time.perf_counter()
    for _ in range(iterations):
        torch.matmul(a, b)
    seconds = (time.perf_counter() - began) / iterations
    tflops[n] = 2 * n**3 / seconds / 1e12
print(json.dumps({"tflops_by_size": tflops, "torch": torch.__version__, "threads": torch.get_num_threads()}))
"""


def plain_loop() -> dict[str, object]:
    done = subprocess.run([sys.executable, "-c", PLAIN_LOOP], capture_output=True, text=True, check=True, timeout=300)
    measured = json.loads(done.stdout)
    return {"tflops": max(measured["tflops_by_size"].values()), **measured}


def probe() -> dict[str, object]:
    outcome = run_suite("quick", only=["matmul"])
    (fp32,) = [r for r in outcome.results if r.name == "matmul" and r.dtype == "fp32" and r.status == "ok"]
    return {"tflops": fp32.value, "n": fp32.detail["n"], "tflops_by_size": fp32.detail["tflops_by_size"]}


def main() -> int:
    rounds = []
    plain_figures, probe_figures = [], []
    for index in range(ROUNDS):
        began, load = time.perf_counter(), os.getloadavg()[0]
        if index % 2:  # alternate which goes first, so a drift in the machine's load hits both alike
            ours, plain = probe(), plain_loop()
        else:
            plain, ours = plain_loop(), probe()
        plain_figures.append(float(str(plain["tflops"])))
        probe_figures.append(float(str(ours["tflops"])))
        ratio = probe_figures[-1] / plain_figures[-1]
        rounds.append({"round": index + 1, "plain": plain, "probe": ours, "ratio": round(ratio, 4), "load_1min": load})
        print(f"round {index + 1}: plain {plain_figures[-1]:.4f}, probe {probe_figures[-1]:.4f} TFLOP/s, "
              f"ratio {ratio:.3f} ({time.perf_counter() - began:.1f} s, load {load:.2f})", flush=True)  # fmt: skip
    plain_median, probe_median = statistics.median(plain_figures), statistics.median(probe_figures)
    ratio = probe_median / plain_median
    result = {
        "benchmark": "probe_matmul",
        "what": "probe's CPU fp32 matmul figure / a plain torch.matmul loop, same sizes, same run",
        "target": {"ratio_at_least": TARGET_RATIO},
        "plain_median_tflops": round(plain_median, 4),
        "probe_median_tflops": round(probe_median, 4),
        "ratio_of_medians": round(ratio, 4),
        "ratios": [r["ratio"] for r in rounds],
        "rounds": rounds,
        "machine": machine(),
        "command": "python benchmarks/probe_matmul.py",
    }
    out = Path(__file__).parent / "results" / "probe_matmul.json"
    out.write_text(json.dumps(result, indent=2) + "\n", encoding="utf-8")
    print(f"median plain {plain_median:.4f}, probe {probe_median:.4f} TFLOP/s: ratio {ratio:.3f}")
    return 0 if ratio >= TARGET_RATIO else 1


if __name__ == "__main__":
    sys.exit(main())
