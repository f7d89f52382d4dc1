"""The `--device cpu` estimate against measurement: peak resident memory of a fresh process running the
same two training steps (one inference pass, or a prompt and its generated tokens) for real, in fp32 unless the
case names another precision (`precision = "amp_bf16"`: autocast to bfloat16, the CLI's default), over
model families split in two folds; what the estimate fits is fitted on one fold and reported on the other.

    python benchmarks/estimate_accuracy_cpu.py                  # every case: trace, then run for real
    python benchmarks/estimate_accuracy_cpu.py --only gpt2-lora  # some cases (their rows replace the old ones)
    python benchmarks/estimate_accuracy_cpu.py --refit          # fit and report again from the recorded rows
    python benchmarks/estimate_accuracy_cpu.py --retrace        # trace again, keep the recorded real runs
    python benchmarks/estimate_accuracy_cpu.py --cases cpu_heldout_cases.toml  # families never compared before

Each real run is its own process (peak resident memory is per process), built by the same trace worker
program in its measuring mode, so the real run and the trace execute the same recipe. Each case runs for real
three times (`--repeats`): the same run's peak differs from one process to the next, so the estimate is
compared with the median and the row keeps every run and their spread. A case whose model the
tracer cannot build yet is kept in the table as "not supported yet"; a case that fails says why, and the
others still run. Writes results/estimate_accuracy_cpu.json, catalog/cpu_heap.toml (the heap share, fitted
on every family) and catalog/estimate_accuracy.toml (the held-out error band every answer shows).

Another case file (`--cases`) holds families the estimate was never compared against: its cases are compared
with the estimate exactly as an answer gives it (the catalog's heap share included), nothing is fitted, and
they are reported apart (results/estimate_accuracy_cpu_heldout.json) without touching the catalog.
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import sys
import tempfile
import time
import tomllib
from collections.abc import Callable
from pathlib import Path
from typing import Any

from accuracy_band import error_summary, write_band
from machine import machine

HERE = Path(__file__).resolve().parent
CATALOG = HERE.parent / "catalog"
SHAPES = HERE / "estimate_accuracy_models"
RESULTS = HERE / "results" / "estimate_accuracy_cpu.json"
TARGET = 0.10
CASES_FILE = "estimate_accuracy_cases.toml"
HELDOUT_RESULTS = HERE / "results" / "estimate_accuracy_cpu_heldout.json"
with (HERE / CASES_FILE).open("rb") as _cases:
    _LISTED = tomllib.load(_cases)
FOLDS: dict[str, str] = _LISTED["folds"]
CASES: list[dict[str, Any]] = _LISTED["case"]
HELD_OUT = "held out"  # the fold of a family in no fold: one never compared while the estimate was built
DEFAULTS = {"precision": "fp32"}  # what a case runs in unless it says otherwise
WORKLOAD_FIELDS = ("task", "precision", "optimizer", "batch", "seq", "generate", "checkpointing", "lora_targets")


def workload_of(case: dict[str, Any]) -> Any:
    from gpuconfig.core.workload.spec import Workload

    model = str(SHAPES / case["model"]) if case["model"].endswith(".json") else case["model"]
    return Workload(model=model, device="cpu", **(DEFAULTS | {k: case[k] for k in WORKLOAD_FIELDS if k in case}))


def trace_case(case: dict[str, Any], use_cache: bool = True) -> dict[str, Any]:
    """Trace and estimate the case: the row's estimate side, or why there is none. `use_cache=False` traces
    even when the disk cache holds the workload (whose runtime was measured under other settings)."""
    from gpuconfig.core.workload import cpu_heap
    from gpuconfig.core.workload.runner import TraceFailed
    from gpuconfig.core.workload.service import TraceService
    from gpuconfig.core.workload.spec import WorkloadError

    row: dict[str, Any] = {**case, "fold": FOLDS.get(case["family"], HELD_OUT)}
    workload = workload_of(case)
    try:
        traced = TraceService(use_cache=use_cache).fit_for(workload)
    except (WorkloadError, TraceFailed) as exc:
        unsupported = "unknown model type" in str(exc) or getattr(exc, "kind", "") == "unsupported"
        return {**row, "status": "not supported yet" if unsupported else "trace failed", "reason": str(exc)}
    estimate = traced.answer(workload, None).estimate
    memory = estimate.memory
    kept = sum(o.bytes for o in memory.overheads if o.key == "cpu_heap")

    def at(key: str) -> float:
        return traced.fitted.at(key, workload.batch, estimate.seq)

    return row | {
        "status": "traced",
        "seq_used": estimate.seq,
        "unfitted_bytes": memory.peak - kept,
        "answer_bytes": memory.peak,  # what the answer says, the catalog's heap share included
        "tensor_peak_bytes": memory.peak - memory.overhead,
        "overheads": {o.name: o.bytes for o in memory.overheads if o.key != "cpu_heap"},
        "predictors": {name: round(cpu_heap.predictor_bytes(name, at)) for name in cpu_heap.PREDICTORS},
        # what replaying the small blocks (tensor headers, autograd nodes' objects) adds to the heap
        "small_blocks_bytes": round(at("cpu_heap_peak_bytes") - at("cpu_heap_tensors_peak_bytes")),
        "heap_live_at_peak_bytes": round(at("heap_live_at_peak_bytes")),
        "heap_high_water_bytes": round(at("heap_high_water_bytes")),
        "trace_seconds": traced.trace_seconds,
        "method": estimate.method,
    }


def measure_case(case: dict[str, Any], seq: int, repeats: int) -> dict[str, Any]:
    """Run the case for real `repeats` times, each in a fresh process: the peak resident memory of each run,
    their median and spread (glibc's heap does not grow the same way twice: the order in which a run frees
    its small objects varies with addresses and thread timing), or why a run failed."""
    from gpuconfig.core.workers.process import run_worker
    from gpuconfig.core.workers.programs import TRACE
    from gpuconfig.core.workload.models import resolve_model
    from gpuconfig.core.workload.runner import trace_request

    workload = workload_of(case)
    request = trace_request(resolve_model(workload.model), workload, [(workload.batch, seq, None)])
    request |= {"measure": True, "generate": workload.generate}
    peaks, seconds, steps = [], [], []
    for _ in range(repeats):
        events: list[dict[str, Any]] = []
        started = time.monotonic()
        ended = run_worker(TRACE, request, events.append, sys.executable)
        measured = next((e for e in events if e.get("event") == "measured"), None)
        if not ended.ok or measured is None:
            error = next((e.get("message") for e in events if e.get("event") == "error"), ended.reason)
            return {"status": "real run failed", "reason": str(error)}
        peaks.append(int(measured["peak_rss_bytes"]))
        seconds.append(round(time.monotonic() - started, 1))
        steps.append([round(s, 2) for s in measured["step_seconds"]])
    middle = statistics.median(peaks)
    return {
        "status": "measured",
        "measured_peak_rss_bytes": round(middle),
        "measured_runs_bytes": peaks,
        "measured_spread": round((max(peaks) - min(peaks)) / middle, 4),
        "real_seconds": seconds,
        "real_step_seconds": steps,
    }


def run_case(case: dict[str, Any], recorded: dict[str, Any] | None, retrace: bool, repeats: int) -> dict[str, Any]:
    """The case traced, and run for real unless `retrace` keeps the recorded measurements."""
    row = trace_case(case)
    if row["status"] != "traced":
        return row
    same_run = recorded and recorded.get("seq_used", row["seq_used"]) == row["seq_used"]
    if retrace and recorded and recorded.get("status") == "measured" and same_run:
        kept = (
            "measured_peak_rss_bytes",
            "measured_runs_bytes",
            "measured_spread",
            "real_seconds",
            "real_step_seconds",
        )
        return row | {"status": "measured"} | {k: recorded[k] for k in kept if k in recorded}
    return row | measure_case(case, row["seq_used"], repeats)


def held_out(rows: list[dict[str, Any]], predictor: str) -> dict[str, Any]:
    """Each measured row predicted with the share fitted on the other fold's families only."""
    from gpuconfig.core.workload.cpu_heap import fit_share

    def points(fold_rows: list[dict[str, Any]]) -> list[dict[str, float]]:
        keys = {"measured": "measured_peak_rss_bytes", "unfitted": "unfitted_bytes"}
        return [
            {**{k: r[v] for k, v in keys.items()}, "predictor": r["predictors"].get(predictor, 0)} for r in fold_rows
        ]

    measured = [r for r in rows if r["status"] == "measured"]
    shares = {fold: fit_share(points([r for r in measured if r["fold"] != fold])) for fold in ("A", "B")}
    errors = {}  # unrounded: a case is within the target as measured, not as shown
    for r in measured:
        estimate = r["unfitted_bytes"] + shares[r["fold"]] * r["predictors"].get(predictor, 0)
        errors[r["case"]] = (estimate - r["measured_peak_rss_bytes"]) / r["measured_peak_rss_bytes"]
    return {
        "share_fitted_without_fold": {fold: round(s, 4) for fold, s in shares.items()},
        "share_fitted_on_all": round(fit_share(points(measured)), 4),
        "errors": {case: round(error, 4) for case, error in errors.items()},
        "by_fold": {
            fold: error_summary([errors[r["case"]] for r in measured if r["fold"] == fold], TARGET)
            for fold in ("A", "B")
        },
        "all": error_summary(list(errors.values()), TARGET),
    }


def spread(rows: list[dict[str, Any]]) -> dict[str, Any]:
    """How far apart the repeated real runs of a case were, (largest - smallest) / median, over the cases."""
    spreads = {r["case"]: r["measured_spread"] for r in rows if "measured_spread" in r}
    if not spreads:
        return {"cases": 0}
    widest = max(spreads, key=lambda case: spreads[case])
    return {
        "cases": len(spreads),
        "median": round(statistics.median(spreads.values()), 4),
        "widest": widest,
        "widest_spread": spreads[widest],
    }


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--out", type=Path, help="the results file (default: by the case file)")
    parser.add_argument("--cases", default=CASES_FILE, help="the case file, in benchmarks/ (default: %(default)s)")
    parser.add_argument("--only", nargs="*", help="run only these cases; the others keep their recorded rows")
    parser.add_argument("--refit", action="store_true", help="do not run: fit and report from the recorded rows")
    parser.add_argument(
        "--retrace", action="store_true", help="trace again but keep the recorded real runs (after an estimator change)"
    )
    parser.add_argument("--repeats", type=int, default=3, help="real runs of each case (their median is compared)")
    args = parser.parse_args()
    from gpuconfig.core.workload.cpu_heap import PREDICTORS

    os.environ.setdefault("GPUCONFIG_DATA_DIR", tempfile.mkdtemp(prefix="gpuconfig-bench-"))
    if args.cases != CASES_FILE:
        return held_out_run(args.cases, args.out or HELDOUT_RESULTS, args.only, args.repeats, args.retrace)
    args.out = args.out or RESULTS
    partial = Path(tempfile.gettempdir()) / f"{args.out.stem}-{os.getpid()}.partial.json"

    def shown(row: dict[str, Any], rows: list[dict[str, Any]]) -> None:
        print(line(row), flush=True)
        partial.write_text(json.dumps(rows, indent=1), encoding="utf-8")  # a crash keeps what was measured

    rows = run_cases(CASES, recorded_rows(args.out), args.only, args.refit, args.retrace, args.repeats, shown)
    comparison = {name: held_out(rows, name) for name in PREDICTORS}
    chosen = min(
        comparison,
        key=lambda name: (
            comparison[name]["all"].get("median_abs_error", 1.0),
            abs(comparison[name]["all"].get("worst_error", 1.0)),
        ),
    )
    result = report(rows, comparison, chosen)
    args.out.write_text(json.dumps(result, indent=2) + "\n", encoding="utf-8")
    write_catalog(result)
    for row in rows:
        print(line(row, comparison[chosen]["errors"].get(row["case"])))
    print(json.dumps({"predictor": chosen, **{k: v["all"] for k, v in comparison.items()}}))
    return 0


def recorded_rows(out: Path) -> dict[str, dict[str, Any]]:
    """The rows a results file recorded, by case."""
    old = json.loads(out.read_text())["rows"] if out.is_file() else []
    return {r["case"]: r for r in old if "case" in r}


def run_cases(
    cases: list[dict[str, Any]],
    recorded: dict[str, dict[str, Any]],
    only: list[str] | None,
    keep_all: bool,
    retrace: bool,
    repeats: int,
    shown: Callable[[dict[str, Any], list[dict[str, Any]]], None],
) -> list[dict[str, Any]]:
    """Each case's row: run (`shown` gets it and the rows so far), or its recorded row when `keep_all` or `only`
    leaves it out ("not run" if none was recorded)."""
    rows: list[dict[str, Any]] = []
    for case in cases:
        if keep_all or (only and case["case"] not in only):
            fold = FOLDS.get(case["family"], HELD_OUT)
            rows.append(recorded.get(case["case"], {**case, "fold": fold, "status": "not run"}))
            continue
        row = run_case(case, recorded.get(case["case"]), retrace, repeats)
        rows.append(row)
        shown(row, rows)
    return rows


def held_out_run(cases_file: str, out: Path, only: list[str] | None, repeats: int, retrace: bool) -> int:
    """Cases of families the estimate never met, each compared with the answer as a user sees it; nothing fitted,
    the catalog untouched. `only` reruns some cases and keeps the others' recorded rows; `retrace` keeps the
    recorded real runs."""
    path = HERE / cases_file
    try:
        with path.open("rb") as listed:
            cases = tomllib.load(listed)["case"]
    except (OSError, tomllib.TOMLDecodeError, KeyError) as exc:
        print(f"--cases: cannot read {path}: {exc}", file=sys.stderr)
        return 2
    known = set(FOLDS)
    seen = sorted({c["family"] for c in cases} & known)
    if seen:
        print(f"--cases: {', '.join(seen)} are in the benchmark's own folds, so not held out", file=sys.stderr)
        return 2

    def shown(row: dict[str, Any], _: list[dict[str, Any]]) -> None:
        if row["status"] == "measured":
            real = row["measured_peak_rss_bytes"]
            row["estimate_bytes"] = row["answer_bytes"]
            row["error"] = round((row["answer_bytes"] - real) / real, 4)
        print(line(row, row.get("error")), flush=True)

    rows = run_cases(cases, recorded_rows(out), only, False, retrace, repeats, shown)
    measured = [r for r in rows if r["status"] == "measured"]
    result = {
        "benchmark": "estimate_accuracy_cpu_heldout",
        "target": f"every |error| <= {TARGET:.2f}, on families the CPU estimate was never compared against",
        "cases_file": cases_file,
        "held_out": error_summary(  # unrounded: a case is within the target as measured, not as shown
            [(r["estimate_bytes"] - r["measured_peak_rss_bytes"]) / r["measured_peak_rss_bytes"] for r in measured],
            TARGET,
        ),
        "measurement_spread": spread(measured),
        "cases": len(rows),
        "families": len({r["family"] for r in measured}),
        "measured": len(measured),
        "not_measured": {r["case"]: f"{r['status']}: {r.get('reason', '')}" for r in rows if r["status"] != "measured"},
        "rows": rows,
        "machine": machine(),
        "date": time.strftime("%Y-%m-%d"),
        "command": f"python benchmarks/estimate_accuracy_cpu.py --cases {cases_file}",
    }
    out.write_text(json.dumps(result, indent=2) + "\n", encoding="utf-8")
    print(json.dumps(result["held_out"]))
    return 0


def line(row: dict[str, Any], error: float | None = None) -> str:
    head = f"{row['case']:32s} fold {row['fold']}  "
    if row["status"] != "measured":
        return head + f"{row['status']}: {row.get('reason', '')}"[:160]
    real = row["measured_peak_rss_bytes"]
    text = f"unfitted {row['unfitted_bytes'] / 2**20:7.0f} MiB  measured {real / 2**20:7.0f} MiB"
    text += f" (spread {100 * row.get('measured_spread', 0.0):4.1f}%)"
    text += f"  unfitted error {100 * (row['unfitted_bytes'] - real) / real:+6.1f}%"
    return head + text + (f"  held-out error {100 * error:+6.1f}%" if error is not None else "")


def report(rows: list[dict[str, Any]], comparison: dict[str, Any], chosen: str) -> dict[str, Any]:
    errors = comparison[chosen]["errors"]
    for row in rows:
        if row["status"] == "measured":
            share = comparison[chosen]["share_fitted_without_fold"][row["fold"]]
            row["estimate_bytes"] = round(row["unfitted_bytes"] + share * row["predictors"].get(chosen, 0))
            row["error"] = errors[row["case"]]
            real = row["measured_peak_rss_bytes"]
            row["unfitted_error"] = round((row["unfitted_bytes"] - real) / real, 4)
    return {
        "benchmark": "estimate_accuracy_cpu",
        "target": f"every held-out |error| <= {TARGET:.2f}: each case predicted with the heap share fitted on the "
        "other fold's model families",
        "folds": FOLDS,
        "predictor": chosen,
        "share_fitted_on_all": comparison[chosen]["share_fitted_on_all"],
        "held_out": comparison[chosen]["all"],
        "held_out_by_fold": comparison[chosen]["by_fold"],
        "without_heap_share": error_summary([r["unfitted_error"] for r in rows if r["status"] == "measured"], TARGET),
        "without_small_blocks": error_summary(
            [
                (r["unfitted_bytes"] - r.get("small_blocks_bytes", 0) - r["measured_peak_rss_bytes"])
                / r["measured_peak_rss_bytes"]
                for r in rows
                if r["status"] == "measured"
            ],
            TARGET,
        ),
        "measurement_spread": spread([r for r in rows if r["status"] == "measured"]),
        "predictors_compared": comparison,
        "cases": len(rows),
        "families": len({r["family"] for r in rows if r["status"] == "measured"}),
        "families_listed": len({r["family"] for r in rows}),
        "measured": sum(r["status"] == "measured" for r in rows),
        "not_measured": {r["case"]: f"{r['status']}: {r.get('reason', '')}" for r in rows if r["status"] != "measured"},
        "rows": rows,
        "machine": machine(),
        "date": time.strftime("%Y-%m-%d"),
        "command": "python benchmarks/estimate_accuracy_cpu.py",
    }


def write_catalog(result: dict[str, Any]) -> None:
    """catalog/cpu_heap.toml (what the estimate adds) and catalog/estimate_accuracy.toml (its error band)."""
    held = result["held_out"]
    by_fold = result["held_out_by_fold"]
    folds = "; ".join(
        f"fold {f} ({', '.join(sorted(k for k, v in result['folds'].items() if v == f))}) median "
        f"{100 * s['median_abs_error']:.1f} %, worst {100 * s['worst_error']:+.1f} %"
        for f, s in by_fold.items()
        if s["cases"]
    )
    fitted = (
        "nothing added (every candidate share fitted to 0): measured" if result["predictor"] == "none" else "fitted"
    )
    source = (
        f"{fitted} by benchmarks/estimate_accuracy_cpu.py on {result['measured']} real CPU runs of "
        f"{result['families']} model families ({result['machine'].get('os', '')}, {result['date']}); held out by "
        f"family, each fold predicted with the share fitted on the other: {folds}"
    )
    (CATALOG / "cpu_heap.toml").write_text(
        "# Written by benchmarks/estimate_accuracy_cpu.py: the memory glibc's heap keeps beyond the replayed\n"
        "# tensors, as a share of a traced quantity (gpuconfig/core/workload/cpu_heap.py).\n"
        f"predictor = {json.dumps(result['predictor'])}\n"
        f"share = {result['share_fitted_on_all']:.4f}\n"
        f"source = {json.dumps(source)}\n",
        encoding="utf-8",
    )
    write_band(
        "cpu",
        {
            "median_abs_error": round(held["median_abs_error"], 4),
            "worst_error": round(held["worst_error"], 4),
            "worst_under_error": round(held["worst_under_error"], 4),
            "cases": held["cases"],
            "families": result["families"],
            "benchmark": "benchmarks/estimate_accuracy_cpu.py",
            "measured": result["date"],
            "machine": result["machine"].get("cpu", "") + ", " + result["machine"].get("os", ""),
        },
    )


if __name__ == "__main__":
    sys.exit(main())
