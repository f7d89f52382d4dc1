"""A folder of node reports read as a fleet: probe reports (`gpuconfig probe --json`, or what `fleet run`
wrote on each node) and the manifests `fleet run` writes beside them, from any scheduler or none.

Each probe report becomes a NodeReport: the node's name, when it ran, its figures by metric key, the facts
that should agree across a fleet (driver, CUDA, torch, GPUs) and the checks of its own that failed. A node a
run manifest lists as failed, with no report, becomes a NodeReport that says why.
"""

from __future__ import annotations

import json
import math
import os
from collections.abc import Iterator, Mapping
from dataclasses import dataclass, field, replace
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

RUN_FORMAT = "gpuconfig.fleet.run/1"  # the manifest `fleet run` writes: fleet.json
MANIFEST = "fleet.json"
GPU_DEVICES = ("cuda", "xpu", "mps")  # torch device types whose figures are per device


class FleetError(ValueError):
    """A folder that cannot be read as a fleet: said in one line."""


@dataclass(frozen=True)
class Metric:
    """One figure every node can have: a benchmark's result on a device, or a link's measured width."""

    key: str  # "matmul/bf16@cuda:0", "h2d_bandwidth/pinned@cuda:0", "disk_read", "pcie_width@cuda:0"
    benchmark: str
    dtype: str
    variant: str
    device: str
    unit: str
    higher_is_better: bool = True


@dataclass(frozen=True)
class Check:
    """One of the node's own probe checks that failed (against its part's spec, ECC, its PCIe link...)."""

    check: str
    subject: str
    message: str


@dataclass(frozen=True)
class NodeReport:
    node: str
    path: str  # the report's file; "" for a node a manifest says failed
    started_at: str  # ISO 8601, as the probe wrote it
    values: Mapping[str, float] = field(default_factory=dict)
    metrics: Mapping[str, Metric] = field(default_factory=dict)
    facts: Mapping[str, str] = field(default_factory=dict)
    failed_checks: tuple[Check, ...] = ()
    failure: str = ""  # why there is no report from this node ("" when there is one)
    unmeasured: Mapping[str, str] = field(default_factory=dict)  # metric key -> why this node has no figure
    gpu_count: int = 0
    gpu_model: str = ""  # the GPUs' names, "" for none: nodes are judged against others of the same model
    folder: str = ""  # the folder it was found in (a run's folder)


@dataclass(frozen=True)
class FleetRun:
    """A `fleet run`'s manifest: which nodes it ran on, how each ended, the all-reduce across them."""

    path: str
    job: str
    started_at: str
    nodes: Mapping[str, Mapping[str, Any]]  # node -> {"state": "done" | "failed", "reason", "seconds"}
    allreduce: Mapping[str, Any] | None


@dataclass(frozen=True)
class Folder:
    path: str
    reports: tuple[NodeReport, ...]  # every report found, every run, oldest first
    runs: tuple[FleetRun, ...]
    skipped: tuple[tuple[str, str], ...]  # (file, why) for JSON files that are not reports
    notes: tuple[str, ...] = ()  # what reading them changed: reports named by their files

    @property
    def newest_folder(self) -> str:
        """The folder of the newest run: the newest manifest's, else the newest report's."""
        if self.runs:
            return str(Path(self.runs[-1].path).parent)
        return max(self.reports, key=lambda r: moment(r.started_at)).folder if self.reports else self.path

    @property
    def several_runs(self) -> bool:
        return len({r.folder for r in self.reports}) > 1


def read_folder(folder: str | os.PathLike[str]) -> Folder:
    """Every node report and run manifest under `folder` (its subfolders too: one per run keeps a history)."""
    root = Path(folder)
    if not root.is_dir():
        raise FleetError(f"{root}: not a folder of node reports")
    reports: list[NodeReport] = []
    runs: list[FleetRun] = []
    skipped: list[tuple[str, str]] = []
    for path in _json_files(root):
        try:
            data = json.loads(path.read_text(encoding="utf-8"), parse_constant=_no_constant)
        except (OSError, UnicodeDecodeError, ValueError, RecursionError) as exc:
            skipped.append((str(path), f"not readable as JSON: {exc}"))
            continue
        # A file of the right kind but the wrong shape (a list where a table belongs, a number too large for a
        # float) is left out with the reason, never the end of the whole folder.
        damaged = (KeyError, TypeError, ValueError, AttributeError, OverflowError, IndexError)
        if isinstance(data, dict) and data.get("format") == RUN_FORMAT:
            try:
                runs.append(_run(path, data))
            except damaged as exc:
                skipped.append((str(path), f"a damaged run manifest: {exc!r}"))
        elif is_probe_record(data):
            try:
                reports.append(node_report(data, str(path)))
            except damaged as exc:
                skipped.append((str(path), f"a damaged probe report: {exc!r}"))
        else:
            skipped.append((str(path), "not a gpuconfig probe report"))
    reports, notes = _distinct_names(reports)
    reported = {(Path(r.path).parent, r.node) for r in reports}
    for run in runs:
        for node, state in run.nodes.items():
            said = state.get("state") if isinstance(state, dict) else None
            if (Path(run.path).parent, node) in reported or said == "stopped":  # stopped: not run, no fault
                continue
            if said == "done":
                why = "the run says it finished, but its report is missing or was left out as damaged"
            else:
                why = str((state.get("reason") if isinstance(state, dict) else None) or "no report")
            reports.append(NodeReport(node, "", run.started_at, failure=why, folder=str(Path(run.path).parent)))
    if not reports:
        raise FleetError(f"{root}: no gpuconfig probe reports in it or its subfolders")
    reports.sort(key=lambda r: (moment(r.started_at), r.node))
    runs.sort(key=lambda r: moment(r.started_at))
    return Folder(str(root), tuple(reports), tuple(runs), tuple(skipped), tuple(notes))


def moment(started_at: str) -> datetime:
    """When a report started, for ordering (reports written with different UTC offsets order by the instant);
    the earliest possible for an unreadable time."""
    try:
        when = datetime.fromisoformat(started_at)
    except ValueError:
        return datetime.min.replace(tzinfo=UTC)
    return when if when.tzinfo else when.replace(tzinfo=UTC)


def _distinct_names(reports: list[NodeReport]) -> tuple[list[NodeReport], list[str]]:
    """Two reports of one folder that name the same node are two machines (cloned VMs all called "vm", say):
    each is named by its file instead, and the note says so."""
    seen: dict[tuple[Path, str], int] = {}
    for report in reports:
        key = (Path(report.path).parent, report.node)
        seen[key] = seen.get(key, 0) + 1
    notes, named = [], []
    for report in reports:
        key = (Path(report.path).parent, report.node)
        if seen[key] > 1:
            renamed = Path(report.path).stem
            named.append(replace(report, node=renamed))
            notes.append(
                f"{report.path}: {seen[key]} reports in {key[0]} name the node {report.node!r}: this one is {renamed!r}"
            )
        else:
            named.append(report)
    return named, notes


def is_probe_record(data: object) -> bool:
    return isinstance(data, dict) and "gpuconfig" in data and isinstance(data.get("benchmarks"), list)


def node_report(data: Mapping[str, Any], path: str = "") -> NodeReport:
    """A probe report's node, figures, facts and failed checks."""
    node = str(data.get("node") or data.get("host") or Path(path).stem or "?")
    values: dict[str, float] = {}
    metrics: dict[str, Metric] = {}
    unmeasured: dict[str, str] = {}
    for row in data.get("benchmarks") or []:
        value = row.get("value")
        metric = _metric(
            str(row["name"]),
            str(row.get("dtype") or ""),
            str(row.get("variant") or ""),
            str(row.get("device") or ""),
            str(row.get("unit") or ""),
        )
        if row.get("status") == "ok" and _finite(value):
            values[metric.key], metrics[metric.key] = float(value), metric
        elif metric.key not in values:  # skipped or failed here: said when the rest of the fleet has it
            why = " ".join(str(part) for part in (row.get("status") or "no figure", row.get("reason") or "") if part)
            unmeasured[metric.key] = why
            metrics.setdefault(metric.key, metric)
    for metric, value in _links(data):
        values[metric.key], metrics[metric.key] = value, metric
    checks = tuple(
        Check(str(v.get("check", "")), str(v.get("subject", "")), str(v.get("message", "")))
        for v in data.get("verdicts") or []
        if v.get("status") == "fail"
    )
    for key in values:
        unmeasured.pop(key, None)
    names = [str(d.get("name")) for d in data.get("devices") or [] if isinstance(d, dict) and d.get("name")]
    return NodeReport(
        node, path, str(data.get("started_at") or ""), values, metrics, facts(data), checks, "", unmeasured,
        len(names), " + ".join(sorted(set(names))), str(Path(path).parent) if path else "",
    )  # fmt: skip


def facts(data: Mapping[str, Any]) -> dict[str, str]:
    """What should be the same on every node of a fleet: GPUs, driver, CUDA, torch, CPU, OS kernel."""
    system = data.get("system") or {}
    gpu = system.get("gpu") or {}
    torch = data.get("torch") or {}
    names = [str(d.get("name")) for d in data.get("devices") or [] if isinstance(d, dict) and d.get("name")]
    found = {
        "gpus": f"{len(names)} × {names[0]}" if names and len(set(names)) == 1 else ", ".join(names) or "none",
        "driver": gpu.get("driver_version"),
        "cuda": gpu.get("cuda_driver_version"),
        "torch": torch.get("version") if isinstance(torch, dict) else None,
        "cpu": (system.get("cpu") or {}).get("model"),
        "kernel": (system.get("os") or {}).get("kernel") or (system.get("os") or {}).get("release"),
    }
    return {key: str(value) for key, value in found.items() if isinstance(value, (str, int, float)) and value != ""}


def _metric(name: str, dtype: str, variant: str, device: str, unit: str) -> Metric:
    kind = device.split(":")[0]
    if kind not in (*GPU_DEVICES, "cpu"):
        device = ""  # a disk's name differs from node to node; the probe reads one disk
    key = "/".join(part for part in (name, dtype, variant) if part) + (f"@{device}" if device else "")
    return Metric(key, name, dtype, variant, device, unit)


def _links(data: Mapping[str, Any]) -> Iterator[tuple[Metric, float]]:
    """Each GPU's PCIe generation and width under load: the most the live samples saw (a GPU slows its
    link when idle), else what the inventory read."""
    series = data.get("series") or {}
    channels = series.get("channels") or {} if isinstance(series, dict) else {}
    for position, device in enumerate(data.get("devices") or []):
        where = str(device.get("torch_device") or "")
        if not where:
            continue
        index = device.get("index", position)
        pcie = device.get("pcie") or {}
        for name, sampled, inventory, unit in (
            ("pcie_generation", f"gpu{index}.pcie_gen", "current_generation", "generation"),
            ("pcie_width", f"gpu{index}.pcie_width", "current_width", "lanes"),
        ):
            seen = [v for v in channels.get(sampled) or [] if _finite(v)]
            value = max(seen) if seen else pcie.get(inventory) if isinstance(pcie, dict) else None
            if isinstance(value, (int, float)) and _finite(value) and value > 0:
                yield _metric(name, "", "", where, unit), float(value)


def _run(path: Path, data: Mapping[str, Any]) -> FleetRun:
    nodes = data["nodes"]
    if not isinstance(nodes, dict):
        raise TypeError("nodes is not a table of nodes")
    allreduce = data.get("allreduce")
    return FleetRun(
        str(path),
        str(data.get("job", "")),
        str(data["started_at"]),
        nodes,
        allreduce if isinstance(allreduce, dict) else None,
    )


def _json_files(root: Path) -> list[Path]:
    found = []
    for folder, folders, files in os.walk(root):
        folders[:] = sorted(name for name in folders if not name.startswith("."))
        found += [Path(folder) / name for name in sorted(files) if name.endswith(".json") and not name.startswith(".")]
    return found


def _finite(value: object) -> bool:
    return isinstance(value, (int, float)) and not isinstance(value, bool) and math.isfinite(value)


def _no_constant(name: str) -> float:
    raise ValueError(f"{name} is not a number JSON allows")
