"""What the Guide tab sets up: a catalog GPU (and how many), a build file, a probe report or this machine's last
probe run; and for which operating system, with which NVIDIA driver already installed."""

from __future__ import annotations

from PySide6.QtCore import Qt, QTimer, Signal
from PySide6.QtWidgets import (
    QCheckBox,
    QComboBox,
    QCompleter,
    QGridLayout,
    QHBoxLayout,
    QLabel,
    QLineEdit,
    QPushButton,
    QSpinBox,
    QStackedWidget,
    QWidget,
)

from gpuconfig.core.catalog.model import Part
from gpuconfig.core.guide.oses import OSES
from gpuconfig.core.guide.records import DRIVER_PATTERN
from gpuconfig.ui.theme import mark

SOURCES = ("catalog", "build", "report", "last_probe")
DRIVER_DEBOUNCE_MS = 300
MAX_GPUS = 64
NAME_WIDTH = 260  # a file's name is shortened in the middle beyond this many pixels


class GuideSource(QWidget):
    """`changed()` whenever what the guide is written for changes; `open_build()` and `open_report()` when
    the user asks to choose a file."""

    changed = Signal()
    open_build = Signal()
    open_report = Signal()

    def __init__(self, gpus: list[Part], parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self._named: set[str] = set()  # the file sources that have a file
        self.kind = QComboBox()
        self.kind.setObjectName("guide_source")
        self._labels = {
            "catalog": self.tr("A GPU from the catalog"),
            "build": self.tr("A build file"),
            "report": self.tr("A probe report"),
            "last_probe": self.tr("This machine's last probe"),
        }
        for key in SOURCES[:3]:
            self.kind.addItem(self._labels[key], key)

        self.gpu = QComboBox()
        self.gpu.setObjectName("guide_gpu")
        self.gpu.setEditable(True)
        self.gpu.setInsertPolicy(QComboBox.InsertPolicy.NoInsert)
        self.gpu.setMinimumContentsLength(26)
        self.gpu.setSizeAdjustPolicy(QComboBox.SizeAdjustPolicy.AdjustToMinimumContentsLengthWithIcon)
        self.gpu.setMinimumWidth(140)  # narrower than its usual size when the window is
        self.gpu.setToolTip(self.tr("Type part of a name to search the catalog's GPUs"))
        for part in sorted(gpus, key=lambda p: (p.vendor, p.name)):
            name = part.name if part.name.lower().startswith(part.vendor.lower()) else f"{part.vendor} {part.name}"
            self.gpu.addItem(name, part.id)
        completer, search = self.gpu.completer(), self.gpu.lineEdit()
        assert completer is not None  # an editable combo has both
        assert search is not None
        completer.setFilterMode(Qt.MatchFlag.MatchContains)
        completer.setCompletionMode(QCompleter.CompletionMode.PopupCompletion)
        search.editingFinished.connect(self._on_gpu_edited)
        self.count = QSpinBox()
        self.count.setObjectName("guide_count")
        self.count.setRange(1, MAX_GPUS)
        self.count.setPrefix("× ")
        self.count.setToolTip(self.tr("How many of this GPU the machine has"))
        catalog = self._page(self.gpu, self.count)

        self.build_name = QLabel(self.tr("No build file open"))
        self.build_name.setObjectName("guide_build_name")
        open_build = QPushButton(self.tr("Open build file…"))
        open_build.setObjectName("open_build")
        open_build.clicked.connect(self.open_build)
        self.report_name = QLabel(self.tr("No probe report open"))
        self.report_name.setObjectName("guide_report_name")
        open_report = QPushButton(self.tr("Open probe report…"))
        open_report.setObjectName("open_report")
        open_report.setToolTip(
            self.tr("A probe run's JSON: gpuconfig probe --json --output FILE, or an export from the Probe tab")
        )
        open_report.clicked.connect(self.open_report)
        self.last_probe = QLabel()
        self.last_probe.setObjectName("guide_last_probe")
        self.pages = QStackedWidget()
        for page in (catalog, self._page(self.build_name, open_build), self._page(self.report_name, open_report)):
            self.pages.addWidget(page)
        self.pages.addWidget(self._page(self.last_probe))

        self.os = QComboBox()
        self.os.setObjectName("guide_os")
        for os_id, info in OSES.items():
            self.os.addItem(info.label, os_id)
        self._driver_tip = self.tr(
            "The NVIDIA driver already installed (nvidia-smi shows it): the guide picks a PyTorch build it runs"
        )
        self.driver = QLineEdit()
        self.driver.setObjectName("guide_driver")
        self.driver.setPlaceholderText(self.tr("e.g. 550.54.15"))
        self.driver.setClearButtonEnabled(True)
        self.driver.setMinimumWidth(self.driver.fontMetrics().horizontalAdvance("550.54.15") + 48)
        self.driver.setMaximumWidth(190)
        self.china_mirrors = QCheckBox(self.tr("Mainland China mirrors"))
        self.china_mirrors.setObjectName("guide_china_mirrors")
        self.china_mirrors.setToolTip(
            self.tr("Add the install through USTC's PyPI mirror, for where pypi.org and download.pytorch.org are slow")
        )
        self.driver_problem = QLabel()
        self.driver_problem.setObjectName("guide_driver_problem")
        mark(self.driver_problem, "error")

        # Two short rows, what and where, so the tab never makes the window wider than a laptop screen.
        grid = QGridLayout(self)
        grid.setContentsMargins(0, 0, 0, 0)
        grid.setHorizontalSpacing(8)
        grid.setVerticalSpacing(6)
        self.first_row = QHBoxLayout()
        self.first_row.setSpacing(8)
        self.first_row.addWidget(self.kind)
        self.first_row.addWidget(self.pages)
        self.first_row.addStretch(1)
        second_row = QHBoxLayout()
        second_row.setSpacing(8)
        for widget in (self.os, QLabel(self.tr("Installed NVIDIA driver")), self.driver, self.driver_problem):
            second_row.addWidget(widget)
        second_row.insertSpacing(1, 16)
        second_row.addSpacing(16)
        second_row.addWidget(self.china_mirrors)
        second_row.addStretch(1)
        grid.addWidget(QLabel(self.tr("Set up")), 0, 0)
        grid.addLayout(self.first_row, 0, 1)
        grid.addWidget(QLabel(self.tr("For")), 1, 0)
        grid.addLayout(second_row, 1, 1)
        grid.setColumnStretch(1, 1)

        self._driver_timer = QTimer(self)
        self._driver_timer.setSingleShot(True)
        self._driver_timer.setInterval(DRIVER_DEBOUNCE_MS)
        self._driver_timer.timeout.connect(self._on_driver_settled)
        self.kind.currentIndexChanged.connect(self._on_kind_changed)
        self.kind.activated.connect(self._on_kind_chosen)
        self.gpu.currentIndexChanged.connect(self.changed)
        self.count.valueChanged.connect(self.changed)
        self.os.currentIndexChanged.connect(self.changed)
        self.china_mirrors.toggled.connect(self.changed)
        self.driver.textChanged.connect(self._driver_timer.start)
        self._show_kind()

    def _page(self, *widgets: QWidget) -> QWidget:
        page = QWidget()
        line = QHBoxLayout(page)
        line.setContentsMargins(0, 0, 0, 0)
        line.setSpacing(6)
        for widget in widgets:
            line.addWidget(widget)
        line.addStretch(1)
        return page

    # -- what is chosen ---------------------------------------------------------------------------

    def source(self) -> str:
        return str(self.kind.currentData())

    def set_source(self, source: str) -> None:
        """Choose a source without emitting changed() (the caller shows the guide once it is all set)."""
        self.kind.blockSignals(True)
        self.kind.setCurrentIndex(self.kind.findData(source))
        self.kind.blockSignals(False)
        self._show_kind()

    def gpu_id(self) -> str:
        return str(self.gpu.currentData() or "")

    def set_gpu(self, part_id: str, count: int | None = None) -> bool:
        """Choose a catalog GPU without emitting changed(); False when the catalog has no such GPU."""
        index = self.gpu.findData(part_id)
        if index < 0:
            return False
        for widget in (self.gpu, self.count):
            widget.blockSignals(True)
        self.gpu.setCurrentIndex(index)
        if count is not None:
            self.count.setValue(max(1, min(count, MAX_GPUS)))
        for widget in (self.gpu, self.count):
            widget.blockSignals(False)
        return True

    def os_id(self) -> str:
        return str(self.os.currentData())

    def set_os(self, os_id: str) -> None:
        """Choose an OS without emitting changed()."""
        index = self.os.findData(os_id)
        if index >= 0:
            self.os.blockSignals(True)
            self.os.setCurrentIndex(index)
            self.os.blockSignals(False)

    def show_file(self, source: str, name: str) -> None:
        """Name the build file or probe report the guide is for."""
        label = self.build_name if source == "build" else self.report_name
        label.setText(label.fontMetrics().elidedText(name, Qt.TextElideMode.ElideMiddle, NAME_WIDTH))
        label.setToolTip(name)
        self._named.add(source)

    def installed_driver(self) -> str | None:
        """The driver typed in, when it reads as a version; None when empty or not one."""
        text = self.driver.text().strip()
        return text if DRIVER_PATTERN.fullmatch(text) else None

    def set_last_probe(self, description: str) -> None:
        """Offer this machine's last probe run ("" when the history has none)."""
        at = self.kind.findData("last_probe")
        if description and at < 0:
            self.kind.addItem(self._labels["last_probe"], "last_probe")
        elif not description and at >= 0:
            if self.source() == "last_probe":
                self.set_source("catalog")
            self.kind.removeItem(at)
        self.last_probe.setText(description)

    # -- slots ------------------------------------------------------------------------------------

    def _show_kind(self) -> None:
        source = self.source()
        self.pages.setCurrentIndex(SOURCES.index(source))
        probed = source in ("report", "last_probe")
        self.driver.setEnabled(not probed)
        self.driver.setToolTip(self.tr("The probe report's own driver is used") if probed else self._driver_tip)

    def _on_kind_changed(self) -> None:
        self._show_kind()
        self.changed.emit()

    def _on_kind_chosen(self, index: int) -> None:
        # Choosing a file source that has no file yet asks for one at once.
        source = self.kind.itemData(index)
        if source == "build" and source not in self._named:
            self.open_build.emit()
        elif source == "report" and source not in self._named:
            self.open_report.emit()

    def _on_gpu_edited(self) -> None:
        # Typed text that names no GPU is put back to the chosen one, so the field never disagrees with the guide.
        if self.gpu.findText(self.gpu.currentText()) < 0:
            self.gpu.setEditText(self.gpu.itemText(self.gpu.currentIndex()))

    def _on_driver_settled(self) -> None:
        text = self.driver.text().strip()
        bad = bool(text) and not DRIVER_PATTERN.fullmatch(text)
        self.driver_problem.setText(self.tr("not a version like 550.54.15") if bad else "")
        self.changed.emit()
