"""A plan as the user reads it: the ranked builds with the change each makes to the workload, the
cost/throughput chart, the rentals, the job on each (its hours and cost, and after how many jobs buying pays
off), the plan's notes, and what it says when nothing fits or when buying pays off against renting."""

from __future__ import annotations

from PySide6.QtCore import Qt, Signal
from PySide6.QtGui import QColor, QFont
from PySide6.QtWidgets import (
    QGraphicsOpacityEffect,
    QHeaderView,
    QLabel,
    QScrollArea,
    QSplitter,
    QTableWidget,
    QTableWidgetItem,
    QTabWidget,
    QVBoxLayout,
    QWidget,
)

from gpuconfig.core.money import format_money
from gpuconfig.core.planner.gpus import GpuOption
from gpuconfig.core.planner.recommend import Candidate, Change, Job, Plan
from gpuconfig.core.units import format_number
from gpuconfig.core.workload.spec import STRATEGIES
from gpuconfig.ui.build.recommend.plan_scatter import PlanScatter
from gpuconfig.ui.theme import Colors, mark, tint
from gpuconfig.ui.widgets.tables import shape_table

# The strategies' names as a narrow column shows them; the tooltips give the long ones.
SHORT_STRATEGIES = {
    "ddp": "DDP",
    "zero1": "ZeRO-1",
    "zero2": "ZeRO-2",
    "fsdp": "FSDP",
    "tp": "TP",
    "pp": "PP",
    "offload": "Offload",
}
# How much of the results shows through while they no longer answer the form.
OUTDATED_OPACITY = 0.4
# The results' tabs, in order.
BUILDS_TAB, RENT_TAB, JOB_TAB, NOTES_TAB = range(4)


def compact(value: float) -> str:
    """2.56M, 512k, 1,234, 12.5: short enough for a narrow column, three significant figures or more."""
    if value >= 1e6:
        return f"{value / 1e6:,.2f}M"
    if value >= 1e5:
        return f"{value / 1e3:,.0f}k"
    if value >= 100:
        return f"{value:,.0f}"
    return f"{value:.3g}"


def _table(name: str, headers: list[str], wrapped: tuple[int, ...] = ()) -> QTableWidget:
    """A result table whose first column takes the spare width; the `wrapped` columns share it and wrap their
    text onto a second line rather than cut it."""
    table = QTableWidget(0, len(headers))
    table.setObjectName(name)
    shape_table(table, headers, row_height=24)
    if wrapped:
        table.setWordWrap(True)
        for column in wrapped:
            table.horizontalHeader().setSectionResizeMode(column, QHeaderView.ResizeMode.Stretch)
    return table


def _cell(text: str, right: bool = False, tip: str = "") -> QTableWidgetItem:
    item = QTableWidgetItem(text)
    if right:
        item.setTextAlignment(Qt.AlignmentFlag.AlignRight | Qt.AlignmentFlag.AlignVCenter)
    item.setToolTip(tip)
    return item


class PlanView(QWidget):
    """Emits `candidate_chosen(candidate)` on a double-click (or Enter) on a build."""

    candidate_chosen = Signal(object)

    def __init__(self, colors: Colors, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.colors = colors
        self.plan: Plan | None = None
        self.outdated = QLabel()
        self.outdated.setObjectName("plan_outdated")
        self.outdated.setWordWrap(True)
        self.outdated.hide()
        self.message = QLabel()
        self.message.setObjectName("plan_message")
        self.message.setWordWrap(True)
        self.message.setTextInteractionFlags(Qt.TextInteractionFlag.TextSelectableByMouse)
        self.break_even = QLabel()
        self.break_even.setObjectName("plan_break_even")
        self.break_even.setWordWrap(True)
        mark(self.break_even, "muted")
        self.candidates = _table(
            "plan_candidates",
            [
                self.tr("Build"),
                self.tr("Change"),
                self.tr("Strategy"),
                self.tr("Cost"),
                self.tr("Speed"),
                self.tr("per 1,000"),
                self.tr("Wall"),
            ],
            wrapped=(0, 1),
        )
        self.candidates.setToolTip(self.tr("Double-click a build to load it into the list"))
        self.rentals = _table(
            "plan_rentals",
            [
                self.tr("Instance"),
                self.tr("Change"),
                self.tr("Nodes"),
                self.tr("Per hour"),
                self.tr("Speed"),
                self.tr("per 1M samples"),
            ],
            wrapped=(0, 1),
        )
        self.job_text = QLabel()
        self.job_text.setObjectName("plan_job_text")
        self.job_text.setWordWrap(True)
        self.jobs = _table(
            "plan_jobs",
            [
                self.tr("Buy or rent"),
                self.tr("Job time"),
                self.tr("Per job"),
                self.tr("First job"),
                self.tr("Pays off after"),
            ],
            wrapped=(0,),
        )
        for column, tip in (
            (
                2,
                self.tr(
                    "A bought build: the job's electricity at the build's full power (every card at its board power "
                    "and the CPU at its package power, through the supply), an upper bound; a rental: the rent"
                ),
            ),
            (3, self.tr("A bought build: its price plus the first job's electricity")),
            (4, self.tr("The jobs after which buying costs less than renting the cheapest instance per sample")),
        ):
            header = self.jobs.horizontalHeaderItem(column)
            if header is not None:
                header.setToolTip(tip)
        job_page = QWidget()
        job_layout = QVBoxLayout(job_page)
        job_layout.setContentsMargins(0, 4, 0, 0)
        job_layout.addWidget(self.job_text)
        job_layout.addWidget(self.jobs, 1)
        self.notes = QLabel()
        self.notes.setObjectName("plan_notes")
        self.notes.setWordWrap(True)
        self.notes.setTextInteractionFlags(Qt.TextInteractionFlag.TextSelectableByMouse)
        self.notes.setAlignment(Qt.AlignmentFlag.AlignTop | Qt.AlignmentFlag.AlignLeft)
        self.notes.setContentsMargins(4, 4, 4, 4)
        notes_page = QScrollArea()
        notes_page.setWidget(self.notes)
        notes_page.setWidgetResizable(True)
        self.scatter = PlanScatter(colors)
        self.scatter.setObjectName("plan_chart")
        self.results = QTabWidget()
        self.results.setObjectName("plan_results")
        self.results.setDocumentMode(True)
        self.results.addTab(self.candidates, self.tr("Builds"))
        self.results.addTab(self.rentals, self.tr("Rent"))
        self.results.addTab(job_page, self.tr("Job"))
        self.results.addTab(notes_page, self.tr("Notes"))
        split = QSplitter(Qt.Orientation.Vertical)
        split.addWidget(self.results)
        split.addWidget(self.scatter)
        split.setChildrenCollapsible(False)
        split.setSizes([280, 200])
        # What dims while the plan shown no longer answers the form; the outdated line above it stays legible.
        self.body = QWidget()
        body_layout = QVBoxLayout(self.body)
        body_layout.setContentsMargins(0, 0, 0, 0)
        body_layout.addWidget(self.message)
        body_layout.addWidget(split, 1)
        body_layout.addWidget(self.break_even)
        self._dim = QGraphicsOpacityEffect(self.body)
        self._dim.setOpacity(OUTDATED_OPACITY)
        self._dim.setEnabled(False)
        self.body.setGraphicsEffect(self._dim)
        layout = QVBoxLayout(self)
        layout.setContentsMargins(0, 0, 0, 0)
        layout.addWidget(self.outdated)
        layout.addWidget(self.body, 1)
        self.candidates.cellDoubleClicked.connect(self._on_double_click)
        self.candidates.itemSelectionChanged.connect(self._on_selection)
        self.scatter.candidate_clicked.connect(self._on_point)
        self.show_plan(None)

    def apply_colors(self, colors: Colors) -> None:
        self.colors = colors
        self.scatter.apply_colors(colors)
        tint(self.outdated, colors.warning)
        self.show_plan(self.plan, self.outdated_text())

    def set_outdated(self, text: str) -> None:
        """Dim the results and say why they no longer answer the form (the next plan shown lifts it)."""
        self.outdated.setText(text)
        tint(self.outdated, self.colors.warning)
        self.outdated.show()
        self.body.setEnabled(False)
        self._dim.setEnabled(True)

    def outdated_text(self) -> str:
        """Why the results are dimmed; empty when they answer the form."""
        return self.outdated.text() if self.is_outdated() else ""

    def is_outdated(self) -> bool:
        return not self.body.isEnabled()

    def show_plan(self, plan: Plan | None, outdated: str = "") -> None:
        self.plan = plan
        self.outdated.hide()
        self.outdated.clear()
        self.body.setEnabled(True)
        self._dim.setEnabled(False)
        self.candidates.setRowCount(0)
        self.rentals.setRowCount(0)
        self.jobs.setRowCount(0)
        self.notes.clear()
        self.break_even.setVisible(False)
        if plan is None:
            self.message.setText(self.tr("Choose a workload and a budget, then Recommend."))
            tint(self.message, self.colors.muted)
            self.scatter.set_candidates([], "USD", "")
            self.scatter.hide()  # an empty chart says nothing
            self._show_job(None)
            return
        cur = plan.constraints.currency
        unit = self._unit([c.option for c in plan.candidates] + [r.option for r in plan.rentals])
        short = self._short(unit)
        speed_header = self.tr("Speed\n({unit})").format(unit=short)
        per_money = self.tr("{unit}\nper 1,000 {c}").format(unit=short, c=cur)
        self.candidates.setHorizontalHeaderItem(4, QTableWidgetItem(speed_header))
        self.candidates.setHorizontalHeaderItem(5, QTableWidgetItem(per_money))
        self.rentals.setHorizontalHeaderItem(4, QTableWidgetItem(speed_header))
        self.rentals.setHorizontalHeaderItem(5, QTableWidgetItem(self.tr("per 1M\nsamples")))
        self.candidates.setRowCount(len(plan.candidates))
        for row, c in enumerate(plan.candidates):
            name = _cell(("★ " if c.pareto else "") + c.build.name, tip=f"{c.build.name}\n{self._front_tip(c)}")
            if c.pareto:
                font = QFont(self.candidates.font())
                font.setBold(True)
                name.setFont(font)
            o = c.option
            self.candidates.setItem(row, 0, name)
            self.candidates.setItem(row, 1, self._change_cell(c.change))
            batch = self.tr("{strategy}: micro-batch {b} per GPU, {n} accumulated per step").format(
                strategy=self.tr(STRATEGIES.get(o.strategy, o.strategy)), b=o.batch, n=o.grad_accum
            )
            tip = "\n".join(filter(None, [batch, o.extrapolated, o.time_note]))
            self.candidates.setItem(row, 2, _cell(self._strategy(o), tip=tip))
            self.candidates.setItem(row, 3, _cell(format_money(c.cost, cur), right=True))
            speed = self._speed(o)
            self.candidates.setItem(row, 4, _cell(speed, right=True, tip=o.time_note))
            per = "—" if c.per_money is None else compact(c.per_money)
            self.candidates.setItem(row, 5, _cell(per, right=True))
            self.candidates.setItem(row, 6, _cell(f"{c.wall_w:,} W", right=True))
        self.rentals.setRowCount(len(plan.rentals))
        for row, r in enumerate(plan.rentals):
            gpus = r.nodes * int(r.instance.specs.get("gpu_count") or 1)
            self.rentals.setItem(row, 0, _cell(r.instance.name, tip=self._strategy(r.option)))
            self.rentals.setItem(row, 1, self._change_cell(r.change))
            self.rentals.setItem(row, 2, _cell(self.tr("{n} ({g} GPUs)").format(n=r.nodes, g=gpus), right=True))
            self.rentals.setItem(row, 3, _cell(format_money(r.hourly, cur), right=True))
            self.rentals.setItem(row, 4, _cell(self._speed(r.option), right=True))
            per_sample = "—" if r.per_sample is None else format_money(r.per_sample * 1e6, cur)
            self.rentals.setItem(row, 5, _cell(per_sample, right=True))
        self.candidates.resizeRowsToContents()
        self.rentals.resizeRowsToContents()
        self.results.setTabText(BUILDS_TAB, self.tr("Builds ({n})").format(n=len(plan.candidates)))
        self.results.setTabText(RENT_TAB, self.tr("Rent ({n})").format(n=len(plan.rentals)))
        self.results.setTabEnabled(RENT_TAB, plan.constraints.rent)
        self._show_job(plan)
        self._show_notes(plan)
        self._show_message(plan)
        if plan.break_even is not None:
            self.break_even.setText(plan.break_even.message)
            self.break_even.setVisible(True)
        self.scatter.set_candidates(plan.candidates, cur, unit)
        self.scatter.setVisible(bool(self.scatter.plotted()))
        if plan.candidates:
            self.candidates.selectRow(0)
        if outdated:
            self.set_outdated(outdated)

    def _show_message(self, plan: Plan) -> None:
        if plan.shortfall is not None:
            self.message.setText(plan.shortfall.message)
            tint(self.message, self.colors.error)
            return
        text = self.tr(
            "Builds that hold the workload: {n} ({considered} GPU choices looked at), each with {headroom} of its "
            "cards' memory kept free. ★ marks those no other beats on both cost and speed; double-click one to "
            "load it."
        ).format(
            n=len(plan.candidates),
            considered=plan.considered,
            headroom=plan.headroom.percent if plan.headroom is not None else "—",
        )
        unrated = sum(c.option.throughput is None for c in plan.candidates)
        if unrated:
            unrated_text = self.tr("Without a speed estimate (no throughput figure in the catalog): {n}.")
            text += " " + unrated_text.format(n=unrated)
        self.message.setText(text)
        self.message.setToolTip("\n".join(plan.notes + plan.skipped))
        tint(self.message, self.colors.text)

    def _show_notes(self, plan: Plan) -> None:
        """Every note of the plan (the headroom kept among them), the changes it could make, and the GPU choices
        no machine was found around."""
        lines = list(plan.notes)
        if plan.changes_tried:
            lines.append(
                self.tr("Changes tried where the workload does not fit as asked: {changes}.").format(
                    changes=", ".join(plan.changes_tried)
                )
            )
        lines += [self.tr("Left out: {what}").format(what=what) for what in plan.skipped]
        self.notes.setText("\n\n".join(lines))

    def _show_job(self, plan: Plan | None) -> None:
        """The job on every build and rental: its hours and cost, and after how many jobs buying pays off."""
        samples = plan.constraints.job_samples if plan is not None else None
        self.results.setTabEnabled(JOB_TAB, samples is not None)
        self.results.setTabToolTip(
            JOB_TAB, "" if samples is not None else self.tr("Give the dataset's samples to see the job on each")
        )
        if plan is None or samples is None:
            self.job_text.clear()
            return
        cur = plan.constraints.currency
        c = plan.constraints
        text = self.tr("The job: {samples} samples × {epochs} epochs = {total} samples.").format(
            samples=format_number(c.samples or 0), epochs=format_number(c.epochs), total=format_number(samples)
        )
        if c.electricity_per_kwh is None:
            text += " " + self.tr("Electricity is not counted: give its price to see it.")
        else:
            text += " " + self.tr(
                "Electricity at {price} per kWh, at each build's full power (an upper bound)."
            ).format(price=format_money(c.electricity_per_kwh, cur))
        self.job_text.setText(text)
        rented = next((r for r in plan.rentals if r.job is not None and r.job.cost is not None), None)
        self.jobs.setRowCount(len(plan.candidates) + len(plan.rentals))
        for row, candidate in enumerate(plan.candidates):
            job = candidate.job
            paid = candidate.jobs_to_break_even
            if paid is None:
                paid_text = "—"
                paid_tip = (
                    self.tr("No rental with a known speed to compare with")
                    if c.rent
                    else self.tr("Compare renting to see when buying pays off")
                )
            elif paid == float("inf"):
                paid_text = self.tr("never")
                paid_tip = self.tr("Renting costs less per job than this build's electricity")
            else:
                paid_text = self.tr("{n} jobs").format(n=format_number(round(paid, 1)))
                paid_tip = self.tr("Against renting {instance}").format(instance=rented.instance.name if rented else "")
            self.jobs.setItem(row, 0, _cell(self.tr("Buy {build}").format(build=candidate.build.name)))
            self._job_cells(row, job, cur, self.tr("not counted"))
            first = format_money(job.first_cost, cur) if job is not None and job.first_cost is not None else "—"
            self.jobs.setItem(row, 3, _cell(first, right=True))
            self.jobs.setItem(row, 4, _cell(paid_text, right=True, tip=paid_tip))
        for row, rental in enumerate(plan.rentals, start=len(plan.candidates)):
            what = self.tr("Rent {n} × {instance}").format(n=rental.nodes, instance=rental.instance.name)
            self.jobs.setItem(row, 0, _cell(what))
            self._job_cells(row, rental.job, cur, "—")
            self.jobs.setItem(row, 3, _cell("—", right=True))
            self.jobs.setItem(row, 4, _cell("", right=True))
        self.jobs.resizeRowsToContents()

    def _job_cells(self, row: int, job: Job | None, cur: str, no_cost: str) -> None:
        hours = self._hours(job.hours) if job is not None else self.tr("unknown")
        tip = "" if job is not None else self.tr("The catalog has no speed figure for this GPU")
        self.jobs.setItem(row, 1, _cell(hours, right=True, tip=tip))
        cost = format_money(job.cost, cur) if job is not None and job.cost is not None else no_cost
        self.jobs.setItem(row, 2, _cell(cost, right=True))

    def _hours(self, hours: float) -> str:
        """'3.3 h', or '4.9 days' past two days."""
        if hours < 48:
            return self.tr("{n} h").format(n=format_number(round(hours, 1)))
        return self.tr("{n} days").format(n=format_number(round(hours / 24, 1)))

    def _change_cell(self, change: Change) -> QTableWidgetItem:
        """The change the plan made to the workload on this machine, with its cost in time per sample."""
        if not change.label:
            return _cell(self.tr("as asked"), tip=self.tr("The workload runs as asked"))
        text = change.label
        if change.time_factor is not None:
            text = self.tr("{change} ({factor:.2f}x time per sample)").format(
                change=change.label, factor=change.time_factor
            )
        tip = (
            self.tr("Changes what is trained or computed: the result is not the workload's as asked")
            if change.changes_result
            else self.tr("Keeps what is trained: the same result, at this cost in time")
        )
        item = _cell(text, tip=tip)
        if change.changes_result:
            item.setForeground(QColor(self.colors.warning))
        return item

    def _unit(self, options: list[GpuOption]) -> str:
        if any(o.tokens_per_s is not None for o in options):
            return self.tr("tokens/s")
        return self.tr("samples/s")

    def _short(self, unit: str) -> str:
        return self.tr("tok/s") if unit == self.tr("tokens/s") else unit

    def _speed(self, o: GpuOption) -> str:
        """The plan's throughput in the unit its header names (tokens where the model reads tokens)."""
        return "—" if o.throughput is None else compact(o.throughput)

    def _strategy(self, o: GpuOption) -> str:
        """'DDP', or 'FSDP, acc. 2' where the batch was split into micro-batches accumulated twice."""
        text = self.tr(SHORT_STRATEGIES.get(o.strategy, o.strategy))
        if o.grad_accum > 1:
            text += self.tr(", acc. {n}").format(n=o.grad_accum)
        return text

    def _front_tip(self, c: Candidate) -> str:
        peak = c.option.peak_bytes / 1024**3
        return self.tr("{peak:.1f} GiB per GPU of {size:.0f} GiB").format(
            peak=peak, size=c.option.gpu.memory_bytes / 1024**3
        )

    def selected(self) -> int:
        rows = self.candidates.selectionModel().selectedRows()
        return rows[0].row() if rows else -1

    def _on_selection(self) -> None:
        self.scatter.select(self.selected())

    def _on_point(self, index: int) -> None:
        self.candidates.selectRow(index)

    def _on_double_click(self, row: int, _column: int) -> None:
        if self.plan is not None and 0 <= row < len(self.plan.candidates):
            self.candidate_chosen.emit(self.plan.candidates[row])
