"""CPU cost of live sampling: the sampler at 10 Hz against the same process idle, target under 1 % of one core.

Two phases of equal wall time in one process: idle (sleeping), then sampling. Cost is CPU time over wall
time, as % of one core, measured two ways: the sampler thread's own CPU time (psutil, per thread), and
the process's CPU time while sampling minus the same while idle. Also records the cadence: samples
taken, ticks missed, and how far the intervals stray from the period.

    python benchmarks/probe_sampler.py [--seconds 30] [--hz 10]
"""

from __future__ import annotations

import argparse
import json
import os
import threading
import time
from datetime import datetime
from pathlib import Path

import numpy as np
import psutil
from machine import machine

from gpuconfig.probe.sampler import Sampler


def _thread_cpu_s(native_id: int | None) -> float | None:
    """CPU seconds (user + system) of one thread of this process, where the OS reports threads."""
    if native_id is None:
        return None
    for thread in psutil.Process().threads():
        if thread.id == native_id:
            return float(thread.user_time + thread.system_time)
    return None


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seconds", type=float, default=30.0, help="wall time of each phase")
    parser.add_argument("--hz", type=float, default=10.0)
    parser.add_argument("--out", default=str(Path(__file__).parent / "results" / "probe_sampler.json"))
    args = parser.parse_args()

    wall0, cpu0 = time.monotonic(), time.process_time()
    time.sleep(args.seconds)
    idle_wall, idle_cpu = time.monotonic() - wall0, time.process_time() - cpu0

    sampler = Sampler(hz=args.hz, window_s=args.seconds + 60)
    wall0, cpu0 = time.monotonic(), time.process_time()
    sampler.start()
    worker = next(t for t in threading.enumerate() if t.name == "gpuconfig-sampler")
    thread0 = _thread_cpu_s(worker.native_id)
    time.sleep(args.seconds)
    thread1 = _thread_cpu_s(worker.native_id)
    series = sampler.snapshot()
    sampler.stop()
    busy_wall, busy_cpu = time.monotonic() - wall0, time.process_time() - cpu0

    intervals = np.diff(series.t)
    period = 1.0 / args.hz
    idle_pct = 100 * idle_cpu / idle_wall
    busy_pct = 100 * busy_cpu / busy_wall
    thread_pct = None if thread0 is None or thread1 is None else round(100 * (thread1 - thread0) / args.seconds, 3)
    result = {
        "benchmark": "probe_sampler",
        "recorded_at": datetime.now().astimezone().isoformat(timespec="seconds"),
        "hz": args.hz,
        "seconds_per_phase": args.seconds,
        "channels": len(series.channels),
        "gpu_channels": sum(name.startswith("gpu") for name in series.channels),
        "unavailable": series.unavailable,
        "target_pct_of_one_core": 1.0,
        "sampler_thread_pct_of_one_core": thread_pct,
        "process_idle_pct_of_one_core": round(idle_pct, 3),
        "process_sampling_pct_of_one_core": round(busy_pct, 3),
        "process_difference_pct_of_one_core": round(busy_pct - idle_pct, 3),
        "samples": int(series.t.size),
        "samples_expected": int(args.seconds * args.hz),
        "missed_ticks": sampler.missed_ticks,
        "interval_median_ms": round(1000 * float(np.median(intervals)), 3),
        "interval_error_p99_ms": round(1000 * float(np.percentile(np.abs(intervals - period), 99)), 3),
        "interval_error_max_ms": round(1000 * float(np.max(np.abs(intervals - period))), 3),
        "machine": machine(),
        "command": "python benchmarks/probe_sampler.py"
        + ("" if (args.seconds, args.hz) == (30.0, 10.0) else f" --seconds {args.seconds:g} --hz {args.hz:g}"),
    }
    os.makedirs(Path(args.out).parent, exist_ok=True)
    Path(args.out).write_text(json.dumps(result, indent=2) + "\n", encoding="utf-8")
    keys = [k for k in result if k.endswith("_of_one_core") or k.startswith(("samples", "missed", "interval"))]
    print(json.dumps({k: result[k] for k in keys}))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
