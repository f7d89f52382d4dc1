"""Live graphs of the sampler's series: stacked pyqtgraph plots, curves made once, fed by one display timer.

The sampler records on its own thread into ring buffers; this widget only reads a snapshot per display
tick and hands each curve its arrays with `setData` (never clearing or re-adding items per frame, which
leaks in pyqtgraph: pyqtgraph/pyqtgraph#2348, #2665, #2672). Benchmark phases are vertical lines on the time
axis, named on the top plot.
"""

from __future__ import annotations

import math
import re
import time
import warnings
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any, Protocol

import numpy as np
import pyqtgraph as pg
from PySide6.QtCore import QCoreApplication, Qt, QTimer
from PySide6.QtGui import QColor
from PySide6.QtWidgets import QLabel, QVBoxLayout, QWidget

from gpuconfig.core.i18n import QT_TRANSLATE_NOOP, translate
from gpuconfig.ui.theme import Colors, mark

MARK_SPACING_PX = 16  # a phase's name is left out when it would start closer than this to the one before
DISPLAY_HZ = 10.0  # display refresh: the sampler's fastest rate (issue 4: 1–10 Hz), so no sample waits long
# Distinct mid-tone hues that read on the light and the dark background (Tableau 10 order).
CURVE_COLORS = ("#4e79a7", "#f28e2b", "#e15759", "#76b7b2", "#59a14f", "#b07aa1", "#ff9da7", "#9c755f", "#edc948")
_GPU_CHANNEL = re.compile(r"^gpu(\d+)\.(\w+)$")
_CORE_CHANNEL = re.compile(r"^cpu\.core(\d+)$")


class SeriesView(Protocol):
    """What the plot reads of a recorded series (the sampler's `Series`)."""

    @property
    def t(self) -> np.ndarray: ...
    @property
    def channels(self) -> Mapping[str, np.ndarray]: ...
    @property
    def units(self) -> Mapping[str, str]: ...
    @property
    def marks(self) -> Sequence[tuple[float, str]]: ...
    @property
    def unavailable(self) -> Mapping[str, str]: ...


@dataclass(frozen=True)
class Curve:
    """Where one channel is drawn: the panel (one plot), its name in that plot's title, and whether it is
    a faint background curve (each CPU core behind the total)."""

    panel: str
    name: str
    background: bool = False


def _tr(text: str) -> str:
    return QCoreApplication.translate("LivePlot", text)


# Host channels with a fixed name: (panel, name shown in the plot's title).
_HOST_CURVES: dict[str, tuple[str, str]] = {
    "cpu.total": ("cpu", QT_TRANSLATE_NOOP("LivePlot", "total")),
    "ram.used": ("memory", QT_TRANSLATE_NOOP("LivePlot", "used")),
    "disk.read": ("io", QT_TRANSLATE_NOOP("LivePlot", "disk read")),
    "disk.write": ("io", QT_TRANSLATE_NOOP("LivePlot", "disk write")),
    "net.rx": ("io", QT_TRANSLATE_NOOP("LivePlot", "network in")),
    "net.tx": ("io", QT_TRANSLATE_NOOP("LivePlot", "network out")),
}
# Per-GPU channels: suffix -> (panel, what tells two curves of one GPU in one plot apart).
_GPU_CURVES: dict[str, tuple[str, str]] = {
    "util": ("gpu_util", ""),
    "mem_used": ("gpu_memory", ""),
    "temp": ("gpu_temp", ""),
    "power": ("gpu_power", ""),
    "sm_clock": ("gpu_clock", QT_TRANSLATE_NOOP("LivePlot", "SM")),
    "mem_clock": ("gpu_clock", QT_TRANSLATE_NOOP("LivePlot", "memory")),
    "pcie_rx": ("gpu_pcie", QT_TRANSLATE_NOOP("LivePlot", "in")),
    "pcie_tx": ("gpu_pcie", QT_TRANSLATE_NOOP("LivePlot", "out")),
}


def curve_of(channel: str) -> Curve | None:
    """The plot and name of a sampler channel; None for channels not graphed (throttle reason bit masks are
    judged by the verdicts, not drawn)."""
    if channel in _HOST_CURVES:
        panel, name = _HOST_CURVES[channel]
        return Curve(panel, _tr(name))
    core = _CORE_CHANNEL.match(channel)
    if core:
        return Curve("cpu", _tr("core {n}").format(n=core.group(1)), background=True)
    gpu = _GPU_CHANNEL.match(channel)
    if gpu:
        index, quantity = gpu.groups()
        if quantity not in _GPU_CURVES:
            return None
        panel, part = _GPU_CURVES[quantity]
        name = _tr("GPU {index}").format(index=index)
        return Curve(panel, f"{name} {_tr(part)}" if part else name)
    return Curve("other", channel)


PANEL_ORDER = (
    "cpu",
    "memory",
    "io",
    "gpu_util",
    "gpu_memory",
    "gpu_temp",
    "gpu_power",
    "gpu_clock",
    "gpu_pcie",
    "other",
)


def blend(a: str, b: str, share: float) -> str:
    """An opaque colour `share` of the way from a to b (opaque pens keep pyqtgraph on its fast path)."""
    ca, cb = QColor(a), QColor(b)
    mixed = QColor()
    mixed.setRgbF(
        ca.redF() + (cb.redF() - ca.redF()) * share,
        ca.greenF() + (cb.greenF() - ca.greenF()) * share,
        ca.blueF() + (cb.blueF() - ca.blueF()) * share,
    )
    return mixed.name()


def short_name(text: str) -> str:
    """A phase's name short enough to stand along a plot's height: before any parenthesis, at most 24
    characters."""
    head = text.split(" (", 1)[0].strip()
    return head if len(head) <= 24 else head[:23].rstrip() + "…"


def nice_ceiling(value: float) -> float:
    """The smallest of 1, 2 or 5 times a power of ten at or above `value` (at least 1): a y range that only
    moves when the data outgrow it."""
    if not value > 1.0:  # also NaN
        return 1.0
    power = 10.0 ** math.floor(math.log10(value))
    return next(step * power for step in (1.0, 2.0, 5.0, 10.0) if step * power >= value)


class LivePlot(QWidget):
    """Stacked plots of a series. `source()` returns the newest snapshot (or None); while `start()`ed a
    display timer calls it DISPLAY_HZ times a second and updates every curve from it."""

    def __init__(self, colors: Colors, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.colors = colors
        self.source: Callable[[], SeriesView | None] | None = None
        self.view = pg.GraphicsLayoutWidget()
        self.view.setObjectName("live_plot")
        self.note = QLabel()
        self.note.setObjectName("live_plot_note")
        self.note.setWordWrap(True)
        mark(self.note, "muted")
        self.note.hide()
        layout = QVBoxLayout(self)
        layout.setContentsMargins(0, 0, 0, 0)
        layout.setSpacing(4)
        layout.addWidget(self.view, 1)
        layout.addWidget(self.note)

        self.plots: dict[str, pg.PlotItem] = {}
        self.curves: dict[str, pg.PlotDataItem] = {}
        self._layout_of: tuple[str, ...] = ()  # the channels the curves were made for
        self._units: dict[str, str] = {}
        self._panels: dict[str, list[str]] = {}  # panel: its channels
        self._percent: set[str] = set()  # panels drawn on a fixed 0–100 scale
        self._grids: dict[str, pg.PlotCurveItem] = {}  # panel: its horizontal grid lines
        self._y_top: dict[str, float] = {}
        self._step: dict[str, int] = {}  # panel: samples per drawn point pair
        self._mark_curves: dict[str, pg.PlotCurveItem] = {}  # panel: the lines of every phase mark
        self._mark_labels: dict[tuple[float, str], pg.TextItem] = {}  # (time, name): its name on the top plot
        self._marks_drawn: tuple[Any, ...] = ()  # the marks and y ranges the lines were drawn for
        self.mark_names: dict[tuple[float, str], str] = {}  # a shorter name to show for a mark (time, text)
        self._drawn: tuple[Any, ...] = ()  # what the last tick drew: samples, last time, marks
        self.ticks = 0  # display updates done (the benchmark and the tests count them)
        self.last_update_s = 0.0  # how long the last update's setData calls took
        self.timer = QTimer(self)
        self.timer.setTimerType(Qt.TimerType.PreciseTimer)
        self.timer.setInterval(round(1000 / DISPLAY_HZ))
        self.timer.timeout.connect(self.tick)

    # -- public -----------------------------------------------------------------------------------

    def start(self) -> None:
        """Update from `source` on the display timer until `stop()`."""
        if not self.timer.isActive():
            self.timer.start()
        self.tick()

    def stop(self) -> None:
        self.timer.stop()
        self._drawn = ()

    def running(self) -> bool:
        return self.timer.isActive()

    def tick(self) -> None:
        """One display update: read the newest snapshot and feed it to the curves."""
        if self.source is None:
            return
        series = self.source()
        if series is None:
            return
        # Sampled slower than drawn (2 Hz against 10): a tick with no new sample or mark draws nothing.
        drawn = (len(series.t), float(series.t[-1]) if len(series.t) else None, len(series.marks))
        if drawn != self._drawn:
            self._drawn = drawn
            self.show_series(series)

    def show_series(self, series: SeriesView) -> None:
        """Draw a series (a live snapshot or a recorded run's): curves are made only when its set of
        channels differs from the last one drawn."""
        begin = time.perf_counter()
        names = tuple(name for name in series.channels if curve_of(name) is not None)
        if names != self._layout_of or any(self._units[n] != series.units.get(n, "") for n in names):
            self._build(names, series.units)
        t = np.asarray(series.t, dtype=np.float64)  # float64 keeps clipToView's searchsorted fast
        self._set_downsampling(len(t))
        for name in names:
            self.curves[name].setData(t, np.asarray(series.channels[name], dtype=np.float64))
        self._set_ranges(t, series.channels)
        gpu = series.unavailable.get("gpu")
        note = self.tr("No GPU graphs: {why}.").format(why=translate("Probe", gpu)) if gpu else ""
        if note != self.note.text():
            self.set_note(note)
        self._draw_marks(series.marks, float(t[0]) if len(t) else 0.0)
        # Settle the new view ranges now: done inside the paint, they would ask for a second paint.
        self.view.scene().prepareForPaint()
        self.ticks += 1
        self.last_update_s = time.perf_counter() - begin

    def _set_downsampling(self, samples: int) -> None:
        """About one min/max pair per pixel column: pyqtgraph's automatic choice keeps five samples a pixel,
        which on a software-painted view makes drawing the curves most of the update."""
        for panel, members in self._panels.items():
            width = max(1.0, self.plots[panel].getViewBox().width())
            step = max(1, int(samples / width))
            if step != self._step.get(panel):
                self._step[panel] = step
                for name in members:
                    self.curves[name].setDownsampling(ds=step, auto=False, method="peak")

    def _set_ranges(self, t: np.ndarray, channels: Mapping[str, np.ndarray]) -> None:
        """The view ranges and the y grid, set here rather than by pyqtgraph: its auto-range runs inside the
        paint and asks for a second paint each update, and its grid lines (blended, at every tick level)
        cost more to paint than all the curves. A y range only changes when the data outgrow it."""
        if not self.plots or not len(t):
            return
        start, end = float(t[0]), max(float(t[-1]), float(t[0]) + 1.0)
        next(iter(self.plots.values())).setXRange(start, end, padding=0)  # the others are linked to it
        for panel, members in self._panels.items():
            if panel in self._percent:
                top = 100.0
            else:
                with warnings.catch_warnings():
                    warnings.simplefilter("ignore", RuntimeWarning)  # all NaN: nothing read yet
                    peak = max((float(np.nanmax(channels[n])) for n in members if len(channels[n])), default=0.0)
                top = nice_ceiling(peak)
            plot = self.plots[panel]
            levels = np.linspace(0.0, top, 6)
            if top != self._y_top.get(panel):
                self._y_top[panel] = top
                plot.setYRange(0, top * 1.04, padding=0)
                plot.getAxis("left").setTicks([[(float(v), f"{v:g}") for v in levels]])
            self._grids[panel].setData(
                np.tile([start, end], len(levels) - 1), np.repeat(levels[1:], 2), connect="pairs"
            )

    def clear(self) -> None:
        """Forget the curves (a new source with other channels follows)."""
        self.view.clear()
        self.plots.clear()
        self.curves.clear()
        self._panels.clear()
        self._y_top.clear()
        self._step.clear()
        self._percent.clear()
        self._grids.clear()
        self._layout_of = ()
        self._mark_curves.clear()
        self._mark_labels.clear()
        self._marks_drawn = ()

    def set_note(self, text: str) -> None:
        """A muted line under the plots (why there are no GPU graphs, which run is shown)."""
        self.note.setText(text)
        self.note.setVisible(bool(text))

    def apply_colors(self, colors: Colors) -> None:
        self.colors = colors
        self.view.setBackground(colors.base)
        for panel, plot in self.plots.items():
            for name in ("left", "bottom"):
                axis = plot.getAxis(name)
                axis.setPen(pg.mkPen(colors.muted))
                axis.setTextPen(pg.mkPen(colors.text))
            self._title(panel)
        for name, curve in self.curves.items():
            curve.setPen(pg.mkPen(self._color(name), width=1))
        for mark_curve in self._mark_curves.values():
            mark_curve.setPen(pg.mkPen(blend(colors.muted, colors.base, 0.3), width=1))
        for grid in self._grids.values():
            grid.setPen(pg.mkPen(colors.grid, width=1))
        for label in self._mark_labels.values():
            label.setColor(QColor(colors.text))
            label.fill = pg.mkBrush(self._label_fill())
            label.update()

    # -- building ---------------------------------------------------------------------------------

    def _build(self, names: tuple[str, ...], units: Mapping[str, str]) -> None:
        self.clear()
        self._layout_of = names
        self._units = {n: units.get(n, "") for n in names}
        panels: dict[str, list[str]] = {}
        for name in names:
            curve = curve_of(name)
            assert curve is not None
            panels.setdefault(curve.panel, []).append(name)
        ordered = [p for p in PANEL_ORDER if p in panels]
        self._panels = {p: panels[p] for p in ordered}
        columns = 1 if len(ordered) <= 4 else 2
        top: pg.PlotItem | None = None
        for i, panel in enumerate(ordered):
            plot = self.view.addPlot(row=i // columns, col=i % columns)
            plot.setMenuEnabled(False)
            plot.setMouseEnabled(x=False, y=False)
            plot.hideButtons()
            plot.getAxis("left").setWidth(48)
            plot.getAxis("left").enableAutoSIPrefix(False)
            plot.disableAutoRange()
            if all(self._units[n] == "%" for n in panels[panel]):  # shares: the whole 0–100 scale
                self._percent.add(panel)
            if top is None:
                top = plot
            else:
                plot.setXLink(top)
            self.plots[panel] = plot
            grid = pg.PlotCurveItem(antialias=False)
            plot.addItem(grid, ignoreBounds=True)
            self._grids[panel] = grid
            marks = pg.PlotCurveItem(antialias=False)
            plot.addItem(marks, ignoreBounds=True)
            self._mark_curves[panel] = marks
            # Background curves first, so the total and the named curves draw over them.
            for name in sorted(panels[panel], key=lambda n: not curve_of(n).background):  # type: ignore[union-attr]
                item = pg.PlotDataItem(
                    pen=pg.mkPen(self._color(name), width=1),
                    antialias=False,
                    clipToView=True,
                    connect="finite",  # a sample that could not be read is NaN: a gap, not a zero
                )
                plot.addItem(item)
                self.curves[name] = item
        for plot in list(self.plots.values())[-columns:]:
            plot.setLabel("bottom", self.tr("seconds"))
        self.apply_colors(self.colors)

    def _color(self, name: str) -> str:
        curve = curve_of(name)
        assert curve is not None
        if curve.background:
            return blend(self.colors.muted, self.colors.base, 0.55)
        if curve.panel == "cpu":
            return self.colors.highlight
        siblings = [n for n in self._layout_of if not curve_of(n).background and curve_of(n).panel == curve.panel]  # type: ignore[union-attr]
        return CURVE_COLORS[siblings.index(name) % len(CURVE_COLORS)] if name in siblings else CURVE_COLORS[0]

    def _title(self, panel: str) -> None:
        names = {
            "cpu": self.tr("CPU"),
            "memory": self.tr("Memory"),
            "io": self.tr("Disk and network"),
            "gpu_util": self.tr("GPU utilisation"),
            "gpu_memory": self.tr("GPU memory used"),
            "gpu_temp": self.tr("GPU temperature"),
            "gpu_power": self.tr("GPU power"),
            "gpu_clock": self.tr("GPU clocks"),
            "gpu_pcie": self.tr("PCIe traffic"),
            "other": self.tr("Other"),
        }
        members = [n for n in self._layout_of if curve_of(n).panel == panel]  # type: ignore[union-attr]
        unit = self._units[members[0]] if members else ""
        keys = []
        shown_background = False
        for name in members:
            curve = curve_of(name)
            assert curve is not None
            if curve.background:
                if shown_background:
                    continue
                shown_background = True
                label = self.tr("each core")
            else:
                label = curve.name
            keys.append(f'<span style="color:{self._color(name)}">■</span>&nbsp;{label}')
        head = f"<b>{names[panel]}</b>" + (f" ({unit})" if unit else "")
        text = head + "&nbsp;&nbsp; " + "&nbsp;&nbsp;".join(keys)
        self.plots[panel].setTitle(text, size="9pt", color=self.colors.text, justify="left")

    def _draw_marks(self, marks: Sequence[tuple[float, str]], first_t: float) -> None:
        """The phase marks inside the window: one line item per plot draws all of them (one item per mark
        and plot made every repaint several times dearer), and the top plot names each."""
        shown = tuple(sorted((x, name) for x, name in marks if x >= first_t))
        tops = tuple(self._y_top_of(panel) for panel in self.plots)
        if not self.plots:
            return
        if (shown, tops) != self._marks_drawn:
            self._marks_drawn = (shown, tops)
            xs = np.repeat(np.array([x for x, _ in shown], dtype=np.float64), 2)
            for panel, top in zip(self.plots, tops, strict=True):
                ys = np.tile(np.array([0.0, top]), len(shown))
                self._mark_curves[panel].setData(xs, ys, connect="pairs")
            top_plot = next(iter(self.plots.values()))
            for key in [k for k in self._mark_labels if k not in shown]:
                top_plot.removeItem(self._mark_labels.pop(key))
            for key in shown:
                label = self._mark_labels.get(key)
                if label is None:
                    label = pg.TextItem("", color=self.colors.text, angle=90, anchor=(1, 0), fill=self._label_fill())
                    top_plot.addItem(label, ignoreBounds=True)
                    self._mark_labels[key] = label
                label.setPos(key[0], tops[0])
        self._name_marks(shown)

    def _name_marks(self, shown: tuple[tuple[float, str], ...]) -> None:
        """Each mark's name, left out where the next phase starts too close after it to print it: a phase
        over in a moment (a skipped benchmark) gives way to the one that follows."""
        view = next(iter(self.plots.values())).getViewBox()
        (x0, x1), width = view.viewRange()[0], view.width()
        pixels_per_s = width / (x1 - x0) if x1 > x0 else 0.0
        following = math.inf
        for key in reversed(shown):
            label = self._mark_labels[key]
            text = self.mark_names.get(key) or short_name(key[1])
            if label.textItem.toPlainText() != text:
                label.setText(text)
            at = key[0] * pixels_per_s
            fits = following - at >= MARK_SPACING_PX
            label.setVisible(fits)
            if fits:
                following = at

    def _label_fill(self) -> QColor:
        """The plot's background, a little see-through: a phase's name stays readable over the curves."""
        fill = QColor(self.colors.base)
        fill.setAlpha(200)
        return fill

    def _y_top_of(self, panel: str) -> float:
        return self._y_top.get(panel, 1.0)
