"""Fits / does not fit / fits if...: the changes that make a workload fit a GPU, and what each costs.

Each candidate is a change, or a combination of changes, a practitioner would make: a smaller micro-batch
with gradient accumulation keeping the same effective batch (every divisor of the micro-batch, not only
halves: a micro-batch of 3 runs as 1 x 3), activation checkpointing, 8-bit AdamW, both together, the
optimizer on the CPU (ZeRO-Offload), FSDP over more GPUs, LoRA, QLoRA, quantized weights for inference. Each
is estimated exactly as the workload itself: changes that alter the traced graph are traced (cached like any
trace), the others are answered from the existing fit, and every verdict is core/workload/fit.py's, with the
answer's headroom. Where a change is not enough the micro-batch is also made smaller on top of it;
checkpointing is also paired with each other traced change, as a plan pairs them (a plan traces its changes
with `trace_each` too). Options that fit come first, ranked by what the change costs: free changes that keep
the result, then free ones that change what is trained or computed, then those that need more GPUs (a
purchase or a rental); within each, changes whose time is priced in full before ZeRO-Offload (its CPU step is
not), then the fastest, then the fewest changes.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Iterator
from dataclasses import dataclass, replace
from typing import Any

from gpuconfig.core.i18n import QT_TRANSLATE_NOOP, translate
from gpuconfig.core.workload.answer import Answer, answer_from_fit
from gpuconfig.core.workload.communication import card_link, communication_seconds
from gpuconfig.core.workload.estimate import Fitted, GpuSpec
from gpuconfig.core.workload.models import ModelSource
from gpuconfig.core.workload.runner import TRACE_TIMEOUT_S, TraceFailed
from gpuconfig.core.workload.service import TraceService
from gpuconfig.core.workload.spec import MAX_SIZE, OFFLOAD, Workload, WorkloadError

FSDP_GPUS = (2, 4, 8)


# What a change costs, in the order options are offered: nothing but time, what is trained or computed, or
# money (more GPUs: a purchase or a rental).
FREE, MORE_GPUS, CHANGES_RESULT = "free", "more GPUs", "changes the result"
COSTS = (FREE, CHANGES_RESULT, MORE_GPUS)


@dataclass(frozen=True)
class Option:
    label: str
    workload: Workload
    peak: int  # bytes per device
    fits: bool  # core/workload/fit.py's verdict with the answer's headroom
    step_seconds: float | None
    time_factor: float | None  # step time against the workload as asked, same effective batch
    changes_result: bool  # trains fewer weights or computes with quantized ones: not only slower
    traced: bool  # needed a trace of its own
    changes: int = 1  # how many changes are combined
    more_gpus: bool = False  # needs GPUs beyond the one asked for: a purchase or a rental
    time_in_full: bool = True  # False: part of its cost is not priced (ZeRO-Offload's CPU step)
    communication_counted: bool = True  # False: more GPUs whose traffic is not timed (the card's link is unknown)
    extrapolated: bool = False  # read beyond the traced shapes (Fitted.extrapolation): no measured band

    @property
    def cost(self) -> str:
        return CHANGES_RESULT if self.changes_result else MORE_GPUS if self.more_gpus else FREE


def _step(answer: Answer) -> float | None:
    return answer.timing.step_seconds if answer.timing is not None else None


def _option(label: str, answer: Answer, base: float | None, changes: bool, traced: bool, count: int = 1) -> Option:
    step = _step(answer)
    factor = step / base if step is not None and base else None
    verdict = answer.verdict
    fits = verdict is not None and verdict.fits
    workload, beyond = answer.estimate.workload, bool(answer.estimate.extrapolated)
    if beyond:
        label = translate("Workload", "{label} (extrapolated past the traced shapes)").format(label=label)
    return Option(
        label, workload, answer.estimate.memory.peak, fits, step, factor, changes, traced, count, extrapolated=beyond
    )


def smaller_micro_batches(workload: Workload) -> Iterator[Workload]:
    """The same effective batch in smaller micro-batches, largest first: every divisor of the micro-batch
    below it, the accumulation multiplied to keep the effective batch, while it stays within what a workload
    may ask (a micro-batch of 6 runs as 3 x 2, 2 x 3 or 1 x 6; one of 5 as 1 x 5)."""
    batch, accum = workload.batch, workload.grad_accum
    for smaller in _divisors_below(batch):
        if accum * (batch // smaller) > MAX_SIZE:
            break  # smaller micro-batches need more accumulation still
        yield workload.with_changes(batch=smaller, grad_accum=accum * (batch // smaller))


def micro_batch_label(batch: int, accum: int) -> str:
    return translate("Workload", "micro-batch {batch} with {accum}x gradient accumulation").format(
        batch=batch, accum=accum
    )


def _divisors_below(n: int) -> list[int]:
    """The divisors of n smaller than n, largest first (found up to its square root)."""
    small = [d for d in range(1, math.isqrt(n) + 1) if n % d == 0]
    return sorted({*small, *(n // d for d in small)} - {n}, reverse=True)


def _shrunk(base: Answer, fit: tuple[ModelSource, Any], workload: Workload, reference: float | None, change: str,
            changes_result: bool, traced: bool, count: int) -> list[Option]:  # fmt: skip
    """The workload in ever smaller micro-batches, up to the first that fits; `change`: the label of the change
    they are made on top of ("" for none)."""
    options: list[Option] = []
    for smaller in smaller_micro_batches(workload):
        answer = answer_from_fit(*fit, smaller, base.gpu, headroom=base.headroom)
        label = micro_batch_label(smaller.batch, smaller.grad_accum)
        if change:
            label = translate("Workload", "{change}, {smaller}").format(change=change, smaller=label)
        options.append(_option(label, answer, reference, changes_result, traced, count + 1))
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
        options += _shrunk(base, (source, fitted), workload, reference, "", False, False, 0)
        if workload.gpus == 1 and workload.device == "cuda":
            link = card_link(gpu)
            weights = float(base.estimate.memory.weights)
            grads = fitted.at("grad_bytes", workload.batch, base.estimate.seq)
            for n in FSDP_GPUS:
                sharded = workload.with_changes(gpus=n, strategy="fsdp")
                answer = answer_from_fit(source, fitted, sharded, gpu, headroom=base.headroom)
                # n GPUs each run the asked micro-batch: the same step covers n times the samples. FSDP
                # prefetches the next gather while computing, so the slower of the two sets the pace.
                step = _step(answer)
                if link is None:
                    label = translate(
                        "Workload",
                        "FSDP over {n} GPUs (communication time not counted: no PCIe generation in the catalog)",
                    ).format(n=n)
                else:
                    label = translate("Workload", "FSDP over {n} GPUs (traffic over {link})").format(
                        n=n, link=link.name
                    )
                    comm = communication_seconds("fsdp", n, weights, grads, workload.grad_accum, link)
                    step = max(step, comm) if step is not None else None
                option = replace(
                    _option(label, answer, reference, False, False),
                    more_gpus=True,
                    communication_counted=link is not None,
                )
                if step is not None and reference:
                    option = replace(option, step_seconds=step, time_factor=step / n / reference)
                options.append(option)
                if option.fits:
                    break
        if workload.gpus == 1 and workload.device == "cuda" and base.estimate.memory.optimizer > 0:
            options.append(_offloaded(base, gpu, reference))
    return options


def _offloaded(base: Answer, gpu: GpuSpec, reference: float | None) -> Option:
    """The optimizer's state in CPU memory (ZeRO-Offload): the step at least as long as the gradients' copy down
    and the updated weights' copy up over the card's link; the CPU's own optimizer step is not counted."""
    workload = base.estimate.workload
    answer = answer_from_fit(
        base.source, base.fitted, workload.with_changes(strategy=OFFLOAD), gpu, headroom=base.headroom
    )
    step, link = _step(answer), card_link(gpu)
    if link is None:
        label = translate(
            "Workload", "optimizer on the CPU (ZeRO-Offload) (copies not counted: no PCIe generation in the catalog)"
        )
    else:
        grads = base.fitted.at("grad_bytes", workload.batch, base.estimate.seq)
        comm = communication_seconds(OFFLOAD, 1, 0.0, grads, workload.grad_accum, link)
        step = max(step, comm) if step is not None else None
        label = translate(
            "Workload", "optimizer on the CPU (ZeRO-Offload) (copies over {link}; the CPU's optimizer step not counted)"
        ).format(link=link.name)
    option = replace(_option(label, answer, reference, False, False), time_in_full=False)
    if step is not None and reference:
        option = replace(option, step_seconds=step, time_factor=step / reference)
    return option


# How every ZeRO-Offload option's label begins, in English.
OFFLOAD_CHANGE = "optimizer on the CPU (ZeRO-Offload)"
# The changes' names in English (labels say them in the language in use).
CHECKPOINTING = QT_TRANSLATE_NOOP("Workload", "activation checkpointing")
ADAMW_8BIT = QT_TRANSLATE_NOOP("Workload", "8-bit AdamW")


def traced_changes(workload: Workload) -> list[tuple[str, Workload, bool]]:
    """(label, changed workload, changes the result) for each single change that needs its own trace."""
    changes: list[tuple[str, Workload, bool]] = []
    if workload.training and not workload.checkpointing:
        changes.append((translate("Workload", CHECKPOINTING), workload.with_changes(checkpointing=True), False))
    if workload.training and workload.optimizer == "adamw" and workload.task in ("pretrain", "finetune"):
        changes.append((translate("Workload", ADAMW_8BIT), workload.with_changes(optimizer="adamw8bit"), False))
    if workload.task in ("pretrain", "finetune"):
        label = translate("Workload", "LoRA rank {rank}").format(rank=workload.lora_rank)
        changes.append((label, workload.with_changes(task="lora"), True))
    if workload.task in ("finetune", "lora"):
        changes.append((translate("Workload", "QLoRA (4-bit base weights)"), workload.with_changes(task="qlora"), True))
    if workload.task == "inference" and workload.precision not in ("int8", "int4"):
        changes.append((translate("Workload", "INT8 weights"), workload.with_changes(precision="int8"), True))
        changes.append((translate("Workload", "INT4 weights"), workload.with_changes(precision="int4"), True))
    return changes


def combined_changes(workload: Workload) -> list[tuple[str, Workload, bool]]:
    """Two changes together, for when neither alone is enough: checkpointing with each other traced change
    that keeps the model trainable (8-bit AdamW, LoRA, QLoRA)."""
    if not workload.training or workload.checkpointing:
        return []
    out = []
    for label, changed, alters in traced_changes(workload):
        if not changed.checkpointing and changed.training:  # every change but checkpointing itself
            paired = translate("Workload", "activation checkpointing + {change}").format(change=label)
            out.append((paired, changed.with_changes(checkpointing=True), alters))
    return out


@dataclass(frozen=True)
class Variant:
    """The workload as asked (`change` empty) or with a traced change, and its fit."""

    change: str
    workload: Workload
    source: ModelSource
    fitted: Fitted
    changes_result: bool = False


def trace_each(
    changes: list[tuple[str, Workload, bool]],
    service: TraceService,
    cancelled: Callable[[], bool] | None = None,
    progress: Callable[[int, int, str], None] | None = None,
) -> list[Variant]:
    """Each (label, changed workload, changes the result) traced (from the cache where traced before), in
    order. A change the model cannot take (a trace that refuses it) is left out; a cancelled trace raises
    TraceCancelled."""
    out = []
    for done, (label, changed, alters) in enumerate(changes):
        if progress is not None:
            progress(done, len(changes), label)
        try:
            fit = service.fit_for(changed, cancelled=cancelled)
        except (TraceFailed, WorkloadError):
            continue  # a change this model does not support is not an option; the others still are
        out.append(Variant(label, changed, fit.source, fit.fitted, alters))
    if progress is not None:
        progress(len(changes), len(changes), translate("Workload", "done"))
    return out


def advise(
    base: Answer,
    gpu: GpuSpec,
    progress: Callable[[int, int, str], None] | None = None,
    cancelled: Callable[[], bool] | None = None,
    use_cache: bool = True,
    timeout_s: float = TRACE_TIMEOUT_S,
) -> list[Option]:
    """Every candidate change, estimated, ranked (`ranked`). Runs traces: not on a GUI thread. `base` is the
    workload's own answer on `gpu` (from answer_from_fit); its headroom judges every option. The pairs are the
    ones a plan may make (core/planner/changes.py)."""
    options = instant_options(base, gpu)
    reference = _step(base)
    workload = base.estimate.workload
    pairs = combined_changes(workload)
    paired = {label for label, _, _ in pairs}
    service = TraceService(use_cache, timeout_s)
    for variant in trace_each(traced_changes(workload) + pairs, service, cancelled, progress):
        label, changed, count = variant.change, variant.workload, 2 if variant.change in paired else 1
        answer = answer_from_fit(variant.source, variant.fitted, changed, gpu, headroom=base.headroom)
        option = _option(label, answer, reference, variant.changes_result, True, count)
        options.append(option)
        if not option.fits and changed.training:  # not enough: shrink the micro-batch on top
            fit = (variant.source, variant.fitted)
            options.extend(_shrunk(answer, fit, changed, reference, label, variant.changes_result, True, count))
    return confirmed(ranked(options), base, gpu, service, cancelled, reference)


CONFIRMED = 3  # the fitting options traced at their own shape, best first, before the search stops


def confirmed(
    options: list[Option],
    base: Answer,
    gpu: GpuSpec,
    service: TraceService,
    cancelled: Callable[[], bool] | None,
    reference: float | None,
) -> list[Option]:
    """`options` (ranked) with the best fitting one traced at its own shape where it was read past the traced
    shapes: a smaller micro-batch than any traced can peak at another moment of the step than the traced ones
    did (Fitted.extrapolation). An option that no longer fits gives way to the next; at most CONFIRMED traces."""
    options = list(options)
    bare = translate("Workload", "{label} (extrapolated past the traced shapes)").format(label="")
    for _ in range(CONFIRMED):
        best = next((o for o in options if o.fits), None)
        if best is None or not best.extrapolated:
            break
        fit = service.fit_for(best.workload, cancelled=cancelled)
        answer = fit.answer(best.workload, gpu, base.headroom)
        label = best.label.removesuffix(bare)
        options[options.index(best)] = _option(label, answer, reference, best.changes_result, True, best.changes)
        options = ranked(options)
    return options


def ranked(options: list[Option]) -> list[Option]:
    """Fitting options first; among them by what the change costs (free, changes the result, more GPUs),
    those whose time is priced in full before those whose time is a lower bound, then the fastest, the fewest
    changes, the smallest peak."""

    def key(option: Option) -> tuple[bool, int, bool, float, int, int]:
        time = option.time_factor if option.time_factor is not None else float("inf")
        return (not option.fits, COSTS.index(option.cost), not option.time_in_full, time, option.changes, option.peak)

    return sorted(options, key=key)


def option_record(option: Option) -> dict[str, Any]:
    return {
        "change": option.label,
        "fits": option.fits,
        "peak": option.peak,
        "step_seconds": option.step_seconds,
        "time_factor": option.time_factor,
        "changes_result": option.changes_result,
        "cost": option.cost,
        "changes": option.changes,
        "time_in_full": option.time_in_full,
        "extrapolated": option.extrapolated,
        "workload": option.workload.to_json(),
    }
