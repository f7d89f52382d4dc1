"""Peak memory per GPU against the micro-batch, with the GPU's memory drawn as a line (pyqtgraph)."""

from __future__ import annotations

from collections.abc import Callable

import numpy as np
import pyqtgraph as pg
from PySide6.QtCore import Qt
from PySide6.QtGui import QColor, QFont
from PySide6.QtWidgets import QLabel, QVBoxLayout, QWidget

from gpuconfig.core.workload.spec import MAX_SIZE
from gpuconfig.ui.theme import Colors, mark
from gpuconfig.ui.widgets.plots import style_axes

GIB = 1024**3
MIB = 1024**2
SAMPLES = 96  # points on the curve: the peak is piecewise linear in the batch, so a few dozen draw it exactly
SEARCH_LIMIT = MAX_SIZE  # the largest micro-batch a workload may ask
HEADROOM = 1.08  # the memory axis runs to this much above the highest value drawn
# Where the limit line's label hangs from its point on the line (pyqtgraph anchors: the label's own corner
# there, one for each half of the view): its bottom-left corner (the label above the line) or its top-left.
ABOVE = ((0, 1), (0, 1))
BELOW = ((0, 0), (0, 0))
LABEL_BELOW_FROM = 0.75  # the line's height, as a share of the axis, from which its label goes below it


def largest_fitting(peak_at: Callable[[int], int], limit: int) -> int:
    """The largest batch whose peak is within `limit` (0: not even one; SEARCH_LIMIT caps the search).
    The peak grows with the batch, so doubling and then bisecting finds it in a few dozen calls."""
    if peak_at(1) > limit:
        return 0
    low = 1
    while low < SEARCH_LIMIT and peak_at(min(low * 2, SEARCH_LIMIT)) <= limit:
        low = min(low * 2, SEARCH_LIMIT)
    if low >= SEARCH_LIMIT:
        return SEARCH_LIMIT
    high = min(low * 2, SEARCH_LIMIT)  # peak_at(high) > limit
    while high - low > 1:
        middle = (low + high) // 2
        if peak_at(middle) <= limit:
            low = middle
        else:
            high = middle
    return low


def batch_range(batch: int, largest: int | None) -> np.ndarray:
    """The batches to draw: up to twice the one asked, stretched to show where the limit is crossed when
    that is near, and never past the largest micro-batch a workload may ask."""
    end = max(8, 2 * batch)
    if largest is not None and 0 < largest <= 4 * end:
        end = max(end, int(largest * 1.25) + 2)
    end = min(end, SEARCH_LIMIT)
    return np.unique(np.linspace(1, end, SAMPLES).round()).astype(np.float64)


class BatchChart(QWidget):
    def __init__(self, colors: Colors, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.title = QLabel()
        font = self.title.font()
        font.setWeight(QFont.Weight.DemiBold)
        self.title.setFont(font)
        self.note = QLabel()
        self.note.setObjectName("largest_batch")
        mark(self.note, "muted")
        self.plot = pg.PlotWidget()
        self.plot.setObjectName("batch_chart")
        self.plot.setMenuEnabled(False)
        self.plot.setMouseEnabled(x=False, y=False)
        self.plot.hideButtons()
        self.plot.showGrid(x=True, y=True, alpha=0.25)
        self.plot.setLabel("bottom", self.tr("micro-batch"))
        self.plot.getAxis("left").enableAutoSIPrefix(False)  # the unit is chosen here: GiB or MiB
        self.unit = GIB  # bytes per unit on the memory axis
        self.curve = pg.PlotDataItem()
        self.marker = pg.ScatterPlotItem(size=11)
        # The GPU's name sits at the left end of its line: above it, or below it when the line is near the
        # chart's top edge and the name would be cut off there (see _place_limit_label).
        self.limit_line = pg.InfiniteLine(
            angle=0, movable=False, label="", labelOpts={"position": 0.02, "anchors": list(ABOVE)}
        )
        self.batch_line = pg.InfiniteLine(angle=90, movable=False)
        self.over_limit = pg.LinearRegionItem(orientation="horizontal", movable=False)  # shaded: does not fit
        for item in (self.over_limit, self.limit_line, self.batch_line, self.curve, self.marker):
            self.plot.addItem(item)
        layout = QVBoxLayout(self)
        layout.setContentsMargins(0, 0, 0, 0)
        layout.setSpacing(2)
        layout.addWidget(self.title)
        layout.addWidget(self.plot, 1)
        layout.addWidget(self.note)
        self._exceeded = False
        self.apply_colors(colors)
        self.show_curve(None, None, None, "", 0, 0.0)
        self._label_axes(on_gpu=True)

    def apply_colors(self, colors: Colors) -> None:
        self.colors = colors
        style_axes(self.plot, colors)
        self.curve.setPen(pg.mkPen(colors.highlight, width=2))
        shade = QColor(colors.error)
        shade.setAlpha(28)
        self.over_limit.setBrush(pg.mkBrush(shade))
        for line in self.over_limit.lines:
            line.setPen(pg.mkPen(None))
        self.batch_line.setPen(pg.mkPen(colors.muted, style=Qt.PenStyle.DotLine))
        self._color_limit(self._exceeded)

    def _color_limit(self, exceeded: bool) -> None:
        self._exceeded = exceeded
        color = self.colors.error if exceeded else self.colors.text
        self.limit_line.setPen(pg.mkPen(color, width=1.5, style=Qt.PenStyle.DashLine))
        self.limit_line.label.setColor(QColor(color))
        brush = self.colors.error if exceeded else self.colors.highlight
        self.marker.setBrush(pg.mkBrush(brush))
        self.marker.setPen(pg.mkPen(self.colors.base, width=1.5))

    def _label_axes(self, on_gpu: bool) -> None:
        unit = self.tr("GiB") if self.unit == GIB else self.tr("MiB")
        if on_gpu:
            self.title.setText(self.tr("Peak memory per GPU by micro-batch size"))
            self.plot.setLabel("left", self.tr("{unit} per GPU").format(unit=unit))
        else:
            self.title.setText(self.tr("Peak memory by batch size"))
            self.plot.setLabel("left", unit)

    def show_curve(
        self,
        batches: np.ndarray | None,
        peaks: np.ndarray | None,
        limit: int | None,
        limit_label: str,
        batch: int,
        peak: float,
        note: str = "",
        on_gpu: bool = True,
    ) -> None:
        """`peaks` in bytes at each of `batches`; `limit` the GPU's memory (None: no line); the current
        batch and its peak are marked. The axis is in GiB, or MiB when everything is under 1 GiB."""
        self.note.setText(note)
        if batches is None or peaks is None or not len(batches):
            self.curve.setData([], [])
            self.marker.setData([], [])
            self.limit_line.hide()
            self.batch_line.hide()
            self.over_limit.hide()
            return
        top = max(float(peaks.max()), peak, float(limit or 0))
        self.unit = GIB if top >= GIB else MIB
        self._label_axes(on_gpu)
        unit = self.unit
        self.curve.setData(batches, peaks / unit)
        self.marker.setData([float(batch)], [peak / unit])
        self.batch_line.setValue(float(batch))
        self.batch_line.show()
        if limit:
            self.limit_line.setValue(limit / unit)
            self.limit_line.show()
            self.limit_line.label.setFormat(limit_label)  # after show(): a hidden label ignores it
            self.over_limit.setRegion((limit / unit, top / unit * 2))
            self.over_limit.show()
        else:
            self.limit_line.hide()
            self.over_limit.hide()
        exceeded = bool(limit) and peak > (limit or 0)
        if exceeded != self._exceeded:
            self._color_limit(exceeded)
        self.plot.setXRange(1, float(batches[-1]), padding=0.02)
        self.plot.setYRange(0, top / unit * HEADROOM, padding=0)
        if limit:
            self._place_limit_label(limit / top / HEADROOM)

    def _place_limit_label(self, height: float) -> None:
        """The limit's label above its line, or below it when the line is in the chart's top quarter
        (`height`, the line's height as a share of the axis): the chart keeps only a few percent of room
        above its highest value, less than a line of text."""
        label = self.limit_line.label
        label.anchors = list(BELOW if height > LABEL_BELOW_FROM else ABOVE)
        label.updatePosition()
