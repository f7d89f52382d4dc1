"""The probe history (real SQLite) and the exported documents."""

from __future__ import annotations

import json
import math
import sqlite3
from dataclasses import replace
from pathlib import Path

import pytest

from gpuconfig.probe.history import HistoryError, ProbeHistory
from gpuconfig.probe.model import BenchmarkResult
from gpuconfig.probe.report import compare_rows, html, write_json
from gpuconfig.probe.session import ProbeRun
from gpuconfig.probe.verdicts import judge
from tests.probe.reports import typed


def a_run(started_at: str, matmul: float, failed: bool = False) -> ProbeRun:
    results = (
        BenchmarkResult("matmul", "fp32", "cpu", matmul, "TFLOP/s", detail={"n": 2048}),
        BenchmarkResult(
            "disk_read", "", "disk", None, "MB/s", status="failed" if failed else "skipped", reason="no space left"
        ),
    )
    system = {"cpu": {"model": "Test CPU"}, "gpu": {"unavailable": "no NVIDIA driver"}}
    torch = {"version": "2.13.0", "cuda": None}
    machine, devices, facts = typed(system, [], torch)
    verdicts = judge(machine, devices, facts, results)
    return ProbeRun(started_at, "quick", "/usr/bin/python3", "lab-7", machine, devices, facts, results, verdicts)


def test_a_saved_run_comes_back_whole_and_newest_first(tmp_path: Path) -> None:
    history = ProbeHistory(tmp_path / "history.sqlite3")
    first = history.save(a_run("2026-11-20T10:00:00+00:00", 0.5))
    second = history.save(a_run("2026-11-21T10:00:00+00:00", 0.6, failed=True))
    assert [r.id for r in history.runs()] == [second, first]
    assert history.runs()[0].counts["fail"] == 1
    loaded = history.load(first)
    assert loaded == a_run("2026-11-20T10:00:00+00:00", 0.5)
    history.close()
    reopened = ProbeHistory(tmp_path / "history.sqlite3")  # a second session reads the same runs
    assert len(reopened.runs()) == 2
    assert reopened.delete(first)
    assert [r.id for r in reopened.runs()] == [second]
    with pytest.raises(HistoryError, match="no probe run"):
        reopened.load(first)


def test_a_damaged_or_newer_history_is_reported_and_left_alone(tmp_path: Path) -> None:
    junk = tmp_path / "junk.sqlite3"
    junk.write_bytes(b"this is not a database" * 100)
    with pytest.raises(HistoryError, match="not a readable probe history"):
        ProbeHistory(junk)
    assert junk.read_bytes() == b"this is not a database" * 100
    newer = tmp_path / "newer.sqlite3"
    with sqlite3.connect(newer) as db:
        db.execute("PRAGMA user_version = 99")
    with pytest.raises(HistoryError, match="newer gpuconfig"):
        ProbeHistory(newer)


def test_json_export_has_the_documented_keys_and_html_escapes(tmp_path: Path) -> None:
    run = a_run("2026-11-20T10:00:00+00:00", 0.5, failed=True)
    out = tmp_path / "run.json"
    write_json(run, out)
    data = json.loads(out.read_text(encoding="utf-8"))
    assert {"system", "devices", "benchmarks", "verdicts"} <= set(data)
    assert {"name", "dtype", "device", "value", "unit"} <= set(data["benchmarks"][0])
    assert ProbeRun.from_record(data) == run
    page = html(ProbeRun.from_record({**data, "host": "<lab & 7>"}))
    assert "&lt;lab &amp; 7&gt;" in page and "<lab & 7>" not in page
    assert "FAIL" in page and "no space left" in page


def strict_json(text: str) -> object:
    """JSON as a strict parser reads it: NaN, Infinity and -Infinity are not JSON."""

    def refuse(constant: str) -> object:
        raise ValueError(f"not JSON: {constant}")

    return json.loads(text, parse_constant=refuse)


def test_a_figure_that_is_not_finite_is_written_null_in_strict_json(tmp_path: Path) -> None:
    run = a_run("2026-11-20T10:00:00+00:00", math.inf)
    spread = BenchmarkResult("memory_bandwidth", "", "cpu", 41.5, "GB/s", detail={"spread": math.nan})
    run = replace(run, results=(*run.results, spread))
    out = tmp_path / "run.json"
    write_json(run, out)
    data = strict_json(out.read_text(encoding="utf-8"))
    assert isinstance(data, dict)
    matmul, bandwidth = data["benchmarks"][0], data["benchmarks"][2]
    assert matmul["name"] == "matmul" and matmul["value"] is None
    assert bandwidth["detail"]["spread"] is None and bandwidth["value"] == 41.5


def test_two_runs_compare_benchmark_by_benchmark() -> None:
    rows = compare_rows(a_run("2026-11-20T10:00:00+00:00", 0.5), a_run("2026-11-21T10:00:00+00:00", 0.6))
    matmul = next(r for r in rows if r[0].startswith("matmul"))
    assert matmul[1:4] == (0.5, 0.6, "TFLOP/s")
    assert matmul[4] == pytest.approx(1.2)
    disk = next(r for r in rows if r[0].startswith("disk_read"))
    assert disk[1] is None and disk[4] is None
