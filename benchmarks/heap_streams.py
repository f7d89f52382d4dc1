"""Where the CPU memory estimate's heap comes from, case by case: a real run's own malloc stream replayed through
glibc, against the stream the trace synthesizes (its tensors, each with its header blocks, and each autograd node's
objects: gpuconfig/workers/tracer/heap.py), each also with its tensors alone.

    python benchmarks/heap_streams.py [--cases a,b,...]      # Linux with glibc and a C compiler (cc)

For each case (of estimate_accuracy_cases.toml or cpu_heldout_cases.toml): one real run of its recipe on the
CPU (the trace worker's measuring code) with malloc_log.c preloaded, recording every malloc, posix_memalign and
free from before the model is built; one trace of the same case, keeping the stream its heap replay receives.
Each stream is replayed in a fresh fork of one replaying process (so every replay starts from the same heap), and
the growth of glibc's heap is set against the real run's peak resident memory less the PyTorch runtime the
estimate counts on its own. It splits an estimate's error into the synthetic stream's part (synthetic against real
stream) and the replay's own (real stream against the measured growth). Writes results/heap_streams.json.
"""

from __future__ import annotations

import argparse
import json
import os
import shutil
import struct
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

HERE = Path(__file__).resolve().parent
RESULTS = HERE / "results" / "heap_streams.json"
RECORD = struct.Struct("<QQQ")
DEFAULT_CASES = (
    "vit-base-finetune-sgd-ckpt",
    "qwen2.5-0.5b-lora-sgd-ckpt",
    "gpt2-finetune-sgd-ckpt",
    "gpt2-finetune",
    "resnet-50-finetune",
    "mobilenet-v2-finetune",  # of the held-out set (cpu_heldout_cases.toml)
)


def request_for(name: str) -> dict[str, Any]:
    import gpu_session
    from gpu_allocations import case_named

    gpu_session.DEVICE["name"] = "cpu"
    request = gpu_session.request_of(case_named(name), 0)
    return request | {"device": "cpu"}


def real_child(name: str, library: str, log: str) -> dict[str, Any]:
    """In the preloaded process: the case's real run, logged from before its model is built."""
    import ctypes

    from gpuconfig.workers.tracer.point import measure_point

    request = request_for(name)
    logger = ctypes.CDLL(library)
    batch, seq, _ = request["points"][0]
    if logger.malloc_log_start(log.encode()) != 0:
        raise OSError(f"cannot write {log}")
    measured = measure_point(request, batch, seq)
    logger.malloc_log_stop()
    return {"peak_rss_bytes": measured["peak_rss_bytes"]}


def real_stream(log: Path) -> list[tuple[int, int, int]]:
    from gpuconfig.workers.tracer.heap import SMALL, TENSOR

    data = log.read_bytes()
    stream: list[tuple[int, int, int]] = []
    kinds: dict[int, int] = {}
    for kind, pointer, size in RECORD.iter_unpack(data[: len(data) - len(data) % RECORD.size]):
        if kind == 3:
            if pointer in kinds:
                stream.append((pointer, -1, kinds.pop(pointer)))
            continue
        kinds[pointer] = TENSOR if kind == 2 else SMALL
        stream.append((pointer, size, kinds[pointer]))
    return stream


def replayed_growths(name: str, real: list[Any]) -> tuple[dict[str, int], int]:
    """The case's trace, its heap replay capturing the synthetic stream, then that stream, the real one and each
    one's tensors alone replayed by the same copy the estimate's replay forks from (a copy forked later, after the
    trace, starts from a heap the trace left with free chunks, and grows less); and the runtime the estimate
    counts (measured in a fresh process, as the estimate measures it)."""
    from gpuconfig.core.workload import cpu_heap
    from gpuconfig.workers.tracer import point
    from gpuconfig.workers.tracer.__main__ import runtime_rss
    from gpuconfig.workers.tracer.heap import TENSOR, MallocReplay

    request = request_for(name)
    request.pop("measure", None)
    request["autograd_objects"] = cpu_heap.autograd_objects()
    captured: list[list[Any]] = []
    original = MallocReplay.replays

    def keep(self: MallocReplay, stream: Any, top_rests: Any) -> list[int | None]:
        listed = list(stream)
        captured.append(listed)
        return original(self, listed, top_rests)

    out: dict[str, int] = {}
    with MallocReplay() as replay:
        MallocReplay.replays = keep  # type: ignore[method-assign]
        try:
            batch, seq, _ = request["points"][0]
            traced = point.trace_point(request, batch, seq, None, replay)
        finally:
            MallocReplay.replays = original  # type: ignore[method-assign]
        for label, stream in {"real stream": real, "synthetic stream": captured[0]}.items():
            out[label] = replay.replay(stream) or 0
            out[f"{label} tensors alone"] = replay.replay([e for e in stream if e[2] == TENSOR]) or 0
    return out, runtime_rss(traced["built_modules"])[0]


def one_case(name: str, library: Path, work: Path) -> dict[str, Any]:
    log = work / f"{name}.log"
    command = [sys.executable, __file__, "--child", name, str(library), str(log)]
    done = subprocess.run(
        command, env={**os.environ, "LD_PRELOAD": str(library)}, capture_output=True, text=True, check=False, cwd=HERE
    )
    if done.returncode != 0:
        return {"case": name, "status": "real run failed", "reason": done.stderr.strip()[-500:]}
    measured = json.loads(done.stdout.strip().splitlines()[-1])
    replayed, runtime = replayed_growths(name, real_stream(log))
    log.unlink()
    growth = measured["peak_rss_bytes"] - runtime
    return {
        "case": name,
        "status": "measured",
        "peak_rss_bytes": measured["peak_rss_bytes"],
        "runtime_bytes": runtime,
        "measured_growth_bytes": growth,
        "replayed_growth_bytes": replayed,
        "synthetic_against_real_stream": round(replayed["synthetic stream"] / replayed["real stream"] - 1, 4),
        "real_stream_against_measured": round(replayed["real stream"] / growth - 1, 4),
    }


def main() -> int:
    sys.path[:0] = [str(HERE), str(HERE.parent)]
    if len(sys.argv) > 1 and sys.argv[1] == "--child":
        print(json.dumps(real_child(sys.argv[2], sys.argv[3], sys.argv[4])))
        return 0
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--cases", default=",".join(DEFAULT_CASES))
    args = parser.parse_args()
    compiler = shutil.which("cc") or shutil.which("gcc")
    if not sys.platform.startswith("linux") or compiler is None:
        raise SystemExit("needs Linux with glibc and a C compiler (cc)")
    from machine import machine

    rows = []
    with tempfile.TemporaryDirectory(prefix="gpuconfig-heap-") as folder:
        work = Path(folder)
        library = work / "malloc_log.so"
        subprocess.run(
            [compiler, "-O2", "-shared", "-fPIC", "-o", str(library), str(HERE / "malloc_log.c"), "-ldl"], check=True
        )
        for name in filter(None, args.cases.split(",")):
            row = one_case(name, library, work)
            rows.append(row)
            if row["status"] == "measured":
                r = row["replayed_growth_bytes"]
                print(
                    f"{name:<30} measured growth {row['measured_growth_bytes'] / 1e9:5.2f} GB; real stream "
                    f"{r['real stream'] / 1e9:5.2f} (tensors {r['real stream tensors alone'] / 1e9:5.2f}); synthetic "
                    f"{r['synthetic stream'] / 1e9:5.2f} (tensors {r['synthetic stream tensors alone'] / 1e9:5.2f})",
                    flush=True,
                )
            else:
                print(f"{name:<30} {row['status']}: {row['reason']}", flush=True)
    result = {
        "benchmark": "heap_streams",
        "rows": rows,
        "machine": machine(),
        "date": time.strftime("%Y-%m-%d"),
        "command": "python benchmarks/heap_streams.py",
    }
    RESULTS.write_text(json.dumps(result, indent=1) + "\n", encoding="utf-8")
    return 0


if __name__ == "__main__":
    sys.exit(main())
