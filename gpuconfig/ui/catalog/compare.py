"""Side-by-side comparison of 2–4 parts of one kind, with the best figure of each row marked."""

from __future__ import annotations

from PySide6.QtGui import QFont
from PySide6.QtWidgets import (
    QDialog,
    QDialogButtonBox,
    QHeaderView,
    QTableWidget,
    QTableWidgetItem,
    QVBoxLayout,
    QWidget,
)

from gpuconfig.core.catalog.derived import DERIVED_FIELDS
from gpuconfig.core.catalog.model import Part
from gpuconfig.core.catalog.query import price_in
from gpuconfig.core.catalog.schema import FieldSpec, KindSpec
from gpuconfig.core.money import ExchangeRate, format_money
from gpuconfig.core.units import format_value

MIN_PARTS, MAX_PARTS = 2, 4
PRICE_SPEC = FieldSpec("price", "float", "Price", better="lower")


def best_columns(spec: FieldSpec, values: list[float | None]) -> set[int]:
    """Columns holding the best value of a row; none when the row has no direction or all are equal."""
    present = [v for v in values if v is not None]
    if not spec.better or len(set(present)) < 2:
        return set()
    best = max(present) if spec.better == "higher" else min(present)
    return {i for i, v in enumerate(values) if v == best}


class CompareDialog(QDialog):
    def __init__(
        self,
        spec: KindSpec,
        parts: list[Part],
        currency: str,
        rate: ExchangeRate | None,
        parent: QWidget | None = None,
    ) -> None:
        super().__init__(parent)
        if not MIN_PARTS <= len(parts) <= MAX_PARTS:
            raise ValueError(f"compare takes {MIN_PARTS} to {MAX_PARTS} parts, got {len(parts)}")
        self.setWindowTitle(self.tr("Compare {kind}").format(kind=spec.title))
        self.table = QTableWidget()
        self.table.setObjectName("compare")
        fields = list(spec.fields) + list(DERIVED_FIELDS.get(spec.kind, ()))
        self.table.setRowCount(len(fields) + 1)
        self.table.setColumnCount(len(parts))
        self.table.setHorizontalHeaderLabels([p.name for p in parts])
        self.table.setVerticalHeaderLabels([self.tr("Price")] + [f.title for f in fields])
        bold = QFont()
        bold.setBold(True)

        prices = [price_in(p, currency, rate) for p in parts]
        self._fill_row(0, PRICE_SPEC, [format_money(a, currency) for a in prices], prices, bold)
        for row, field in enumerate(fields, start=1):
            values = [p.specs.get(field.key, p.extra.get(field.key)) for p in parts]
            numbers = [v if field.numeric else None for v in values]
            self._fill_row(row, field, [format_value(field, v) for v in values], numbers, bold)
        self.table.horizontalHeader().setSectionResizeMode(QHeaderView.ResizeMode.Stretch)
        buttons = QDialogButtonBox(QDialogButtonBox.StandardButton.Close)
        buttons.rejected.connect(self.reject)
        layout = QVBoxLayout(self)
        layout.addWidget(self.table)
        layout.addWidget(buttons)
        self.resize(260 + 200 * len(parts), 640)

    def _fill_row(self, row: int, spec: FieldSpec, texts: list[str], numbers: list[float | None], bold: QFont) -> None:
        best = best_columns(spec, numbers)
        for column, text in enumerate(texts):
            item = QTableWidgetItem(("★ " if column in best else "") + text)
            if column in best:
                item.setFont(bold)
            self.table.setItem(row, column, item)

    def best_marked(self, row: int) -> list[int]:
        """Columns marked best in a row (for tests and accessibility)."""
        return [
            c for c in range(self.table.columnCount()) if (i := self.table.item(row, c)) and i.text().startswith("★")
        ]
