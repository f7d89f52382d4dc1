"""The Probe tab driven as a user drives it: this machine's real inventory and sampler, and the benchmark
suite in a real worker process (a subset of it, to keep the test short)."""

from __future__ import annotations

import csv
import json
import sys
from collections.abc import Iterator
from pathlib import Path

import numpy as np
import psutil
import pytest
from processes import alive, live_children
from PySide6.QtCore import Qt

from gpuconfig.core.workers import pythons, search
from gpuconfig.probe.history import ProbeHistory
from gpuconfig.probe.model import Unavailable
from gpuconfig.probe.session import ProbeRun
from gpuconfig.probe.stability import stability
from gpuconfig.ui.main_window import INDEX, MainWindow
from gpuconfig.ui.probe.tab import ProbeTab
from gpuconfig.ui.theme import DARK

RUN_TIMEOUT_MS = 100_000
SHORT_SUITE = ("matmul", "disk_read")  # a GPU-less machine measures both in seconds
LEFT = Qt.MouseButton.LeftButton


@pytest.fixture
def tab(qtbot, window: MainWindow) -> Iterator[ProbeTab]:  # type: ignore[no-untyped-def]
    window.tabs.setCurrentIndex(INDEX["probe"])  # built when first shown
    built = window.probe_tab
    assert window.tabs.widget(INDEX["probe"]) is built
    yield built
    built.shutdown()
    qtbot.waitUntil(lambda: not built.busy(), timeout=10_000)  # no thread or worker process left behind
    assert built.sampler is None


def no_nvidia_gpu(qtbot, tab: ProbeTab) -> bool:  # type: ignore[no-untyped-def]
    """Whether this machine's inventory found no NVIDIA GPU (the tests hold on machines with and without)."""
    qtbot.waitUntil(lambda: tab.inventory is not None, timeout=30_000)
    assert tab.inventory is not None
    return isinstance(tab.inventory.system.gpu, Unavailable) and not tab.inventory.devices


def saved_runs() -> int:
    history = ProbeHistory.open_default()
    try:
        return len(history.runs())
    finally:
        history.close()


def test_inventory_of_this_machine_fills_the_tree(qtbot, tab: ProbeTab) -> None:  # type: ignore[no-untyped-def]
    qtbot.waitUntil(lambda: tab.inventory is not None, timeout=30_000)
    assert tab.inventory is not None
    tree = tab.tree
    assert set(tree.sections) >= {"os", "cpu", "memory", "disks", "gpu", "thunderbolt", "pythons"}
    cpu = tree.sections["cpu"]
    fields = {cpu.child(i).text(0): cpu.child(i).text(1) for i in range(cpu.childCount())}
    assert fields["Model"] == tab.inventory.system.cpu.model and fields["Model"]  # named as the reports name them
    assert fields["Logical cores"] == str(psutil.cpu_count(logical=True))
    memory = tree.sections["memory"]
    assert memory.child(0).text(1).endswith("GiB")
    gpu = tree.sections["gpu"]
    if no_nvidia_gpu(qtbot, tab):  # no NVIDIA driver: the GPU section says so, greyed, with the reason
        assert gpu.text(1).startswith("unavailable — ")
        assert isinstance(tab.inventory.system.gpu, Unavailable)
        assert gpu.toolTip(1) == tab.inventory.system.gpu.reason
        assert gpu in tree.unavailable_items
        assert gpu.foreground(1).color().name() == tab.colors.muted
    else:  # one branch per GPU, named as NVML names it
        names = [device.name for device in tab.inventory.devices]
        shown = [gpu.child(i).text(0) for i in range(gpu.childCount())]
        assert all(any(label.endswith(name) for label in shown) for name in names) and names
        assert gpu not in tree.unavailable_items
    # The first choice of Python is no path but the chooser's, the estimator's too: named once chosen.
    chosen = Path(pythons.worker_python())
    label = f"Chosen: {chosen.parent.parent.name}/{chosen.name}"
    qtbot.waitUntil(lambda: tab.python.itemText(0) == label, timeout=30_000)
    assert tab.python.currentIndex() == 0 and tab.python.currentData() is None
    assert tree.sections["pythons"].childCount() >= 1


@pytest.fixture
def named_python(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> tuple[Path, Path]:
    """A Python named by GPUCONFIG_TORCH_PYTHON before the tab is built: this one, noting each start in a log."""
    log = tmp_path / "started.log"
    python = tmp_path / "named" / "bin" / "python"
    python.parent.mkdir(parents=True)
    python.write_text(f'#!/bin/sh\necho "$@" >> "{log}"\nexec "{sys.executable}" "$@"\n', encoding="utf-8")
    python.chmod(0o755)
    monkeypatch.setenv(search.TORCH_PYTHON_ENV, str(python))
    return python, log


@pytest.mark.skipif(not sys.platform.startswith("linux"), reason="a shell script stands in for the interpreter")
def test_the_first_python_entry_runs_the_chosen_python(  # type: ignore[no-untyped-def]
    qtbot, named_python: tuple[Path, Path], tab: ProbeTab, monkeypatch: pytest.MonkeyPatch
) -> None:
    python, log = named_python
    monkeypatch.setenv("CUDA_VISIBLE_DEVICES", "")
    qtbot.waitUntil(lambda: tab.python.itemText(0) == "Chosen: named/python", timeout=30_000)
    assert str(python) in tab.python.itemData(0, Qt.ItemDataRole.ToolTipRole)
    tab.only = ("disk_read",)
    qtbot.mouseClick(tab.run_button, LEFT)
    qtbot.waitUntil(lambda: not tab.running(), timeout=RUN_TIMEOUT_MS)
    assert tab.shown_run is not None and tab.shown_run.python == str(python), tab.status.text()
    assert "workers/bench" in log.read_text(encoding="utf-8")  # the benchmarks ran in it, as a trace would


def test_live_plot_is_fed_while_shown(qtbot, window: MainWindow, tab: ProbeTab) -> None:  # type: ignore[no-untyped-def]
    tab.rate.setValue(10)
    qtbot.waitUntil(lambda: tab.sampler is not None and tab.plot.running(), timeout=10_000)
    assert tab.sampler is not None and tab.sampler.hz == 10

    def sampled() -> bool:
        curve = tab.plot.curves.get("cpu.total")
        return curve is not None and curve.getData()[0] is not None and len(curve.getData()[0]) >= 8

    qtbot.waitUntil(sampled, timeout=5_000)  # about a second at 10 Hz
    x, y = tab.plot.curves["cpu.total"].getData()
    assert np.all(np.diff(x) > 0) and np.all((y >= 0) & (y <= 100))
    assert {"cpu", "memory", "io"} <= set(tab.plot.plots)
    if no_nvidia_gpu(qtbot, tab):
        assert not any(name.startswith("gpu") for name in tab.plot.curves)
        assert tab.plot.note.text().startswith("No GPU graphs: ")
    else:
        assert any(name.startswith("gpu") for name in tab.plot.curves) and tab.plot.note.text() == ""
    ticks = tab.plot.ticks
    qtbot.wait(500)
    assert tab.plot.ticks >= ticks + 3  # one display timer at 10 Hz

    window.tabs.setCurrentIndex(0)  # hidden: the sampler's thread stops
    qtbot.waitUntil(lambda: tab.sampler is None, timeout=5_000)
    assert not tab.plot.running()
    window.tabs.setCurrentIndex(INDEX["probe"])
    qtbot.waitUntil(lambda: tab.sampler is not None and tab.plot.running(), timeout=10_000)


def test_export_series_as_csv_and_json(qtbot, tab: ProbeTab, tmp_path: Path) -> None:  # type: ignore[no-untyped-def]
    tab.rate.setValue(10)
    qtbot.waitUntil(lambda: tab.sampler is not None and tab.sampler.count >= 5, timeout=10_000)
    tab.export_series_csv(tmp_path / "series.csv")
    tab.export_series_json(tmp_path / "series.json")
    with (tmp_path / "series.csv").open(encoding="utf-8", newline="") as handle:
        rows = list(csv.reader(handle))
    assert rows[0][0] == "t (s)" and "cpu.total (%)" in rows[0] and rows[0][-1] == "mark"
    assert len(rows) >= 6
    total = rows[0].index("cpu.total (%)")
    assert all(0 <= float(row[total]) <= 100 for row in rows[1:] if row[total])
    data = json.loads((tmp_path / "series.json").read_text(encoding="utf-8"))
    assert data["format"] == "gpuconfig.probe.series/1"
    assert len(data["channels"]["cpu.total"]) == len(data["t"]) >= 5
    assert ("gpu" in data["unavailable"]) == no_nvidia_gpu(qtbot, tab)


def test_suite_runs_in_a_real_worker_and_lands_in_history(  # type: ignore[no-untyped-def]
    qtbot, window: MainWindow, tab: ProbeTab, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("CUDA_VISIBLE_DEVICES", "")  # the worker measures the CPU path on every machine
    tab.only = SHORT_SUITE
    qtbot.waitUntil(lambda: tab.sampler is not None, timeout=10_000)
    qtbot.mouseClick(tab.run_button, LEFT)
    assert tab.running()
    assert not tab.run_button.isEnabled() and tab.cancel_button.isEnabled()  # no second run over the first
    qtbot.waitUntil(lambda: tab.run_view.results.rowCount() > 0, timeout=RUN_TIMEOUT_MS)
    assert tab.running() or tab.shown_run is not None  # results arrive while the suite runs
    qtbot.waitUntil(lambda: not tab.running(), timeout=RUN_TIMEOUT_MS)

    run = tab.shown_run
    assert run is not None, tab.status.text()
    assert tab.status.text().startswith("Finished in ")
    assert tab.run_button.isEnabled() and not tab.cancel_button.isEnabled() and tab.progress.isHidden()
    names = {r.name for r in run.results}
    assert names == set(SHORT_SUITE)
    table = tab.run_view.results
    assert table.rowCount() == len(run.results)
    fp32 = next(r for r in run.results if r.name == "matmul" and r.dtype == "fp32")
    assert fp32.status == "ok" and fp32.value is not None and fp32.value > 0 and fp32.unit == "TFLOP/s"
    row = run.results.index(fp32)
    assert table.item(row, 0).text() == "Matrix multiply" and table.item(row, 1).text() == "fp32"
    assert table.item(row, 0).toolTip() == fp32.label  # the worker's own name, for a bug report
    assert table.item(row, 4).text() == "TFLOP/s"
    # the figure is a distribution: its spread and sample count, and "ok" only when it is stable enough to judge
    found = stability(fp32)
    assert found.spread is not None and len(fp32.samples) >= 3
    assert table.item(row, 5).text() == f"±{100 * found.spread.spread:.1f} % ({len(fp32.samples)})"
    assert table.item(row, 6).text() == ("ok" if found.stable else f"unstable, not judged: {found.why}")
    skipped = [i for i, r in enumerate(run.results) if r.status == "skipped"]
    assert skipped, "a CPU has no tf32 or fp8 matmul: those are skipped with a reason"
    assert run.results[skipped[0]].reason in table.item(skipped[0], 6).text()

    verdicts = tab.run_view.verdicts
    assert verdicts.table.rowCount() == len(run.verdicts) > 0
    if no_nvidia_gpu(qtbot, tab):
        gpu = next(i for i, v in enumerate(run.verdicts) if v.check == "GPU")
        assert "No NVIDIA GPU" in verdicts.table.item(gpu, 0).toolTip()
        verdicts.table.selectRow(gpu)
        assert "No NVIDIA GPU" in verdicts.detail.text()
        status = verdicts.table.item(gpu, 2)
        assert status.text() == "● info" and status.foreground().color().name() == tab.colors.muted
    else:
        assert not any("No NVIDIA GPU" in v.reason for v in run.verdicts)

    # The phases are marked on the time axis, named by their benchmark, and the series is kept with the run.
    assert run.series is not None and run.series["marks"] and run.series["channels"]["cpu.total"]
    qtbot.waitUntil(lambda: "matmul" in tab.plot.mark_names.values(), timeout=2_000)

    history = ProbeHistory.open_default()
    saved = history.runs()
    assert len(saved) == 1 and saved[0].suite == "quick" and history.load(saved[0].id).results == run.results
    assert tab.history_panel.table.rowCount() == 1

    # A second run (the same record, a day later and slower) to open and compare.
    record = run.record()
    record["started_at"] = "2099-01-01T00:00:00+00:00"
    record["benchmarks"] = [{**b, "value": b["value"] / 2 if b["value"] else b["value"]} for b in record["benchmarks"]]
    history.save(ProbeRun.from_record(record))
    history.close()
    tab.refresh_history()
    panel = tab.history_panel
    tab.side.setCurrentWidget(panel)
    assert panel.table.rowCount() == 2 and panel.table.item(0, 0).text().startswith("2099-01-01")
    panel.table.selectAll()
    assert panel.compare_button.isEnabled() and not panel.open_button.isEnabled()
    qtbot.mouseClick(panel.compare_button, LEFT)
    compare = panel.compare
    assert compare.isVisible() and compare.rowCount() == len(run.results)
    first = next(i for i in range(compare.rowCount()) if compare.item(i, 0).text() == fp32.label)
    assert compare.item(first, 4).text() == "0.50×"

    panel.table.clearSelection()
    panel.table.selectRow(0)
    qtbot.mouseClick(panel.open_button, LEFT)
    opened = tab.shown_run
    assert opened is not None and opened.started_at.startswith("2099")
    assert tab.back_to_live.isVisible() and "Recorded during the run" in tab.plot_title.text()
    assert not tab.plot.running()
    assert tab.plot.curves["cpu.total"].getData()[0] is not None

    tab.export_run_json(tmp_path / "run.json")
    tab.export_run_html(tmp_path / "run.html")
    tab.export_run_pdf(tmp_path / "run.pdf")
    assert json.loads((tmp_path / "run.json").read_text(encoding="utf-8"))["started_at"].startswith("2099")
    assert "gpuconfig probe of" in (tmp_path / "run.html").read_text(encoding="utf-8")
    assert (tmp_path / "run.pdf").read_bytes().startswith(b"%PDF")

    qtbot.mouseClick(tab.back_to_live, LEFT)
    assert tab.plot.running() and tab.back_to_live.isHidden()
    window.set_theme("dark")  # the verdict marks keep their meaning in the other theme's colours
    tab.open_run(saved[0].id)
    gpu_status = tab.run_view.verdicts.table.item(gpu, 2)
    assert gpu_status.foreground().color().name() == DARK.muted
    assert tab.tree.sections["gpu"].foreground(1).color().name() == DARK.muted
    window.set_theme("light")  # the application's palette outlives this window: later tests start light


def test_cancel_kills_the_worker_and_the_tab_goes_idle(qtbot, tab: ProbeTab) -> None:  # type: ignore[no-untyped-def]
    tab.run()
    qtbot.waitUntil(lambda: bool(live_children()) and tab.progress.maximum() > 0, timeout=60_000)
    workers = live_children()
    qtbot.mouseClick(tab.cancel_button, LEFT)
    qtbot.waitUntil(lambda: not tab.running(), timeout=15_000)
    qtbot.waitUntil(lambda: not any(alive(p) for p in workers), timeout=5_000)
    assert tab.status.text() == "Run cancelled."
    assert tab.run_button.isEnabled() and not tab.cancel_button.isEnabled() and tab.progress.isHidden()
    assert tab.shown_run is None and tab.run_view.verdicts.table.rowCount() == 0
    assert saved_runs() == 0  # a cancelled run is not saved
