"""Each memory technique's effect on memory and time, side by side with the workload as entered, what each
costs (nothing but time, more GPUs, or the result), and the "fits if…" line that names the cheapest change
that makes the workload fit. Every "fits" is core/workload/fit.py's verdict with the answer's headroom."""

from __future__ import annotations

from PySide6.QtCore import Qt, Signal
from PySide6.QtGui import QColor, QFont
from PySide6.QtWidgets import (
    QAbstractItemView,
    QHBoxLayout,
    QHeaderView,
    QLabel,
    QPushButton,
    QTableWidget,
    QTableWidgetItem,
    QVBoxLayout,
    QWidget,
)

from gpuconfig.core.units import format_bytes
from gpuconfig.core.workload.advice import CHANGES_RESULT, MORE_GPUS, Option, traced_changes
from gpuconfig.core.workload.answer import Answer
from gpuconfig.core.workload.spec import Workload
from gpuconfig.ui.theme import Colors, tint

COLUMNS = ("change", "peak", "fits", "cost", "step", "factor", "note")
CHANGE, PEAK, FITS, COST, STEP, FACTOR, NOTE = range(len(COLUMNS))


def format_seconds(seconds: float | None) -> str:
    if seconds is None:
        return "—"
    if seconds < 1:
        return f"{seconds * 1000:,.0f} ms"
    return f"{seconds:,.2f} s" if seconds < 100 else f"{seconds:,.0f} s"


class TechniqueTable(QTableWidget):
    """Row 0 is the workload as entered; the others are options (`options[row - 1]`). Emits
    `apply_requested(workload)` when an option row is double-clicked."""

    apply_requested = Signal(object)

    def __init__(self, colors: Colors, parent: QWidget | None = None) -> None:
        super().__init__(0, len(COLUMNS), parent)
        self.colors = colors
        self.options: list[Option] = []
        self.base: Workload | None = None
        self.setHorizontalHeaderLabels(
            [
                self.tr("Change"),
                self.tr("Peak per device"),
                self.tr("Fits"),
                self.tr("Cost"),
                self.tr("Step time"),
                self.tr("Time vs. now"),
                self.tr("Note"),
            ]
        )
        self.setEditTriggers(QAbstractItemView.EditTrigger.NoEditTriggers)
        self.setSelectionBehavior(QAbstractItemView.SelectionBehavior.SelectRows)
        self.setSelectionMode(QAbstractItemView.SelectionMode.SingleSelection)
        self.setAlternatingRowColors(True)
        self.setWordWrap(False)
        self.verticalHeader().setVisible(False)
        self.verticalHeader().setDefaultSectionSize(24)
        header = self.horizontalHeader()
        header.setSectionResizeMode(CHANGE, QHeaderView.ResizeMode.Stretch)
        for column in range(PEAK, NOTE):
            header.setSectionResizeMode(column, QHeaderView.ResizeMode.ResizeToContents)
        header.setSectionResizeMode(NOTE, QHeaderView.ResizeMode.Interactive)
        header.setStretchLastSection(False)
        self.cellDoubleClicked.connect(self._on_double_click)

    def describe(self, option: Option) -> str:
        """The change in words (translatable), from what differs between the option and the workload."""
        base, changed = self.base, option.workload
        if base is None:
            return option.label
        parts = []
        if changed.task != base.task:
            if changed.task == "lora":
                parts.append(self.tr("LoRA, rank {rank}").format(rank=changed.lora_rank))
            elif changed.task == "qlora":
                parts.append(self.tr("QLoRA rank {rank} (4-bit base)").format(rank=changed.lora_rank))
            else:
                parts.append(self.tr("task {task}").format(task=changed.task))
        if changed.precision != base.precision:
            names = {"int8": self.tr("INT8 weights"), "int4": self.tr("INT4 weights")}
            parts.append(names.get(changed.precision, changed.precision))
        if changed.optimizer != base.optimizer:
            names = {"adamw8bit": self.tr("8-bit AdamW"), "adafactor": self.tr("Adafactor")}
            parts.append(names.get(changed.optimizer, changed.optimizer))
        if changed.checkpointing != base.checkpointing:
            parts.append(self.tr("activation checkpointing"))
        if changed.strategy == "offload" and base.strategy != "offload":
            parts.append(self.tr("optimizer on the CPU (ZeRO-Offload)"))
        elif (changed.gpus, changed.strategy) != (base.gpus, base.strategy):
            strategy = "FSDP" if changed.strategy == "fsdp" else changed.strategy
            parts.append(self.tr("{strategy} over {n} GPUs").format(strategy=strategy, n=changed.gpus))
        if changed.batch != base.batch:
            parts.append(
                self.tr("micro-batch {batch} × {accum} accumulation steps").format(
                    batch=changed.batch, accum=changed.grad_accum
                )
            )
        return ", ".join(parts) or option.label

    def cost(self, option: Option) -> str:
        """What the change costs besides time, in words: nothing, more GPUs, or what is trained or computed."""
        if option.cost == MORE_GPUS:
            return self.tr("needs more GPUs")
        if option.cost == CHANGES_RESULT:
            return self.tr("changes what is trained") if option.workload.training else self.tr("changes the output")
        return self.tr("free")

    def note(self, option: Option) -> str:
        changed = option.workload
        notes = []
        if changed.task in ("lora", "qlora") and self.base is not None and self.base.task != changed.task:
            notes.append(self.tr("trains adapters only"))
        if changed.precision in ("int8", "int4") and self.base is not None and self.base.precision != changed.precision:
            notes.append(self.tr("quantized weights"))
        if self.base is not None and changed.gpus > self.base.gpus:
            # the core counts the traffic when the card's link is known, and says when it is not
            uncounted = not option.communication_counted
            notes.append(self.tr("time per sample, no communication") if uncounted else self.tr("time per sample"))
        if changed.strategy == "offload" and self.base is not None and self.base.strategy != "offload":
            notes.append(self.tr("the CPU's optimizer step not counted"))
        return "; ".join(notes)

    def show_options(
        self, base: Workload, base_peak: int, base_step: float | None, base_fits: bool | None, options: list[Option]
    ) -> None:
        """`base_fits` None: there is no device limit to fit (a CPU run)."""
        self.base = base
        self.options = list(options)
        self.clearSelection()
        self.setRowCount(1 + len(self.options))
        bold = QFont(self.font())
        bold.setWeight(QFont.Weight.DemiBold)
        first = [self.tr("As entered"), format_bytes(base_peak), self._mark(base_fits), "", format_seconds(base_step)]
        self._fill_row(
            0, [*first, "1.00×" if base_step else "—", ""], base_fits, bold, self.tr("The workload in the form")
        )
        for row, option in enumerate(self.options, start=1):
            factor = f"{option.time_factor:.2f}×" if option.time_factor is not None else "—"
            cells = [
                self.describe(option),
                format_bytes(option.peak),
                self._mark(option.fits),
                self.cost(option),
                format_seconds(option.step_seconds),
                factor,
                self.note(option),
            ]
            self._fill_row(
                row, cells, option.fits, None, option.label + (self.tr(" (traced)") if option.traced else "")
            )
        # As wide as the longest note, within reason: the change needs the room.
        widest = max((self.fontMetrics().horizontalAdvance(self.note(o)) for o in self.options), default=0)
        self.horizontalHeader().resizeSection(NOTE, min(max(widest + 16, 120), 280))

    def _explain(self, note: str) -> str:
        """The longer reading of a note, for its tooltip."""
        longer = {
            self.tr("trains adapters only"): self.tr(
                "Only low-rank adapters are trained: the model you get differs from a full fine-tune"
            ),
            self.tr("quantized weights"): self.tr("Weights stored in fewer bits: outputs change slightly"),
            self.tr("time per sample, no communication"): self.tr(
                "Each GPU runs the micro-batch, so a step covers more samples; time is per sample and leaves out "
                "the time spent communicating between GPUs"
            ),
            self.tr("time per sample"): self.tr(
                "Each GPU runs the micro-batch, so a step covers more samples; time is per sample, with the "
                "sharding's traffic between GPUs over the card's link"
            ),
            self.tr("free"): self.tr("Keeps the result and needs nothing bought: only the time changes"),
            self.tr("needs more GPUs"): self.tr("Needs GPUs beyond the one chosen: a purchase or a rental"),
            self.tr("changes what is trained"): self.tr(
                "Trains fewer weights or on quantized ones: the model you get differs, not only the time"
            ),
            self.tr("changes the output"): self.tr("Computes with quantized weights: the outputs change slightly"),
        }
        return "; ".join(longer.get(part, part) for part in note.split("; "))

    def _mark(self, fits: bool | None) -> str:
        return "—" if fits is None else "✓" if fits else "✗"

    def _fill_row(self, row: int, cells: list[str], fits: bool | None, font: QFont | None, tip: str = "") -> None:
        for column, text in enumerate(cells):
            item = QTableWidgetItem(text)
            if column == 0 and tip:
                item.setToolTip(tip)
            if font is not None:
                item.setFont(font)
            if column in (PEAK, STEP, FACTOR):
                item.setTextAlignment(Qt.AlignmentFlag.AlignRight | Qt.AlignmentFlag.AlignVCenter)
            if column == FITS:
                item.setTextAlignment(Qt.AlignmentFlag.AlignCenter)
                if fits is not None:
                    item.setForeground(QColor(self.colors.success if fits else self.colors.error))
            if column in (COST, NOTE) and text:
                item.setToolTip(self._explain(text))
            self.setItem(row, column, item)

    def selected_option(self) -> Option | None:
        rows = {index.row() for index in self.selectionModel().selectedRows()}
        row = min(rows) if rows else 0
        return self.options[row - 1] if row >= 1 else None

    def apply_colors(self, colors: Colors) -> None:
        self.colors = colors
        for row in range(self.rowCount()):
            item = self.item(row, FITS)
            if item is not None and item.text() in ("✓", "✗"):
                item.setForeground(QColor(colors.success if item.text() == "✓" else colors.error))

    def _on_double_click(self, row: int, _column: int) -> None:
        if row >= 1:
            self.apply_requested.emit(self.options[row - 1].workload)


class TechniquesPanel(QWidget):
    """The verdict's "fits if…" line, the table, and its buttons. Emits `compare_requested` (trace the
    other techniques) and `apply_requested(workload)` (put an option into the form)."""

    compare_requested = Signal()
    apply_requested = Signal(object)

    def __init__(self, colors: Colors, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.colors = colors
        self.options: list[Option] = []
        self.stale = False  # the options shown are for an older workload
        self._fits_if_color = colors.text
        self.fits_if = QLabel()
        self.fits_if.setObjectName("fits_if")
        self.fits_if.setWordWrap(True)
        bold = self.fits_if.font()
        bold.setWeight(QFont.Weight.DemiBold)
        self.fits_if.setFont(bold)
        self.compare_button = QPushButton(self.tr("Compare techniques"))
        self.compare_button.setObjectName("compare_techniques")
        self.compare_button.setToolTip(
            self.tr("Trace activation checkpointing, 8-bit AdamW, LoRA, QLoRA or quantized weights for this workload")
        )
        self.apply_button = QPushButton(self.tr("Apply to the form"))
        self.apply_button.setObjectName("apply_option")
        self.apply_button.setEnabled(False)
        self.table = TechniqueTable(colors)
        self.table.setObjectName("techniques")
        header = QHBoxLayout()
        header.addWidget(self.fits_if, 1)
        header.addWidget(self.compare_button)
        header.addWidget(self.apply_button)
        layout = QVBoxLayout(self)
        layout.setContentsMargins(0, 4, 0, 0)
        layout.addLayout(header)
        layout.addWidget(self.table, 1)
        self.compare_button.clicked.connect(self.compare_requested)
        self.apply_button.clicked.connect(self._on_apply_clicked)
        self.table.apply_requested.connect(self.apply_requested)
        self.table.itemSelectionChanged.connect(self._on_selected)

    def show_options(self, answer: Answer, options: list[Option], pending: bool) -> None:
        """The options for an answer on a GPU; `pending`: more are being traced."""
        self.options = options
        memory = answer.estimate.memory
        verdict = answer.verdict
        fits = verdict is not None and verdict.fits
        base_step = answer.timing.step_seconds if answer.timing is not None else None
        self.table.show_options(answer.estimate.workload, memory.peak, base_step, fits, options)
        self.apply_button.setEnabled(False)
        compared = any(o.traced for o in options)
        self.compare_button.setEnabled(not pending and not compared and bool(traced_changes(answer.estimate.workload)))
        best = next((o for o in options if o.fits), None)
        if fits and verdict is not None:
            text = self.tr("Fits as entered, with {free} to spare of {usable} usable.").format(
                free=format_bytes(verdict.spare), usable=format_bytes(verdict.usable)
            )
            if options:
                text += " " + self.tr("Other techniques and what they cost:")
        elif best is not None:
            time = (
                self.tr("time per sample ×{factor:.2f}").format(factor=best.time_factor)
                if best.time_factor is not None
                else self.tr("time not estimated")
            )
            text = self.tr("Fits if… {change} ({cost}; {time})").format(
                change=self.table.describe(best), cost=self.table.cost(best), time=time
            )
        elif pending:
            text = self.tr("No instant change fits; tracing the other techniques…")
        else:
            text = self.tr("None of these changes fits: choose a GPU with more memory, or more GPUs.")
        if pending and (fits or best is not None):
            text += self.tr(" (tracing more techniques…)")
        self.fits_if.setText(text)
        self.stale = False
        self._tint(self.colors.text if fits or best is not None else self.colors.error)

    def set_stale(self) -> None:
        """The options shown are for an older workload: muted until the next answer."""
        self.stale = True
        self._tint(self._fits_if_color)

    def _tint(self, color: str) -> None:
        self._fits_if_color = color
        tint(self.fits_if, self.colors.muted if self.stale else color)

    def show_without_device(self, workload: Workload, peak: int) -> None:
        """A CPU run: no device memory to fit, so nothing to compare against."""
        self.options = []
        self.table.show_options(workload, peak, None, None, [])
        self.fits_if.setText(self.tr("Techniques are compared against a GPU's memory: choose to run on a GPU."))
        self.stale = False
        self._tint(self.colors.text)
        self.compare_button.setEnabled(False)
        self.apply_button.setEnabled(False)

    def apply_colors(self, colors: Colors) -> None:
        self.colors = colors
        self.table.apply_colors(colors)

    def _on_selected(self) -> None:
        self.apply_button.setEnabled(self.table.selected_option() is not None)

    def _on_apply_clicked(self) -> None:
        option = self.table.selected_option()
        if option is not None:
            self.apply_requested.emit(option.workload)
