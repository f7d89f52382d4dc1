"""Each node judged against the fleet's own distribution, a baseline and its own checks; the outliers named
with their reasons, the nodes to leave out as a Slurm host list, and each node's history across runs.

A metric is judged across the fleet when at least `min_nodes` nodes have it: its centre is the median, its
spread the median absolute deviation times 1.4826 (relative to the median), and a node is an outlier when
it is further from the median than the rule's threshold or `spread_factor` spreads, whichever is wider, so
a metric that is noisy on every node does not name nodes for its noise. Below the median is a failure
(every metric here is better higher); above it is a warning (that node is unlike the rest: other parts?).
"""

from __future__ import annotations

import statistics
from collections import Counter
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from gpuconfig.core.fleet.hostlist import compress
from gpuconfig.core.fleet.reports import FleetError, Folder, Metric, NodeReport, is_probe_record, node_report
from gpuconfig.core.fleet.rules import Rules
from gpuconfig.core.i18n import QT_TRANSLATE_NOOP, translate
from gpuconfig.core.units import format_number

REPORT_FORMAT = "gpuconfig.fleet.report/1"
MAD_TO_SD = 1.4826  # 1/qnorm(3/4): R's stats::mad constant
FAIL, WARN = "fail", "warn"
# A node's state, worst first.
FAILED, OUTLIER, WARNING, OK = "failed", "outlier", "warning", "ok"
STATES = (FAILED, OUTLIER, WARNING, OK)
STATE_NAMES = {
    FAILED: QT_TRANSLATE_NOOP("Fleet", "failed"),
    OUTLIER: QT_TRANSLATE_NOOP("Fleet", "outlier"),
    WARNING: QT_TRANSLATE_NOOP("Fleet", "warning"),
    OK: QT_TRANSLATE_NOOP("Fleet", "ok"),
}
FACT_NAMES = {
    "gpus": QT_TRANSLATE_NOOP("Fleet", "GPUs"),
    "driver": QT_TRANSLATE_NOOP("Fleet", "driver"),
    "cuda": QT_TRANSLATE_NOOP("Fleet", "CUDA version the driver supports"),
    "torch": QT_TRANSLATE_NOOP("Fleet", "PyTorch build"),
    "cpu": QT_TRANSLATE_NOOP("Fleet", "CPU"),
    "kernel": QT_TRANSLATE_NOOP("Fleet", "OS kernel"),
}

Label = Callable[[Metric], str]


@dataclass(frozen=True)
class Reason:
    severity: str  # FAIL or WARN
    kind: str  # "failed", "slow", "fast", "baseline", "check", "software", "history"
    message: str
    metric: str = ""
    value: float | None = None
    reference: float | None = None


@dataclass(frozen=True)
class MetricStats:
    metric: Metric
    label: str
    nodes: int  # how many current reports have it
    median: float
    spread: float  # robust relative spread (MAD x 1.4826 / median)
    threshold: float  # the relative distance from the median that names a node
    judged: bool  # enough nodes to judge against the fleet
    group: str = ""  # the GPU model of the nodes it was computed over ("" for nodes without GPUs)


@dataclass(frozen=True)
class NodeVerdict:
    report: NodeReport
    state: str
    reasons: tuple[Reason, ...]
    deviations: Mapping[str, float]  # metric key -> (value - median) / median, for judged metrics
    history: tuple[NodeReport, ...]  # the node's earlier reports, oldest first
    thresholds: Mapping[str, float] = field(default_factory=dict)  # metric key -> its group's threshold

    @property
    def node(self) -> str:
        return self.report.node


@dataclass(frozen=True)
class Baseline:
    values: Mapping[str, float]
    source: str
    allreduce: Mapping[str, Any] | None = None  # an earlier fleet report's all-reduce across its nodes


@dataclass(frozen=True)
class Diagnosis:
    folder: Folder
    nodes: tuple[NodeVerdict, ...]  # worst first, then by name
    metrics: tuple[MetricStats, ...]  # each metric of each group of nodes (by GPU model), the largest group first
    majority: Mapping[str, tuple[str, int]]  # fact -> (the value most nodes have, how many)
    rules: Rules
    baseline: Baseline | None
    allreduce: Mapping[str, Any] | None  # the newest run's all-reduce across nodes
    findings: tuple[Reason, ...] = ()  # what is said of the fleet as a whole: its all-reduce

    @property
    def failed(self) -> bool:
        """A node failed or is an outlier, or the fleet's all-reduce failed or fell below the baseline."""
        return any(v.state in (FAILED, OUTLIER) for v in self.nodes) or any(r.severity == FAIL for r in self.findings)

    @property
    def exclude(self) -> str:
        """The nodes with a failure, as a Slurm host list for sbatch --exclude ("" when none)."""
        return compress(v.node for v in self.nodes if v.state in (FAILED, OUTLIER))

    def counts(self) -> dict[str, int]:
        found = Counter(v.state for v in self.nodes)
        return {state: found.get(state, 0) for state in STATES}

    def counts_text(self) -> str:
        """'1 failed, 3 outlier, 12 ok' in the language in use."""
        counts = self.counts()
        named = [(counts[state], translate("Fleet", STATE_NAMES[state])) for state in STATES if counts[state]]
        comma = translate("Fleet", ", ")  # a list's separator: 、 in Chinese
        return comma.join(translate("Fleet", "{count} {state}").format(count=n, state=state) for n, state in named)

    @property
    def columns(self) -> list[MetricStats]:
        """One judged metric per key, for a node x metric table (the largest group's where several have it)."""
        seen: dict[str, MetricStats] = {}
        for s in self.metrics:
            if s.judged:
                seen.setdefault(s.metric.key, s)
        return list(seen.values())

    @property
    def groups(self) -> list[str]:
        return list(dict.fromkeys(s.group for s in self.metrics))

    def csv(self) -> str:
        """The node x metric table: a row per node (its state first), a column per metric key."""
        import csv
        import io

        out = io.StringIO()
        writer = csv.writer(out, lineterminator="\n")
        keys = list(dict.fromkeys(s.metric.key for s in self.metrics))
        writer.writerow(["node", "state", "gpus", *keys])
        for v in self.nodes:
            values = v.report.values
            figures = (f"{values[key]:.6g}" if key in values else "" for key in keys)
            writer.writerow([v.node, v.state, v.report.facts.get("gpus", ""), *figures])
        return out.getvalue()

    def verdict(self, node: str) -> NodeVerdict | None:
        return next((v for v in self.nodes if v.node == node), None)

    def record(self) -> dict[str, Any]:
        return {
            "format": REPORT_FORMAT,
            "folder": self.folder.path,
            "counts": self.counts(),
            "exclude": self.exclude,
            "rules": self.rules.record(),
            "baseline": self.baseline.source if self.baseline else None,
            "allreduce": dict(self.allreduce) if self.allreduce else None,
            "findings": [{"severity": r.severity, "kind": r.kind, "message": r.message} for r in self.findings],
            "facts": {key: {"value": value, "nodes": count} for key, (value, count) in self.majority.items()},
            "metrics": [
                {
                    "key": s.metric.key,
                    "label": s.label,
                    "unit": s.metric.unit,
                    "nodes": s.nodes,
                    "median": s.median,
                    "spread": round(s.spread, 5),
                    "threshold": round(s.threshold, 5),
                    "judged": s.judged,
                    "group": s.group,
                }
                for s in self.metrics
            ],
            "nodes": [_node_record(v) for v in self.nodes],
            "skipped": [{"file": path, "why": why} for path, why in self.folder.skipped],
        }


def tone(deviation: float, threshold: float) -> float:
    """How strongly a cell is coloured, -1 (far below the fleet) to 1 (far above): the deviation in units of
    twice the metric's threshold, so a node just named reads at half strength."""
    if threshold <= 0:
        return 0.0
    return max(-1.0, min(1.0, deviation / (2 * threshold)))


def diagnose(
    folder: Folder, rules: Rules | None = None, baseline: Baseline | None = None, label: Label | None = None
) -> Diagnosis:
    """Judge the newest report of every node in `folder`; the older ones are each node's history."""
    rules = rules or Rules()
    name = label or (lambda metric: metric.key)
    by_node: dict[str, list[NodeReport]] = {}
    for report in folder.reports:  # oldest first
        by_node.setdefault(report.node, []).append(report)
    current = {node: reports[-1] for node, reports in by_node.items()}
    newest = folder.newest_folder
    # A node absent from the newest run (its last report is from an earlier run) is not judged on old figures.
    stale = {n for n, r in current.items() if folder.several_runs and r.folder != newest}
    reporting = [r for n, r in current.items() if not r.failure and n not in stale]
    groups: dict[str, list[NodeReport]] = {}
    for report in reporting:
        groups.setdefault(report.gpu_model, []).append(report)
    stats = {group: _stats(members, rules, name, group) for group, members in groups.items()}
    majority = _majority(reporting)
    verdicts = []
    for node, reports in by_node.items():
        report = reports[-1]
        earlier = tuple(r for r in reports[:-1] if not r.failure)
        if node in stale:
            when = report.started_at[:10]
            why = translate("Fleet", "not in the newest run: its last report is from {date}, not judged").format(
                date=when
            )
            verdicts.append(NodeVerdict(report, WARNING, (Reason(WARN, "stale", why),), {}, earlier))
            continue
        mine = stats.get(report.gpu_model, {})
        peers = groups.get(report.gpu_model, [])  # judged against the same GPU model
        reasons, deviations = _judge(report, earlier, mine, majority, len(reporting), rules, baseline, name)
        reasons = _hardware(report, peers, reporting, mine) + reasons
        thresholds = {key: s.threshold for key, s in mine.items() if s.judged}
        verdicts.append(NodeVerdict(report, _state(report, reasons), tuple(reasons), deviations, earlier, thresholds))
    verdicts.sort(key=lambda v: (STATES.index(v.state), _natural(v.node)))
    reduced = folder.runs[-1].allreduce if folder.runs else None
    findings = _allreduce_findings(reduced, baseline, rules)
    ordered = sorted(groups, key=lambda g: (-len(groups[g]), g))
    metrics = tuple(s for group in ordered for s in stats[group].values())
    return Diagnosis(folder, tuple(verdicts), metrics, majority, rules, baseline, reduced, findings)


def _hardware(
    report: NodeReport, peers: Sequence[NodeReport], reporting: Sequence[NodeReport], stats: Mapping[str, MetricStats]
) -> list[Reason]:
    """What a node lacks that its peers have: GPUs (none where most nodes have some; fewer than most nodes of
    its GPU model), and figures most of its peers measured."""
    if report.failure:
        return []
    reasons = []
    with_gpus = sum(1 for r in reporting if r.gpu_count)
    if not report.gpu_count and with_gpus * 2 > len(reporting):
        message = translate("Fleet", "no GPU found, where {count} of {total} nodes have GPUs").format(
            count=with_gpus, total=len(reporting)
        )
        reasons.append(Reason(FAIL, "gpus", message, "gpus"))
    counts = Counter(r.gpu_count for r in peers)
    usual, count = counts.most_common(1)[0] if counts else (0, 0)
    if report.gpu_count and report.gpu_count != usual and count * 2 > len(peers):
        message = translate("Fleet", "{found} GPUs, where {count} of {total} nodes with {model} have {usual}").format(
            found=report.gpu_count, count=count, total=len(peers), model=report.gpu_model, usual=usual
        )
        reasons.append(Reason(FAIL, "gpus", message, "gpus"))
    for key, s in stats.items():
        if key in report.values or not s.judged or s.nodes * 2 <= len(peers):
            continue
        why = report.unmeasured.get(key) or translate("Fleet", "not in its report")
        message = translate(
            "Fleet", "{metric}: no figure here ({why}), where {count} of {total} nodes measured it"
        ).format(metric=s.label, why=why, count=s.nodes, total=len(peers))
        reasons.append(Reason(FAIL if why.startswith("failed") else WARN, "unmeasured", message, key))
    return reasons


def _allreduce_findings(done: Mapping[str, Any] | None, baseline: Baseline | None, rules: Rules) -> tuple[Reason, ...]:
    """The newest run's all-reduce across nodes: failed, or below the baseline's (same backend)."""
    if not done:
        return ()
    if done.get("failed"):
        why = translate("Fleet", "the all-reduce across the nodes failed: {why}").format(why=done["failed"])
        return (Reason(FAIL, "allreduce", why),)
    before = baseline.allreduce if baseline else None
    measured, reference = done.get("busbw_gbs"), (before or {}).get("busbw_gbs")
    if not isinstance(measured, (int, float)) or not isinstance(reference, (int, float)) or reference <= 0:
        return ()
    if before is None or before.get("backend") != done.get("backend"):
        return ()
    change = (measured - reference) / reference
    if change >= -rules.baseline_threshold:
        return ()
    message = translate(
        "Fleet",
        "all-reduce bus bandwidth {value} GB/s over {ranks} ranks, {share} below the baseline's {reference} GB/s over "
        "{before} ranks",
    ).format(
        value=format_number(float(f"{measured:.4g}")),
        ranks=done.get("ranks"),
        share=_share(change),
        reference=format_number(float(f"{reference:.4g}")),
        before=before.get("ranks"),
    )
    return (Reason(FAIL, "allreduce", message, "allreduce", float(measured), float(reference)),)


def load_baseline(path: str | Path) -> Baseline:
    """A baseline: one node's probe report (its figures), or a fleet report's JSON (its medians)."""
    import json

    where = Path(path)
    try:
        data = json.loads(where.read_text(encoding="utf-8"))
    except (OSError, UnicodeDecodeError, ValueError) as exc:
        raise FleetError(f"{where}: not readable as a baseline: {exc}") from exc
    if is_probe_record(data):
        return Baseline(dict(node_report(data, str(where)).values), str(where))
    if isinstance(data, dict) and data.get("format") == REPORT_FORMAT:
        values = {
            str(m["key"]): float(m["median"])
            for m in data.get("metrics") or []
            if isinstance(m, dict) and isinstance(m.get("median"), (int, float))
        }
        allreduce = data.get("allreduce")
        return Baseline(values, str(where), allreduce if isinstance(allreduce, dict) else None)
    raise FleetError(f"{where}: neither a probe report nor a fleet report (`fleet report --json`)")


def _stats(reports: Sequence[NodeReport], rules: Rules, name: Label, group: str = "") -> dict[str, MetricStats]:
    values: dict[str, list[float]] = {}
    metrics: dict[str, Metric] = {}
    for report in reports:
        for key, value in report.values.items():
            if not rules.ignored(key):
                values.setdefault(key, []).append(value)
                metrics.setdefault(key, report.metrics[key])
    stats = {}
    first = {key: i for i, key in enumerate(values)}  # the probe's own order: matmul, memory, copies, training ...
    # One device's figures together, the machine's (a disk's) last.
    for key in sorted(values, key=lambda k: (not k.partition("@")[2], k.partition("@")[2], first[k])):
        seen = values[key]
        median = statistics.median(seen)
        spread = MAD_TO_SD * statistics.median(abs(v - median) for v in seen) / abs(median) if median else 0.0
        threshold = max(rules.threshold_for(key), rules.spread_factor * spread)
        judged = len(seen) >= rules.min_nodes and median != 0
        stats[key] = MetricStats(metrics[key], name(metrics[key]), len(seen), median, spread, threshold, judged, group)
    return stats


def _majority(reports: Sequence[NodeReport]) -> dict[str, tuple[str, int]]:
    """Each fact's value on more than half of the nodes that report it."""
    found: dict[str, Counter[str]] = {}
    for report in reports:
        for key, value in report.facts.items():
            found.setdefault(key, Counter())[value] += 1
    majority = {}
    for key, counts in found.items():
        value, count = counts.most_common(1)[0]
        if count * 2 > sum(counts.values()):
            majority[key] = (value, count)
    return majority


def _judge(
    report: NodeReport,
    earlier: tuple[NodeReport, ...],
    stats: Mapping[str, MetricStats],
    majority: Mapping[str, tuple[str, int]],
    reporting: int,
    rules: Rules,
    baseline: Baseline | None,
    name: Label,
) -> tuple[list[Reason], dict[str, float]]:
    if report.failure:
        why = translate("Fleet", "no report from this node: {why}").format(why=report.failure)
        return [Reason(FAIL, "failed", why)], {}
    reasons: list[Reason] = []
    deviations: dict[str, float] = {}
    for key, value in report.values.items():
        s = stats.get(key)
        if s is None or not s.judged:
            continue
        deviation = (value - s.median) / abs(s.median)
        deviations[key] = deviation
        if abs(deviation) > s.threshold:
            slow = deviation < 0
            text = (
                translate("Fleet", "{metric}: {value}, {share} below the fleet's median of {median}")
                if slow
                else translate(
                    "Fleet", "{metric}: {value}, {share} above the fleet's median of {median}, unlike the rest"
                )
            )
            message = text.format(
                metric=s.label,
                value=_with_unit(value, s.metric),
                share=_share(deviation),
                median=_with_unit(s.median, s.metric),
            )
            reasons.append(Reason(FAIL if slow else WARN, "slow" if slow else "fast", message, key, value, s.median))
    if baseline is not None:
        for key, value in report.values.items():
            reference = baseline.values.get(key)
            if not reference or rules.ignored(key):
                continue
            change = (value - reference) / abs(reference)
            if change < -rules.baseline_threshold:
                metric = report.metrics[key]
                message = translate("Fleet", "{metric}: {value}, {share} below the baseline's {reference}").format(
                    metric=name(metric),
                    value=_with_unit(value, metric),
                    share=_share(change),
                    reference=_with_unit(reference, metric),
                )
                reasons.append(Reason(FAIL, "baseline", message, key, value, reference))
    for check in report.failed_checks:
        message = translate("Fleet", "its own check failed: {check} ({subject}): {message}").format(
            check=check.check, subject=check.subject, message=check.message
        )
        reasons.append(Reason(FAIL, "check", message))
    for key, fact in sorted(report.facts.items()):
        if key != "gpus" and key in majority and fact != majority[key][0]:  # GPUs: by model and count (_hardware)
            usual, count = majority[key]
            message = translate("Fleet", "{fact} {value}, where {count} of {total} nodes have {usual}").format(
                fact=translate("Fleet", FACT_NAMES.get(key, key)),
                value=fact,
                count=count,
                total=reporting,
                usual=usual,
            )
            reasons.append(Reason(WARN, "software", message, key))
    if earlier:  # a figure that fell since the node's previous run, unless already named above
        before = earlier[-1]
        named = {r.metric for r in reasons}
        for key, value in report.values.items():
            previous = before.values.get(key)
            if not previous or rules.ignored(key) or key in named:
                continue
            change = (value - previous) / abs(previous)
            if change < -rules.history_threshold:
                metric = report.metrics[key]
                message = translate(
                    "Fleet", "{metric}: {value}, {share} below its own run of {date} ({previous})"
                ).format(
                    metric=name(metric),
                    value=_with_unit(value, metric),
                    share=_share(change),
                    date=before.started_at[:10],
                    previous=_with_unit(previous, metric),
                )
                reasons.append(Reason(WARN, "history", message, key, value, previous))
    return reasons, deviations


def _state(report: NodeReport, reasons: Sequence[Reason]) -> str:
    if report.failure:
        return FAILED
    if any(r.severity == FAIL for r in reasons):
        return OUTLIER
    return WARNING if reasons else OK


def _with_unit(value: float, metric: Metric) -> str:
    return f"{format_number(float(f'{value:.4g}'))} {metric.unit}".strip()


def _share(change: float) -> str:
    return f"{abs(change) * 100:.0f} %"


def _natural(name: str) -> tuple[Any, ...]:
    """n2 before n10."""
    import re

    return tuple(int(part) if part.isdigit() else part for part in re.split(r"(\d+)", name))


def _node_record(verdict: NodeVerdict) -> dict[str, Any]:
    report = verdict.report
    return {
        "node": report.node,
        "state": verdict.state,
        "file": report.path,
        "started_at": report.started_at,
        "failure": report.failure or None,
        "values": dict(report.values),
        "deviations": {key: round(value, 5) for key, value in verdict.deviations.items()},
        "facts": dict(report.facts),
        "reasons": [
            {
                "severity": r.severity,
                "kind": r.kind,
                "message": r.message,
                "metric": r.metric or None,
                "value": r.value,
                "reference": r.reference,
            }
            for r in verdict.reasons
        ],
        "history": [{"started_at": r.started_at, "file": r.path, "values": dict(r.values)} for r in verdict.history],
    }
