"""The Workload tab: describe a job, see whether it fits the chosen GPU, and what would make it fit.

Every edit restarts a short timer; when it fires the form is read and answered. Only the model, task,
precision, optimizer, checkpointing, attention, device and the LoRA settings but alpha change what must be
traced: for those a trace runs on a worker thread (its progress shown, cancellable), and a newer edit
cancels it. Everything else (batch, length, accumulation, GPUs, strategy, memory format, the GPU itself) is answered
from the fitted trace on the GUI thread in milliseconds. Whether it fits is core/workload/fit.py's verdict with the
user's headroom (File → Fit headroom…). When the workload does not fit, the techniques that need traces of
their own are compared on the worker thread after the answer is shown. While a new trace runs, or the form
holds an error, the last answer stays on screen, muted, and its verdict says it is the previous workload's.
"""

from __future__ import annotations

import json
import sqlite3
from typing import Any

from PySide6.QtCore import Qt, QTimer, Signal
from PySide6.QtWidgets import (
    QHBoxLayout,
    QLabel,
    QProgressBar,
    QPushButton,
    QScrollArea,
    QSizePolicy,
    QSplitter,
    QVBoxLayout,
    QWidget,
)

from gpuconfig.core.userdata.store import Store
from gpuconfig.core.workload.advice import Option, advise, instant_options, ranked, traced_changes
from gpuconfig.core.workload.answer import Answer, gpu_spec
from gpuconfig.core.workload.estimate import GpuSpec
from gpuconfig.core.workload.fit import device_headroom
from gpuconfig.core.workload.service import Fit, Resolved, TraceKey
from gpuconfig.core.workload.spec import Workload, WorkloadError
from gpuconfig.ui.background import BackgroundJob, Jobs, one_line
from gpuconfig.ui.theme import Colors, mark
from gpuconfig.ui.widgets.deferred_save import DeferredSave
from gpuconfig.ui.workload.answer import AnswerView
from gpuconfig.ui.workload.form import PRESETS, WorkloadForm
from gpuconfig.ui.workload.techniques import TechniquesPanel
from gpuconfig.ui.workload.tracing import Tracing

DEBOUNCE_MS = 300
FIRST_PRESET = "image_classification"
SETTING_FORM, SETTING_GPU = "workload.form", "workload.gpu"


def saved_workload(store: Store) -> Workload | None:
    """The workload the Workload tab answered last (kept in the settings), before the tab is built."""
    saved = store.user.setting(SETTING_FORM)
    try:
        return Workload(**json.loads(saved)) if saved else None
    except (ValueError, TypeError):  # WorkloadError is a ValueError; a stale or damaged setting
        return None


class WorkloadTab(QWidget):
    """`status_message(text)` reports what happened, for the status bar."""

    status_message = Signal(str)

    def __init__(self, store: Store, colors: Colors, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.store = store
        self.colors = colors
        self.answer: Answer | None = None
        self.tracing = Tracing(parent=self)
        self._gpus: dict[str, GpuSpec] = {}
        self._probe_history: Any = None  # opened when the form first asks for this machine's measured speed
        self._probe_records: dict[int, dict[str, Any]] = {}  # each probe run's record, read once
        # The key whose trace was cancelled: no edit of its batch or length starts it again, Run again does.
        self._cancelled_key: TraceKey | None = None
        self._jobs = Jobs(self)  # the technique comparison's
        self._advice: tuple[BackgroundJob, Any] | None = None  # job, key
        self._advice_cache: dict[Any, list[Option]] = {}
        self._compare_for: Any = None  # compare even though it fits: the user asked, for this workload
        self._declined: Any = None  # the user cancelled comparing this workload: do not start again by itself

        self.form = WorkloadForm(store.parts("gpu"))
        self.presets: dict[str, QPushButton] = {}
        preset_bar = QHBoxLayout()
        preset_bar.setSpacing(6)
        start = QLabel(self.tr("Start from:"))
        mark(start, "muted")
        preset_bar.addWidget(start)
        for preset, label in self.form.preset_labels.items():
            button = QPushButton(label)
            button.setObjectName(f"preset_{preset}")
            button.setToolTip(self._preset_tip(PRESETS[preset]))
            button.clicked.connect(lambda _checked=False, p=preset: self.apply_preset(p))
            self.presets[preset] = button
            preset_bar.addWidget(button)
        preset_bar.addStretch(1)

        form_box = QWidget()
        form_layout = QVBoxLayout(form_box)
        form_layout.setContentsMargins(0, 0, 8, 0)
        form_layout.addWidget(self.form)
        how = QLabel(
            self.tr(
                "Accumulation, GPU count, strategy, memory format, torch.compile and GPU model are answered at once "
                "from the model's trace, and so are a batch and length between the traced ones (the asked batch and "
                "twice it, the asked length and half it); beyond them the answer is extended at once, marked as "
                "such, and the new shape is traced. Model, task, precision, optimizer, checkpointing, attention, "
                "device and the LoRA settings (all but alpha) need a new trace: PyTorch runs the real model on fake "
                "tensors in a separate process (seconds to a minute; kept on disk, so each is traced once)."
            )
        )
        how.setObjectName("how_it_works")
        how.setWordWrap(True)
        mark(how, "muted")
        form_layout.addSpacing(12)
        form_layout.addWidget(how)
        form_layout.addStretch(1)
        scroll = QScrollArea()
        scroll.setWidgetResizable(True)
        scroll.setFrameShape(QScrollArea.Shape.NoFrame)
        scroll.setWidget(form_box)
        scroll.setHorizontalScrollBarPolicy(Qt.ScrollBarPolicy.ScrollBarAlwaysOff)
        scroll.setMinimumWidth(400)
        scroll.setMaximumWidth(460)

        self.error = QLabel()
        self.error.setObjectName("workload_error")
        self.error.setWordWrap(True)
        self.error.setTextInteractionFlags(Qt.TextInteractionFlag.TextSelectableByMouse)
        mark(self.error, "error")
        self.error.hide()
        self.progress = QProgressBar()
        self.progress.setObjectName("trace_progress")
        self.progress.setFixedWidth(180)
        self.progress.setFormat("%v / %m")
        self.status = QLabel()
        self.status.setObjectName("workload_status")
        mark(self.status, "muted")
        self.status.setSizePolicy(QSizePolicy.Policy.Ignored, QSizePolicy.Policy.Preferred)
        self.cancel_button = QPushButton(self.tr("Cancel"))
        self.cancel_button.setObjectName("cancel_trace")
        self.run_button = QPushButton(self.tr("Run again"))
        self.run_button.setObjectName("run_again")
        status_row = QHBoxLayout()
        status_row.addWidget(self.progress)
        status_row.addWidget(self.status, 1)
        status_row.addWidget(self.cancel_button)
        status_row.addWidget(self.run_button)

        self.view = AnswerView(colors)
        self.view.setObjectName("answer_view")

        self.panel = TechniquesPanel(colors)
        self.techniques = self.panel.table
        self.fits_if = self.panel.fits_if
        self.compare_button = self.panel.compare_button
        self.apply_button = self.panel.apply_button

        self.results = QSplitter(Qt.Orientation.Vertical)
        self.results.setObjectName("workload_results")
        self.results.addWidget(self.view)
        self.results.addWidget(self.panel)
        self.results.setStretchFactor(0, 4)
        self.results.setStretchFactor(1, 3)
        self.results.setSizes([420, 300])
        self.results.setChildrenCollapsible(False)

        right = QVBoxLayout()
        right.setContentsMargins(0, 0, 0, 0)
        right.addWidget(self.error)
        right.addLayout(status_row)
        right.addWidget(self.results, 1)
        body = QHBoxLayout()
        body.setSpacing(16)
        body.addWidget(scroll)
        body.addLayout(right, 1)
        layout = QVBoxLayout(self)
        layout.setContentsMargins(12, 10, 12, 8)
        layout.addLayout(preset_bar)
        layout.addSpacing(4)
        layout.addLayout(body, 1)

        self._debounce = QTimer(self)
        self._debounce.setSingleShot(True)
        self._debounce.setInterval(DEBOUNCE_MS)
        self._debounce.timeout.connect(self.recompute)
        # The form is remembered a moment after the last answer: a settings write costs milliseconds (a
        # transaction), too much for every keystroke.
        self._saver = DeferredSave(self._save, self)
        self._show_idle("")
        self.results.setEnabled(False)
        self._restore()
        self.form.changed.connect(self._debounce.start)
        self.cancel_button.clicked.connect(self.cancel)
        self.run_button.clicked.connect(self.run_again)
        self.panel.compare_requested.connect(self.compare_techniques)
        self.panel.apply_requested.connect(self.apply_workload)
        self.tracing.progressed.connect(self._on_trace_progress)
        self.tracing.succeeded.connect(self._on_traced)
        self.tracing.failed.connect(self._on_trace_failed)
        self._debounce.start()

    # -- public -----------------------------------------------------------------------------------

    def apply_preset(self, preset: str) -> None:
        self.form.apply_preset(preset)

    def apply_workload(self, workload: Workload) -> None:
        """Put a workload (an option from the table) into the form."""
        self.form.set_workload(workload)

    def current_workload(self) -> Workload | None:
        """The workload the tab answers now, else the one the form holds, else None (the form is invalid)."""
        if self.answer is not None:
            return self.answer.estimate.workload
        try:
            return self.form.workload()
        except WorkloadError:
            return None

    @property
    def traces_started(self) -> int:
        """Trace jobs started (the tests count them)."""
        return self.tracing.started

    def running(self) -> bool:
        """Whether any background job is still alive (a cancelled one until its thread has ended)."""
        return self.tracing.running() or bool(self._jobs)

    def shutdown(self, wait_ms: int = 10_000) -> None:
        """Cancel everything and wait for the threads (a trace process is killed at once)."""
        self._debounce.stop()
        self._saver.close()
        self.tracing.shutdown(wait_ms)
        self._jobs.shutdown(wait_ms)
        if self._probe_history is not None:
            self._probe_history.close()
            self._probe_history = None

    def apply_colors(self, colors: Colors) -> None:
        self.colors = colors
        self.view.apply_colors(colors)
        self.panel.apply_colors(colors)
        if self.answer is not None and self.answer.gpu is not None:
            stale = self.panel.stale
            self.panel.show_options(self.answer, self.panel.options, pending=self._advice is not None)
            if stale:
                self.panel.set_stale()

    def apply_headroom(self) -> None:
        """The user's headroom changed: judge the form again (from the fit at hand, in milliseconds)."""
        self.recompute()

    # -- reading the form and answering -----------------------------------------------------------

    def recompute(self) -> None:
        """Answer the form as it is now: at once from a fit, or by starting a trace."""
        self._debounce.stop()
        try:
            workload = self.form.workload()
            resolved = self.tracing.service.resolve(workload)
            gpu = self._gpu(workload)
        except WorkloadError as exc:
            self._cancel_jobs()
            self._show_error(str(exc))
            return
        self.form.set_default_seq(resolved.source.default_seq())
        key, service = resolved.key, self.tracing.service
        fit = service.fit(key, resolved.shape)
        if fit is not None:
            try:
                self._answer(workload, fit, gpu)
            except WorkloadError as exc:  # an option the advice tried may be impossible for this workload
                self._cancel_jobs()
                self._show_error(str(exc))
            return
        failure = service.failure(key)
        if failure is not None:
            self._cancel_jobs()
            self._show_error(failure, again=True)
            return
        # Another shape's fit answers at once, its lines extended past what it traced (the answer says so);
        # a trace of this shape then replaces it.
        nearest = service.nearest(key, resolved.shape)
        if self.tracing.tracing(resolved):
            self._answer_for_now(workload, nearest, gpu)
            return  # already tracing this: its result answers the form as it is then
        self._cancel_jobs()
        if key == self._cancelled_key:
            self._answer_for_now(workload, nearest, gpu)
            self._show_idle(self.tr("Trace cancelled."), again=True)
            return
        self._answer_for_now(workload, nearest, gpu)
        self._start_trace(resolved, for_now=self.answer is not None and nearest is not None)

    def _answer_for_now(self, workload: Workload, fit: Fit | None, gpu: GpuSpec | None) -> None:
        """Answer from another shape's fit while this shape is traced (nothing without one)."""
        if fit is None:
            return
        try:
            self._answer(workload, fit, gpu, for_now=True)
        except WorkloadError:
            return  # the trace of this shape answers, or says why not

    def _gpu(self, workload: Workload) -> GpuSpec | None:
        """The device the answer is judged and timed on: the chosen catalog GPU, as the Probe tab last measured
        this machine when the form asks for its measured speed (the CPU's, for a workload on the CPU)."""
        base = None
        if workload.device == "cuda":
            part_id = self.form.gpu_id()
            if part_id not in self._gpus:
                self._gpus[part_id] = gpu_spec(self.store, part_id)
            base = self._gpus[part_id]
        if not self.form.measured.isChecked():
            return base
        return self._measured(workload.device, base)

    def _measured(self, device: str, base: GpuSpec | None) -> GpuSpec:
        """This machine's device as its newest probe run that measured it saw it (the runs' records are read once
        each); WorkloadError when no run measured it."""
        from gpuconfig.core.workload.measured import measured_spec
        from gpuconfig.probe.history import HistoryError, ProbeHistory

        try:
            if self._probe_history is None:
                self._probe_history = ProbeHistory.open_default()
            runs = self._probe_history.runs()
            if not runs:
                raise WorkloadError(self.tr("no probe run of this machine yet: run a suite in the Probe tab first"))
            refused: WorkloadError | None = None
            for run in runs:  # newest first: a cancelled run, or one of other benchmarks, gives way to an older one
                if run.id not in self._probe_records:
                    self._probe_records[run.id] = self._probe_history.load(run.id).record()
                where = self.tr("the Probe tab's run {id}").format(id=run.id)
                try:
                    return measured_spec(self._probe_records[run.id], device, base, where)
                except WorkloadError as exc:
                    refused = refused or exc
            assert refused is not None
            raise refused
        except (HistoryError, sqlite3.DatabaseError) as exc:
            raise WorkloadError(str(exc)) from exc

    def _answer(self, workload: Workload, fit: Fit, gpu: GpuSpec | None, for_now: bool = False) -> None:
        """Show `fit`'s answer to the workload; `for_now`: a trace of its shape is coming, which will replace it
        (no comparison of techniques starts, and the status stays the trace's)."""
        headroom = device_headroom(workload.device, self.store.user.headroom())
        answer, seconds = fit.answer(workload, gpu, headroom), fit.trace_seconds
        self.answer = answer
        self._clear_error()
        self.results.setEnabled(True)
        self.view.show_answer(answer)
        self._saver.request()
        if for_now:
            if gpu is None:
                self.panel.show_without_device(workload, answer.estimate.memory.peak)
            else:
                self.panel.show_options(answer, ranked(instant_options(answer, gpu)), pending=False)
            return
        if gpu is None:
            self._cancel_advice()
            self.panel.show_without_device(workload, answer.estimate.memory.peak)
            self._show_idle(self._trace_note(seconds))
            return
        verdict = answer.verdict
        fits = verdict is not None and verdict.fits
        advice_key = self._advice_key(answer, gpu)
        cached = self._advice_cache.get(advice_key)
        if cached is not None:
            self._cancel_advice()
            self.panel.show_options(answer, cached, pending=False)
            self._show_idle(self._trace_note(seconds))
            return
        instant = ranked(instant_options(answer, gpu))
        comparing = self._advice is not None and self._advice[1] == advice_key
        asked = self._compare_for == advice_key or (not fits and advice_key != self._declined)
        wanted = asked and bool(traced_changes(workload))
        if not comparing:
            self._cancel_advice()
        self.panel.show_options(answer, instant, pending=comparing or wanted)
        if wanted and not comparing:
            self._start_advice(gpu, answer, advice_key)
        elif not comparing:
            self._show_idle(self._trace_note(seconds))

    def _advice_key(self, answer: Answer, gpu: GpuSpec) -> tuple[object, ...]:
        """What a comparison answers: the options depend on the headroom that judges them too."""
        return (answer.source.digest, answer.estimate.workload, gpu, answer.headroom)  # a measured spec is its own

    # -- background jobs --------------------------------------------------------------------------

    def _start_trace(self, resolved: Resolved, for_now: bool = False) -> None:
        """Trace the workload's shape; `for_now`: another shape's fit already answers it, extended (shown, not
        greyed out, while the trace runs)."""
        self._cancelled_key = None
        self.tracing.start(resolved)
        if for_now:
            batch, seq = resolved.shape
            self._show_busy(
                self.tr("Tracing {model} at batch {batch}, length {seq}…").format(
                    model=resolved.source.name, batch=batch, seq=seq
                ),
                0,
                0,
            )
            return
        self._clear_error()  # the form is valid again; whatever the trace says comes next
        if self.answer is None:
            self.view.verdict.setText(self.tr("Tracing the model to find out what it needs…"))
        self._show_stale()  # what is shown is for an older workload until the trace is done
        self._show_busy(self.tr("Tracing {model}…").format(model=resolved.source.name), 0, 0)

    def _start_advice(self, gpu: GpuSpec, base: Answer, key: Any) -> None:
        job = BackgroundJob(lambda progress, cancelled: advise(base, gpu, progress=progress, cancelled=cancelled))
        self._advice = (job, key)
        job.progressed.connect(self._on_advice_progress)
        job.succeeded.connect(self._on_advised)
        job.failed.connect(self._on_advice_failed)
        self._jobs.start(job)
        self._show_busy(self.tr("Comparing techniques…"), 0, 0)

    def _cancel_jobs(self) -> None:
        self.tracing.cancel()
        self._cancel_advice()

    def _cancel_advice(self) -> None:
        if self._advice is not None:
            self._advice[0].cancel()
            self._advice = None

    def cancel(self) -> None:
        """The Cancel button: stop the trace or the comparison now running."""
        cancelled = self.tracing.cancel()
        if cancelled is not None:
            self._cancelled_key = cancelled.key
            self._cancel_advice()
            self._show_idle(self.tr("Trace cancelled."), again=True)
            self.status_message.emit(self.tr("Trace cancelled"))
        elif self._advice is not None:
            self._declined = self._advice[1]
            self._cancel_advice()
            self._compare_for = None
            if self.answer is not None:
                self.panel.show_options(self.answer, self.panel.options, pending=False)
            self._show_idle(self.tr("Comparison cancelled: the table shows the instant options only."))

    def run_again(self) -> None:
        """Try the current form again after a cancel or a failure."""
        self._cancelled_key = None
        self.tracing.service.forget_failures()
        self.recompute()

    def compare_techniques(self) -> None:
        """Trace every technique for the current workload, even when it fits."""
        if self.answer is None or self.answer.gpu is None:
            return
        self._compare_for = self._advice_key(self.answer, self.answer.gpu)
        self.recompute()

    def _on_trace_progress(self, resolved: Resolved, done: int, total: int, what: str) -> None:
        self._show_busy(self.tr("Tracing {model}: {what}").format(model=resolved.source.name, what=what), done, total)

    def _on_traced(self, _resolved: Resolved, _fit: Fit) -> None:
        self.recompute()  # the fit is at hand: answer the form as it is now

    def _on_trace_failed(self, _resolved: Resolved, message: str) -> None:
        self._show_error(message, again=True)

    def _on_advice_progress(self, job: BackgroundJob, done: int, total: int, what: str) -> None:
        if self._advice is not None and job is self._advice[0]:
            self._show_busy(self.tr("Comparing techniques: {what}").format(what=what), done, total)

    def _on_advised(self, job: BackgroundJob, result: list[Option]) -> None:
        if self._advice is not None and job is self._advice[0]:
            key = self._advice[1]
            self._advice = None
            self._advice_cache[key] = result
            if self.answer is not None:
                self.panel.show_options(self.answer, result, pending=False)
                self._show_idle(self.tr("Techniques compared."))

    def _on_advice_failed(self, job: BackgroundJob, message: str) -> None:
        if self._advice is not None and job is self._advice[0]:
            self._advice = None
            self._compare_for = None
            if self.answer is not None:
                self.panel.show_options(self.answer, self.panel.options, pending=False)
            self._show_idle(self.tr("Could not compare the techniques: {error}").format(error=message))

    # -- showing ----------------------------------------------------------------------------------

    def _show_busy(self, text: str, done: int, total: int) -> None:
        self.progress.setRange(0, total)  # 0..0: busy without a count yet
        self.progress.setValue(done)
        self.progress.show()
        self.status.setText(text)
        self.status.setToolTip(text)
        self.cancel_button.show()
        self.run_button.hide()

    def _show_idle(self, text: str, again: bool = False) -> None:
        self.progress.hide()
        self.cancel_button.hide()
        self.run_button.setVisible(again)
        self.status.setText(text)
        self.status.setToolTip(text)

    def _show_error(self, message: str, again: bool = False) -> None:
        """A one-line message over the results, which are greyed out: they answer an older form.
        `again`: offer to run the trace again (it failed; the input may be fine)."""
        text = one_line(message)
        self.error.setText(text)
        self.error.setToolTip(text)
        self.error.show()
        self._show_stale()
        self._show_idle("", again=again)

    def _show_stale(self) -> None:
        """The answer shown is for an older workload: greyed out, its verdict saying so, until the next one."""
        self.results.setEnabled(False)
        self.view.show_stale()
        if self.answer is not None:
            self.panel.set_stale()

    def _clear_error(self) -> None:
        self.error.clear()
        self.error.hide()

    def _trace_note(self, seconds: float) -> str:
        return self.tr("Traced in {seconds:.1f} s; what lies between its shapes is answered from the trace.").format(
            seconds=seconds
        )

    # -- settings ---------------------------------------------------------------------------------

    def _preset_tip(self, workload: Workload) -> str:
        form = self.form
        task = form.task.itemText(form.task.findData(workload.task))
        precision = form.precision.itemText(form.precision.findData(workload.precision))
        seq = self.tr(", length {n:,}").format(n=workload.seq) if workload.seq else ""
        return self.tr("{model}: {task}, {precision}, batch {batch}{seq}").format(
            model=workload.model, task=task, precision=precision, batch=workload.batch, seq=seq
        )

    def _restore(self) -> None:
        """The last workload answered, else the first preset."""
        saved = self.store.user.setting(SETTING_FORM)
        gpu = self.store.user.setting(SETTING_GPU)
        if gpu:
            self.form.set_gpu(gpu)
        try:
            workload = Workload(**json.loads(saved)) if saved else PRESETS[FIRST_PRESET]
        except (ValueError, TypeError):  # WorkloadError is a ValueError; a stale or damaged setting
            workload = PRESETS[FIRST_PRESET]
        self.form.set_workload(workload)

    def _save(self) -> None:
        if self.answer is None:
            return
        workload = self.answer.estimate.workload
        text = json.dumps(workload.to_json(), sort_keys=True)
        if self.store.user.setting(SETTING_FORM) != text:
            self.store.user.set_setting(SETTING_FORM, text)
        chosen = self.form.gpu_id()  # the catalog GPU chosen, also when the answer is at measured rates
        if self.answer.gpu is not None and chosen and self.store.user.setting(SETTING_GPU) != chosen:
            self.store.user.set_setting(SETTING_GPU, chosen)
