"""Fits-if searches micro-batch splits and combinations of changes, and offers free changes before purchases
and before changes to what is trained, every verdict with the answer's headroom."""

from __future__ import annotations

from dataclasses import replace
from pathlib import Path

import pytest

from gpuconfig.core.workload.advice import (
    CHANGES_RESULT,
    COSTS,
    FREE,
    MORE_GPUS,
    Option,
    advise,
    combined_changes,
    ranked,
    smaller_micro_batches,
)
from gpuconfig.core.workload.answer import answer_from_fit, gpu_spec
from gpuconfig.core.workload.fit import judge, user_headroom
from gpuconfig.core.workload.service import Fit, TraceService
from gpuconfig.core.workload.spec import MAX_SIZE, Workload

LORA_8B = Workload("llama-3-8b", task="lora", seq=2048, precision="bf16")


def splits(batch: int, accum: int = 1) -> list[tuple[int, int]]:
    return [(w.batch, w.grad_accum) for w in smaller_micro_batches(Workload("gpt2", batch=batch, grad_accum=accum))]


def test_micro_batch_splits_are_every_divisor_keeping_the_effective_batch() -> None:
    assert splits(3) == [(1, 3)]
    assert splits(5) == [(1, 5)]
    assert splits(6) == [(3, 2), (2, 3), (1, 6)]
    assert splits(12, 2) == [(6, 4), (4, 6), (3, 8), (2, 12), (1, 24)]
    assert splits(1) == []
    assert splits(7, MAX_SIZE // 7 + 1) == []  # the accumulation would pass its ceiling


def test_pairs_of_changes_are_offered_only_where_checkpointing_is_off() -> None:
    full = Workload("llama-3-8b", task="finetune")
    assert [label for label, _, _ in combined_changes(full)] == [
        "activation checkpointing + 8-bit AdamW",
        "activation checkpointing + LoRA rank 16",
        "activation checkpointing + QLoRA (4-bit base weights)",
    ]
    assert all(w.checkpointing for _, w, _ in combined_changes(full))
    assert combined_changes(full.with_changes(checkpointing=True)) == []
    assert combined_changes(full.with_changes(task="inference")) == []


def option(label: str, fits: bool, factor: float, *, alters: bool = False, more: bool = False) -> Option:
    return Option(label, LORA_8B, 1, fits, None, factor, alters, False, 1, more)


def test_ranking_puts_fitting_free_changes_before_purchases_and_changed_results() -> None:
    options = [
        option("FSDP over 2 GPUs", True, 0.5, more=True),
        option("QLoRA", True, 1.07, alters=True),
        option("activation checkpointing", True, 1.33),
        option("micro-batch 1 with 3x gradient accumulation", False, 1.1),
    ]
    order = [o.label for o in ranked(options)]
    assert order == [
        "activation checkpointing",
        "QLoRA",
        "FSDP over 2 GPUs",
        "micro-batch 1 with 3x gradient accumulation",
    ]
    assert [o.cost for o in ranked(options)][:3] == [FREE, CHANGES_RESULT, MORE_GPUS]
    assert COSTS == (FREE, CHANGES_RESULT, MORE_GPUS)
    # A change whose time is a lower bound (ZeRO-Offload: the CPU's step is not priced) comes after the free
    # changes priced in full, however fast it looks.
    offload = replace(option("optimizer on the CPU", True, 1.0), time_in_full=False)
    assert [o.label for o in ranked([offload, option("slow but priced", True, 1.5)])] == [
        "slow but priced",
        "optimizer on the CPU",
    ]


@pytest.fixture(scope="module")
def lora_fit(module_data_dir: Path) -> Fit:
    return TraceService().fit_for(LORA_8B)


@pytest.mark.parametrize("batch", [3, 5])
def test_fits_if_at_odd_batches_finds_a_free_change_on_a_24_gb_card(store, lora_fit: Fit, batch: int) -> None:  # type: ignore[no-untyped-def]
    """Llama-3-8B LoRA at batch 3 or 5 x 2,048 tokens on an RTX 4090: halving cannot split an odd batch, so
    fits-if used to find nothing that fits; the micro-batch splits and checkpointing find a free change."""
    gpu = gpu_spec(store, "nvidia-geforce-rtx-4090")
    workload = LORA_8B.with_changes(batch=batch)
    base = answer_from_fit(lora_fit.source, lora_fit.fitted, workload, gpu)
    assert base.verdict is not None and not base.verdict.fits
    options = advise(base, gpu)
    fitting = [o for o in options if o.fits]
    assert fitting, [(o.label, o.peak) for o in options]
    assert fitting[0].cost == FREE and "activation checkpointing" in fitting[0].label
    # the change offered first was traced at its own micro-batch, not read past the batches traced
    assert not fitting[0].extrapolated and "extrapolated" not in fitting[0].label
    # Free changes first, then purchases, then changes to what is trained; fitting before not.
    costs = [COSTS.index(o.cost) for o in fitting]
    assert costs == sorted(costs)
    assert options[: len(fitting)] == fitting
    for o in fitting:
        assert judge(o.peak, gpu.memory_bytes, base.headroom).fits
        effective = o.workload.batch * o.workload.grad_accum * o.workload.gpus
        assert o.workload.batch * o.workload.grad_accum == batch or effective == batch * o.workload.gpus


def test_the_headroom_decides_the_verdict(store, lora_fit: Fit) -> None:  # type: ignore[no-untyped-def]
    gpu = gpu_spec(store, "nvidia-h100-pcie")
    base = answer_from_fit(lora_fit.source, lora_fit.fitted, LORA_8B, gpu)
    peak = base.estimate.memory.peak
    share = 1 - peak / gpu.memory_bytes  # the headroom at which the peak just fits
    roomy = answer_from_fit(lora_fit.source, lora_fit.fitted, LORA_8B, gpu, headroom=user_headroom(0))
    assert roomy.verdict is not None and roomy.verdict.fits
    if share < 0.5:
        tight = answer_from_fit(lora_fit.source, lora_fit.fitted, LORA_8B, gpu, headroom=user_headroom(100 * share + 1))
        assert tight.verdict is not None and not tight.verdict.fits and tight.verdict.tight
        assert "does not fit with the headroom" in tight.verdict.text()


def test_zero_offload_keeps_the_optimizer_on_the_host_and_pays_the_copies(store) -> None:  # type: ignore[no-untyped-def]
    """GPT-2 full fine-tune with AdamW: offloaded, the card holds no optimizer state; the step is at least the
    gradients' copy down and the trained weights' copy up over the card's link."""
    from gpuconfig.core.workload.advice import OFFLOAD_CHANGE, instant_options
    from gpuconfig.core.workload.communication import card_link, traffic_bytes

    gpu = gpu_spec(store, "nvidia-geforce-rtx-3070")
    workload = Workload("gpt2", task="finetune", batch=4, seq=512, precision="amp_bf16")
    traced = TraceService().fit_for(workload)
    base = answer_from_fit(traced.source, traced.fitted, workload, gpu)
    offloaded = answer_from_fit(traced.source, traced.fitted, workload.with_changes(strategy="offload"), gpu)
    assert base.estimate.memory.optimizer > 0 and offloaded.estimate.memory.optimizer == 0
    assert offloaded.estimate.memory.gradients == base.estimate.memory.gradients
    assert offloaded.estimate.memory.peak < base.estimate.memory.peak
    grads = traced.fitted.at("grad_bytes", 4, 512)
    assert traffic_bytes("offload", 1, 1e9, grads, 1) == pytest.approx(2 * grads)
    assert traffic_bytes("offload", 2, 1e9, grads, 1) == pytest.approx(grads + traffic_bytes("zero2", 2, 1e9, grads, 1))
    option = next(o for o in instant_options(base, gpu) if o.label.startswith(OFFLOAD_CHANGE))
    link = card_link(gpu)
    assert link is not None and option.cost == FREE and option.peak == offloaded.estimate.memory.peak
    assert option.step_seconds is not None and base.timing is not None
    assert option.step_seconds >= 2 * grads / (link.gbs * 1e9)
    assert option.step_seconds >= base.timing.step_seconds
    inference = answer_from_fit(traced.source, traced.fitted, workload.with_changes(task="inference"), gpu)
    assert not [o for o in instant_options(inference, gpu) if o.label.startswith(OFFLOAD_CHANGE)]
