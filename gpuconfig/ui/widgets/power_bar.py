"""The build's power on one scale: what it draws against its supply's rating, and the wall against the circuit.

Two bars share one axis in watts. The supply bar stacks the cards, the CPU and the rest of the system
(their sustained draw) against the supply's rating, with the rating the build needs marked; the wall
bar shows the draw at the socket (after the supply's losses) against what the circuit carries.
"""

from __future__ import annotations

from collections.abc import Callable

from PySide6.QtCore import QPointF, QRectF, QSize, Qt
from PySide6.QtGui import QColor, QFontMetrics, QPainter, QPaintEvent, QPen
from PySide6.QtWidgets import QSizePolicy, QWidget

from gpuconfig.core.build.power import PowerBudget
from gpuconfig.ui.theme import POWER_COLORS, Colors, text_on

BAR_HEIGHT = 22
ROW_GAP = 6


class PowerBar(QWidget):
    def __init__(self, colors: Colors, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.colors = colors
        self.budget: PowerBudget | None = None
        self.setSizePolicy(QSizePolicy.Policy.Expanding, QSizePolicy.Policy.Fixed)
        self.names = {"gpu": self.tr("GPUs"), "cpu": self.tr("CPU"), "rest": self.tr("Rest")}

    def _row_height(self) -> int:
        return self.fontMetrics().height() + 2 + BAR_HEIGHT + ROW_GAP

    def sizeHint(self) -> QSize:
        return QSize(480, 2 * self._row_height() + 2)

    def minimumSizeHint(self) -> QSize:
        return QSize(260, self.sizeHint().height())

    def set_budget(self, budget: PowerBudget | None) -> None:
        self.budget = budget
        self.setToolTip(self._tip())
        self.update()

    def apply_colors(self, colors: Colors) -> None:
        self.colors = colors
        self.update()

    def state(self) -> str:
        """'fail' (supply or circuit too small), 'warn' (little headroom) or 'ok'."""
        b = self.budget
        if b is None:
            return "ok"
        if (b.psu_w is not None and b.required_w > b.psu_w) or (b.wall_w is not None and b.wall_w > b.circuit.watts):
            return "fail"
        if b.psu_w is not None and b.sustained_w > 0.8 * b.psu_w:
            return "warn"
        return "ok"

    def _tip(self) -> str:
        b = self.budget
        if b is None:
            return ""
        lines = [
            self.tr("Sustained draw {w:,} W: GPUs {gpu:,} W, CPU {cpu:,} W ({basis}), rest {rest:,} W").format(
                w=b.sustained_w, gpu=b.gpu_w, cpu=b.cpu_w, basis=b.cpu_basis, rest=b.rest_w
            ),
            self.tr("A supply for this build must be rated {w:,} W (cards x {factor:g} for their power spikes)").format(
                w=b.required_w, factor=b.gpu_factor
            ),
        ]
        if b.wall_w is not None:
            lines.append(
                self.tr("At the wall about {w:,} W; the circuit ({label}) carries {limit:,} W").format(
                    w=b.wall_w, label=b.circuit.title, limit=b.circuit.watts
                )
            )
        return "\n".join(lines)

    # -- drawing ----------------------------------------------------------------------------------

    def paintEvent(self, event: QPaintEvent) -> None:
        b = self.budget
        if b is None:
            return
        painter = QPainter(self)
        painter.setRenderHint(QPainter.RenderHint.Antialiasing)
        metrics = painter.fontMetrics()
        label_w = max(metrics.horizontalAdvance(t) for t in (self.tr("Supply"), self.tr("Wall"))) + 12
        left, right = float(label_w), float(self.width() - 2)
        width = max(1.0, right - left)
        scale = max(b.sustained_w, b.required_w, b.psu_w or 0, b.wall_w or 0, b.circuit.watts) * 1.04

        def x_of(watts: float) -> float:
            return left + width * watts / scale

        row = self._row_height()
        top = metrics.height() + 2
        # The supply: the stacked draw, the rating, and the rating needed.
        self._row_label(painter, metrics, self.tr("Supply"), top)
        self._track(painter, left, top, width, x_of(b.psu_w) if b.psu_w else None)
        start = 0
        for key, watts in (("gpu", b.gpu_w), ("cpu", b.cpu_w), ("rest", b.rest_w)):
            if watts <= 0:
                continue
            rect = QRectF(x_of(start), top, max(1.0, x_of(start + watts) - x_of(start)), BAR_HEIGHT)
            painter.fillRect(rect, QColor(POWER_COLORS[key]))
            self._inside(painter, metrics, rect, f"{self.names[key]} {watts:,} W", POWER_COLORS[key])
            start += watts
        short = b.psu_w is not None and b.required_w > b.psu_w
        needed = self.tr("needs {w:,} W").format(w=b.required_w)
        marks = [(b.required_w, needed, self.colors.error if short else self.colors.muted, Qt.PenStyle.DashLine)]
        if b.psu_w:
            marks.append(
                (b.psu_w, self.tr("supply {w:,} W").format(w=b.psu_w), self.colors.text, Qt.PenStyle.SolidLine)
            )
        self._marks(painter, metrics, marks, x_of, top, left, right)

        # The wall: the draw at the socket against the circuit.
        top += row
        self._row_label(painter, metrics, self.tr("Wall"), top)
        self._track(painter, left, top, width, x_of(b.circuit.watts))
        over = b.wall_w is not None and b.wall_w > b.circuit.watts
        if b.wall_w is not None:
            color = self.colors.error if over else self.colors.success
            rect = QRectF(left, top + 3, x_of(b.wall_w) - left, BAR_HEIGHT - 6)
            painter.fillRect(rect, QColor(color))
            self._inside(painter, metrics, rect, self.tr("{w:,} W at the wall").format(w=b.wall_w), color)
        circuit = self.tr("circuit {w:,} W").format(w=b.circuit.watts)
        self._marks(
            painter,
            metrics,
            [(b.circuit.watts, circuit, self.colors.error if over else self.colors.text, Qt.PenStyle.SolidLine)],
            x_of,
            top,
            left,
            right,
        )
        painter.end()

    def _row_label(self, painter: QPainter, metrics: QFontMetrics, text: str, top: float) -> None:
        painter.setPen(QColor(self.colors.muted))
        painter.drawText(QPointF(0, top + (BAR_HEIGHT + metrics.ascent() - metrics.descent()) / 2), text)

    def _track(self, painter: QPainter, left: float, top: float, width: float, limit_x: float | None) -> None:
        painter.setPen(Qt.PenStyle.NoPen)
        painter.setBrush(QColor(self.colors.alternate))
        painter.drawRoundedRect(QRectF(left, top, width, BAR_HEIGHT), 3, 3)
        if limit_x is not None:  # the room up to the limit, a shade darker than the track
            painter.setBrush(QColor(self.colors.grid))
            painter.drawRoundedRect(QRectF(left, top, limit_x - left, BAR_HEIGHT), 3, 3)

    def _inside(self, painter: QPainter, metrics: QFontMetrics, rect: QRectF, text: str, color: str) -> None:
        if metrics.horizontalAdvance(text) + 10 < rect.width():
            painter.setPen(text_on(color))
            painter.drawText(rect, Qt.AlignmentFlag.AlignCenter, text)

    def _marks(
        self,
        painter: QPainter,
        metrics: QFontMetrics,
        marks: list[tuple[int, str, str, Qt.PenStyle]],
        x_of: Callable[[float], float],
        top: float,
        left: float,
        right: float,
    ) -> None:
        """Vertical lines through the bar with captions above it: the lower figure's caption ends at its
        line, the higher one's starts at its line, so two close marks do not print over each other."""
        ordered = sorted(marks, key=lambda m: m[0])
        for i, (watts, text, color, style) in enumerate(ordered):
            x = x_of(watts)
            painter.setPen(QPen(QColor(color), 2, style))
            painter.drawLine(QPointF(x, top - 3), QPointF(x, top + BAR_HEIGHT + 2))
            advance = metrics.horizontalAdvance(text)
            start = x - advance - 4 if (i == 0 and len(ordered) > 1) else x + 4
            if start + advance > right:
                start = x - advance - 4
            painter.setPen(QColor(color))
            painter.drawText(QPointF(max(left, start), top - 4), text)
