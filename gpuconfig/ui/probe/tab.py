"""The Probe tab: this machine's inventory, its live metrics, the benchmark suite and the verdicts, and the
runs probed before.

The inventory is read on a worker thread when the tab is first shown. The sampler records while the tab
is shown (and while a run lasts, shown or not), and one display timer draws it. A run goes through a
BackgroundJob: the benchmarks run in a worker process that Cancel kills; results arrive one by one, the
verdicts at the end, and the run is saved in this machine's probe history.
"""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING, Any

from PySide6.QtCore import QObject, Qt, Signal
from PySide6.QtGui import QHideEvent, QShowEvent
from PySide6.QtWidgets import QHBoxLayout, QLabel, QPushButton, QSplitter, QTabWidget, QVBoxLayout, QWidget

from gpuconfig.probe.model import BenchmarkResult
from gpuconfig.ui.background import BackgroundJob, Jobs
from gpuconfig.ui.probe.controls import RunControls
from gpuconfig.ui.probe.exports import ProbeExports
from gpuconfig.ui.probe.history import HistoryPanel
from gpuconfig.ui.probe.inventory_tree import InventoryTree
from gpuconfig.ui.probe.live_plot import LivePlot
from gpuconfig.ui.probe.results import RunView
from gpuconfig.ui.theme import Colors

if TYPE_CHECKING:
    from gpuconfig.core.userdata.store import Store
    from gpuconfig.probe.history import ProbeHistory
    from gpuconfig.probe.machine import Inventory
    from gpuconfig.probe.sampler import Sampler, Series
    from gpuconfig.probe.session import ProbeRun

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
        self.inventory: Inventory | None = None  # this machine's inventory, once read
        self.shown_run: ProbeRun | None = None  # the run on the right: the last one, or one from the history
        self.sampler: Sampler | None = None
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

        # Top bar: what to run, where, its progress, and the sampling rate; then the export menus.
        self.exports = ProbeExports(self, lambda: self.shown_run, self.shown_series)
        self.export_series, self.export_run = self.exports.series_button, self.exports.run_button
        self.controls = RunControls(store, self._jobs, self.export_series)
        controls = self.controls
        self.suite, self.python, self.add_python = controls.suite, controls.python, controls.add_python
        self.run_button, self.cancel_button = controls.run_button, controls.cancel_button
        self.progress, self.status, self.rate = controls.progress, controls.status, controls.rate

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
        run_head = QHBoxLayout()
        run_head.addWidget(self.run_title, 1)
        run_head.addWidget(self.export_run, 0, Qt.AlignmentFlag.AlignTop)
        run_page = QWidget()
        run_layout = QVBoxLayout(run_page)
        run_layout.setContentsMargins(4, 6, 4, 4)
        run_layout.addLayout(run_head)
        run_layout.addWidget(self.run_view, 1)
        self.history_panel = HistoryPanel(history)
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
        layout.addWidget(controls)
        layout.addWidget(self.body, 1)

        self.run_button.clicked.connect(self.run)
        self.cancel_button.clicked.connect(self.cancel)
        self.rate.valueChanged.connect(self._on_rate)
        self.back_to_live.clicked.connect(self.show_live)
        self.history_panel.open_requested.connect(self.open_run)
        self.history_panel.compare_requested.connect(self.compare_runs)
        self.history_panel.delete_requested.connect(self.delete_run)
        self.exports.status_message.connect(self.status_message)
        self.controls.show_idle("")
        self.show_live()

    # -- public -----------------------------------------------------------------------------------

    @property
    def history(self) -> ProbeHistory | None:
        """This machine's probe history, opened on first use; None (and the reason shown) if it cannot be."""
        return self.history_panel.history

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
        from gpuconfig.probe.history import earlier_in
        from gpuconfig.probe.session import probe

        suite = str(self.suite.currentData())
        python, only, extra = self.python.currentData(), self.only, tuple(self.controls.saved_pythons())
        history = self.history
        earlier = earlier_in(history.path) if history is not None else None
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
                earlier=earlier,
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
            self.controls.show_cancelling()

    def shutdown(self, wait_ms: int = 10_000) -> None:
        """Cancel everything, wait for the threads, stop the sampler (closing the window calls this)."""
        self._jobs.shutdown(wait_ms)
        self._stop_sampling()
        self.history_panel.close_history()

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
        if self._live:
            self.show_live()

    # -- the live plot or a saved run's series -----------------------------------------------------

    def show_live(self) -> None:
        """Graph the sampler again (after a saved run was shown)."""
        if not self._live and self.inventory is not None:  # the tree showed a saved run's machine
            self.tree.show_inventory(self.inventory.system, self.inventory.devices)
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

        extra = tuple(self.controls.saved_pythons())
        job = BackgroundJob(lambda _progress, _cancelled: inventory(extra_pythons=extra))
        self._inventory_job = job
        job.succeeded.connect(self._on_inventory)
        job.failed.connect(self._on_inventory_failed)
        self.tree.show_message(self.tr("Reading this machine's inventory…"))
        self._start(job)

    def _on_inventory(self, job: BackgroundJob, found: Inventory) -> None:
        self._inventory_job = None
        self.inventory = found
        self.tree.show_inventory(found.system, found.devices)
        for env in found.system.pythons:
            self.controls.add_python_item(env.path, env.torch)

    def _on_inventory_failed(self, job: BackgroundJob, message: str) -> None:
        self._inventory_job = None
        self.tree.show_message(self.tr("The inventory could not be read: {error}").format(error=message))

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
        why = self.history_panel.save(run)
        note = " " + self.tr("Not saved in the history: {error}").format(error=why) if why else ""
        counts = ", ".join(f"{n} {status}" for status, n in run.counts.items() if n)
        text = self.tr("Finished in {seconds:.0f} s: {counts}.").format(seconds=run.seconds, counts=counts or "—")
        self.controls.show_idle(text + note)
        self.status_message.emit(text)
        self._after_run()

    def _on_run_failed(self, job: BackgroundJob, message: str) -> None:
        self._job = None
        self.run_title.setText(self.tr("The run failed."))
        self.controls.show_idle(self.tr("The run failed: {error}").format(error=message), error=True)
        self._after_run()

    def _on_run_cancelled(self, job: BackgroundJob) -> None:
        self._job = None
        self.run_title.setText(self.tr("Run cancelled: the results so far are shown, without verdicts."))
        self.controls.show_idle(self.tr("Run cancelled."))
        self.status_message.emit(self.tr("Probe run cancelled"))
        self._after_run()

    def _after_run(self) -> None:
        if not self.isVisible():
            self._stop_sampling()

    def _show_busy(self, text: str, done: int, total: int) -> None:
        self.controls.show_busy(text, done, total, not (self._job is not None and self._job.is_cancelled()))

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
        self.history_panel.refresh()

    def open_run(self, run_id: int) -> None:
        """Show a saved run: its results, verdicts, inventory and recorded series."""
        if self._job is not None:
            return
        run = self.history_panel.load(run_id)
        if run is None:
            return
        from gpuconfig.probe.session import judged_again  # the probe's modules load when first used

        self._show_run(judged_again(run))
        self.tree.show_inventory(run.system, run.devices)
        self._show_saved_series(run)
        self.side.setCurrentIndex(0)

    def compare_runs(self, first_id: int, second_id: int) -> None:
        """Two saved runs' results side by side, with the ratio of the second to the first."""
        self.history_panel.compare_runs(first_id, second_id)

    def delete_run(self, run_id: int) -> None:
        self.history_panel.delete_run(run_id)

    # -- export -----------------------------------------------------------------------------------

    def export_series_csv(self, path: Path) -> None:
        """Write the series on the plot (live or opened) as CSV."""
        self.exports.series_csv(path)

    def export_series_json(self, path: Path) -> None:
        self.exports.series_json(path)

    def export_run_json(self, path: Path) -> None:
        self.exports.run_json(path)

    def export_run_html(self, path: Path) -> None:
        self.exports.run_html(path)

    def export_run_pdf(self, path: Path) -> None:
        self.exports.run_pdf(path)
