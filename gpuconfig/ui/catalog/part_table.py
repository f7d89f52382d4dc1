"""The catalog's table view: paints its visible cells in one pass instead of one delegate call per cell.

A keystroke in the search box resets the model and repaints a screenful of cells (about 300). Qt's own
table paints each cell through the delegate, which costs a Python call with a freshly wrapped index and
style option per cell, and the default delegate asks the model for seven roles per cell on top. Here the
view fills each row's background once and draws each cell's cached text directly; geometry, selection,
keyboard and mouse handling, scrolling and editing stay Qt's own.
"""

from __future__ import annotations

from PySide6.QtCore import QRect, Qt
from PySide6.QtGui import QColor, QFont, QFontMetrics, QPainter, QPaintEvent, QPen
from PySide6.QtWidgets import QStyle, QStyleOptionViewItem, QTableView, QWidget

from gpuconfig.ui.catalog.model import PartTableModel

_PAD = 6  # horizontal space between a cell's edge and its text, in pixels
_FITTED_LIMIT = 50_000  # cached elided texts kept before the cache starts over


class PartTable(QTableView):
    def __init__(self, model: PartTableModel, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self._parts = model
        self.setModel(model)
        # (text, width, italic) -> the text as drawn, elided when too wide: measuring text is a cell's main cost.
        self._fitted: dict[tuple[str, int, bool], str] = {}

    def paintEvent(self, event: QPaintEvent) -> None:
        model = self._parts
        rows = model.rowCount()
        area = event.rect()
        first_row = self.rowAt(area.top())
        if first_row < 0:
            return
        last_row = self.rowAt(area.bottom())
        if last_row < 0:
            last_row = rows - 1
        columns = self._columns_in(area.left(), area.right())
        if not columns:
            return
        painter = QPainter(self.viewport())
        try:
            self._paint_cells(painter, range(first_row, last_row + 1), columns)
            if self.showGrid():
                self._paint_grid(painter, area, range(first_row, last_row + 1), columns)
        finally:
            painter.end()

    def _paint_cells(self, painter: QPainter, rows: range, columns: list[tuple[int, int, int]]) -> None:
        model = self._parts
        palette = self.palette()
        font = self.font()
        italic = QFont(font)
        italic.setItalic(True)
        metrics, italic_metrics = self.fontMetrics(), QFontMetrics(italic)
        text_pen, selected_pen = palette.text().color(), palette.highlightedText().color()
        accent, muted = QColor(model.accent), QColor(model.stale)
        alternate, highlight = palette.alternateBase(), palette.highlight()
        alternating = self.alternatingRowColors()
        selection = self.selectionModel()
        root = self.rootIndex()
        inset = 1 if self.showGrid() else 0  # the grid takes each cell's last pixel, as in Qt's own table
        row_right = self._row_right()
        vertical = self.verticalHeader()
        price_column, date_column = model.price_column, model.date_column
        for row in rows:
            if vertical.isSectionHidden(row):
                continue
            top = self.rowViewportPosition(row)
            height = self.rowHeight(row) - inset
            selected = selection.isRowSelected(row, root)
            if selected:
                painter.fillRect(QRect(0, top, row_right, height), highlight)
            elif row & 1 and alternating:
                painter.fillRect(QRect(0, top, row_right, height), alternate)
            users_price = model.has_user_price(row)
            old_price = model.has_stale_price(row)
            for column, left, column_width in columns:
                inner = QRect(left + _PAD, top, column_width - inset - 2 * _PAD, height)
                styled = users_price and column == price_column
                aged = old_price and column == date_column
                painter.setFont(italic if styled else font)
                painter.setPen(selected_pen if selected else accent if styled else muted if aged else text_pen)
                text = model.display_text(row, column)
                key = (text, inner.width(), styled)
                fitted = self._fitted.get(key)
                if fitted is None:
                    if len(self._fitted) > _FITTED_LIMIT:
                        self._fitted.clear()
                    fitted = self._elide(text, inner.width(), italic_metrics if styled else metrics)
                    self._fitted[key] = fitted
                painter.drawText(inner, model.alignment(column), fitted)

    def _paint_grid(self, painter: QPainter, area: QRect, rows: range, columns: list[tuple[int, int, int]]) -> None:
        option = QStyleOptionViewItem()
        self.initViewItemOption(option)
        # The style answers with a signed int holding an unsigned ARGB value.
        argb = self.style().styleHint(QStyle.StyleHint.SH_Table_GridLineColor, option, self) & 0xFFFFFFFF
        painter.setPen(QPen(QColor.fromRgba(argb), 0, self.gridStyle()))
        right = min(area.right(), self._row_right() - 1)
        for row in rows:
            y = self.rowViewportPosition(row) + self.rowHeight(row) - 1
            painter.drawLine(area.left(), y, right, y)
        top = self.rowViewportPosition(rows[0])
        bottom = self.rowViewportPosition(rows[-1]) + self.rowHeight(rows[-1]) - 1
        for _, left, column_width in columns:
            x = left + column_width - 1
            painter.drawLine(x, top, x, bottom)

    def _row_right(self) -> int:
        """Where the last column ends in the viewport: rows are not filled past it."""
        header = self.horizontalHeader()
        return min(self.viewport().width(), header.length() - header.offset())

    def _columns_in(self, left: int, right: int) -> list[tuple[int, int, int]]:
        """(logical column, viewport x, width) of each shown column that meets [left, right], in visual order."""
        header = self.horizontalHeader()
        first = header.visualIndexAt(left)
        last = header.visualIndexAt(right)
        if first < 0:
            first = 0
        if last < 0:
            last = header.count() - 1
        columns = []
        for visual in range(first, last + 1):
            logical = header.logicalIndex(visual)
            if header.isSectionHidden(logical):
                continue
            columns.append((logical, self.columnViewportPosition(logical), self.columnWidth(logical)))
        return columns

    @staticmethod
    def _elide(text: str, width: int, metrics: QFontMetrics) -> str:
        if metrics.horizontalAdvance(text) <= width:
            return text
        return metrics.elidedText(text, Qt.TextElideMode.ElideRight, width)
