"""Every allocation and free a real GPU run makes, recorded by PyTorch's caching allocator, for the cases whose
reserved-memory estimate misses: what the real stream holds that the traced one lacks (cuDNN workspaces, kernels'
scratch buffers), and whether the model of the allocator (gpuconfig/workers/tracer/cuda_cache.py) replays the real
stream to the reserved figure torch reports.

    python benchmarks/gpu_allocations.py --out DIR [--cases a,b,...] [--parallel 4]

Run on a machine with a CUDA GPU (benchmarks/gpu_session.py's cases and workloads). Each case runs in its own
process, with torch.cuda.memory._record_memory_history on from before the model is built
(https://docs.pytorch.org/docs/stable/torch_cuda_memory.html), through the same measuring code as gpu_session.py.
Writes DIR/allocations.json.xz: per case, the measured peaks and the stream as [action, address, size, where],
`where` being the innermost Python frames of the allocation; benchmarks/gpu_allocations_report.py reads it back.
"""

from __future__ import annotations

import argparse
import concurrent.futures
import json
import lzma
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

HERE = Path(__file__).resolve().parent
DEFAULT_CASES = (
    "resnet-18-finetune-sgd",
    "resnet-50-finetune",
    "resnet-50-finetune-amp",
    "llama-small-generate-4096",
    "qwen2.5-0.5b-lora",
    "qwen2.5-1.5b-generate",
    "vit-base-finetune-sgd-ckpt",
    "gpt2-finetune",
)
FRAMES = 4  # the innermost Python frames kept per allocation
ACTIONS = ("alloc", "free_completed", "segment_alloc", "segment_free")


def case_named(name: str) -> dict[str, Any]:
    from gpu_session import cases

    listed = (
        cases("estimate_accuracy_cases.toml", precision="fp32")
        + cases("cpu_heldout_cases.toml", precision="fp32")
        + cases("gpu_cases.toml")
    )
    return next(case for case in listed if case["case"] == name)


def where(frames: list[dict[str, Any]]) -> str:
    kept = [f for f in frames if "gpu_allocations" not in f.get("filename", "")][:FRAMES]
    return " < ".join(f"{Path(f['filename']).name}:{f['line']}:{f['name']}" for f in kept)


def record_one(name: str) -> dict[str, Any]:
    """In this process: the case's real run with the allocator's history on."""
    import torch
    from gpu_session import request_of

    from gpuconfig.workers.tracer.generation import measure_generation
    from gpuconfig.workers.tracer.point import measure_point

    case = case_named(name)
    request = request_of(case, 0)
    torch.cuda.init()
    torch.cuda.memory._record_memory_history(max_entries=2_000_000, stacks="python")
    batch, seq, _ = request["points"][0]
    measured = (measure_generation if request.get("generate") else measure_point)(request, batch, seq)
    snapshot = torch.cuda.memory._snapshot()
    torch.cuda.memory._record_memory_history(enabled=None)
    stream = [
        [entry["action"], entry["addr"], entry["size"], where(entry.get("frames", []))]
        for entry in snapshot["device_traces"][0]
        if entry["action"] in ACTIONS
    ]
    # Decode steps repeat the same few hundred allocations: the prompt and the first steps say what they are.
    if request.get("generate") and len(stream) > 400_000:
        stream = stream[:400_000]
    return {
        "case": name,
        "request": {k: request[k] for k in request if k != "model"},
        "measured": {k: v for k, v in measured.items() if "seconds" not in k and k != "decode_steps"},
        "cudnn": torch.backends.cudnn.version(),
        "torch": torch.__version__,
        "stream": stream,
    }


def run_case(name: str, limit_s: float) -> dict[str, Any]:
    started = time.monotonic()
    command = [sys.executable, str(Path(__file__).resolve()), "--one", name]
    try:
        done = subprocess.run(command, capture_output=True, text=True, timeout=limit_s, cwd=HERE)
    except subprocess.TimeoutExpired:
        return {"case": name, "error": f"timed out after {limit_s:.0f} s"}
    if done.returncode != 0:
        return {"case": name, "error": done.stderr.strip()[-3000:]}
    row: dict[str, Any] = json.loads(done.stdout.strip().splitlines()[-1])
    row["seconds"] = round(time.monotonic() - started, 1)
    return row


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--out", type=Path)
    parser.add_argument("--cases", default=",".join(DEFAULT_CASES))
    parser.add_argument("--parallel", type=int, default=4)
    parser.add_argument("--limit", type=float, default=90.0, help="seconds per case")
    parser.add_argument("--one", help=argparse.SUPPRESS)
    args = parser.parse_args()
    sys.path.insert(0, str(HERE))
    if args.one:
        print(json.dumps(record_one(args.one), default=str))
        return 0
    names = [n for n in args.cases.split(",") if n]
    with concurrent.futures.ThreadPoolExecutor(max_workers=args.parallel) as pool:
        rows = list(pool.map(lambda n: run_case(n, args.limit), names))
    for row in rows:
        m = row.get("measured", {})
        print(
            f"{row['case']:<32} {row.get('seconds', '-')} s  entries {len(row.get('stream', []))}  "
            f"alloc {m.get('cuda_max_allocated_bytes')} reserved {m.get('cuda_max_reserved_bytes')} "
            f"{row.get('error', '')[-300:]}",
            flush=True,
        )
    args.out.mkdir(parents=True, exist_ok=True)
    with lzma.open(args.out / "allocations.json.xz", "wt", encoding="utf-8") as out:
        json.dump({"date": time.strftime("%Y-%m-%d"), "rows": rows}, out)
    return 0


if __name__ == "__main__":
    sys.exit(main())
