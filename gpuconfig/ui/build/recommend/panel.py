"""The Recommend panel: complete machines (and rentals) for a workload and a budget.

The model's trace is the slow part: it runs on a worker thread (cancellable, its progress shown) and is
kept, so changing the budget, the currency or the limits afterwards plans again at once on the GUI
thread (the planner itself takes milliseconds).
"""

from __future__ import annotations

from collections.abc import Callable

from PySide6.QtCore import QTimer, Signal
from PySide6.QtGui import QShowEvent
from PySide6.QtWidgets import QHBoxLayout, QLabel, QProgressBar, QPushButton, QSizePolicy, QVBoxLayout, QWidget

from gpuconfig.core.build.rules import Rules
from gpuconfig.core.planner.recommend import Constraints, Plan, PlanError, plan_parts, recommend
from gpuconfig.core.userdata.store import Store
from gpuconfig.core.workload.service import Fit, Resolved
from gpuconfig.core.workload.spec import Workload, WorkloadError
from gpuconfig.ui.background import one_line
from gpuconfig.ui.build.recommend.form import RecommendForm
from gpuconfig.ui.build.recommend.plan_view import PlanView
from gpuconfig.ui.theme import Colors, mark
from gpuconfig.ui.workload.tracing import Tracing

REPLAN_MS = 250
WorkloadSource = Callable[[], Workload | None]


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
        self.tracing = Tracing(parent=self)

        heading = QLabel(self.tr("Recommend a machine"))
        font = heading.font()
        font.setBold(True)
        heading.setFont(font)
        self.form = RecommendForm(rules.circuits)
        self.run_button = QPushButton(self.tr("Recommend"))
        self.run_button.setObjectName("plan_run")
        self.run_button.setDefault(True)
        self.cancel_button = QPushButton(self.tr("Cancel"))
        self.cancel_button.setObjectName("plan_cancel")
        self.progress = QProgressBar()
        self.progress.setObjectName("plan_progress")
        self.progress.setFixedWidth(140)
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
        layout = QVBoxLayout(self)
        layout.setContentsMargins(0, 0, 0, 0)
        layout.addWidget(heading)
        layout.addWidget(self.form)
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
        self.view.candidate_chosen.connect(lambda c: self.build_chosen.emit(c.build))
        self.tracing.progressed.connect(self._on_trace_progress)
        self.tracing.succeeded.connect(self._on_traced)
        self.tracing.failed.connect(self._on_trace_failed)
        self._idle("")

    # -- public -----------------------------------------------------------------------------------

    @property
    def traces_started(self) -> int:
        """Trace jobs started (the tests count them)."""
        return self.tracing.started

    def refresh_workload(self) -> None:
        """Read the Workload tab's workload again."""
        self.form.set_tab_workload(self.workload_source())

    def run(self) -> None:
        """Plan for the form as it is: at once when its model is traced, else after tracing it."""
        self._replan.stop()
        self.refresh_workload()
        try:
            workload = self.form.workload()
            constraints = self.form.constraints()
            resolved = self.tracing.service.resolve(workload)
        except (WorkloadError, PlanError) as exc:
            self._show_error(str(exc))
            return
        fit = self.tracing.service.fit(resolved.key)
        if fit is not None:
            self.tracing.cancel()
            self._plan(workload, constraints, fit)
            return
        if not self.tracing.start(resolved):
            return  # already tracing this model: the form as it is then is planned when the trace is done
        self._clear_error()
        self._busy(self.tr("Tracing {model}…").format(model=resolved.source.name), 0, 0)

    def cancel(self) -> None:
        if self.tracing.cancel() is not None:
            self._idle(self.tr("Cancelled."))

    def running(self) -> bool:
        return self.tracing.running()

    def shutdown(self, wait_ms: int = 10_000) -> None:
        self._replan.stop()
        self.tracing.shutdown(wait_ms)

    def apply_colors(self, colors: Colors) -> None:
        self.colors = colors
        self.view.apply_colors(colors)

    def showEvent(self, event: QShowEvent) -> None:
        super().showEvent(event)
        self.refresh_workload()

    # -- planning ---------------------------------------------------------------------------------

    def _plan(self, workload: Workload, constraints: Constraints, fit: Fit) -> None:
        parts = plan_parts(self.store)
        by_id = {p.id: p for p in parts}
        source, rate = fit.source, self.store.exchange_rate()
        try:
            plan = recommend(source, fit.fitted, workload, constraints, parts, self.rules, rate, by_id.get)
        except (WorkloadError, PlanError) as exc:
            self._show_error(str(exc))
            return
        self.plan = plan
        self._clear_error()
        self.view.show_plan(plan)
        self._idle(self.tr("Planned for {model}.").format(model=source.name))

    def _on_replan(self) -> None:
        """A limit changed: plan again when the workload's trace is at hand (no trace starts by itself)."""
        if self.plan is None and self.tracing.current is None:
            return
        try:
            key = self.tracing.service.resolve(self.form.workload()).key
        except (WorkloadError, PlanError):
            return
        if self.tracing.service.fit(key) is not None:
            self.run()

    def _on_trace_progress(self, _resolved: Resolved, done: int, total: int, what: str) -> None:
        self._busy(self.tr("Tracing: {what}").format(what=what), done, total)

    def _on_traced(self, _resolved: Resolved, _fit: Fit) -> None:
        self.run()  # the limits may have changed while the model was traced: plan for the form as it is now

    def _on_trace_failed(self, _resolved: Resolved, message: str) -> None:
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
        self.error.setText(one_line(message))
        self.error.show()
        self._idle("")

    def _clear_error(self) -> None:
        self.error.clear()
        self.error.hide()
