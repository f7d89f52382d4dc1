"""What the recommendation is for: the workload (the Workload tab's, or a model typed here) and the limits."""

from __future__ import annotations

from PySide6.QtCore import Qt, Signal
from PySide6.QtWidgets import (
    QButtonGroup,
    QCheckBox,
    QComboBox,
    QDoubleSpinBox,
    QGridLayout,
    QHBoxLayout,
    QLabel,
    QRadioButton,
    QSpinBox,
    QWidget,
)

from gpuconfig.core.build.rules import Circuit
from gpuconfig.core.catalog.schema import CURRENCIES
from gpuconfig.core.egpu.check import PORT_LABELS
from gpuconfig.core.planner.recommend import Constraints
from gpuconfig.core.workload.models import zoo
from gpuconfig.core.workload.spec import MAX_SIZE, PRECISIONS, TASKS, Workload, WorkloadError
from gpuconfig.ui.theme import mark

MAX_BUDGET = 10_000_000


def describe(workload: Workload) -> str:
    """'llama-3-8b · LoRA · pure BF16 · batch 4 · 2,048 long' (the core's names for the choices)."""
    parts = [workload.model, TASKS[workload.task], PRECISIONS[workload.precision], f"batch {workload.batch}"]
    if workload.seq:
        parts.append(f"length {workload.seq:,}")
    return " · ".join(parts)


def _combo(name: str, length: int = 8) -> QComboBox:
    """A combo box that may be narrower than its longest entry (the list opens as wide as it needs)."""
    box = QComboBox()
    box.setObjectName(name)
    box.setMinimumContentsLength(length)
    box.setSizeAdjustPolicy(QComboBox.SizeAdjustPolicy.AdjustToMinimumContentsLengthWithIcon)
    return box


class RecommendForm(QWidget):
    """`workload()` and `constraints()` read the form (WorkloadError / PlanError name a bad field)."""

    changed = Signal()

    def __init__(self, circuits: dict[str, Circuit], parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self._tab_workload: Workload | None = None
        self.use_tab = QRadioButton(self.tr("Workload tab:"))
        self.use_tab.setObjectName("use_tab_workload")
        self.use_own = QRadioButton(self.tr("This model:"))
        self.use_own.setObjectName("use_own_workload")
        group = QButtonGroup(self)
        group.addButton(self.use_tab)
        group.addButton(self.use_own)
        self.tab_workload = QLabel()
        self.tab_workload.setObjectName("tab_workload")
        mark(self.tab_workload, "muted")
        self.tab_workload.setTextInteractionFlags(Qt.TextInteractionFlag.TextSelectableByMouse)

        self.model = QComboBox()
        self.model.setObjectName("plan_model")
        self.model.setEditable(True)
        self.model.setInsertPolicy(QComboBox.InsertPolicy.NoInsert)
        self.model.setMinimumContentsLength(10)
        self.model.setSizeAdjustPolicy(QComboBox.SizeAdjustPolicy.AdjustToMinimumContentsLengthWithIcon)
        for entry in zoo().values():
            self.model.addItem(f"{entry.name} ({entry.id})", entry.id)
        self.model.setToolTip(self.tr("A built-in model, or the path of a Hugging Face config.json"))
        self.task = self._choices("plan_task", TASKS)
        self.precision = self._choices("plan_precision", PRECISIONS)
        self.batch = self._spin("plan_batch", 1, MAX_SIZE, self.tr("Samples per GPU in one step"))
        self.seq = self._spin("plan_seq", 0, MAX_SIZE, self.tr("Tokens per sample, or the image side (0: the model's)"))
        self.seq.setSpecialValueText(self.tr("model default"))

        self.budget = QDoubleSpinBox()
        self.budget.setObjectName("plan_budget")
        self.budget.setRange(0, MAX_BUDGET)
        self.budget.setDecimals(0)
        self.budget.setSingleStep(500)
        self.budget.setGroupSeparatorShown(True)
        self.budget.setMinimumWidth(90)
        self.budget.setSpecialValueText(self.tr("no limit"))
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
        for port, label in PORT_LABELS.items():
            if port != "USB-C":  # a port without PCIe has no eGPU to plan
                self.port.addItem(label, port)
        self.port.setCurrentIndex(self.port.findData("TB4"))
        self.max_gpus = self._spin("plan_max_gpus", 1, 8, self.tr("The most GPUs one machine may hold"))
        self.max_gpus.setValue(4)
        self.circuit = _combo("plan_circuit", 16)
        for circuit in circuits.values():
            self.circuit.addItem(circuit.label, circuit.id)
            self.circuit.setItemData(self.circuit.count() - 1, circuit.source, Qt.ItemDataRole.ToolTipRole)

        grid = QGridLayout(self)
        grid.setContentsMargins(0, 0, 0, 0)
        grid.setHorizontalSpacing(8)
        grid.setVerticalSpacing(5)
        right = Qt.AlignmentFlag.AlignRight | Qt.AlignmentFlag.AlignVCenter
        budget = QWidget()
        budget_row = QHBoxLayout(budget)
        budget_row.setContentsMargins(0, 0, 0, 0)
        budget_row.addWidget(self.budget, 1)
        budget_row.addWidget(self.currency)
        grid.addWidget(self.use_tab, 0, 0)
        grid.addWidget(self.tab_workload, 0, 1, 1, 3)
        grid.addWidget(self.use_own, 1, 0)
        grid.addWidget(self.model, 1, 1, 1, 3)
        pairs: list[tuple[str, QWidget, str, QWidget]] = [
            (self.tr("Task"), self.task, self.tr("Precision"), self.precision),
            (self.tr("Batch"), self.batch, self.tr("Length"), self.seq),
            (self.tr("Budget"), budget, self.tr("Machine"), self.form),
            (self.tr("Up to"), self.max_gpus, "", self.rent),
        ]
        for row, (first, first_field, second, second_field) in enumerate(pairs, start=2):
            grid.addWidget(QLabel(first), row, 0, right)
            grid.addWidget(first_field, row, 1)
            if second:
                grid.addWidget(QLabel(second), row, 2, right)
            grid.addWidget(second_field, row, 3)
        grid.addWidget(QLabel(self.tr("Circuit")), 6, 0, right)
        grid.addWidget(self.circuit, 6, 1, 1, 3)
        grid.addWidget(QLabel(self.tr("Laptop port")), 7, 0, right)
        grid.addWidget(self.port, 7, 1, 1, 3)
        grid.setColumnStretch(1, 1)
        grid.setColumnStretch(3, 1)

        self.use_own.setChecked(True)
        self.use_tab.setEnabled(False)
        self.max_gpus.setSuffix(self.tr(" GPUs"))
        self.use_tab.toggled.connect(self._update_enabled)
        self.form.currentIndexChanged.connect(self._update_enabled)
        for box in (self.task, self.precision, self.currency, self.form, self.circuit, self.model, self.port):
            box.currentIndexChanged.connect(self.changed)
        for spin in (self.batch, self.seq, self.max_gpus):
            spin.valueChanged.connect(self.changed)
        self.budget.valueChanged.connect(self.changed)
        self.rent.toggled.connect(self.changed)
        self.use_tab.toggled.connect(self.changed)
        self.set_workload(Workload("llama-3-8b", task="lora", precision="bf16", batch=4, seq=2048))
        self._update_enabled()

    def _choices(self, name: str, names: dict[str, str]) -> QComboBox:
        box = _combo(name)
        for key, label in names.items():
            box.addItem(self.tr(label), key)
        return box

    def _spin(self, name: str, low: int, high: int, tip: str) -> QSpinBox:
        box = QSpinBox()
        box.setObjectName(name)
        box.setRange(low, high)
        box.setGroupSeparatorShown(True)
        box.setToolTip(tip)
        return box

    def _update_enabled(self) -> None:
        own = not self.use_tab.isChecked()
        for widget in (self.model, self.task, self.precision, self.batch, self.seq):
            widget.setEnabled(own)
        laptop = self.form.currentData() == "egpu"
        self.port.setEnabled(laptop)
        self.max_gpus.setEnabled(not laptop)  # an enclosure holds one card
        self.circuit.setEnabled(not laptop)

    # -- the workload -----------------------------------------------------------------------------

    def set_tab_workload(self, workload: Workload | None) -> None:
        """What the Workload tab answers now (None: nothing yet); chosen by default once there is one."""
        first = self._tab_workload is None and workload is not None
        self._tab_workload = workload
        self.use_tab.setEnabled(workload is not None)
        self.tab_workload.setText(describe(workload) if workload else self.tr("nothing answered there yet"))
        if first:
            self.use_tab.setChecked(True)
        elif workload is None:
            self.use_own.setChecked(True)

    def set_workload(self, workload: Workload) -> None:
        """Fill the own-model fields."""
        index = self.model.findData(workload.model)
        if index >= 0:
            self.model.setCurrentIndex(index)
        else:
            self.model.setEditText(workload.model)
        self.task.setCurrentIndex(self.task.findData(workload.task))
        self.precision.setCurrentIndex(self.precision.findData(workload.precision))
        self.batch.setValue(workload.batch)
        self.seq.setValue(workload.seq or 0)

    def _model_ref(self) -> str:
        text = self.model.currentText().strip()
        index = self.model.findText(text)
        return str(self.model.itemData(index)) if index >= 0 else text

    def workload(self) -> Workload:
        if self.use_tab.isChecked() and self._tab_workload is not None:
            return self._tab_workload.with_changes(gpus=1, strategy="ddp", device="cuda")
        if not self._model_ref():
            raise WorkloadError("model: choose a built-in model or give a config.json")
        return Workload(
            self._model_ref(),
            task=str(self.task.currentData()),
            precision=str(self.precision.currentData()),
            batch=self.batch.value(),
            seq=self.seq.value() or None,
        )

    def constraints(self) -> Constraints:
        budget = self.budget.value()
        return Constraints(
            budget=budget if budget > 0 else None,
            currency=str(self.currency.currentData()),
            rent=self.rent.isChecked(),
            form=str(self.form.currentData()),
            max_gpus=self.max_gpus.value(),
            circuit=str(self.circuit.currentData()),
            port=str(self.port.currentData()) if self.form.currentData() == "egpu" else None,
        )
