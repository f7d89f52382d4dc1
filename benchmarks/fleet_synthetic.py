"""Synthetic fleets for `fleet report`: copies of a real node's probe report (the H100 run recorded in
results/gpu_h100/probe_quick_2026-11-26.json), each figure with its own noise, some with one figure moved
far enough that a fleet report must name the node. Used by benchmarks/fleet_report.py and the tests."""

from __future__ import annotations

import copy
import json
import random
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

TEMPLATE = Path(__file__).parent / "results" / "gpu_h100" / "probe_quick_2026-11-26.json"


@dataclass
class Fleet:
    folder: Path
    nodes: list[str]
    injected: dict[str, tuple[str, float]] = field(default_factory=dict)  # node -> (benchmark row, factor)


def template() -> dict[str, Any]:
    return json.loads(TEMPLATE.read_text(encoding="utf-8"))


def node_record(base: dict[str, Any], node: str, rng: random.Random, noise: float) -> dict[str, Any]:
    """`base` as node `node` measured it: each ok figure times 1 + U(-noise, noise)."""
    record = copy.deepcopy(base)
    record["node"] = record["host"] = node
    for row in record["benchmarks"]:
        if row.get("status") == "ok" and isinstance(row.get("value"), (int, float)):
            row["value"] = row["value"] * (1 + rng.uniform(-noise, noise))
    return record


def write_fleet(
    folder: Path, count: int, noise: float = 0.03, inject: int = 0, low: float = 0.15, high: float = 0.40, seed: int = 0
) -> Fleet:
    """`count` node reports in `folder`; `inject` of them with one ok figure moved by a factor 1 ± U(low, high)
    (up or down at random) on top of its noise."""
    rng = random.Random(seed)
    base = template()
    folder.mkdir(parents=True, exist_ok=True)
    nodes = [f"node{i:04d}" for i in range(1, count + 1)]
    chosen = set(rng.sample(nodes, inject))
    fleet = Fleet(folder, nodes)
    for node in nodes:
        record = node_record(base, node, rng, noise)
        if node in chosen:
            rows = [i for i, row in enumerate(record["benchmarks"]) if row.get("status") == "ok"]
            index = rng.choice(rows)
            factor = 1 + rng.choice((-1, 1)) * rng.uniform(low, high)
            record["benchmarks"][index]["value"] *= factor
            fleet.injected[node] = (_row_key(record["benchmarks"][index]), factor)
        (folder / f"{node}.json").write_text(json.dumps(record), encoding="utf-8")
    return fleet


def _row_key(row: dict[str, Any]) -> str:
    """The metric key `fleet report` gives a benchmark row (core/fleet/reports.py)."""
    from gpuconfig.core.fleet.reports import node_report

    return next(iter(node_report({"gpuconfig": "x", "benchmarks": [row]}).values))
