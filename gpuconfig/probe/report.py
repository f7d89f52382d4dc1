"""A probe run as documents people keep: JSON (everything) and HTML (what a reader checks), and two runs
compared. PDF is the HTML printed by Qt's own PDF writer in the Probe tab.
"""

from __future__ import annotations

from html import escape
from pathlib import Path
from typing import Any

from gpuconfig.core.numbers import json_text
from gpuconfig.core.paths import write_text_atomic
from gpuconfig.probe.model import BenchmarkResult, Unavailable, to_json
from gpuconfig.probe.session import ProbeRun

STATUS_COLOURS = {"pass": "#1a7f37", "warn": "#9a6700", "fail": "#cf222e", "info": "#57606a"}
STYLE = """
body { font-family: sans-serif; font-size: 10pt; color: #1f2328; }
h1 { font-size: 15pt; } h2 { font-size: 12pt; margin-top: 16pt; }
table { border-collapse: collapse; width: 100%; }
th, td { border-bottom: 1px solid #d0d7de; padding: 3pt 6pt; text-align: left; vertical-align: top; }
th { background: #f6f8fa; } td.num { text-align: right; } .muted { color: #57606a; }
"""


def write_json(run: ProbeRun, path: Path) -> None:
    write_text_atomic(path, json_text(run.record()))


def write_html(run: ProbeRun, path: Path) -> None:
    write_text_atomic(path, html(run))


def _value(result: BenchmarkResult) -> str:
    if result.status != "ok" or result.value is None:
        return f"<span class='muted'>{escape(result.status)}: {escape(result.reason)}</span>"
    return f"{result.value:.4g}"


def _status(status: str) -> str:
    colour = STATUS_COLOURS.get(status, "#57606a")
    return f"<b style='color:{colour}'>{escape(status.upper())}</b>"


def _flat(prefix: str, value: Any, rows: list[tuple[str, str]]) -> None:
    missing = Unavailable.read(value)
    if missing is not None and missing.failure is None:
        rows.append((prefix, f"unavailable — {missing.reason}"))
    elif isinstance(value, dict):
        for key, item in value.items():
            _flat(f"{prefix}.{key}" if prefix else str(key), item, rows)
    elif isinstance(value, list) and value and all(isinstance(v, dict) for v in value):
        for index, item in enumerate(value):
            _flat(f"{prefix}[{index}]", item, rows)
    else:
        rows.append((prefix, ", ".join(map(str, value)) if isinstance(value, list) else str(value)))


def html(run: ProbeRun) -> str:
    counts = run.counts
    summary = ", ".join(f"{n} {status}" for status, n in counts.items() if n)
    parts = [
        f"<html><head><meta charset='utf-8'><title>gpuconfig probe {escape(run.started_at)}</title>",
        f"<style>{STYLE}</style></head><body>",
        f"<h1>gpuconfig probe of {escape(run.host)}</h1>",
        f"<p>{escape(run.started_at)} · {escape(run.suite)} suite · {run.seconds:.0f} s · {escape(run.python)}"
        + (" · <b>cancelled</b>" if run.cancelled else "")
        + f"</p><p>Verdicts: {escape(summary)}</p>",
        "<h2>Verdicts</h2><table><tr><th>Check</th><th>Subject</th><th>Status</th><th>Result</th>"
        "<th>Threshold and source</th><th>What to do</th></tr>",
    ]
    for v in run.verdicts:
        threshold = escape(v.threshold) + (f"<br><span class='muted'>{escape(v.source)}</span>" if v.source else "")
        parts.append(
            f"<tr><td>{escape(v.check)}</td><td>{escape(v.subject)}</td><td>{_status(v.status)}</td>"
            f"<td>{escape(v.message)}</td><td>{threshold}</td><td>{escape(v.advice)}</td></tr>"
        )
    parts.append(
        "</table><h2>Benchmarks</h2><table><tr><th>Benchmark</th><th>Type</th><th>Device</th>"
        "<th>Variant</th><th>Value</th><th>Unit</th></tr>"
    )
    parts += [
        f"<tr><td>{escape(r.name)}</td><td>{escape(r.dtype)}</td><td>{escape(r.device)}</td>"
        f"<td>{escape(r.variant)}</td><td class='num'>{_value(r)}</td><td>{escape(r.unit)}</td></tr>"
        for r in run.results
    ]
    parts.append("</table><h2>Machine</h2><table>")
    rows: list[tuple[str, str]] = []
    _flat("", to_json({"system": run.system, "gpus": run.devices, "torch": run.torch}), rows)
    parts += [f"<tr><td>{escape(k)}</td><td>{escape(v)}</td></tr>" for k, v in rows]
    parts.append("</table></body></html>")
    return "\n".join(parts)


def result_key(result: BenchmarkResult) -> tuple[str, str, str, str]:
    return (result.name, result.dtype, result.device, result.variant)


def compare_rows(a: ProbeRun, b: ProbeRun) -> list[tuple[str, float | None, float | None, str, float | None]]:
    """(benchmark label, value in a, value in b, unit, b / a) for every benchmark either run has."""
    first = {result_key(r): r for r in a.results}
    second = {result_key(r): r for r in b.results}
    rows = []
    for key in list(first) + [k for k in second if k not in first]:
        x, y = first.get(key), second.get(key)
        shown = x or y
        assert shown is not None
        va = x.value if x is not None and x.status == "ok" else None
        vb = y.value if y is not None and y.status == "ok" else None
        ratio = vb / va if va and vb is not None else None
        rows.append((shown.label, va, vb, shown.unit, ratio))
    return rows


def compare_html(a: ProbeRun, b: ProbeRun) -> str:
    parts = [
        f"<html><head><meta charset='utf-8'><style>{STYLE}</style></head><body>",
        f"<h1>{escape(a.host)} {escape(a.started_at)} against {escape(b.host)} {escape(b.started_at)}</h1>",
        "<table><tr><th>Benchmark</th><th>First</th><th>Second</th><th>Unit</th><th>Second / first</th></tr>",
    ]
    for label, va, vb, unit, ratio in compare_rows(a, b):
        cells = [f"{v:.4g}" if v is not None else "—" for v in (va, vb)]
        share = f"{ratio:.2f}x" if ratio is not None else "—"
        parts.append(
            f"<tr><td>{escape(label)}</td><td class='num'>{cells[0]}</td><td class='num'>{cells[1]}</td>"
            f"<td>{escape(unit)}</td><td class='num'>{share}</td></tr>"
        )
    parts.append("</table></body></html>")
    return "\n".join(parts)
