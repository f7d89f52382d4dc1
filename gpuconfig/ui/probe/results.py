"""What a probe run measured and what it means: the results table (filled as results arrive), and the
verdicts with their status marks and a detail line."""

from __future__ import annotations

from collections.abc import Iterable

from PySide6.QtCore import Qt
from PySide6.QtGui import QColor
from PySide6.QtWidgets import QLabel, QSplitter, QTableWidget, QTableWidgetItem, QVBoxLayout, QWidget

from gpuconfig.core.units import MISSING, format_number
from gpuconfig.probe.model import BenchmarkResult, Verdict
from gpuconfig.probe.stability import stability
from gpuconfig.ui.theme import Colors, mark
from gpuconfig.ui.widgets.tables import shape_table

STATUS_MARK = "●"
STATUS_COLUMN = 6


def status_color(colors: Colors, status: str) -> str:
    """pass green, warn amber, fail/failed red, anything else (info, skipped) muted."""
    return {"pass": colors.success, "ok": colors.text, "warn": colors.warning, "fail": colors.error}.get(
        status, colors.error if status == "failed" else colors.muted
    )


def number_text(value: float | None) -> str:
    return MISSING if value is None else format_number(float(f"{value:.4g}"))


def table_item(text: str, tip: str = "", right: bool = False) -> QTableWidgetItem:
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
        headers = [self.tr("Benchmark"), self.tr("Type"), self.tr("Device"), self.tr("Median"), self.tr("Unit")]
        shape_table(self, [*headers, self.tr("Spread"), self.tr("Status")], stretch=STATUS_COLUMN)

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
        name = self._name(result)
        status = self._status_text(result.status)
        if result.reason:
            status = self.tr("{status}: {reason}").format(status=status, reason=result.reason)
        found = stability(result) if result.status == "ok" else None
        spread = found.spread if found is not None else None
        if found is not None and not found.stable:
            status = self.tr("unstable, not judged: {why}").format(why=found.why)
        spread_text = (
            self.tr("±{spread} % ({samples})").format(spread=f"{100 * spread.spread:.1f}", samples=spread.samples)
            if spread is not None
            else MISSING
        )
        cells = [
            table_item(name, result.label),
            table_item(result.dtype or MISSING),
            table_item(result.device),
            table_item(number_text(result.value) if result.status == "ok" else MISSING, right=True),
            table_item(result.unit),
            table_item(spread_text, self.tr("half the interquartile range of the samples, and how many"), right=True),
            table_item(status, status),
        ]
        for column, item in enumerate(cells):
            self.setItem(row, column, item)
        self._color_row(row)
        self.scrollToItem(cells[0])

    def _name(self, result: BenchmarkResult) -> str:
        """The benchmark and its variant in words (the worker's own names in the tooltip)."""
        names = {
            "matmul": self.tr("Matrix multiply"),
            "memory_bandwidth": self.tr("Memory bandwidth"),
            "h2d_bandwidth": self.tr("Host to device copy"),
            "d2h_bandwidth": self.tr("Device to host copy"),
            "train_cnn": self.tr("CNN training step"),
            "train_transformer": self.tr("Transformer training step"),
            "train_from_host": self.tr("Training step fed from host memory"),
            "dataloader": self.tr("DataLoader"),
            "disk_read": self.tr("Disk sequential read"),
            "allreduce": self.tr("All-reduce"),
        }
        variants = {
            "amp": self.tr("AMP"),
            "checkpointing": self.tr("checkpointing"),
            "amp+checkpointing": self.tr("AMP + checkpointing"),
            "resident": self.tr("batch on the device"),
            "from_host": self.tr("batch from the host"),
            "pinned": self.tr("pinned memory"),
            "pageable": self.tr("pageable memory"),
        }
        words = [names.get(result.name, result.name), variants.get(result.variant, result.variant)]
        return self.tr("{benchmark}, {variant}").format(benchmark=words[0], variant=words[1]) if words[1] else words[0]

    def _status_text(self, status: str) -> str:
        return {"ok": self.tr("ok"), "failed": self.tr("failed"), "skipped": self.tr("skipped")}.get(status, status)

    def _color_row(self, row: int) -> None:
        item = self.item(row, STATUS_COLUMN)
        result = self.results[row]
        status = "warn" if result.status == "ok" and not stability(result).stable else result.status
        if item is not None:
            item.setForeground(QColor(status_color(self.colors, status)))

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
                table_item(v.check, tip),
                table_item(v.subject, tip),
                table_item(f"{STATUS_MARK} {self._status_text(v.status)}", tip),
                table_item(self._with_unit(v.measured, v.unit), tip, right=True),
                table_item(self._with_unit(v.expected, v.unit), tip, right=True),
                table_item(MISSING if ratio is None else f"{ratio:.2f}", tip, right=True),
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
        return MISSING if value is None else f"{number_text(value)} {unit}".strip()

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
