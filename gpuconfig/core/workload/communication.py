"""What several GPUs send each other per optimizer step, and over which link.

Ring collectives, as NCCL runs them (nccl-tests, doc/PERFORMANCE.md): an all-reduce moves 2 (n-1)/n of the
buffer through each card's link, an all-gather or a reduce-scatter (n-1)/n. DDP and ZeRO-1/2 reduce the
gradients once per optimizer step (an all-reduce); FSDP gathers the weights for the forward and again for
the backward of every micro-batch and reduce-scatters the gradients. SXM modules reach each other over the
NVLink their board wires; other cards over PCIe, each through its own slot: the measured per-direction copy
rate of that link (catalog/build_rules.toml, [links]) bounds the traffic.
"""

from __future__ import annotations

import tomllib
from dataclasses import dataclass
from functools import cache

from gpuconfig.core.i18n import translate
from gpuconfig.core.paths import catalog_dir
from gpuconfig.core.workload.estimate import GpuSpec
from gpuconfig.core.workload.spec import OFFLOAD

RULES_FILE = "build_rules.toml"


def traffic_bytes(strategy: str, count: int, weights: float, grads: float, grad_accum: int) -> float:
    """Bytes each card sends per optimizer step in a ring: DDP and ZeRO-1/2 reduce the gradients once per
    step (reduce-scatter plus all-gather, 2 (n-1)/n of them); FSDP also gathers the weights for the forward and
    the backward of every micro-batch. ZeRO-Offload is ZeRO-2 whose optimizer runs on the host: each card also
    copies its share of the gradients down and of the updated weights (those trained: as many bytes as their
    gradients) back up, once per step."""
    if strategy == OFFLOAD:
        host = 2 * grads / count
        return host + (traffic_bytes("zero2", count, weights, grads, grad_accum) if count > 1 else 0.0)
    if count < 2:
        return 0.0
    share = (count - 1) / count
    if strategy == "fsdp":
        return grad_accum * 2 * share * weights + share * grads
    return 2 * share * grads


def pcie_gbs(x16_gbs: dict[int, float], generation: int, lanes: int) -> float:
    """Measured copy rate of a PCIe link: the nearest measured generation at or below, scaled by lanes."""
    known = [g for g in x16_gbs if g <= generation] or [min(x16_gbs)]
    return x16_gbs[max(known)] * lanes / 16


@cache
def measured_links() -> tuple[dict[int, float], str] | None:
    """The measured x16 copy rates by PCIe generation and their source; None when the file lacks them."""
    try:
        with (catalog_dir() / RULES_FILE).open("rb") as handle:
            links = tomllib.load(handle)["links"]
        rates = {g: float(links[f"gen{g}_x16_gbs"]) for g in (3, 4, 5)}
        return rates, str(links["source"])
    except (OSError, tomllib.TOMLDecodeError, KeyError, TypeError, ValueError):
        return None


@dataclass(frozen=True)
class Link:
    gbs: float  # per direction
    name: str
    source: str


def card_link(gpu: GpuSpec) -> Link | None:
    """The link cards of this model reach each other over: NVLink for an SXM module (its board always wires
    it; the catalog's figure counts both directions, so half of it each way), else the card's own PCIe slot
    at the generation the catalog gives (x16 where the catalog has no lane count; an NVLink bridge on a
    PCIe card is optional and not assumed); None when neither is known."""
    if gpu.form_factor.upper().startswith("SXM") and gpu.nvlink_gbs:
        each_way = gpu.nvlink_gbs / 2
        name = translate("Workload", "NVLink, {rate:g} GB/s per direction").format(rate=each_way)
        return Link(each_way, name, translate("Workload", "the catalog's NVLink figure for the module"))
    links = measured_links()
    if links is None or not gpu.pcie_gen:
        return None
    lanes = gpu.pcie_lanes or 16
    rate = pcie_gbs(links[0], gpu.pcie_gen, lanes)
    name = (
        translate("Workload", "PCIe Gen{generation} x{lanes}, {rate:g} GB/s per direction")
        if gpu.pcie_lanes
        else translate(
            "Workload",
            "PCIe Gen{generation} x{lanes} (x16 assumed: no lane count in the catalog), {rate:g} GB/s per direction",
        )
    )
    return Link(rate, name.format(generation=gpu.pcie_gen, lanes=lanes, rate=rate), links[1])


def communication_seconds(
    strategy: str, count: int, weights: float, grads: float, grad_accum: int, link: Link
) -> float:
    """Seconds each card spends sending its share of the step's collectives over `link`."""
    return traffic_bytes(strategy, count, weights, grads, grad_accum) / (link.gbs * 1e9)


# torch.nn.parallel.DistributedDataParallel's default bucket_cap_mb: gradients are all-reduced in buckets of 25 MiB
# as backward produces them (https://pytorch.org/docs/stable/generated/torch.nn.parallel.DistributedDataParallel.html).
DDP_BUCKET_BYTES = 25 * 1024 * 1024
# Backward computes two of a step's three matrix products per layer (the gradients of the input and of the
# weight), so about two thirds of a step's work: the time DDP's all-reduce can hide under.
BACKWARD_SHARE = 2 / 3


def exposed_seconds(
    strategy: str, count: int, weights: float, grads: float, grad_accum: int, link: Link, micro_s: float
) -> float:
    """Seconds a step waits on its collectives beyond its own work (`micro_s`, one micro-batch's).

    DDP and ZeRO-1/2 all-reduce each gradient bucket as soon as backward has produced it, while backward goes on
    (Li et al., "PyTorch Distributed: Experiences on Accelerating Data Parallel Training", PVLDB 13(12), 2020);
    with gradient accumulation only the last micro-batch's backward reduces. What backward cannot hide waits,
    and the last bucket always does. FSDP prefetches each unit's all-gather while the one before computes and
    reduce-scatters during backward (Zhao et al., "PyTorch FSDP", PVLDB 16(12), 2023): what the step's work
    cannot hide waits. Other strategies: their collectives are not priced here (0)."""
    if count < 2:
        return 0.0
    rate = link.gbs * 1e9
    traffic = traffic_bytes(strategy, count, weights, grads, grad_accum)
    if strategy in ("ddp", "zero1", "zero2"):
        last_bucket = 2 * (count - 1) / count * min(grads, DDP_BUCKET_BYTES) / rate
        return max(last_bucket, traffic / rate - BACKWARD_SHARE * micro_s)
    if strategy == "fsdp":
        return max(0.0, traffic / rate - grad_accum * micro_s)
    return 0.0
