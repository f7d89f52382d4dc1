"""The Catalog tab: browse, search, filter, compare and price every part kind."""

from __future__ import annotations

import gc
from pathlib import Path
from typing import Any

from PySide6.QtCore import QItemSelectionModel, QPoint, Qt, Signal
from PySide6.QtGui import QAction, QColor, QGuiApplication
from PySide6.QtWidgets import (
    QAbstractItemView,
    QButtonGroup,
    QDoubleSpinBox,
    QHBoxLayout,
    QHeaderView,
    QLabel,
    QListWidget,
    QListWidgetItem,
    QMenu,
    QPushButton,
    QSplitter,
    QStackedWidget,
    QStyledItemDelegate,
    QStyleOptionViewItem,
    QVBoxLayout,
    QWidget,
)

from gpuconfig.core.build.rules import Market
from gpuconfig.core.catalog.model import Part
from gpuconfig.core.catalog.prices import PriceListError, read_price_list
from gpuconfig.core.catalog.query import PartFilter
from gpuconfig.core.numbers import MAX_AMOUNT
from gpuconfig.core.userdata.store import Store
from gpuconfig.ui.catalog.compare import MAX_PARTS, MIN_PARTS, CompareDialog
from gpuconfig.ui.catalog.filters import CatalogFilterBar
from gpuconfig.ui.catalog.model import PartTableModel
from gpuconfig.ui.catalog.part_table import PartTable
from gpuconfig.ui.market import current_market
from gpuconfig.ui.theme import Colors, mark
from gpuconfig.ui.widgets.part_detail import PartDetail


class _PriceDelegate(QStyledItemDelegate):
    """Edits a price in the display currency with a spin box wide enough for real prices."""

    def createEditor(self, parent: QWidget, option: QStyleOptionViewItem, index: Any) -> QWidget:
        editor = QDoubleSpinBox(parent)
        editor.setRange(0.01, MAX_AMOUNT)
        editor.setDecimals(2)
        editor.setFrame(False)
        return editor


class CatalogTab(QWidget):
    """`status_message(text)` reports what an action did, for the status bar."""

    status_message = Signal(str)

    def __init__(self, store: Store, colors: Colors, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.store = store
        self.colors = colors
        self.rate = store.exchange_rate()
        self.kind = ""
        self.scatter: Any = None  # created on first use: pyqtgraph stays out of start-up
        self.compare_dialog: CompareDialog | None = None
        self._detail_key: tuple[Any, ...] = ()

        self.kinds = QListWidget()
        self.kinds.setObjectName("kinds")
        self.kinds.setFixedWidth(170)
        self.filters = CatalogFilterBar()
        self.filters.currency.setCurrentText(current_market(store).currency)
        self.model = PartTableModel(self)
        self.table = PartTable(self.model)
        self.table.setObjectName("parts")
        self.table.setSortingEnabled(True)
        self.table.sortByColumn(0, Qt.SortOrder.AscendingOrder)  # by name, A to Z, as the header's arrow shows
        self.table.setSelectionBehavior(QAbstractItemView.SelectionBehavior.SelectRows)
        self.table.setSelectionMode(QAbstractItemView.SelectionMode.ExtendedSelection)
        self.table.setEditTriggers(
            QAbstractItemView.EditTrigger.DoubleClicked | QAbstractItemView.EditTrigger.EditKeyPressed
        )
        self.table.setAlternatingRowColors(True)
        self.table.setWordWrap(False)
        self.table.verticalHeader().setVisible(False)
        self.table.verticalHeader().setDefaultSectionSize(26)
        self.table.horizontalHeader().setSectionResizeMode(QHeaderView.ResizeMode.Interactive)
        self.table.horizontalHeader().setResizeContentsPrecision(40)
        self.table.horizontalHeader().setStretchLastSection(False)
        self.table.setContextMenuPolicy(Qt.ContextMenuPolicy.CustomContextMenu)
        self._price_delegate = _PriceDelegate(self)

        self.count = QLabel()
        mark(self.count, "muted")
        # A fixed size (width and height): the count changes on every keystroke, and a label whose minimum and
        # maximum sizes differ makes Qt re-lay-out the whole tab, recomputing every filter box's size hint.
        metrics = self.count.fontMetrics()
        self.count.setFixedSize(metrics.horizontalAdvance("000000 of 000000 Cloud instances") + 8, metrics.height() + 6)
        self.table_button = QPushButton(self.tr("Table"))
        self.chart_button = QPushButton(self.tr("Price/performance chart"))
        self.chart_button.setObjectName("chart_button")
        view_group = QButtonGroup(self)
        for button in (self.table_button, self.chart_button):
            button.setCheckable(True)
            view_group.addButton(button)
        self.table_button.setChecked(True)
        self.compare = QPushButton(self.tr("Compare"))
        self.compare.setObjectName("compare_button")
        self.compare.setEnabled(False)
        self.compare.setToolTip(self.tr("Select 2 to 4 rows (Ctrl+click) to compare them side by side"))
        self.views = QStackedWidget()
        self.views.addWidget(self.table)
        self.detail = PartDetail()
        self._color_prices()

        bar = QHBoxLayout()
        bar.addWidget(self.table_button)
        bar.addWidget(self.chart_button)
        bar.addSpacing(12)
        bar.addWidget(self.count)
        bar.addStretch(1)
        bar.addWidget(self.compare)
        centre = QWidget()
        centre_layout = QVBoxLayout(centre)
        centre_layout.setContentsMargins(0, 0, 0, 0)
        centre_layout.addWidget(self.filters)
        centre_layout.addLayout(bar)
        centre_layout.addWidget(self.views, 1)
        self.splitter = QSplitter()
        self.splitter.addWidget(centre)
        self.splitter.addWidget(self.detail)
        self.splitter.setStretchFactor(0, 3)
        self.splitter.setStretchFactor(1, 1)
        self.splitter.setCollapsible(1, False)
        self.detail.setMinimumWidth(300)
        self.splitter.setSizes([900, 380])
        layout = QHBoxLayout(self)
        layout.addWidget(self.kinds)
        layout.addWidget(self.splitter, 1)

        self._fill_kinds()
        self.kinds.currentRowChanged.connect(self._on_kind_row)
        self.filters.changed.connect(self._on_filter)
        self.table.selectionModel().selectionChanged.connect(self._on_selection)
        self.table.customContextMenuRequested.connect(self._on_context_menu)
        # Queued: the view must finish committing and closing its editor before the model is reloaded.
        self.model.price_edited.connect(self._on_price_edited, Qt.ConnectionType.QueuedConnection)
        self.detail.revert_requested.connect(self.revert_price)
        self.compare.clicked.connect(self.open_compare)
        self.table_button.clicked.connect(lambda: self.views.setCurrentWidget(self.table))
        self.chart_button.clicked.connect(self.show_chart)
        if self.kinds.count():
            self.kinds.setCurrentRow(0)

    def _color_prices(self) -> None:
        """The theme's colours for the user's own prices, old prices and the detail pane's price warnings."""
        self.model.accent = QColor(self.colors.accent)
        self.model.stale = QColor(self.colors.muted)
        self.detail.warning_color = self.colors.accent

    def _fill_kinds(self) -> None:
        counts = self.store.counts()
        self.kinds.clear()
        for kind, spec in self.store.schema.kinds.items():
            item = QListWidgetItem(f"{spec.title}  ({counts.get(kind, 0)})")
            item.setData(Qt.ItemDataRole.UserRole, kind)
            self.kinds.addItem(item)

    # -- kind, filters, selection -----------------------------------------------------------------

    def show_kind(self, kind: str) -> None:
        for row in range(self.kinds.count()):
            if self.kinds.item(row).data(Qt.ItemDataRole.UserRole) == kind:
                self.kinds.setCurrentRow(row)
                return
        raise KeyError(kind)

    def _on_kind_row(self, row: int) -> None:
        if row < 0:
            return
        self.kind = str(self.kinds.item(row).data(Qt.ItemDataRole.UserRole))
        spec = self.store.schema[self.kind]
        parts = self.store.parts(self.kind)
        self.model.set_parts(spec, parts, self.rate)
        # The parts stay alive while this kind is shown; freezing them keeps the cyclic collector from
        # rescanning thousands of objects in the middle of a keystroke (they hold no reference cycles).
        gc.freeze()
        self.filters.set_kind(spec, parts)  # emits changed -> _on_filter
        self.table.setItemDelegateForColumn(self.model.column_of("price"), self._price_delegate)
        self._fit_columns()
        if self.scatter is not None:
            self.scatter.set_kind(spec)
            self._update_scatter()
        self._show_detail(None, None)

    def _fit_columns(self, sample: int = 40) -> None:
        """Size each column to its header and the first rows' text, capped so no column takes over."""
        metrics = self.table.fontMetrics()
        header = self.table.horizontalHeader()
        rows = min(sample, self.model.rowCount())
        for column in range(self.model.columnCount()):
            title = str(self.model.headerData(column, Qt.Orientation.Horizontal))
            widest = max(
                [metrics.horizontalAdvance(title) + 28]
                + [metrics.horizontalAdvance(self.model.display_text(r, column)) + 16 for r in range(rows)]
            )
            header.resizeSection(column, min(widest, 280))

    def _on_filter(self, part_filter: PartFilter) -> None:
        selected = self.selected_ids()
        self.model.set_filter(part_filter)
        if selected:
            self._reselect(selected)
        total = len(self.model.all_parts)
        label = self.store.schema[self.kind].title if self.kind else ""
        self.count.setText(
            self.tr("{shown} of {total} {label}").format(shown=self.model.rowCount(), total=total, label=label)
        )
        if self.scatter is not None and self.views.currentWidget() is self.scatter:
            self._update_scatter()

    def selected_ids(self) -> list[str]:
        rows = sorted({index.row() for index in self.table.selectionModel().selectedRows()})
        return [self.model.part_at(r).id for r in rows]

    def selected_parts(self) -> list[Part]:
        rows = sorted({index.row() for index in self.table.selectionModel().selectedRows()})
        return [self.model.part_at(r) for r in rows]

    def _reselect(self, part_ids: list[str]) -> None:
        selection = self.table.selectionModel()
        selection.clearSelection()
        flags = QItemSelectionModel.SelectionFlag.Select | QItemSelectionModel.SelectionFlag.Rows
        for part_id in part_ids:
            row = self.model.row_of(part_id)
            if row >= 0:
                selection.select(self.model.index(row, 0), flags)

    def select_part(self, part_id: str) -> None:
        row = self.model.row_of(part_id)
        if row >= 0:
            self.table.selectRow(row)
            self.table.scrollTo(self.model.index(row, 0))

    def _on_selection(self, *_: Any) -> None:
        parts = self.selected_parts()
        self.compare.setEnabled(MIN_PARTS <= len(parts) <= MAX_PARTS)
        self.compare.setText(self.tr("Compare ({n})").format(n=len(parts)) if parts else self.tr("Compare"))
        first = parts[0] if parts else None
        spec = self.store.schema[self.kind] if self.kind else None
        self._show_detail(first, spec)
        if self.scatter is not None and first is not None:
            self.scatter.select(first.id)

    def _show_detail(self, part: Part | None, spec: Any, force: bool = False) -> None:
        """Render the detail pane only when what it shows changes (its HTML is costly to lay out)."""
        currency = self.filters.current().currency
        key = (part, currency, self.rate)
        if force or key != self._detail_key:
            self._detail_key = key
            self.detail.show_part(part, spec, currency, self.rate)

    # -- chart ------------------------------------------------------------------------------------

    def show_chart(self) -> None:
        if self.scatter is None:
            from gpuconfig.ui.catalog.price_scatter import PriceScatter

            self.scatter = PriceScatter(self.colors)
            self.scatter.setObjectName("scatter")
            self.scatter.part_clicked.connect(self.select_part)
            self.views.addWidget(self.scatter)
            if self.kind:
                self.scatter.set_kind(self.store.schema[self.kind])
        self.chart_button.setChecked(True)
        self.views.setCurrentWidget(self.scatter)
        self._update_scatter()

    def _update_scatter(self) -> None:
        selected = self.selected_ids()
        self.scatter.set_parts(
            self.model.visible_parts, self.filters.current().currency, self.rate, selected[0] if selected else ""
        )

    # -- prices -----------------------------------------------------------------------------------

    def _reload(self, message: str) -> None:
        selected = self.selected_ids()
        self.model.replace_parts(self.store.parts(self.kind))
        self._reselect(selected)
        self._on_selection()
        if self.scatter is not None:
            self._update_scatter()
        self.status_message.emit(message)

    def use_market(self, market: Market) -> None:
        """Show prices in `market`'s currency."""
        self.filters.currency.setCurrentText(market.currency)

    def _on_price_edited(self, part_id: str, amount: float, currency: str) -> None:
        self.store.user.set_price_override(part_id, amount, currency)
        self._reload(
            self.tr("Price of {id} set to {amount:,.2f} {currency} (your price; revert it any time)").format(
                id=part_id, amount=amount, currency=currency
            )
        )

    def revert_price(self, part_id: str) -> None:
        if self.store.user.clear_price_override(part_id):
            self._reload(self.tr("Price of {id} back to the catalog price").format(id=part_id))

    def import_prices(self, path: Any) -> str:
        """Import a CSV price list; returns an error line, or "" when it was imported."""
        try:
            prices = read_price_list(Path(path), self.store.part_ids())
        except PriceListError as exc:
            return str(exc)
        self.store.user.save_price_list(Path(path).stem, prices)
        self._reload(self.tr("Imported {n} prices from {name}").format(n=len(prices), name=Path(path).name))
        return ""

    def set_rate(self, rate: Any) -> None:
        self.rate = rate
        self.model.set_rate(rate)
        self._on_selection()
        if self.scatter is not None:
            self._update_scatter()

    def apply_colors(self, colors: Colors) -> None:
        self.colors = colors
        self._color_prices()
        if self.scatter is not None:
            self.scatter.apply_colors(colors)

    # -- compare, context menu --------------------------------------------------------------------

    def open_compare(self) -> CompareDialog | None:
        parts = self.selected_parts()
        if not MIN_PARTS <= len(parts) <= MAX_PARTS:
            return None
        self.compare_dialog = CompareDialog(
            self.store.schema[self.kind], parts, self.filters.current().currency, self.rate, self
        )
        self.compare_dialog.show()
        return self.compare_dialog

    def _on_context_menu(self, pos: QPoint) -> None:
        index = self.table.indexAt(pos)
        if not index.isValid():
            return
        part = self.model.part_at(index.row())
        menu = QMenu(self)
        edit = QAction(self.tr("Edit price…"), menu)
        edit.triggered.connect(lambda: self.table.edit(self.model.index(index.row(), self.model.column_of("price"))))
        revert = QAction(self.tr("Revert to catalog price"), menu)
        revert.setEnabled(part.price_origin == "override")
        revert.triggered.connect(lambda: self.revert_price(part.id))
        copy = QAction(self.tr("Copy id"), menu)
        copy.triggered.connect(lambda: QGuiApplication.clipboard().setText(part.id))
        compare = QAction(self.tr("Compare selected"), menu)
        compare.setEnabled(self.compare.isEnabled())
        compare.triggered.connect(self.open_compare)
        for action in (edit, revert, copy, compare):
            menu.addAction(action)
        menu.popup(self.table.viewport().mapToGlobal(pos))
