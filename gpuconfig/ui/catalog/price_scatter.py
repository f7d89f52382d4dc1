"""Price/performance scatter of the parts on show (pyqtgraph; imported only when first opened)."""

from __future__ import annotations

from typing import Any

import pyqtgraph as pg
from PySide6.QtCore import Qt, Signal
from PySide6.QtGui import QColor
from PySide6.QtWidgets import QCheckBox, QComboBox, QHBoxLayout, QLabel, QSizePolicy, QVBoxLayout, QWidget

from gpuconfig.core.catalog.model import Part
from gpuconfig.core.catalog.query import field_value, price_in
from gpuconfig.core.catalog.schema import KindSpec
from gpuconfig.core.money import ExchangeRate
from gpuconfig.ui.theme import Colors
from gpuconfig.ui.widgets.plots import style_axes

PRICE = "price"
VENDOR_COLORS = ("#4e79a7", "#e15759", "#59a14f", "#f28e2b", "#b07aa1", "#76b7b2", "#edc948", "#9c755f")
LABEL_LIMIT = 12  # above this many points only the selected part is named; hovering names any point


def axis_value(part: Part, key: str, currency: str, rate: ExchangeRate | None) -> float | None:
    if key == PRICE:
        return price_in(part, currency, rate)
    value = field_value(part, key)
    return float(value) if isinstance(value, int | float) and not isinstance(value, bool) else None


def scatter_points(
    parts: list[Part], x_key: str, y_key: str, per_money: bool, currency: str, rate: ExchangeRate | None
) -> list[tuple[float, float, Part]]:
    """(x, y, part) for every part that has both figures; y divided by price per 1,000 when asked."""
    points = []
    for part in parts:
        x, y = axis_value(part, x_key, currency, rate), axis_value(part, y_key, currency, rate)
        if x is None or y is None:
            continue
        if per_money:
            price = axis_value(part, PRICE, currency, rate)
            if not price:
                continue
            y = y / price * 1000
        points.append((x, y, part))
    return points


class PriceScatter(QWidget):
    """Emits `part_clicked(part_id)` when a point is clicked."""

    part_clicked = Signal(str)

    def __init__(self, colors: Colors, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.x_axis = QComboBox()
        self.x_axis.setObjectName("x_axis")
        self.y_axis = QComboBox()
        self.y_axis.setObjectName("y_axis")
        self.per_money = QCheckBox()
        self.per_money.setObjectName("per_money")
        self.plot = pg.PlotWidget()
        self.plot.setObjectName("scatter_plot")
        self.plot.showGrid(x=True, y=True, alpha=0.25)
        self.scatter = pg.ScatterPlotItem(size=11, hoverable=True, tip=self._tip)
        self.plot.addItem(self.scatter)
        self._labels: list[Any] = []
        self._names: dict[str, str] = {}
        self.legend = QLabel()
        self.legend.setTextFormat(Qt.TextFormat.RichText)
        self.legend.setAlignment(Qt.AlignmentFlag.AlignRight | Qt.AlignmentFlag.AlignVCenter)
        # Informational: it may be cut short rather than widen the window.
        self.legend.setSizePolicy(QSizePolicy.Policy.Ignored, QSizePolicy.Policy.Preferred)

        controls = QHBoxLayout()
        controls.addWidget(QLabel(self.tr("X")))
        controls.addWidget(self.x_axis)
        controls.addWidget(QLabel(self.tr("Y")))
        controls.addWidget(self.y_axis)
        controls.addWidget(self.per_money)
        controls.addWidget(self.legend, 1)
        layout = QVBoxLayout(self)
        layout.setContentsMargins(0, 0, 0, 0)
        layout.addLayout(controls)
        layout.addWidget(self.plot, 1)

        self._spec: KindSpec | None = None
        self._parts: list[Part] = []
        self._currency = "USD"
        self._rate: ExchangeRate | None = None
        self._selected = ""
        self.points: list[tuple[float, float, Part]] = []
        self.apply_colors(colors)
        self.scatter.sigClicked.connect(self._on_clicked)
        self.x_axis.currentIndexChanged.connect(self.redraw)
        self.y_axis.currentIndexChanged.connect(self.redraw)
        self.per_money.toggled.connect(self.redraw)

    def apply_colors(self, colors: Colors) -> None:
        self.colors = colors
        style_axes(self.plot, colors)
        self.redraw()

    def set_kind(self, spec: KindSpec) -> None:
        """Offer this kind's numeric fields as axes; X defaults to price, Y to the kind's headline figure."""
        self._spec = spec
        numeric = [f for f in spec.fields if f.numeric]
        for box in (self.x_axis, self.y_axis):
            box.blockSignals(True)
            box.clear()
        self.x_axis.addItem(self.tr("Price"), PRICE)
        for f in numeric:
            label = f"{f.title} ({f.unit})" if f.unit else f.title
            self.x_axis.addItem(label, f.key)
            self.y_axis.addItem(label, f.key)
        headline = next((i for i, f in enumerate(numeric) if f.better == "higher" and f.column), 0)
        # Every GPU has a memory size; tensor figures are missing where no vendor document gives them.
        preferred = {"gpu": "memory_gb", "cloud": "gpu_count"}.get(spec.kind)
        if preferred is not None:
            headline = next((i for i, f in enumerate(numeric) if f.key == preferred), headline)
        self.y_axis.setCurrentIndex(headline)
        for box in (self.x_axis, self.y_axis):
            box.blockSignals(False)

    def set_parts(self, parts: list[Part], currency: str, rate: ExchangeRate | None, selected: str = "") -> None:
        self._parts, self._currency, self._rate, self._selected = parts, currency, rate, selected
        self.redraw()

    def select(self, part_id: str) -> None:
        self._selected = part_id
        self.redraw()

    def redraw(self, *_: Any) -> None:
        if self._spec is None or self.x_axis.count() == 0 or self.y_axis.count() == 0:
            return
        x_key, y_key = str(self.x_axis.currentData()), str(self.y_axis.currentData())
        per_money = self.per_money.isChecked()
        self.per_money.setText(self.tr("per 1,000 {currency}").format(currency=self._currency))
        self.points = scatter_points(self._parts, x_key, y_key, per_money, self._currency, self._rate)
        vendors = sorted({p.vendor for _, _, p in self.points})
        color_of = {v: VENDOR_COLORS[i % len(VENDOR_COLORS)] for i, v in enumerate(vendors)}
        spots = []
        for x, y, part in self.points:
            chosen = part.id == self._selected
            spots.append(
                {
                    "pos": (x, y),
                    "data": part.id,
                    "brush": pg.mkBrush(color_of[part.vendor]),
                    "pen": pg.mkPen(self.colors.text, width=2) if chosen else pg.mkPen(None),
                    "size": 16 if chosen else 11,
                }
            )
        self.scatter.setData(spots)
        for label in self._labels:
            self.plot.removeItem(label)
        self._labels = []
        self._names = {part.id: part.name for _, _, part in self.points}
        for x, y, part in self.points:
            if len(self.points) <= LABEL_LIMIT or part.id == self._selected:
                color = self.colors.text if part.id == self._selected else self.colors.muted
                label = pg.TextItem(part.name, color=QColor(color), anchor=(0, 1))
                label.setPos(x, y)
                self.plot.addItem(label)
                self._labels.append(label)
        x_label = self.x_axis.currentText()
        self.plot.setLabel("bottom", f"{x_label} ({self._currency})" if x_key == PRICE else x_label)
        y_label = self.y_axis.currentText() + (f" / 1,000 {self._currency}" if per_money else "")
        self.plot.setLabel("left", y_label)
        missing = len(self._parts) - len(self.points)
        plotted = self.tr("{n} of {total} plotted").format(n=len(self.points), total=len(self._parts))
        why = self.tr(" (the others lack a price or this figure)") if missing else ""
        keys = " ".join(f'<span style="color:{c}">●</span> {v}' for v, c in color_of.items())
        self.legend.setText(f"{plotted}{why} &nbsp; {keys}")
        self.plot.getViewBox().setDefaultPadding(0.08)
        self.plot.enableAutoRange()

    def _tip(self, x: float, y: float, data: Any) -> str:
        return f"{self._names.get(str(data), '')}\n{x:,.4g}, {y:,.4g}"

    def _on_clicked(self, _item: Any, spots: Any, *_: Any) -> None:
        if len(spots):
            self.part_clicked.emit(str(spots[0].data()))
