"""Every GPU path of gpuconfig on a real CUDA GPU, in one time-boxed session that writes what it found to a folder.

    python benchmarks/gpu_session.py --out DIR [--budget 420]

Run on a machine with a CUDA GPU and torch (with gpuconfig, transformers and PEFT importable). In order:
1. NVML's raw answers (`python -m gpuconfig.probe.nvml --record`) and `nvidia-smi -q -x`: test fixtures.
2. The probe's full suite (`gpuconfig probe --full --json`): the report, judged against its references.
3. Real runs of every case of estimate_accuracy_cases.toml (fp32) on the GPU, four processes at a time, each its
   own process with its own CUDA caching allocator: torch.cuda.max_memory_allocated / max_memory_reserved. Beside
   them, two traces under this machine's torch, to see what its version changes in the trace.
4. The cases of gpu_cases.toml (or `--cases FILE`: gpu_heldout_cases.toml) one at a time, alone on the GPU: their
   memory, then ten more training steps timed (or the prompt and every decode step of a generation), for the time
   estimate.
Each part has its share of the budget and writes its file when it ends, so a part that fails or runs out of time
leaves the others' results. benchmarks/estimate_accuracy_gpu.py reads the folder back.
"""

from __future__ import annotations

import argparse
import concurrent.futures
import json
import os
import platform
import subprocess
import sys
import time
import tomllib
from pathlib import Path
from typing import Any

HERE = Path(__file__).resolve().parent
SHAPES = HERE / "estimate_accuracy_models"
WORKLOAD_FIELDS = ("task", "precision", "optimizer", "batch", "seq", "generate", "checkpointing", "lora_targets")
TIMED_STEPS = 10
TRACED_HERE = ("gpt2-lora", "llama-small-finetune")  # traced under this machine's torch as well
DEVICE = {"name": "cuda"}  # `--device cpu` runs the same parts on the CPU, to check the script without a GPU


def cases(name: str, **defaults: Any) -> list[dict[str, Any]]:
    with (HERE / name).open("rb") as listed:
        return [defaults | case for case in tomllib.load(listed)["case"]]


def workload_of(case: dict[str, Any]) -> Any:
    from gpuconfig.core.workload.spec import Workload

    model = str(SHAPES / case["model"]) if case["model"].endswith(".json") else case["model"]
    fields = {k: case[k] for k in WORKLOAD_FIELDS if k in case}
    return Workload(model=model, device=DEVICE["name"], **fields)


def request_of(case: dict[str, Any], timed: int) -> dict[str, Any]:
    from gpuconfig.core.workload.models import resolve_model
    from gpuconfig.core.workload.runner import trace_request

    workload = workload_of(case)
    request = trace_request(resolve_model(workload.model), workload, [(workload.batch, workload.seq, None)])
    return request | {"measure": True, "generate": workload.generate, "timed_steps": timed}


def real_run(case: dict[str, Any], timed: int, limit_s: float) -> dict[str, Any]:
    """One real run in its own process: what it measured, or why it has nothing."""
    from gpuconfig.core.workers.process import Deadline, run_worker
    from gpuconfig.core.workers.programs import TRACE

    row: dict[str, Any] = {"case": case["case"], "timed_steps": timed}
    try:
        request = request_of(case, timed)
    except Exception as exc:  # a case the workload layer refuses: say so, run the rest
        return row | {"status": "refused", "reason": f"{type(exc).__name__}: {exc}"}
    events: list[dict[str, Any]] = []
    started = time.monotonic()
    ended = run_worker(TRACE, request, events.append, sys.executable, deadline=Deadline(limit_s))
    measured = next((e for e in events if e.get("event") == "measured"), None)
    runtime = next((e for e in events if e.get("event") == "runtime"), {})
    row |= {"seconds": round(time.monotonic() - started, 1), "torch": runtime.get("torch")}
    if not ended.ok or measured is None:
        error = next((e for e in events if e.get("event") == "error"), {})
        return row | {"status": "failed", "reason": str(error.get("message") or ended.reason)[:2000]}
    return row | {"status": "measured"} | {k: v for k, v in measured.items() if k != "event"}


def trace_here(case: dict[str, Any], limit_s: float) -> dict[str, Any]:
    """The case traced (fake tensors, `--device cuda`) under this machine's torch: its points, or its error."""
    from gpuconfig.core.workers.process import Deadline, run_worker
    from gpuconfig.core.workers.programs import TRACE
    from gpuconfig.core.workload.models import resolve_model
    from gpuconfig.core.workload.runner import trace_request

    workload = workload_of(case)
    request = trace_request(resolve_model(workload.model), workload, [(workload.batch, workload.seq, None)])
    events: list[dict[str, Any]] = []
    ended = run_worker(TRACE, request, events.append, sys.executable, deadline=Deadline(limit_s))
    kept = [e for e in events if e.get("event") in ("point", "runtime", "error")]
    return {"case": case["case"], "ok": ended.ok, "reason": ended.reason, "events": kept}


def machine() -> dict[str, Any]:
    from importlib.metadata import PackageNotFoundError, version

    import psutil

    facts: dict[str, Any] = {
        "cpu": platform.processor() or platform.machine(),
        "logical_cpus": os.cpu_count(),
        "memory_gib": round(psutil.virtual_memory().total / 2**30, 1),
        "os": platform.platform(),
        "python": platform.python_version(),
    }
    for package in ("torch", "transformers", "peft"):  # the real runs report torch's CUDA build and the GPU
        try:
            facts[package] = version(package)
        except PackageNotFoundError:
            facts[package] = None
    query = "--query-gpu=name,memory.total,driver_version,pci.bus_id,clocks.max.sm,power.limit,temperature.gpu"
    try:
        facts["nvidia_smi"] = subprocess.run(
            ["nvidia-smi", query, "--format=csv,noheader"], capture_output=True, text=True, timeout=30
        ).stdout.strip()
    except (OSError, subprocess.SubprocessError) as exc:
        facts["nvidia_smi"] = f"unavailable: {exc}"
    return facts


def write(out: Path, name: str, data: Any) -> None:
    (out / name).write_text(json.dumps(data, indent=1, default=str) + "\n", encoding="utf-8")
    print(f"wrote {name}", flush=True)


def shell(command: list[str], limit_s: float, output: Path | None = None) -> str:
    """Run a command, its output to `output` (or kept), within `limit_s`: what happened, in one line."""
    started = time.monotonic()
    try:
        done = subprocess.run(command, capture_output=True, text=True, timeout=limit_s)
    except subprocess.TimeoutExpired:
        return f"{command[:4]}: timed out after {limit_s:.0f} s"
    except OSError as exc:
        return f"{command[:4]}: {exc}"
    if output is not None:
        output.write_text(done.stdout, encoding="utf-8")
    tail = done.stderr.strip().splitlines()[-3:]
    return f"{command[:4]}: exit {done.returncode} in {time.monotonic() - started:.0f} s {' | '.join(tail)}"


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--out", type=Path, required=True)
    parser.add_argument("--budget", type=float, default=420.0, help="seconds for the whole session")
    parser.add_argument("--device", choices=("cuda", "cpu"), default="cuda", help="cpu: check the script here")
    parser.add_argument("--only", default="", help="comma-separated cases to run (default: all)")
    parser.add_argument("--cases", default="gpu_cases.toml", help="the timed part's cases (a file beside this one)")
    parser.add_argument("--skip", default="", help="comma-separated parts to leave out: nvml,probe,memory,timed")
    args = parser.parse_args()
    out: Path = args.out
    out.mkdir(parents=True, exist_ok=True)
    skip = set(filter(None, args.skip.split(",")))
    only = set(filter(None, args.only.split(",")))
    DEVICE["name"] = args.device
    began = time.monotonic()

    def left() -> float:
        return float(args.budget) - (time.monotonic() - began)

    log: list[str] = []
    session: dict[str, Any] = {"machine": machine(), "date": time.strftime("%Y-%m-%d"), "log": log}
    write(out, "session.json", session)

    if "nvml" not in skip:
        python = sys.executable
        log.append(shell([python, "-m", "gpuconfig.probe.nvml", "--record", str(out / "nvml_recording.json")], 60))
        log.append(shell(["nvidia-smi", "-q", "-x"], 30, out / "nvidia_smi.xml"))
        print(log[-2], log[-1], sep="\n", flush=True)

    if "probe" not in skip:
        report = str(out / "probe_full.json")
        probe = [sys.executable, "-m", "gpuconfig", "probe", "--full", "--json", "--output", report]
        log.append(shell(probe, min(180.0, left() * 0.35)))
        print(log[-1], flush=True)

    runs: list[dict[str, Any]] = []
    if "memory" not in skip:
        fp32 = [c for c in cases("estimate_accuracy_cases.toml", precision="fp32") if not only or c["case"] in only]
        share = left() * 0.35
        limit = max(30.0, share / 2)
        until = time.monotonic() + share  # runs not started by then are skipped: the timed part keeps its time

        def bounded(case: dict[str, Any]) -> dict[str, Any]:
            if time.monotonic() > until:
                return {"case": case["case"], "status": "not run: the memory part's share was spent"}
            return real_run(case, 0, limit)

        with concurrent.futures.ThreadPoolExecutor(max_workers=4) as pool:
            traced = [pool.submit(trace_here, case, limit) for case in fp32 if case["case"] in TRACED_HERE]
            measured = [pool.submit(bounded, case) for case in fp32]
            runs += [future.result() for future in measured]
            session["traced_here"] = [future.result() for future in traced]
        for row in runs:
            row["set"] = "fp32 cases"
        write(out, "gpu_runs.json", runs)
        log.append(f"memory part: {sum(r['status'] == 'measured' for r in runs)} of {len(runs)} measured")
        print(log[-1], flush=True)
        write(out, "session.json", session)

    if "timed" not in skip:
        for case in [c for c in cases(args.cases) if (not only or c["case"] in only) and c.get("timed")]:
            if left() < 25:
                runs.append({"case": case["case"], "set": "gpu cases", "status": "not run: session budget spent"})
                continue
            row = real_run(case, 0 if case.get("generate") else TIMED_STEPS, min(120.0, left() - 10))
            runs.append(row | {"set": "gpu cases"})
            print(case["case"], row["status"], row.get("reason", ""), flush=True)
            write(out, "gpu_runs.json", runs)
    session["seconds"] = round(time.monotonic() - began, 1)
    write(out, "session.json", session)
    for row in runs:
        memory = row.get("cuda_max_allocated_bytes"), row.get("cuda_max_reserved_bytes")
        timing = (row.get("timed_steps") or {}) if isinstance(row.get("timed_steps"), dict) else {}
        decode = row.get("decode_steps") or {}
        rate = timing.get("median_seconds") or decode.get("median_seconds")
        print(f"{row['case']:<36} {row['status']:<9} alloc {memory[0]} reserved {memory[1]} step/token {rate}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
