"""The nodes x metrics heatmap: each cell a node's figure, coloured by its distance from the fleet's median
(red below, the theme's highlight above, stronger further out), sortable by any column."""

from __future__ import annotations

import re
from typing import Any

from PySide6.QtCore import QAbstractTableModel, QModelIndex, QPersistentModelIndex, QSortFilterProxyModel, Qt
from PySide6.QtGui import QBrush, QColor, QFont
from PySide6.QtWidgets import QAbstractItemView, QHeaderView, QTableView, QWidget

from gpuconfig.core.fleet.diagnose import STATE_NAMES, STATES, Diagnosis, MetricStats, tone
from gpuconfig.core.i18n import translate
from gpuconfig.core.units import text_width
from gpuconfig.probe.fleet_html import number
from gpuconfig.ui.theme import Colors

SORT = Qt.ItemDataRole.UserRole + 1
NODE = Qt.ItemDataRole.UserRole + 2  # a row's node name
FIXED = 2  # the node and state columns before the metrics

Index = QModelIndex | QPersistentModelIndex


def blend(over: str, base: str, share: float) -> QColor:
    """`over` laid on `base` at `share` (0 to 1)."""
    a, b = QColor(over), QColor(base)
    mix = [
        round(b_c + (a_c - b_c) * share)
        for a_c, b_c in ((a.red(), b.red()), (a.green(), b.green()), (a.blue(), b.blue()))
    ]
    return QColor(*mix)


def header_lines(text: str, columns: int = 16) -> list[str]:
    """`text` in lines of at most `columns` terminal columns (a Chinese character takes two): broken at
    spaces, and inside a word only when the word alone is too wide (Chinese has no spaces)."""

    width = text_width
    lines: list[str] = []
    line = ""
    for word in text.split():
        while width(word) > columns:  # a long word (or a Chinese phrase) is cut where the line is full
            room = columns - width(line) - (1 if line else 0)
            cut = 0
            while cut < len(word) and width(word[: cut + 1]) <= room:
                cut += 1
            if cut == 0:
                lines.append(line)
                line = ""
                continue
            lines.append(f"{line} {word[:cut]}".strip())
            line, word = "", word[cut:]
        if line and width(line) + 1 + width(word) > columns:
            lines.append(line)
            line = word
        else:
            line = f"{line} {word}".strip()
    if line:
        lines.append(line)
    return lines


class HeatmapModel(QAbstractTableModel):
    def __init__(self, colors: Colors, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.colors = colors
        self.diagnosis: Diagnosis | None = None
        self.stats: list[MetricStats] = []

    def show_diagnosis(self, diagnosis: Diagnosis | None) -> None:
        self.beginResetModel()
        self.diagnosis = diagnosis
        self.stats = diagnosis.columns if diagnosis else []
        self.endResetModel()

    def rowCount(self, parent: Index = QModelIndex()) -> int:  # noqa: B008 - Qt's signature
        return 0 if parent.isValid() or self.diagnosis is None else len(self.diagnosis.nodes)

    def columnCount(self, parent: Index = QModelIndex()) -> int:  # noqa: B008
        return 0 if parent.isValid() or self.diagnosis is None else FIXED + len(self.stats)

    def headerData(self, section: int, orientation: Qt.Orientation, role: int = Qt.ItemDataRole.DisplayRole) -> Any:
        if orientation != Qt.Orientation.Horizontal:
            return None
        if section < FIXED:
            if role == Qt.ItemDataRole.DisplayRole:
                return self.tr("Node") if section == 0 else self.tr("State")
            return None
        s = self.stats[section - FIXED]
        if role == Qt.ItemDataRole.DisplayRole:  # the name over three short lines, then the device and unit
            name = header_lines(s.label.removesuffix(f" ({s.metric.device})"))
            lines = [*name[:2], " ".join(name[2:])] if len(name) > 3 else name
            where = f"{s.metric.device} · {s.metric.unit}" if s.metric.device else s.metric.unit
            return "\n".join([*lines, *[""] * (3 - len(lines)), where])
        if role == Qt.ItemDataRole.ToolTipRole:
            return self.tr(
                "{metric}: median {median} {unit}, spread ±{spread} %, a node is named beyond ±{threshold} %"
            ).format(
                metric=s.label,
                median=number(s.median),
                unit=s.metric.unit,
                spread=f"{s.spread * 100:.1f}",
                threshold=f"{s.threshold * 100:.1f}",
            )
        return None

    def data(self, index: Index, role: int = Qt.ItemDataRole.DisplayRole) -> Any:
        if not index.isValid() or self.diagnosis is None:
            return None
        verdict = self.diagnosis.nodes[index.row()]
        column = index.column()
        if role == NODE:
            return verdict.node
        if column == 0:
            if role == Qt.ItemDataRole.DisplayRole:
                return verdict.node
            if role == SORT:  # n2 before n10: each run of digits padded
                return re.sub(r"\d+", lambda m: m.group().zfill(12), verdict.node)
            return None
        if column == 1:
            if role == Qt.ItemDataRole.DisplayRole:
                return translate("Fleet", STATE_NAMES[verdict.state])
            if role == SORT:
                return STATES.index(verdict.state)
            if role == Qt.ItemDataRole.ForegroundRole:
                shade = {"failed": self.colors.error, "outlier": self.colors.error, "warning": self.colors.warning}
                return QBrush(QColor(shade.get(verdict.state, self.colors.success)))
            if role == Qt.ItemDataRole.ToolTipRole and verdict.reasons:
                return "\n".join(r.message for r in verdict.reasons)
            return None
        s = self.stats[column - FIXED]
        value = verdict.report.values.get(s.metric.key)
        deviation = verdict.deviations.get(s.metric.key)
        threshold = verdict.thresholds.get(s.metric.key, s.threshold)  # the node's own GPU model's
        if role == Qt.ItemDataRole.DisplayRole:
            return number(value) if value is not None else "—"
        if role == SORT:
            return value if value is not None else float("-inf")
        if role == Qt.ItemDataRole.TextAlignmentRole:
            return int(Qt.AlignmentFlag.AlignRight | Qt.AlignmentFlag.AlignVCenter)
        if deviation is None:
            return None
        if role == Qt.ItemDataRole.BackgroundRole:
            strength = tone(deviation, threshold)
            over = self.colors.error if strength < 0 else self.colors.highlight
            return QBrush(blend(over, self.colors.base, abs(strength) * 0.7))
        if role == Qt.ItemDataRole.FontRole and abs(deviation) > threshold:
            font = QFont()
            font.setBold(True)
            return font
        if role == Qt.ItemDataRole.ToolTipRole:
            return self.tr("{node}, {metric}: {value} {unit}, {change} from the fleet's median").format(
                node=verdict.node,
                metric=s.label,
                value=number(value or 0.0),
                unit=s.metric.unit,
                change=f"{deviation * 100:+.1f} %",
            )
        return None


class Heatmap(QTableView):
    """The heatmap's view: sortable, a row selected whole, the node column kept narrow."""

    def __init__(self, colors: Colors, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.source = HeatmapModel(colors, self)
        self.proxy = QSortFilterProxyModel(self)
        self.proxy.setSourceModel(self.source)
        self.proxy.setSortRole(SORT)
        self.setModel(self.proxy)
        self.setSortingEnabled(True)
        self.setSelectionBehavior(QAbstractItemView.SelectionBehavior.SelectRows)
        self.setSelectionMode(QAbstractItemView.SelectionMode.SingleSelection)
        self.setEditTriggers(QAbstractItemView.EditTrigger.NoEditTriggers)
        self.verticalHeader().setVisible(False)
        self.verticalHeader().setDefaultSectionSize(22)
        self.setWordWrap(False)
        header = self.horizontalHeader()
        header.setSectionResizeMode(QHeaderView.ResizeMode.Interactive)
        header.setDefaultSectionSize(118)
        header.setDefaultAlignment(Qt.AlignmentFlag.AlignCenter)

    def show_diagnosis(self, diagnosis: Diagnosis | None) -> None:
        self.source.show_diagnosis(diagnosis)
        self.sortByColumn(1, Qt.SortOrder.AscendingOrder)  # worst first
        # Each column as wide as its header (a figure is narrower), read from the header alone: sizing to the
        # contents would format every cell of a thousand nodes on the GUI thread.
        header = self.horizontalHeader()
        for column in range(self.source.columnCount()):
            self.setColumnWidth(column, min(max(header.sectionSizeHint(column), 90 if column == 0 else 60), 150))

    def node_at(self, row: int) -> str:
        return str(self.proxy.index(row, 0).data(NODE))

    def select_node(self, node: str) -> None:
        for row in range(self.proxy.rowCount()):
            if self.node_at(row) == node:
                self.selectRow(row)
                self.scrollTo(self.proxy.index(row, 0))
                return
