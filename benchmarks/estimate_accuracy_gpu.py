"""The `--device cuda` estimate against real runs on a GPU: memory against torch.cuda.max_memory_allocated and
max_memory_reserved, step time and decode rate against the measured ones.

    python benchmarks/estimate_accuracy_gpu.py [--runs results/gpu_h100] [--gpu nvidia-h100-sxm] [--only CASE,...]

The measurements come from benchmarks/gpu_session.py, run on a lent GPU; its folder (gpu_runs.json, session.json)
is committed under benchmarks/results/. Here each case is traced (fake tensors, no GPU needed) and estimated for
the catalog GPU the session ran on. Nothing in the estimate is fitted on these runs: the memory comes from the
trace and the model of PyTorch's caching allocator, the time from catalog/efficiency.toml and
catalog/decode_efficiency.toml, fitted on published results of other machines. Writes
results/estimate_accuracy_gpu.json.
"""

from __future__ import annotations

import argparse
import json
import statistics
import sys
from pathlib import Path
from typing import Any

from accuracy_band import error_summary, write_band
from gpu_session import cases, workload_of

HERE = Path(__file__).resolve().parent
RESULTS = HERE / "results" / "estimate_accuracy_gpu.json"
HELDOUT_RESULTS = HERE / "results" / "estimate_accuracy_gpu_heldout.json"
TARGET = 0.10
# Each summary of the results, and the row's error it summarises.
SUMMARIES = {
    "allocated": "allocated_error",
    "reserved": "reserved_error",
    "step_time": "step_error",
    "decode_step": "decode_error",
}


def error(estimated: float | None, measured: float | None) -> float | None:
    if not estimated or not measured:
        return None
    return round(estimated / measured - 1.0, 4)


def estimate_row(case: dict[str, Any], measured: dict[str, Any], gpu: Any) -> dict[str, Any]:
    """The case traced and estimated on `gpu`, set against what its real run measured."""
    from gpuconfig.core.workload.runner import TraceFailed
    from gpuconfig.core.workload.service import TraceService
    from gpuconfig.core.workload.spec import WorkloadError

    row: dict[str, Any] = {"case": case["case"], "family": case["family"], "set": measured.get("set")}
    row["workload"] = {k: case[k] for k in ("model", "task", "precision", "batch", "seq") if k in case}
    row["workload"] |= {k: case[k] for k in ("generate", "checkpointing", "optimizer") if case.get(k)}
    workload = workload_of(case)
    try:
        traced = TraceService().fit_for(workload)
    except (WorkloadError, TraceFailed) as exc:
        return row | {"status": "trace failed", "reason": str(exc)}
    answer = traced.answer(workload, gpu)
    memory = answer.estimate.memory
    context = sum(o.bytes for o in memory.overheads if o.key == "cuda_context")
    allocated, reserved = measured["cuda_max_allocated_bytes"], measured["cuda_max_reserved_bytes"]
    row |= {
        "status": "compared",
        "method": answer.estimate.method,
        "attention": answer.attention.implementation,
        "estimated_allocated_bytes": memory.allocated_peak,
        "measured_allocated_bytes": allocated,
        "allocated_error": error(memory.allocated_peak, allocated),
        "estimated_reserved_bytes": memory.peak - context,
        "measured_reserved_bytes": reserved,
        "reserved_error": error(memory.peak - context, reserved),
        "peak_phase": memory.phase,
    }
    timing = answer.timing
    if timing is None:
        return row | {"time_note": answer.time_note}
    timed = measured.get("timed_steps") if isinstance(measured.get("timed_steps"), dict) else None
    if timed:
        row |= {
            "estimated_step_seconds": timing.step_seconds,
            "measured_step_seconds": timed["median_seconds"],
            "measured_step_spread": round(timed["spread"], 4),
            "step_error": error(timing.step_seconds, timed["median_seconds"]),
        }
    generation, decode = timing.generation, measured.get("decode_steps")
    if generation is not None and decode:
        steps = decode["samples_seconds"][1:]  # the first step loads the decode kernels: a warm-up
        per_token = statistics.median(steps)
        estimated = generation.decode_seconds / max(1, case["generate"] - 1)
        row |= {
            "estimated_decode_step_seconds": estimated,
            "measured_decode_step_seconds": per_token,
            "measured_decode_spread": round((max(steps) - min(steps)) / per_token, 4),
            "decode_error": error(estimated, per_token),
            "decode_bound": generation.bound,
            # Not compared: the measured prompt is the process's first forward pass, so it includes loading the
            # GPU's kernels and creating cuBLAS handles (0.7 s for Llama 3 8B's 1,024 tokens, about 30 ms of work).
            "estimated_prefill_seconds": generation.prefill_seconds,
            "measured_first_pass_seconds": measured.get("prompt_seconds"),
        }
    return row


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=Path, default=HERE / "results" / "gpu_h100")
    parser.add_argument("--gpu", default="nvidia-h100-sxm", help="the catalog GPU the session ran on")
    parser.add_argument("--only", default="")
    parser.add_argument(
        "--cases",
        default="gpu_cases.toml",
        help="the session's timed cases; gpu_heldout_cases.toml is reported on its own (results/"
        "estimate_accuracy_gpu_heldout.json) and leaves the answers' band alone",
    )
    args = parser.parse_args()
    heldout = args.cases != "gpu_cases.toml"
    from gpuconfig.core.userdata.store import open_default_store
    from gpuconfig.core.workload.answer import gpu_spec

    gpu = gpu_spec(open_default_store(), args.gpu)
    runs = json.loads((args.runs / "gpu_runs.json").read_text(encoding="utf-8"))
    session = json.loads((args.runs / "session.json").read_text(encoding="utf-8"))
    listed = {c["case"]: c for c in cases("estimate_accuracy_cases.toml", precision="fp32") + cases(args.cases)}
    only = set(filter(None, args.only.split(",")))
    rows = []
    for measured in runs:
        case = listed.get(measured["case"])
        if case is None or (only and case["case"] not in only):
            continue
        if measured.get("status") != "measured":
            rows.append({"case": case["case"], "status": measured.get("status"), "reason": measured.get("reason")})
            continue
        row = estimate_row(case, measured, gpu)
        rows.append(row)
        print(line(row), flush=True)
    compared = [r for r in rows if r.get("status") == "compared"]
    result = {
        "machine": session["machine"],
        "gpu": args.gpu,
        "runs": str(args.runs.resolve().relative_to(HERE)),
        "rows": rows,
        **{
            name: error_summary([r[key] for r in compared if r.get(key) is not None], TARGET)
            for name, key in SUMMARIES.items()
        },
    }
    if not only and heldout:
        HELDOUT_RESULTS.write_text(json.dumps(result, indent=1) + "\n", encoding="utf-8")
    if not only and not heldout:
        RESULTS.write_text(json.dumps(result, indent=1) + "\n", encoding="utf-8")
        band = band_fields(
            result["reserved"], session, "torch.cuda.max_memory_reserved, which leaves out the CUDA context"
        )
        write_band("cuda", {**band, "families": len({r["family"] for r in compared})})
        write_decode_band(result, session)
    for key in SUMMARIES:
        print(key, result[key])
    return 0


def band_fields(summary: dict[str, Any], session: dict[str, Any], compared_with: str) -> dict[str, Any]:
    """A band table (accuracy_band.write_band) from one of the result's error summaries and the session."""
    machine = session["machine"]
    return {
        "median_abs_error": summary["median_abs_error"],
        "worst_error": summary["worst_error"],
        "worst_under_error": summary["worst_under_error"],
        "cases": summary["cases"],
        "benchmark": "benchmarks/estimate_accuracy_gpu.py",
        "measured": str(session.get("date", "")),
        "machine": f"{machine.get('nvidia_smi', '').split(',')[0]}, torch {machine.get('torch')}",
        "compared_with": compared_with,
    }


def write_decode_band(result: dict[str, Any], session: dict[str, Any]) -> None:
    """The band of an eager generation's decode step (the answers' generation line shows it): each timed
    generation's median decode step against the estimate's, nothing fitted on these runs."""
    if result["decode_step"].get("cases"):
        compared_with = "the median decode step of eager PyTorch generation, its first step left out"
        write_band("cuda_decode", band_fields(result["decode_step"], session, compared_with))


def line(row: dict[str, Any]) -> str:
    if row.get("status") != "compared":
        return f"{row['case']:<36} {row.get('status')}: {row.get('reason', '')}"

    def pct(key: str) -> str:
        value = row.get(key)
        return "   -   " if value is None else f"{value * 100:+6.1f}%"

    estimated, measured = row["estimated_allocated_bytes"] / 2**30, row["measured_allocated_bytes"] / 2**30
    return (
        f"{row['case']:<36} alloc {estimated:6.2f}/{measured:6.2f} GiB {pct('allocated_error')}"
        f"  reserved {pct('reserved_error')}  step {pct('step_error')}  decode {pct('decode_error')}"
    )


if __name__ == "__main__":
    sys.exit(main())
