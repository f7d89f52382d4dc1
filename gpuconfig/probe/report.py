"""A probe run as documents people keep: JSON (everything) and HTML (what a reader checks), and two runs
compared. PDF is the HTML printed by Qt's own PDF writer in the Probe tab, so the HTML keeps to what Qt's
rich text lays out: tables sized by width attributes and spaced by cellpadding, colours on text and cells.

A report reads top down: the verdict summary, the verdicts, the benchmarks with their spread and whether
each can be trusted, what else the machine did meanwhile, and the machine itself. Every word is escaped, and
in the language in use (core/i18n.py, context "ProbeReport"; the verdicts' own words are the run's).
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from datetime import datetime
from html import escape
from pathlib import Path

from gpuconfig import __version__
from gpuconfig.core.i18n import QT_TRANSLATE_NOOP, html_language, translate
from gpuconfig.core.numbers import json_text
from gpuconfig.core.paths import write_text_atomic
from gpuconfig.core.units import MISSING, format_bytes
from gpuconfig.probe.labels import (
    Field,
    benchmark_name,
    duration,
    figure,
    machine_groups,
    percent,
    ratio,
    variant_name,
)
from gpuconfig.probe.model import VERDICT_STATUSES, BenchmarkResult, Unavailable, Verdict
from gpuconfig.probe.references import references
from gpuconfig.probe.session import ProbeRun
from gpuconfig.probe.stability import stability

STATUS_COLOURS = {"pass": "#1a7f37", "warn": "#9a6700", "fail": "#cf222e", "info": "#57606a"}
STATUS_TINTS = {"pass": "#e6f4ea", "warn": "#fff4d6", "fail": "#fdecea", "info": "#f2f4f7"}
WORST_FIRST = ("fail", "warn", "pass", "info")
# What each status, a verdict's or a benchmark's, reads as; and a count of verdicts of each status.
STATUS_WORDS = {
    "pass": QT_TRANSLATE_NOOP("ProbeReport", "pass"),
    "warn": QT_TRANSLATE_NOOP("ProbeReport", "warn"),
    "fail": QT_TRANSLATE_NOOP("ProbeReport", "fail"),
    "info": QT_TRANSLATE_NOOP("ProbeReport", "info"),
    "ok": QT_TRANSLATE_NOOP("ProbeReport", "ok"),
    "failed": QT_TRANSLATE_NOOP("ProbeReport", "failed"),
    "skipped": QT_TRANSLATE_NOOP("ProbeReport", "skipped"),
}
TALLY = {
    "pass": QT_TRANSLATE_NOOP("ProbeReport", "{n} pass"),
    "warn": QT_TRANSLATE_NOOP("ProbeReport", "{n} warn"),
    "fail": QT_TRANSLATE_NOOP("ProbeReport", "{n} fail"),
    "info": QT_TRANSLATE_NOOP("ProbeReport", "{n} info"),
}
AMBER, AMBER_TINT = STATUS_COLOURS["warn"], STATUS_TINTS["warn"]
# Characters: a longer threshold is written once under the notes and cited in each verdict it judges.
LONG_THRESHOLD = 160
STYLE = f"""
body {{ font-family: 'DejaVu Sans', 'Segoe UI', Helvetica, Arial, sans-serif; font-size: 9pt; color: #1d2330; }}
h1 {{ font-size: 17pt; margin-bottom: 2px; }}
h2 {{ font-size: 12.5pt; margin-top: 16px; margin-bottom: 5px; }}
h3 {{ font-size: 10.5pt; margin-top: 12px; margin-bottom: 4px; }}
table.grid {{ border-collapse: collapse; }}
td, th {{ font-size: 8.5pt; }}
table.grid th {{ background-color: #eceef2; border-bottom: 1px solid #c7ccd4; font-weight: bold; }}
table.grid td {{ border-bottom: 1px solid #e3e6eb; vertical-align: top; }}
table.grid td.joined {{ border-bottom: none; }}
td.num {{ text-align: right; white-space: nowrap; }}
th.num {{ text-align: right; }}
td.label {{ color: #5f6b7a; }}
td.part {{ background-color: #f6f8fa; font-weight: bold; }}
.muted {{ color: #5f6b7a; }}
.note {{ color: #5f6b7a; font-size: 7.5pt; }}
.advice {{ color: #2e7d32; }}
.unstable {{ color: {AMBER}; }}
td.notable {{ background-color: {AMBER_TINT}; color: {AMBER}; }}
.up {{ color: {STATUS_COLOURS["pass"]}; font-weight: bold; }}
.down {{ color: {STATUS_COLOURS["fail"]}; font-weight: bold; }}
"""
# A browser shows the report a page wide and centred; Qt's rich text (the PDF) reads no media queries and
# skips the style sheet that holds one, so this stays apart from STYLE.
SCREEN_STYLE = "@media screen and (min-width: 0) { body { max-width: 190mm; margin: 16px auto; } }"

# Column titles (in English, each marked for the language in use), widths (% of the page) and whether the
# column holds numbers.
Columns = Sequence[tuple[str, int, bool]]
VERDICT_COLUMNS: Columns = (
    (QT_TRANSLATE_NOOP("ProbeReport", "Status"), 10, False),
    (QT_TRANSLATE_NOOP("ProbeReport", "Check"), 21, False),
    (QT_TRANSLATE_NOOP("ProbeReport", "Subject"), 10, False),
    (QT_TRANSLATE_NOOP("ProbeReport", "Result"), 59, False),
)
BENCHMARK_COLUMNS: Columns = (
    (QT_TRANSLATE_NOOP("ProbeReport", "Benchmark"), 20, False),
    (QT_TRANSLATE_NOOP("ProbeReport", "Type"), 6, False),
    (QT_TRANSLATE_NOOP("ProbeReport", "Variant"), 18, False),
    (QT_TRANSLATE_NOOP("ProbeReport", "Device"), 10, False),
    (QT_TRANSLATE_NOOP("ProbeReport", "Value"), 10, True),
    (QT_TRANSLATE_NOOP("ProbeReport", "Unit"), 13, False),
    (QT_TRANSLATE_NOOP("ProbeReport", "Spread"), 12, True),
    (QT_TRANSLATE_NOOP("ProbeReport", "Samples"), 11, True),
)
COMPARE_COLUMNS: Columns = (
    (QT_TRANSLATE_NOOP("ProbeReport", "Benchmark"), 17, False),
    (QT_TRANSLATE_NOOP("ProbeReport", "Type and variant"), 16, False),
    (QT_TRANSLATE_NOOP("ProbeReport", "Device"), 10, False),
    (QT_TRANSLATE_NOOP("ProbeReport", "First"), 9, True),
    (QT_TRANSLATE_NOOP("ProbeReport", "Spread"), 9, True),
    (QT_TRANSLATE_NOOP("ProbeReport", "Second"), 9, True),
    (QT_TRANSLATE_NOOP("ProbeReport", "Spread"), 9, True),
    (QT_TRANSLATE_NOOP("ProbeReport", "Unit"), 11, False),
    (QT_TRANSLATE_NOOP("ProbeReport", "Second / first"), 10, True),
)
HAPPENING_COLUMNS: Columns = (
    (QT_TRANSLATE_NOOP("ProbeReport", "What"), 30, False),
    (QT_TRANSLATE_NOOP("ProbeReport", "Seen"), 70, False),
)


def _t(text: str) -> str:
    """Only for texts marked where they are written (the tables above): translate() marks the rest for lupdate."""
    return translate("ProbeReport", text)


def status_word(status: str) -> str:
    """A verdict's or a benchmark's status in words ("pass", "skipped"); an unknown one as it is."""
    return _t(STATUS_WORDS[status]) if status in STATUS_WORDS else status


def tally(counts: dict[str, int]) -> str:
    """'3 pass · 1 warn · 0 fail · 5 info'."""
    return " · ".join(_t(TALLY[status]).format(n=counts.get(status, 0)) for status in VERDICT_STATUSES)


def write_json(run: ProbeRun, path: Path) -> None:
    write_text_atomic(path, json_text(run.record()))


def write_html(run: ProbeRun, path: Path) -> None:
    write_text_atomic(path, html(run))


def html(run: ProbeRun) -> str:
    """The report of one run: a standalone HTML document (inline CSS, no scripts or remote files)."""
    notes = list(dict.fromkeys(n for v in run.verdicts for n in (_long(v.threshold), v.source) if n))
    title = translate("ProbeReport", "gpuconfig probe of {host}, {when}")
    return _page(
        title.format(host=run.host, when=_when(run.started_at)),
        [
            _heading("h1", translate("ProbeReport", "Probe report: {host}").format(host=run.host)),
            _headline(run),
            _facts([(label, escape(text)) for label, text in _run_facts(run)]),
            _heading("h2", translate("ProbeReport", "Verdicts")),
            _table(VERDICT_COLUMNS, [_verdict_row(v, notes) for v in run.verdicts]),
            _heading("h2", translate("ProbeReport", "Benchmarks")),
            _table(BENCHMARK_COLUMNS, _benchmark_rows(run.results)),
            f"<p class='note'>{escape(_benchmark_legend())}</p>",
            *_happenings(run),
            _heading("h2", translate("ProbeReport", "Machine")),
            *_machine(run),
            *_notes(notes),
        ],
    )


def _page(title: str, parts: Iterable[str]) -> str:
    made = translate("ProbeReport", "Made with gpuconfig {version}.").format(version=__version__)
    made = f"<p class='note'>{escape(made)}</p>"
    head = f"<html lang='{html_language()}'><head><meta charset='utf-8'><title>{escape(title)}</title>"
    head += f"<style>{STYLE}</style>"
    head += f"<style>{SCREEN_STYLE}</style></head>"
    return "\n".join([head, "<body>", *parts, made, "</body></html>"])


def _heading(tag: str, text: str) -> str:
    return f"<{tag}>{escape(text)}</{tag}>"


def _table(columns: Columns, rows: Iterable[str]) -> str:
    """A full-width table with a header row (repeated on each page of a PDF)."""
    head = "".join(
        f"<th width='{width}%' align='{'right' if number else 'left'}'{' class=num' if number else ''}>"
        f"{escape(_t(title))}</th>"
        for title, width, number in columns
    )
    return (
        "<table class='grid' width='100%' cellspacing='0' cellpadding='4'>"
        f"<thead><tr>{head}</tr></thead>{''.join(rows)}</table>"
    )


def _cell(content: str, number: bool = False, css: str = "", span: int = 1) -> str:
    """A table cell holding `content` (HTML, escaped by the caller)."""
    classes = " ".join(c for c in ("num" if number else "", css) if c)
    attributes = (" align='right'" if number else "") + (f" colspan='{span}'" if span > 1 else "")
    attributes += f" class='{classes}'" if classes else ""
    return f"<td{attributes}>{content}</td>"


def _facts(rows: Sequence[tuple[str, str]]) -> str:
    """Label and value pairs as a two-column table (values are HTML)."""
    body = "".join(f"<tr>{_cell(escape(label), css='label')}{_cell(value)}</tr>" for label, value in rows)
    return f"<table class='grid' width='100%' cellspacing='0' cellpadding='3'>{body}</table>"


# -- the summary ----------------------------------------------------------------------------------


def _worst(counts: dict[str, int]) -> str:
    return next((s for s in WORST_FIRST if counts.get(s)), "info")


def _headline(run: ProbeRun) -> str:
    """The verdicts in one line, led by the worst status: a coloured band above everything else."""
    counts = run.counts
    worst = _worst(counts)
    return (
        f"<table width='100%' cellspacing='0' cellpadding='8' bgcolor='{STATUS_TINTS[worst]}'><tr>"
        f"<td width='1%' bgcolor='{STATUS_COLOURS[worst]}'></td>"
        f"<td><span style='font-size: 15pt; font-weight: bold; color: {STATUS_COLOURS[worst]}'>"
        f"{escape(status_word(worst).upper())}</span>&nbsp;&nbsp;<span style='font-size: 11pt'>"
        f"{escape(_verdict_words(counts))}</span><br><span style='font-size: 10.5pt'>{escape(tally(counts))}"
        "</span></td></tr></table>"
    )


def _verdict_words(counts: dict[str, int]) -> str:
    if n := counts.get("fail"):
        said = translate("ProbeReport", "1 check failed") if n == 1 else translate("ProbeReport", "{n} checks failed")
        return said.format(n=n)
    if n := counts.get("warn"):
        said = (
            translate("ProbeReport", "1 check to look at")
            if n == 1
            else translate("ProbeReport", "{n} checks to look at")
        )
        return said.format(n=n)
    if counts.get("pass"):
        return translate("ProbeReport", "every judged check passed")
    return translate("ProbeReport", "nothing to judge against: figures reported as measured")


def _run_facts(run: ProbeRun) -> list[tuple[str, str]]:
    """The run in a few lines: the machine, when, the suite and its time, the Python, the figures."""
    return [
        (translate("ProbeReport", "Machine"), machine_line(run)),
        (translate("ProbeReport", "Started"), _when(run.started_at)),
        (translate("ProbeReport", "Suite"), f"{run.suite} · {_took(run)}"),
        (translate("ProbeReport", "Python"), run.python or MISSING),
        (translate("ProbeReport", "Figures"), _figure_counts(run.results)),
    ]


def machine_line(run: ProbeRun) -> str:
    """'lab-7 · AMD EPYC, 16 cores · 125.9 GiB memory · 1 × NVIDIA H100 80GB HBM3 · PyTorch 2.11.0 (CUDA 13.0)'."""
    cpu = run.system.cpu
    model = cpu.model or translate("ProbeReport", "unknown CPU")
    cores = cpu.logical_cores
    parts = [
        run.host,
        translate("ProbeReport", "{cpu}, {n} cores").format(cpu=model, n=cores) if isinstance(cores, int) else model,
    ]
    if run.system.memory.total_bytes:
        memory = format_bytes(run.system.memory.total_bytes)
        parts.append(translate("ProbeReport", "{size} memory").format(size=memory))
    names = [d.known_name or translate("ProbeReport", "unnamed NVIDIA GPU") for d in run.devices]
    if names:
        parts += [f"{names.count(n)} × {n}" for n in dict.fromkeys(names)]
    else:
        gpu = run.system.gpu
        why = gpu.reason if isinstance(gpu, Unavailable) else translate("ProbeReport", "none found")
        parts.append(translate("ProbeReport", "no NVIDIA GPU: {why}").format(why=why))
    parts.append(_torch_words(run))
    return " · ".join(p for p in parts if p)


def _torch_words(run: ProbeRun) -> str:
    torch = run.torch
    if isinstance(torch, Unavailable):
        return translate("ProbeReport", "no PyTorch: {reason}").format(reason=torch.reason)
    build = (
        f"CUDA {torch.cuda}"
        if torch.cuda
        else f"ROCm {torch.hip}"
        if torch.hip
        else translate("ProbeReport", "CPU only")
    )
    return f"PyTorch {torch.version} ({build})"


def _when(started_at: str) -> str:
    """'2026-11-26 06:53 (UTC+01:00)' from the ISO time a run records."""
    try:
        moment = datetime.fromisoformat(started_at)
    except ValueError:
        return started_at
    offset = moment.isoformat()[19:]
    return f"{moment:%Y-%m-%d %H:%M}" + (f" (UTC{offset})" if offset else "")


def _took(run: ProbeRun) -> str:
    took = duration(run.seconds)
    if run.cancelled:
        return translate("ProbeReport", "cancelled after {took}").format(took=took)
    if run.budget_s is None:
        return translate("ProbeReport", "took {took}").format(took=took)
    said = (
        translate("ProbeReport", "took {took}, over its {budget} budget")
        if run.seconds > run.budget_s
        else translate("ProbeReport", "took {took} of {budget}")
    )
    return said.format(took=took, budget=duration(run.budget_s))


def _figure_counts(results: Sequence[BenchmarkResult]) -> str:
    measured = [r for r in results if r.status == "ok" and r.value is not None]
    unstable = sum(not stability(r).stable for r in measured)
    parts = [translate("ProbeReport", "{n} measured").format(n=len(measured))]
    parts += [translate("ProbeReport", "{n} unstable (not judged)").format(n=unstable)] * bool(unstable)
    if n := sum(r.status == "skipped" for r in results):
        parts.append(translate("ProbeReport", "{n} skipped").format(n=n))
    if n := sum(r.status == "failed" for r in results):
        parts.append(translate("ProbeReport", "{n} failed").format(n=n))
    return " · ".join(parts)


# -- verdicts and benchmarks ----------------------------------------------------------------------


def _status(status: str) -> str:
    colour = STATUS_COLOURS.get(status, STATUS_COLOURS["info"])
    return f"<b style='color:{colour}'>{escape(status_word(status).upper())}</b>"


def _long(threshold: str) -> str:
    """A threshold too long to repeat in each row it judges (it is written once, under the notes)."""
    return threshold if len(threshold) > LONG_THRESHOLD else ""


def _verdict_row(verdict: Verdict, notes: list[str]) -> str:
    """Status, check, subject, and the result with what to do, the threshold and where it comes from."""
    result = escape(verdict.message)
    if verdict.advice:
        advice = translate("ProbeReport", "What to do: {advice}").format(advice=verdict.advice)
        result += f"<br><span class='advice'>{escape(advice)}</span>"
    basis = []
    if verdict.threshold:
        threshold = (
            translate("ProbeReport", "Threshold [{n}]").format(n=notes.index(verdict.threshold) + 1)
            if verdict.threshold in notes
            else translate("ProbeReport", "Threshold: {threshold}").format(threshold=verdict.threshold)
        )
        basis.append(escape(threshold))
    if verdict.source:
        basis.append(escape(translate("ProbeReport", "source [{n}]").format(n=notes.index(verdict.source) + 1)))
    if basis:
        result += f"<br><span class='note'>{' · '.join(basis)}</span>"
    cells = (_status(verdict.status), escape(verdict.check), escape(verdict.subject), result)
    return "<tr>" + "".join(_cell(c) for c in cells) + "</tr>"


def _names(results: Sequence[BenchmarkResult]) -> list[str]:
    """Each result's benchmark, named once for the rows of one benchmark (empty below its first)."""
    names = [benchmark_name(r.name) for r in results]
    return [name if i == 0 or name != names[i - 1] else "" for i, name in enumerate(names)]


def _benchmark_rows(results: Sequence[BenchmarkResult]) -> list[str]:
    """One row per figure, and under an unstable one, why."""
    return [row for result, name in zip(results, _names(results), strict=True) for row in _benchmark_row(result, name)]


def _benchmark_row(result: BenchmarkResult, name: str) -> list[str]:
    """A figure with its unit, spread and samples; why it has none; or, under an unstable one, why."""
    named = (name, result.dtype, variant_name(result.variant), result.device)
    if result.status != "ok" or result.value is None:
        reason = _cell(f"<span class='muted'>{escape(_not_measured(result))}</span>", span=4)
        return ["<tr>" + "".join(_cell(escape(c)) for c in named) + reason + "</tr>"]
    judged = stability(result)
    spread = judged.spread
    joined = "" if judged.stable else "joined"  # to the line below that says why it is unstable
    cells = [_cell(escape(c), css=joined) for c in named] + [
        _cell(escape(figure(result.value)), True, "" if judged.stable else "unstable joined"),
        _cell(escape(result.unit), css=joined),
        _cell(escape(percent(spread.spread) if spread else MISSING), True, joined),
        _cell(str(spread.samples if spread else len(result.samples) or MISSING), True, joined),
    ]
    rows = ["<tr>" + "".join(cells) + "</tr>"]
    if not judged.stable:
        unstable = translate("ProbeReport", "Unstable:")
        why = f"<span class='unstable'><b>{escape(unstable)}</b> {escape(judged.why)}</span>"
        rows.append(f"<tr>{_cell('')}{_cell(why, span=len(BENCHMARK_COLUMNS) - 1)}</tr>")
    return rows


def _not_measured(result: BenchmarkResult) -> str:
    word = status_word(result.status) if result.status != "ok" else translate("ProbeReport", "no figure")
    return (
        translate("ProbeReport", "{status}: {reason}").format(status=word, reason=result.reason)
        if result.reason
        else word
    )


def _benchmark_legend() -> str:
    limits = references().thresholds
    return translate(
        "ProbeReport",
        "Value: the median of the samples (each a timed repeat). Spread: half the range of the middle half of "
        "the samples, as a share of the median. A figure is unstable, and not judged, when it spreads more than "
        "±{spread:.0f} % or, for a figure of the CPU, when other processes took more than "
        "{busy:.0f} % of the CPUs while it was measured.",
    ).format(spread=100 * limits["stable_spread"], busy=100 * limits["busy_share"])


def _happenings(run: ProbeRun) -> list[str]:
    """What else the machine did during the run; what may have disturbed the figures stands out."""
    happenings = run.what_else()
    if not happenings:
        return []
    rows = []
    for h in happenings:
        css = "notable" if h.notable else ""
        topic = f"<b>{escape(h.topic)}</b>" if h.notable else escape(h.topic)
        rows.append(f"<tr>{_cell(topic, css=css)}{_cell(escape(h.text), css=css)}</tr>")
    return [_heading("h2", translate("ProbeReport", "What else was happening")), _table(HAPPENING_COLUMNS, rows)]


# -- the machine ----------------------------------------------------------------------------------


def _machine(run: ProbeRun) -> list[str]:
    parts = []
    for title, fields in machine_groups(run.system, run.devices, run.torch):
        rows = [_field_row(f) for f in fields]
        parts += [
            f"<h3>{escape(title)}</h3>",
            f"<table class='grid' width='100%' cellspacing='0' cellpadding='3'>{''.join(rows)}</table>",
        ]
    return parts


def _field_row(field: Field) -> str:
    """A label and its value; a heading row names the part of the machine the rows below describe."""
    value = f"<span class='muted'>{escape(field.value)}</span>" if field.missing else escape(field.value)
    if field.heading and not field.value:
        return f"<tr>{_cell(escape(field.label), css='part', span=2)}</tr>"
    label = f"<td width='36%' class='{'part' if field.heading else 'label'}'>{escape(field.label)}</td>"
    return f"<tr>{label}{_cell(value, css='part' if field.heading else '')}</tr>"


def _notes(notes: Sequence[str]) -> list[str]:
    """The verdicts' long thresholds and their sources, numbered as the verdicts cite them."""
    if not notes:
        return []
    listed = "".join(f"<p class='note'>[{n}] {escape(note)}</p>" for n, note in enumerate(notes, 1))
    return [_heading("h2", translate("ProbeReport", "Thresholds and sources")), listed]


# -- two runs -------------------------------------------------------------------------------------


Pair = tuple[BenchmarkResult, BenchmarkResult | None, BenchmarkResult | None]


def _pairs(a: ProbeRun, b: ProbeRun) -> list[Pair]:
    """Each benchmark either run has, as (the result that names it, its result in a, its result in b), in a's
    order then b's."""
    first = {r.key: r for r in a.results}
    second = {r.key: r for r in b.results}
    both = first | {k: r for k, r in second.items() if k not in first}
    return [(shown, first.get(key), second.get(key)) for key, shown in both.items()]


def _measured(result: BenchmarkResult | None) -> float | None:
    return result.value if result is not None and result.status == "ok" else None


def compare_rows(a: ProbeRun, b: ProbeRun) -> list[tuple[str, float | None, float | None, str, float | None]]:
    """(benchmark label, value in a, value in b, unit, b / a) for every benchmark either run has."""
    rows = []
    for shown, x, y in _pairs(a, b):
        va, vb = _measured(x), _measured(y)
        rows.append((shown.label, va, vb, shown.unit, vb / va if va and vb is not None else None))
    return rows


def compare_html(a: ProbeRun, b: ProbeRun) -> str:
    """Two runs side by side: each run's summary, then every benchmark with both figures, their spreads and
    the second over the first; a change between stable figures larger than a stable figure may spread is
    highlighted, a ratio involving an unstable figure is muted and marked."""
    facts = [(label, escape(x), escape(y)) for (label, x), (_, y) in zip(_run_facts(a), _run_facts(b), strict=True)]
    rows = [facts[0], (translate("ProbeReport", "Verdicts"), _tally(a), _tally(b)), *facts[1:]]
    head = "".join(f"<tr>{_cell(escape(label), css='label')}{_cell(x)}{_cell(y)}</tr>" for label, x, y in rows)
    pairs = _pairs(a, b)
    names = _names([shown for shown, _, _ in pairs])
    body = [_compare_row(pair, name) for pair, name in zip(pairs, names, strict=True)]
    title = translate("ProbeReport", "gpuconfig probe: {first_host} {first_started} against {host} {started}")
    first = translate("ProbeReport", "First: {host}, {suite} suite").format(host=a.host, suite=a.suite)
    second = translate("ProbeReport", "Second: {host}, {suite} suite").format(host=b.host, suite=b.suite)
    return _page(
        title.format(first_host=a.host, first_started=a.started_at, host=b.host, started=b.started_at),
        [
            _heading("h1", translate("ProbeReport", "Probe runs compared")),
            "<table class='grid' width='100%' cellspacing='0' cellpadding='3'>"
            f"<thead><tr><th width='12%'></th>{_run_title(first)}{_run_title(second)}</tr></thead>"
            f"{head}</table>",
            _heading("h2", translate("ProbeReport", "Benchmarks")),
            _table(COMPARE_COLUMNS, body),
            f"<p class='note'>{escape(_compare_legend())}</p>",
        ],
    )


def _tally(run: ProbeRun) -> str:
    counts = run.counts
    return f"{_status(_worst(counts))} {escape(tally(counts))}"


def _run_title(title: str) -> str:
    """'First: lab-7, quick suite' over a run's column."""
    return f"<th width='44%' align='left'>{escape(title)}</th>"


def _compare_row(pair: Pair, name: str) -> str:
    """A benchmark's figure in each run (`name` empty under a row of the same benchmark) and their ratio."""
    shown, x, y = pair
    kind = ", ".join(p for p in (shown.dtype, variant_name(shown.variant)) if p)
    cells = [_cell(escape(c)) for c in (name, kind, shown.device)]
    for result in (x, y):
        cells += _side(result)
    cells += [_cell(escape(shown.unit)), _cell(_change(x, y), True)]
    return "<tr>" + "".join(cells) + "</tr>"


def _side(result: BenchmarkResult | None) -> list[str]:
    """One run's figure and spread, or why it has none."""
    if result is None:
        return [_cell(MISSING, True), _cell("", True)]
    if result.status != "ok" or result.value is None:
        return [_cell(f"<span class='muted'>{escape(status_word(result.status))}</span>", True), _cell("", True)]
    judged = stability(result)
    spread = percent(judged.spread.spread) if judged.spread else MISSING
    return [_cell(escape(figure(result.value)), True, "" if judged.stable else "unstable"), _cell(spread, True)]


def _change(x: BenchmarkResult | None, y: BenchmarkResult | None) -> str:
    """The second figure over the first: highlighted when both are stable and it moved by more than a stable
    figure may spread; muted and marked when either figure is unstable."""
    va, vb = _measured(x), _measured(y)
    if x is None or y is None or not va or vb is None:
        return MISSING
    text = escape(ratio(vb / va))
    if not (stability(x).stable and stability(y).stable):
        unstable = translate("ProbeReport", "unstable")
        return f"<span class='muted'>{text}<br>{escape(unstable)}</span>"
    if abs(vb / va - 1) > references().thresholds["stable_spread"]:
        return f"<span class='{'up' if vb > va else 'down'}'>{text}</span>"
    return text


def _compare_legend() -> str:
    return translate(
        "ProbeReport",
        "Second / first: the second run's median over the first's. Between two stable figures a change of more "
        "than ±{spread:.0f} % is highlighted (green: higher, red: lower). A ratio involving an unstable figure is "
        "muted and marked unstable: it is no finding. Spread: half the range of the middle half of the samples, "
        "as a share of the median.",
    ).format(spread=100 * references().thresholds["stable_spread"])
