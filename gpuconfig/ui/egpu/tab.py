"""The eGPU tab: will an external GPU work with this laptop, how much does its link cost the user's workload,
and does the one plugged in run at full speed.

The compatibility is pure Python over catalog/egpu.toml (about a millisecond), so it is checked again on the
GUI thread at every change. Three things run in background jobs, one each: reading the Thunderbolt/USB4
host (when the tab is first shown), tracing the Workload tab's workload (when the tab is shown or the card
changes and the trace is not at hand), and measuring the attached eGPU (a benchmark worker process).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import replace
from pathlib import Path
from typing import Any

from PySide6.QtCore import Qt, Signal
from PySide6.QtGui import QGuiApplication, QShowEvent
from PySide6.QtWidgets import (
    QFileDialog,
    QFrame,
    QHBoxLayout,
    QMenu,
    QPushButton,
    QScrollArea,
    QSizePolicy,
    QSplitter,
    QVBoxLayout,
    QWidget,
)

from gpuconfig.core.build.rules import build_rules
from gpuconfig.core.catalog.model import Part
from gpuconfig.core.egpu.check import ORDER, Host
from gpuconfig.core.egpu.report import EgpuReport, egpu_record, egpu_text, evaluate
from gpuconfig.core.egpu.speed import measured_h2d
from gpuconfig.core.egpu.tables import EgpuDataError, EgpuTables, egpu_tables
from gpuconfig.core.i18n import translate
from gpuconfig.core.numbers import json_text
from gpuconfig.core.paths import file_stem, write_text_atomic
from gpuconfig.core.units import format_bytes
from gpuconfig.core.userdata.store import Store
from gpuconfig.core.workload.answer import Answer, gpu_spec
from gpuconfig.core.workload.service import Fit, Resolved
from gpuconfig.core.workload.spec import Workload, WorkloadError
from gpuconfig.probe.egpu import Detection, detect, os_id
from gpuconfig.probe.model import Unavailable
from gpuconfig.ui.background import BackgroundJob, Jobs, one_line
from gpuconfig.ui.egpu.form import EgpuForm, heading
from gpuconfig.ui.egpu.measure import MeasureBar
from gpuconfig.ui.egpu.speed import LinkPanel, WorkloadPanel
from gpuconfig.ui.egpu.view import ChecksTable, NotesList, VerdictBanner
from gpuconfig.ui.theme import Colors
from gpuconfig.ui.workload.tab import SETTING_GPU as WORKLOAD_GPU
from gpuconfig.ui.workload.tracing import Tracing

SETTINGS = {key: f"egpu.{key}" for key in ("port", "os", "charger", "dock", "gpu")}
DEFAULT_PORT, DEFAULT_DOCK, DEFAULT_GPU = "TB4", "razer-core-x", "nvidia-geforce-rtx-3090"
EXPORTS = ("text", "json")


class EgpuTab(QWidget):
    """`status_message(text)` reports what happened, for the status bar. `detector` reads the laptop (the
    probe's own `detect`; the tests hand it a recorded sysfs tree)."""

    status_message = Signal(str)

    def __init__(
        self,
        store: Store,
        colors: Colors,
        workload_source: Callable[[], Workload | None] = lambda: None,
        detector: Callable[[], Detection] = detect,
        parent: QWidget | None = None,
    ) -> None:
        super().__init__(parent)
        self.store, self.colors = store, colors
        self.workload_source, self.detector = workload_source, detector
        self.rules = build_rules()
        self.tables: EgpuTables | None = None
        self.tables_error = ""
        try:
            self.tables = egpu_tables()
        except EgpuDataError as exc:
            self.tables_error = str(exc)
        self.detection: Detection | None = None
        self.using_detected = False
        self.workload: Workload | None = None  # the Workload tab's, as last read
        self.answer: Answer | None = None  # its estimate on the chosen card
        self.measured: list[dict[str, Any]] | None = None  # the measurement's result records
        self.report: EgpuReport | None = None
        self._workload_problem = ""
        self._model_name = ""  # the workload's model as the zoo or its config names it
        self.tracing = Tracing(parent=self)
        self._jobs = Jobs(self)
        self._detect_job: BackgroundJob | None = None
        self._gpus = {p.id: p for p in store.parts("gpu") if p.specs.get("form_factor") == "PCIe card"}

        self.form = EgpuForm(store.parts("dock"), list(self._gpus.values()))
        self.form.show_docks(store.exchange_rate())
        self.banner = VerdictBanner(colors)
        self.export_button = QPushButton(self.tr("Export"))
        self.export_button.setObjectName("egpu_export")
        menu = QMenu(self.export_button)
        self.copy_action = menu.addAction(self.tr("Copy as text"))
        self.copy_action.triggered.connect(self.copy_text)
        self.export_actions = {}
        for fmt, label in (("text", self.tr("Text file…")), ("json", self.tr("JSON…"))):
            action = menu.addAction(label)
            action.triggered.connect(lambda _checked=False, f=fmt: self._on_export(f))
            self.export_actions[fmt] = action
        self.export_button.setMenu(menu)

        self.table = ChecksTable(colors)
        self.table.setObjectName("egpu_checks")
        self.notes = NotesList()
        self.notes.setObjectName("egpu_notes")
        self.measurer = MeasureBar()
        self.link = LinkPanel(colors)
        self.workload_panel = WorkloadPanel()
        self.workload_panel.setObjectName("egpu_workload")

        self.splitter = QSplitter()
        self.splitter.addWidget(self._checks_side())
        self.splitter.addWidget(self._speed_side())
        self.splitter.setStretchFactor(0, 3)
        self.splitter.setStretchFactor(1, 1)
        self.splitter.setChildrenCollapsible(False)
        self.splitter.setSizes([1000, 420])
        verdict_row = QHBoxLayout()
        verdict_row.addWidget(self.banner, 1)
        verdict_row.addWidget(self.export_button, 0, Qt.AlignmentFlag.AlignTop)
        layout = QVBoxLayout(self)
        layout.setContentsMargins(12, 10, 12, 8)
        layout.setSpacing(8)
        layout.addWidget(self.form)
        layout.addSpacing(4)
        layout.addLayout(verdict_row)
        layout.addWidget(self.splitter, 1)

        self._restore()
        self.form.changed.connect(self._on_form_changed)
        self.form.use_detected.connect(self.use_detected)
        self.measurer.measured.connect(self._on_measured)
        self.tracing.progressed.connect(self._on_trace_progress)
        self.tracing.succeeded.connect(self._on_traced)
        self.tracing.failed.connect(self._on_trace_failed)
        self.form.show_detection(None, False)
        self.refresh()

    def _checks_side(self) -> QWidget:
        self.notes_heading = heading(self.tr("Driver notes"))
        side = QWidget()
        column = QVBoxLayout(side)
        column.setContentsMargins(0, 0, 8, 0)
        column.setSpacing(6)
        # The checks come first: they take what they need (up to three quarters), the notes scroll in the rest.
        notes = QScrollArea()
        notes.setWidget(self.notes)
        notes.setWidgetResizable(True)
        notes.setFrameShape(QFrame.Shape.NoFrame)
        notes.setHorizontalScrollBarPolicy(Qt.ScrollBarPolicy.ScrollBarAlwaysOff)
        notes.setSizePolicy(QSizePolicy.Policy.Preferred, QSizePolicy.Policy.Ignored)
        notes.setMinimumHeight(4 * self.fontMetrics().height())
        column.addWidget(self.table, 3)
        column.addWidget(self.measurer)
        column.addSpacing(4)
        column.addWidget(self.notes_heading)
        column.addWidget(notes, 1)
        return side

    def _speed_side(self) -> QWidget:
        side = QWidget()
        column = QVBoxLayout(side)
        column.setContentsMargins(8, 0, 0, 0)
        column.setSpacing(6)
        column.addWidget(heading(self.tr("Link")))
        column.addWidget(self.link)
        column.addSpacing(10)
        column.addWidget(heading(self.tr("Your workload")))
        column.addWidget(self.workload_panel)
        column.addStretch(1)
        return side

    # -- the answer -------------------------------------------------------------------------------

    def host(self) -> Host:
        """The laptop as checked: the detected host (with the OS and charger as chosen), or as described."""
        found = self.detection.host if self.detection is not None else None
        if self.using_detected and found is not None:
            return replace(found, os=self.form.os_id(), charger_w=self.form.charger_w())
        return Host(self.form.port_id(), self.form.os_id(), self.form.charger_w())

    def refresh(self) -> None:
        """Check the laptop, enclosure and card as chosen, with the workload and measurement at hand."""
        if self.tables is None:
            self.report = None
            self.banner.show_verdict("fail", self.tr("The eGPU tables cannot be read"), self.tables_error)
            self.export_button.setEnabled(False)
            return
        dock, gpu = self.store.part(self.form.dock_id()), self._gpus.get(self.form.gpu_id())
        answered = self.answer.gpu.id if self.answer is not None and self.answer.gpu is not None else None
        answer = self.answer if gpu is not None and answered == gpu.id else None
        detection = self.detection.to_json() if self.detection is not None else None
        self.report = evaluate(self.host(), dock, gpu, self.tables, self.rules, answer, self.measured, detection)
        self._show(self.report, dock, gpu)
        self.export_button.setEnabled(True)

    def _show(self, report: EgpuReport, dock: Part | None, gpu: Part | None) -> None:
        c = report.compatibility
        assert c is not None  # the form always describes a host
        self.banner.show_report(report, [p.name for p in (dock, gpu) if p is not None])
        checks = [*([report.fit] if report.fit is not None else []), *c.checks]
        self.table.set_checks(sorted(checks, key=lambda check: ORDER[check.status]), report.measured)
        self.notes.set_notes(c.notes)
        self.notes_heading.setVisible(bool(c.notes))
        self.link.show_speed(
            report.speed, measured_h2d(self.measured or []), self.rules.link_source, self._why_no_link(report)
        )
        self._show_workload(report, gpu)

    def _why_no_link(self, report: EgpuReport) -> str:
        link = report.compatibility.link if report.compatibility is not None else None
        if link is None:
            return self.tr("Nothing to time: this port and enclosure do not work together, so no PCIe link crosses.")
        return self.tr("Nothing to time: no measured copy rate for {link} yet.").format(link=link.name)

    def _show_workload(self, report: EgpuReport, gpu: Part | None) -> None:
        panel = self.workload_panel
        if self.workload is None:
            panel.show_message(
                self.tr("No workload yet. Describe one in the Workload tab (model, task, batch, length) and its "
                        "slowdown on this link shows here.")
            )  # fmt: skip
        elif self.tracing.current is not None:
            return  # the progress shows until the trace is done
        elif self._workload_problem:
            panel.show_message(self._workload_problem, self._workload_text())
        elif report.verdict is not None and not report.verdict.fits and gpu is not None:
            verdict = report.verdict
            panel.show_message(
                self.tr(
                    "Does not fit {card}: needs {peak}, {usable} usable. No step time or slowdown: the workload would "
                    "not run on this card."
                ).format(card=gpu.name, peak=format_bytes(verdict.peak), usable=format_bytes(verdict.usable)),
                self._workload_text(),
            )
        elif report.slowdown is not None and gpu is not None:
            panel.show_slowdown(self.tr("{workload} on {card}").format(workload=report.workload, card=gpu.name),
                                report.slowdown)  # fmt: skip
        elif report.speed is None:  # the same reason as the Link panel's, in the user's language
            panel.show_message(self._why_no_link(report), self._workload_text())
        else:
            panel.show_message(report.slowdown_note or self.tr("Not estimated yet."), self._workload_text())

    def _workload_text(self) -> str:
        w = self.workload
        model = self._model_name or w.model if w is not None else ""
        return "" if w is None else self.tr("{model}, batch {batch}").format(model=model, batch=w.batch)

    # -- the laptop as detected -------------------------------------------------------------------

    def detect_host(self) -> None:
        """Read the Thunderbolt/USB4 host in the background (NVML can take a moment to open)."""
        if self._detect_job is not None:
            return
        detector = self.detector
        job = BackgroundJob(lambda _progress, _cancelled: detector())
        job.succeeded.connect(self._on_detected)
        job.failed.connect(self._on_detect_failed)
        self._detect_job = job
        self._jobs.start(job)

    def use_detected(self) -> None:
        """Check the laptop as detected: its port, security level, authorisation and trained link."""
        found = self.detection.host if self.detection is not None else None
        if found is None:
            return
        self.using_detected = True
        self.form.set_choice(port=found.port, os=found.os)
        self._show_detection()
        self._remember()
        self.refresh()

    def _on_detected(self, job: BackgroundJob, detection: Detection) -> None:
        if job is self._detect_job:
            self.detection = detection
            self._show_detection()
            self.refresh()

    def _show_detection(self) -> None:
        """What was detected, with a line on the NVIDIA GPUs seen (or why none), for the measurement's sake."""
        detection = self.detection
        if detection is not None:
            gpus, line = detection.gpus, ""
            if isinstance(gpus, Unavailable):
                line = self.tr("NVIDIA GPUs: none seen ({why})").format(why=translate("Probe", gpus.reason))
            elif gpus:
                line = self.tr("NVIDIA GPUs: {names}").format(names=", ".join(str(g.name) for g in gpus))
            if line:
                detection = replace(detection, hints=(*detection.hints, line))
        self.form.show_detection(detection, self.using_detected)

    def _on_measured(self, records: list[dict[str, Any]]) -> None:
        self.measured = records
        self.refresh()

    def _on_detect_failed(self, job: BackgroundJob, message: str) -> None:
        if job is self._detect_job:
            self.form.show_detection(None, False, message)

    # -- the workload -----------------------------------------------------------------------------

    def estimate_workload(self) -> None:
        """Read the Workload tab's workload; answer it on the chosen card, tracing it first if needed."""
        self.workload = self.workload_source()
        self._workload_problem = ""
        if self.workload is None:
            self.tracing.cancel()
            self.answer = None
            self.refresh()
            return
        workload = self.workload
        self._model_name = ""
        try:
            resolved = self.tracing.service.resolve(workload)
            self._model_name = resolved.source.name
        except WorkloadError as exc:
            self.tracing.cancel()
            self._set_problem(str(exc))
            return
        fit = self.tracing.service.fit(resolved.key, resolved.shape)
        if fit is not None:
            self.tracing.cancel()
            self._answer(workload, fit)
            return
        if not self.tracing.start(resolved):
            return  # already tracing it
        self.answer = None  # the last answer was of another workload
        self.refresh()
        self.workload_panel.show_busy(self._workload_text(), self.tr("Tracing the model…"), 0, 0)

    def _answer(self, workload: Workload, fit: Fit) -> None:
        try:
            self.answer = fit.answer(workload, gpu_spec(self.store, self.form.gpu_id()), self.store.user.headroom())
        except WorkloadError as exc:
            self._set_problem(str(exc))
            return
        self.refresh()

    def _set_problem(self, message: str) -> None:
        self.answer = None
        self._workload_problem = one_line(message)
        self.refresh()

    def _on_trace_progress(self, _resolved: Resolved, done: int, total: int, what: str) -> None:
        text = self.tr("Tracing: {what}").format(what=what)
        self.workload_panel.show_busy(self._workload_text(), text, done, total)

    def _on_traced(self, _resolved: Resolved, fit: Fit) -> None:
        if self.workload is not None:
            self._answer(self.workload, fit)

    def _on_trace_failed(self, _resolved: Resolved, message: str) -> None:
        self._set_problem(message)

    # -- exports ----------------------------------------------------------------------------------

    def export_text(self, fmt: str) -> str:
        """The answer shown as plain text ("text") or JSON ("json")."""
        if self.report is None:
            raise ValueError("no eGPU answer to export")
        if fmt == "text":
            return egpu_text(self.report) + "\n"
        if fmt == "json":
            return json_text(egpu_record(self.report))
        raise ValueError(f"unknown export format {fmt!r}")

    def export_to(self, path: str | Path, fmt: str) -> None:
        write_text_atomic(Path(path), self.export_text(fmt))
        self.status_message.emit(self.tr("Exported the eGPU check to {path}").format(path=path))

    def copy_text(self) -> None:
        if self.report is not None:
            QGuiApplication.clipboard().setText(self.export_text("text"))
            self.status_message.emit(self.tr("Copied the eGPU check as text"))

    def _on_export(self, fmt: str) -> None:
        if self.report is None:
            return
        kinds = {"text": self.tr("Text (*.txt)"), "json": self.tr("JSON (*.json)")}
        words = ["egpu", self.host().port, self.form.dock_id(), self.form.gpu_id().removeprefix("nvidia-")]
        name = file_stem(" ".join(words))
        suffix = "txt" if fmt == "text" else fmt
        path, _ = QFileDialog.getSaveFileName(self, self.tr("Export the eGPU check"), f"{name}.{suffix}", kinds[fmt])
        if not path:
            return
        try:
            self.export_to(path, fmt)
        except OSError as exc:
            self.status_message.emit(self.tr("Not exported: {error}").format(error=one_line(str(exc))))

    # -- settings and the tab ---------------------------------------------------------------------

    def _restore(self) -> None:
        setting = {key: self.store.user.setting(name) for key, name in SETTINGS.items()}
        gpu = setting["gpu"] or self.store.user.setting(WORKLOAD_GPU)
        charger = setting["charger"]
        self.form.set_choice(port=DEFAULT_PORT, os=os_id(), charger_w=0, dock=DEFAULT_DOCK, gpu=DEFAULT_GPU)
        self.form.set_choice(
            port=setting["port"],
            os=setting["os"],
            charger_w=int(charger) if charger and charger.isdigit() else None,
            dock=setting["dock"],
            gpu=gpu if gpu in self._gpus else None,
        )

    def _remember(self) -> None:
        chosen = {
            "port": self.form.port_id(),
            "os": self.form.os_id(),
            "charger": str(self.form.charger.value()),
            "dock": self.form.dock_id(),
            "gpu": self.form.gpu_id(),
        }
        for key, value in chosen.items():
            if self.store.user.setting(SETTINGS[key]) != value:
                self.store.user.set_setting(SETTINGS[key], value)

    def _on_form_changed(self) -> None:
        found = self.detection.host if self.detection is not None else None
        if self.using_detected and (found is None or self.form.port_id() != found.port):
            self.using_detected = False  # another port chosen: the laptop is described again
            self._show_detection()
        self._remember()
        answered = self.answer.gpu.id if self.answer is not None and self.answer.gpu is not None else None
        if self.workload is not None and answered != self.form.gpu_id():
            self.estimate_workload()  # the step time is the card's: answer again (a trace only if not at hand)
        else:
            self.refresh()

    def apply_headroom(self) -> None:
        """The user's headroom changed: judge the workload on the card again (from the trace at hand)."""
        if self.workload is not None:
            self.estimate_workload()

    def running(self) -> bool:
        """Whether any background job is still alive (a cancelled one until its thread has ended)."""
        return self.tracing.running() or bool(self._jobs) or self.measurer.running()

    def shutdown(self, wait_ms: int = 10_000) -> None:
        """Cancel the trace and the measurement (its worker process is killed) and wait for the threads."""
        self.tracing.shutdown(wait_ms)
        self._jobs.shutdown(wait_ms)
        self.measurer.shutdown(wait_ms)

    def apply_colors(self, colors: Colors) -> None:
        self.colors = colors
        self.banner.apply_colors(colors)
        self.table.apply_colors(colors)
        self.link.apply_colors(colors)

    def showEvent(self, event: QShowEvent) -> None:
        super().showEvent(event)
        self.form.show_docks(self.store.exchange_rate())  # the rate or a price may have changed since
        if self.detection is None:
            self.detect_host()
        workload = self.workload_source()  # the Workload tab may have changed it since
        stale = workload is not None and self.answer is None and not self._workload_problem
        if workload != self.workload or (stale and self.tracing.current is None):
            self.estimate_workload()
