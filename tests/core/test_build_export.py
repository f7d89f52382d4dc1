"""Build exports: what a user pastes or keeps says what the Build tab says, and reads back as the same build."""

from __future__ import annotations

import csv
import io
import json
from dataclasses import replace
from html import escape
from html.parser import HTMLParser

import pytest

from gpuconfig.core.build.check import check
from gpuconfig.core.build.export import build_csv, build_html, build_json, build_markdown
from gpuconfig.core.build.model import Build, BuildLine, build_from_json, resolve, totals
from gpuconfig.core.build.power import power_budget
from gpuconfig.core.build.rules import build_rules
from gpuconfig.core.build.sheet import KEY_SPECS, build_sheet, key_specs
from gpuconfig.core.egpu.problems import egpu_problems
from gpuconfig.core.userdata.store import Store

TWO_4090 = Build(
    "Two 4090s",
    (
        BuildLine("nvidia-geforce-rtx-4090", 2),
        BuildLine("amd-ryzen-9-9950x"),  # no public price in the catalog
        BuildLine("asus-rog-strix-x870e-e-gaming-wifi"),
        BuildLine("crucial-pro-oc-ddr5-6400-2x32gb"),
        BuildLine("samsung-990-pro-2tb"),
        BuildLine("msi-meg-ai1300p-pcie5"),
        BuildLine("nzxt-h9-flow-2025"),
    ),
    notes="For the lab's LoRA runs.",
)


def _parts(store: Store, build: Build = TWO_4090, currency: str = "USD") -> tuple:  # type: ignore[type-arg]
    resolved = resolve(build, store.part)
    rules = build_rules()
    rate = store.exchange_rate()
    return (
        resolved,
        totals(resolved, currency, rate),
        power_budget(resolved, rules, build.circuit),
        check(resolved, rules, egpu_check=egpu_problems),
    ), {"rate": rate, "schema": store.schema}


def test_json_reads_back_as_the_same_build(store: Store) -> None:
    args, kw = _parts(store)
    data = build_json(*args, **kw)
    again = build_from_json(json.loads(json.dumps(data)), "export.json")
    assert again == TWO_4090
    assert data["totals"]["currency"] == "USD"
    assert data["power"]["sustained_w"] == args[2].sustained_w
    assert data["power"]["circuit"]["id"] == TWO_4090.circuit
    assert [p["rule"] for p in data["problems"]] == [p.rule for p in args[3]]
    assert data["verdict"] == ("fail" if any(p.severity == "fail" for p in args[3]) else "warn")
    assert {line["id"] for line in data["lines"]} == {line.part_id for line in TWO_4090.lines}


def test_unpriced_parts_read_unpriced_not_zero(store: Store) -> None:
    args, kw = _parts(store)
    cpu = store.part("amd-ryzen-9-9950x")
    assert cpu is not None and cpu.price is None
    assert args[1].unpriced == ("amd-ryzen-9-9950x",)

    markdown = build_markdown(*args, **kw)
    row = next(line for line in markdown.splitlines() if "Ryzen 9 9950X" in line and line.startswith("| CPU"))
    assert row.count("unpriced") == 2 and "$0" not in row
    assert "Unpriced, not in the total: Ryzen 9 9950X." in markdown

    rows = list(csv.reader(io.StringIO(build_csv(*args, **kw))))
    cpu_row = next(r for r in rows if r[2] == "amd-ryzen-9-9950x")
    assert cpu_row[5:7] == ["", ""] and cpu_row[8] == "no public price"
    assert "Ryzen 9 9950X" in rows[-1][8]

    data = build_json(*args, **kw)
    line = next(x for x in data["lines"] if x["id"] == "amd-ryzen-9-9950x")
    assert line["unit_price"] == {"amount": None, "currency": "USD"}
    assert data["totals"]["unpriced"] == ["amd-ryzen-9-9950x"]

    assert '<td class="num unpriced"' in build_html(*args, **kw)


def test_lines_add_up_to_the_total_in_every_format(store: Store) -> None:
    args, kw = _parts(store)
    resolved, total = args[0], args[1]
    priced = [i for i in resolved.items if i.part.price is not None]
    expected = sum(i.part.price.amount * i.count for i in priced)  # type: ignore[union-attr]
    assert total.amount == pytest.approx(expected)
    rows = list(csv.DictReader(io.StringIO(build_csv(*args, **kw))))
    lines = [r for r in rows if r["kind"] != "total"]
    assert sum(float(r["line_total"]) for r in lines if r["line_total"]) == pytest.approx(expected, abs=0.01)
    assert float(rows[-1]["line_total"]) == pytest.approx(expected, abs=0.01)
    gpu = next(r for r in lines if r["kind"] == "gpu")
    assert gpu["count"] == "2" and float(gpu["line_total"]) == 2 * float(gpu["unit_price"])
    assert f"**${expected:,.0f}**" in build_markdown(*args, **kw)
    data = build_json(*args, **kw)
    assert data["totals"]["amount"] == pytest.approx(expected, abs=0.01)


def test_prices_in_another_currency_are_converted_and_say_so(store: Store) -> None:
    store.user.set_price_override("nvidia-geforce-rtx-4090", 14_000, "CNY")
    rate = store.exchange_rate()
    assert rate is not None
    args, kw = _parts(store)
    assert args[1].converted
    gpu = next(line for line in build_sheet(args[0], "USD", rate).lines if line.kind == "gpu")
    assert gpu.unit_price == pytest.approx(14_000 / rate.rate)
    assert f"at {rate.rate:g} CNY/USD" in gpu.price_note and "your price" in gpu.price_note
    assert f"Converted at 1 USD = {rate.rate:g} CNY" in build_markdown(*args, **kw)
    cny, _ = _parts(store, currency="CNY")
    assert build_json(*cny, **kw)["totals"]["currency"] == "CNY"
    assert "¥" in build_markdown(*cny, **kw)


def test_power_and_problems_are_in_every_document(store: Store) -> None:
    args, kw = _parts(store)
    budget, problems = args[2], args[3]
    assert any(p.fix and p.source for p in problems)
    markdown, html = build_markdown(*args, **kw), build_html(*args, **kw)
    for text in (markdown, html):
        assert f"{budget.sustained_w:,} W" in text
        assert f"{budget.required_w:,} W" in text
    for p in problems:
        assert f"*Fix:* {p.fix}" in markdown
        assert escape(p.message) in html and escape(p.fix) in html
        if p.source:
            assert f"(source: {p.source})" in markdown and escape(p.source) in html


class _Text(HTMLParser):
    def __init__(self) -> None:
        super().__init__()
        self.tags: list[str] = []
        self.text: list[str] = []

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        self.tags.append(tag)

    def handle_data(self, data: str) -> None:
        self.text.append(data)


def test_everything_a_user_typed_is_escaped(store: Store) -> None:
    nasty = replace(TWO_4090, name='<script>alert("x")</script> | a, "b"', notes="<b>bold</b> & more")
    args, kw = _parts(store, nasty)
    html = build_html(*args, **kw)
    parser = _Text()
    parser.feed(html)
    assert "script" not in parser.tags and "b" not in parser.tags
    assert '<script>alert("x")</script> | a, "b"' in "".join(parser.text)
    assert "&lt;b&gt;bold&lt;/b&gt; &amp; more" in html
    assert html.startswith("<!DOCTYPE html>") and "<style>" in html and "http" not in html.split("<body>")[0]

    markdown = build_markdown(*args, **kw)  # Markdown renders raw HTML: it must arrive as text
    assert markdown.splitlines()[0] == '# &lt;script&gt;alert("x")&lt;/script&gt; \\| a, "b"'
    assert "&lt;b&gt;bold&lt;/b&gt; &amp; more" in markdown
    assert "<script" not in markdown and "<b>" not in markdown

    data = build_json(*args, **kw)
    assert build_from_json(json.loads(json.dumps(data))).name == nasty.name


def test_key_specs_use_the_schema_units(store: Store) -> None:
    gpu = store.part("nvidia-geforce-rtx-4090")
    assert gpu is not None
    texts = [s.text for s in key_specs(gpu, store.schema)]
    assert texts[0] == "24 GB" and texts[-1] == "450 W"
    for kind, fields in KEY_SPECS.items():
        spec = store.schema[kind]
        assert all(spec.field(key) is not None for key, _ in fields), kind
        assert 2 <= len(fields) <= 4
        for part in store.parts(kind):
            assert key_specs(part, store.schema), part.id  # every part has some key figure


def test_a_line_priced_more_than_six_months_ago_says_so(store: Store) -> None:
    from gpuconfig.core.catalog.age import is_stale

    args, _ = _parts(store)
    lines = build_sheet(args[0], "USD", store.exchange_rate()).lines
    priced = [line for line in lines if line.unit_price is not None and line.part.price_origin == "catalog"]
    assert priced
    for line in priced:
        price = line.part.price_for("USD")
        said = f"price of {price.date}" in line.price_note and "check a current one" in line.price_note
        assert said == is_stale(price), line.part.id
