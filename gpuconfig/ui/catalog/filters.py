"""The Catalog tab's search box and filters, built from the schema of the kind on show."""

from __future__ import annotations

from typing import Any

from PySide6.QtCore import Signal
from PySide6.QtWidgets import (
    QComboBox,
    QDoubleSpinBox,
    QHBoxLayout,
    QLabel,
    QLineEdit,
    QPushButton,
    QVBoxLayout,
    QWidget,
)

from gpuconfig.core.catalog.model import Part
from gpuconfig.core.catalog.query import PartFilter, distinct_values
from gpuconfig.core.catalog.schema import CURRENCIES, SCHEMA_CONTEXT, KindSpec
from gpuconfig.core.i18n import translate

ANY = ""


class CatalogFilterBar(QWidget):
    """Emits `changed(PartFilter)` on every edit; the search box applies as the user types."""

    changed = Signal(object)

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.search = QLineEdit()
        self.search.setObjectName("search")
        self.search.setClearButtonEnabled(True)
        self.search.setPlaceholderText(self.tr("Search name, vendor, architecture, socket…"))
        self.currency = QComboBox()
        self.currency.setObjectName("currency")
        self.currency.addItems(list(CURRENCIES))
        self.price_min = self._money_box(self.tr("min"))
        self.price_max = self._money_box(self.tr("max"))
        self.clear = QPushButton(self.tr("Clear filters"))

        top = QHBoxLayout()
        top.setContentsMargins(0, 0, 0, 0)
        top.addWidget(self.search, 1)
        top.addWidget(QLabel(self.tr("Price")))
        top.addWidget(self.price_min)
        top.addWidget(QLabel("–"))
        top.addWidget(self.price_max)
        top.addWidget(self.currency)
        top.addWidget(self.clear)
        self._fields_row = QHBoxLayout()
        self._fields_row.setContentsMargins(0, 0, 0, 0)
        layout = QVBoxLayout(self)
        layout.setContentsMargins(0, 0, 0, 0)
        layout.addLayout(top)
        layout.addLayout(self._fields_row)

        self._choices: dict[str, QComboBox] = {}
        self._minimums: dict[str, QDoubleSpinBox] = {}
        self._building = False
        self.search.textChanged.connect(self._on_changed)
        self.currency.currentTextChanged.connect(self._on_changed)
        self.price_min.valueChanged.connect(self._on_changed)
        self.price_max.valueChanged.connect(self._on_changed)
        self.clear.clicked.connect(self._on_clear)

    def _money_box(self, blank: str) -> QDoubleSpinBox:
        box = QDoubleSpinBox()
        box.setRange(0, 10_000_000)
        box.setDecimals(0)
        box.setSingleStep(100)
        box.setSpecialValueText(blank)  # 0 shows as "min"/"max": no bound
        box.setMinimumWidth(90)
        return box

    def set_kind(self, spec: KindSpec, parts: list[Part]) -> None:
        """Rebuild the per-field filters for a kind; the search text and currency stay."""
        self._building = True
        while self._fields_row.count():
            item = self._fields_row.takeAt(0)
            widget = item.widget() if item is not None else None
            if widget is not None:
                widget.setParent(None)  # off the window now; deleteLater alone waits for the event loop
                widget.deleteLater()
        self._choices.clear()
        self._minimums.clear()
        self._add_choice("vendor", self.tr("Vendor"), distinct_values(parts, "vendor"))
        for field in spec.fields:
            if field.filter == "choice":
                self._add_choice(field.key, field.title, distinct_values(parts, field.key))
            elif field.filter == "min":
                self._add_minimum(field.key, field.title, field.unit, parts)
        self._fields_row.addStretch(1)
        self._building = False
        self._on_changed()

    def _add_choice(self, key: str, label: str, values: list[str]) -> None:
        box = QComboBox()
        box.setObjectName(f"filter_{key}")
        # Sized to a modest minimum rather than the longest value, so seven filters fit a normal window.
        box.setSizeAdjustPolicy(QComboBox.SizeAdjustPolicy.AdjustToMinimumContentsLengthWithIcon)
        box.setMinimumContentsLength(11)
        box.addItem(self.tr("{label}: any").format(label=label), ANY)
        for value in values:
            box.addItem(translate(SCHEMA_CONTEXT, value), value)
        box.currentIndexChanged.connect(self._on_changed)
        self._fields_row.addWidget(box)
        self._choices[key] = box

    def _add_minimum(self, key: str, label: str, unit: str, parts: list[Part]) -> None:
        values = [v for p in parts if isinstance(v := p.specs.get(key), int | float)]
        box = QDoubleSpinBox()
        box.setObjectName(f"filter_{key}")
        box.setRange(0, max(values, default=0) or 1_000_000)
        box.setDecimals(0)
        box.setPrefix(self.tr("{label} ≥ ").format(label=label))
        box.setSuffix(f" {unit}" if unit else "")
        box.setSpecialValueText(self.tr("{label}: any").format(label=label))
        box.valueChanged.connect(self._on_changed)
        self._fields_row.addWidget(box)
        self._minimums[key] = box

    def choice_box(self, key: str) -> QComboBox:
        return self._choices[key]

    def minimum_box(self, key: str) -> QDoubleSpinBox:
        return self._minimums[key]

    def current(self) -> PartFilter:
        choices = {k: str(b.currentData()) for k, b in self._choices.items() if b.currentData() != ANY}
        minimums = {k: b.value() for k, b in self._minimums.items() if b.value() > 0}
        return PartFilter(
            text=self.search.text(),
            choices=choices,
            minimums=minimums,
            price_min=self.price_min.value() or None,
            price_max=self.price_max.value() or None,
            currency=self.currency.currentText(),
        )

    def _on_changed(self, *_: Any) -> None:
        if not self._building:
            self.changed.emit(self.current())

    def _on_clear(self) -> None:
        self._building = True
        self.search.clear()
        self.price_min.setValue(0)
        self.price_max.setValue(0)
        for box in self._choices.values():
            box.setCurrentIndex(0)
        for spin in self._minimums.values():
            spin.setValue(0)
        self._building = False
        self._on_changed()
