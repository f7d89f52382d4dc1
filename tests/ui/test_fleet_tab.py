"""The Fleet tab: a folder of node reports as a heatmap, a node's reasons, report and history, exports."""

from __future__ import annotations

import json
from pathlib import Path

from PySide6.QtCore import Qt
from PySide6.QtGui import QGuiApplication

from benchmarks.fleet_synthetic import node_record, template
from gpuconfig.ui.fleet.heatmap import FIXED
from gpuconfig.ui.main_window import MainWindow

BF16 = "matmul/bf16@cuda:0"


def write_fleet(folder: Path, when: str, slow: str | None = None) -> None:
    import random

    rng = random.Random(len(when))
    folder.mkdir(parents=True)
    for i in range(1, 7):
        record = node_record(template(), f"n{i}", rng, 0.01)
        record["started_at"] = when
        if record["node"] == slow:
            for row in record["benchmarks"]:
                if row["name"] == "matmul" and row["dtype"] == "bf16":
                    row["value"] *= 0.75
        (folder / f"n{i}.json").write_text(json.dumps(record))


def opened(qtbot, window: MainWindow, folder: Path):  # type: ignore[no-untyped-def]
    window.tabs.setCurrentWidget(window.fleet_tab)
    tab = window.fleet_tab
    tab.open_folder(str(folder))
    qtbot.waitUntil(lambda: not tab.busy() and tab.diagnosis is not None, timeout=30_000)
    return tab


def test_the_slow_node_comes_first_in_red_with_its_reason_and_history(
    qtbot, window: MainWindow, tmp_path: Path
) -> None:  # type: ignore[no-untyped-def]
    write_fleet(tmp_path / "runs" / "a", "2026-11-01T10:00:00+00:00")
    write_fleet(tmp_path / "runs" / "b", "2026-11-20T10:00:00+00:00", slow="n4")
    tab = opened(qtbot, window, tmp_path / "runs")
    heatmap = tab.heatmap
    assert heatmap.proxy.rowCount() == 6 and heatmap.node_at(0) == "n4"
    column = FIXED + [s.metric.key for s in heatmap.source.stats].index(BF16)
    cell = heatmap.proxy.index(0, column)
    colour = cell.data(Qt.ItemDataRole.BackgroundRole).color()
    assert colour.red() > colour.green() + 40 and cell.data(Qt.ItemDataRole.FontRole).bold()
    calm = heatmap.proxy.index(3, column).data(Qt.ItemDataRole.BackgroundRole).color()
    assert abs(calm.red() - calm.green()) < 40  # within the fleet: close to the base colour
    assert "n4 · " in tab.node_title.text() and "25 % below the fleet's median" in tab.reasons.text()
    assert "Probe report: n4" in tab.report_view.toPlainText()
    assert tab.history.columnCount() == 3 and tab.history.rowCount() > 10  # the metric and two runs
    assert "leave out: n4" in tab.summary.text()
    heatmap.sortByColumn(column, Qt.SortOrder.DescendingOrder)
    assert heatmap.node_at(5) == "n4"  # sorted by the figure itself
    heatmap.select_node("n2")
    assert tab.node_title.text().startswith("n2") and "within the fleet" in tab.reasons.text()


def test_exports_and_the_exclude_list(qtbot, window: MainWindow, tmp_path: Path) -> None:  # type: ignore[no-untyped-def]
    write_fleet(tmp_path / "fleet", "2026-11-20T10:00:00+00:00", slow="n2")
    tab = opened(qtbot, window, tmp_path / "fleet")
    tab.copy_exclude()
    assert QGuiApplication.clipboard().text() == "--exclude=n2"
    tab.export(tmp_path / "report.html", "html")
    tab.export(tmp_path / "report.json", "json")
    assert "table class='heat'" in (tmp_path / "report.html").read_text()
    assert json.loads((tmp_path / "report.json").read_text())["exclude"] == "n2"
    assert window.store.user.setting("fleet.folder") == str(tmp_path / "fleet")


def test_a_folder_without_reports_says_so(qtbot, window: MainWindow, tmp_path: Path) -> None:  # type: ignore[no-untyped-def]
    (tmp_path / "empty").mkdir()
    tab = window.fleet_tab
    window.tabs.setCurrentWidget(tab)
    tab.open_folder(str(tmp_path / "empty"))
    qtbot.waitUntil(lambda: not tab.busy(), timeout=30_000)
    assert "no gpuconfig probe reports" in tab.summary.text()
    assert tab.heatmap.proxy.rowCount() == 0 and not tab.export_button.isEnabled()
