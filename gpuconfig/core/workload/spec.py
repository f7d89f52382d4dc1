"""What the user wants to run: one workload, described completely and checked before anything is traced."""

from __future__ import annotations

import re
from dataclasses import asdict, dataclass, replace
from typing import Any

from gpuconfig.core.i18n import QT_TRANSLATE_NOOP, translate
from gpuconfig.core.numbers import NumberError, checked_number

TASKS = {
    "pretrain": QT_TRANSLATE_NOOP("Workload", "pre-training"),
    "finetune": QT_TRANSLATE_NOOP("Workload", "full fine-tune"),
    "lora": QT_TRANSLATE_NOOP("Workload", "LoRA"),
    "qlora": QT_TRANSLATE_NOOP("Workload", "QLoRA"),
    "inference": QT_TRANSLATE_NOOP("Workload", "inference"),
}
PRECISIONS = {
    "fp32": QT_TRANSLATE_NOOP("Workload", "FP32"),
    "tf32": QT_TRANSLATE_NOOP("Workload", "TF32"),
    "amp_fp16": QT_TRANSLATE_NOOP("Workload", "AMP FP16"),
    "amp_bf16": QT_TRANSLATE_NOOP("Workload", "AMP BF16"),
    "bf16": QT_TRANSLATE_NOOP("Workload", "pure BF16"),
    "fp8": QT_TRANSLATE_NOOP("Workload", "FP8"),
    "int8": QT_TRANSLATE_NOOP("Workload", "INT8 weights"),
    "int4": QT_TRANSLATE_NOOP("Workload", "INT4 weights"),
}
OPTIMIZERS = {
    "sgd": QT_TRANSLATE_NOOP("Workload", "SGD with momentum"),
    "adamw": QT_TRANSLATE_NOOP("Workload", "Adam / AdamW"),
    "adamw8bit": QT_TRANSLATE_NOOP("Workload", "8-bit AdamW"),
    "adafactor": QT_TRANSLATE_NOOP("Workload", "Adafactor"),
}
STRATEGIES = {
    "ddp": QT_TRANSLATE_NOOP("Workload", "DDP"),
    "zero1": QT_TRANSLATE_NOOP("Workload", "ZeRO-1"),
    "zero2": QT_TRANSLATE_NOOP("Workload", "ZeRO-2"),
    "fsdp": QT_TRANSLATE_NOOP("Workload", "FSDP / ZeRO-3"),
    "tp": QT_TRANSLATE_NOOP("Workload", "tensor parallel"),
    "pp": QT_TRANSLATE_NOOP("Workload", "pipeline parallel"),
    "offload": QT_TRANSLATE_NOOP("Workload", "ZeRO-Offload (optimizer on the CPU)"),
}
# ZeRO-Offload (Ren et al. 2021, arXiv 2101.06840; DeepSpeed's zero_optimization.offload_optimizer): built on
# ZeRO-2, the optimizer's state lives in CPU memory and its step runs on the CPU; each step the gradients go
# down to the host and the updated weights come back up over the card's link.
OFFLOAD = "offload"
DEVICES = ("cuda", "cpu")
# How attention runs: what transformers and PyTorch pick, or one implementation by the names transformers'
# attn_implementation ("eager", "flash_attention_2") and torch.nn.attention.SDPBackend (MATH,
# EFFICIENT_ATTENTION, FLASH_ATTENTION) give them.
ATTENTION = {
    "auto": "what transformers and PyTorch pick",
    "eager": "eager (matmul and softmax)",
    "sdpa_math": "SDPA, math kernel",
    "sdpa_efficient": "SDPA, memory-efficient kernel",
    "sdpa_flash": "SDPA, flash kernel",
    "flash_attention_2": "FlashAttention-2 (flash-attn package)",
}
CUDA_ONLY_ATTENTION = ("sdpa_efficient", "flash_attention_2")
FLASH_ATTENTION = ("sdpa_flash", "flash_attention_2")
# The most a workload may ask, as far as the Workload tab's spin boxes have always gone: a million samples
# in a micro-batch, tokens in a sequence or generated, or micro-batches accumulated is past any step people
# run (and past what a trace can build); 1024 GPUs; a LoRA rank of 4096, the hidden size of a 7B-8B model
# (a rank above a layer's width adds nothing).
MAX_SIZE = 1_000_000
MAX_GPUS = 1024
MAX_LORA_RANK = 4096
# LoRA as PEFT's LoraConfig describes it (PEFT 0.21.2, peft/tuners/lora/config.py): target_modules None
# (PEFT's default for the model type), "all-linear" or module names; lora_alpha 8; lora_dropout 0.0. The rank
# stays 16 rather than PEFT's r=8: the rank is the one field LoRA users always set, and 16 is what the
# presets and every earlier estimate used.
LORA_TARGETS_DEFAULT = "default"
LORA_TARGETS_ALL = "all-linear"
LORA_ALPHA_DEFAULT = 8
MAX_LORA_ALPHA = 65536
MODULE_NAME = re.compile(r"[A-Za-z0-9_.\-]+")
# Weight-only formats are for inference; training in them is not a thing people do.
INFERENCE_ONLY = ("int8", "int4")


class WorkloadError(ValueError):
    """A workload that cannot be estimated; the message names the field and what is wrong."""


@dataclass(frozen=True)
class Workload:
    """`seq` is the sequence length for text and speech models and the image side for vision models
    (None: the model's usual size). For inference, `seq` is the prompt and `generate` the new tokens."""

    model: str
    task: str = "finetune"
    precision: str = "amp_bf16"
    optimizer: str = "adamw"
    batch: int = 1
    seq: int | None = None
    generate: int = 0
    grad_accum: int = 1
    checkpointing: bool = False
    gpus: int = 1
    strategy: str = "ddp"
    device: str = "cuda"
    lora_rank: int = 16
    lora_targets: str = LORA_TARGETS_DEFAULT  # "default", "all-linear" or module names, "q_proj,v_proj"
    lora_alpha: int = LORA_ALPHA_DEFAULT
    lora_dropout: float = 0.0
    double_quant: bool = False  # bitsandbytes' bnb_4bit_use_double_quant (BitsAndBytesConfig default: False)
    attention: str = "auto"
    # Convolution networks' activations in channels-last (NHWC) memory format (model.to(memory_format=
    # torch.channels_last)); PyTorch's default is channels-first (NCHW). Only the time estimate reads it.
    channels_last: bool = False
    # The model run under torch.compile (its default mode, TorchInductor): the operators between two matrix products
    # fuse into generated kernels. Only the time estimate reads it; the optimizer step stays eager.
    torch_compile: bool = False

    def __post_init__(self) -> None:
        _check_choice("task", self.task, TASKS)
        _check_choice("precision", self.precision, PRECISIONS)
        _check_choice("optimizer", self.optimizer, OPTIMIZERS)
        _check_choice("strategy", self.strategy, STRATEGIES)
        _check_choice("device", self.device, DEVICES)
        _check_choice("attention", self.attention, ATTENTION)
        if not self.model.strip():
            raise WorkloadError("model: empty")
        for name, most, zero_ok in (
            ("batch", MAX_SIZE, False),
            ("seq", MAX_SIZE, False),
            ("generate", MAX_SIZE, True),
            ("grad_accum", MAX_SIZE, False),
            ("gpus", MAX_GPUS, False),
            ("lora_rank", MAX_LORA_RANK, False),
            ("lora_alpha", MAX_LORA_ALPHA, False),
        ):
            value = getattr(self, name)
            if value is None and name == "seq":  # the model's usual length
                continue
            try:
                checked_number(value, integer=True, zero_ok=zero_ok, most=most)
            except NumberError as exc:
                raise WorkloadError(f"{name}: {exc}") from None
        _check_lora_targets(self.lora_targets)
        try:
            dropout = checked_number(self.lora_dropout, zero_ok=True, most=1)
        except NumberError as exc:
            raise WorkloadError(f"lora_dropout: {exc}") from None
        if dropout == 1:
            raise WorkloadError("lora_dropout: must be below 1 (a dropout of 1 drops every input)")
        if self.precision in INFERENCE_ONLY and self.task not in ("inference", "qlora"):
            raise WorkloadError(f"precision: {self.precision} weights are for inference, not {TASKS[self.task]}")
        if self.device == "cpu" and self.gpus != 1:
            raise WorkloadError("gpus: a CPU workload runs on one device")
        if self.strategy == OFFLOAD and (self.task == "inference" or self.device != "cuda"):
            raise WorkloadError("strategy: ZeRO-Offload moves a GPU's optimizer to the CPU: it is for training on GPUs")
        if self.device == "cpu" and self.attention in CUDA_ONLY_ATTENTION:
            raise WorkloadError(f"attention: {self.attention} runs on CUDA GPUs only")
        if self.device == "cuda" and self.attention in FLASH_ATTENTION and not self.half_compute:
            raise WorkloadError(
                f"attention: flash attention computes in fp16 or bf16, and {PRECISIONS[self.precision]} is fp32"
            )

    @property
    def training(self) -> bool:
        return self.task != "inference"

    @property
    def half_compute(self) -> bool:
        """Whether layers compute in fp16 or bf16: mixed or half precision, or QLoRA's bf16 base weights."""
        return self.precision not in ("fp32", "tf32") or (self.task == "qlora" and self.precision == "tf32")

    def with_changes(self, **changes: Any) -> Workload:
        return replace(self, **changes)

    def to_json(self) -> dict[str, Any]:
        return asdict(self)


def _check_choice(field: str, value: str, choices: dict[str, str] | tuple[str, ...]) -> None:
    if value not in choices:
        raise WorkloadError(f"{field}: {value!r} is not one of {', '.join(choices)}")


def _check_lora_targets(targets: str) -> None:
    """PEFT's default, every Linear, or module names separated by commas."""
    if targets in (LORA_TARGETS_DEFAULT, LORA_TARGETS_ALL):
        return
    if not isinstance(targets, str) or not all(MODULE_NAME.fullmatch(name) for name in targets.split(",")):
        raise WorkloadError(
            f"lora_targets: {LORA_TARGETS_DEFAULT}, {LORA_TARGETS_ALL} or module names separated by commas"
            f" (q_proj,v_proj), got {targets!r}"
        )


def named(table: dict[str, str], key: str) -> str:
    """A choice of TASKS, PRECISIONS, OPTIMIZERS or STRATEGIES in words, in the language in use."""
    return translate("Workload", table[key]) if key in table else key


def summary(workload: Workload) -> str:
    """'llama-3-8b · LoRA · pure BF16 · batch 4 · length 2,048 · checkpointing', in the language in use."""
    parts = [workload.model, named(TASKS, workload.task), named(PRECISIONS, workload.precision)]
    parts.append(translate("Workload", "batch {batch}").format(batch=workload.batch))
    if workload.seq:
        parts.append(translate("Workload", "length {seq:,}").format(seq=workload.seq))
    if workload.training and workload.grad_accum > 1:
        parts.append(translate("Workload", "{steps} accumulated").format(steps=workload.grad_accum))
    if workload.training and workload.checkpointing:
        parts.append(translate("Workload", "checkpointing"))
    if workload.channels_last:
        parts.append(translate("Workload", "channels-last"))
    if workload.torch_compile:
        parts.append(translate("Workload", "torch.compile"))
    return " · ".join(parts)
