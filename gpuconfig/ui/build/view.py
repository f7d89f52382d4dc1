"""What the Build tab shows of one build: its lines, its total, its power budget and the checker's problems
(with whether the workload it was planned for fits its cards)."""

from __future__ import annotations

from collections.abc import Sequence

from PySide6.QtWidgets import QHBoxLayout, QLabel, QVBoxLayout, QWidget

from gpuconfig.core.build.check import Problem
from gpuconfig.core.build.model import Totals
from gpuconfig.core.build.power import PowerBudget
from gpuconfig.core.build.sheet import Sheet
from gpuconfig.core.money import ExchangeRate, format_money
from gpuconfig.ui.build.build_list import BuildList
from gpuconfig.ui.theme import Colors, mark, tint
from gpuconfig.ui.widgets.power_bar import PowerBar
from gpuconfig.ui.widgets.problem_list import ProblemList


def _bold(label: QLabel, scale: float = 1.0) -> QLabel:
    font = label.font()
    font.setPointSizeF(font.pointSizeF() * scale)
    font.setBold(True)
    label.setFont(font)
    return label


class BuildView(QWidget):
    def __init__(self, colors: Colors, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.colors = colors
        self.totals: Totals | None = None
        self.list = BuildList(colors)
        self.list.setObjectName("build_list")
        self.total = _bold(QLabel(), 1.25)
        self.total.setObjectName("build_total")
        self.unpriced = QLabel()
        self.unpriced.setObjectName("build_unpriced")
        self.unpriced.setWordWrap(True)
        self.power = PowerBar(colors)
        self.power.setObjectName("power_bar")
        self.power_text = QLabel()
        self.power_text.setObjectName("power_text")
        self.power_text.setWordWrap(True)
        mark(self.power_text, "muted")
        self.checks_heading = _bold(QLabel())
        self.problems = ProblemList(colors)
        self.problems.setObjectName("problems")

        total_row = QHBoxLayout()
        total_row.addWidget(self.total)
        total_row.addWidget(self.unpriced, 1)
        layout = QVBoxLayout(self)
        layout.setContentsMargins(0, 0, 0, 0)
        layout.addWidget(self.list, 3)
        layout.addLayout(total_row)
        layout.addSpacing(4)
        layout.addWidget(_bold(QLabel(self.tr("Power"))))
        layout.addWidget(self.power)
        layout.addWidget(self.power_text)
        layout.addSpacing(4)
        layout.addWidget(self.checks_heading)
        layout.addWidget(self.problems, 2)

    def show_build(
        self,
        sheet: Sheet,
        totals: Totals,
        budget: PowerBudget | None,
        problems: Sequence[Problem],
        rate: ExchangeRate | None,
    ) -> None:
        self.list.set_sheet(sheet)
        self._show_totals(sheet, totals, rate)
        self._show_power(budget)
        self.show_checks(problems, bool(sheet.lines))

    def show_checks(self, problems: Sequence[Problem], has_parts: bool = True) -> None:
        """The checks alone: the workload's memory row arrives when its trace has (ui/build/tab.py)."""
        nothing = self.tr("Nothing to check yet: add parts, or load a build the Recommend panel proposes.")
        self.problems.set_problems(problems, "" if has_parts else nothing)
        counts = self.problems.counts()
        self.checks_heading.setText(
            self.tr("Checks — problems: {fail}, warnings: {warn}, notes: {info}").format(**counts)
            if problems
            else self.tr("Checks")
        )

    def apply_colors(self, colors: Colors) -> None:
        self.colors = colors
        self.list.apply_colors(colors)
        self.power.apply_colors(colors)
        self.problems.apply_colors(colors)
        if self.totals is not None:
            tint(self.unpriced, colors.warning if self.totals.unpriced else colors.muted)

    def _show_totals(self, sheet: Sheet, t: Totals, rate: ExchangeRate | None) -> None:
        self.totals = t
        self.total.setText(self.tr("Total {amount}").format(amount=format_money(t.amount, t.currency)))
        notes = []
        if t.unpriced:
            names = ", ".join(line.part.name for line in sheet.lines if line.part.id in t.unpriced)
            notes.append(self.tr("+ {n} unpriced, not counted: {names}").format(n=len(t.unpriced), names=names))
        if t.converted and rate is not None:
            notes.append(self.tr("converted at 1 USD = {rate:g} CNY").format(rate=rate.rate))
        self.unpriced.setText(" · ".join(notes))
        tint(self.unpriced, self.colors.warning if t.unpriced else self.colors.muted)

    def _show_power(self, b: PowerBudget | None) -> None:
        self.power.set_budget(b)
        self.power.setVisible(b is not None)
        if b is None:
            self.power_text.setText(self.tr("Add parts to see the power budget."))
            return
        text = self.tr("Draws {w:,} W sustained").format(w=b.sustained_w)
        if b.psu_w:
            text += self.tr(", {share:.0%} of the {psu:,} W supply").format(share=b.sustained_w / b.psu_w, psu=b.psu_w)
        generation = self.tr("ATX 3.x") if b.atx3 is not False else self.tr("ATX 2.x")
        text += self.tr("; needs a {w:,} W {gen} supply").format(w=b.required_w, gen=generation)
        if b.wall_w is not None and b.efficiency is not None:
            text += self.tr("; about {w:,} W at the wall ({eff:.0%} efficient) of the circuit's {c:,} W").format(
                w=b.wall_w, eff=b.efficiency, c=b.circuit.watts
            )
        self.power_text.setText(text + ".")
