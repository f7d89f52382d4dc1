"""A build as a document people keep or paste: Markdown, standalone HTML, CSV and JSON.

Each takes the resolved build, its totals, its power budget and the checker's problems, as the Build
tab and the CLI compute them; `rate` must be the exchange rate the totals were computed with, so the
lines add up to the total. Unpriced parts read "unpriced" and are named under the total, never as 0.
"""

from __future__ import annotations

import csv
import datetime as dt
import io
from collections.abc import Sequence
from html import escape
from typing import Any

from gpuconfig import __version__
from gpuconfig.core.build.check import Problem, verdict
from gpuconfig.core.build.model import Resolved, Totals
from gpuconfig.core.build.power import PowerBudget
from gpuconfig.core.build.records import power_record
from gpuconfig.core.build.sheet import Sheet, build_sheet
from gpuconfig.core.catalog.schema import Schema
from gpuconfig.core.i18n import QT_TRANSLATE_NOOP, html_language, translate
from gpuconfig.core.markdown import md_line, md_text
from gpuconfig.core.money import ExchangeRate, format_money


def _t(text: str) -> str:
    """Only for texts marked where they are written (the tables below): translate() marks the rest for lupdate."""
    return translate(CONTEXT, text)


CONTEXT = "BuildExport"
SEVERITY_NAMES = {
    "fail": QT_TRANSLATE_NOOP("BuildExport", "Problem"),
    "warn": QT_TRANSLATE_NOOP("BuildExport", "Warning"),
    "info": QT_TRANSLATE_NOOP("BuildExport", "Note"),
}


def unpriced_word() -> str:
    return translate("BuildExport", "unpriced")


def _money(amount: float | None, currency: str) -> str:
    return unpriced_word() if amount is None else format_money(amount, currency)


def total_text(totals: Totals) -> str:
    """'$5,199' or '$5,199 + 2 unpriced parts'."""
    text = format_money(totals.amount, totals.currency)
    if totals.unpriced:
        n = len(totals.unpriced)
        more = (
            translate("BuildExport", " + {n} unpriced parts")
            if n > 1
            else translate("BuildExport", " + 1 unpriced part")
        )
        text += more.format(n=n)
    return text


def power_lines(budget: PowerBudget) -> list[str]:
    """The power budget in a few sentences."""
    basis = budget.cpu_basis_short
    cpu = (
        translate("BuildExport", "CPU {watts:,} W at its {basis}").format(watts=budget.cpu_w, basis=basis)
        if budget.cpu_w
        else translate("BuildExport", "no CPU")
    )
    lines = [
        translate(
            "BuildExport", "Sustained draw: {sustained:,} W (GPUs {gpu:,} W, {cpu}, rest of the system {rest:,} W)."
        ).format(sustained=budget.sustained_w, gpu=budget.gpu_w, cpu=cpu, rest=budget.rest_w),
    ]
    generation = "ATX 3.x" if budget.atx3 is not False else "ATX 2.x"
    supply = (
        translate("BuildExport", "Power supply: {watts:,} W").format(watts=budget.psu_w)
        if budget.psu_w is not None
        else translate("BuildExport", "Power supply: none in the build")
    )
    lines.append(
        translate("BuildExport", "{supply}; this build needs {required:,} W from an {generation} supply.").format(
            supply=supply, required=budget.required_w, generation=generation
        )
    )
    if budget.wall_w is not None and budget.efficiency is not None:
        lines.append(
            translate(
                "BuildExport",
                "At the wall: about {wall:,} W at {efficiency:.0%} efficiency; "
                "a {circuit} circuit carries {watts:,} W continuously.",
            ).format(
                wall=budget.wall_w,
                efficiency=budget.efficiency,
                circuit=budget.circuit.title,
                watts=budget.circuit.watts,
            )
        )
    else:
        lines.append(
            translate("BuildExport", "Circuit: {circuit}, {watts:,} W continuous.").format(
                circuit=budget.circuit.title, watts=budget.circuit.watts
            )
        )
    return lines


def _rate_note(totals: Totals, rate: ExchangeRate | None) -> str:
    if not totals.converted or rate is None:
        return ""
    origin = translate("BuildExport", "your rate") if rate.user_set else f"{rate.date}, {rate.source}"
    return translate("BuildExport", "Converted at 1 USD = {rate:g} CNY ({origin}).").format(
        rate=rate.rate, origin=origin
    )


def _made_with() -> str:
    return translate(
        "BuildExport", "Made with gpuconfig {version} on {date}; prices from the catalog and its sources."
    ).format(version=__version__, date=_today())


def _headers() -> tuple[str, ...]:
    """The parts table's columns: part, name, key specs, quantity, unit price, total."""
    return (
        translate("BuildExport", "Part"),
        translate("BuildExport", "Name"),
        translate("BuildExport", "Key specs"),
        translate("BuildExport", "Qty"),
        translate("BuildExport", "Unit price"),
        translate("BuildExport", "Total"),
    )


def _today() -> str:
    return dt.date.today().isoformat()


# -- Markdown -------------------------------------------------------------------------------------


def build_markdown(
    resolved: Resolved,
    totals: Totals,
    budget: PowerBudget | None,
    problems: Sequence[Problem],
    *,
    rate: ExchangeRate | None = None,
    schema: Schema | None = None,
) -> str:
    sheet = build_sheet(resolved, totals.currency, rate, schema)
    out = [f"# {md_line(sheet.name)}", ""]
    out += ["| " + " | ".join(_headers()) + " |", "|---|---|---|---:|---:|---:|"]
    for line in sheet.lines:
        out.append(
            f"| {md_line(line.kind_label)} | {md_line(line.part.name)} | {md_line(line.specs_text)} | {line.count} "
            f"| {_money(line.unit_price, sheet.currency)} | {_money(line.line_total, sheet.currency)} |"
        )
    total = md_line(format_money(totals.amount, totals.currency))
    total_word = translate("BuildExport", "Total")
    out.append(f"| **{total_word}** | | | | | **{total}** |")
    out.append("")
    if totals.unpriced:
        names = md_line(", ".join(_unpriced_names(sheet, totals)))
        out.append(translate("BuildExport", "Unpriced, not in the total: {names}.").format(names=names))
    if note := _rate_note(totals, rate):
        out.append(md_line(note))
    if budget is not None:
        out += ["", "## " + translate("BuildExport", "Power"), ""] + [f"- {line}" for line in power_lines(budget)]
    out += ["", "## " + translate("BuildExport", "Checks"), ""]
    if not problems:
        out.append(translate("BuildExport", "Every compatibility and power rule passes."))
    for p in problems:
        text = f"- **{_t(SEVERITY_NAMES[p.severity])}:** {md_line(p.message)}"
        if p.fix:
            text += " *" + translate("BuildExport", "Fix:") + f"* {md_line(p.fix)}"
        if p.source:
            text += " " + translate("BuildExport", "(source: {source})").format(source=md_line(p.source))
        out.append(text)
    if resolved.build.notes:
        out += ["", "## " + translate("BuildExport", "Notes"), "", md_text(resolved.build.notes)]
    out += ["", f"*{_made_with()}*", ""]
    return "\n".join(out)


def _unpriced_names(sheet: Sheet, totals: Totals) -> list[str]:
    return [line.part.name for line in sheet.lines if line.part.id in totals.unpriced]


# -- HTML -----------------------------------------------------------------------------------------

_CSS = """
body { font-family: 'DejaVu Sans', 'Segoe UI', Helvetica, Arial, 'Noto Sans CJK SC', 'Microsoft YaHei', 'PingFang SC',
  sans-serif; color: #1d2330; font-size: 10pt; }
h1 { font-size: 18pt; margin-bottom: 2px; }
h2 { font-size: 13pt; margin-top: 18px; margin-bottom: 6px; }
.meta { color: #5f6b7a; }
table.parts { border-collapse: collapse; width: 100%; }
table.parts th { background-color: #eceef2; text-align: left; padding: 5px 8px; border-bottom: 1px solid #c7ccd4; }
table.parts td { padding: 5px 8px; border-bottom: 1px solid #e3e6eb; vertical-align: top; }
td.num, th.num { text-align: right; white-space: nowrap; }
td.specs { color: #5f6b7a; }
tr.total td { font-weight: bold; border-top: 2px solid #1d2330; border-bottom: none; }
.unpriced { color: #9a6700; font-style: italic; }
.fail { color: #c62828; font-weight: bold; }
.warn { color: #9a6700; font-weight: bold; }
.info { color: #1f5fc4; font-weight: bold; }
.fix { color: #2e7d32; }
.source { color: #5f6b7a; font-size: 8pt; }
p.problem { margin-top: 4px; margin-bottom: 6px; }
"""


def _power_bar_html(budget: PowerBudget) -> str:
    """The sustained draw against the supply's rating, as a bar of two table cells."""
    if not budget.psu_w:
        return ""
    share = min(budget.sustained_w / budget.psu_w, 1.0)
    used = max(int(share * 100), 1)
    color = "#c62828" if budget.required_w > budget.psu_w else "#9a6700" if share > 0.8 else "#2e7d32"
    rest = f'<td width="{100 - used}%" bgcolor="#e3e6eb"></td>' if used < 100 else ""
    return (
        '<table width="100%" cellspacing="0" cellpadding="0" style="margin-bottom: 6px">'
        f'<tr><td width="{used}%" bgcolor="{color}" height="12"></td>{rest}</tr></table>'
        '<p class="meta">'
        + escape(
            translate(
                "BuildExport", "{sustained:,} W of {psu:,} W ({share:.0%}); the build needs a {required:,} W rating."
            )
        ).format(sustained=budget.sustained_w, psu=budget.psu_w, share=share, required=budget.required_w)
        + "</p>"
    )


def build_html(
    resolved: Resolved,
    totals: Totals,
    budget: PowerBudget | None,
    problems: Sequence[Problem],
    *,
    rate: ExchangeRate | None = None,
    schema: Schema | None = None,
) -> str:
    """A standalone HTML document (inline CSS, no scripts or remote files); every text is escaped."""
    sheet = build_sheet(resolved, totals.currency, rate, schema)
    cur = sheet.currency
    rows = []
    for line in sheet.lines:
        unit = _money(line.unit_price, cur)
        total = _money(line.line_total, cur)
        cls = ' class="num unpriced"' if line.unit_price is None else ' class="num"'
        rows.append(
            f"<tr><td>{escape(line.kind_label)}</td><td>{escape(line.part.name)}</td>"
            f'<td class="specs">{escape(line.specs_text)}</td><td class="num">{line.count}</td>'
            f'<td{cls} title="{escape(line.price_note)}">{escape(unit)}</td><td{cls}>{escape(total)}</td></tr>'
        )
    rows.append(
        '<tr class="total"><td colspan="5">' + escape(translate("BuildExport", "Total")) + "</td>"
        f'<td class="num">{escape(format_money(totals.amount, totals.currency))}</td></tr>'
    )
    after = []
    if totals.unpriced:
        names = ", ".join(_unpriced_names(sheet, totals))
        unpriced = translate("BuildExport", "Unpriced, not in the total: {names}.").format(names=names)
        after.append(f'<p class="unpriced">{escape(unpriced)}</p>')
    if note := _rate_note(totals, rate):
        after.append(f'<p class="meta">{escape(note)}</p>')
    power = ""
    if budget is not None:
        power = (
            "<h2>"
            + escape(translate("BuildExport", "Power"))
            + "</h2>"
            + _power_bar_html(budget)
            + "".join(f"<p>{escape(line)}</p>" for line in power_lines(budget))
        )
    checks = []
    fix_word, source_word = translate("BuildExport", "Fix:"), translate("BuildExport", "Source:")
    for p in problems:
        fix = f' <span class="fix">{escape(fix_word)} {escape(p.fix)}</span>' if p.fix else ""
        source = f'<br><span class="source">{escape(source_word)} {escape(p.source)}</span>' if p.source else ""
        checks.append(
            f'<p class="problem"><span class="{p.severity}">{escape(_t(SEVERITY_NAMES[p.severity]))}:</span> '
            f"{escape(p.message)}{fix}{source}</p>"
        )
    if not checks:
        passes = translate("BuildExport", "Every compatibility and power rule passes.")
        checks.append(f'<p class="fix">{escape(passes)}</p>')
    notes_title = translate("BuildExport", "Notes")
    notes = f"<h2>{escape(notes_title)}</h2><p>{escape(resolved.build.notes)}</p>" if resolved.build.notes else ""
    meta = translate("BuildExport", "{n} lines · prices in {currency}").format(n=len(sheet.lines), currency=cur)
    if budget is not None:
        meta += translate("BuildExport", " · circuit: {circuit}").format(circuit=budget.circuit.title)
    head = _headers()
    checks_title = translate("BuildExport", "Checks")
    header_row = "".join(
        f'<th class="num">{escape(h)}</th>' if i >= 3 else f"<th>{escape(h)}</th>" for i, h in enumerate(head)
    )
    return f"""<!DOCTYPE html>
<html lang="{html_language()}"><head><meta charset="utf-8"><title>{escape(sheet.name)}</title>
<style>{_CSS}</style></head>
<body>
<h1>{escape(sheet.name)}</h1>
<p class="meta">{escape(meta)}</p>
<table class="parts" cellspacing="0" cellpadding="5" width="100%">
<tr>{header_row}</tr>
{"".join(rows)}
</table>
{"".join(after)}
{power}
<h2>{escape(checks_title)}</h2>
{"".join(checks)}
{notes}
<p class="source">{escape(_made_with())}</p>
</body></html>
"""


# -- CSV ------------------------------------------------------------------------------------------

# The CSV's columns. In English they are the identifiers scripts read; --lang zh_CN writes them for people.
CSV_HEADER = (
    QT_TRANSLATE_NOOP("BuildExport", "kind"),
    QT_TRANSLATE_NOOP("BuildExport", "part"),
    QT_TRANSLATE_NOOP("BuildExport", "id"),
    QT_TRANSLATE_NOOP("BuildExport", "key_specs"),
    QT_TRANSLATE_NOOP("BuildExport", "count"),
    QT_TRANSLATE_NOOP("BuildExport", "unit_price"),
    QT_TRANSLATE_NOOP("BuildExport", "line_total"),
    QT_TRANSLATE_NOOP("BuildExport", "currency"),
    QT_TRANSLATE_NOOP("BuildExport", "price_note"),
)


def build_csv(
    resolved: Resolved,
    totals: Totals,
    budget: PowerBudget | None,
    problems: Sequence[Problem],
    *,
    rate: ExchangeRate | None = None,
    schema: Schema | None = None,
) -> str:
    """One row per line, then a total row; an unpriced part has empty price cells, never 0."""
    sheet = build_sheet(resolved, totals.currency, rate, schema)
    out = io.StringIO()
    writer = csv.writer(out, lineterminator="\n")
    writer.writerow([_t(name) for name in CSV_HEADER])

    def number(value: float | None) -> str:
        return "" if value is None else f"{value:.2f}"

    for line in sheet.lines:
        writer.writerow(
            (
                line.kind,
                line.part.name,
                line.part.id,
                line.specs_text,
                line.count,
                number(line.unit_price),
                number(line.line_total),
                sheet.currency,
                line.price_note,
            )
        )
    names = ", ".join(_unpriced_names(sheet, totals))
    unpriced = (
        translate("BuildExport", "unpriced, not in the total: {names}").format(names=names) if totals.unpriced else ""
    )
    writer.writerow(
        (translate("BuildExport", "total"), "", "", "", "", "", number(totals.amount), totals.currency, unpriced)
    )
    return out.getvalue()


# -- JSON -----------------------------------------------------------------------------------------


def _money_json(amount: float | None, currency: str) -> dict[str, Any]:
    return {"amount": None if amount is None else round(amount, 2), "currency": currency}


def build_json(
    resolved: Resolved,
    totals: Totals,
    budget: PowerBudget | None,
    problems: Sequence[Problem],
    *,
    rate: ExchangeRate | None = None,
    schema: Schema | None = None,
) -> dict[str, Any]:
    """The build file (build_from_json reads it back) plus what gpuconfig computed from it: the priced
    lines, the totals, the power budget (as `gpuconfig build check --json` words it), the problems and the
    verdict. Those are recomputed when the file is opened."""
    sheet = build_sheet(resolved, totals.currency, rate, schema)
    data = resolved.build.to_json()
    data["currency"] = totals.currency
    data["lines"] = [
        {
            "id": line.part.id,
            "kind": line.kind,
            "name": line.part.name,
            "count": line.count,
            "key_specs": {s.key: s.text for s in line.specs},
            "unit_price": _money_json(line.unit_price, sheet.currency),
            "line_total": _money_json(line.line_total, sheet.currency),
            "price_note": line.price_note,
        }
        for line in sheet.lines
    ]
    data["totals"] = {
        **_money_json(totals.amount, totals.currency),
        "unpriced": list(totals.unpriced),
        "converted": totals.converted,
        "exchange_rate": None
        if rate is None
        else {"base": rate.base, "quote": rate.quote, "rate": rate.rate, "date": rate.date, "source": rate.source},
    }
    if budget is not None:
        data["power"] = power_record(budget)
    data["problems"] = [p.to_json() for p in problems]
    data["verdict"] = verdict(problems)
    data["exported"] = {"by": f"gpuconfig {__version__}", "date": _today()}
    return data
