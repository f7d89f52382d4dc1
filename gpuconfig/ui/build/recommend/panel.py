"""The Recommend panel: complete machines (and rentals) for a workload and a budget.

The slow part is tracing: the workload as asked and each change the plan may make to it (core/planner/
changes.py), on a worker thread (cancellable, its progress shown; a new request cancels it). The fits are kept,
so changing the budget, the currency, the job or the limits afterwards plans again at once on the GUI thread
(the planner itself takes milliseconds). While a new plan is on its way, or when the form no longer says what
the results answer, the results are dimmed and marked outdated.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from PySide6.QtCore import Qt, QTimer, Signal
from PySide6.QtGui import QResizeEvent, QShowEvent
from PySide6.QtWidgets import (
    QFrame,
    QHBoxLayout,
    QLabel,
    QProgressBar,
    QPushButton,
    QScrollArea,
    QSizePolicy,
    QVBoxLayout,
    QWidget,
)

from gpuconfig.core.build.rules import Rules
from gpuconfig.core.planner.changes import Variant, candidate_changes, traced_variants
from gpuconfig.core.planner.recommend import Constraints, Plan, PlanError, plan_parts, recommend
from gpuconfig.core.userdata.store import Store
from gpuconfig.core.workload.fit import Headroom
from gpuconfig.core.workload.service import Resolved, TraceService
from gpuconfig.core.workload.spec import Workload, WorkloadError
from gpuconfig.ui.background import BackgroundJob, Jobs, one_line
from gpuconfig.ui.build.recommend.form import RecommendForm
from gpuconfig.ui.build.recommend.plan_view import PlanView
from gpuconfig.ui.theme import Colors, mark

REPLAN_MS = 250
VIEW_HEIGHT = 420  # the results keep this much of the panel's height; the form scrolls instead
MIN_FORM_HEIGHT = 120
WorkloadSource = Callable[[], Workload | None]


@dataclass(frozen=True)
class Request:
    """The form read and checked: what to plan, and the traces it needs."""

    workload: Workload
    constraints: Constraints
    resolved: Resolved
    allow_result_changes: bool
    as_asked: bool
    headroom: Headroom

    @property
    def traces(self) -> tuple[Any, ...]:
        """What decides the traces the plan needs (the workload's trace key and which changes are tried)."""
        return (self.resolved.key, self.allow_result_changes, self.as_asked)


class RecommendPanel(QWidget):
    """`build_chosen(build)` when the user picks a candidate; `status_message(text)` for the status bar."""

    build_chosen = Signal(object)
    status_message = Signal(str)

    def __init__(
        self,
        store: Store,
        rules: Rules,
        colors: Colors,
        workload_source: WorkloadSource,
        parent: QWidget | None = None,
    ) -> None:
        super().__init__(parent)
        self.store, self.rules, self.colors = store, rules, colors
        self.workload_source = workload_source
        self.plan: Plan | None = None
        self.service = TraceService()
        self._jobs = Jobs(self)
        self._job: tuple[BackgroundJob, tuple[Any, ...]] | None = None
        self._started = 0

        self.heading = QLabel(self.tr("Recommend a machine"))
        font = self.heading.font()
        font.setBold(True)
        self.heading.setFont(font)
        self.form = RecommendForm(rules.circuits)
        self.run_button = QPushButton(self.tr("Recommend"))
        self.run_button.setObjectName("plan_run")
        self.run_button.setDefault(True)
        self.cancel_button = QPushButton(self.tr("Cancel"))
        self.cancel_button.setObjectName("plan_cancel")
        self.progress = QProgressBar()
        self.progress.setObjectName("plan_progress")
        self.progress.setFixedWidth(120)
        self.progress.setFormat("%v / %m")
        self.status = QLabel()
        self.status.setObjectName("plan_status")
        self.status.setSizePolicy(QSizePolicy.Policy.Ignored, QSizePolicy.Policy.Preferred)
        mark(self.status, "muted")
        self.error = QLabel()
        self.error.setObjectName("plan_error")
        self.error.setWordWrap(True)
        mark(self.error, "error")
        self.error.hide()
        row = QHBoxLayout()
        row.addWidget(self.run_button)
        row.addWidget(self.cancel_button)
        row.addWidget(self.progress)
        row.addWidget(self.status, 1)
        self.view = PlanView(colors)
        # The form scrolls where the panel is short (every workload field shown), rather than crowd the results.
        self.form_area = QScrollArea()
        self.form_area.setObjectName("plan_form_area")
        self.form_area.setWidget(self.form)
        self.form_area.setWidgetResizable(True)
        self.form_area.setFrameShape(QFrame.Shape.NoFrame)
        self.form_area.setHorizontalScrollBarPolicy(Qt.ScrollBarPolicy.ScrollBarAlwaysOff)
        layout = QVBoxLayout(self)
        layout.setContentsMargins(0, 0, 0, 0)
        layout.addWidget(self.heading)
        layout.addWidget(self.form_area)
        layout.addLayout(row)
        layout.addWidget(self.error)
        layout.addWidget(self.view, 1)

        self._replan = QTimer(self)
        self._replan.setSingleShot(True)
        self._replan.setInterval(REPLAN_MS)
        self._replan.timeout.connect(self._on_replan)
        self.run_button.clicked.connect(self.run)
        self.cancel_button.clicked.connect(self.cancel)
        self.form.changed.connect(self._replan.start)
        self.form.details_button.toggled.connect(self._fit_form)
        self.view.candidate_chosen.connect(lambda c: self.build_chosen.emit(c.build))
        self.form.set_headroom(store.user.headroom())
        self._idle("")

    # -- public -----------------------------------------------------------------------------------

    @property
    def traces_started(self) -> int:
        """Trace jobs started (the tests count them)."""
        return self._started

    def refresh_workload(self) -> None:
        """Read the Workload tab's workload and the fit headroom again."""
        self.form.set_tab_workload(self.workload_source())
        self.form.set_headroom(self.store.user.headroom())

    def apply_headroom(self) -> None:
        """The user set another headroom: show it, and plan again with it when a plan is shown."""
        self.form.set_headroom(self.store.user.headroom())
        if self.plan is not None:
            self._replan.start()

    def run(self) -> None:
        """Plan for the form as it is: at once when its traces are at hand, else after tracing what is missing.
        A form that cannot be planned is refused with its message, and nothing is planned."""
        self.refresh_workload()
        self._replan.stop()  # the form is read now
        request = self._request()
        if request is None:
            if self._stop_job():
                self._idle("")
            return
        variants = self._at_hand(request)
        if variants is not None:
            self._stop_job()
            self._plan(request, variants)
            return
        if self._job is not None and self._job[1] == request.traces:
            return  # already tracing what this needs: the form as it is then is planned when the traces are done
        self._start(request)

    def cancel(self) -> None:
        if self._stop_job():
            self._idle(self.tr("Cancelled."))
            if self.plan is not None:
                self.view.set_outdated(self.tr("Outdated: planning again was cancelled; Recommend to try again."))

    def running(self) -> bool:
        """Whether a trace's thread is still alive (a cancelled one until its thread has ended)."""
        return bool(self._jobs)

    def shutdown(self, wait_ms: int = 10_000) -> None:
        self._replan.stop()
        self._jobs.shutdown(wait_ms)

    def apply_colors(self, colors: Colors) -> None:
        self.colors = colors
        self.view.apply_colors(colors)

    def showEvent(self, event: QShowEvent) -> None:
        super().showEvent(event)
        self.refresh_workload()
        self._fit_form()

    def resizeEvent(self, event: QResizeEvent) -> None:
        super().resizeEvent(event)
        self._fit_form()

    def _fit_form(self) -> None:
        """The form as tall as it needs, short of leaving the results less than VIEW_HEIGHT; past that it
        scrolls (every workload field shown on a short screen)."""
        layout = self.layout()
        spacing = layout.spacing() if layout is not None else 6
        rest = self.heading.sizeHint().height() + self.run_button.sizeHint().height() + 3 * spacing
        if self.error.isVisible():
            rest += self.error.sizeHint().height() + spacing
        room = self.height() - max(VIEW_HEIGHT, self.view.minimumSizeHint().height()) - rest
        self.form_area.setFixedHeight(max(MIN_FORM_HEIGHT, min(self.form.sizeHint().height(), room)))

    # -- the request and its traces ---------------------------------------------------------------

    def _request(self) -> Request | None:
        """The form read and checked, or None with its message shown (and the results dimmed)."""
        try:
            workload = self.form.workload()
            constraints = self.form.constraints()
            resolved = self.service.resolve(workload)
        except (WorkloadError, PlanError) as exc:
            self._show_error(str(exc))
            return None
        return Request(
            workload,
            constraints,
            resolved,
            self.form.allow_result_changes(),
            self.form.only_as_asked(),
            self.store.user.headroom(),
        )

    def _at_hand(self, request: Request) -> list[Variant] | None:
        """The workload as asked and its changes from the fits made so far, in traced_variants' order; None when
        a trace is missing. A change whose trace failed is left out, as traced_variants leaves it out."""
        found = self.service.fit(request.resolved.key, request.resolved.shape)
        if found is None:
            return None
        out = [Variant("", request.workload, found.source, found.fitted)]
        if request.as_asked:
            return out
        for label, changed, alters in candidate_changes(request.workload, request.allow_result_changes):
            try:
                resolved = self.service.resolve(changed)
            except WorkloadError:
                continue
            key = resolved.key
            fit = self.service.fit(key, resolved.shape)
            if fit is None:
                if self.service.failure(key) is None:
                    return None
                continue
            out.append(Variant(label, changed, fit.source, fit.fitted, alters))
        return out

    def _start(self, request: Request) -> None:
        """Trace what the request needs on a worker thread, cancelling the job running."""
        self._stop_job()
        service, resolved = self.service, request.resolved
        allow, as_asked = request.allow_result_changes, request.as_asked
        name = resolved.source.name
        tracing = self.tr("Tracing {model}: {what}")
        changing = self.tr("Tracing {model} with {change} ({n} of {total})")
        planning = self.tr("Planning…")

        def work(progress: Callable[[int, int, str], None], cancelled: Callable[[], bool]) -> list[Variant]:
            def on_trace(done: int, total: int, what: str) -> None:
                progress(done, total, tracing.format(model=name, what=what))

            def on_change(done: int, total: int, label: str) -> None:
                text = planning if done >= total else changing.format(model=name, change=label, n=done + 1, total=total)
                progress(done, total, text)

            fit = service.fit(resolved.key, resolved.shape) or service.trace(resolved, on_trace, cancelled)
            asked = Variant("", resolved.workload, fit.source, fit.fitted)
            return [asked] if as_asked else traced_variants(asked, allow, service, cancelled, on_change)

        job = BackgroundJob(work, name)
        job.progressed.connect(self._on_progress)
        job.succeeded.connect(self._on_traced)
        job.failed.connect(self._on_failed)
        self._job = (job, request.traces)
        self._started += 1
        self._clear_error()
        if self.plan is not None:
            self.view.set_outdated(self.tr("Outdated: these results are for the form as it was; planning again…"))
        self._busy(self.tr("Tracing {model}…").format(model=name), 0, 0)
        self._jobs.start(job)

    def _stop_job(self) -> bool:
        """Cancel the job running (its trace process is killed at once); whether there was one."""
        if self._job is None:
            return False
        job, _ = self._job
        self._job = None
        job.cancel()
        return True

    def _latest(self, job: BackgroundJob) -> bool:
        return self._job is not None and job is self._job[0]

    # -- planning ---------------------------------------------------------------------------------

    def _plan(self, request: Request, variants: list[Variant]) -> None:
        parts = plan_parts(self.store)
        by_id = {p.id: p for p in parts}
        asked = variants[0]
        try:
            plan = recommend(
                asked.source,
                asked.fitted,
                request.workload,
                request.constraints,
                parts,
                self.rules,
                self.store.exchange_rate(),
                by_id.get,
                variants[1:],
                request.headroom,
            )
        except (WorkloadError, PlanError) as exc:
            self._show_error(str(exc))
            return
        self.plan = plan
        self._clear_error()
        self.view.show_plan(plan)
        self._idle(self.tr("Planned for {model}.").format(model=asked.source.name))

    def _on_replan(self) -> None:
        """The form changed: plan again when its traces are at hand (no trace starts by itself); say what cannot
        be used at once, and that the results shown no longer answer the form."""
        request = self._request()
        if request is None:
            return
        self._clear_error()
        if self.plan is None and self._job is None:
            return  # nothing planned yet: Recommend starts
        variants = self._at_hand(request)
        if variants is not None:
            self._stop_job()
            self._plan(request, variants)
        elif self._job is None and self.plan is not None:
            self.view.set_outdated(
                self.tr("Outdated: the form changed and needs a new trace; Recommend to plan for it.")
            )

    def _on_progress(self, job: BackgroundJob, done: int, total: int, what: str) -> None:
        if self._latest(job):
            self._busy(what, done, total)

    def _on_traced(self, job: BackgroundJob, _variants: list[Variant]) -> None:
        if self._latest(job):
            self._job = None
            self.run()  # the form may have changed while tracing: plan for the form as it is now

    def _on_failed(self, job: BackgroundJob, message: str) -> None:
        if self._latest(job):
            self._job = None
            self._show_error(message)

    # -- showing ----------------------------------------------------------------------------------

    def _busy(self, text: str, done: int, total: int) -> None:
        self.progress.setRange(0, total)
        self.progress.setValue(done)
        self.progress.show()
        self.cancel_button.show()
        self.status.setText(text)
        self.status.setToolTip(text)

    def _idle(self, text: str) -> None:
        self.progress.hide()
        self.cancel_button.hide()
        self.status.setText(text)
        self.status.setToolTip(text)

    def _show_error(self, message: str) -> None:
        """The message next to the form; the results shown (if any) dimmed under it."""
        self.error.setText(one_line(message))
        self.error.show()
        self._fit_form()
        if self.plan is not None:
            self.view.set_outdated(self.tr("Outdated: not planned again, the form cannot be used as it is."))
        if self._job is None:
            self._idle("")

    def _clear_error(self) -> None:
        self.error.clear()
        self.error.hide()
        self._fit_form()
