"""A plan as the user reads it: the ranked builds, the cost/throughput chart, the rentals, and what it says when
nothing fits or when buying pays off against renting."""

from __future__ import annotations

from PySide6.QtCore import Qt, Signal
from PySide6.QtGui import QFont
from PySide6.QtWidgets import (
    QLabel,
    QSplitter,
    QTableWidget,
    QTableWidgetItem,
    QTabWidget,
    QVBoxLayout,
    QWidget,
)

from gpuconfig.core.money import format_money
from gpuconfig.core.planner.gpus import GpuOption
from gpuconfig.core.planner.recommend import Candidate, Plan
from gpuconfig.core.workload.spec import STRATEGIES
from gpuconfig.ui.build.recommend.plan_scatter import PlanScatter
from gpuconfig.ui.theme import Colors, mark, tint
from gpuconfig.ui.widgets.tables import shape_table

# The strategies' names as a narrow column shows them; the tooltips give the long ones.
SHORT_STRATEGIES = {"ddp": "DDP", "zero1": "ZeRO-1", "zero2": "ZeRO-2", "fsdp": "FSDP", "tp": "TP", "pp": "PP"}


def compact(value: float) -> str:
    """2.56M, 512k, 1,234, 12.5: short enough for a narrow column, three significant figures or more."""
    if value >= 1e6:
        return f"{value / 1e6:,.2f}M"
    if value >= 1e5:
        return f"{value / 1e3:,.0f}k"
    if value >= 100:
        return f"{value:,.0f}"
    return f"{value:.3g}"


def _table(name: str, headers: list[str]) -> QTableWidget:
    table = QTableWidget(0, len(headers))
    table.setObjectName(name)
    shape_table(table, headers, row_height=24)
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
                self.tr("Strategy"),
                self.tr("Cost"),
                self.tr("Speed"),
                self.tr("per 1,000"),
                self.tr("Wall"),
            ],
        )
        self.candidates.setToolTip(self.tr("Double-click a build to load it into the list"))
        self.rentals = _table(
            "plan_rentals",
            [self.tr("Instance"), self.tr("Nodes"), self.tr("Per hour"), self.tr("Speed"), self.tr("per 1M samples")],
        )
        self.scatter = PlanScatter(colors)
        self.scatter.setObjectName("plan_chart")
        self.results = QTabWidget()
        self.results.setObjectName("plan_results")
        self.results.setDocumentMode(True)
        self.results.addTab(self.candidates, self.tr("Builds"))
        self.results.addTab(self.rentals, self.tr("Rent"))
        split = QSplitter(Qt.Orientation.Vertical)
        split.addWidget(self.results)
        split.addWidget(self.scatter)
        split.setChildrenCollapsible(False)
        split.setSizes([260, 220])
        layout = QVBoxLayout(self)
        layout.setContentsMargins(0, 0, 0, 0)
        layout.addWidget(self.message)
        layout.addWidget(split, 1)
        layout.addWidget(self.break_even)
        self.candidates.cellDoubleClicked.connect(self._on_double_click)
        self.candidates.itemSelectionChanged.connect(self._on_selection)
        self.scatter.candidate_clicked.connect(self._on_point)
        self.show_plan(None)

    def apply_colors(self, colors: Colors) -> None:
        self.colors = colors
        self.scatter.apply_colors(colors)
        self.show_plan(self.plan)

    def show_plan(self, plan: Plan | None) -> None:
        self.plan = plan
        self.candidates.setRowCount(0)
        self.rentals.setRowCount(0)
        self.break_even.setVisible(False)
        if plan is None:
            self.message.setText(self.tr("Choose a workload and a budget, then Recommend."))
            tint(self.message, self.colors.muted)
            self.scatter.set_candidates([], "USD", "")
            self.scatter.hide()  # an empty chart says nothing
            return
        cur = plan.constraints.currency
        unit = self._unit([c.option for c in plan.candidates] + [r.option for r in plan.rentals])
        short = self._short(unit)
        speed_header = self.tr("Speed\n({unit})").format(unit=short)
        per_money = self.tr("{unit}\nper 1,000 {c}").format(unit=short, c=cur)
        self.candidates.setHorizontalHeaderItem(3, QTableWidgetItem(speed_header))
        self.candidates.setHorizontalHeaderItem(4, QTableWidgetItem(per_money))
        self.rentals.setHorizontalHeaderItem(3, QTableWidgetItem(speed_header))
        self.rentals.setHorizontalHeaderItem(4, QTableWidgetItem(self.tr("per 1M samples")))
        self.candidates.setRowCount(len(plan.candidates))
        for row, c in enumerate(plan.candidates):
            name = _cell(("★ " if c.pareto else "") + c.build.name, tip=f"{c.build.name}\n{self._front_tip(c)}")
            if c.pareto:
                font = QFont(self.candidates.font())
                font.setBold(True)
                name.setFont(font)
            o = c.option
            self.candidates.setItem(row, 0, name)
            batch = self.tr("{strategy}: micro-batch {b} per GPU, {n} accumulated per step").format(
                strategy=self.tr(STRATEGIES.get(o.strategy, o.strategy)), b=o.batch, n=o.grad_accum
            )
            self.candidates.setItem(row, 1, _cell(self._strategy(o), tip="\n".join(filter(None, [batch, o.time_note]))))
            self.candidates.setItem(row, 2, _cell(format_money(c.cost, cur), right=True))
            speed = self._speed(o)
            self.candidates.setItem(row, 3, _cell(speed, right=True, tip=o.time_note))
            per = "—" if c.per_money is None else compact(c.per_money)
            self.candidates.setItem(row, 4, _cell(per, right=True))
            self.candidates.setItem(row, 5, _cell(f"{c.wall_w:,} W", right=True))
        self.rentals.setRowCount(len(plan.rentals))
        for row, r in enumerate(plan.rentals):
            gpus = r.nodes * int(r.instance.specs.get("gpu_count") or 1)
            self.rentals.setItem(row, 0, _cell(r.instance.name, tip=self._strategy(r.option)))
            self.rentals.setItem(row, 1, _cell(self.tr("{n} ({g} GPUs)").format(n=r.nodes, g=gpus), right=True))
            self.rentals.setItem(row, 2, _cell(format_money(r.hourly, cur), right=True))
            self.rentals.setItem(row, 3, _cell(self._speed(r.option), right=True))
            per_sample = "—" if r.per_sample is None else format_money(r.per_sample * 1e6, cur)
            self.rentals.setItem(row, 4, _cell(per_sample, right=True))
        self.results.setTabText(1, self.tr("Rent ({n})").format(n=len(plan.rentals)))
        self.results.setTabText(0, self.tr("Builds ({n})").format(n=len(plan.candidates)))
        self.results.setTabEnabled(1, plan.constraints.rent)
        self._show_message(plan)
        if plan.break_even is not None:
            self.break_even.setText(plan.break_even.message)
            self.break_even.setVisible(True)
        self.scatter.set_candidates(plan.candidates, cur, unit)
        self.scatter.setVisible(bool(self.scatter.plotted()))
        if plan.candidates:
            self.candidates.selectRow(0)

    def _show_message(self, plan: Plan) -> None:
        if plan.shortfall is not None:
            self.message.setText(plan.shortfall.message)
            tint(self.message, self.colors.error)
            return
        text = self.tr(
            "Builds that hold the workload: {n} ({considered} GPU choices looked at). ★ marks those no other beats "
            "on both cost and speed; double-click one to load it."
        ).format(n=len(plan.candidates), considered=plan.considered)
        unrated = sum(c.option.throughput is None for c in plan.candidates)
        if unrated:
            unrated_text = self.tr("Without a speed estimate (no throughput figure in the catalog): {n}.")
            text += " " + unrated_text.format(n=unrated)
        self.message.setText(text)
        self.message.setToolTip("\n".join(plan.notes + plan.skipped))
        tint(self.message, self.colors.text)

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
