"""What the eGPU tab checks: the laptop (what the probe detected, or its port, OS and charger as described)
and the enclosure and card from the catalog."""

from __future__ import annotations

from PySide6.QtCore import Qt, Signal
from PySide6.QtWidgets import QComboBox, QGridLayout, QHBoxLayout, QLabel, QPushButton, QSpinBox, QWidget

from gpuconfig.core.build.model import OSES, PORTS
from gpuconfig.core.catalog.model import Part
from gpuconfig.core.egpu.check import os_label, port_label
from gpuconfig.core.i18n import translate
from gpuconfig.core.money import ExchangeRate, convert_price, format_money
from gpuconfig.probe.egpu import Detection
from gpuconfig.ui.theme import mark

MAX_CHARGER_W = 400  # the USB PD 3.1 ceiling is 240 W; barrel-jack gaming laptop chargers reach about 330 W
OTHER_CURRENCY = {"USD": "CNY", "CNY": "USD"}


def heading(text: str) -> QLabel:
    """A panel's bold title, as the Build tab titles its sections."""
    label = QLabel(text)
    font = label.font()
    font.setBold(True)
    label.setFont(font)
    return label


def _combo(name: str, length: int) -> QComboBox:
    """A combo box that may be narrower than its longest entry (the list opens as wide as it needs)."""
    box = QComboBox()
    box.setObjectName(name)
    box.setMinimumContentsLength(length)
    box.setSizeAdjustPolicy(QComboBox.SizeAdjustPolicy.AdjustToMinimumContentsLengthWithIcon)
    return box


def price_text(part: Part, rate: ExchangeRate | None) -> str:
    """'$339 (≈ ¥2,380)': the price as published and, where a rate is known, in the other currency."""
    if part.price is None:
        return ""
    text = format_money(part.price.amount, part.price.currency)
    other = OTHER_CURRENCY.get(part.price.currency)
    converted = convert_price(part.price, other, rate) if other else None
    return f"{text} (≈ {format_money(converted, other)})" if other and converted is not None else text


def gpu_name(part: Part) -> str:
    return part.name if part.name.lower().startswith(part.vendor.lower()) else f"{part.vendor} {part.name}"


class EgpuForm(QWidget):
    """`changed()` whenever the laptop, the enclosure or the card changes; `use_detected()` when the user asks
    to check the laptop as the probe read it."""

    changed = Signal()
    use_detected = Signal()

    def __init__(self, docks: list[Part], gpus: list[Part], parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.detected = QLabel(self.tr("Looking for a Thunderbolt/USB4 controller…"))
        self.detected.setObjectName("egpu_detected")
        self.detected.setWordWrap(True)
        self.detected.setTextInteractionFlags(Qt.TextInteractionFlag.TextSelectableByMouse)
        self.detected_hints = QLabel()
        self.detected_hints.setObjectName("egpu_detected_hints")
        self.detected_hints.setWordWrap(True)
        mark(self.detected_hints, "muted")
        self.detected_hints.hide()
        self.use_button = QPushButton(self.tr("Use detected"))
        self.use_button.setObjectName("egpu_use_detected")
        self.use_button.setToolTip(
            self.tr("Check the laptop as the probe read it: its port, security level and the link it trained at")
        )
        self.use_button.hide()
        self.port = _combo("egpu_port", 10)
        for port in PORTS:
            self.port.addItem(port_label(port), port)
        self.os = _combo("egpu_os", 10)
        for os_id in OSES:
            self.os.addItem(os_label(os_id), os_id)
        self.charger = QSpinBox()
        self.charger.setObjectName("egpu_charger")
        self.charger.setRange(0, MAX_CHARGER_W)
        self.charger.setSingleStep(5)
        self.charger.setSuffix(" W")
        self.charger.setSpecialValueText(self.tr("not known"))
        self.charger.setKeyboardTracking(False)
        self.charger.setToolTip(
            self.tr("The laptop's own charger: an enclosure that charges with less drains the battery under load")
        )
        self.dock = _combo("egpu_dock", 18)
        self.gpu = _combo("egpu_gpu", 18)
        for part in sorted(gpus, key=lambda p: (p.vendor, p.name)):
            self.gpu.addItem(gpu_name(part), part.id)
            facts = [f"{part.specs['tdp_w']} W" if part.specs.get("tdp_w") else ""]
            facts.append(f"{part.specs['board_length_mm']} mm" if part.specs.get("board_length_mm") else "")
            self.gpu.setItemData(self.gpu.count() - 1, " · ".join(f for f in facts if f), Qt.ItemDataRole.ToolTipRole)
        self._docks = docks
        self.show_docks(None)

        laptop = QGridLayout()
        laptop.setHorizontalSpacing(8)
        laptop.setVerticalSpacing(6)
        found = QHBoxLayout()
        found.setSpacing(8)
        found.addWidget(self.detected, 1)
        found.addWidget(self.use_button, 0, Qt.AlignmentFlag.AlignTop)
        laptop.addWidget(QLabel(self.tr("Detected")), 0, 0, Qt.AlignmentFlag.AlignTop)
        laptop.addLayout(found, 0, 1, 1, 5)
        laptop.addWidget(self.detected_hints, 1, 1, 1, 5)
        for column, (label, widget) in enumerate(
            ((self.tr("Port"), self.port), (self.tr("OS"), self.os), (self.tr("Charger"), self.charger))
        ):
            laptop.addWidget(QLabel(label), 2, 2 * column, Qt.AlignmentFlag.AlignRight | Qt.AlignmentFlag.AlignVCenter)
            laptop.addWidget(widget, 2, 2 * column + 1)
        laptop.setColumnStretch(1, 3)
        laptop.setColumnStretch(3, 3)
        laptop.setColumnStretch(5, 1)
        parts = QGridLayout()
        parts.setHorizontalSpacing(8)
        parts.setVerticalSpacing(6)
        parts.addWidget(QLabel(self.tr("Enclosure")), 0, 0)
        parts.addWidget(self.dock, 0, 1)
        parts.addWidget(QLabel(self.tr("Card")), 1, 0)
        parts.addWidget(self.gpu, 1, 1)
        parts.setColumnStretch(1, 1)
        parts.setRowStretch(2, 1)

        layout = QGridLayout(self)
        layout.setContentsMargins(0, 0, 0, 0)
        layout.setHorizontalSpacing(24)
        layout.setVerticalSpacing(4)
        layout.addWidget(heading(self.tr("Your laptop")), 0, 0)
        layout.addLayout(laptop, 1, 0)
        layout.addWidget(heading(self.tr("Enclosure and card")), 0, 1)
        layout.addLayout(parts, 1, 1)
        layout.setColumnStretch(0, 3)
        layout.setColumnStretch(1, 2)

        self.use_button.clicked.connect(self.use_detected)
        for box in (self.port, self.os, self.dock, self.gpu):
            box.currentIndexChanged.connect(self.changed)
        self.charger.valueChanged.connect(self.changed)

    # -- what is chosen ---------------------------------------------------------------------------

    def port_id(self) -> str:
        return str(self.port.currentData())

    def os_id(self) -> str:
        return str(self.os.currentData())

    def charger_w(self) -> int | None:
        return self.charger.value() or None

    def dock_id(self) -> str:
        return str(self.dock.currentData() or "")

    def gpu_id(self) -> str:
        return str(self.gpu.currentData() or "")

    def set_choice(
        self,
        port: str | None = None,
        os: str | None = None,
        charger_w: int | None = None,
        dock: str | None = None,
        gpu: str | None = None,
    ) -> None:
        """Choose what is given (unknown ids are skipped) without emitting changed()."""
        widgets = (self.port, self.os, self.charger, self.dock, self.gpu)
        for widget in widgets:
            widget.blockSignals(True)
        for box, value in ((self.port, port), (self.os, os), (self.dock, dock), (self.gpu, gpu)):
            index = box.findData(value) if value is not None else -1
            if index >= 0:
                box.setCurrentIndex(index)
        if charger_w is not None:
            self.charger.setValue(max(0, min(charger_w, MAX_CHARGER_W)))
        for widget in widgets:
            widget.blockSignals(False)

    # -- what is shown ----------------------------------------------------------------------------

    def show_docks(self, rate: ExchangeRate | None) -> None:
        """List the enclosures with their link and price (prices may change in the Catalog tab)."""
        chosen = self.dock_id()
        self.dock.blockSignals(True)
        self.dock.clear()
        for part in self._docks:
            link = str(part.specs.get("link") or "")
            facts = [port_label(link) if link else "", price_text(part, rate)]
            self.dock.addItem(" — ".join([part.name, " · ".join(f for f in facts if f)]), part.id)
            if part.price is not None:
                tip = self.tr("{price} on {date}: {basis}").format(
                    price=format_money(part.price.amount, part.price.currency),
                    date=part.price.date,
                    basis=part.price.basis or part.price.source,
                )
                self.dock.setItemData(self.dock.count() - 1, tip, Qt.ItemDataRole.ToolTipRole)
        self.dock.setCurrentIndex(max(0, self.dock.findData(chosen)))
        self.dock.blockSignals(False)

    def show_detection(self, detection: Detection | None, in_use: bool, error: str = "") -> None:
        """What the probe read: the host and its link, or why nothing was found, with its hints."""
        hints: list[str] = []
        if error:
            text = self.tr("Not read: {error}").format(error=error)
        elif detection is None:
            text = self.tr("Looking for a Thunderbolt/USB4 controller…")
        elif detection.host is None:
            text = self.tr("Nothing: {reason}").format(reason=translate("Probe", detection.reason))
            hints = list(detection.hints)
        else:
            host = detection.host
            facts = [port_label(host.port)]
            if host.link_gbps is not None:
                facts.append(self.tr("link {lanes} x {rate:g} Gb/s").format(lanes=host.lanes, rate=host.lane_gbps))
            if host.security is not None:
                facts.append(self.tr("security '{level}'").format(level=host.security))
            for enclosure in detection.enclosures:
                words = (enclosure.vendor_name, enclosure.device_name)
                name = " ".join(w for w in words if isinstance(w, str) and w).strip()
                facts.append(self.tr("enclosure {name}").format(name=name or enclosure.name))
            host_name = host.name or self.tr("A Thunderbolt/USB4 host")
            text = f"{host_name}: {', '.join(facts)}"
            if in_use:
                text += " " + self.tr("(in use)")
            hints = [*host.notes, *detection.hints]
        self.detected.setText(text)
        self.detected_hints.setText("\n".join(hints))
        self.detected_hints.setVisible(bool(hints))
        self.use_button.setVisible(detection is not None and detection.host is not None)
        self.use_button.setEnabled(not in_use)
