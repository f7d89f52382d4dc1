"""The probe's HTML report laid out for a reader, checked on a real run: the full suite's JSON report from an
NVIDIA H100 SXM (benchmarks/results/gpu_h100/probe_full.json, recorded on a lent machine).

The report is read back as its sections and their tables' cells, so a figure that runs into its unit, a raw
key where a label belongs, or a change claimed from an unstable figure fails here, not in a reader's PDF.
"""

from __future__ import annotations

import json
from dataclasses import dataclass, replace
from html.parser import HTMLParser
from pathlib import Path
from typing import Any

import pytest

from gpuconfig.probe.labels import ITEM_KEYS, field_label
from gpuconfig.probe.model import BenchmarkResult, Unavailable
from gpuconfig.probe.report import compare_html, html
from gpuconfig.probe.session import ProbeRun

REPORT = Path(__file__).parents[2] / "benchmarks" / "results" / "gpu_h100" / "probe_full.json"


@pytest.fixture(scope="module")
def h100() -> ProbeRun:
    return ProbeRun.from_record(json.loads(REPORT.read_text(encoding="utf-8")))


@dataclass
class Cell:
    """A table cell's text and the classes of it and of the spans in it."""

    text: str
    classes: str


class Page(HTMLParser):
    """A report as its sections (by their <h2> title, "" before the first): each one's text and table rows."""

    def __init__(self) -> None:
        super().__init__()
        self.sections: dict[str, list[list[Cell]]] = {"": []}
        self.texts: dict[str, str] = {"": ""}
        self._section = ""
        self._heading: str | None = None
        self._cell: Cell | None = None

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        if tag == "h2":
            self._heading = ""
        elif tag == "tr":
            self.sections[self._section].append([])
        elif tag in ("td", "th"):
            self._cell = Cell("", dict(attrs).get("class") or "")
        elif tag == "br" and self._cell is not None:
            self._cell.text += " "
        elif tag == "span" and self._cell is not None:
            self._cell.classes += " " + (dict(attrs).get("class") or "")

    def handle_endtag(self, tag: str) -> None:
        if tag == "h2" and self._heading is not None:
            self._section, self._heading = self._heading, None
            self.sections[self._section], self.texts[self._section] = [], ""
        elif tag in ("td", "th") and self._cell is not None:
            self.sections[self._section][-1].append(self._cell)
            self._cell = None

    def handle_data(self, data: str) -> None:
        if self._heading is not None:
            self._heading += data
            return
        self.texts[self._section] += data
        if self._cell is not None:
            self._cell.text += data


def read(page: str) -> Page:
    parsed = Page()
    parsed.feed(page)
    return parsed


def texts(row: list[Cell]) -> list[str]:
    return [c.text.strip() for c in row]


def test_the_verdict_summary_comes_first_and_names_the_machine(h100: ProbeRun) -> None:
    page = html(h100)
    assert list(read(page).sections) == [
        "",
        "Verdicts",
        "Benchmarks",
        "What else was happening",
        "Machine",
        "Thresholds and sources",
    ]
    summary = read(page).texts[""]
    assert "PASS" in summary and "11 pass · 0 warn · 0 fail · 7 info" in summary
    assert page.index("11 pass · 0 warn") < page.index("<h2>Benchmarks</h2>")
    facts = {texts(row)[0]: texts(row)[1] for row in read(page).sections[""] if len(row) == 2}
    assert "1 × NVIDIA H100 80GB HBM3" in facts["Machine"] and "PyTorch 2.11.0+cu130 (CUDA 13.0)" in facts["Machine"]
    assert "Intel(R) Xeon(R) Processor, 16 cores" in facts["Machine"]
    assert facts["Started"] == "2026-11-26 00:55 (UTC+00:00)"
    assert facts["Suite"] == "full · took 67 s"  # this older report kept no budget
    assert facts["Figures"] == "24 measured · 1 skipped"


def test_the_time_is_said_against_the_budget(h100: ProbeRun) -> None:
    def suite(run: ProbeRun) -> str:
        rows = read(html(run)).sections[""]
        return next(texts(r)[1] for r in rows if texts(r)[0] == "Suite")

    assert suite(replace(h100, suite="quick", seconds=52.0, budget_s=60.0)) == "quick · took 52 s of 60 s"
    assert suite(replace(h100, seconds=75.0, budget_s=60.0)) == "full · took 75 s, over its 60 s budget"
    assert suite(replace(h100, seconds=200.0, cancelled=True)) == "full · cancelled after 3 min 20 s"


def test_the_worst_status_leads_the_headline(h100: ProbeRun) -> None:
    failing = replace(h100.verdicts[1], status="fail")
    summary = read(html(replace(h100, verdicts=(failing, *h100.verdicts[2:])))).texts[""]
    assert "FAIL" in summary and "1 check failed" in summary and "PASS" not in summary


def test_verdicts_are_status_check_subject_and_result_with_their_notes(h100: ProbeRun) -> None:
    page = read(html(h100))
    rows = page.sections["Verdicts"]
    assert texts(rows[0]) == ["Status", "Check", "Subject", "Result"]
    matmul = next(texts(r) for r in rows if texts(r)[1] == "Matmul fp32")
    assert matmul[0] == "PASS" and matmul[2] == "cuda:0"
    assert matmul[3].startswith("53.83 TFLOP/s, 104 % of the 52 TFLOP/s")
    # the long threshold and the source are written once, and cited in each row they judge
    note = matmul[3].rsplit("Threshold ", 1)[1]
    threshold, source = (int(part.split("[")[1].rstrip("]")) for part in note.split(" · "))
    notes = page.texts["Thresholds and sources"]
    assert f"[{threshold}] pass at 90%, fail below 75%" in notes and f"[{source}] H100 SXM 80GB" in notes
    assert notes.count("pass at 90%, fail below 75%") == 1


def test_benchmarks_read_as_labelled_aligned_figures_with_units(h100: ProbeRun) -> None:
    rows = read(html(h100)).sections["Benchmarks"]
    assert texts(rows[0]) == ["Benchmark", "Type", "Variant", "Device", "Value", "Unit", "Spread", "Samples"]
    shown = [texts(r) for r in rows[1:]]
    assert ["", "fp8", "", "cuda:0", "1,335", "TFLOP/s", "—", "—"] in shown
    assert ["Memory bandwidth", "", "", "cuda:0", "3,013", "GB/s", "—", "—"] in shown
    fed = next(r for r in shown if r[0] == "Training step fed from host memory")
    assert fed[1:6] == ["fp32", "batch on the device", "cuda:0", "2,612", "samples/s"]
    assert ["", "bf16", "AMP + checkpointing", "cuda:0", "1,003", "samples/s", "—", "—"] in shown
    assert ["", "", "num_workers=2", "cuda:0", "608.3", "samples/s", "—", "—"] in shown
    figures = [r for r in rows[1:] if len(r) == 8]  # a skipped figure's reason spans the value's cells
    assert all(r[i].classes == "num" and r[5].classes == "" for r in figures for i in (4, 6, 7))
    labels = {r[0] for r in shown} - {""}
    assert labels == {
        "Matrix multiply",
        "Memory bandwidth",
        "Host to device copy",
        "Device to host copy",
        "CNN training step",
        "Transformer training step",
        "Training step fed from host memory",
        "DataLoader",
        "Disk sequential read",
        "All-reduce",
    }
    allreduce = next(r for r in rows if texts(r)[0] == "All-reduce")
    assert allreduce[-1].text == "skipped: all-reduce between GPUs needs two or more GPUs and NCCL"
    assert "muted" in allreduce[-1].classes


def test_a_figure_with_samples_shows_its_spread_and_count(h100: ProbeRun) -> None:
    samples = (3000.0, 3010.0, 3013.0, 3020.0, 3030.0)
    results = tuple(replace(r, samples=samples) if r.name == "memory_bandwidth" else r for r in h100.results)
    rows = read(html(replace(h100, results=results))).sections["Benchmarks"]
    assert ["Memory bandwidth", "", "", "cuda:0", "3,013", "GB/s", "±0.2 %", "5"] in [texts(r) for r in rows]


def unstable_matmul(run: ProbeRun) -> ProbeRun:
    """The run with its fp32 matmul's samples spread wide (its median stays its figure)."""
    matmul = next(r for r in run.results if r.name == "matmul" and r.dtype == "fp32")
    wide = replace(matmul, samples=(1.0, 2.0, 3.0, 10.0))
    return replace(run, results=tuple(wide if r is matmul else r for r in run.results))


def test_an_unstable_figure_is_marked_with_why(h100: ProbeRun) -> None:
    assert "Unstable" not in read(html(h100)).texts["Benchmarks"]  # this run's figures have no samples to doubt
    page = read(html(unstable_matmul(h100)))
    rows = page.sections["Benchmarks"]
    index = next(i for i, r in enumerate(rows) if texts(r)[:2] == ["Matrix multiply", "fp32"])
    value = rows[index][4]
    assert "unstable" in value.classes
    assert texts(rows[index + 1])[1].startswith("Unstable: its samples spread ±")
    assert page.texts["Benchmarks"].count("Unstable:") == 1
    assert texts(rows[index + 2])[1] == "tf32"


def test_notable_happenings_stand_out(h100: ProbeRun) -> None:
    rows = read(html(h100)).sections["What else was happening"]
    clock = next(r for r in rows if texts(r)[0] == "GPU 0 clock events")
    assert texts(clock)[1] == "sw_power_cap" and all("notable" in c.classes for c in clock)
    temperature = next(r for r in rows if texts(r)[0] == "GPU 0 temperature and power")
    assert not any("notable" in c.classes for c in temperature)


def leaves(data: Any, key: str = "", parent: str = "") -> list[tuple[str, str]]:
    """(its key, its record's key) of every field of a JSON record that holds a value (a plain value, a list
    of them, or an unavailable)."""
    if isinstance(data, dict) and Unavailable.read(data) is None:
        return [leaf for k, v in data.items() for leaf in leaves(v, k, key)]
    if isinstance(data, list) and data and all(isinstance(v, dict) for v in data):
        return [leaf for v in data for leaf in leaves(v, "", key)]
    return [(key, parent)]


def test_the_machine_is_labelled_by_subject_and_complete(h100: ProbeRun) -> None:
    page = html(h100)
    machine = page.split("<h2>Machine</h2>")[1].split("<h2>")[0]
    assert "system." not in machine and "gpus[" not in machine and "torch." not in machine
    assert "<h3>System</h3>" in machine and "<h3>GPU 0: NVIDIA H100 80GB HBM3 (cuda:0)</h3>" in machine
    assert "<h3>PyTorch</h3>" in machine
    lines = [texts(r) for r in read(page).sections["Machine"]]
    rows = {line[0]: line[-1] for line in lines if len(line) == 2}
    assert rows["Maximum SM clock"] == "1,980 MHz" and rows["Power limit"] == "700 W"
    assert rows["Memory"] == "79.18 GiB"  # the last "Memory" is torch's view of the GPU
    assert rows["Slowdown temperature"] == "89 °C" and rows["Current speed"] == "32 GT/s"
    assert rows["ECC"] == "current: yes · pending: yes"
    assert rows["Retired memory pages"] == "unavailable — not supported on this GPU"
    assert rows["Instruction sets"].startswith("has SSE4_2, AVX, AVX2")
    assert ["Disk /dev/vda"] in lines and ["Bridges above it", "none"] in lines
    assert [
        "Thunderbolt / USB4",
        "unavailable — no Thunderbolt/USB4 controller found (/sys/bus/thunderbolt has no devices)",
    ] in lines
    # every field of the machine is there, under its label (a listed record's name heads it instead)
    record = h100.record()
    labels = {line[0] for line in lines}
    for key, parent in leaves({"system": record["system"], "devices": record["devices"], "torch": record["torch"]}):
        inline = rows.get(field_label(parent), "")  # a record of a few values, on one line
        assert key in ITEM_KEYS or field_label(key) in labels or f"{key}: " in inline or key.upper() in inline, key


def test_two_runs_compare_with_labels_spreads_and_guarded_ratios(h100: ProbeRun) -> None:
    slower = tuple(
        replace(r, value=r.value * 0.8, samples=(r.value * 0.79, r.value * 0.8, r.value * 0.81)) if r.value else r
        for r in h100.results
    )
    second = unstable_matmul(replace(h100, suite="quick", started_at="2026-11-27T09:12:00+00:00", results=slower))
    page = read(compare_html(h100, second))
    head = page.sections[""]
    assert texts(head[0]) == ["", "First: vm, full suite", "Second: vm, quick suite"]
    started = next(texts(r) for r in head if texts(r)[0] == "Started")
    assert started == ["Started", "2026-11-26 00:55 (UTC+00:00)", "2026-11-27 09:12 (UTC+00:00)"]
    rows = page.sections["Benchmarks"]
    assert texts(rows[0])[-1] == "Second / first"
    shown = {tuple(texts(r)[:3]): r for r in rows[1:]}
    bandwidth = shown[("Memory bandwidth", "", "cuda:0")]
    assert texts(bandwidth)[3:] == ["3,013", "—", "2,410", "±0.6 %", "GB/s", "0.80×"]
    assert "down" in bandwidth[-1].classes  # a fifth less, between stable figures: a finding
    matmul = shown[("Matrix multiply", "fp32", "cuda:0")]
    assert texts(matmul)[-1] == "0.80× unstable"  # as far down, but from an unstable figure: no finding
    assert "down" not in matmul[-1].classes and "muted" in matmul[-1].classes
    assert "unstable" in matmul[5].classes and "unstable" not in matmul[3].classes
    allreduce = shown[("All-reduce", "", "cuda:0")]
    assert texts(allreduce)[3:] == ["skipped", "", "skipped", "", "GB/s", "—"]


def test_the_comparison_escapes_what_runs_recorded(h100: ProbeRun) -> None:
    odd = replace(h100, host="<lab & 7>", results=(BenchmarkResult("<new>", "", "cpu", 1.0, "x/s"),))
    page = compare_html(h100, odd)
    assert "&lt;lab &amp; 7&gt;" in page and "<lab & 7>" not in page and "<new>" not in page
