"""Fits / does not fit / fits if...: the changes that make a workload fit a GPU, and what each costs.

Each candidate is one change a practitioner would make (a smaller micro-batch with gradient accumulation
keeping the same effective batch, activation checkpointing, 8-bit AdamW, FSDP over more GPUs, LoRA,
QLoRA, quantized weights for inference), estimated exactly as the workload itself: changes that alter the
traced graph are traced (cached like any trace), the others are answered from the existing fit. Where one
change is not enough, the micro-batch is also shrunk on top of it. Options that fit come first, fastest
first; an option that changes what is trained (LoRA, QLoRA) or the model's numbers (quantized weights)
says so.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from dataclasses import dataclass, replace
from typing import Any

from gpuconfig.core.workload.answer import Answer, answer_from_fit
from gpuconfig.core.workload.communication import card_link, communication_seconds
from gpuconfig.core.workload.estimate import GpuSpec
from gpuconfig.core.workload.models import ModelSource
from gpuconfig.core.workload.runner import TRACE_TIMEOUT_S, TraceFailed
from gpuconfig.core.workload.service import TraceService
from gpuconfig.core.workload.spec import MAX_SIZE, Workload, WorkloadError

FSDP_GPUS = (2, 4, 8)


@dataclass(frozen=True)
class Option:
    label: str
    workload: Workload
    peak: int  # bytes per device
    fits: bool
    step_seconds: float | None
    time_factor: float | None  # step time against the workload as asked, same effective batch
    changes_result: bool  # trains fewer weights or computes with quantized ones: not only slower
    traced: bool  # needed a trace of its own


def _step(answer: Answer) -> float | None:
    return answer.timing.step_seconds if answer.timing is not None else None


def _option(label: str, answer: Answer, base: float | None, changes: bool, traced: bool, gpu: GpuSpec) -> Option:
    step = _step(answer)
    factor = step / base if step is not None and base else None
    peak = answer.estimate.memory.peak
    return Option(label, answer.estimate.workload, peak, peak <= gpu.memory_bytes, step, factor, changes, traced)


def smaller_micro_batches(workload: Workload) -> Iterator[Workload]:
    """The same effective batch in smaller micro-batches: halving while the batch divides and the
    accumulation stays within what a workload may ask."""
    batch, accum = workload.batch, workload.grad_accum
    while batch % 2 == 0 and accum * 2 <= MAX_SIZE:
        batch, accum = batch // 2, accum * 2
        yield workload.with_changes(batch=batch, grad_accum=accum)


def _shrunk(
    source: ModelSource, fitted: Any, workload: Workload, gpu: GpuSpec, reference: float | None, prefix: str,
    changes: bool, traced: bool,
) -> list[Option]:  # fmt: skip
    """The workload in ever smaller micro-batches, up to the first that fits."""
    options: list[Option] = []
    for smaller in smaller_micro_batches(workload):
        answer = answer_from_fit(source, fitted, smaller, gpu)
        label = f"{prefix}micro-batch {smaller.batch} with {smaller.grad_accum}x gradient accumulation"
        options.append(_option(label, answer, reference, changes, traced, gpu))
        if options[-1].fits:
            break
    return options


def instant_options(base: Answer, gpu: GpuSpec) -> list[Option]:
    """Changes the existing fit answers in milliseconds: micro-batch with accumulation, and sharding.
    `base` is the workload's own answer on `gpu`."""
    source, fitted, workload = base.source, base.fitted, base.estimate.workload
    options = []
    reference = _step(base)
    if workload.training:
        options += _shrunk(source, fitted, workload, gpu, reference, "", False, False)
        if workload.gpus == 1 and workload.device == "cuda":
            link = card_link(gpu)
            weights = float(base.estimate.memory.weights)
            grads = fitted.at("grad_bytes", workload.batch, base.estimate.seq)
            for n in FSDP_GPUS:
                sharded = workload.with_changes(gpus=n, strategy="fsdp")
                answer = answer_from_fit(source, fitted, sharded, gpu)
                # n GPUs each run the asked micro-batch: the same step covers n times the samples. FSDP
                # prefetches the next gather while computing, so the slower of the two sets the pace.
                step = _step(answer)
                if link is None:
                    label = f"FSDP over {n} GPUs (communication time not counted: no PCIe generation in the catalog)"
                else:
                    label = f"FSDP over {n} GPUs (traffic over {link.name})"
                    comm = communication_seconds("fsdp", n, weights, grads, workload.grad_accum, link)
                    step = max(step, comm) if step is not None else None
                option = _option(label, answer, reference, False, False, gpu)
                if step is not None and reference:
                    option = replace(option, step_seconds=step, time_factor=step / n / reference)
                options.append(option)
                if option.fits:
                    break
    return options


def traced_changes(workload: Workload) -> list[tuple[str, Workload, bool]]:
    """(label, changed workload, changes the result) for each change that needs its own trace."""
    changes: list[tuple[str, Workload, bool]] = []
    if workload.training and not workload.checkpointing:
        changes.append(("activation checkpointing", workload.with_changes(checkpointing=True), False))
    if workload.training and workload.optimizer == "adamw" and workload.task in ("pretrain", "finetune"):
        changes.append(("8-bit AdamW", workload.with_changes(optimizer="adamw8bit"), False))
    if workload.task in ("pretrain", "finetune"):
        changes.append((f"LoRA rank {workload.lora_rank}", workload.with_changes(task="lora"), True))
    if workload.task in ("finetune", "lora"):
        changes.append(("QLoRA (4-bit base weights)", workload.with_changes(task="qlora"), True))
    if workload.task == "inference" and workload.precision not in ("int8", "int4"):
        changes.append(("INT8 weights", workload.with_changes(precision="int8"), True))
        changes.append(("INT4 weights", workload.with_changes(precision="int4"), True))
    return changes


def advise(
    base: Answer,
    gpu: GpuSpec,
    progress: Callable[[int, int, str], None] | None = None,
    cancelled: Callable[[], bool] | None = None,
    use_cache: bool = True,
    timeout_s: float = TRACE_TIMEOUT_S,
) -> list[Option]:
    """Every candidate change, estimated; those that fit first, fastest first. Runs traces: not on a GUI
    thread. `base` is the workload's own answer on `gpu` (from answer_from_fit)."""
    options = instant_options(base, gpu)
    reference = _step(base)
    changes = traced_changes(base.estimate.workload)
    service = TraceService(use_cache, timeout_s)
    for done, (label, changed, alters) in enumerate(changes):
        if progress is not None:
            progress(done, len(changes), label)
        try:
            traced = service.fit_for(changed, cancelled=cancelled)
        except (TraceFailed, WorkloadError):
            continue  # a change this model does not support is not an option; the others still are
        answer = traced.answer(changed, gpu)
        option = _option(label, answer, reference, alters, True, gpu)
        options.append(option)
        if not option.fits and changed.training:  # one change is not enough: shrink the micro-batch on top
            options += _shrunk(traced.source, traced.fitted, changed, gpu, reference, f"{label}, ", alters, True)
    if progress is not None:
        progress(len(changes), len(changes), "done")
    return ranked(options)


def ranked(options: list[Option]) -> list[Option]:
    """Fitting options first; among them the same result before a changed one, then the fastest."""

    def key(option: Option) -> tuple[int, int, float, int]:
        time = option.time_factor if option.time_factor is not None else float("inf")
        return (not option.fits, option.changes_result, time, option.peak)

    return sorted(options, key=key)


def option_record(option: Option) -> dict[str, Any]:
    return {
        "change": option.label,
        "fits": option.fits,
        "peak": option.peak,
        "step_seconds": option.step_seconds,
        "time_factor": option.time_factor,
        "changes_result": option.changes_result,
        "workload": option.workload.to_json(),
    }
