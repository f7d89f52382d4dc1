"""The allocation streams gpu_allocations.py recorded on a GPU, read back here (no GPU needed): the model of
PyTorch's caching allocator (gpuconfig/workers/tracer/cuda_cache.py) replays each real stream, and its peaks are set
against the reserved and allocated figures torch reported; the convolutions' cuDNN workspaces (a block taken and
freed around each convolution) are counted, and the stream is replayed again without them, to show what they add.

    python benchmarks/gpu_allocations_report.py [--recording results/gpu_h100/allocations.json.xz]

Writes results/gpu_allocations.json. Nothing is fitted: a replay that misses means the allocator model is wrong.
"""

from __future__ import annotations

import argparse
import json
import lzma
import sys
from pathlib import Path
from typing import Any

HERE = Path(__file__).resolve().parent
RESULTS = HERE / "results" / "gpu_allocations.json"


def replay(stream: list[list[Any]]) -> tuple[int, int]:
    from gpuconfig.workers.tracer.cuda_cache import CachingAllocator

    allocator = CachingAllocator()
    for action, address, size, _ in stream:
        if action == "alloc":
            allocator.malloc(address, size)
        elif action == "free_completed":
            allocator.free(address)
    return allocator.peak_allocated, allocator.peak_reserved


def workspace_positions(stream: list[list[Any]]) -> set[int]:
    """The blocks a convolution takes and gives back at once: allocated, then freed as the very next event,
    inside a convolution's forward (its Python frame) or in backward (the autograd thread has none)."""
    positions: set[int] = set()
    for at in range(len(stream) - 1):
        action, address, _, where = stream[at]
        following = stream[at + 1]
        transient = action == "alloc" and following[0] == "free_completed" and following[1] == address
        if transient and ("conv" in where or not where):
            positions.update((at, at + 1))
    return positions


def report(row: dict[str, Any]) -> dict[str, Any]:
    if "error" in row:
        return {"case": row["case"], "status": "not recorded", "reason": row["error"][-500:]}
    stream = [entry for entry in row["stream"] if entry[0] in ("alloc", "free_completed")]
    measured = row["measured"]
    allocated, reserved = replay(stream)
    convolutional = any("conv.py" in entry[3] for entry in stream)
    drop = workspace_positions(stream) if convolutional else set()
    without = [entry for at, entry in enumerate(stream) if at not in drop]
    _, reserved_without = replay(without) if drop else (allocated, reserved)
    sizes = [stream[at][2] for at in sorted(drop) if stream[at][0] == "alloc"]
    truncated = len(row["stream"]) >= 400_000
    # The recording starts before the model is built; the run's figures start after (the build has its own).
    real_allocated = max(measured["cuda_max_allocated_bytes"], measured.get("cuda_build_max_allocated_bytes", 0))
    real_reserved = max(measured["cuda_max_reserved_bytes"], measured.get("cuda_build_max_reserved_bytes", 0))
    return {
        "case": row["case"],
        "status": "replayed (stream cut at 400,000 events: decode steps)" if truncated else "replayed",
        "events": len(stream),
        "measured_allocated_bytes": real_allocated,
        "replayed_allocated_bytes": allocated,
        "allocated_error": round(allocated / real_allocated - 1, 4),
        "measured_reserved_bytes": real_reserved,
        "replayed_reserved_bytes": reserved,
        "reserved_error": round(reserved / real_reserved - 1, 4),
        "convolution_workspaces": len(sizes),
        "largest_workspace_bytes": max(sizes, default=0),
        "reserved_without_workspaces_bytes": reserved_without,
        "cudnn": row.get("cudnn"),
        "torch": row.get("torch"),
    }


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--recording", type=Path, default=HERE / "results" / "gpu_h100" / "allocations.json.xz")
    args = parser.parse_args()
    sys.path.insert(0, str(HERE.parent))
    with lzma.open(args.recording, "rt", encoding="utf-8") as handle:
        recorded = json.load(handle)
    rows = [report(row) for row in recorded["rows"]]
    for r in rows:
        if r["status"].startswith("replayed"):
            print(
                f"{r['case']:<28} reserved {r['measured_reserved_bytes'] / 2**30:6.3f} GiB"
                f" replayed {r['reserved_error']:+.2%}"
                f"  allocated {r['allocated_error']:+.2%}  workspaces {r['convolution_workspaces']:>3}"
                f"  without them {r['reserved_without_workspaces_bytes'] / r['measured_reserved_bytes'] - 1:+.1%}"
            )
        else:
            print(f"{r['case']:<28} {r['status']}: {r.get('reason', '')}")
    out = {
        "benchmark": "gpu_allocations",
        "recording": str(args.recording.relative_to(HERE) if args.recording.is_relative_to(HERE) else args.recording),
        "recorded": recorded.get("date"),
        "rows": rows,
        "command": "python benchmarks/gpu_allocations_report.py",
    }
    RESULTS.write_text(json.dumps(out, indent=1) + "\n", encoding="utf-8")
    return 0


if __name__ == "__main__":
    sys.exit(main())
