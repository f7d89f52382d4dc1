"""The estimated step time of real small training steps on this machine's CPU, priced at the rates its own probe
report measured (`gpuconfig estimate --device cpu --probe-report FILE`), against the steps timed for real.

    python benchmarks/cpu_step_time.py [--cases a,b,...] [--steps 5] [--torch-compile]

In order: `gpuconfig probe --quick --json` (this machine's matmul TFLOP/s and memory bandwidth), then each case
run for real on the CPU in its own process (the trace worker's measuring mode: the recipe's two steps, then
`--steps` more, each timed, their median kept), then the probe again, so that a machine whose speed moved during
the runs shows it. Each case is estimated with the first report's rates; nothing is fitted (the rates are taken
as reached, with no efficiency). The cases are small fine-tunes of six model families, fp32 and AdamW, as a user
of this machine would run them. Writes results/cpu_step_time.json; the target is every case within 25 %.

With --torch-compile the same cases run under torch.compile (the recipe's two steps compile them; the timed steps
follow) and are estimated with `--torch-compile` (the fused kernels' bytes); each is held out with its fold's share
as recorded in results/cpu_step_time.json, fitted on eager steps only. Writes results/cpu_step_time_compiled.json.
"""

from __future__ import annotations

import argparse
import json
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

HERE = Path(__file__).resolve().parent
RESULTS = HERE / "results" / "cpu_step_time.json"
RESULTS_COMPILED = HERE / "results" / "cpu_step_time_compiled.json"
TARGET = 0.25
MODELS = HERE / "estimate_accuracy_models"
CATALOG = HERE.parent / "catalog" / "measured_efficiency.toml"
FOLDS = {"A": ("gpt2", "bert-base", "resnet-18"), "B": ("llama-small.json", "t5-small.json", "vit-base")}
# (case, model, task, batch, seq): small enough that a step takes seconds on two cores.
CASES = (
    ("gpt2-finetune-2x128", "gpt2", "finetune", 2, 128),
    ("bert-base-classify-4x128", "bert-base", "finetune", 4, 128),
    ("llama-small-finetune-2x128", "llama-small.json", "finetune", 2, 128),
    ("t5-small-finetune-4x128", "t5-small.json", "finetune", 4, 128),
    ("vit-base-finetune-4", "vit-base", "finetune", 4, 224),
    ("resnet-18-finetune-8", "resnet-18", "finetune", 8, 224),
)


def workload_of(model: str, task: str, batch: int, seq: int) -> Any:
    from gpuconfig.core.workload.spec import Workload

    path = str(MODELS / model) if model.endswith(".json") else model
    return Workload(model=path, task=task, precision="fp32", optimizer="adamw", batch=batch, seq=seq, device="cpu")


def probe(out: Path) -> dict[str, Any]:
    command = [sys.executable, "-m", "gpuconfig", "probe", "--quick", "--json", "--output", str(out)]
    subprocess.run(command, check=True, capture_output=True, timeout=300)
    report: dict[str, Any] = json.loads(out.read_text(encoding="utf-8"))
    return report


def rates(report: dict[str, Any]) -> dict[str, float]:
    from gpuconfig.core.workload.measured import measured_spec

    spec = measured_spec(report, "cpu")
    return {"fp32_tflops": spec.fp32_tflops or 0.0, "bf16_tflops": spec.bf16_tflops or 0.0, "gbs": spec.bandwidth_gbs}


def real_steps(workload: Any, steps: int) -> dict[str, Any]:
    """The workload's steps run for real in a fresh process: the timed steps' seconds."""
    from gpuconfig.core.workers.process import Deadline, run_worker
    from gpuconfig.core.workers.programs import TRACE
    from gpuconfig.core.workload.models import resolve_model
    from gpuconfig.core.workload.runner import trace_request

    source = resolve_model(workload.model)
    request = trace_request(source, workload, [(workload.batch, workload.seq, None)])
    request |= {"measure": True, "timed_steps": steps, "torch_compile": workload.torch_compile}
    events: list[dict[str, Any]] = []
    ended = run_worker(TRACE, request, events.append, sys.executable, deadline=Deadline(900))
    measured = next((e for e in events if e.get("event") == "measured"), None)
    if not ended.ok or measured is None:
        error = next((e for e in events if e.get("event") == "error"), {})
        raise RuntimeError(str(error.get("message") or ended.reason))
    timed: dict[str, Any] = measured["timed_steps"]
    return timed


def held_out(rows: list[dict[str, Any]], recorded: dict[str, float] | None = None) -> dict[str, float]:
    """Each fold's share (the median of estimated-as-reached over measured, on the other fold's families; or as
    `recorded` by an eager run), and each row's held-out estimate and error set in place."""
    shares: dict[str, float] = {}
    for fold, models in FOLDS.items():
        training = [r for r in rows if r["workload"]["model"] not in models and r.get("raw_seconds")]
        if recorded is not None and fold in recorded:
            share = recorded[fold]
        elif training:
            share = statistics.median(r["raw_seconds"] / r["measured_step_seconds"] for r in training)
        else:
            continue
        shares[fold] = round(share, 4)
        for r in rows:
            if r["workload"]["model"] in models and r.get("raw_seconds"):
                r["fold"] = fold
                r["held_out_seconds"] = r["raw_seconds"] / share
                r["error"] = round(r["held_out_seconds"] / r["measured_step_seconds"] - 1, 4)
    return shares


def summary(errors: list[float]) -> dict[str, Any]:
    return {
        "cases": len(errors),
        "target": TARGET,
        "within_target": sum(abs(e) <= TARGET for e in errors),
        "median_abs_error": round(statistics.median(abs(e) for e in errors), 4) if errors else None,
        "worst_error": max(errors, key=abs) if errors else None,
    }


def write_catalog(share: float, cases: int, when: str, cpu: str, held: dict[str, Any]) -> None:
    """The share every answer priced at measured CPU rates uses, and its source: where it was fitted and how far
    it was, held out by family (`held`: summary() of the held-out errors)."""
    CATALOG.write_text(
        "# Written by benchmarks/cpu_step_time.py: the share of the rates a probe report measured (its matmul\n"
        "# TFLOP/s and memory bandwidth) that a real eager training step reaches on the CPU; an estimate priced at\n"
        "# a machine's measured rates (gpuconfig estimate --probe-report, the Workload tab's measured speed) uses it.\n"
        "[cpu]\n"
        f"share = {share}\n"
        f'source = "median over {cases} small fp32 fine-tunes of six model families timed for real on {cpu} '
        f"against the same machine's probe report ({when}); each family predicted with the share of the others: "
        f"median error {100 * held['median_abs_error']:.1f} %, worst {100 * held['worst_error']:+.1f} %; the share "
        f'moves with the host: benchmarks/README.md"\n'
        f'fitted_on = "{cpu}"\n',
        encoding="utf-8",
    )


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--cases", default="", help="comma-separated case names (default: all)")
    parser.add_argument("--steps", type=int, default=5)
    parser.add_argument("--torch-compile", action="store_true", help="the cases compiled, against the eager shares")
    args = parser.parse_args()
    recorded = json.loads(RESULTS.read_text(encoding="utf-8"))["share_by_fold"] if args.torch_compile else None
    sys.path.insert(0, str(HERE.parent))
    from machine import machine

    from gpuconfig.core.workload.measured import measured_spec
    from gpuconfig.core.workload.service import TraceService

    chosen = [c for c in CASES if not args.cases or c[0] in args.cases.split(",")]
    rows: list[dict[str, Any]] = []
    with tempfile.TemporaryDirectory(prefix="gpuconfig-steps-") as folder:
        before = probe(Path(folder) / "before.json")
        spec = measured_spec(before, "cpu")
        for name, model, task, batch, seq in chosen:
            workload = workload_of(model, task, batch, seq).with_changes(torch_compile=args.torch_compile)
            timing = TraceService().fit_for(workload).answer(workload, spec).timing
            raw = timing.at_full_efficiency() if timing else None  # as reached: no share
            started = time.monotonic()
            try:
                timed = real_steps(workload, args.steps)
            except RuntimeError as exc:
                rows.append({"case": name, "status": "real run failed", "reason": str(exc)[:500]})
                continue
            measured = float(timed["median_seconds"])
            rows.append(
                {
                    "case": name,
                    "status": "compared",
                    "workload": {"model": model, "task": task, "batch": batch, "seq": seq, "precision": "fp32"},
                    "raw_seconds": raw,
                    "raw_error": round(raw / measured - 1, 4) if raw else None,
                    "measured_step_seconds": measured,
                    "measured_spread": round(float(timed["spread"]), 4),
                    "measured_samples_seconds": timed["samples_seconds"],
                    "wall_seconds": round(time.monotonic() - started, 1),
                }
            )
            print(f"{name:<28} as reached {raw or 0:7.3f} s  measured {measured:7.3f} s", flush=True)
        after = probe(Path(folder) / "after.json")
    shares = held_out(rows, recorded)
    compared = [r for r in rows if r.get("error") is not None]
    for r in compared:
        print(f"{r['case']:<28} held out (fold {r['fold']}) {r['held_out_seconds']:7.3f} s  {r['error']:+.1%}")
    share_all = round(statistics.median(r["raw_seconds"] / r["measured_step_seconds"] for r in compared), 4)
    result = {
        "benchmark": "cpu_step_time",
        "target": f"every held-out case within ±{TARGET:.0%}",
        "held_out": summary([r["error"] for r in compared]),
        "as_reached": summary([r["raw_error"] for r in compared]),
        "folds": {fold: list(models) for fold, models in FOLDS.items()},
        "share_by_fold": shares,
        "share_fitted_on_all": share_all,
        "rates_before": rates(before),
        "rates_after": rates(after),
        "rates_used": spec.measured,
        "rows": rows,
        "machine": machine(),
        "date": time.strftime("%Y-%m-%d"),
        "command": "python benchmarks/cpu_step_time.py" + (" --torch-compile" if args.torch_compile else ""),
    }
    if args.torch_compile:
        result["target"] += "; compiled steps predicted with each fold's share fitted on the eager steps"
    print(json.dumps({k: result[k] for k in ("held_out", "as_reached", "share_by_fold", "share_fitted_on_all")}))
    (RESULTS_COMPILED if args.torch_compile else RESULTS).write_text(
        json.dumps(result, indent=1) + "\n", encoding="utf-8"
    )
    if not args.cases and not args.torch_compile:
        when, cpu = spec.measured.split(" at ")[-1], result["machine"]["cpu"]
        write_catalog(share_all, len(compared), when, cpu, result["held_out"])
    return 0


if __name__ == "__main__":
    sys.exit(main())
