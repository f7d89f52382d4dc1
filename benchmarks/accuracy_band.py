"""What the accuracy benchmarks share: the summary of a set of errors, and catalog/estimate_accuracy.toml, the
memory error band every answer shows (gpuconfig/core/workload/accuracy.py): one table per device, each written
by its own benchmark, which replaces its table and keeps the others."""

from __future__ import annotations

import json
import statistics
import tomllib
from pathlib import Path
from typing import Any

BAND = Path(__file__).resolve().parent.parent / "catalog" / "estimate_accuracy.toml"
HEADER = (
    "# How far the memory estimate was from real runs' peaks, per device, each table written by its benchmark\n"
    "# (cpu: benchmarks/estimate_accuracy_cpu.py, each case predicted with what is fitted taken from the other\n"
    "# model families only; cuda: benchmarks/estimate_accuracy_gpu.py, nothing fitted on its runs)\n"
    "# (gpuconfig/core/workload/accuracy.py). A device without a table has no measured band.\n"
)


def write_band(device: str, fields: dict[str, Any]) -> None:
    """Replace `device`'s table with `fields` (numbers and strings), keeping every other device's."""
    tables: dict[str, dict[str, Any]] = {}
    if BAND.is_file():
        tables = tomllib.loads(BAND.read_text(encoding="utf-8"))
    tables[device] = fields
    lines = [HEADER.rstrip("\n")]
    for name in sorted(tables):
        lines.append(f"[{name}]")
        for key, value in tables[name].items():
            lines.append(f"{key} = {json.dumps(value) if isinstance(value, str) else value}")
    BAND.write_text("\n".join(lines) + "\n", encoding="utf-8")


def error_summary(errors: list[float], target: float) -> dict[str, Any]:
    """Errors ((estimate - measured) / measured) as their count, median magnitude, worst (signed), the largest
    under-estimate (0 when none was under) and how many are within `target`."""
    if not errors:
        return {"cases": 0, "target": target}
    return {
        "cases": len(errors),
        "target": target,
        "median_abs_error": round(statistics.median(abs(e) for e in errors), 4),
        "worst_error": round(max(errors, key=abs), 4),
        "worst_under_error": round(min(0.0, *errors), 4),
        "within_target": sum(abs(e) <= target for e in errors),  # as measured, not as rounded for show
    }
