"""The build as a table: one row per part with its key figures, an editable count, prices, and row actions."""

from __future__ import annotations

from PySide6.QtCore import Qt, Signal
from PySide6.QtGui import QColor, QFont
from PySide6.QtWidgets import (
    QAbstractItemView,
    QHBoxLayout,
    QHeaderView,
    QSpinBox,
    QTableWidget,
    QTableWidgetItem,
    QToolButton,
    QWidget,
)

from gpuconfig.core.build.model import MAX_COUNT
from gpuconfig.core.build.sheet import Sheet, SheetLine
from gpuconfig.core.money import format_money
from gpuconfig.ui.theme import Colors

KIND, PART, SPECS, COUNT, UNIT, TOTAL, ACTIONS = range(7)
MIN_HEIGHT, MAX_HEIGHT = 120, 460


class BuildList(QTableWidget):
    """Emits `count_changed(part_id, count)`, `swap_requested(part_id)`, `remove_requested(part_id)` and
    `details_requested(part_id)` as the user edits a row; the tab changes the build and calls `set_sheet`."""

    count_changed = Signal(str, int)
    swap_requested = Signal(str)
    remove_requested = Signal(str)
    details_requested = Signal(str)

    def __init__(self, colors: Colors, parent: QWidget | None = None) -> None:
        super().__init__(0, 7, parent)
        self.colors = colors
        self.sheet: Sheet | None = None
        self._ids: list[str] = []
        self.setHorizontalHeaderLabels(
            [self.tr("Part"), self.tr("Name"), self.tr("Key specs"), self.tr("Qty"), "", "", ""]
        )
        self.setEditTriggers(QAbstractItemView.EditTrigger.NoEditTriggers)
        self.setSelectionBehavior(QAbstractItemView.SelectionBehavior.SelectRows)
        self.setSelectionMode(QAbstractItemView.SelectionMode.SingleSelection)
        self.setAlternatingRowColors(True)
        # Names and key figures wrap onto a second line rather than being cut off; rows fit their text.
        self.setWordWrap(True)
        self.setVerticalScrollMode(QAbstractItemView.ScrollMode.ScrollPerPixel)
        self.verticalHeader().setVisible(False)
        self.verticalHeader().setMinimumSectionSize(32)
        header = self.horizontalHeader()
        header.setSectionResizeMode(QHeaderView.ResizeMode.Interactive)
        header.setSectionResizeMode(PART, QHeaderView.ResizeMode.Stretch)
        header.setSectionResizeMode(SPECS, QHeaderView.ResizeMode.Stretch)
        for column, width in ((KIND, 96), (COUNT, 60), (UNIT, 88), (TOTAL, 88), (ACTIONS, 112)):
            header.resizeSection(column, width)
        header.setDefaultAlignment(Qt.AlignmentFlag.AlignLeft | Qt.AlignmentFlag.AlignVCenter)
        self.cellDoubleClicked.connect(self._on_double_click)
        header.sectionResized.connect(self._fit_rows)

    def _fit_rows(self, *_: object) -> None:
        """Rows as tall as their wrapped text; the table as tall as its rows (up to a limit), so the space
        under a short list goes to the checks below it."""
        self.resizeRowsToContents()
        rows = sum(self.rowHeight(r) for r in range(self.rowCount()))
        content = self.horizontalHeader().height() + rows + 2 * self.frameWidth() + 2
        self.setMaximumHeight(max(MIN_HEIGHT, min(content, MAX_HEIGHT)))

    def apply_colors(self, colors: Colors) -> None:
        self.colors = colors
        if self.sheet is not None:
            self._fill(self.sheet)

    def part_ids(self) -> list[str]:
        return list(self._ids)

    def spin(self, part_id: str) -> QSpinBox:
        """The count editor of a part's row."""
        widget = self.cellWidget(self._ids.index(part_id), COUNT)
        assert isinstance(widget, QSpinBox)
        return widget

    def action(self, part_id: str, name: str) -> QToolButton:
        """A row's button: 'swap', 'details' or 'remove'."""
        box = self.cellWidget(self._ids.index(part_id), ACTIONS)
        button = box.findChild(QToolButton, name) if box is not None else None
        assert isinstance(button, QToolButton)
        return button

    def set_sheet(self, sheet: Sheet) -> None:
        """Show a priced build. When the same parts are shown in the same order only the figures change, so a
        count being edited keeps its editor and focus."""
        self.sheet = sheet
        cur = sheet.currency
        self.setHorizontalHeaderItem(UNIT, QTableWidgetItem(self.tr("Unit ({currency})").format(currency=cur)))
        self.setHorizontalHeaderItem(TOTAL, QTableWidgetItem(self.tr("Total ({currency})").format(currency=cur)))
        ids = [line.part.id for line in sheet.lines]
        if ids != self._ids:
            self.setRowCount(0)
            self.setRowCount(len(ids))
            self._ids = ids
            for row, line in enumerate(sheet.lines):
                self.setCellWidget(row, COUNT, self._count_box(line))
                self.setCellWidget(row, ACTIONS, self._actions(line.part.id))
        self._fill(sheet)

    def _fill(self, sheet: Sheet) -> None:
        for row, line in enumerate(sheet.lines):
            self._text(row, KIND, self.tr(line.kind_label), muted=True)
            name = self._text(row, PART, line.part.name)
            name.setToolTip(f"{line.part.name}\n{line.part.vendor} · {line.part.id}")
            specs = self._text(row, SPECS, line.specs_text)
            specs.setToolTip("\n".join(f"{s.label}: {s.text}" for s in line.specs))
            self._price(row, UNIT, line, line.unit_price, sheet.currency)
            self._price(row, TOTAL, line, line.line_total, sheet.currency)
            spin = self.cellWidget(row, COUNT)
            if isinstance(spin, QSpinBox) and spin.value() != line.count:
                spin.blockSignals(True)
                spin.setValue(line.count)
                spin.blockSignals(False)
        self._fit_rows()

    def _text(self, row: int, column: int, text: str, muted: bool = False) -> QTableWidgetItem:
        item = self.item(row, column)
        if item is None:
            item = QTableWidgetItem()
            self.setItem(row, column, item)
        item.setText(text)
        if muted:
            item.setForeground(QColor(self.colors.muted))
        return item

    def _price(self, row: int, column: int, line: SheetLine, amount: float | None, currency: str) -> None:
        unpriced = amount is None
        item = self._text(row, column, self.tr("unpriced") if unpriced else format_money(amount, currency))
        item.setTextAlignment(Qt.AlignmentFlag.AlignRight | Qt.AlignmentFlag.AlignVCenter)
        font = QFont(self.font())
        font.setItalic(unpriced)
        item.setFont(font)
        item.setForeground(QColor(self.colors.warning if unpriced else self.colors.text))
        item.setToolTip(line.price_note)

    def _count_box(self, line: SheetLine) -> QSpinBox:
        spin = QSpinBox()
        spin.setObjectName(f"count_{line.part.id}")
        spin.setRange(1, MAX_COUNT)
        spin.setValue(line.count)
        spin.setFrame(False)
        spin.setKeyboardTracking(False)  # typed digits count once Enter is pressed or the box is left
        spin.setAlignment(Qt.AlignmentFlag.AlignRight)
        part_id = line.part.id
        spin.valueChanged.connect(lambda value: self.count_changed.emit(part_id, value))
        return spin

    def _actions(self, part_id: str) -> QWidget:
        box = QWidget()
        layout = QHBoxLayout(box)
        layout.setContentsMargins(2, 0, 2, 0)
        layout.setSpacing(2)
        for name, text, tip, signal in (
            ("swap", self.tr("Swap…"), self.tr("Choose another part of this kind"), self.swap_requested),
            ("details", "ⓘ", self.tr("Every figure of this part, with its sources"), self.details_requested),
            ("remove", "✕", self.tr("Remove from the build"), self.remove_requested),
        ):
            button = QToolButton()
            button.setObjectName(name)
            button.setText(text)
            button.setToolTip(tip)
            button.setAutoRaise(True)
            button.clicked.connect(lambda _checked=False, s=signal: s.emit(part_id))
            layout.addWidget(button)
        layout.addStretch(1)
        return box

    def _on_double_click(self, row: int, column: int) -> None:
        if 0 <= row < len(self._ids):
            self.details_requested.emit(self._ids[row])
