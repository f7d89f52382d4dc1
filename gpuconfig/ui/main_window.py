"""The main window: a tab per area, a status bar, menus, and the theme."""

from __future__ import annotations

from typing import TYPE_CHECKING

from PySide6.QtCore import QTimer
from PySide6.QtGui import QAction, QActionGroup, QCloseEvent, QGuiApplication, QPaintEvent
from PySide6.QtWidgets import QApplication, QLabel, QMainWindow, QTabWidget, QVBoxLayout, QWidget

from gpuconfig import __version__
from gpuconfig.core.userdata.store import Store
from gpuconfig.ui import theme
from gpuconfig.ui.placeholder_tab import PlaceholderTab

if TYPE_CHECKING:
    from PySide6.QtCore import Qt

    from gpuconfig.core.build.model import Build
    from gpuconfig.core.workload.spec import Workload
    from gpuconfig.ui.build_tab import BuildTab
    from gpuconfig.ui.catalog_tab import CatalogTab
    from gpuconfig.ui.egpu_tab import EgpuTab
    from gpuconfig.ui.guide_tab import GuideTab
    from gpuconfig.ui.probe_tab import ProbeTab
    from gpuconfig.ui.workload_tab import WorkloadTab

WORKLOAD_INDEX = 1
BUILD_INDEX = 2
PROBE_INDEX = 3
GUIDE_INDEX = 4
EGPU_INDEX = 5
# Each tab's property, by index: the property builds the tab on first use.
AREAS = ("catalog_tab", "workload_tab", "build_tab", "probe_tab", "guide_tab", "egpu_tab")


class MainWindow(QMainWindow):
    def __init__(self, store: Store) -> None:
        super().__init__()
        self.store = store
        self.setWindowTitle("gpuconfig")
        self.resize(1440, 860)
        saved = store.user.setting("theme")
        self.theme_name = saved if saved in theme.THEMES else "system"
        app = QApplication.instance()
        assert isinstance(app, QApplication)
        self.colors = theme.apply(app, self.theme_name)

        # The Catalog tab is built on the first event-loop turn after the window is shown, so the window
        # paints at once and the table fills in a moment later (benchmarks/cold_start.py times both).
        # The Workload and Probe tabs (pyqtgraph, the estimator, the sampler) are built when first shown.
        self._catalog_tab: CatalogTab | None = None
        self._workload_tab: WorkloadTab | None = None
        self._build_tab: BuildTab | None = None
        self._probe_tab: ProbeTab | None = None
        self._guide_tab: GuideTab | None = None
        self._egpu_tab: EgpuTab | None = None
        self.tabs = QTabWidget()
        self.tabs.setObjectName("areas")
        self.tabs.setDocumentMode(True)
        self.tabs.addTab(QWidget(), self.tr("Catalog"))
        self.tabs.addTab(QWidget(), self.tr("Workload"))
        for title, promise in self._later_areas():
            self.tabs.addTab(PlaceholderTab(title, promise), title)

        self.banner = QLabel()
        self.banner.setObjectName("catalog_error")
        theme.mark(self.banner, "error")
        self.banner.setWordWrap(True)
        self.banner.setContentsMargins(12, 6, 12, 0)
        central = QWidget()
        layout = QVBoxLayout(central)
        layout.setContentsMargins(0, 0, 0, 0)
        layout.addWidget(self.banner)
        layout.addWidget(self.tabs, 1)
        self.setCentralWidget(central)

        self.catalog_status = QLabel()
        self.rate_status = QLabel()
        self.statusBar().addPermanentWidget(self.catalog_status)
        self.statusBar().addPermanentWidget(self.rate_status)
        self._build_menus()
        self._show_catalog_state()
        self._show_rate()
        QGuiApplication.styleHints().colorSchemeChanged.connect(self._on_system_scheme)
        self.tabs.currentChanged.connect(self._on_tab_changed)
        self._painted = False

    def paintEvent(self, event: QPaintEvent) -> None:
        super().paintEvent(event)
        if not self._painted:  # the window is on screen: now build what can wait
            self._painted = True
            QTimer.singleShot(0, self._finish_start)

    def _finish_start(self) -> None:
        """What can wait until the window has painted: the Catalog tab and the key shortcuts (building a key
        sequence makes PySide create its whole Qt-namespace enum set, about 20-40 ms)."""
        for action, keys in self._shortcuts:
            action.setShortcut(keys)
        _ = self.catalog_tab

    def _install(self, index: int, tab: QWidget, title: str) -> None:
        """Put a built tab in its placeholder's place, passing on its status messages."""
        tab.status_message.connect(lambda text: self.statusBar().showMessage(text, 8000))  # type: ignore[attr-defined]
        current = self.tabs.currentIndex()
        placeholder = self.tabs.widget(index)
        self.tabs.blockSignals(True)  # the swap itself is no tab change
        self.tabs.removeTab(index)
        self.tabs.insertTab(index, tab, title)
        self.tabs.setCurrentIndex(current)
        self.tabs.blockSignals(False)
        if placeholder is not None:
            placeholder.deleteLater()

    @property
    def catalog_tab(self) -> CatalogTab:
        """The Catalog tab, built on first use."""
        if self._catalog_tab is None:
            from gpuconfig.ui.catalog_tab import CatalogTab

            tab = CatalogTab(self.store, self.colors)
            self._install(0, tab, self.tr("Catalog"))
            self._catalog_tab = tab
        return self._catalog_tab

    @property
    def workload_tab(self) -> WorkloadTab:
        """The Workload tab, built on first use."""
        if self._workload_tab is None:
            from gpuconfig.ui.workload_tab import WorkloadTab

            tab = WorkloadTab(self.store, self.colors)
            self._install(WORKLOAD_INDEX, tab, self.tr("Workload"))
            self._workload_tab = tab
        return self._workload_tab

    @property
    def build_tab(self) -> BuildTab:
        """The Build tab, built on first use."""
        if self._build_tab is None:
            from gpuconfig.ui.build_tab import BuildTab

            tab = BuildTab(self.store, self.colors, self._current_workload)
            tab.part_requested.connect(self.show_part)
            self._install(BUILD_INDEX, tab, self.tr("Build"))
            self._build_tab = tab
        return self._build_tab

    def _current_workload(self) -> Workload | None:
        """What the Workload tab answers, or what it answered last time when it has not been opened yet."""
        if self._workload_tab is not None:
            return self._workload_tab.current_workload()
        from gpuconfig.ui.workload_tab import saved_workload

        return saved_workload(self.store)

    def show_part(self, kind: str, part_id: str) -> None:
        """Show one part's row in the Catalog tab, clearing the filters that would hide it."""
        tab = self.catalog_tab
        tab.show_kind(kind)
        tab.filters.clear.click()
        tab.views.setCurrentWidget(tab.table)
        tab.table_button.setChecked(True)
        tab.select_part(part_id)
        self.tabs.setCurrentWidget(tab)

    @property
    def probe_tab(self) -> ProbeTab:
        """The Probe tab, built on first use."""
        if self._probe_tab is None:
            from gpuconfig.ui.probe_tab import ProbeTab

            tab = ProbeTab(self.colors, self.store)
            self._install(PROBE_INDEX, tab, self.tr("Probe"))
            self._probe_tab = tab
        return self._probe_tab

    @property
    def guide_tab(self) -> GuideTab:
        """The Guide tab, built on first use."""
        if self._guide_tab is None:
            from gpuconfig.ui.guide_tab import GuideTab

            tab = GuideTab(self.store, self.colors)
            self._install(GUIDE_INDEX, tab, self.tr("Guide"))
            self._guide_tab = tab
        return self._guide_tab

    @property
    def egpu_tab(self) -> EgpuTab:
        """The eGPU tab, built on first use."""
        if self._egpu_tab is None:
            from gpuconfig.ui.egpu_tab import EgpuTab

            tab = EgpuTab(self.store, self.colors, self._current_workload)
            self._install(EGPU_INDEX, tab, self.tr("eGPU"))
            self._egpu_tab = tab
        return self._egpu_tab

    def show_guide_for_build(self, build: Build) -> None:
        """Open the setup guide for a build's GPUs in the Guide tab."""
        tab = self.guide_tab
        tab.show_build(build)
        self.tabs.setCurrentWidget(tab)

    def area(self, index: int) -> QWidget:
        """The tab at `index`, built if it is not yet (an error building it propagates)."""
        tab: QWidget = getattr(self, AREAS[index])
        return tab

    def _on_tab_changed(self, index: int) -> None:
        if index != 0:  # the Catalog tab is built after the first paint (_finish_start)
            self.area(index)

    def closeEvent(self, event: QCloseEvent) -> None:
        if self._workload_tab is not None:
            self._workload_tab.shutdown()  # a running trace process is killed, its thread waited for
        if self._build_tab is not None:
            self._build_tab.shutdown()  # the recommend panel's trace is killed; the build worked on is kept
        if self._probe_tab is not None:
            self._probe_tab.shutdown()  # the benchmark process is killed, the sampler's thread stopped
        if self._egpu_tab is not None:
            self._egpu_tab.shutdown()  # the workload's trace and the measurement's worker are killed
        super().closeEvent(event)

    def _later_areas(self) -> list[tuple[str, str]]:
        return [
            (
                self.tr("Build"),
                self.tr(
                    "Recommend complete machines for a workload and a budget — GPUs, CPU, board, memory, storage, "
                    "power supply and case — check every compatibility and power rule, compare buying with renting, "
                    "and export the build list."
                ),
            ),
            (
                self.tr("Probe"),
                self.tr(
                    "Inventory this machine, graph GPU and CPU use live, run PyTorch benchmarks (matmul, memory "
                    "bandwidth, host-device copies, a real training step) and judge each result against the part's "
                    "specification."
                ),
            ),
            (
                self.tr("Guide"),
                self.tr(
                    "Set up a build or this machine step by step: the driver, CUDA or ROCm, the exact PyTorch install "
                    "command for your GPU and operating system, checks to run, and fixes for what the probe found."
                ),
            ),
            (
                self.tr("eGPU"),
                self.tr(
                    "Find out whether an external GPU will help your laptop: the port and its link, the enclosure, the "
                    "card, the expected slowdown for your workload, and whether the one plugged in runs at full speed."
                ),
            ),
        ]

    # -- menus ------------------------------------------------------------------------------------

    def _build_menus(self) -> None:
        file_menu = self.menuBar().addMenu(self.tr("&File"))
        import_action = QAction(self.tr("Import price list…"), self)
        import_action.triggered.connect(self._on_import_prices)
        rate_action = QAction(self.tr("Exchange rate…"), self)
        rate_action.triggered.connect(self._on_edit_rate)
        quit_action = QAction(self.tr("Quit"), self)
        quit_action.triggered.connect(self.close)
        # Ctrl+Q spelled out: QKeySequence.StandardKey.Quit is empty on Windows and on some Linux desktops.
        self._shortcuts: list[tuple[QAction, str]] = [(import_action, "Ctrl+I"), (quit_action, "Ctrl+Q")]
        for action in (import_action, rate_action):
            file_menu.addAction(action)
        file_menu.addSeparator()
        file_menu.addAction(quit_action)

        view_menu = self.menuBar().addMenu(self.tr("&View"))
        theme_menu = view_menu.addMenu(self.tr("Theme"))
        group = QActionGroup(self)
        labels = {"system": self.tr("Follow the system"), "light": self.tr("Light"), "dark": self.tr("Dark")}
        self.theme_actions: dict[str, QAction] = {}
        for name in theme.THEMES:
            action = QAction(labels[name], self, checkable=True)
            action.setChecked(name == self.theme_name)
            action.triggered.connect(lambda _checked=False, n=name: self.set_theme(n))
            group.addAction(action)
            theme_menu.addAction(action)
            self.theme_actions[name] = action

        help_menu = self.menuBar().addMenu(self.tr("&Help"))
        about = QAction(self.tr("About gpuconfig"), self)
        about.triggered.connect(self._on_about)
        help_menu.addAction(about)

    # -- theme ------------------------------------------------------------------------------------

    def set_theme(self, name: str) -> None:
        if name not in theme.THEMES:
            raise ValueError(f"unknown theme {name!r}")
        self.theme_name = name
        self.store.user.set_setting("theme", name)
        self.theme_actions[name].setChecked(True)
        self._apply_theme()

    def _apply_theme(self) -> None:
        app = QApplication.instance()
        assert isinstance(app, QApplication)
        self.colors = theme.apply(app, self.theme_name)
        if self._catalog_tab is not None:
            self._catalog_tab.apply_colors(self.colors)
        if self._workload_tab is not None:
            self._workload_tab.apply_colors(self.colors)
        if self._build_tab is not None:
            self._build_tab.apply_colors(self.colors)
        if self._probe_tab is not None:
            self._probe_tab.apply_colors(self.colors)
        if self._guide_tab is not None:
            self._guide_tab.apply_colors(self.colors)
        if self._egpu_tab is not None:
            self._egpu_tab.apply_colors(self.colors)
        self._show_catalog_state()

    def _on_system_scheme(self, _scheme: Qt.ColorScheme) -> None:
        if self.theme_name == "system":
            self._apply_theme()

    # -- status -----------------------------------------------------------------------------------

    def _show_catalog_state(self) -> None:
        refresh = self.store.last_refresh
        total = sum(self.store.counts().values())
        self.catalog_status.setText(self.tr("Catalog: {n} parts").format(n=total))
        self.catalog_status.setToolTip(
            self.tr("Loaded from the catalog files at {when}").format(when=self.store.catalog_loaded_at() or "—")
        )
        if refresh.error:
            self.banner.setText(
                self.tr(
                    "The catalog files have a problem and were not loaded; showing the last good catalog. {error}"
                ).format(error=refresh.error)
            )
        self.banner.setVisible(bool(refresh.error))

    def _show_rate(self) -> None:
        rate = self.store.exchange_rate()
        if rate is None:
            self.rate_status.setText(self.tr("No USD/CNY rate"))
            return
        origin = self.tr("your rate") if rate.user_set else rate.date
        self.rate_status.setText(f"1 USD = {rate.rate:g} CNY ({origin})")
        self.rate_status.setToolTip(rate.source)

    # -- actions ----------------------------------------------------------------------------------

    # Dialog classes are imported when first used: PySide builds every enum of a class when it is first
    # imported, which would otherwise sit on the start-up path.

    def _on_import_prices(self) -> None:
        from PySide6.QtWidgets import QFileDialog, QMessageBox

        path, _ = QFileDialog.getOpenFileName(self, self.tr("Import price list"), "", self.tr("Price lists (*.csv)"))
        if path:
            error = self.catalog_tab.import_prices(path)
            if error:
                QMessageBox.warning(self, self.tr("Price list not imported"), error)

    def _on_edit_rate(self) -> None:
        from PySide6.QtWidgets import QInputDialog

        current = self.store.exchange_rate()
        value, ok = QInputDialog.getDouble(
            self, self.tr("Exchange rate"), self.tr("CNY per 1 USD:"), current.rate if current else 7.0, 0.01, 1000, 4
        )
        if ok:
            self.set_exchange_rate(value)

    def set_exchange_rate(self, value: float | None) -> None:
        self.store.user.set_exchange_rate(value)
        self.catalog_tab.set_rate(self.store.exchange_rate())
        if self._build_tab is not None:
            self._build_tab.refresh()
        self._show_rate()

    def _on_about(self) -> None:
        from PySide6 import __version__ as pyside_version
        from PySide6.QtCore import qVersion
        from PySide6.QtWidgets import QMessageBox

        QMessageBox.about(
            self,
            self.tr("About gpuconfig"),
            self.tr(
                "<h3>gpuconfig {version}</h3><p>Plan, check and set up machines that run PyTorch.</p>"
                "<p>Built with Qt {qt} and PySide6 {pyside} (LGPLv3), pyqtgraph, psutil and nvidia-ml-py.</p>"
            ).format(version=__version__, qt=qVersion(), pyside=pyside_version),
        )
