"""What a probe run found and what it means: the machine's inventory as a tree, the results table (filled as
results arrive), the verdicts with their status marks and a detail line, the runs probed before and two of
them side by side."""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from typing import Any

from PySide6.QtCore import Qt, Signal
from PySide6.QtGui import QColor
from PySide6.QtWidgets import (
    QAbstractItemView,
    QHBoxLayout,
    QHeaderView,
    QLabel,
    QPushButton,
    QSplitter,
    QTableWidget,
    QTableWidgetItem,
    QTreeWidget,
    QTreeWidgetItem,
    QVBoxLayout,
    QWidget,
)

from gpuconfig.core.units import MISSING, format_bytes, format_number
from gpuconfig.probe.model import BenchmarkResult, Verdict, is_unavailable
from gpuconfig.ui.theme import Colors, mark
from gpuconfig.ui.widgets.tables import shape_table

STATUS_MARK = "●"


def status_color(colors: Colors, status: str) -> str:
    """pass green, warn amber, fail/failed red, anything else (info, skipped) muted."""
    return {"pass": colors.success, "ok": colors.text, "warn": colors.warning, "fail": colors.error}.get(
        status, colors.error if status == "failed" else colors.muted
    )


def _number(value: float | None) -> str:
    return MISSING if value is None else format_number(float(f"{value:.4g}"))


def _item(text: str, tip: str = "", right: bool = False) -> QTableWidgetItem:
    item = QTableWidgetItem(text)
    if tip:
        item.setToolTip(tip)
    if right:
        item.setTextAlignment(Qt.AlignmentFlag.AlignRight | Qt.AlignmentFlag.AlignVCenter)
    return item


class ResultsTable(QTableWidget):
    """One row per benchmark result, in the order they arrive. A failed or skipped one says why in its
    status (the whole reason in the tooltip)."""

    def __init__(self, colors: Colors, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.colors = colors
        self.results: list[BenchmarkResult] = []
        headers = [self.tr("Benchmark"), self.tr("Type"), self.tr("Device"), self.tr("Value"), self.tr("Unit")]
        shape_table(self, [*headers, self.tr("Status")], stretch=5)

    def clear_results(self) -> None:
        self.results = []
        self.setRowCount(0)

    def show_results(self, results: Iterable[BenchmarkResult]) -> None:
        self.clear_results()
        for result in results:
            self.add_result(result)
        self.scrollToTop()

    def add_result(self, result: BenchmarkResult) -> None:
        """Append one result (they arrive one by one while the suite runs)."""
        self.results.append(result)
        row = self.rowCount()
        self.insertRow(row)
        name = " ".join(p for p in (result.name, result.variant) if p)
        status = self._status_text(result.status)
        if result.reason:
            status = self.tr("{status}: {reason}").format(status=status, reason=result.reason)
        cells = [
            _item(name, result.label),
            _item(result.dtype or MISSING),
            _item(result.device),
            _item(_number(result.value) if result.status == "ok" else MISSING, right=True),
            _item(result.unit),
            _item(status, status),
        ]
        for column, item in enumerate(cells):
            self.setItem(row, column, item)
        self._color_row(row)
        self.scrollToItem(cells[0])

    def _status_text(self, status: str) -> str:
        return {"ok": self.tr("ok"), "failed": self.tr("failed"), "skipped": self.tr("skipped")}.get(status, status)

    def _color_row(self, row: int) -> None:
        item = self.item(row, 5)
        if item is not None:
            item.setForeground(QColor(status_color(self.colors, self.results[row].status)))

    def apply_colors(self, colors: Colors) -> None:
        self.colors = colors
        for row in range(self.rowCount()):
            self._color_row(row)


class VerdictsPanel(QWidget):
    """The verdicts of a run and, under them, what the selected one means and what to do about it."""

    def __init__(self, colors: Colors, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.colors = colors
        self.verdicts: list[Verdict] = []
        headers = [
            self.tr("Check"),
            self.tr("Subject"),
            self.tr("Status"),
            self.tr("Measured"),
            self.tr("Expected"),
            self.tr("Ratio"),
        ]
        self.table = QTableWidget()
        shape_table(self.table, headers)
        self.table.setObjectName("verdicts")
        self.detail = QLabel()
        self.detail.setObjectName("verdict_detail")
        self.detail.setWordWrap(True)
        self.detail.setTextInteractionFlags(Qt.TextInteractionFlag.TextSelectableByMouse)
        self.detail.setAlignment(Qt.AlignmentFlag.AlignTop | Qt.AlignmentFlag.AlignLeft)
        self.detail.setMinimumHeight(54)
        self.empty = QLabel(self.tr("Verdicts appear when the run has finished."))
        mark(self.empty, "muted")
        layout = QVBoxLayout(self)
        layout.setContentsMargins(0, 0, 0, 0)
        layout.setSpacing(4)
        layout.addWidget(self.table, 1)
        layout.addWidget(self.empty)
        layout.addWidget(self.detail)
        self.table.itemSelectionChanged.connect(self._on_selection)

    def show_verdicts(self, verdicts: Iterable[Verdict]) -> None:
        self.verdicts = list(verdicts)
        table = self.table
        table.setRowCount(0)
        for row, v in enumerate(self.verdicts):
            table.insertRow(row)
            tip = self.explain(v, rich=False)
            ratio = v.ratio
            cells = [
                _item(v.check, tip),
                _item(v.subject, tip),
                _item(f"{STATUS_MARK} {self._status_text(v.status)}", tip),
                _item(self._with_unit(v.measured, v.unit), tip, right=True),
                _item(self._with_unit(v.expected, v.unit), tip, right=True),
                _item(MISSING if ratio is None else f"{ratio:.2f}", tip, right=True),
            ]
            for column, item in enumerate(cells):
                table.setItem(row, column, item)
        self._color()
        self.empty.setVisible(not self.verdicts)
        self.detail.clear()
        first_bad = next((i for i, v in enumerate(self.verdicts) if v.status == "fail"), None)
        if first_bad is not None:
            table.selectRow(first_bad)  # the first failure is what the user reads first

    def clear_verdicts(self) -> None:
        self.show_verdicts(())

    def explain(self, verdict: Verdict, rich: bool = True) -> str:
        """The message, the threshold with its source, and the advice, in words."""
        lines = [verdict.message]
        if verdict.threshold:
            source = f" ({verdict.source})" if verdict.source else ""
            lines.append(self.tr("Threshold: {threshold}{source}").format(threshold=verdict.threshold, source=source))
        if verdict.advice:
            lines.append(self.tr("What to do: {advice}").format(advice=verdict.advice))
        if not rich:
            return "\n".join(lines)
        from html import escape

        head = f"<b>{escape(verdict.check)} — {escape(verdict.subject)}</b>"
        return head + "<br>" + "<br>".join(escape(line) for line in lines)

    def _status_text(self, status: str) -> str:
        return {"pass": self.tr("pass"), "warn": self.tr("warn"), "fail": self.tr("fail"), "info": self.tr("info")}.get(
            status, status
        )

    @staticmethod
    def _with_unit(value: float | None, unit: str) -> str:
        return MISSING if value is None else f"{_number(value)} {unit}".strip()

    def _color(self) -> None:
        for row, v in enumerate(self.verdicts):
            item = self.table.item(row, 2)
            if item is not None:
                item.setForeground(QColor(status_color(self.colors, v.status)))

    def _on_selection(self) -> None:
        rows = self.table.selectionModel().selectedRows()
        if not rows:
            self.detail.clear()
            return
        self.detail.setText(self.explain(self.verdicts[rows[0].row()]))

    def apply_colors(self, colors: Colors) -> None:
        self.colors = colors
        self._color()


class RunView(QSplitter):
    """A run's results over its verdicts."""

    def __init__(self, colors: Colors, parent: QWidget | None = None) -> None:
        super().__init__(Qt.Orientation.Vertical, parent)
        self.results = ResultsTable(colors)
        self.results.setObjectName("results")
        self.verdicts = VerdictsPanel(colors)
        self.addWidget(self.results)
        self.addWidget(self.verdicts)
        self.setChildrenCollapsible(False)
        self.setStretchFactor(0, 1)
        self.setStretchFactor(1, 1)

    def clear_run(self) -> None:
        self.results.clear_results()
        self.verdicts.clear_verdicts()

    def apply_colors(self, colors: Colors) -> None:
        self.results.apply_colors(colors)
        self.verdicts.apply_colors(colors)


class CompareTable(QTableWidget):
    """Two runs' results side by side: (label, first, second, unit, second / first) rows."""

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        headers = [
            self.tr("Benchmark"),
            self.tr("First"),
            self.tr("Second"),
            self.tr("Unit"),
            self.tr("Second / first"),
        ]
        shape_table(self, headers)

    def show_rows(self, rows: Iterable[tuple[str, float | None, float | None, str, float | None]]) -> None:
        self.setRowCount(0)
        for row, (label, first, second, unit, ratio) in enumerate(rows):
            self.insertRow(row)
            cells = [
                _item(label, label),
                _item(_number(first), right=True),
                _item(_number(second), right=True),
                _item(unit),
                _item(MISSING if ratio is None else f"{ratio:.2f}×", right=True),
            ]
            for column, item in enumerate(cells):
                self.setItem(row, column, item)


class InventoryTree(QTreeWidget):
    """The inventory (this machine's, or a saved run's) by section; a field that could not be read shows
    "unavailable — why", greyed."""

    def __init__(self, colors: Colors, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.colors = colors
        self.setColumnCount(2)
        self.setHeaderLabels([self.tr("Part"), self.tr("Value")])
        self.setAlternatingRowColors(True)
        self.setUniformRowHeights(True)
        self.header().setSectionResizeMode(0, QHeaderView.ResizeMode.Interactive)
        self.header().setStretchLastSection(True)
        self.setColumnWidth(0, 185)
        self.unavailable_items: list[QTreeWidgetItem] = []
        self.sections: dict[str, QTreeWidgetItem] = {}

    def _section_titles(self) -> dict[str, str]:
        return {
            "os": self.tr("System"),
            "cpu": self.tr("CPU"),
            "memory": self.tr("Memory"),
            "disks": self.tr("Disks"),
            "gpu": self.tr("GPUs"),
            "thunderbolt": self.tr("Thunderbolt / USB4"),
            "pythons": self.tr("Python environments"),
        }

    def show_message(self, text: str) -> None:
        self.clear()
        self.sections.clear()
        self.unavailable_items = []
        item = QTreeWidgetItem([text])
        item.setForeground(0, QColor(self.colors.muted))
        self.addTopLevelItem(item)
        item.setFirstColumnSpanned(True)

    def show_inventory(self, system: dict[str, Any], devices: list[dict[str, Any]]) -> None:
        """Fill the tree from an inventory record (`Inventory.record()` or a saved run's)."""
        self.clear()
        self.sections.clear()
        self.unavailable_items = []
        titles = self._section_titles()
        for key in [*titles, *(k for k in system if k not in titles)]:
            if key not in system and key != "gpu":
                continue
            section = QTreeWidgetItem([titles.get(key, key)])
            font = section.font(0)
            font.setBold(True)
            section.setFont(0, font)
            self.addTopLevelItem(section)
            self.sections[key] = section
            value = system.get(key)
            if key == "gpu":
                self._fill_gpus(section, value, devices)
            elif is_unavailable(value):
                self._set_value(section, value)
            else:
                self._fill(section, key, value)
            section.setExpanded(True)
        self.apply_colors(self.colors)

    def _fill_gpus(self, section: QTreeWidgetItem, summary: Any, devices: list[dict[str, Any]]) -> None:
        if is_unavailable(summary) and not devices:
            self._set_value(section, summary)
            return
        if isinstance(summary, dict):
            self._fill(section, "gpu", summary)
        for index, device in enumerate(devices):
            name = device.get("name")
            label = f"{index}: {name}" if isinstance(name, str) else self.tr("GPU {index}").format(index=index)
            item = QTreeWidgetItem(section, [label])
            self._fill(item, "device", {k: v for k, v in device.items() if k != "name"})
            item.setExpanded(True)
        if not devices and not is_unavailable(summary):
            QTreeWidgetItem(section, [self.tr("none found")])

    def _fill(self, parent: QTreeWidgetItem, key: str, value: Any) -> None:
        if isinstance(value, dict) and not is_unavailable(value):
            for name, item in value.items():
                child = QTreeWidgetItem(parent, [self._field_name(str(name))])
                self._fill(child, str(name), item)
                if isinstance(item, dict) and not is_unavailable(item) and item:
                    child.setExpanded(False)
        elif isinstance(value, list) and value and all(isinstance(v, dict) for v in value):
            for index, item in enumerate(value):
                name = self._entry_name(item, index)
                child = QTreeWidgetItem(parent, [name])
                child.setToolTip(0, name)
                self._fill(child, key, item)
                child.setExpanded(True)  # a disk, a Python: a few lines each, worth seeing at once
        else:
            self._set_value(parent, value, key)

    @staticmethod
    def _field_name(key: str) -> str:
        """A record key as a label: the unit suffix goes (the value shows it), underscores become spaces."""
        return key.removesuffix("_bytes").replace("_", " ")

    @staticmethod
    def _entry_name(entry: dict[str, Any], index: int) -> str:
        for key in ("name", "device", "path", "mountpoint"):
            if isinstance(entry.get(key), str):
                return str(entry[key])
        return str(index)

    def _set_value(self, item: QTreeWidgetItem, value: Any, key: str = "") -> None:
        if is_unavailable(value):
            why = value.reason if hasattr(value, "reason") else value["unavailable"]
            item.setText(1, self.tr("unavailable — {why}").format(why=why))
            item.setToolTip(1, why)
            self.unavailable_items.append(item)
            return
        if isinstance(value, bool):
            text = self.tr("yes") if value else self.tr("no")
        elif isinstance(value, (int, float)) and key.endswith("_bytes"):
            text = format_bytes(value)
        elif isinstance(value, float):
            text = format_number(float(f"{value:.4g}"))
        elif isinstance(value, list):
            text = ", ".join(str(v) for v in value) or MISSING
        elif value is None:
            text = MISSING
        else:
            text = str(value)
        item.setText(1, text)
        item.setToolTip(1, text)

    def apply_colors(self, colors: Colors) -> None:
        self.colors = colors
        for item in self.unavailable_items:
            item.setForeground(1, QColor(colors.muted))


class HistoryPanel(QWidget):
    """The runs probed before on this machine, newest first. Open one; compare two (select both)."""

    open_requested = Signal(int)
    compare_requested = Signal(int, int)  # older, newer
    delete_requested = Signal(int)

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.loaded = False
        self.summaries: list[Any] = []  # RunSummary, newest first
        self.table = QTableWidget()
        self.table.setObjectName("probe_history")
        shape_table(self.table, [self.tr("When"), self.tr("Suite"), self.tr("Host"), self.tr("Verdicts")], stretch=3)
        self.table.setSelectionMode(QAbstractItemView.SelectionMode.ExtendedSelection)
        self.open_button = QPushButton(self.tr("Open"))
        self.compare_button = QPushButton(self.tr("Compare two"))
        self.compare_button.setToolTip(self.tr("Select two runs to see their results side by side"))
        self.delete_button = QPushButton(self.tr("Delete"))
        buttons = QHBoxLayout()
        for button in (self.open_button, self.compare_button, self.delete_button):
            buttons.addWidget(button)
        buttons.addStretch(1)
        self.message = QLabel()
        self.message.setWordWrap(True)
        mark(self.message, "muted")
        self.compare_title = QLabel()
        self.compare_title.setWordWrap(True)
        self.compare = CompareTable()
        self.compare.setObjectName("probe_compare")
        self.compare_title.hide()
        self.compare.hide()
        layout = QVBoxLayout(self)
        layout.setContentsMargins(4, 6, 4, 4)
        layout.addWidget(self.table, 2)
        layout.addLayout(buttons)
        layout.addWidget(self.message)
        layout.addWidget(self.compare_title)
        layout.addWidget(self.compare, 3)
        self.table.itemSelectionChanged.connect(self._enable)
        self.table.cellDoubleClicked.connect(lambda row, _column: self.open_requested.emit(self.summaries[row].id))
        self.open_button.clicked.connect(lambda: self._emit_selected(self.open_requested))
        self.delete_button.clicked.connect(lambda: self._emit_selected(self.delete_requested))
        self.compare_button.clicked.connect(self._on_compare)
        self._enable()

    def show_runs(self, summaries: Sequence[Any]) -> None:
        self.loaded = True
        self.summaries = list(summaries)
        self.table.setRowCount(0)
        for row, run in enumerate(self.summaries):
            self.table.insertRow(row)
            verdicts = self._counts(run.counts)
            cells = [run.started_at.replace("T", " ")[:19], run.suite, run.host, verdicts]
            for column, text in enumerate(cells):
                self.table.setItem(row, column, _item(text, text))
        self.message.setText("" if self.summaries else self.tr("No runs yet: each finished run is saved here."))
        self._enable()

    def _counts(self, counts: dict[str, int]) -> str:
        words = {"pass": self.tr("{n} pass"), "warn": self.tr("{n} warn"), "fail": self.tr("{n} fail")}
        parts = [words[status].format(n=counts[status]) for status in words if counts.get(status)]
        return " · ".join(parts) if parts else self.tr("nothing judged (no reference figures)")

    def show_error(self, text: str) -> None:
        self.message.setText(text)

    def show_comparison(
        self, title: str, rows: Iterable[tuple[str, float | None, float | None, str, float | None]]
    ) -> None:
        self.compare_title.setText(title)
        self.compare.show_rows(rows)
        self.compare_title.show()
        self.compare.show()

    def selected_ids(self) -> list[int]:
        rows = sorted({index.row() for index in self.table.selectionModel().selectedRows()})
        return [self.summaries[row].id for row in rows]

    def _emit_selected(self, signal: Any) -> None:
        ids = self.selected_ids()
        if len(ids) == 1:
            signal.emit(ids[0])

    def _on_compare(self) -> None:
        ids = self.selected_ids()
        if len(ids) == 2:
            newer, older = ids  # rows are newest first
            self.compare_requested.emit(older, newer)

    def _enable(self) -> None:
        count = len(self.table.selectionModel().selectedRows())
        self.open_button.setEnabled(count == 1)
        self.delete_button.setEnabled(count == 1)
        self.compare_button.setEnabled(count == 2)
