"""What several GPUs send each other, over the card's own link, and how the fits-if table prices it."""

from __future__ import annotations

import pytest

from gpuconfig.core.workload.advice import instant_options
from gpuconfig.core.workload.answer import answer_from_fit, gpu_spec
from gpuconfig.core.workload.communication import Link, card_link, communication_seconds, measured_links, pcie_gbs
from gpuconfig.core.workload.service import TraceService
from gpuconfig.core.workload.spec import Workload


def test_a_cards_link_is_its_pcie_slot_at_the_measured_rate(store) -> None:  # type: ignore[no-untyped-def]
    links = measured_links()
    assert links is not None and "nvbandwidth" in links[1]
    rtx4090 = gpu_spec(store, "nvidia-geforce-rtx-4090")
    link = card_link(rtx4090)
    assert link is not None and rtx4090.pcie_gen == 4
    assert link.gbs == pytest.approx(links[0][4] * (rtx4090.pcie_lanes or 16) / 16)
    assert link.name.startswith("PCIe Gen4 x16")
    assert pcie_gbs({3: 12.0, 4: 24.0}, 5, 8) == 12.0  # the nearest measured generation at or below, by lanes


def test_fsdp_moves_the_weights_twice_per_micro_batch_and_the_gradients_once() -> None:
    pcie = Link(20.0, "test link", "test")
    weights, grads = 10e9, 10e9
    seconds = communication_seconds("fsdp", 4, weights, grads, 2, pcie)
    assert seconds == pytest.approx((2 * 2 * 0.75 * weights + 0.75 * grads) / 20e9)
    assert communication_seconds("ddp", 4, weights, grads, 2, pcie) == pytest.approx(2 * 0.75 * grads / 20e9)
    assert communication_seconds("fsdp", 1, weights, grads, 1, pcie) == 0


def test_fits_if_prices_fsdp_with_its_traffic_over_the_cards_link(store) -> None:  # type: ignore[no-untyped-def]
    """GPT-2 XL (1.6 B parameters, TF32, SGD) at one 8-token sequence on an 8 GB card: its own step is short,
    while FSDP gathers its 6 GB of fp32 weights twice per step over PCIe, so sharding over n cards is paced
    by the link, not n times faster."""
    gpu = gpu_spec(store, "nvidia-geforce-rtx-3070")
    workload = Workload(model="gpt2-xl", task="finetune", batch=1, seq=8, precision="tf32", optimizer="sgd")
    traced = TraceService().fit_for(workload)
    base = answer_from_fit(traced.source, traced.fitted, workload, gpu)
    assert base.timing is not None and base.estimate.memory.peak > gpu.memory_bytes
    link = card_link(gpu)
    assert link is not None
    fsdp = [o for o in instant_options(base, gpu) if o.label.startswith("FSDP over")]
    assert fsdp and all(link.name in o.label for o in fsdp)
    weights = float(base.estimate.memory.weights)
    grads = traced.fitted.at("grad_bytes", 1, 8)
    for option in fsdp:
        n = option.workload.gpus
        comm = communication_seconds("fsdp", n, weights, grads, 1, link)
        assert option.step_seconds is not None and option.step_seconds >= comm
        assert option.time_factor == pytest.approx(option.step_seconds / n / base.timing.step_seconds)
        assert option.time_factor > 1 / n  # not the n-fold speed-up the traffic rules out


def test_sxm_modules_talk_over_their_nvlink_and_pcie_cards_over_their_slot(store) -> None:  # type: ignore[no-untyped-def]
    h100 = gpu_spec(store, "nvidia-h100-sxm")
    link = card_link(h100)
    assert link is not None and h100.nvlink_gbs and link.gbs == pytest.approx(h100.nvlink_gbs / 2)
    assert link.name.startswith("NVLink")
    pcie_card = card_link(gpu_spec(store, "nvidia-h100-pcie"))
    assert pcie_card is not None and pcie_card.name.startswith("PCIe Gen5")
