"""The workload form: model, task, precision, optimizer, sizes, memory tricks, GPUs, and the presets."""

from __future__ import annotations

from typing import Any

from PySide6.QtCore import Qt, Signal
from PySide6.QtWidgets import (
    QCheckBox,
    QComboBox,
    QCompleter,
    QDoubleSpinBox,
    QFileDialog,
    QFormLayout,
    QHBoxLayout,
    QLabel,
    QPushButton,
    QSpinBox,
    QWidget,
)

from gpuconfig.core.catalog.model import Part
from gpuconfig.core.workload.models import zoo
from gpuconfig.core.workload.spec import (
    ATTENTION,
    LORA_TARGETS_ALL,
    LORA_TARGETS_DEFAULT,
    MAX_GPUS,
    MAX_LORA_ALPHA,
    MAX_LORA_RANK,
    MAX_SIZE,
    OPTIMIZERS,
    PRECISIONS,
    STRATEGIES,
    TASKS,
    Workload,
)
from gpuconfig.ui.theme import mark

# The common jobs, one click each: (preset id, workload). Button texts are in WorkloadForm.preset_labels.
PRESETS: dict[str, Workload] = {
    "image_classification": Workload(
        "resnet-50", task="finetune", precision="amp_fp16", optimizer="sgd", batch=64, seq=224
    ),
    "bert_finetune": Workload("bert-base", task="finetune", precision="amp_bf16", optimizer="adamw", batch=32, seq=128),
    "llm_lora": Workload(
        "llama-3-8b", task="lora", precision="bf16", optimizer="adamw", batch=4, seq=2048, lora_rank=16
    ),
    "llm_inference": Workload("llama-3-8b", task="inference", precision="bf16", batch=1, seq=1024, generate=256),
    "stable_diffusion": Workload("sd-unet", task="finetune", precision="amp_fp16", optimizer="adamw", batch=4),
}
DEFAULT_GPU = "nvidia-geforce-rtx-4090"


def _spin(name: str, low: int, high: int) -> QSpinBox:
    box = QSpinBox()
    box.setObjectName(name)
    box.setRange(low, high)
    box.setGroupSeparatorShown(True)
    box.setAccelerated(True)
    return box


def _check(name: str, text: str, tip: str) -> QCheckBox:
    box = QCheckBox(text)
    box.setObjectName(name)
    box.setToolTip(tip)
    return box


class WorkloadForm(QWidget):
    """Emits `changed` on every edit (typing included); `workload()` reads the form, and raises
    WorkloadError where a field is impossible."""

    changed = Signal()

    def __init__(self, gpus: list[Part], parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.preset_labels = {
            "image_classification": self.tr("Image classification · ResNet-50"),
            "bert_finetune": self.tr("BERT-base fine-tune"),
            "llm_lora": self.tr("LLM LoRA · Llama 3 8B"),
            "llm_inference": self.tr("LLM inference · Llama 3 8B"),
            "stable_diffusion": self.tr("Stable Diffusion UNet fine-tune"),
        }
        task_names = {
            "pretrain": self.tr("Pre-training"),
            "finetune": self.tr("Full fine-tune"),
            "lora": self.tr("LoRA"),
            "qlora": self.tr("QLoRA (4-bit base)"),
            "inference": self.tr("Inference"),
        }
        precision_names = {
            "fp32": self.tr("FP32"),
            "tf32": self.tr("TF32"),
            "amp_fp16": self.tr("Mixed FP16 (AMP)"),
            "amp_bf16": self.tr("Mixed BF16 (AMP)"),
            "bf16": self.tr("Pure BF16"),
            "fp8": self.tr("FP8"),
            "int8": self.tr("INT8 weights"),
            "int4": self.tr("INT4 weights"),
        }
        optimizer_names = {
            "sgd": self.tr("SGD with momentum"),
            "adamw": self.tr("Adam / AdamW"),
            "adamw8bit": self.tr("8-bit AdamW"),
            "adafactor": self.tr("Adafactor"),
        }
        strategy_names = {
            "ddp": self.tr("DDP (data parallel)"),
            "zero1": self.tr("ZeRO-1"),
            "zero2": self.tr("ZeRO-2"),
            "fsdp": self.tr("FSDP / ZeRO-3"),
            "tp": self.tr("Tensor parallel"),
            "pp": self.tr("Pipeline parallel"),
            "offload": self.tr("ZeRO-Offload (optimizer on the CPU)"),
        }

        self.model = QComboBox()
        self.model.setObjectName("model")
        self.model.setEditable(True)
        self.model.setInsertPolicy(QComboBox.InsertPolicy.NoInsert)
        self.model.setMinimumContentsLength(18)
        self.model.setSizeAdjustPolicy(QComboBox.SizeAdjustPolicy.AdjustToMinimumContentsLengthWithIcon)
        for entry in zoo().values():
            self.model.addItem(f"{entry.name} ({entry.id})", entry.id)
            self.model.setItemData(self.model.count() - 1, entry.notes or entry.hf_id, Qt.ItemDataRole.ToolTipRole)
        completer = QCompleter(self.model.model(), self.model)
        completer.setCaseSensitivity(Qt.CaseSensitivity.CaseInsensitive)
        completer.setFilterMode(Qt.MatchFlag.MatchContains)
        self.model.setCompleter(completer)
        line = self.model.lineEdit()
        assert line is not None
        line.setPlaceholderText(self.tr("built-in model, config.json or .py file"))
        self.model.setToolTip(
            self.tr(
                "A built-in model, a Hugging Face config.json (or its folder), or a Python file that builds the model;"
                " a Python file is run as code, so give only files you trust"
            )
        )
        self.browse = QPushButton(self.tr("Browse…"))
        self.browse.setObjectName("browse_model")
        self.browse.setToolTip(
            self.tr("Open a Hugging Face config.json, or a Python file that builds a model (gpuconfig runs its code)")
        )

        attention_names = {
            "auto": self.tr("Automatic"),
            "eager": self.tr("Eager"),
            "sdpa_math": self.tr("SDPA · math"),
            "sdpa_efficient": self.tr("SDPA · memory-efficient"),
            "sdpa_flash": self.tr("SDPA · flash"),
            "flash_attention_2": self.tr("FlashAttention-2"),
        }
        attention_tips = {
            "auto": self.tr(
                "What transformers and PyTorch pick: SDPA where the model supports it (else eager), and PyTorch's"
                " flash kernel on an sm80+ GPU in FP16/BF16, its memory-efficient kernel otherwise"
            ),
            "eager": self.tr(
                "Matmul and softmax in PyTorch operators: the batch × heads × length² attention probabilities"
                " are kept for the backward pass"
            ),
            "sdpa_math": self.tr(
                "scaled_dot_product_attention's math path (PyTorch's fallback): keeps the length² probabilities,"
                " in FP32"
            ),
            "sdpa_efficient": self.tr(
                "scaled_dot_product_attention's memory-efficient kernel (CUDA): keeps one log-sum-exp per query,"
                " not the length² scores; takes masks and FP32"
            ),
            "sdpa_flash": self.tr(
                "scaled_dot_product_attention's flash kernel: keeps one log-sum-exp per query; needs FP16/BF16,"
                " no attention mask, and an sm80+ GPU"
            ),
            "flash_attention_2": self.tr(
                'The flash-attn package, which transformers calls with attn_implementation="flash_attention_2":'
                " the same memory as the flash kernel; CUDA, FP16/BF16 and an sm80+ GPU"
            ),
        }
        self.task = self._choices("task", TASKS, task_names)
        self.precision = self._choices("precision", PRECISIONS, precision_names)
        self.optimizer = self._choices("optimizer", OPTIMIZERS, optimizer_names)
        self.strategy = self._choices("strategy", STRATEGIES, strategy_names)
        self.attention = self._choices("attention", ATTENTION, attention_names)
        for index in range(self.attention.count()):
            tip = attention_tips[str(self.attention.itemData(index))]
            self.attention.setItemData(index, tip, Qt.ItemDataRole.ToolTipRole)
        self.attention.setToolTip(
            self.tr("How attention runs: it decides whether the length² attention scores are kept for backward")
        )
        self.device = QComboBox()
        self.device.setObjectName("device")
        self.device.addItem(self.tr("GPU (CUDA)"), "cuda")
        self.device.addItem(self.tr("CPU"), "cpu")

        self.batch = _spin("batch", 1, MAX_SIZE)
        self.batch.setToolTip(self.tr("Samples per GPU in one forward and backward pass (the micro-batch)"))
        self.seq = _spin("seq", 0, MAX_SIZE)
        self.seq.setSpecialValueText(self.tr("model default"))
        self.seq.setToolTip(
            self.tr("Tokens per sample for text and speech models, the image side in pixels for vision models")
        )
        self.generate = _spin("generate", 0, MAX_SIZE)
        self.generate.setToolTip(self.tr("New tokens generated after the prompt (inference)"))
        self.grad_accum = _spin("grad_accum", 1, MAX_SIZE)
        self.grad_accum.setToolTip(self.tr("Micro-batches per optimizer step: the effective batch is batch × this"))
        self.checkpointing = _check(
            "checkpointing",
            self.tr("Activation checkpointing"),
            self.tr("Recompute activations in the backward pass instead of keeping them"),
        )
        self.channels_last = _check(
            "channels_last",
            self.tr("Channels-last memory format (NHWC)"),
            self.tr(
                "Convolution networks: the model and its inputs moved to torch.channels_last. PyTorch's default is "
                "channels-first (NCHW), whose batch normalization runs well below the memory bandwidth on "
                "datacenter GPUs; only the time estimate changes"
            ),
        )
        self.torch_compile = _check(
            "torch_compile",
            self.tr("torch.compile (fused kernels)"),
            self.tr(
                "The model run under torch.compile, default mode: the operators between two matrix products fuse into "
                "generated kernels, which move fewer bytes and launch fewer kernels. The optimizer step stays eager; "
                "only the time estimate changes"
            ),
        )
        self.gpus = _spin("gpus", 1, MAX_GPUS)
        self.lora_rank = _spin("lora_rank", 1, MAX_LORA_RANK)
        self.lora_targets = QComboBox()
        self.lora_targets.setObjectName("lora_targets")
        self.lora_targets.setEditable(True)
        self.lora_targets.setInsertPolicy(QComboBox.InsertPolicy.NoInsert)
        for text, targets in (
            (self.tr("PEFT's default for the model"), LORA_TARGETS_DEFAULT),
            (self.tr("All linear layers"), LORA_TARGETS_ALL),
            ("q_proj,v_proj", "q_proj,v_proj"),
            ("q_proj,k_proj,v_proj,o_proj", "q_proj,k_proj,v_proj,o_proj"),
        ):
            self.lora_targets.addItem(text, targets)
        self.lora_targets.setToolTip(
            self.tr("The layers that get adapters, as PEFT's target_modules: module names separated by commas")
        )
        self.lora_alpha = _spin("lora_alpha", 1, MAX_LORA_ALPHA)
        self.lora_alpha.setToolTip(self.tr("Scales the adapters' output by alpha / rank; no memory of its own"))
        self.lora_dropout = QDoubleSpinBox()
        self.lora_dropout.setObjectName("lora_dropout")
        self.lora_dropout.setRange(0.0, 0.99)
        self.lora_dropout.setSingleStep(0.05)
        self.lora_dropout.setToolTip(self.tr("Dropout before the adapters: its mask is kept for the backward pass"))
        self.double_quant = QCheckBox(self.tr("Double quantization"))
        self.double_quant.setObjectName("double_quant")
        self.double_quant.setToolTip(
            self.tr("Quantize the 4-bit weights' scales too: 0.127 instead of 0.5 bits per weight (QLoRA)")
        )
        self.measured = QCheckBox(self.tr("At this machine's measured speed"))
        self.measured.setObjectName("measured")
        self.measured.setToolTip(
            self.tr(
                "Price the step at the matmul rates and memory bandwidth the Probe tab last measured on this "
                "machine (its GPU, or its CPU when the workload runs there) instead of the datasheet's"
            )
        )
        self.gpu = QComboBox()
        self.gpu.setObjectName("gpu")
        self.gpu.setMinimumContentsLength(18)
        self.gpu.setSizeAdjustPolicy(QComboBox.SizeAdjustPolicy.AdjustToMinimumContentsLengthWithIcon)
        for part in sorted(gpus, key=lambda p: (p.vendor, float(p.specs.get("memory_gb") or 0), p.name)):
            memory = float(part.specs.get("memory_gb") or 0)
            self.gpu.addItem(self.tr("{name} · {memory:g} GB").format(name=part.name, memory=memory), part.id)
        self.set_gpu(DEFAULT_GPU)

        self.effective = QLabel()
        self.effective.setObjectName("effective_batch")
        mark(self.effective, "muted")

        model_row = QHBoxLayout()
        model_row.setSpacing(6)
        model_row.addWidget(self.model, 1)
        model_row.addWidget(self.browse)
        parallel_row = QHBoxLayout()
        parallel_row.setSpacing(6)
        parallel_row.addWidget(self.gpus)
        parallel_row.addWidget(self.strategy, 1)
        form = QFormLayout(self)
        form.setContentsMargins(0, 0, 0, 0)
        form.setFieldGrowthPolicy(QFormLayout.FieldGrowthPolicy.AllNonFixedFieldsGrow)
        form.setLabelAlignment(Qt.AlignmentFlag.AlignRight | Qt.AlignmentFlag.AlignVCenter)
        self.labels: dict[str, QLabel] = {}
        rows: list[tuple[str, str, Any]] = [
            ("model", self.tr("Model"), model_row),
            ("task", self.tr("Task"), self.task),
            ("precision", self.tr("Precision"), self.precision),
            ("optimizer", self.tr("Optimizer"), self.optimizer),
            ("batch", self.tr("Batch size"), self.batch),
            ("seq", self.tr("Sequence / image size"), self.seq),
            ("generate", self.tr("Tokens to generate"), self.generate),
            ("grad_accum", self.tr("Gradient accumulation"), self.grad_accum),
            ("effective", "", self.effective),
            ("checkpointing", "", self.checkpointing),
            ("channels_last", "", self.channels_last),
            ("torch_compile", "", self.torch_compile),
            ("attention", self.tr("Attention"), self.attention),
            ("lora_rank", self.tr("LoRA rank"), self.lora_rank),
            ("lora_targets", self.tr("LoRA targets"), self.lora_targets),
            ("lora_alpha", self.tr("LoRA alpha"), self.lora_alpha),
            ("lora_dropout", self.tr("LoRA dropout"), self.lora_dropout),
            ("double_quant", "", self.double_quant),
            ("device", self.tr("Runs on"), self.device),
            ("gpus", self.tr("GPUs"), parallel_row),
            ("gpu", self.tr("GPU model"), self.gpu),
            ("measured", "", self.measured),
        ]
        for key, text, field in rows:
            label = QLabel(text)
            self.labels[key] = label
            form.addRow(label, field)

        self.set_workload(Workload("gpt2"))
        self.browse.clicked.connect(self._on_browse)
        self.model.currentTextChanged.connect(self._on_edit)
        for box in (self.task, self.precision, self.optimizer, self.attention, self.strategy, self.device, self.gpu):
            box.currentIndexChanged.connect(self._on_edit)
        for spin in (self.batch, self.seq, self.generate, self.grad_accum, self.gpus, self.lora_rank, self.lora_alpha):
            spin.valueChanged.connect(self._on_edit)
        self.lora_dropout.valueChanged.connect(self._on_edit)
        self.lora_targets.currentTextChanged.connect(self._on_edit)
        self.checkpointing.toggled.connect(self._on_edit)
        self.channels_last.toggled.connect(self._on_edit)
        self.torch_compile.toggled.connect(self._on_edit)
        self.double_quant.toggled.connect(self._on_edit)
        self.measured.toggled.connect(self._on_edit)

    def _choices(self, name: str, ids: dict[str, str], names: dict[str, str]) -> QComboBox:
        box = QComboBox()
        box.setObjectName(name)
        for key, core_name in ids.items():
            box.addItem(names.get(key, core_name), key)
        return box

    # -- reading and writing ----------------------------------------------------------------------

    def model_ref(self) -> str:
        """What the model field names: a zoo id (chosen or typed) or a path."""
        text = self.model.currentText().strip()
        index = self.model.findText(text, Qt.MatchFlag.MatchExactly)
        return str(self.model.itemData(index)) if index >= 0 else text

    def lora_targets_ref(self) -> str:
        """What the LoRA targets field names: a choice of the list, or module names as typed, without spaces."""
        text = self.lora_targets.currentText().strip()
        index = self.lora_targets.findText(text, Qt.MatchFlag.MatchExactly)
        return str(self.lora_targets.itemData(index)) if index >= 0 else "".join(text.split())

    def workload(self) -> Workload:
        """The workload the form describes; WorkloadError names the impossible field."""
        return Workload(
            model=self.model_ref(),
            task=str(self.task.currentData()),
            precision=str(self.precision.currentData()),
            optimizer=str(self.optimizer.currentData()),
            batch=self.batch.value(),
            seq=self.seq.value() or None,
            generate=self.generate.value() if self.task.currentData() == "inference" else 0,
            grad_accum=self.grad_accum.value(),
            checkpointing=self.checkpointing.isChecked(),
            gpus=self.gpus.value(),
            strategy=str(self.strategy.currentData()),
            device=str(self.device.currentData()),
            lora_rank=self.lora_rank.value(),
            lora_targets=self.lora_targets_ref(),
            lora_alpha=self.lora_alpha.value(),
            lora_dropout=self.lora_dropout.value(),
            double_quant=self.double_quant.isChecked(),
            attention=str(self.attention.currentData()),
            channels_last=self.channels_last.isChecked(),
            torch_compile=self.torch_compile.isChecked(),
        )

    def set_workload(self, workload: Workload) -> None:
        """Fill every field (one `changed` at the end, not one per field)."""
        widgets = self._inputs()
        for widget in widgets:
            widget.blockSignals(True)
        try:
            index = self.model.findData(workload.model)
            if index >= 0:
                self.model.setCurrentIndex(index)
            else:
                self.model.setEditText(workload.model)
            for box, value in (
                (self.task, workload.task),
                (self.precision, workload.precision),
                (self.optimizer, workload.optimizer),
                (self.strategy, workload.strategy),
                (self.device, workload.device),
                (self.attention, workload.attention),
            ):
                box.setCurrentIndex(max(0, box.findData(value)))
            self.batch.setValue(workload.batch)
            self.seq.setValue(workload.seq or 0)
            self.generate.setValue(workload.generate)
            self.grad_accum.setValue(workload.grad_accum)
            self.checkpointing.setChecked(workload.checkpointing)
            self.gpus.setValue(workload.gpus)
            self.lora_rank.setValue(workload.lora_rank)
            index = self.lora_targets.findData(workload.lora_targets)
            if index >= 0:
                self.lora_targets.setCurrentIndex(index)
            else:
                self.lora_targets.setEditText(workload.lora_targets)
            self.lora_alpha.setValue(workload.lora_alpha)
            self.lora_dropout.setValue(workload.lora_dropout)
            self.double_quant.setChecked(workload.double_quant)
            self.channels_last.setChecked(workload.channels_last)
            self.torch_compile.setChecked(workload.torch_compile)
        finally:
            for widget in widgets:
                widget.blockSignals(False)
        self._on_edit()

    def apply_preset(self, preset: str) -> None:
        self.set_workload(PRESETS[preset])

    def gpu_id(self) -> str:
        return str(self.gpu.currentData() or "")

    def set_gpu(self, part_id: str) -> None:
        index = self.gpu.findData(part_id)
        if index >= 0:
            self.gpu.setCurrentIndex(index)

    def set_default_seq(self, seq: int | None) -> None:
        """Say what "model default" means for the model chosen."""
        text = self.tr("model default ({n:,})").format(n=seq) if seq else self.tr("model default")
        if self.seq.specialValueText() != text:
            self.seq.setSpecialValueText(text)

    def _inputs(self) -> list[QWidget]:
        return [
            self.model,
            self.task,
            self.precision,
            self.optimizer,
            self.strategy,
            self.device,
            self.batch,
            self.seq,
            self.generate,
            self.grad_accum,
            self.checkpointing,
            self.gpus,
            self.lora_rank,
            self.lora_targets,
            self.lora_alpha,
            self.lora_dropout,
            self.double_quant,
            self.attention,
            self.channels_last,
            self.torch_compile,
        ]

    # -- slots ------------------------------------------------------------------------------------

    def _on_edit(self, *_: Any) -> None:
        self._update_enabled()
        self.changed.emit()

    def _update_enabled(self) -> None:
        """Fields that mean nothing for the task or device are greyed out (their values are kept)."""
        task = self.task.currentData()
        training = task != "inference"
        on_gpu = self.device.currentData() == "cuda"
        lora = task in ("lora", "qlora")
        precision = self.precision.currentData()
        four_bit = (task == "qlora" and precision != "int8") or (task == "inference" and precision == "int4")
        for key, enabled in (
            ("optimizer", training),
            ("grad_accum", training),
            ("checkpointing", training),
            ("generate", not training),
            ("lora_rank", lora),
            ("lora_targets", lora),
            ("lora_alpha", lora),
            ("lora_dropout", lora),
            ("double_quant", four_bit),
            ("gpus", on_gpu),
            ("gpu", on_gpu),
            ("channels_last", on_gpu),
            ("torch_compile", on_gpu or self.measured.isChecked()),  # a CPU step is timed at measured rates only
        ):
            widget = getattr(self, key)
            widget.setEnabled(enabled)
            self.labels[key].setEnabled(enabled)
        self.strategy.setEnabled(on_gpu and self.gpus.value() > 1)
        batch, accum = self.batch.value(), self.grad_accum.value()
        gpus = self.gpus.value() if on_gpu else 1
        if training and (accum > 1 or gpus > 1):
            self.effective.setText(self.tr("Effective batch: {n:,} samples per step").format(n=batch * accum * gpus))
        else:
            self.effective.setText("")
        self.effective.setVisible(bool(self.effective.text()))
        self.labels["effective"].setVisible(self.effective.isVisible())

    def _on_browse(self) -> None:
        """Ask for a model file; what is chosen goes into the model box."""
        dialog = QFileDialog(
            self, self.tr("Choose a model (a .py file is run as Python code: choose only files you trust)")
        )
        dialog.setFileMode(QFileDialog.FileMode.ExistingFile)
        dialog.setNameFilters(
            [
                self.tr("Model definitions (config.json *.json *.py)"),
                self.tr("Hugging Face config (*.json)"),
                self.tr("Python file that builds the model, run as code (*.py)"),
            ]
        )
        dialog.fileSelected.connect(self.model.setEditText)
        dialog.finished.connect(dialog.deleteLater)
        dialog.open()
