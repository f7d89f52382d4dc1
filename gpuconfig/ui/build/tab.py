"""The Build tab: a machine's parts as a priced list, checked as it is edited, saved, exported, or recommended.

Every edit (a count, a swap, a part added or removed, the currency, the circuit) makes a new frozen
Build; the tab resolves it against the catalog and shows its lines, totals, power budget and the
checker's problems at once (pure Python, milliseconds). The Recommend panel beside it proposes complete
builds for a workload; choosing one loads it here. A build that carries the workload it was planned for
also shows whether that workload fits its cards: the model is traced on a worker thread (once, with the
Recommend panel's traces), and every later edit or headroom is judged from the fit at once.
"""

from __future__ import annotations

import json
from collections.abc import Callable
from dataclasses import replace
from typing import Any, TypeVar

from PySide6.QtCore import Qt, Signal
from PySide6.QtGui import QShowEvent
from PySide6.QtWidgets import QComboBox, QDialog, QHBoxLayout, QLabel, QPushButton, QSplitter, QVBoxLayout, QWidget

from gpuconfig.core.build.check import ArchCheck, Problem, check, worst_first
from gpuconfig.core.build.model import (
    ROLES,
    Build,
    BuildError,
    Resolved,
    Totals,
    build_from_json,
    resolve,
    totals,
)
from gpuconfig.core.build.power import PowerBudget, power_budget
from gpuconfig.core.build.rules import Market, build_rules
from gpuconfig.core.build.sheet import build_sheet
from gpuconfig.core.build.workload_fit import RULE as WORKLOAD_RULE
from gpuconfig.core.build.workload_fit import workload_problems, workload_to_trace
from gpuconfig.core.catalog.model import Part
from gpuconfig.core.catalog.schema import CURRENCIES
from gpuconfig.core.egpu.problems import egpu_problems
from gpuconfig.core.userdata.store import Store
from gpuconfig.core.workload.service import Fit
from gpuconfig.core.workload.spec import Workload, WorkloadError
from gpuconfig.ui.background import one_line
from gpuconfig.ui.build.files import BuildFiles
from gpuconfig.ui.build.part_picker import PartPicker
from gpuconfig.ui.build.recommend.panel import RecommendPanel
from gpuconfig.ui.build.view import BuildView
from gpuconfig.ui.market import current_market
from gpuconfig.ui.theme import Colors
from gpuconfig.ui.widgets.deferred_save import DeferredSave
from gpuconfig.ui.widgets.part_detail import PartDetailDialog
from gpuconfig.ui.workload.tracing import Tracing

SETTING_BUILD = "build.current"
D = TypeVar("D", bound=QDialog)
EMPTY = Build("Untitled build", ())


def _wheel_check() -> ArchCheck | None:
    """The checker's PyTorch-wheel rule, as `gpuconfig build check` applies it; None when the setup guide's
    tables cannot be read (the Guide tab says why)."""
    from gpuconfig.core.build.wheels import wheel_problem
    from gpuconfig.core.guide.tables import CompatTableError, load_tables

    try:
        load_tables()
    except CompatTableError:
        return None
    return wheel_problem


class BuildTab(QWidget):
    """`status_message(text)` for the status bar; `part_requested(kind, part_id)` asks to show a part's
    catalog row."""

    status_message = Signal(str)
    part_requested = Signal(str, str)

    def __init__(
        self,
        store: Store,
        colors: Colors,
        workload_source: Callable[[], Workload | None] = lambda: None,
        parent: QWidget | None = None,
    ) -> None:
        super().__init__(parent)
        self.store, self.colors = store, colors
        self.rules = build_rules()
        self.arch_check = _wheel_check()
        self.build = EMPTY
        self.saved: Build | None = None  # the build as last saved or opened, to tell unsaved changes
        self.resolved: Resolved = resolve(EMPTY, lambda _id: None)
        self.totals: Totals = totals(self.resolved, "USD", None)
        self.budget: PowerBudget | None = None
        self.problems: list[Problem] = []  # the checker's, with the workload's memory rows
        self._rule_problems: list[Problem] = []  # the checker's alone
        self.headroom = store.user.headroom()
        self.dialog: Any = None  # the picker or detail dialog open now (the tests drive it)
        self._parts: dict[str, Part] = {}
        self.reload_parts()

        self.files = BuildFiles(self)
        self.add_button = QPushButton(self.tr("Add part…"))
        self.add_button.setObjectName("add_part")
        self.currency = QComboBox()
        self.currency.setObjectName("build_currency")
        for code in CURRENCIES:
            self.currency.addItem(code, code)
        self.currency.setToolTip(self.tr("Prices in this currency, converted at the exchange rate where needed"))
        self.circuit = QComboBox()
        self.circuit.setObjectName("build_circuit")
        for c in self.rules.circuits.values():
            self.circuit.addItem(c.title, c.id)
            self.circuit.setItemData(self.circuit.count() - 1, c.source, Qt.ItemDataRole.ToolTipRole)
        edit_row = QHBoxLayout()
        edit_row.addWidget(self.add_button)
        edit_row.addStretch(1)
        edit_row.addWidget(QLabel(self.tr("Currency")))
        edit_row.addWidget(self.currency)
        edit_row.addSpacing(8)
        edit_row.addWidget(QLabel(self.tr("Wall circuit")))
        edit_row.addWidget(self.circuit)

        self.view = BuildView(colors)
        self.list = self.view.list  # the table the user edits; the tab answers its signals

        left = QWidget()
        left_layout = QVBoxLayout(left)
        left_layout.setContentsMargins(0, 0, 8, 0)
        left_layout.addWidget(self.files)
        left_layout.addLayout(edit_row)
        left_layout.addWidget(self.view, 1)

        self.recommend = RecommendPanel(store, self.rules, colors, workload_source)
        self.recommend.setObjectName("recommend")
        self.use_market(current_market(store))
        self.splitter = QSplitter()
        self.splitter.addWidget(left)
        self.splitter.addWidget(self.recommend)
        self.splitter.setStretchFactor(0, 5)
        self.splitter.setStretchFactor(1, 4)
        self.splitter.setChildrenCollapsible(False)
        self.splitter.setSizes([800, 640])
        layout = QVBoxLayout(self)
        layout.setContentsMargins(12, 8, 12, 8)
        layout.addWidget(self.splitter)

        self._saver = DeferredSave(self._remember, self)
        self.list.count_changed.connect(self.set_count)
        self.list.swap_requested.connect(self.open_swap)
        self.list.remove_requested.connect(self.remove_part)
        self.list.details_requested.connect(self.open_details)
        self.add_button.clicked.connect(self.open_add)
        self.currency.currentIndexChanged.connect(lambda: self.set_currency(str(self.currency.currentData())))
        self.circuit.currentIndexChanged.connect(lambda: self.set_circuit(str(self.circuit.currentData())))
        self.recommend.build_chosen.connect(self._on_recommended)
        self.recommend.status_message.connect(self.status_message)
        # The workload's trace: the Recommend panel's service, so a build it proposes is judged from its fit at once.
        self.tracing = Tracing(self.recommend.service, self)
        self.tracing.succeeded.connect(self._on_traced)
        self.tracing.failed.connect(self._on_traced)
        self._restore()

    # -- the build --------------------------------------------------------------------------------

    def reload_parts(self) -> None:
        """Read the parts again (prices may have changed in the Catalog tab)."""
        self._parts = {p.id: p for kind in ROLES for p in self.store.parts(kind)}

    def parts_of(self, kind: str) -> list[Part]:
        return [p for p in self._parts.values() if p.kind == kind]

    def set_build(self, build: Build, saved: bool = False) -> None:
        """Show `build`; BuildError (naming the part) when one of its ids is not in the catalog."""
        resolved = resolve(build, self._parts.get)
        self.build, self.resolved = build, resolved
        if saved:
            self.saved = build
        self._update()

    def set_count(self, part_id: str, count: int) -> None:
        self.set_build(self.build.with_line(part_id, count))

    def remove_part(self, part_id: str) -> None:
        self.set_build(self.build.with_line(part_id, 0))

    def add_part(self, part_id: str, count: int = 1) -> None:
        """Add a part, or one more of it when the build has it already."""
        have = next((line.count for line in self.build.lines if line.part_id == part_id), 0)
        self.set_build(self.build.with_line(part_id, have + count))

    def swap_part(self, old_id: str, new_id: str) -> None:
        self.set_build(self.build.swapped(old_id, new_id))

    def set_currency(self, currency: str) -> None:
        """Prices in `currency`; the circuit follows the new market unless the user picked one."""
        if currency != self.build.currency:
            circuit = self.rules.circuit_after(self.build.circuit, self.build.currency, currency)
            self.set_build(replace(self.build, currency=currency, circuit=circuit))

    def empty_build(self) -> Build:
        """A new build, in the market's currency and on its circuit."""
        return Build(self.tr("Untitled build"), (), currency=self.market.currency, circuit=self.market.circuit)

    def use_market(self, market: Market) -> None:
        """Start new builds (and the planner) in `market`; the build at hand keeps its currency and circuit."""
        self.market = market
        self.recommend.form.use_market(market, self.rules)

    def set_circuit(self, circuit: str) -> None:
        if circuit != self.build.circuit:
            self.set_build(replace(self.build, circuit=circuit))

    def rename(self, name: str) -> None:
        name = name.strip()
        if name and name != self.build.name:
            self.set_build(replace(self.build, name=name))

    def refresh(self) -> None:
        """Prices or the exchange rate changed: read them again and recompute."""
        self.reload_parts()
        try:
            self.set_build(self.build)
        except BuildError as exc:
            self.status_message.emit(str(exc))

    def _update(self) -> None:
        rate = self.store.exchange_rate()
        self.totals = totals(self.resolved, self.build.currency, rate)
        self.budget = power_budget(self.resolved, self.rules, self.build.circuit) if self.resolved.items else None
        self._rule_problems = (
            check(self.resolved, self.rules, arch_check=self.arch_check, egpu_check=egpu_problems)
            if self.resolved.items
            else []
        )
        self.problems = worst_first(self._rule_problems + self._workload_rows())
        sheet = build_sheet(self.resolved, self.build.currency, rate, self.store.schema)
        self.view.show_build(sheet, self.totals, self.budget, self.problems, rate)
        for box, value in ((self.currency, self.build.currency), (self.circuit, self.build.circuit)):
            box.blockSignals(True)
            box.setCurrentIndex(max(0, box.findData(value)))
            box.blockSignals(False)
        self.files.update_state()
        self._saver.request()

    # -- the workload's memory --------------------------------------------------------------------

    def _workload_rows(self) -> list[Problem]:
        """The "Workload memory" rows of the build shown: judged from the fit at hand; while its model is traced on
        the worker, a row saying it is being checked (the trace is started here, once per model)."""
        workload = workload_to_trace(self.resolved)
        if workload is None:  # none, one that does not read, a CPU run or no GPU: judged without a trace
            self.tracing.cancel()
            return workload_problems(self.resolved, None, self.headroom)
        try:
            traced = self.tracing.service.resolve(workload)
        except WorkloadError as exc:  # its model cannot be found (a config.json moved away, say)
            self.tracing.cancel()
            return [self._unchecked(str(exc))]
        fit = self.tracing.service.fit(traced.key, traced.shape)
        if fit is not None:
            self.tracing.cancel()  # a trace of the build shown before, if any
            return workload_problems(self.resolved, fit, self.headroom)
        failure = self.tracing.service.failure(traced.key)
        if failure is not None:
            failed = self.tr("the trace of {model} failed: {why}")
            return [self._unchecked(failed.format(model=workload.model, why=one_line(failure)))]
        self.tracing.start(traced)  # nothing new while this model is being traced
        checking = self.tr("The workload's memory against the cards: checking… ({model} is being traced)")
        return [Problem("info", WORKLOAD_RULE, checking.format(model=workload.model))]

    def _unchecked(self, why: str) -> Problem:
        text = self.tr("The build's workload is not checked against its cards: {why}")
        return Problem("warn", WORKLOAD_RULE, text.format(why=why))

    def _known_fit(self, resolved: Resolved) -> Fit | None:
        """The fit of the build's workload when it is at hand (never a trace)."""
        workload = workload_to_trace(resolved)
        if workload is None:
            return None
        try:
            traced = self.tracing.service.resolve(workload)
        except WorkloadError:
            return None
        return self.tracing.service.fit(traced.key, traced.shape)

    def _show_checks(self) -> None:
        self.problems = worst_first(self._rule_problems + self._workload_rows())
        self.view.show_checks(self.problems, bool(self.build.lines))

    def _on_traced(self, *_: object) -> None:
        """A trace ended (the service keeps its fit or its failure): judge the build shown with it."""
        self._show_checks()

    # -- dialogs ----------------------------------------------------------------------------------

    def _judge(self, change: Callable[[str], Build]) -> Callable[[str], list[Problem]]:
        fit = self._known_fit(self.resolved)  # the workload's rows for each part, when its fit is at hand

        def judge(part_id: str) -> list[Problem]:
            try:
                resolved = resolve(change(part_id), self._parts.get)
                problems = check(resolved, self.rules, arch_check=self.arch_check, egpu_check=egpu_problems)
            except BuildError:
                return []
            return (
                worst_first(problems + workload_problems(resolved, fit, self.headroom)) if fit is not None else problems
            )

        return judge

    def open_swap(self, part_id: str) -> PartPicker:
        part = self._parts[part_id]
        picker = PartPicker(
            self.tr("Swap {name}").format(name=part.name),
            [part.kind],
            self.parts_of,
            self._judge(lambda new: self.build.swapped(part_id, new)),
            self.problems,
            self.build.currency,
            self.store.exchange_rate(),
            self.store.schema,
            self.colors,
            current=part_id,
            parent=self,
        )
        picker.accepted.connect(lambda: self._on_picked(picker, lambda new: self.swap_part(part_id, new)))
        return self._open(picker)

    def open_add(self) -> PartPicker:
        have = {line.part_id: line.count for line in self.build.lines}
        kinds = {item.kind for item in self.resolved.items}
        missing = [k for k in ROLES if k not in kinds and k != "dock"]
        picker = PartPicker(
            self.tr("Add a part"),
            list(ROLES),
            self.parts_of,
            self._judge(lambda new: self.build.with_line(new, have.get(new, 0) + 1)),
            self.problems,
            self.build.currency,
            self.store.exchange_rate(),
            self.store.schema,
            self.colors,
            parent=self,
        )
        if missing:
            picker.kind.setCurrentIndex(picker.kind.findData(missing[0]))
        picker.accepted.connect(lambda: self._on_picked(picker, self.add_part))
        return self._open(picker)

    def _on_picked(self, picker: PartPicker, apply: Callable[[str], None]) -> None:
        chosen = picker.chosen()
        if chosen is not None:
            apply(chosen)
            self.status_message.emit(self.tr("{name} is in the build").format(name=self._parts[chosen].name))

    def open_details(self, part_id: str) -> PartDetailDialog:
        part = self._parts[part_id]
        dialog = PartDetailDialog(
            part, self.store.schema[part.kind], self.build.currency, self.store.exchange_rate(), self
        )
        dialog.show_in_catalog.connect(lambda pid: self.part_requested.emit(self._parts[pid].kind, pid))
        return self._open(dialog)

    def _open(self, dialog: D) -> D:
        self.dialog = dialog
        dialog.finished.connect(dialog.deleteLater)
        dialog.open()
        return dialog

    def _on_recommended(self, build: Build) -> None:
        self.set_build(build)
        self.saved = None
        self.status_message.emit(self.tr("Loaded the recommended {name}").format(name=build.name))

    # -- remembering -----------------------------------------------------------------------------

    def _restore(self) -> None:
        """The build worked on last time, else an empty one."""
        text = self.store.user.setting(SETTING_BUILD)
        try:
            build = build_from_json(json.loads(text), SETTING_BUILD) if text else self.empty_build()
            self.set_build(build)
        except (ValueError, BuildError):  # a damaged setting, or a part since dropped from the catalog
            self.set_build(self.empty_build())

    def _remember(self) -> None:
        text = json.dumps(self.build.to_json(), sort_keys=True) if self.build.lines else None
        if self.store.user.setting(SETTING_BUILD) != text:
            self.store.user.set_setting(SETTING_BUILD, text)

    # -- the tab ----------------------------------------------------------------------------------

    def running(self) -> bool:
        return self.recommend.running() or self.tracing.running()

    def shutdown(self, wait_ms: int = 10_000) -> None:
        self._saver.close()
        self.tracing.shutdown(wait_ms)
        self.recommend.shutdown(wait_ms)

    def apply_headroom(self) -> None:
        """The user set another fit headroom: the build's workload is judged again with it (from its fit, no
        trace), and the Recommend panel plans with it."""
        self.headroom = self.store.user.headroom()
        self._show_checks()
        self.recommend.apply_headroom()

    def apply_colors(self, colors: Colors) -> None:
        self.colors = colors
        self.view.apply_colors(colors)
        self.recommend.apply_colors(colors)

    def showEvent(self, event: QShowEvent) -> None:
        super().showEvent(event)
        self.refresh()
