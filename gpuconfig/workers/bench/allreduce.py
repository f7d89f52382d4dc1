"""All-reduce bus bandwidth between ranks started by torchrun; run as `-m` by each rank, it is the rank."""

from __future__ import annotations

import json
import os
import statistics
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

import torch
import torch.distributed as dist

from .events import Events
from .load import CpuLoad
from .timing import MIB, Run, rates, synchronize

# Set for the ranks torchrun starts: the arguments of `one_rank`.
RANK_ARGUMENTS = "GPUCONFIG_ALLREDUCE"


def allreduce(run: Run, events: Events) -> None:
    """All-reduce bus bandwidth, reported as nccl-tests does: busbw = algbw x 2(n-1)/n (doc/PERFORMANCE.md).

    The ranks are started by torchrun (torch.distributed.run, standalone rendezvous), as a multi-GPU
    training job is: NCCL over every GPU torch sees, or gloo between two CPU processes.
    """
    if run.cuda:
        world, backend = torch.cuda.device_count(), "nccl"
        if world < 2 or not dist.is_nccl_available():
            events.skipped("all-reduce between GPUs needs two or more GPUs and NCCL")
            return
        sizes = [64 * MIB, 256 * MIB, 1024 * MIB]
    else:
        world, backend = 2, "gloo"
        sizes = [1 * MIB, 16 * MIB, 64 * MIB]
    iterations = 10
    env = {**os.environ, RANK_ARGUMENTS: json.dumps({"backend": backend, "sizes": sizes, "iterations": iterations})}
    env.setdefault("GLOO_SOCKET_IFNAME", "lo0" if sys.platform == "darwin" else "lo")
    env.setdefault("OMP_NUM_THREADS", str(max(1, (os.cpu_count() or 2) // world)))
    # Each rank runs this module as `python -m`, from the folder that holds this program's package: there, and
    # first on PYTHONPATH (where the current folder is not put on the path), it imports as it does here.
    root = str(Path(__file__).resolve().parents[__name__.count(".")])
    env["PYTHONPATH"] = os.pathsep.join(p for p in (root, env.get("PYTHONPATH")) if p)
    command = [sys.executable, "-m", "torch.distributed.run", "--standalone", f"--nproc-per-node={world}"]
    command += ["--max-restarts=0", "--monitor-interval=0.5", "-m", __name__]
    with CpuLoad() as load:
        done = subprocess.run(
            command, env=env, cwd=root, capture_output=True, text=True, stdin=subprocess.DEVNULL, check=False
        )
    timings: dict[int, list[float]] = {}
    for line in done.stdout.splitlines():
        if line.startswith("{"):
            row = json.loads(line)
            timings[int(row["bytes"])] = [float(v) for v in row["seconds"]]
    if done.returncode != 0 or not timings:
        lines = [line for line in done.stderr.splitlines() if line.strip() and "Warning" not in line]
        why = lines[-1].strip() if lines else f"exit code {done.returncode}"
        raise RuntimeError(f"torchrun with {world} {backend} ranks failed: {why[:300]}")
    bus = 2 * (world - 1) / world
    by_size = {}
    for size, seconds in sorted(timings.items()):
        algbw = size / statistics.median(seconds) / 1e9
        by_size[str(size)] = {"algbw_gbs": round(algbw, 3), "busbw_gbs": round(algbw * bus, 3)}
    largest = max(timings)
    events.result(
        "fp32",
        rates(largest * bus / 1e9, timings[largest]),
        backend,
        load.record(),
        processes=world,
        launcher="torchrun --standalone",
        bytes=largest,
        iterations=iterations,
        by_size=by_size,
        formula="busbw = algbw * 2(n-1)/n (nccl-tests doc/PERFORMANCE.md)",
    )


def one_rank(arguments: dict[str, Any]) -> int:
    """One torchrun rank: time each all_reduce per size; rank 0 prints {"bytes", "seconds": [each]} lines."""
    backend = str(arguments["backend"])
    rank, local = int(os.environ["RANK"]), int(os.environ.get("LOCAL_RANK", "0"))
    dist.init_process_group(backend)  # env:// from torchrun: MASTER_ADDR, MASTER_PORT, RANK, WORLD_SIZE
    device = torch.device("cuda", local) if backend == "nccl" else torch.device("cpu")
    if device.type == "cuda":
        torch.cuda.set_device(device)
    try:
        for size in arguments["sizes"]:
            tensor = torch.ones(int(size) // 4, device=device)
            for _ in range(2):
                dist.all_reduce(tensor)
            synchronize(device)
            dist.barrier()
            seconds = []
            for _ in range(int(arguments["iterations"])):
                began = time.perf_counter()
                dist.all_reduce(tensor)
                synchronize(device)
                seconds.append(time.perf_counter() - began)
            if rank == 0:
                sys.stdout.write(json.dumps({"bytes": int(size), "seconds": seconds}) + "\n")
                sys.stdout.flush()
    finally:
        dist.destroy_process_group()
    return 0


if __name__ == "__main__":
    sys.exit(one_rank(json.loads(os.environ[RANK_ARGUMENTS])))
