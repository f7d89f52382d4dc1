"""The table model of the Catalog tab: one part kind, filtered and sorted by the core's PartIndex.

Filtering happens in Python over prebuilt search text and only the visible row list changes, so a
keystroke never makes Qt call back into Python once per row.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from PySide6.QtCore import QAbstractTableModel, QModelIndex, QPersistentModelIndex, Qt, Signal
from PySide6.QtGui import QColor, QFont

from gpuconfig.core.catalog.age import is_stale, price_age
from gpuconfig.core.catalog.derived import DERIVED_FIELDS
from gpuconfig.core.catalog.model import Part
from gpuconfig.core.catalog.query import PartFilter, PartIndex, field_value
from gpuconfig.core.catalog.schema import FieldSpec, KindSpec
from gpuconfig.core.money import ExchangeRate, convert_price, format_money
from gpuconfig.core.units import format_value

PART_ROLE = Qt.ItemDataRole.UserRole + 1
SORT_ROLE = Qt.ItemDataRole.UserRole + 2
_Index = QModelIndex | QPersistentModelIndex
_PRICE_ROLES = (
    Qt.ItemDataRole.FontRole,
    Qt.ItemDataRole.ForegroundRole,
    Qt.ItemDataRole.ToolTipRole,
    Qt.ItemDataRole.EditRole,
)


@dataclass(frozen=True)
class Column:
    key: str
    title: str
    spec: FieldSpec | None = None


class PartTableModel(QAbstractTableModel):
    """Parts of one kind; `price_edited(part_id, amount, currency)` asks for a price override."""

    price_edited = Signal(str, float, str)

    def __init__(self, parent: Any = None) -> None:
        super().__init__(parent)
        self._index = PartIndex([])
        self._columns: list[Column] = []
        self._order: list[int] = []
        self._visible: list[int] = []
        self._filter = PartFilter()
        self._rate: ExchangeRate | None = None
        # The column the view's header shows sorted (Qt starts it at the first, Name); kept across kinds.
        self._sort_column = 0
        self._sort_key = ""
        self._sort_descending = False
        self._texts: dict[int, list[str]] = {}  # catalog row -> display text per column, filled as rows are painted
        self._alignments: list[int] = []
        self._price_column = -1
        self.accent = QColor("#b0530c")
        self.stale = QColor("#5f6b7a")  # prices older than six months: the theme's muted text (CatalogTab sets it)

    # -- contents ---------------------------------------------------------------------------------

    def set_parts(self, spec: KindSpec, parts: list[Part], rate: ExchangeRate | None) -> None:
        self.beginResetModel()
        self._index = PartIndex(parts)
        self._rate = rate
        columns = [
            Column("name", self.tr("Name")),
            Column("vendor", self.tr("Vendor")),
            Column("price", ""),
            Column("price_date", self.tr("Price date")),
        ]
        fields = [f for f in spec.fields if f.column] + list(DERIVED_FIELDS.get(spec.kind, ()))
        columns += [Column(f.key, f"{f.title} ({f.unit})" if f.unit else f.title, f) for f in fields]
        self._columns = columns
        self._texts.clear()
        self._alignments = [self._alignment(c) for c in columns]
        self._price_column = 2
        self._sort_key = columns[self._sort_column].key if self._sort_column < len(columns) else ""
        self._order = self._sorted_order()
        self._visible = self._index.matching_rows(self._filter, self._rate, self._order)
        self.endResetModel()
        self._retitle_price()

    def replace_parts(self, parts: list[Part]) -> None:
        """The same parts with new prices: keeps columns, sort and filter."""
        self.beginResetModel()
        self._index = PartIndex(parts)
        self._texts.clear()
        self._order = self._sorted_order()
        self._visible = self._index.matching_rows(self._filter, self._rate, self._order)
        self.endResetModel()

    def set_filter(self, part_filter: PartFilter) -> None:
        currency_changed = part_filter.currency != self._filter.currency
        self.beginResetModel()
        previous, self._filter = self._filter, part_filter
        if currency_changed:
            self._texts.clear()
            if self._sort_key == "price":
                self._order = self._sorted_order()
        # Typing onward only removes rows: test just the rows still shown, in their (sorted) order.
        rows = self._visible if part_filter.narrows(previous) else self._order
        self._visible = self._index.matching_rows(part_filter, self._rate, rows)
        self.endResetModel()
        if currency_changed:
            self._retitle_price()

    def set_rate(self, rate: ExchangeRate | None) -> None:
        """A new exchange rate changes converted prices, so the price order and price filter too."""
        self.beginResetModel()
        self._rate = rate
        self._texts.clear()
        self._order = self._sorted_order()
        self._visible = self._index.matching_rows(self._filter, self._rate, self._order)
        self.endResetModel()

    def _retitle_price(self) -> None:
        column = self._price_column
        self._columns[column] = Column("price", self.tr("Price ({currency})").format(currency=self._filter.currency))
        self.headerDataChanged.emit(Qt.Orientation.Horizontal, column, column)

    def _sorted_order(self) -> list[int]:
        if not self._sort_key:
            return list(range(len(self._index.parts)))
        return self._index.sorted_rows(self._sort_key, self._sort_descending, self._filter.currency, self._rate)

    @property
    def visible_parts(self) -> list[Part]:
        return [self._index.parts[r] for r in self._visible]

    @property
    def all_parts(self) -> list[Part]:
        return self._index.parts

    @property
    def part_filter(self) -> PartFilter:
        return self._filter

    def part_at(self, row: int) -> Part:
        return self._index.parts[self._visible[row]]

    def row_of(self, part_id: str) -> int:
        for row, r in enumerate(self._visible):
            if self._index.parts[r].id == part_id:
                return row
        return -1

    def column_of(self, key: str) -> int:
        return next((i for i, c in enumerate(self._columns) if c.key == key), -1)

    # -- Qt model API -----------------------------------------------------------------------------

    def rowCount(self, parent: _Index = QModelIndex()) -> int:  # noqa: B008
        return 0 if parent.isValid() else len(self._visible)

    def columnCount(self, parent: _Index = QModelIndex()) -> int:  # noqa: B008
        return 0 if parent.isValid() else len(self._columns)

    def headerData(self, section: int, orientation: Qt.Orientation, role: int = Qt.ItemDataRole.DisplayRole) -> Any:
        if orientation == Qt.Orientation.Horizontal and role == Qt.ItemDataRole.DisplayRole:
            return self._columns[section].title
        return None

    def sort(self, column: int, order: Qt.SortOrder = Qt.SortOrder.AscendingOrder) -> None:
        """Sort by `column`; selected rows and any other held index stay on their parts."""
        self._sort_column = column
        self._sort_descending = order == Qt.SortOrder.DescendingOrder
        if not 0 <= column < len(self._columns):  # the view asks before any kind is shown: set_parts sorts
            return
        self.layoutAboutToBeChanged.emit()
        held = self.persistentIndexList()
        parts = [self._visible[index.row()] for index in held]
        self._sort_key = self._columns[column].key
        self._order = self._sorted_order()
        self._visible = self._index.matching_rows(self._filter, self._rate, self._order)
        row_of = {part: row for row, part in enumerate(self._visible)}
        self.changePersistentIndexList(
            held, [self.index(row_of[p], i.column()) for p, i in zip(parts, held, strict=True)]
        )
        self.layoutChanged.emit()

    _FLAGS = Qt.ItemFlag.ItemIsEnabled | Qt.ItemFlag.ItemIsSelectable
    _PRICE_FLAGS = _FLAGS | Qt.ItemFlag.ItemIsEditable

    def flags(self, index: _Index) -> Qt.ItemFlag:
        return self._PRICE_FLAGS if index.column() == self._price_column else self._FLAGS

    def has_stale_price(self, row: int) -> bool:
        """Whether a visible row's price is older than six months (its date drawn muted, its age in the tooltip)."""
        price = self._index.parts[self._visible[row]].price_for(self._filter.currency)
        return price is not None and is_stale(price)

    def price_amount(self, part: Part) -> tuple[float | None, str]:
        """The part's price in the display currency, or in its own currency when no rate is known."""
        price = part.price_for(self._filter.currency)
        if price is None:
            return None, self._filter.currency
        converted = convert_price(price, self._filter.currency, self._rate)
        if converted is None:
            return price.amount, price.currency
        return converted, self._filter.currency

    @staticmethod
    def _alignment(column: Column) -> int:
        numeric = column.key == "price" or (column.spec is not None and column.spec.numeric)
        horizontal = Qt.AlignmentFlag.AlignRight if numeric else Qt.AlignmentFlag.AlignLeft
        return int(horizontal | Qt.AlignmentFlag.AlignVCenter)

    def display_text(self, row: int, column: int) -> str:
        """What a visible cell shows: one call per painted cell (see `PartTable`)."""
        return self._row_texts(self._visible[row])[column]

    def alignment(self, column: int) -> int:
        return self._alignments[column]

    @property
    def price_column(self) -> int:
        return self._price_column

    @property
    def date_column(self) -> int:
        """The price date column, right after the price."""
        return self._price_column + 1

    def has_user_price(self, row: int) -> bool:
        """Whether a visible row's price is the user's own (drawn in italics and the accent colour)."""
        return self._index.parts[self._visible[row]].price_origin != "catalog"

    def _row_texts(self, row: int) -> list[str]:
        texts = self._texts.get(row)
        if texts is None:
            part = self._index.parts[row]
            texts = [self._display(part, column) for column in self._columns]
            self._texts[row] = texts
        return texts

    def _display(self, part: Part, column: Column) -> str:
        if column.key == "price":
            amount, currency = self.price_amount(part)
            text = format_money(amount, currency)
            if part.price is not None and part.price.per:
                text += self.tr("/h")
            return ("✎ " + text) if part.price_origin == "override" else text
        if column.key == "price_date":
            price = part.price_for(self._filter.currency)
            if price is None:
                return ""
            return self.tr("{date} · {age}").format(date=price.date, age=price_age(price))
        value = field_value(part, column.key)
        return format_value(column.spec, value) if column.spec else str(value)

    def data(self, index: _Index, role: int = Qt.ItemDataRole.DisplayRole) -> Any:
        # Called for every visible cell and role on each paint: the cheap answers come first.
        if not index.isValid():
            return None
        if role == Qt.ItemDataRole.DisplayRole:
            return self.display_text(index.row(), index.column())
        if role == Qt.ItemDataRole.TextAlignmentRole:
            return self._alignments[index.column()]
        if role == PART_ROLE:
            return self._index.parts[self._visible[index.row()]]
        if index.column() == self.date_column and role in _PRICE_ROLES:
            return self._date_data(self._index.parts[self._visible[index.row()]], role)
        if index.column() != self._price_column or role not in _PRICE_ROLES:
            return None
        part = self._index.parts[self._visible[index.row()]]
        if role == Qt.ItemDataRole.EditRole:
            return self.price_amount(part)[0] or 0.0
        if role == Qt.ItemDataRole.ToolTipRole:
            return self._price_tooltip(part)
        if part.price_origin == "catalog":
            return None
        if role == Qt.ItemDataRole.FontRole:
            font = QFont()
            font.setItalic(True)
            return font
        return self.accent

    def _date_data(self, part: Part, role: int) -> Any:
        """The price date column: a price older than six months in the muted colour, with why in its tooltip."""
        price = part.price_for(self._filter.currency)
        if price is None or not is_stale(price):
            return None
        if role == Qt.ItemDataRole.ForegroundRole:
            return self.stale
        if role == Qt.ItemDataRole.ToolTipRole:
            return self.tr("This price is {age} old (more than six months): check a current one.").format(
                age=price_age(price)
            )
        return None

    def _price_tooltip(self, part: Part) -> str:
        if part.price is None and part.unpriced:
            return self.tr("No public price: {why}. Double-click to enter your own.").format(why=part.unpriced)
        if part.price is None:
            return self.tr("No public price. Double-click to enter your own.")
        price = part.price
        own = format_money(price.amount, price.currency)
        if part.price_origin == "override":
            catalog = part.catalog_price
            was = format_money(catalog.amount, catalog.currency) if catalog else self.tr("none")
            return self.tr("Your price {own}, set {date}. Catalog price: {was}. Right-click to revert.").format(
                own=own, date=price.date, was=was
            )
        return self.tr("{own}, {basis}, {date}\n{source}").format(
            own=own, basis=price.basis, date=price.date, source=price.source
        )

    def setData(self, index: _Index, value: Any, role: int = Qt.ItemDataRole.EditRole) -> bool:
        if role != Qt.ItemDataRole.EditRole or self._columns[index.column()].key != "price":
            return False
        try:
            amount = float(value)
        except (TypeError, ValueError):
            return False
        if amount <= 0:
            return False
        part = self.part_at(index.row())
        self.price_edited.emit(part.id, amount, self._filter.currency)
        return True
