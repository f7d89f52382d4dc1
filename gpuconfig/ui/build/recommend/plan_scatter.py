"""Cost against throughput of a plan's candidates, with the Pareto front drawn through the ones no other beats."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import numpy as np
import pyqtgraph as pg
from PySide6.QtCore import Signal
from PySide6.QtGui import QColor
from PySide6.QtWidgets import QVBoxLayout, QWidget

from gpuconfig.core.money import format_money
from gpuconfig.core.planner.recommend import Candidate
from gpuconfig.ui.theme import Colors
from gpuconfig.ui.widgets.plots import style_axes


class PlanScatter(QWidget):
    """Emits `candidate_clicked(index)` (into the candidates it was given) when a point is clicked."""

    candidate_clicked = Signal(int)

    def __init__(self, colors: Colors, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.plot = pg.PlotWidget()
        self.plot.setObjectName("plan_scatter")
        self.plot.showGrid(x=True, y=True, alpha=0.25)
        self.plot.setMenuEnabled(False)
        self.plot.getViewBox().setDefaultPadding(0.1)
        # Created once and fed with setData: the others, the front's line, and the front's points over both.
        self.others = pg.ScatterPlotItem(size=9, hoverable=True, tip=self._tip)
        self.front_line = pg.PlotDataItem()
        self.front = pg.ScatterPlotItem(size=13, hoverable=True, tip=self._tip)
        for item in (self.others, self.front_line, self.front):
            self.plot.addItem(item)
        self._labels: list[pg.TextItem] = []
        layout = QVBoxLayout(self)
        layout.setContentsMargins(0, 0, 0, 0)
        layout.addWidget(self.plot)
        self.candidates: list[Candidate] = []
        self.currency = "USD"
        self.unit = ""
        self.selected = -1
        self.scale = 1.0
        self.apply_colors(colors)
        self.others.sigClicked.connect(self._on_clicked)
        self.front.sigClicked.connect(self._on_clicked)

    def apply_colors(self, colors: Colors) -> None:
        self.colors = colors
        style_axes(self.plot, colors)
        self._draw()

    def set_candidates(self, candidates: Sequence[Candidate], currency: str, unit: str) -> None:
        """Plot every candidate whose speed is known; `unit` names the throughput ('tokens/s')."""
        self.candidates = list(candidates)
        self.currency, self.unit = currency, unit
        self.selected = -1
        self._draw()

    def select(self, index: int) -> None:
        self.selected = index
        self._draw()

    def plotted(self) -> list[int]:
        return [i for i, c in enumerate(self.candidates) if c.option.throughput is not None]

    def _draw(self) -> None:
        if not hasattr(self, "colors"):
            return
        shown = self.plotted()
        front = sorted((i for i in shown if self.candidates[i].pareto), key=lambda i: self.candidates[i].cost)
        rest = [i for i in shown if not self.candidates[i].pareto]
        top = max((self.candidates[i].option.throughput or 0.0 for i in shown), default=0.0)
        # Throughput in thousands or millions where it is large, so the axis reads 2.5 rather than 2.5e+06.
        self.scale, scaled = next(
            ((f, name) for f, name in ((1e6, "M"), (1e3, "k")) if top >= f),
            (1.0, ""),
        )
        self.others.setData(self._spots(rest, self.colors.muted))
        self.front.setData(self._spots(front, self.colors.highlight))
        xs = np.array([self.candidates[i].cost for i in front], dtype=float)
        ys = np.array([self._y(i) for i in front], dtype=float)
        self.front_line.setData(xs, ys, pen=pg.mkPen(self.colors.highlight, width=1))
        # Named on the chart: the front's cheapest and fastest, and the build selected; hovering names any.
        named = dict.fromkeys(
            ([front[0], front[-1]] if front else []) + ([self.selected] if self.selected in shown else [])
        )
        self._label(list(named), front[-1] if front else -1)
        self.plot.setLabel("bottom", self.tr("Cost ({currency})").format(currency=self.currency))
        unit = f"{scaled} {self.unit}".strip()  # "M tokens/s"
        self.plot.setLabel("left", self.tr("Throughput ({unit})").format(unit=unit) if self.unit else "")
        self._fit_range([self.candidates[i].cost for i in shown], [self._y(i) for i in shown])

    def _fit_range(self, xs: list[float], ys: list[float]) -> None:
        """Every point in view with a margin, also when there is one point (autorange would zoom onto it)."""
        view = self.plot.getViewBox()
        for values, axis in ((xs, "x"), (ys, "y")):
            if not values:
                continue
            lo, hi = min(values), max(values)
            pad = max((hi - lo) * 0.12, abs(hi) * 0.08, 1.0)
            if axis == "x":
                view.setXRange(lo - pad, hi + pad, padding=0)
            else:
                view.setYRange(max(0.0, lo - pad), hi + pad, padding=0)

    def _y(self, index: int) -> float:
        return (self.candidates[index].option.throughput or 0.0) / self.scale

    def _spots(self, indexes: list[int], color: str) -> list[dict[str, Any]]:
        spots = []
        for i in indexes:
            c = self.candidates[i]
            chosen = i == self.selected
            spots.append(
                {
                    "pos": (c.cost, self._y(i)),
                    "data": i,
                    "brush": pg.mkBrush(color),
                    "pen": pg.mkPen(self.colors.text, width=2) if chosen else pg.mkPen(self.colors.base, width=1),
                    "size": 16 if chosen else (13 if c.pareto else 9),
                }
            )
        return spots

    def _label(self, indexes: list[int], rightmost: int) -> None:
        """Name some points; the text items are kept and reused, the extra ones hidden. The rightmost point's
        name goes to its left, inside the chart."""
        while len(self._labels) < len(indexes):
            label = pg.TextItem()
            self.plot.addItem(label)
            self._labels.append(label)
        for n, label in enumerate(self._labels):
            if n < len(indexes):
                i = indexes[n]
                c = self.candidates[i]
                label.setText(c.build.name, color=QColor(self.colors.text))
                label.setAnchor((1.05, 1) if i == rightmost else (-0.05, 1))
                label.setPos(c.cost, self._y(i))
                label.show()
            else:
                label.hide()

    def _tip(self, x: float, y: float, data: Any) -> str:
        c = self.candidates[int(data)]
        speed = c.option.throughput or 0.0
        return f"{c.build.name}\n{format_money(c.cost, self.currency)} · {speed:,.0f} {self.unit}"

    def _on_clicked(self, _item: Any, spots: Any, *_: Any) -> None:
        if len(spots):
            self.candidate_clicked.emit(int(spots[0].data()))
