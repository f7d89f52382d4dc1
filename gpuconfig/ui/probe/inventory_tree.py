"""The machine's inventory as a tree: this machine's, or a saved run's."""

from __future__ import annotations

from collections.abc import Mapping, Sequence

from PySide6.QtGui import QColor
from PySide6.QtWidgets import QHeaderView, QTreeWidget, QTreeWidgetItem, QWidget

from gpuconfig.core.i18n import translate
from gpuconfig.core.units import MISSING, format_bytes, format_number
from gpuconfig.probe.gpu_facts import GpuFacts
from gpuconfig.probe.labels import field_label
from gpuconfig.probe.machine import GpuSummary, System
from gpuconfig.probe.model import Maybe, Record, Unavailable
from gpuconfig.ui.theme import Colors


def _fields(value: object) -> list[tuple[str, object]] | None:
    """The named parts of a record or a mapping, in order; None for a value shown on one line."""
    if isinstance(value, Record):
        return value.items()
    if isinstance(value, Mapping):
        return [(str(k), v) for k, v in value.items()]
    return None


class InventoryTree(QTreeWidget):
    """The inventory (this machine's, or a saved run's) by section; a field that could not be read shows
    "unavailable — why", greyed."""

    def __init__(self, colors: Colors, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.colors = colors
        self.setColumnCount(2)
        self.setHeaderLabels([self.tr("Part"), self.tr("Value")])
        self.setAlternatingRowColors(True)
        self.setUniformRowHeights(True)
        self.header().setSectionResizeMode(0, QHeaderView.ResizeMode.Interactive)
        self.header().setStretchLastSection(True)
        self.setColumnWidth(0, 185)
        self.unavailable_items: list[QTreeWidgetItem] = []
        self.sections: dict[str, QTreeWidgetItem] = {}

    def _section_titles(self) -> dict[str, str]:
        return {
            "os": self.tr("System"),
            "cpu": self.tr("CPU"),
            "memory": self.tr("Memory"),
            "disks": self.tr("Disks"),
            "gpu": self.tr("GPUs"),
            "thunderbolt": self.tr("Thunderbolt / USB4"),
            "pythons": self.tr("Python environments"),
        }

    def show_message(self, text: str) -> None:
        self.clear()
        self.sections.clear()
        self.unavailable_items = []
        item = QTreeWidgetItem([text])
        item.setForeground(0, QColor(self.colors.muted))
        self.addTopLevelItem(item)
        item.setFirstColumnSpanned(True)

    def show_inventory(self, system: System, devices: Sequence[GpuFacts]) -> None:
        """Fill the tree from an inventory (this machine's or a saved run's)."""
        self.clear()
        self.sections.clear()
        self.unavailable_items = []
        for key, title in self._section_titles().items():
            section = QTreeWidgetItem([title])
            font = section.font(0)
            font.setBold(True)
            section.setFont(0, font)
            self.addTopLevelItem(section)
            self.sections[key] = section
            value = getattr(system, key)
            if key == "gpu":
                self._fill_gpus(section, value, devices)
            elif isinstance(value, Unavailable):
                self._set_value(section, value)
            else:
                self._fill(section, key, value)
            section.setExpanded(True)
        self.apply_colors(self.colors)

    def _fill_gpus(self, section: QTreeWidgetItem, summary: Maybe[GpuSummary], devices: Sequence[GpuFacts]) -> None:
        if isinstance(summary, Unavailable) and not devices:
            self._set_value(section, summary)
            return
        if isinstance(summary, GpuSummary):
            self._fill(section, "gpu", summary)
        for index, device in enumerate(devices):
            name = device.name
            label = f"{index}: {name}" if isinstance(name, str) else self.tr("GPU {index}").format(index=index)
            item = QTreeWidgetItem(section, [label])
            self._fill_fields(item, [(k, v) for k, v in device.items() if k != "name"])
            item.setExpanded(True)
        if not devices and not isinstance(summary, Unavailable):
            QTreeWidgetItem(section, [self.tr("none found")])

    def _fill(self, parent: QTreeWidgetItem, key: str, value: object) -> None:
        parts = _fields(value)
        if parts is not None:
            self._fill_fields(parent, parts)
        elif isinstance(value, tuple) and value and all(isinstance(v, Record) for v in value):
            for index, item in enumerate(value):
                name = self._entry_name(item, index)
                child = QTreeWidgetItem(parent, [name])
                child.setToolTip(0, name)
                self._fill(child, key, item)
                child.setExpanded(True)  # a disk, a Python: a few lines each, worth seeing at once
        else:
            self._set_value(parent, value, key)

    def _fill_fields(self, parent: QTreeWidgetItem, parts: list[tuple[str, object]]) -> None:
        for name, item in parts:
            child = QTreeWidgetItem(parent, [self._field_name(name)])
            self._fill(child, name, item)
            if _fields(item):
                child.setExpanded(False)

    @staticmethod
    def _field_name(key: str) -> str:
        """A record key as the reports name it, in the language in use: its unit suffix goes (the value shows it)."""
        return field_label(key)

    @staticmethod
    def _entry_name(entry: Record, index: int) -> str:
        for key in ("name", "device", "path", "mountpoint"):
            value = getattr(entry, key, None)
            if isinstance(value, str):
                return value
        return str(index)

    def _set_value(self, item: QTreeWidgetItem, value: object, key: str = "") -> None:
        if isinstance(value, Unavailable):
            why = translate("Probe", value.reason)  # the probe's own reasons are marked for translation
            item.setText(1, self.tr("unavailable — {why}").format(why=why))
            item.setToolTip(1, why)
            self.unavailable_items.append(item)
            return
        if isinstance(value, bool):
            text = self.tr("yes") if value else self.tr("no")
        elif isinstance(value, (int, float)) and key.endswith("_bytes"):
            text = format_bytes(value)
        elif isinstance(value, float):
            text = format_number(float(f"{value:.4g}"))
        elif isinstance(value, tuple | list):
            text = ", ".join(str(v) for v in value) or MISSING
        elif value is None:
            text = MISSING
        else:
            text = translate("Probe", str(value))  # a value the probe says in words ("this interpreter")
        item.setText(1, text)
        item.setToolTip(1, text)

    def apply_colors(self, colors: Colors) -> None:
        self.colors = colors
        for item in self.unavailable_items:
            item.setForeground(1, QColor(colors.muted))
