"""The Probe tab: this machine's inventory, its live metrics, the benchmark suite and the verdicts, and the
runs probed before.

The inventory is read on a worker thread when the tab is first shown. The sampler records while the tab
is shown (and while a run lasts, shown or not), and one display timer draws it. A run goes through a
BackgroundJob: the benchmarks run in a worker process that Cancel kills; results arrive one by one, the
verdicts at the end, and the run is saved in this machine's probe history.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import TYPE_CHECKING, Any

from PySide6.QtCore import QObject, Qt, Signal
from PySide6.QtGui import QHideEvent, QShowEvent
from PySide6.QtWidgets import (
    QComboBox,
    QFileDialog,
    QHBoxLayout,
    QLabel,
    QMenu,
    QProgressBar,
    QPushButton,
    QSizePolicy,
    QSpinBox,
    QSplitter,
    QTabWidget,
    QToolButton,
    QVBoxLayout,
    QWidget,
)

from gpuconfig.core.workers import pythons, search
from gpuconfig.probe.model import BenchmarkResult
from gpuconfig.ui.background import BackgroundJob, Jobs, one_line
from gpuconfig.ui.probe.live_plot import LivePlot
from gpuconfig.ui.probe.results import HistoryPanel, InventoryTree, RunView
from gpuconfig.ui.theme import Colors, mark
from gpuconfig.ui.widgets.pdf import write_pdf

if TYPE_CHECKING:
    from gpuconfig.core.userdata.store import Store
    from gpuconfig.probe.history import ProbeHistory
    from gpuconfig.probe.sampler import Sampler, Series
    from gpuconfig.probe.session import ProbeRun

SETTING_RATE, SETTING_PYTHONS = "probe.sample_hz", search.ADDED_SETTING
# NVML utilisation and power are useful up to 4-5 Hz: NVML samples them every 1/6 s to 1 s, by product
# (nvmlDeviceGetUtilizationRates, https://docs.nvidia.com/deploy/nvml-api/).
DEFAULT_HZ = 2
WINDOW_S = 600.0  # ten minutes shown and kept: the full suite with room before and after
LEAD_S = 5.0  # a run's saved series starts this long before it, to show the machine at rest


def since(series: Series, start: float) -> Series:
    """The part of a series from `start` (seconds on its clock) on, with the marks in it."""
    from gpuconfig.probe.sampler import Series

    keep = series.t >= start
    return Series(
        t=series.t[keep],
        channels={name: values[keep] for name, values in series.channels.items()},
        units=series.units,
        labels=series.labels,
        marks=tuple(m for m in series.marks if m[0] >= start),
        hz=series.hz,
        unavailable=series.unavailable,
    )


def _chosen_python() -> tuple[str, str]:
    """The worker Python chosen now and how it was found; ("", why) when there is none."""
    try:
        return pythons.chosen_python()
    except OSError as exc:  # GPUCONFIG_TORCH_PYTHON names nothing, or no Python has torch
        return "", str(exc)


def _short_name(path: str) -> str:
    """An interpreter as its environment's folder and its name: `.venv/python3`, `torch/python`."""
    return f"{Path(path).parent.parent.name}/{Path(path).name}"


class _Relay(QObject):
    """Carries results from the run's thread to the GUI thread (a queued signal)."""

    result = Signal(object)


class ProbeTab(QWidget):
    """`status_message(text)` reports what happened, for the status bar. `only` limits the suite to some
    benchmarks by name, as `gpuconfig probe --only` does."""

    status_message = Signal(str)

    def __init__(
        self,
        colors: Colors,
        store: Store | None = None,
        history: ProbeHistory | None = None,
        only: tuple[str, ...] | None = None,
        parent: QWidget | None = None,
    ) -> None:
        super().__init__(parent)
        self.colors = colors
        self.store = store
        self.only = only
        self.inventory: dict[str, Any] | None = None  # this machine's inventory record, once read
        self.shown_run: ProbeRun | None = None  # the run on the right: the last one, or one from the history
        self.sampler: Sampler | None = None
        self._history = history
        self._history_error = ""
        self._job: BackgroundJob | None = None  # the run in progress
        self._inventory_job: BackgroundJob | None = None
        self._sampler_job: BackgroundJob | None = None
        self._jobs = Jobs(self)
        self._phase = ""
        self._unnamed_mark: tuple[float, str] | None = None  # the phase mark no result has named yet
        self._live_mark_names: dict[tuple[float, str], str] = {}
        self._run_started_t = 0.0
        self._live = True  # the plot shows the sampler, not a saved run's series
        self._relay = _Relay(self)
        self._relay.result.connect(self._on_result)

        # Top bar: what to run, where, its progress, and the sampling rate.
        self.suite = QComboBox()
        self.suite.setObjectName("probe_suite")
        self.suite.addItem(self.tr("Quick suite (under a minute)"), "quick")
        self.suite.addItem(self.tr("Full suite (a few minutes)"), "full")
        self.python = QComboBox()
        self.python.setObjectName("probe_python")
        self.python.setMinimumContentsLength(14)
        self.python.setSizeAdjustPolicy(QComboBox.SizeAdjustPolicy.AdjustToMinimumContentsLengthWithIcon)
        # The first entry is no path: the run asks the one chooser, as the estimator does; named when known.
        self.python.addItem(self.tr("Chosen Python"), None)
        self.python.setItemData(0, self._chosen_tip(), Qt.ItemDataRole.ToolTipRole)
        self._chosen_job: BackgroundJob | None = None
        self.add_python = QPushButton(self.tr("Add…"))
        self.add_python.setToolTip(self.tr("Run the benchmarks in another Python that has PyTorch"))
        self.run_button = QPushButton(self.tr("Run"))
        self.run_button.setObjectName("probe_run")
        self.cancel_button = QPushButton(self.tr("Cancel"))
        self.cancel_button.setObjectName("probe_cancel")
        self.progress = QProgressBar()
        self.progress.setObjectName("probe_progress")
        self.progress.setFixedWidth(130)
        self.progress.setFormat("%v / %m")
        self.status = QLabel()
        self.status.setObjectName("probe_status")
        self.status.setSizePolicy(QSizePolicy.Policy.Ignored, QSizePolicy.Policy.Preferred)
        self.rate = QSpinBox()
        self.rate.setObjectName("probe_rate")
        self.rate.setRange(1, 10)  # issue 4: a fixed cadence of 1–10 Hz, user-set
        self.rate.setSuffix(self.tr(" Hz"))
        self.rate.setValue(self._saved_rate())
        self.rate.setToolTip(self.tr("How often the live metrics are sampled"))
        self.export_series = self._menu_button(
            self.tr("Export series"),
            [(self.tr("CSV…"), self._on_export_csv), (self.tr("JSON…"), self._on_export_series_json)],
        )
        bar = QHBoxLayout()
        bar.setSpacing(6)
        widgets: tuple[QWidget, ...] = (self.suite, QLabel(self.tr("in")), self.python, self.add_python)
        widgets += (self.run_button, self.cancel_button, self.progress)
        for widget in widgets:
            bar.addWidget(widget)
            if widget is self.add_python:
                bar.addSpacing(8)
        bar.addWidget(self.status, 1)
        bar.addWidget(QLabel(self.tr("Sampling")))
        bar.addWidget(self.rate)
        bar.addWidget(self.export_series)

        # Left: the inventory. Centre: the live graphs (or a saved run's).
        self.tree = InventoryTree(colors)
        self.tree.setObjectName("probe_inventory")
        self.plot = LivePlot(colors)
        self.plot_title = QLabel()
        self.plot_title.setObjectName("plot_title")
        self.back_to_live = QPushButton(self.tr("Back to live"))
        self.back_to_live.hide()
        title_row = QHBoxLayout()
        title_row.setContentsMargins(0, 0, 0, 0)
        title_row.addWidget(self.plot_title, 1)
        title_row.addWidget(self.back_to_live)
        centre = QWidget()
        centre_layout = QVBoxLayout(centre)
        centre_layout.setContentsMargins(0, 0, 0, 0)
        centre_layout.addLayout(title_row)
        centre_layout.addWidget(self.plot, 1)

        # Right: the run shown (results over verdicts) and the history.
        self.run_view = RunView(colors)
        self.run_title = QLabel(self.tr("No run yet: press Run to measure this machine."))
        self.run_title.setObjectName("run_title")
        self.run_title.setWordWrap(True)
        self.export_run = self._menu_button(
            self.tr("Export run"),
            [
                (self.tr("JSON…"), self._on_export_json),
                (self.tr("HTML…"), self._on_export_html),
                (self.tr("PDF…"), self._on_export_pdf),
            ],
        )
        self.export_run.setEnabled(False)
        run_head = QHBoxLayout()
        run_head.addWidget(self.run_title, 1)
        run_head.addWidget(self.export_run, 0, Qt.AlignmentFlag.AlignTop)
        run_page = QWidget()
        run_layout = QVBoxLayout(run_page)
        run_layout.setContentsMargins(4, 6, 4, 4)
        run_layout.addLayout(run_head)
        run_layout.addWidget(self.run_view, 1)
        self.history_panel = HistoryPanel()
        self.side = QTabWidget()
        self.side.setObjectName("probe_side")
        self.side.addTab(run_page, self.tr("Run"))
        self.side.addTab(self.history_panel, self.tr("History"))

        self.body = QSplitter(Qt.Orientation.Horizontal)
        for index, part in enumerate((self.tree, centre, self.side)):
            self.body.addWidget(part)
            self.body.setStretchFactor(index, (0, 3, 2)[index])
        self.body.setSizes([320, 580, 560])
        self.body.setChildrenCollapsible(False)
        layout = QVBoxLayout(self)
        layout.setContentsMargins(12, 10, 12, 8)
        layout.addLayout(bar)
        layout.addWidget(self.body, 1)

        self.run_button.clicked.connect(self.run)
        self.cancel_button.clicked.connect(self.cancel)
        self.add_python.clicked.connect(self._on_add_python)
        self.rate.valueChanged.connect(self._on_rate)
        self.back_to_live.clicked.connect(self.show_live)
        self.history_panel.open_requested.connect(self.open_run)
        self.history_panel.compare_requested.connect(self.compare_runs)
        self.history_panel.delete_requested.connect(self.delete_run)
        for path in self._saved_pythons():
            self._add_python_item(path)
        self._read_chosen_python()
        self._show_idle("")
        self.show_live()

    def _menu_button(self, text: str, actions: list[tuple[str, Any]]) -> QToolButton:
        button = QToolButton()
        button.setText(text)
        button.setPopupMode(QToolButton.ToolButtonPopupMode.InstantPopup)
        menu = QMenu(button)
        for label, slot in actions:
            menu.addAction(label, slot)
        button.setMenu(menu)
        return button

    # -- public -----------------------------------------------------------------------------------

    @property
    def history(self) -> ProbeHistory | None:
        """This machine's probe history, opened on first use; None (and the reason shown) if it cannot be."""
        if self._history is None and not self._history_error:
            from gpuconfig.probe.history import HistoryError, ProbeHistory

            try:
                self._history = ProbeHistory.open_default()
            except HistoryError as exc:
                self._history_error = str(exc)
                self.history_panel.show_error(self._history_error)
        return self._history

    def running(self) -> bool:
        """Whether a run is in progress (a cancelled one until its thread has ended)."""
        return self._job is not None

    def busy(self) -> bool:
        """Whether any background job (a run, the inventory, making the sampler) is still alive."""
        return bool(self._jobs)

    def run(self) -> None:
        """Start the chosen suite in the chosen Python; Run stays disabled until it has ended."""
        if self._job is not None:
            return
        from gpuconfig.probe.session import probe

        suite = str(self.suite.currentData())
        python, only, extra = self.python.currentData(), self.only, tuple(self._saved_pythons())
        relay, series = self._relay.result.emit, self._run_series
        self.show_live()
        self._start_sampling()
        self.side.setCurrentIndex(0)
        self.run_view.clear_run()
        self.shown_run = None
        self.export_run.setEnabled(False)
        self._phase = ""
        self._run_started_t = self._sampler_now()
        self.run_title.setText(self.tr("Running the {suite} suite…").format(suite=suite))
        job = BackgroundJob(
            lambda progress, cancelled: probe(
                suite,
                python=python,
                only=only,
                progress=progress,
                on_result=relay,
                cancelled=cancelled,
                series=series,
                extra_pythons=extra,
            )
        )
        self._job = job
        job.progressed.connect(self._on_progress)
        job.succeeded.connect(self._on_run_done)
        job.failed.connect(self._on_run_failed)
        job.cancelled.connect(self._on_run_cancelled)
        self._start(job)
        self._show_busy(self.tr("Starting…"), 0, 0)

    def cancel(self) -> None:
        """Stop the run: its worker process is killed; the results so far stay in the table."""
        if self._job is not None:
            self._job.cancel()
            self.cancel_button.setEnabled(False)
            self.status.setText(self.tr("Cancelling…"))

    def shutdown(self, wait_ms: int = 10_000) -> None:
        """Cancel everything, wait for the threads, stop the sampler (closing the window calls this)."""
        self._jobs.shutdown(wait_ms)
        self._stop_sampling()
        if self._history is not None:
            self._history.close()
            self._history = None

    def apply_colors(self, colors: Colors) -> None:
        self.colors = colors
        self.plot.apply_colors(colors)
        self.tree.apply_colors(colors)
        self.run_view.apply_colors(colors)

    # -- shown and hidden: the inventory once, sampling while shown --------------------------------

    def showEvent(self, event: QShowEvent) -> None:
        super().showEvent(event)
        if self.inventory is None and self._inventory_job is None:
            self._read_inventory()
        self._start_sampling()
        if not self.history_panel.loaded:
            self.refresh_history()

    def hideEvent(self, event: QHideEvent) -> None:
        super().hideEvent(event)
        if self._job is None:  # a run keeps recording until it ends
            self._stop_sampling()

    def _start_sampling(self) -> None:
        """Record; the sampler is made on a worker thread (opening NVML can take a while)."""
        if self.sampler is not None:
            if self._live:
                self.plot.source = self.sampler.snapshot
                self.plot.start()
            return
        if self._sampler_job is not None:
            return
        from gpuconfig.probe.sampler import Sampler

        hz = float(self.rate.value())
        job = BackgroundJob(lambda _progress, _cancelled: Sampler(hz=hz, window_s=WINDOW_S))
        self._sampler_job = job
        job.succeeded.connect(self._on_sampler)
        job.failed.connect(self._on_sampler_failed)
        self._start(job)

    def _on_sampler(self, job: BackgroundJob, sampler: Sampler) -> None:
        self._sampler_job = None
        if self.sampler is not None or not (self.isVisible() or self._job is not None):
            sampler.stop()  # hidden meanwhile: close what it opened
            return
        sampler.set_rate(float(self.rate.value()))
        sampler.start()
        self.sampler = sampler
        self._live_mark_names.clear()  # a new recording, on a new clock
        self._start_sampling()

    def _on_sampler_failed(self, job: BackgroundJob, message: str) -> None:
        self._sampler_job = None
        self.plot.set_note(self.tr("No live metrics: {error}").format(error=message))

    def _stop_sampling(self) -> None:
        self.plot.stop()
        self.plot.source = None
        if self.sampler is not None:
            self.sampler.stop()
            self.sampler = None

    def _sampler_now(self) -> float:
        if self.sampler is None:
            return 0.0
        t = self.sampler.snapshot().t
        return float(t[-1]) if len(t) else 0.0

    def _run_series(self) -> dict[str, Any] | None:
        """The series recorded during the run, for its record (called on the run's thread at its end)."""
        sampler = self.sampler
        return None if sampler is None else since(sampler.snapshot(), self._run_started_t - LEAD_S).record()

    def _on_rate(self, hz: int) -> None:
        if self.sampler is not None:
            self.sampler.set_rate(float(hz))
        if self.store is not None and self.store.user.setting(SETTING_RATE) != str(hz):
            self.store.user.set_setting(SETTING_RATE, str(hz))
        if self._live:
            self.show_live()

    # -- the live plot or a saved run's series -----------------------------------------------------

    def show_live(self) -> None:
        """Graph the sampler again (after a saved run was shown)."""
        if not self._live and self.inventory is not None:  # the tree showed a saved run's machine
            self.tree.show_inventory(self.inventory["system"], self.inventory["devices"])
        self._live = True
        self.plot.mark_names = self._live_mark_names
        self.plot_title.setText(self.tr("Live, sampled {hz} times a second").format(hz=self.rate.value()))
        self.back_to_live.hide()
        if self.sampler is not None:
            self.plot.source = self.sampler.snapshot
            self.plot.start()

    def _show_saved_series(self, run: ProbeRun) -> None:
        from gpuconfig.probe.sampler import Series

        self._live = False
        self.plot.stop()
        self.plot.source = None
        when = run.started_at.replace("T", " ")[:16]
        self.back_to_live.show()
        if not run.series:
            self.plot_title.setText(self.tr("The run of {when} has no recorded series.").format(when=when))
            return
        self.plot_title.setText(self.tr("Recorded during the run of {when}").format(when=when))
        series = Series.from_record(run.series)
        # The run's phases were marked in suite order, as its results came: the n-th mark is the n-th benchmark.
        names = list(dict.fromkeys(r.name for r in run.results))
        self.plot.mark_names = dict(zip(series.marks, names, strict=False))
        self.plot.show_series(series)

    def shown_series(self) -> Series | None:
        """What the plot shows: the live recording, or the opened run's."""
        from gpuconfig.probe.sampler import Series

        if not self._live:
            return Series.from_record(self.shown_run.series) if self.shown_run and self.shown_run.series else None
        return self.sampler.snapshot() if self.sampler is not None else None

    # -- inventory and pythons ----------------------------------------------------------------------

    def _read_inventory(self) -> None:
        from gpuconfig.probe.inventory import inventory

        extra = tuple(self._saved_pythons())
        job = BackgroundJob(lambda _progress, _cancelled: inventory(extra_pythons=extra).record())
        self._inventory_job = job
        job.succeeded.connect(self._on_inventory)
        job.failed.connect(self._on_inventory_failed)
        self.tree.show_message(self.tr("Reading this machine's inventory…"))
        self._start(job)

    def _on_inventory(self, job: BackgroundJob, found: dict[str, Any]) -> None:
        self._inventory_job = None
        self.inventory = found
        self.tree.show_inventory(found["system"], found["devices"])
        for env in found["system"].get("pythons") or []:
            if isinstance(env, dict) and isinstance(env.get("path"), str):
                self._add_python_item(env["path"], env.get("torch"))

    def _on_inventory_failed(self, job: BackgroundJob, message: str) -> None:
        self._inventory_job = None
        self.tree.show_message(self.tr("The inventory could not be read: {error}").format(error=message))

    def _read_chosen_python(self) -> None:
        """Name the first entry after the Python chosen now (off the GUI thread: choosing may start Pythons)."""
        job = BackgroundJob(lambda _progress, _cancelled: _chosen_python())
        self._chosen_job = job
        job.succeeded.connect(self._on_chosen_python)
        self._start(job)

    def _on_chosen_python(self, job: BackgroundJob, chosen: tuple[str, str]) -> None:
        if job is not self._chosen_job:
            return  # an older choice, made before the last Add...
        self._chosen_job = None
        path, how = chosen
        if path:
            self.python.setItemText(0, self.tr("Chosen: {python}").format(python=_short_name(path)))
        self.python.setItemData(0, self._chosen_tip(f"{path} ({how})" if path else how), Qt.ItemDataRole.ToolTipRole)

    def _chosen_tip(self, chosen: str = "") -> str:
        order = self.tr(
            "The Python the estimator runs in too: the one GPUCONFIG_TORCH_PYTHON names, else the first Python "
            "added with Add… that has PyTorch, else gpuconfig's own when it has PyTorch, else the first found "
            "with PyTorch"
        )
        return f"{chosen}\n{order}" if chosen else order

    def _add_python_item(self, path: str, torch: Any = None) -> int:
        """The combo's index of an interpreter, added when new."""
        found = self.python.findData(path)
        if found >= 0:
            return found
        version = self.tr(" (torch {version})").format(version=torch) if isinstance(torch, str) else ""
        self.python.addItem(f"{_short_name(path)}{version}", path)
        index = self.python.count() - 1
        self.python.setItemData(index, path, Qt.ItemDataRole.ToolTipRole)
        return index

    def add_python_path(self, path: str) -> None:
        """Offer another interpreter (remembered for next time: the chooser asks it first) and choose it."""
        self.python.setCurrentIndex(self._add_python_item(path))
        saved = self._saved_pythons()
        if self.store is not None and path not in saved:
            self.store.user.set_setting(SETTING_PYTHONS, json.dumps([*saved, path]))
            self._read_chosen_python()

    def _on_add_python(self) -> None:
        path, _ = QFileDialog.getOpenFileName(self, self.tr("Choose a Python interpreter that has PyTorch"))
        if path:
            self.add_python_path(path)

    def _saved_pythons(self) -> list[str]:
        return search.added_from_setting(self.store.user.setting(SETTING_PYTHONS) if self.store is not None else None)

    def _saved_rate(self) -> int:
        text = self.store.user.setting(SETTING_RATE) if self.store is not None else None
        return int(text) if text and text.isdigit() and 1 <= int(text) <= 10 else DEFAULT_HZ

    # -- the run ----------------------------------------------------------------------------------

    def _start(self, job: BackgroundJob) -> None:
        self._jobs.start(job)

    def _on_progress(self, job: BackgroundJob, done: int, total: int, what: str) -> None:
        self._show_busy(what, done, total)
        if what and what != self._phase and done < total:  # the last call says the suite is over
            self._phase = what
            if self.sampler is not None:
                self.sampler.mark(what)
                self._unnamed_mark = self.sampler.snapshot().marks[-1]

    def _on_result(self, result: BenchmarkResult) -> None:
        if self._job is None:
            return
        self.run_view.results.add_result(result)
        if self._unnamed_mark is not None:  # the phase's first result names it on the plot
            self._live_mark_names[self._unnamed_mark] = result.name
            self._unnamed_mark = None

    def _on_run_done(self, job: BackgroundJob, run: ProbeRun) -> None:
        self._job = None
        self._show_run(run)
        note = ""
        history = self.history
        if history is not None:
            from gpuconfig.probe.history import HistoryError

            try:
                history.save(run)
                self.refresh_history()
            except HistoryError as exc:
                note = " " + self.tr("Not saved in the history: {error}").format(error=one_line(str(exc)))
        counts = ", ".join(f"{n} {status}" for status, n in run.counts.items() if n)
        text = self.tr("Finished in {seconds:.0f} s: {counts}.").format(seconds=run.seconds, counts=counts or "—")
        self._show_idle(text + note)
        self.status_message.emit(text)
        self._after_run()

    def _on_run_failed(self, job: BackgroundJob, message: str) -> None:
        self._job = None
        self.run_title.setText(self.tr("The run failed."))
        self._show_idle(self.tr("The run failed: {error}").format(error=message), error=True)
        self._after_run()

    def _on_run_cancelled(self, job: BackgroundJob) -> None:
        self._job = None
        self.run_title.setText(self.tr("Run cancelled: the results so far are shown, without verdicts."))
        self._show_idle(self.tr("Run cancelled."))
        self.status_message.emit(self.tr("Probe run cancelled"))
        self._after_run()

    def _after_run(self) -> None:
        if not self.isVisible():
            self._stop_sampling()

    def _show_busy(self, text: str, done: int, total: int) -> None:
        self.progress.setRange(0, total)  # 0..0: busy without a count yet
        self.progress.setValue(done)
        self.progress.show()
        self.status.setText(text)
        self.status.setToolTip(text)
        mark(self.status, "muted")
        for widget in (self.run_button, self.suite, self.python, self.add_python):
            widget.setEnabled(False)
        self.cancel_button.setEnabled(not (self._job is not None and self._job.is_cancelled()))

    def _show_idle(self, text: str, error: bool = False) -> None:
        self.progress.hide()
        self.status.setText(text)
        self.status.setToolTip(text)
        mark(self.status, "error" if error else "muted")
        for widget in (self.run_button, self.suite, self.python, self.add_python):
            widget.setEnabled(True)
        self.cancel_button.setEnabled(False)

    def _show_run(self, run: ProbeRun) -> None:
        self.shown_run = run
        self.run_view.results.show_results(run.results)
        self.run_view.verdicts.show_verdicts(run.verdicts)
        self.export_run.setEnabled(True)
        when = run.started_at.replace("T", " ")[:16]
        self.run_title.setText(
            self.tr("<b>{suite} suite</b> on {host}, {when}, {seconds:.0f} s").format(
                suite=run.suite.capitalize(), host=run.host, when=when, seconds=run.seconds
            )
        )

    # -- history ----------------------------------------------------------------------------------

    def refresh_history(self) -> None:
        """List the saved runs again (after a run, or another program saved one)."""
        history = self.history
        if history is not None:
            self.history_panel.show_runs(history.runs())

    def open_run(self, run_id: int) -> None:
        """Show a saved run: its results, verdicts, inventory and recorded series."""
        history = self.history
        if history is None or self._job is not None:
            return
        from gpuconfig.probe.history import HistoryError

        try:
            run = history.load(run_id)
        except HistoryError as exc:
            self.history_panel.show_error(one_line(str(exc)))
            return
        self._show_run(run)
        self.tree.show_inventory(run.system, run.devices)
        self._show_saved_series(run)
        self.side.setCurrentIndex(0)

    def compare_runs(self, first_id: int, second_id: int) -> None:
        """Two saved runs' results side by side, with the ratio of the second to the first."""
        from gpuconfig.probe.history import HistoryError
        from gpuconfig.probe.report import compare_rows

        history = self.history
        if history is None:
            return
        try:
            first, second = history.load(first_id), history.load(second_id)
        except HistoryError as exc:
            self.history_panel.show_error(one_line(str(exc)))
            return
        title = self.tr("First: {a} on {host_a}. Second: {b} on {host_b}.").format(
            a=first.started_at.replace("T", " ")[:16],
            host_a=first.host,
            b=second.started_at.replace("T", " ")[:16],
            host_b=second.host,
        )
        self.history_panel.show_comparison(title, compare_rows(first, second))

    def delete_run(self, run_id: int) -> None:
        history = self.history
        if history is not None:
            history.delete(run_id)
            self.refresh_history()

    # -- export -----------------------------------------------------------------------------------

    def export_series_csv(self, path: Path) -> None:
        """Write the series on the plot (live or opened) as CSV."""
        from gpuconfig.probe.sampler import write_csv

        series = self.shown_series()
        if series is not None:
            write_csv(series, Path(path))

    def export_series_json(self, path: Path) -> None:
        from gpuconfig.probe.sampler import write_json

        series = self.shown_series()
        if series is not None:
            write_json(series, Path(path))

    def export_run_json(self, path: Path) -> None:
        from gpuconfig.probe.report import write_json

        if self.shown_run is not None:
            write_json(self.shown_run, Path(path))

    def export_run_html(self, path: Path) -> None:
        from gpuconfig.probe.report import write_html

        if self.shown_run is not None:
            write_html(self.shown_run, Path(path))

    def export_run_pdf(self, path: Path) -> None:
        from gpuconfig.probe.report import html

        if self.shown_run is not None:
            write_pdf(html(self.shown_run), Path(path), "gpuconfig probe")

    def _save_path(self, title: str, name: str, kinds: str) -> Path | None:
        path, _ = QFileDialog.getSaveFileName(self, title, name, kinds)
        return Path(path) if path else None

    def _export(self, write: Any, title: str, suffix: str, kinds: str, what: str) -> None:
        stamp = (self.shown_run.started_at if self.shown_run else "live").replace(":", "-")[:16]
        path = self._save_path(title, f"gpuconfig-{what}-{stamp}.{suffix}", kinds)
        if path is None:
            return
        try:
            write(path)
        except OSError as exc:
            self.status_message.emit(self.tr("Not exported: {error}").format(error=one_line(str(exc))))
            return
        self.status_message.emit(self.tr("Exported to {path}").format(path=path))

    def _on_export_csv(self) -> None:
        self._export(self.export_series_csv, self.tr("Export the series"), "csv", self.tr("CSV (*.csv)"), "series")

    def _on_export_series_json(self) -> None:
        self._export(self.export_series_json, self.tr("Export the series"), "json", self.tr("JSON (*.json)"), "series")

    def _on_export_json(self) -> None:
        self._export(self.export_run_json, self.tr("Export the run"), "json", self.tr("JSON (*.json)"), "probe")

    def _on_export_html(self) -> None:
        self._export(self.export_run_html, self.tr("Export the run"), "html", self.tr("HTML (*.html)"), "probe")

    def _on_export_pdf(self) -> None:
        self._export(self.export_run_pdf, self.tr("Export the run"), "pdf", self.tr("PDF (*.pdf)"), "probe")
