"""The runs probed before on this machine, newest first, and two of them side by side."""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from typing import TYPE_CHECKING

from PySide6.QtCore import Signal, SignalInstance
from PySide6.QtWidgets import QAbstractItemView, QHBoxLayout, QLabel, QPushButton, QTableWidget, QVBoxLayout, QWidget

from gpuconfig.core.units import MISSING
from gpuconfig.ui.background import one_line
from gpuconfig.ui.probe.results import number_text, table_item
from gpuconfig.ui.theme import mark
from gpuconfig.ui.widgets.tables import shape_table

if TYPE_CHECKING:
    from gpuconfig.probe.history import ProbeHistory, RunSummary
    from gpuconfig.probe.session import ProbeRun


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
                table_item(label, label),
                table_item(number_text(first), right=True),
                table_item(number_text(second), right=True),
                table_item(unit),
                table_item(MISSING if ratio is None else f"{ratio:.2f}×", right=True),
            ]
            for column, item in enumerate(cells):
                self.setItem(row, column, item)


class HistoryPanel(QWidget):
    """The runs probed before on this machine, newest first. Open one; compare two (select both).

    It keeps this machine's probe history (`history`), opened on first use."""

    open_requested = Signal(int)
    compare_requested = Signal(int, int)  # older, newer
    delete_requested = Signal(int)

    def __init__(self, history: ProbeHistory | None = None, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self._history = history
        self._history_error = ""
        self.loaded = False
        self.summaries: list[RunSummary] = []  # newest first
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

    def show_runs(self, summaries: Sequence[RunSummary]) -> None:
        self.loaded = True
        self.summaries = list(summaries)
        self.table.setRowCount(0)
        for row, run in enumerate(self.summaries):
            self.table.insertRow(row)
            verdicts = self._counts(run.counts)
            cells = [run.started_at.replace("T", " ")[:19], run.suite, run.host, verdicts]
            for column, text in enumerate(cells):
                self.table.setItem(row, column, table_item(text, text))
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

    def _emit_selected(self, signal: SignalInstance) -> None:
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

    # -- the history file ---------------------------------------------------------------------------

    @property
    def history(self) -> ProbeHistory | None:
        """This machine's probe history, opened on first use; None (and the reason shown) if it cannot be."""
        if self._history is None and not self._history_error:
            from gpuconfig.probe.history import HistoryError, ProbeHistory

            try:
                self._history = ProbeHistory.open_default()
            except HistoryError as exc:
                self._history_error = str(exc)
                self.show_error(self._history_error)
        return self._history

    def close_history(self) -> None:
        if self._history is not None:
            self._history.close()
            self._history = None

    def refresh(self) -> None:
        """List the saved runs again (after a run, or another program saved one)."""
        history = self.history
        if history is not None:
            self.show_runs(history.runs())

    def save(self, run: ProbeRun) -> str:
        """Save a finished run; "" when saved (or there is no history), else why not."""
        history = self.history
        if history is None:
            return ""
        from gpuconfig.probe.history import HistoryError

        try:
            history.save(run)
            self.refresh()
        except HistoryError as exc:
            return one_line(str(exc))
        return ""

    def load(self, run_id: int) -> ProbeRun | None:
        """A saved run; None (and why shown) when it cannot be read."""
        history = self.history
        if history is None:
            return None
        from gpuconfig.probe.history import HistoryError

        try:
            return history.load(run_id)
        except HistoryError as exc:
            self.show_error(one_line(str(exc)))
            return None

    def compare_runs(self, first_id: int, second_id: int) -> None:
        """Two saved runs' results side by side, with the ratio of the second to the first."""
        from gpuconfig.probe.report import compare_rows

        first = self.load(first_id)
        second = self.load(second_id) if first is not None else None
        if first is None or second is None:
            return
        title = self.tr("First: {a} on {host_a}. Second: {b} on {host_b}.").format(
            a=first.started_at.replace("T", " ")[:16],
            host_a=first.host,
            b=second.started_at.replace("T", " ")[:16],
            host_b=second.host,
        )
        self.show_comparison(title, compare_rows(first, second))

    def delete_run(self, run_id: int) -> None:
        history = self.history
        if history is not None:
            history.delete(run_id)
            self.refresh()
