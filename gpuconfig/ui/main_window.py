"""The main window: a tab per area, a status bar, menus, and the theme."""

from __future__ import annotations

from dataclasses import dataclass
from importlib import import_module
from typing import TYPE_CHECKING, ClassVar, Generic, TypeVar, cast

from PySide6.QtCore import QTimer
from PySide6.QtGui import QAction, QActionGroup, QCloseEvent, QGuiApplication, QPaintEvent
from PySide6.QtWidgets import QApplication, QLabel, QMainWindow, QMessageBox, QTabWidget, QVBoxLayout, QWidget

from gpuconfig import __version__
from gpuconfig.core.build.rules import build_rules
from gpuconfig.core.userdata.store import Store
from gpuconfig.ui import theme
from gpuconfig.ui.language import LANGUAGE_SETTING, LANGUAGES, install_translations
from gpuconfig.ui.market import MARKET_SETTING, current_market
from gpuconfig.ui.placeholder_tab import PlaceholderTab

if TYPE_CHECKING:
    from PySide6.QtCore import Qt

    from gpuconfig.core.build.model import Build
    from gpuconfig.core.workload.spec import Workload
    from gpuconfig.ui.build.tab import BuildTab
    from gpuconfig.ui.catalog.tab import CatalogTab
    from gpuconfig.ui.egpu.tab import EgpuTab
    from gpuconfig.ui.fleet.tab import FleetTab
    from gpuconfig.ui.guide.tab import GuideTab
    from gpuconfig.ui.probe.tab import ProbeTab
    from gpuconfig.ui.workload.tab import WorkloadTab

    def QT_TRANSLATE_NOOP(context: str, text: str) -> str: ...  # PySide types it as object
else:
    from PySide6.QtCore import QT_TRANSLATE_NOOP

T = TypeVar("T", bound=QWidget)


@dataclass(frozen=True)
class Area:
    """One tab: its title and, until it is built, what it promises (both shown through tr), and its class."""

    name: str
    title: str
    module: str
    cls: str
    promise: str = ""
    reads_workload: bool = False  # it answers for the Workload tab's workload


# Every tab, in order. A tab is built when first shown (the Catalog tab right after the first paint).
AREAS = (
    Area("catalog", QT_TRANSLATE_NOOP("MainWindow", "Catalog"), "gpuconfig.ui.catalog.tab", "CatalogTab"),
    Area("workload", QT_TRANSLATE_NOOP("MainWindow", "Workload"), "gpuconfig.ui.workload.tab", "WorkloadTab"),
    Area(
        "build",
        QT_TRANSLATE_NOOP("MainWindow", "Build"),
        "gpuconfig.ui.build.tab",
        "BuildTab",
        QT_TRANSLATE_NOOP(
            "MainWindow",
            "Recommend complete machines for a workload and a budget — GPUs, CPU, board, memory, storage, "
            "power supply and case — check every compatibility and power rule, compare buying with renting, "
            "and export the build list.",
        ),
        reads_workload=True,
    ),
    Area(
        "probe",
        QT_TRANSLATE_NOOP("MainWindow", "Probe"),
        "gpuconfig.ui.probe.tab",
        "ProbeTab",
        QT_TRANSLATE_NOOP(
            "MainWindow",
            "Inventory this machine, graph GPU and CPU use live, run PyTorch benchmarks (matmul, memory "
            "bandwidth, host-device copies, a real training step) and judge each result against the part's "
            "specification.",
        ),
    ),
    Area(
        "guide",
        QT_TRANSLATE_NOOP("MainWindow", "Guide"),
        "gpuconfig.ui.guide.tab",
        "GuideTab",
        QT_TRANSLATE_NOOP(
            "MainWindow",
            "Set up a build or this machine step by step: the driver, CUDA or ROCm, the exact PyTorch install "
            "command for your GPU and operating system, checks to run, and fixes for what the probe found.",
        ),
    ),
    Area(
        "egpu",
        QT_TRANSLATE_NOOP("MainWindow", "eGPU"),
        "gpuconfig.ui.egpu.tab",
        "EgpuTab",
        QT_TRANSLATE_NOOP(
            "MainWindow",
            "Find out whether an external GPU will help your laptop: the port and its link, the enclosure, the "
            "card, the expected slowdown for your workload, and whether the one plugged in runs at full speed.",
        ),
        reads_workload=True,
    ),
    Area(
        "fleet",
        QT_TRANSLATE_NOOP("MainWindow", "Fleet"),
        "gpuconfig.ui.fleet.tab",
        "FleetTab",
        QT_TRANSLATE_NOOP(
            "MainWindow",
            "Judge a whole cluster: open the probe reports of every node, from `gpuconfig fleet run --slurm` or any "
            "scheduler, see each node against the rest as a heatmap, and find the slow, misconfigured or failed ones.",
        ),
    ),
)
INDEX = {area.name: i for i, area in enumerate(AREAS)}


class _Tab(Generic[T]):
    """`window.<name>_tab`: the area's tab, built on first use."""

    def __init__(self, name: str) -> None:
        self.index = INDEX[name]

    def __get__(self, window: MainWindow, owner: type | None = None) -> T:
        return cast(T, window.area(self.index))


class MainWindow(QMainWindow):
    windows: ClassVar[list[MainWindow]] = []  # the windows a language change made
    catalog_tab: _Tab[CatalogTab] = _Tab("catalog")
    workload_tab: _Tab[WorkloadTab] = _Tab("workload")
    build_tab: _Tab[BuildTab] = _Tab("build")
    probe_tab: _Tab[ProbeTab] = _Tab("probe")
    guide_tab: _Tab[GuideTab] = _Tab("guide")
    egpu_tab: _Tab[EgpuTab] = _Tab("egpu")
    fleet_tab: _Tab[FleetTab] = _Tab("fleet")

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
        self.built: dict[str, QWidget] = {}  # the tabs built so far, by area name
        self.tabs = QTabWidget()
        self.tabs.setObjectName("areas")
        self.tabs.setDocumentMode(True)
        for area in AREAS:
            title = self.tr(area.title)
            self.tabs.addTab(PlaceholderTab(title, self.tr(area.promise)) if area.promise else QWidget(), title)

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

    def _current_workload(self) -> Workload | None:
        """What the Workload tab answers, or what it answered last time when it has not been opened yet."""
        if "workload" in self.built:
            return self.workload_tab.current_workload()
        from gpuconfig.ui.workload.tab import saved_workload

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

    def show_guide_for_build(self, build: Build) -> None:
        """Open the setup guide for a build's GPUs in the Guide tab."""
        tab = self.guide_tab
        tab.show_build(build)
        self.tabs.setCurrentWidget(tab)

    def area(self, index: int) -> QWidget:
        """The tab at `index`, built if it is not yet (an error building it propagates)."""
        area = AREAS[index]
        if area.name not in self.built:
            made = getattr(import_module(area.module), area.cls)
            extra = {"workload_source": self._current_workload} if area.reads_workload else {}
            tab: QWidget = made(store=self.store, colors=self.colors, **extra)
            if hasattr(tab, "part_requested"):
                tab.part_requested.connect(self.show_part)
            self._install(index, tab, self.tr(area.title))
            self.built[area.name] = tab
        return self.built[area.name]

    def _on_tab_changed(self, index: int) -> None:
        if index != 0:  # the Catalog tab is built after the first paint (_finish_start)
            self.area(index)

    def closeEvent(self, event: QCloseEvent) -> None:
        # Each tab kills its running traces and benchmark workers and waits for their threads; the Build tab
        # keeps the build worked on, the Probe tab stops its sampler.
        for tab in self.built.values():
            shutdown = getattr(tab, "shutdown", None)
            if shutdown is not None:
                shutdown()
        super().closeEvent(event)

    # -- menus ------------------------------------------------------------------------------------

    def _build_menus(self) -> None:
        file_menu = self.menuBar().addMenu(self.tr("&File"))
        import_action = QAction(self.tr("Import price list…"), self)
        import_action.triggered.connect(self._on_import_prices)
        rate_action = QAction(self.tr("Exchange rate…"), self)
        rate_action.triggered.connect(self._on_edit_rate)
        self.headroom_action = QAction(self.tr("Fit headroom…"), self)
        self.headroom_action.setToolTip(self.tr("The share of each card's memory every fit verdict keeps free"))
        self.headroom_action.triggered.connect(self._on_edit_headroom)
        quit_action = QAction(self.tr("Quit"), self)
        quit_action.triggered.connect(self.close)
        # Ctrl+Q spelled out: QKeySequence.StandardKey.Quit is empty on Windows and on some Linux desktops.
        self._shortcuts: list[tuple[QAction, str]] = [(import_action, "Ctrl+I"), (quit_action, "Ctrl+Q")]
        for action in (import_action, rate_action, self.headroom_action):
            file_menu.addAction(action)
        market_menu = file_menu.addMenu(self.tr("Market"))
        market_menu.setToolTip(self.tr("The currency prices start in and the wall circuit a new build assumes"))
        markets = QActionGroup(self)
        market_chosen = current_market(self.store).id
        self.market_actions: dict[str, QAction] = {}
        for market in build_rules().markets.values():
            action = QAction(market.title, self, checkable=True)
            action.setChecked(market.id == market_chosen)
            action.triggered.connect(lambda _checked=False, m=market.id: self.set_market(m))
            markets.addAction(action)
            market_menu.addAction(action)
            self.market_actions[market.id] = action
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

        language_menu = view_menu.addMenu(self.tr("Language"))
        languages = QActionGroup(self)
        # Each language is named in itself, as language menus do; the system's in the language shown.
        names = {"system": self.tr("Follow the system"), "en": "English", "zh_CN": "简体中文"}
        chosen = self.store.user.setting(LANGUAGE_SETTING)
        self.language_actions: dict[str, QAction] = {}
        for choice in LANGUAGES:
            action = QAction(names[choice], self, checkable=True)
            action.setChecked(choice == (chosen if chosen in LANGUAGES else "system"))
            action.triggered.connect(lambda _checked=False, c=choice: self.set_language(c))
            languages.addAction(action)
            language_menu.addAction(action)
            self.language_actions[choice] = action

        help_menu = self.menuBar().addMenu(self.tr("&Help"))
        about = QAction(self.tr("About gpuconfig"), self)
        about.triggered.connect(self._on_about)
        help_menu.addAction(about)

    # -- market -----------------------------------------------------------------------------------

    def set_market(self, market_id: str) -> None:
        """Keep `market_id` as the market: the catalog's prices and the planner move to its currency and circuit
        now, and new builds start in it (the build at hand keeps its own)."""
        market = build_rules().markets[market_id]
        self.store.user.set_setting(MARKET_SETTING, market_id)
        self.market_actions[market_id].setChecked(True)
        for tab in self.built.values():
            use_market = getattr(tab, "use_market", None)
            if use_market is not None:
                use_market(market)

    # -- language ---------------------------------------------------------------------------------

    def set_language(self, choice: str, rebuild: bool | None = None) -> MainWindow | None:
        """Keep `choice` as the interface's language and, unless the user defers it (`rebuild` False; None asks),
        rebuild the window in it: every text is set when a widget is made, so a new window is the whole
        translation. Running work stops as on closing; the build being edited is kept. The new window, if any."""
        if choice not in LANGUAGES:
            raise ValueError(f"unknown language {choice!r}")
        self.store.user.set_setting(LANGUAGE_SETTING, choice)
        self.language_actions[choice].setChecked(True)
        if rebuild is None:
            busy = any(getattr(tab, "running", lambda: False)() for tab in self.built.values())
            box = QMessageBox(QMessageBox.Icon.Question, self.tr("Language"), "", parent=self)
            box.setText(
                self.tr("The window is rebuilt in the new language. Rebuild it now, or at the next start?")
                + (self.tr(" Work still running stops.") if busy else "")
            )
            now = box.addButton(self.tr("Rebuild now"), QMessageBox.ButtonRole.AcceptRole)
            box.addButton(self.tr("At the next start"), QMessageBox.ButtonRole.RejectRole)
            box.setDefaultButton(now)
            box.exec()
            rebuild = box.clickedButton() is now
        if not rebuild:
            return None
        app = QApplication.instance()
        assert isinstance(app, QApplication)
        install_translations(app, choice)
        replacement = MainWindow(self.store)
        replacement.restoreGeometry(self.saveGeometry())
        replacement.show()
        replacement.tabs.setCurrentIndex(self.tabs.currentIndex())
        MainWindow.windows.append(replacement)  # held, as the first window is by whoever made it
        if self in MainWindow.windows:  # a window a change made lets go of the one it replaces
            MainWindow.windows.remove(self)
        self.close()
        return replacement

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
        for tab in self.built.values():
            tab.apply_colors(self.colors)  # type: ignore[attr-defined]
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
        if "build" in self.built:
            self.build_tab.refresh()
        self._show_rate()

    def _on_edit_headroom(self) -> None:
        from PySide6.QtWidgets import QInputDialog

        from gpuconfig.core.workload.fit import MOST_HEADROOM, default_headroom

        measured, current = default_headroom(), self.store.user.headroom()
        default = round(100 * measured.share, 1)
        value, ok = QInputDialog.getDouble(
            self,
            self.tr("Fit headroom"),
            self.tr(
                "Percent of each card's memory kept free when judging whether a workload fits (for other programs "
                "on the card, fragmentation and the estimate's own error).\n\nDefault: {default:g} % — {why}.\n"
                "Enter {default:g} to follow the default again."
            ).format(default=default, why=measured.why),
            round(100 * current.share, 1),
            0.0,
            100 * MOST_HEADROOM,
            1,
        )
        if ok:
            self.set_headroom(None if abs(value - default) < 0.05 else value)

    def set_headroom(self, percent: float | None) -> None:
        """Keep `percent` of each card free in every fit verdict (None: the measured default); the tabs built
        so far judge again."""
        self.store.user.set_headroom(percent)
        headroom = self.store.user.headroom()
        for tab in self.built.values():
            apply = getattr(tab, "apply_headroom", None)
            if apply is not None:
                apply()
        which = self.tr("the default") if percent is None else self.tr("yours")
        self.statusBar().showMessage(
            self.tr("Fit headroom: {percent} of each card kept free ({which})").format(
                percent=headroom.percent, which=which
            ),
            8000,
        )

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
