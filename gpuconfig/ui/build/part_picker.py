"""Choose a catalog part for the build: every part of a kind with its key figures, its price, and what the
checker says of the build with it in (so a swap that breaks the machine shows before it is made)."""

from __future__ import annotations

from collections.abc import Callable
from html import escape

from PySide6.QtCore import Qt
from PySide6.QtGui import QColor, QFont
from PySide6.QtWidgets import (
    QAbstractItemView,
    QComboBox,
    QDialog,
    QDialogButtonBox,
    QHBoxLayout,
    QHeaderView,
    QLabel,
    QTableWidget,
    QTableWidgetItem,
    QVBoxLayout,
    QWidget,
)

from gpuconfig.core.build.check import Problem
from gpuconfig.core.build.sheet import key_specs, kind_name, unit_price
from gpuconfig.core.catalog.model import Part
from gpuconfig.core.catalog.schema import Schema
from gpuconfig.core.money import ExchangeRate, format_money
from gpuconfig.ui.theme import Colors

PartsOf = Callable[[str], list[Part]]
Judge = Callable[[str], list[Problem]]  # the problems of the build with this part in it
NAME, SPECS, PRICE, CHECK = range(4)


class PartPicker(QDialog):
    """`chosen()` is the part picked when the dialog is accepted (OK, or a double-click on a row)."""

    def __init__(
        self,
        title: str,
        kinds: list[str],
        parts_of: PartsOf,
        judge: Judge,
        baseline: list[Problem],
        currency: str,
        rate: ExchangeRate | None,
        schema: Schema,
        colors: Colors,
        current: str = "",
        parent: QWidget | None = None,
    ) -> None:
        super().__init__(parent)
        self.setWindowTitle(title)
        self.parts_of, self.judge = parts_of, judge
        self.failing_now = {p.rule for p in baseline if p.severity == "fail"}
        self.currency, self.rate, self.schema, self.colors = currency, rate, schema, colors
        self.current = current
        self.parts: list[Part] = []
        self.kind = QComboBox()
        self.kind.setObjectName("picker_kind")
        for kind in kinds:
            self.kind.addItem(kind_name(kind), kind)
        self.table = QTableWidget(0, 4)
        self.table.setObjectName("picker_parts")
        self.table.setHorizontalHeaderLabels(
            [self.tr("Name"), self.tr("Key specs"), self.tr("Price ({c})").format(c=currency), self.tr("Check")]
        )
        self.table.setEditTriggers(QAbstractItemView.EditTrigger.NoEditTriggers)
        self.table.setSelectionBehavior(QAbstractItemView.SelectionBehavior.SelectRows)
        self.table.setSelectionMode(QAbstractItemView.SelectionMode.SingleSelection)
        self.table.setAlternatingRowColors(True)
        self.table.setWordWrap(False)
        self.table.verticalHeader().setVisible(False)
        header = self.table.horizontalHeader()
        header.setSectionResizeMode(QHeaderView.ResizeMode.Stretch)
        header.setSectionResizeMode(PRICE, QHeaderView.ResizeMode.ResizeToContents)
        header.setSectionResizeMode(CHECK, QHeaderView.ResizeMode.ResizeToContents)
        self.hint = QLabel(
            self.tr("Parts that bring no new problem come first; hover over Check to read what the checker says.")
        )
        self.hint.setWordWrap(True)
        self.buttons = QDialogButtonBox(QDialogButtonBox.StandardButton.Ok | QDialogButtonBox.StandardButton.Cancel)
        self.buttons.accepted.connect(self.accept)
        self.buttons.rejected.connect(self.reject)
        top = QHBoxLayout()
        top.addWidget(self.kind)
        top.addWidget(self.hint, 1)
        self.kind.setVisible(len(kinds) > 1)
        layout = QVBoxLayout(self)
        layout.addLayout(top)
        layout.addWidget(self.table, 1)
        layout.addWidget(self.buttons)
        self.resize(1060, 560)
        self.kind.currentIndexChanged.connect(self._fill)
        self.table.itemSelectionChanged.connect(self._on_selection)
        self.table.cellDoubleClicked.connect(lambda *_: self.accept())
        self._fill()

    def chosen(self) -> str | None:
        rows = self.table.selectionModel().selectedRows()
        return self.parts[rows[0].row()].id if rows else None

    def select(self, part_id: str) -> None:
        row = next(i for i, part in enumerate(self.parts) if part.id == part_id)
        self.table.selectRow(row)

    def _on_selection(self) -> None:
        chosen = self.chosen()
        ok = self.buttons.button(QDialogButtonBox.StandardButton.Ok)
        ok.setEnabled(chosen is not None and chosen != self.current)

    def _fill(self, *_: object) -> None:
        kind = str(self.kind.currentData())
        judged = []
        for part in self.parts_of(kind):
            price, note = unit_price(part, self.currency, self.rate)
            problems = self.judge(part.id)
            fails = [p for p in problems if p.severity == "fail"]
            warns = [p for p in problems if p.severity == "warn"]
            new = [p for p in fails if p.rule not in self.failing_now]
            judged.append((part, price, note, fails, warns, new))
        # Parts that bring no new problem first, then the fewest problems; cheapest first, unpriced last.
        judged.sort(key=lambda j: (len(j[5]), len(j[3]), len(j[4]), j[1] is None, j[1] or 0.0))
        self.parts = [j[0] for j in judged]
        self.table.setRowCount(len(judged))
        for row, (part, price, note, fails, warns, new) in enumerate(judged):
            name = QTableWidgetItem(part.name + (self.tr("  (in the build)") if part.id == self.current else ""))
            name.setToolTip(f"{part.vendor} · {part.id}")
            if part.id == self.current:
                font = QFont(self.table.font())
                font.setBold(True)
                name.setFont(font)
            self.table.setItem(row, NAME, name)
            self.table.setItem(row, SPECS, QTableWidgetItem(" · ".join(s.text for s in key_specs(part, self.schema))))
            cost = QTableWidgetItem(self.tr("unpriced") if price is None else format_money(price, self.currency))
            cost.setTextAlignment(Qt.AlignmentFlag.AlignRight | Qt.AlignmentFlag.AlignVCenter)
            cost.setToolTip(note)
            if price is None:
                cost.setForeground(QColor(self.colors.warning))
            self.table.setItem(row, PRICE, cost)
            self.table.setItem(row, CHECK, self._check_item(fails, warns, new))
        self._on_selection()

    def _check_item(self, fails: list[Problem], warns: list[Problem], new: list[Problem]) -> QTableWidgetItem:
        """Whether the build passes with the part; where it fails, whether the part brings a new problem or the
        build fails as it does now (for another part's sake)."""
        if new:
            text, color = self.tr("✖ {n} new problem(s)").format(n=len(new)), self.colors.error
        elif fails:
            text, color = self.tr("✖ fails as now ({n})").format(n=len(fails)), self.colors.muted
        elif warns:
            text, color = self.tr("▲ passes, {n} warning(s)").format(n=len(warns)), self.colors.warning
        else:
            text, color = self.tr("✔ passes"), self.colors.success
        item = QTableWidgetItem(text)
        item.setForeground(QColor(color))
        # The problems the part brings in bold.
        listed = "".join(
            f"<li><b>{escape(p.message)}</b></li>" if p in new else f"<li>{escape(p.message)}</li>"
            for p in fails + warns
        )
        item.setToolTip(f"<ul>{listed}</ul>" if listed else self.tr("Every rule passes with this part."))
        return item
