"""What the link costs: host-to-device copies over it against the same card in a desktop slot (bars on one
scale), and the slowdown of the Workload tab's workload from what crosses the link each step."""

from __future__ import annotations

from dataclasses import dataclass

from PySide6.QtCore import QPointF, QRectF, QSize, Qt
from PySide6.QtGui import QColor, QPainter, QPaintEvent
from PySide6.QtWidgets import QGridLayout, QLabel, QProgressBar, QSizePolicy, QVBoxLayout, QWidget

from gpuconfig.core.egpu.check import port_label
from gpuconfig.core.egpu.speed import STREAM_SOURCE, LinkSpeed, Slowdown
from gpuconfig.core.units import format_bytes
from gpuconfig.ui.egpu.view import source_links
from gpuconfig.ui.theme import MEMORY_COLORS, Colors, mark, text_on

BAR_HEIGHT = 20
ROW_GAP = 8
EGPU_COLOR, DESKTOP_COLOR, MEASURED_COLOR = MEMORY_COLORS["gradients"], MEMORY_COLORS["weights"], "#59a14f"


@dataclass(frozen=True)
class Bar:
    label: str
    gbs: float
    color: str
    span: tuple[float, float] | None = None  # the range measured on this kind of link


class LinkBars(QWidget):
    """Horizontal bars in GB/s on one scale, each labelled on the left with its figure at its end."""

    def __init__(self, colors: Colors, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.colors = colors
        self.bars: list[Bar] = []
        self.setSizePolicy(QSizePolicy.Policy.Expanding, QSizePolicy.Policy.Fixed)

    def sizeHint(self) -> QSize:
        return QSize(360, max(1, len(self.bars)) * (BAR_HEIGHT + ROW_GAP))

    def minimumSizeHint(self) -> QSize:
        return QSize(220, self.sizeHint().height())

    def set_bars(self, bars: list[Bar]) -> None:
        self.bars = bars
        self.updateGeometry()
        self.update()

    def apply_colors(self, colors: Colors) -> None:
        self.colors = colors
        self.update()

    def paintEvent(self, event: QPaintEvent) -> None:
        if not self.bars:
            return
        painter = QPainter(self)
        painter.setRenderHint(QPainter.RenderHint.Antialiasing)
        metrics = painter.fontMetrics()
        left = float(max(metrics.horizontalAdvance(b.label) for b in self.bars) + 10)
        right = float(self.width() - 2)
        scale = max(max(b.gbs, b.span[1] if b.span else 0) for b in self.bars) * 1.02
        width = max(1.0, right - left)

        def x_of(gbs: float) -> float:
            return left + width * gbs / scale

        for i, bar in enumerate(self.bars):
            top = float(i * (BAR_HEIGHT + ROW_GAP))
            baseline = top + (BAR_HEIGHT + metrics.ascent() - metrics.descent()) / 2
            painter.setPen(QColor(self.colors.muted))
            painter.drawText(QPointF(0, baseline), bar.label)
            painter.setPen(Qt.PenStyle.NoPen)
            painter.setBrush(QColor(self.colors.alternate))
            painter.drawRoundedRect(QRectF(left, top, width, BAR_HEIGHT), 3, 3)
            if bar.span is not None:  # the measured range, a lighter band behind the typical figure
                band = QColor(bar.color)
                band.setAlpha(70)
                painter.fillRect(
                    QRectF(x_of(bar.span[0]), top, x_of(bar.span[1]) - x_of(bar.span[0]), BAR_HEIGHT), band
                )
            rect = QRectF(left, top, max(2.0, x_of(bar.gbs) - left), BAR_HEIGHT)
            painter.fillRect(rect, QColor(bar.color))
            text = f"{bar.gbs:.3g} GB/s"
            if bar.span is not None:
                text = f"{bar.gbs:.3g} GB/s ({bar.span[0]:g}–{bar.span[1]:g})"
            advance = metrics.horizontalAdvance(text)
            end = max(rect.right(), x_of(bar.span[1]) if bar.span else 0)
            if end + advance + 8 <= right:
                painter.setPen(QColor(self.colors.text))
                painter.drawText(QPointF(end + 6, baseline), text)
            else:
                painter.setPen(text_on(bar.color))
                painter.drawText(QPointF(rect.right() - advance - 6, baseline), text)
        painter.end()


def _label(name: str = "", muted: bool = False) -> QLabel:
    label = QLabel()
    if name:
        label.setObjectName(name)
    label.setWordWrap(True)
    label.setTextInteractionFlags(Qt.TextInteractionFlag.TextSelectableByMouse)
    if muted:
        mark(label, "muted")
    return label


class LinkPanel(QWidget):
    """The link's copy rate against a desktop slot, what a measurement here must reach, and the sources."""

    def __init__(self, colors: Colors, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.speed: LinkSpeed | None = None
        self.bars = LinkBars(colors)
        self.bars.setObjectName("egpu_link_bars")
        self.text = _label("egpu_link_text")
        self.sources = _label("egpu_link_sources", muted=True)
        self.sources.setTextFormat(Qt.TextFormat.RichText)
        self.sources.setTextInteractionFlags(Qt.TextInteractionFlag.TextBrowserInteraction)
        self.sources.setOpenExternalLinks(True)
        layout = QVBoxLayout(self)
        layout.setContentsMargins(0, 0, 0, 0)
        layout.setSpacing(6)
        layout.addWidget(self.bars)
        layout.addWidget(self.text)
        layout.addWidget(self.sources)

    def show_speed(
        self, speed: LinkSpeed | None, measured_gbs: float | None, desktop_source: str, why_none: str = ""
    ) -> None:
        """The link's rate against the desktop slot's (and the one measured here); `why_none` when no speed."""
        self.speed = speed
        if speed is None:
            self.bars.set_bars([])
            self.bars.hide()
            self.text.setText(why_none)
            self.sources.setText("")
            self.sources.setToolTip("")
            return
        link = speed.link
        bars = [
            Bar(
                self.tr("eGPU, {link}").format(link=port_label(link.id)),
                speed.egpu_gbs,
                EGPU_COLOR,
                link.h2d_range_gbs,
            ),
            Bar(self.tr("Desktop, {slot}").format(slot=speed.desktop_label), speed.desktop_gbs, DESKTOP_COLOR),
        ]
        if measured_gbs is not None:
            bars.insert(1, Bar(self.tr("Measured here"), measured_gbs, MEASURED_COLOR))
        self.bars.set_bars(bars)
        self.bars.show()
        text = self.tr(
            "Copies to the card run at about {egpu:g} GB/s over {link}: {share:.0%} of the same card in a desktop "
            "{slot} slot ({desktop:.3g} GB/s)."
        ).format(
            egpu=speed.egpu_gbs, link=link.name, share=speed.ratio, slot=speed.desktop_label, desktop=speed.desktop_gbs
        )
        if link.pass_gbs is not None:
            text += " " + self.tr("A measurement here is good at {gbs:g} GB/s or more.").format(gbs=link.pass_gbs)
        self.text.setText(text)
        self.sources.setText(self.tr("Sources: {links}").format(links=source_links(link.sources)))
        self.sources.setToolTip("\n".join([*link.sources, self.tr("Desktop: {source}").format(source=desktop_source)]))

    def apply_colors(self, colors: Colors) -> None:
        self.bars.apply_colors(colors)


class WorkloadPanel(QWidget):
    """The workload's step on the eGPU against the desktop slot: bytes per step, compute, copies, slowdown."""

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.what = _label("egpu_workload_what")
        self.progress = QProgressBar()
        self.progress.setObjectName("egpu_workload_progress")
        self.progress.setFormat("%v / %m")
        self.progress.setMaximumWidth(200)
        self.progress.hide()
        self.message = _label("egpu_workload_message", muted=True)
        self.figures: dict[str, QLabel] = {}
        self._grid = QGridLayout()
        self._grid.setHorizontalSpacing(12)
        self._grid.setVerticalSpacing(4)
        for row, (key, name) in enumerate(
            (
                ("bytes", self.tr("Crosses the link per step")),
                ("step", self.tr("Step compute on this card")),
                ("copy", self.tr("Copy per step")),
                ("serial", self.tr("Slowdown, copy before each step")),
                ("overlapped", self.tr("Slowdown with a prefetching loader")),
                ("load", self.tr("Loading the weights once")),
            )
        ):
            title = QLabel(name)
            mark(title, "muted")
            value = _label(f"egpu_{key}")
            self.figures[key] = value
            self._grid.addWidget(title, row, 0, Qt.AlignmentFlag.AlignTop)
            self._grid.addWidget(value, row, 1, Qt.AlignmentFlag.AlignTop)
        self._grid.setColumnStretch(1, 1)
        self._table = QWidget()
        self._table.setLayout(self._grid)
        self._grid.setContentsMargins(0, 0, 0, 0)
        layout = QVBoxLayout(self)
        layout.setContentsMargins(0, 0, 0, 0)
        layout.setSpacing(6)
        layout.addWidget(self.what)
        layout.addWidget(self.progress)
        layout.addWidget(self._table)
        layout.addWidget(self.message)
        self.show_message("")

    def show_message(self, text: str, what: str = "") -> None:
        """No figures: why (no workload yet, a failed trace, no link to time)."""
        self.progress.hide()
        self.what.setText(what)
        self.what.setVisible(bool(what))
        self._table.hide()
        self.message.setText(text)
        self.message.setToolTip("")
        self.message.setVisible(bool(text))

    def show_busy(self, what: str, text: str, done: int, total: int) -> None:
        self.show_message(text, what)
        self.progress.setRange(0, total)
        self.progress.setValue(done)
        self.progress.show()

    def show_slowdown(self, what: str, s: Slowdown) -> None:
        self.show_message("", what)
        versus = self.tr("{egpu} (desktop: {desktop})")
        self.figures["bytes"].setText(format_bytes(s.input_bytes))
        self.figures["step"].setText(duration(s.step_seconds))
        self.figures["copy"].setText(versus.format(egpu=duration(s.egpu_copy_s), desktop=duration(s.desktop_copy_s)))
        self.figures["serial"].setText(self._percent(s.serial))
        self.figures["overlapped"].setText(self._percent(s.overlapped))
        self.figures["load"].setText(versus.format(egpu=duration(s.load_egpu_s), desktop=duration(s.load_desktop_s)))
        self._table.show()
        self.message.setText(
            self.tr(
                "In a plain training loop the copy waits for the step's kernels on the same CUDA stream; a loader "
                "that prefetches the next batch on a side stream (pinned memory) hides it behind compute."
            )
        )
        self.message.setToolTip(STREAM_SOURCE)
        self.message.show()

    def _percent(self, fraction: float) -> str:
        if fraction < 0.0005:
            return self.tr("none measurable (under 0.1%)")
        return self.tr("<b>{share:.1%}</b> slower").format(share=fraction)


def duration(seconds: float) -> str:
    """'6.45 ms', '281 ms', '1.25 s', '18 µs': three figures, from the microseconds a few token ids take to
    cross a link to the minutes a large model's weights take."""
    if seconds < 1e-3:
        return f"{seconds * 1e6:.3g} µs"
    if seconds < 1:
        return f"{seconds * 1e3:.3g} ms"
    return f"{seconds:,.3g} s" if seconds < 100 else f"{seconds:,.0f} s"
