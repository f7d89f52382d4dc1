"""A horizontal stacked bar of what one GPU's memory holds, against the GPU's size."""

from __future__ import annotations

from PySide6.QtCore import QEvent, QPointF, QRectF, QSize, Qt
from PySide6.QtGui import QColor, QFontMetrics, QHelpEvent, QPainter, QPaintEvent, QPen
from PySide6.QtWidgets import QSizePolicy, QToolTip, QWidget

from gpuconfig.core.units import format_bytes
from gpuconfig.core.workload.estimate import Memory
from gpuconfig.ui.theme import MEMORY_COLORS, Colors, text_on

CATEGORIES = ("weights", "gradients", "optimizer", "activations", "kv_cache", "overhead")
BAR_TOP = 22
BAR_HEIGHT = 34
LEGEND_GAP = 10


class MemoryBar(QWidget):
    def __init__(self, colors: Colors, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.colors = colors
        self.names = {
            "weights": self.tr("Weights"),
            "gradients": self.tr("Gradients"),
            "optimizer": self.tr("Optimizer states"),
            "activations": self.tr("Activations"),
            "kv_cache": self.tr("KV cache"),
            "overhead": self.tr("Overhead"),
        }
        self.segments: list[tuple[str, int]] = []  # (category, bytes), in drawing order, zeros left out
        self.peak = 0
        self.limit: int | None = None
        self.limit_label = ""
        self._spans: list[tuple[float, float, str, int]] = []
        self.setSizePolicy(QSizePolicy.Policy.Expanding, QSizePolicy.Policy.Fixed)
        self.setMouseTracking(True)

    def sizeHint(self) -> QSize:
        line = self.fontMetrics().height()
        return QSize(480, BAR_TOP + BAR_HEIGHT + LEGEND_GAP + line + 8)

    def minimumSizeHint(self) -> QSize:
        return QSize(240, self.sizeHint().height())

    def set_memory(self, memory: Memory | None, limit: int | None = None, limit_label: str = "") -> None:
        """Show a breakdown (None: nothing) against `limit` bytes (None: no device limit, e.g. a CPU run)."""
        if memory is None:
            self.segments, self.peak = [], 0
        else:
            self.segments = [(key, int(getattr(memory, key))) for key in CATEGORIES if getattr(memory, key) > 0]
            self.peak = memory.peak
        self.limit, self.limit_label = limit, limit_label
        self.update()

    def apply_colors(self, colors: Colors) -> None:
        self.colors = colors
        self.update()

    # -- drawing ----------------------------------------------------------------------------------

    def paintEvent(self, event: QPaintEvent) -> None:
        painter = QPainter(self)
        painter.setRenderHint(QPainter.RenderHint.Antialiasing)
        if not self.isEnabled():  # what it shows is for an earlier workload: drawn faded, as disabled text is
            painter.setOpacity(0.35)
        metrics = painter.fontMetrics()
        left, right = 1.0, float(self.width() - 2)
        width = max(1.0, right - left)
        track = QRectF(left, BAR_TOP, width, BAR_HEIGHT)
        scale_bytes = max(self.peak, self.limit or 0) * 1.03 or 1.0

        def x_of(value: float) -> float:
            return left + width * value / scale_bytes

        painter.setPen(Qt.PenStyle.NoPen)
        painter.setBrush(QColor(self.colors.alternate))
        painter.drawRoundedRect(track, 4, 4)
        if self.limit:  # free memory up to the limit, a shade darker than the track
            painter.setBrush(QColor(self.colors.grid))
            painter.drawRoundedRect(QRectF(left, BAR_TOP, x_of(self.limit) - left, BAR_HEIGHT), 4, 4)

        self._spans = []
        start = 0
        for key, size in self.segments:
            x0, x1 = x_of(start), x_of(start + size)
            rect = QRectF(x0, BAR_TOP, max(1.0, x1 - x0), BAR_HEIGHT)
            painter.fillRect(rect, QColor(MEMORY_COLORS[key]))
            text = format_bytes(size)
            if metrics.horizontalAdvance(text) + 10 < rect.width():
                painter.setPen(text_on(MEMORY_COLORS[key]))
                painter.drawText(rect, Qt.AlignmentFlag.AlignCenter, text)
                painter.setPen(Qt.PenStyle.NoPen)
            self._spans.append((x0, x1, key, size))
            start += size

        over = self.limit is not None and self.peak > self.limit
        if self.limit:
            x = x_of(self.limit)
            if over:  # the part that does not fit, outlined
                pen = QPen(QColor(self.colors.error), 2, Qt.PenStyle.DashLine)
                painter.setPen(pen)
                painter.setBrush(Qt.BrushStyle.NoBrush)
                painter.drawRect(QRectF(x, BAR_TOP + 1, x_of(self.peak) - x, BAR_HEIGHT - 2))
            painter.setPen(QPen(QColor(self.colors.error if over else self.colors.text), 2))
            painter.drawLine(QPointF(x, BAR_TOP - 6), QPointF(x, BAR_TOP + BAR_HEIGHT + 4))
            self._draw_caption(painter, metrics, x, self.limit_label, self.colors.text, left, right)
        if self.segments and (not self.limit or abs(x_of(self.peak) - x_of(self.limit)) > 160):
            peak_text = self.tr("peak {size}").format(size=format_bytes(self.peak))
            self._draw_caption(painter, metrics, x_of(self.peak), peak_text, self.colors.muted, left, right)
        self._draw_legend(painter, metrics, left, right)
        painter.end()

    def _draw_caption(
        self, painter: QPainter, metrics: QFontMetrics, x: float, text: str, color: str, left: float, right: float
    ) -> None:
        text_width = metrics.horizontalAdvance(text)
        start = min(max(left, x - text_width / 2), right - text_width)
        painter.setPen(QColor(color))
        painter.drawText(QPointF(start, BAR_TOP - 9), text)

    def _draw_legend(self, painter: QPainter, metrics: QFontMetrics, left: float, right: float) -> None:
        y = BAR_TOP + BAR_HEIGHT + LEGEND_GAP
        x = left
        swatch = metrics.ascent() - 2
        for key, size in self.segments:
            text = f"{self.names[key]} {format_bytes(size)}"
            needed = swatch + 6 + metrics.horizontalAdvance(text) + 18
            if x + needed > right:
                break
            painter.fillRect(QRectF(x, y + (metrics.height() - swatch) / 2, swatch, swatch), QColor(MEMORY_COLORS[key]))
            painter.setPen(QColor(self.colors.text))
            painter.drawText(QPointF(x + swatch + 6, y + metrics.ascent()), text)
            x += needed

    def event(self, event: QEvent) -> bool:
        if event.type() == QEvent.Type.ToolTip and isinstance(event, QHelpEvent):
            tip = self._tip_at(event.pos().x(), event.pos().y())
            if tip:
                QToolTip.showText(event.globalPos(), tip, self)
            else:
                QToolTip.hideText()
                event.ignore()
            return True
        return super().event(event)

    def _tip_at(self, x: float, y: float) -> str:
        if not BAR_TOP <= y <= BAR_TOP + BAR_HEIGHT:
            return ""
        for x0, x1, key, size in self._spans:
            if x0 <= x <= x1:
                share = size / self.peak if self.peak else 0.0
                return self.tr("{name}: {size} ({share:.0%} of the peak)").format(
                    name=self.names[key], size=format_bytes(size), share=share
                )
        return ""
