"""Does the probe repeat? The quick suite run back to back, each run a fresh `gpuconfig probe --quick --json`.

For every figure measured in all runs: its value in each run, the runs' median, and whether a run that
called it stable (and so judged it) lies within +-10 % of that median. A figure outside the band must have
been marked unstable in the run where it was outside. Every ratio the runs judged (AMP's speed-up,
checkpointing's cost) must come from stable figures. Each run's wall time (the whole command) is held
against the suite's stated budget. The runs are saved in this machine's probe history as any run is, and
each is held against the runs before it there (a machine's speed can change between runs while each run
is steady: a figure more than +-10 % from the earlier runs is marked unstable).

`--busy-run K` runs a CPU-burning process (one busy loop per CPU) through run K, to show what the report
says on a busy machine: its figures must then be marked unstable, with the load named as the cause.

    python benchmarks/probe_repeatability.py [--runs 3] [--busy-run 0] [--output FILE] [--keep FOLDER]
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import sys
import tempfile
import time
from datetime import datetime
from pathlib import Path
from typing import Any

from machine import machine

from gpuconfig.probe.model import BenchmarkResult
from gpuconfig.probe.runner import SUITE_BUDGET_S
from gpuconfig.probe.session import ProbeRun
from gpuconfig.probe.stability import stability

BAND = 0.10  # the issue's band: a judged figure within +-10 % of the runs' median
TECHNIQUES = ("AMP on", "activation checkpointing on")


def _run(folder: Path, index: int, busy: bool) -> tuple[ProbeRun, float]:
    out = folder / f"run{index}.json"
    burners = []
    if busy:
        burn = "import time\nwhile True: pass"
        burners = [subprocess.Popen([sys.executable, "-c", burn]) for _ in range(os.cpu_count() or 1)]
        time.sleep(1.0)
    try:
        began = time.monotonic()
        command = [sys.executable, "-m", "gpuconfig", "probe", "--quick", "--json", "--output", str(out)]
        subprocess.run(command, check=False, capture_output=True)
        wall = time.monotonic() - began
    finally:
        for burner in burners:
            burner.kill()
            burner.wait()
    return ProbeRun.from_record(json.loads(out.read_text(encoding="utf-8"))), wall


def _key(result: BenchmarkResult) -> str:
    return result.label


def _figures(runs: list[ProbeRun]) -> list[dict[str, Any]]:
    keys = [_key(r) for r in runs[0].results if r.status == "ok"]
    rows = []
    for key in keys:
        found = [next((r for r in run.results if _key(r) == key and r.status == "ok"), None) for run in runs]
        if any(r is None for r in found):
            continue
        values = [float(r.value or 0) for r in found if r is not None]
        middle = statistics.median(values)
        per_run = []
        for r in found:
            assert r is not None
            judged = stability(r)
            off = float(r.value or 0) / middle - 1 if middle else 0.0
            per_run.append(
                {
                    "value": r.value,
                    "off_median": round(off, 4),
                    "spread": round(judged.spread.spread, 4) if judged.spread else None,
                    "samples": len(r.samples),
                    "stable": judged.stable,
                    "why_unstable": judged.why,
                    "earlier_runs": len(r.earlier),
                    "others_cpu": r.load.get("others_cpu"),
                    "steal": r.load.get("steal"),
                    "outside_band_yet_judged": judged.stable and abs(off) > BAND,
                }
            )
        rows.append({"figure": key, "unit": found[0].unit if found[0] else "", "median": middle, "runs": per_run})
    return rows


def _ratios(runs: list[ProbeRun]) -> list[dict[str, Any]]:
    rows = []
    for index, run in enumerate(runs):
        by_label = {r.label: r for r in run.results}
        for v in run.verdicts:
            if not v.check.startswith(TECHNIQUES):
                continue
            model = "train_" + v.check.rsplit(" on ", 1)[1]
            variant = "amp" if v.check.startswith("AMP") else "checkpointing"
            figures = [r for r in by_label.values() if r.name == model and r.variant in ("", variant)]
            rows.append(
                {
                    "run": index + 1,
                    "check": v.check,
                    "judged": v.status == "info",
                    "ratio": v.measured,
                    "message": v.message,
                    "figures_stable": all(stability(r).stable for r in figures),
                }
            )
    return rows


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=3)
    parser.add_argument("--busy-run", type=int, default=0, help="run a CPU burner through this run (1-based)")
    parser.add_argument("--output", type=Path, default=Path(__file__).parent / "results" / "probe_repeatability.json")
    parser.add_argument("--keep", type=Path, help="a folder to keep each run's JSON report in")
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as scratch:
        folder = args.keep or Path(scratch)
        folder.mkdir(parents=True, exist_ok=True)
        done = [_run(folder, k + 1, k + 1 == args.busy_run) for k in range(args.runs)]
    runs = [run for run, _ in done]
    figures = _figures(runs)
    ratios = _ratios(runs)
    budget = SUITE_BUDGET_S["quick"]
    walls = [round(wall, 2) for _, wall in done]
    outside = [(f["figure"], k + 1) for f in figures for k, r in enumerate(f["runs"]) if r["outside_band_yet_judged"]]
    bad_ratios = [r for r in ratios if r["judged"] and not r["figures_stable"]]
    summary = {
        "figures": len(figures),
        "judged_outside_band": [f"{name} (run {k})" for name, k in outside],
        "unstable_marks": sum(not r["stable"] for f in figures for r in f["runs"]),
        "ratios_judged": sum(r["judged"] for r in ratios),
        "ratios_judged_from_unstable_figures": len(bad_ratios),
        "wall_s": walls,
        "budget_s": budget,
        "all_within_budget": all(w <= budget for w in walls),
        "passes": not outside and not bad_ratios and all(w <= budget for w in walls),
    }
    result = {
        "benchmark": "probe_repeatability",
        "command": " ".join(["python benchmarks/probe_repeatability.py", *sys.argv[1:]]),
        "when": datetime.now().astimezone().isoformat(timespec="seconds"),
        "machine": machine(),
        "band": BAND,
        "busy_run": args.busy_run or None,
        "summary": summary,
        "figures": figures,
        "ratios": ratios,
    }
    args.output.parent.mkdir(parents=True, exist_ok=True)
    args.output.write_text(json.dumps(result, indent=2) + "\n", encoding="utf-8")
    print(json.dumps(summary, indent=2))
    for f in figures:
        cells = "  ".join(
            f"{r['value']:>9.4g}{'' if r['stable'] else '*'} ({100 * r['off_median']:+.1f} %)" for r in f["runs"]
        )
        print(f"{f['figure']:<45} {cells}")
    print("* unstable in that run (not judged)")
    return 0 if summary["passes"] else 1


if __name__ == "__main__":
    sys.exit(main())
