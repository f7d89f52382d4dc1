"""What the recommendation is for: the workload (the Workload tab's, or set here with every field the Workload
tab has), the limits, the job (dataset, epochs, electricity) and which changes the plan may make."""

from __future__ import annotations

from PySide6.QtCore import Qt, Signal
from PySide6.QtWidgets import (
    QButtonGroup,
    QCheckBox,
    QComboBox,
    QFormLayout,
    QGridLayout,
    QHBoxLayout,
    QLabel,
    QLineEdit,
    QRadioButton,
    QSizePolicy,
    QSpinBox,
    QToolButton,
    QWidget,
)

from gpuconfig.core.build.rules import Circuit, Market, Rules
from gpuconfig.core.catalog.schema import CURRENCIES
from gpuconfig.core.egpu.check import PORT_LABELS, port_label
from gpuconfig.core.planner.recommend import Constraints, PlanError
from gpuconfig.core.workload.fit import Headroom
from gpuconfig.core.workload.spec import Workload, WorkloadError, summary
from gpuconfig.ui.theme import mark
from gpuconfig.ui.workload.form import WorkloadForm

# The Workload tab's rows a plan decides itself: the planner picks the GPUs, their count and the strategy.
PLANNED_ROWS = ("device", "gpus", "gpu")


def describe(workload: Workload) -> str:
    """'llama-3-8b · LoRA · pure BF16 · batch 4 · length 2,048 · checkpointing' (the core's names for the
    choices, in the language in use)."""
    return summary(workload)


def for_planning(workload: Workload) -> Workload:
    """The workload on one CUDA GPU: the plan chooses the cards, their count and the strategy."""
    return workload.with_changes(gpus=1, strategy="ddp", device="cuda")


def _combo(name: str, length: int = 8) -> QComboBox:
    """A combo box that may be narrower than its longest entry (the list opens as wide as it needs)."""
    box = QComboBox()
    box.setObjectName(name)
    box.setMinimumContentsLength(length)
    box.setSizeAdjustPolicy(QComboBox.SizeAdjustPolicy.AdjustToMinimumContentsLengthWithIcon)
    return box


def _number(name: str, placeholder: str, tip: str) -> QLineEdit:
    """A number typed as text, so that what cannot be used is refused with a message rather than swallowed."""
    edit = QLineEdit()
    edit.setObjectName(name)
    edit.setPlaceholderText(placeholder)
    edit.setToolTip(tip)
    edit.setMinimumWidth(70)
    return edit


class RecommendForm(QWidget):
    """`workload()` and `constraints()` read the form (WorkloadError / PlanError name a bad field)."""

    changed = Signal()

    def __init__(self, circuits: dict[str, Circuit], parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self._tab_workload: Workload | None = None
        self.use_tab = QRadioButton(self.tr("Workload tab:"))
        self.use_tab.setObjectName("use_tab_workload")
        self.use_own = QRadioButton(self.tr("Set here:"))
        self.use_own.setObjectName("use_own_workload")
        group = QButtonGroup(self)
        group.addButton(self.use_tab)
        group.addButton(self.use_own)
        self.tab_workload = QLabel()
        self.tab_workload.setObjectName("tab_workload")
        mark(self.tab_workload, "muted")
        self.tab_workload.setTextInteractionFlags(Qt.TextInteractionFlag.TextSelectableByMouse)
        self.tab_workload.setSizePolicy(QSizePolicy.Policy.Ignored, QSizePolicy.Policy.Preferred)

        # Every field of the Workload tab's form, shown on request; the rows the plan decides are hidden.
        self.fields = WorkloadForm([])
        self.fields.setObjectName("plan_workload")
        layout = self.fields.layout()
        assert isinstance(layout, QFormLayout)
        for key in PLANNED_ROWS:
            layout.setRowVisible(self.fields.labels[key], False)
        self.fields.hide()
        self.details_button = QToolButton()
        self.details_button.setObjectName("plan_workload_toggle")
        self.details_button.setCheckable(True)
        self.details_button.setAutoRaise(True)
        self.details_button.setArrowType(Qt.ArrowType.RightArrow)
        self.details_button.setToolButtonStyle(Qt.ToolButtonStyle.ToolButtonTextBesideIcon)
        self.details_button.setSizePolicy(QSizePolicy.Policy.Ignored, QSizePolicy.Policy.Preferred)
        self.details_button.setToolTip(
            self.tr("Every field of the workload: optimizer, accumulation, checkpointing, attention, LoRA, …")
        )

        self.budget = _number(
            "plan_budget", self.tr("no limit"), self.tr("The most the machine may cost; empty: no limit")
        )
        self.currency = QComboBox()
        self.currency.setObjectName("plan_currency")
        for code in CURRENCIES:
            self.currency.addItem(code, code)
        self.rent = QCheckBox(self.tr("Compare renting"))
        self.rent.setObjectName("plan_rent")
        self.rent.setChecked(True)
        self.form = _combo("plan_form")
        self.form.addItem(self.tr("Tower"), "tower")
        self.form.addItem(self.tr("Rack"), "rack")
        self.form.addItem(self.tr("Laptop with eGPU"), "egpu")
        self.port = _combo("plan_port")
        for port in PORT_LABELS:
            if port != "USB-C":  # a port without PCIe has no eGPU to plan
                self.port.addItem(port_label(port), port)
        self.port.setCurrentIndex(self.port.findData("TB4"))
        self.port.setToolTip(self.tr("The laptop's port, for a laptop with an eGPU"))
        self.max_gpus = QSpinBox()
        self.max_gpus.setObjectName("plan_max_gpus")
        self.max_gpus.setRange(1, 8)
        self.max_gpus.setValue(4)
        self.max_gpus.setSuffix(self.tr(" GPUs"))
        self.max_gpus.setToolTip(self.tr("The most GPUs one machine may hold"))
        self.circuit = _combo("plan_circuit", 12)
        for circuit in circuits.values():
            self.circuit.addItem(circuit.title, circuit.id)
            self.circuit.setItemData(self.circuit.count() - 1, circuit.source, Qt.ItemDataRole.ToolTipRole)
        self.samples = _number(
            "plan_samples",
            self.tr("samples, not given"),
            self.tr("Samples in the dataset: each build's and rental's job time and cost, and when buying pays off"),
        )
        self.epochs = _number("plan_epochs", "1", self.tr("Passes over the dataset: the job is samples × epochs"))
        self.electricity = _number(
            "plan_electricity",
            self.tr("not counted"),
            self.tr("The price of a kWh, in the currency chosen: a bought build's running cost per job"),
        )
        self.electricity_unit = QLabel()
        self.headroom = QLabel()
        self.headroom.setObjectName("plan_headroom")
        mark(self.headroom, "muted")
        self.as_asked = QCheckBox(self.tr("Only as asked (no changes)"))
        self.as_asked.setObjectName("plan_as_asked")
        self.as_asked.setToolTip(
            self.tr(
                "Only machines that hold the workload as asked (or in smaller micro-batches with gradient"
                " accumulation); no checkpointing, 8-bit optimizer or sharding the plan would add"
            )
        )
        self.change_result = QCheckBox(self.tr("Allow changes to what is trained (LoRA, QLoRA, quantized weights)"))
        self.change_result.setObjectName("plan_change_result")
        self.change_result.setToolTip(
            self.tr("Also try changes that train fewer weights or compute with quantized ones: the result differs")
        )

        grid = QGridLayout(self)
        grid.setContentsMargins(0, 0, 0, 0)
        grid.setHorizontalSpacing(8)
        grid.setVerticalSpacing(5)
        right = Qt.AlignmentFlag.AlignRight | Qt.AlignmentFlag.AlignVCenter
        grid.addWidget(self.use_tab, 0, 0)
        grid.addWidget(self.tab_workload, 0, 1, 1, 3)
        grid.addWidget(self.use_own, 1, 0)
        grid.addWidget(self.details_button, 1, 1, 1, 3)
        grid.addWidget(self.fields, 2, 0, 1, 4)
        budget = QWidget()
        budget_row = QHBoxLayout(budget)
        budget_row.setContentsMargins(0, 0, 0, 0)
        budget_row.addWidget(self.budget, 1)
        budget_row.addWidget(self.currency)
        electricity = QWidget()
        electricity_row = QHBoxLayout(electricity)
        electricity_row.setContentsMargins(0, 0, 0, 0)
        electricity_row.addWidget(self.electricity, 1)
        electricity_row.addWidget(self.electricity_unit)
        pairs: list[tuple[str, QWidget, str, QWidget]] = [
            (self.tr("Budget"), budget, self.tr("Machine"), self.form),
            (self.tr("Up to"), self.max_gpus, "", self.rent),
            (self.tr("Circuit"), self.circuit, self.tr("Port"), self.port),
            (self.tr("Dataset"), self.samples, self.tr("Epochs"), self.epochs),
            (self.tr("Electricity"), electricity, "", self.headroom),
        ]
        for row, (first, first_field, second, second_field) in enumerate(pairs, start=3):
            grid.addWidget(QLabel(first), row, 0, right)
            grid.addWidget(first_field, row, 1)
            if second:
                grid.addWidget(QLabel(second), row, 2, right)
            grid.addWidget(second_field, row, 3)
        grid.addWidget(self.as_asked, 8, 1, 1, 3)
        grid.addWidget(self.change_result, 9, 1, 1, 3)
        grid.setColumnStretch(1, 1)
        grid.setColumnStretch(3, 1)

        self.use_tab.setEnabled(False)
        self.use_own.setChecked(True)
        self.details_button.toggled.connect(self._on_details)
        self.use_tab.toggled.connect(self._on_source)
        self.form.currentIndexChanged.connect(self._update_enabled)
        self.as_asked.toggled.connect(self._update_enabled)
        self._rules: Rules | None = None
        self._currency = str(self.currency.currentData())
        self.currency.currentIndexChanged.connect(self._on_currency)
        self.fields.changed.connect(self._on_fields)
        for box in (self.currency, self.form, self.circuit, self.port):
            box.currentIndexChanged.connect(self.changed)
        self.max_gpus.valueChanged.connect(self.changed)
        for edit in (self.budget, self.samples, self.epochs, self.electricity):
            edit.textChanged.connect(self.changed)
        for check in (self.rent, self.as_asked, self.change_result, self.use_tab):
            check.toggled.connect(self.changed)
        self.set_workload(Workload("llama-3-8b", task="lora", precision="bf16", batch=4, seq=2048))
        self.set_headroom(None)
        self._update_unit()
        self._update_enabled()

    def _update_enabled(self) -> None:
        self.fields.setEnabled(self.use_own.isChecked())
        laptop = self.form.currentData() == "egpu"
        self.port.setEnabled(laptop)
        self.max_gpus.setEnabled(not laptop)  # an enclosure holds one card
        self.circuit.setEnabled(not laptop)
        self.change_result.setEnabled(not self.as_asked.isChecked())

    def _update_unit(self) -> None:
        self.electricity_unit.setText(self.tr("{currency} per kWh").format(currency=self.currency.currentData()))

    def use_market(self, market: Market, rules: Rules) -> None:
        """Start in `market`: its currency, its circuit, its example electricity price (shown, not filled in)."""
        self._rules = rules
        self.currency.setCurrentIndex(max(0, self.currency.findData(market.currency)))
        self.circuit.setCurrentIndex(max(0, self.circuit.findData(market.circuit)))
        self._show_example_price()

    def _on_currency(self) -> None:
        """Prices in another currency: the circuit follows the new market where it was the old one's default."""
        new = str(self.currency.currentData())
        if self._rules is not None and new != self._currency:
            circuit = self._rules.circuit_after(str(self.circuit.currentData()), self._currency, new)
            self.circuit.setCurrentIndex(max(0, self.circuit.findData(circuit)))
        self._currency = new
        self._update_unit()
        self._show_example_price()

    def _show_example_price(self) -> None:
        market = self._rules.market_of(str(self.currency.currentData())) if self._rules is not None else None
        tip = self.tr("The price of a kWh, in the currency chosen: a bought build's running cost per job")
        if market is not None and market.electricity_per_kwh is not None:
            self.electricity.setPlaceholderText(
                self.tr("not counted (e.g. {price:g})").format(price=market.electricity_per_kwh)
            )
            tip += "\n" + self.tr("Example: {source}").format(source=market.electricity_source)
        else:
            self.electricity.setPlaceholderText(self.tr("not counted"))
        self.electricity.setToolTip(tip)

    # -- the workload -----------------------------------------------------------------------------

    def set_tab_workload(self, workload: Workload | None) -> None:
        """What the Workload tab answers now (None: nothing yet); chosen by default once there is one. While it
        is chosen, the fields show it (as the plan will run it), ready to be changed with "Set here"."""
        first = self._tab_workload is None and workload is not None
        self._tab_workload = workload
        self.use_tab.setEnabled(workload is not None)
        self.tab_workload.setText(describe(workload) if workload else self.tr("nothing answered there yet"))
        self.tab_workload.setToolTip(self.tab_workload.text())
        if first:
            self.use_tab.setChecked(True)
        elif workload is None:
            self.use_own.setChecked(True)
        self._show_tab_workload()

    def _show_tab_workload(self) -> None:
        if not self.use_tab.isChecked() or self._tab_workload is None:
            return
        try:
            self.fields.set_workload(for_planning(self._tab_workload))
        except WorkloadError:
            self.fields.set_workload(self._tab_workload)  # workload() names what cannot run on a GPU

    def set_workload(self, workload: Workload) -> None:
        """Fill the fields (the workload used with "Set here")."""
        self.fields.set_workload(workload)

    def workload(self) -> Workload:
        """The workload to plan for, on one CUDA GPU (the plan chooses the cards and how many)."""
        if self.use_tab.isChecked() and self._tab_workload is not None:
            return for_planning(self._tab_workload)
        if not self.fields.model_ref():
            raise WorkloadError("model: choose a built-in model or give a config.json")
        return for_planning(self.fields.workload())

    def show_details(self, shown: bool) -> None:
        self.details_button.setChecked(shown)

    def _on_details(self, shown: bool) -> None:
        self.fields.setVisible(shown)
        self.details_button.setArrowType(Qt.ArrowType.DownArrow if shown else Qt.ArrowType.RightArrow)

    def _on_source(self) -> None:
        self._show_tab_workload()
        self._update_enabled()
        if self.use_own.isChecked() and self._tab_workload is not None:
            self.show_details(True)  # the fields are what is planned now: show them

    def _on_fields(self) -> None:
        try:
            text = describe(self.fields.workload())
        except WorkloadError as exc:
            text = str(exc)
        self.details_button.setText(text)
        self.changed.emit()

    # -- the limits and the job -------------------------------------------------------------------

    def set_headroom(self, headroom: Headroom | None) -> None:
        """Say which headroom every fit verdict of the plan keeps (None: not known yet)."""
        if headroom is None:
            self.headroom.clear()
            return
        self.headroom.setText(self.tr("Fit headroom: {percent}").format(percent=headroom.percent))
        self.headroom.setToolTip(
            self.tr("Each build holds its peak within the card's memory less {percent}: {why}").format(
                percent=headroom.percent, why=headroom.why
            )
        )

    def allow_result_changes(self) -> bool:
        return self.change_result.isChecked() and not self.as_asked.isChecked()

    def only_as_asked(self) -> bool:
        return self.as_asked.isChecked()

    def _figure(self, name: str, edit: QLineEdit) -> float | None:
        """What a number field holds (None when empty); PlanError naming the field when it is not a number."""
        text = "".join(edit.text().split()).replace(",", "")
        if not text:
            return None
        try:
            return float(text)
        except ValueError:
            raise PlanError(
                self.tr("{field}: expected a number, got {text}").format(field=name, text=repr(edit.text()))
            ) from None

    def constraints(self) -> Constraints:
        """The limits and the job; PlanError naming the field that cannot be used (a budget of nothing, below
        zero or not finite is refused, never read as "no limit")."""
        epochs = self._figure("epochs", self.epochs)
        return Constraints(
            budget=self._figure("budget", self.budget),
            currency=str(self.currency.currentData()),
            rent=self.rent.isChecked(),
            form=str(self.form.currentData()),
            max_gpus=self.max_gpus.value(),
            circuit=str(self.circuit.currentData()),
            port=str(self.port.currentData()) if self.form.currentData() == "egpu" else None,
            samples=self._figure("samples", self.samples),
            epochs=1.0 if epochs is None else epochs,
            electricity_per_kwh=self._figure("electricity", self.electricity),
            as_asked=self.as_asked.isChecked(),
        )
