"""A fleet report as a standalone HTML page: the nodes x metrics heatmap coloured by each node's distance
from the fleet's median, the outliers with their reasons, the exclude list and the metrics' spread."""

from __future__ import annotations

from html import escape

from gpuconfig import __version__
from gpuconfig.core.fleet.diagnose import STATE_NAMES, Diagnosis, MetricStats, NodeVerdict, tone
from gpuconfig.core.i18n import QT_TRANSLATE_NOOP, html_language, translate
from gpuconfig.probe.labels import figure, percent
from gpuconfig.probe.report import STYLE

HEATMAP_STYLE = """
table.heat td { text-align: right; white-space: nowrap; border-bottom: 1px solid #e3e6eb; }
table.heat th { font-size: 7.5pt; vertical-align: bottom; background-color: #eceef2; }
table.heat td.node { text-align: left; font-weight: bold; }
td.flag { font-weight: bold; }
.failed, .outlier { color: #b3261e; } .warning { color: #8a5a00; } .ok { color: #1e6b35; }
p.note { color: #5f6b7a; }
"""
METRIC_COLUMNS = (
    QT_TRANSLATE_NOOP("Fleet", "Metric"),
    QT_TRANSLATE_NOOP("Fleet", "Nodes"),
    QT_TRANSLATE_NOOP("Fleet", "Median"),
    QT_TRANSLATE_NOOP("Fleet", "Spread"),
    QT_TRANSLATE_NOOP("Fleet", "Named beyond"),
)
SLOW, FAST = (215, 48, 31), (44, 123, 182)  # below the fleet red, above it blue


def number(value: float) -> str:
    """A figure as the probe writes it (four significant digits), a whole count as it is: x8, gen 4."""
    return f"{value:,.0f}" if float(value).is_integer() else figure(value)


def colour(strength: float) -> str:
    """A cell's background for a tone from -1 to 1: white at 0, red below, blue above."""
    end = SLOW if strength < 0 else FAST
    share = min(1.0, abs(strength)) * 0.75
    red, green, blue = (round(255 + (c - 255) * share) for c in end)
    return f"#{red:02x}{green:02x}{blue:02x}"


def html(diagnosis: Diagnosis) -> str:
    title = translate("Fleet", "Fleet report: {nodes} nodes").format(nodes=len(diagnosis.nodes))
    parts = [_tag("h1", title), f"<p>{escape(diagnosis.counts_text())} · {escape(diagnosis.folder.path)}</p>"]
    if diagnosis.exclude:
        text = translate("Fleet", "Leave out of jobs (sbatch --exclude): {hosts}").format(hosts=diagnosis.exclude)
        parts.append(f"<p><b>{escape(text)}</b></p>")
    if allreduce_line(diagnosis):
        parts.append(_tag("p", allreduce_line(diagnosis)))
    parts += [f"<p class='failed'>{escape(finding.message)}</p>" for finding in diagnosis.findings]
    named = [v for v in diagnosis.nodes if v.reasons]
    if named:
        parts.append(_tag("h2", translate("Fleet", "Nodes named")))
        rows = "".join(
            f"<tr>{_node_cells(v)}<td>" + "<br>".join(escape(r.message) for r in v.reasons) + "</td></tr>"
            for v in named
        )
        parts.append(f"<table class='grid' cellspacing='0' cellpadding='3'>{rows}</table>")
    parts.append(_tag("h2", translate("Fleet", "Nodes by metric")))
    parts.append(f"<p class='note'>{escape(legend(diagnosis))}</p>")
    parts.append(_heatmap(diagnosis))
    parts.append(_tag("h2", translate("Fleet", "Metrics")))
    head = "".join(_tag("th", translate("Fleet", title)) for title in METRIC_COLUMNS)
    rows = "".join(
        "<tr>"
        + "".join(
            _tag("td", text) if i == 0 else f"<td class='num'>{escape(text)}</td>"
            for i, text in enumerate(metric_row(s, len(diagnosis.groups) > 1))
        )
        + "</tr>"
        for s in diagnosis.metrics
    )
    parts.append(f"<table class='grid' cellspacing='0' cellpadding='3'><tr>{head}</tr>{rows}</table>")
    made = translate("ProbeReport", "Made with gpuconfig {version}.").format(version=__version__)
    parts.append(f"<p class='note'>{escape(made)}</p>")
    return (
        f"<html lang='{html_language()}'><head><meta charset='utf-8'><title>{escape(title)}</title>"
        f"<style>{STYLE}{HEATMAP_STYLE}</style></head><body>" + "\n".join(parts) + "</body></html>"
    )


def metric_row(stats: MetricStats, grouped: bool = False) -> list[str]:
    """A metric's line in the summary: its name (and the GPU model of its nodes, where the fleet has several),
    how many nodes have it, its median, spread and threshold."""
    named = percent(stats.threshold) if stats.judged else translate("Fleet", "not judged: too few nodes")
    median = f"{number(stats.median)} {stats.metric.unit}".strip()
    group = stats.group or translate("Fleet", "no GPU")
    label = (
        translate("Fleet", "{metric}, nodes with {group}").format(metric=stats.label, group=group)
        if grouped
        else stats.label
    )
    return [label, str(stats.nodes), median, percent(stats.spread), named]


def _tag(tag: str, text: str) -> str:
    return f"<{tag}>{escape(text)}</{tag}>"


def legend(diagnosis: Diagnosis) -> str:
    rules = diagnosis.rules
    text = translate(
        "Fleet",
        "Each cell is the node's figure; its colour is its distance from the fleet's median, red below and blue "
        "above, full at twice the distance that names a node. A node is named when it is further from the "
        "median than {threshold} or {factor} robust spreads (median absolute deviation x 1.4826), whichever is "
        "wider, with at least {least} nodes reporting the metric.",
    )
    return text.format(
        threshold=f"{rules.threshold * 100:g} %", factor=f"{rules.spread_factor:g}", least=rules.min_nodes
    )


def allreduce_line(diagnosis: Diagnosis) -> str:
    """The newest run's all-reduce across the nodes in a line; "" when it failed (a finding says so)."""
    done = diagnosis.allreduce or {}
    busbw, size = done.get("busbw_gbs"), done.get("bytes", 0)
    if isinstance(busbw, (int, float)) and isinstance(size, int):
        return translate(
            "Fleet",
            "All-reduce across {nodes} nodes ({backend}, {ranks} ranks): bus bandwidth {busbw} GB/s at {size} MiB",
        ).format(
            nodes=len(done.get("nodes") or []),
            backend=done.get("backend"),
            ranks=done.get("ranks"),
            busbw=figure(float(busbw)),
            size=size >> 20,
        )
    if done.get("failed"):
        return ""
    why = done.get("skipped") or ""
    return translate("Fleet", "All-reduce across the nodes: not measured ({why})").format(why=why)


def _heatmap(diagnosis: Diagnosis) -> str:
    stats = diagnosis.columns
    head = "<th></th><th></th>" + "".join(f"<th>{escape(s.label)}<br>{escape(s.metric.unit)}</th>" for s in stats)
    rows = [f"<tr>{head}</tr>"]
    rows += [
        f"<tr>{_node_cells(verdict)}" + "".join(_cell(verdict, s.metric.key) for s in stats) + "</tr>"
        for verdict in diagnosis.nodes
    ]
    return f"<table class='heat' cellspacing='0' cellpadding='3'>{''.join(rows)}</table>"


def _node_cells(verdict: NodeVerdict) -> str:
    state = translate("Fleet", STATE_NAMES[verdict.state])
    return (
        f"<td class='node {verdict.state}'>{escape(verdict.node)}</td><td class='{verdict.state}'>{escape(state)}</td>"
    )


def _cell(verdict: NodeVerdict, key: str) -> str:
    """A node's figure, coloured by its distance from the median of the nodes with its GPU model."""
    value = verdict.report.values.get(key)
    if value is None:
        return "<td>—</td>"
    threshold = verdict.thresholds.get(key)
    if threshold is None or key not in verdict.deviations:
        return f"<td>{escape(number(value))}</td>"
    deviation = verdict.deviations[key]
    flagged = " class='flag'" if abs(deviation) > threshold else ""
    return f"<td{flagged} style='background-color:{colour(tone(deviation, threshold))}'>{escape(number(value))}</td>"
