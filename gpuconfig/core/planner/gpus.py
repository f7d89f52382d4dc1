"""The GPU side of a plan: for each GPU model and count, whether the workload fits and how fast it runs.

Memory does not depend on which GPU runs it (except Hopper's larger cuBLAS workspace), and in data
parallelism each card's step does not depend on the count, so both are computed once and reused across
the whole catalog.
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from functools import cache

from gpuconfig.core.workload.advice import smaller_micro_batches
from gpuconfig.core.workload.answer import timing_for
from gpuconfig.core.workload.communication import traffic_bytes
from gpuconfig.core.workload.estimate import Fitted, GpuSpec, memory_at
from gpuconfig.core.workload.fit import Headroom, judge
from gpuconfig.core.workload.models import ModelSource
from gpuconfig.core.workload.spec import OFFLOAD, Workload

# Data-parallel strategies, least communication first: the planner takes the first that fits. ZeRO-Offload
# (the optimizer on the host) is tried only after every micro-batch with these: its copies cross the card's
# own link and the CPU's optimizer step is not priced.
STRATEGIES = ("ddp", "zero1", "zero2", "fsdp")


@dataclass(frozen=True)
class GpuOption:
    """`count` x `gpu` running the workload: per-device peak, the strategy that makes it fit, its speed."""

    gpu: GpuSpec
    count: int
    strategy: str
    batch: int  # micro-batch per device (the user's, or halved with gradient accumulation to fit)
    grad_accum: int
    peak_bytes: int
    fits: bool
    step_seconds: float | None
    samples_per_s: float | None
    tokens_per_s: float | None
    time_note: str = ""
    comm_seconds: float | None = None  # per optimizer step, over the slowest link between the cards
    link: str = ""  # what the communication time assumed
    extrapolated: str = ""  # why its micro-batch lies past the traced shapes (Fitted.extrapolation); "" where not

    @property
    def throughput(self) -> float | None:
        """What the plan ranks by: tokens/s where the model reads tokens, else samples/s."""
        return self.tokens_per_s if self.tokens_per_s is not None else self.samples_per_s


class GpuOptions:
    """Answers for one workload over any GPU and count, with memory and step times cached."""

    def __init__(
        self, source: ModelSource, fitted: Fitted, workload: Workload, headroom: Headroom, offload: bool = True
    ) -> None:
        """`offload`: ZeRO-Offload may be tried (a training workload whose optimizer has state) when nothing
        else fits."""
        self.source, self.fitted, self.workload, self.headroom = source, fitted, workload, headroom
        self.seq = workload.seq or source.default_seq()
        self.offload = offload and workload.training and workload.device == "cuda"
        self._peak = cache(self._peak_uncached)
        # (step seconds, samples per second of one card, why there is no time) at a micro-batch, cached
        self.timing = cache(self._timing_uncached)
        smaller = [(w.batch, w.grad_accum) for w in smaller_micro_batches(workload)]
        self._micro_batches = [(workload.batch, workload.grad_accum), *smaller]

    def _peak_uncached(self, count: int, strategy: str, batch: int, accum: int, hopper: bool) -> int:
        workload = self.workload.with_changes(gpus=count, strategy=strategy, batch=batch, grad_accum=accum)
        return memory_at(self.fitted, workload, batch, self.seq, 9 if hopper else None).peak

    def _timing_uncached(self, gpu: GpuSpec, batch: int, accum: int) -> tuple[float | None, float | None, str]:
        workload = self.workload.with_changes(gpus=1, batch=batch, grad_accum=accum)
        timing, note = timing_for(self.fitted, workload, self.source, batch, self.seq, gpu)
        if timing is None:
            return None, None, note
        return timing.step_seconds, timing.samples_per_s, ""

    def step_bytes(self, batch: int, accum: int) -> tuple[float, float]:
        """(weight bytes, gradient bytes) of the whole model: what data parallelism moves between cards."""
        workload = self.workload.with_changes(gpus=1, batch=batch, grad_accum=accum)
        memory = memory_at(self.fitted, workload, batch, self.seq)
        return float(memory.weights), self.fitted.at("grad_bytes", batch, self.seq) if workload.training else 0.0

    def host_bytes(self, option: GpuOption) -> float:
        """System memory the option keeps on the host: with ZeRO-Offload, the whole optimizer state and a copy
        of the gradients it updates from (both live in CPU memory, arXiv 2101.06840 section 4.1)."""
        if option.strategy != OFFLOAD:
            return 0.0
        workload = self.workload.with_changes(gpus=1, strategy="ddp", batch=option.batch, grad_accum=option.grad_accum)
        memory = memory_at(self.fitted, workload, option.batch, self.seq)
        return memory.optimizer + self.fitted.at("grad_bytes", option.batch, self.seq)

    def option(self, gpu: GpuSpec, count: int) -> GpuOption:
        """The first way `count` of `gpu` hold the workload: the largest micro-batch that fits with the least
        communication, then (allowed) ZeRO-Offload at the largest micro-batch that fits; or the smallest peak
        when none fits."""
        smallest: GpuOption | None = None
        strategies = STRATEGIES if count > 1 else ("ddp",)
        tries = [(b, a, s) for b, a in self._micro_batches for s in strategies]
        if self.offload:
            tries += [(b, a, OFFLOAD) for b, a in self._micro_batches]
        for batch, accum, strategy in tries:
            peak = self._peak(count, strategy, batch, accum, gpu.cc_major == 9)
            fits = judge(peak, gpu.memory_bytes, self.headroom).fits
            if not fits and smallest is not None and smallest.peak_bytes <= peak:
                continue
            step, per_device, note = self.timing(gpu, batch, accum) if fits else (None, None, "")
            samples = per_device * count if per_device is not None else None
            tokens = samples * self.seq if samples is not None and self.source.reads_tokens else None
            beyond = self.fitted.extrapolation(batch, self.seq)
            option = GpuOption(
                gpu, count, strategy, batch, accum, peak, fits, step, samples, tokens, note, extrapolated=beyond
            )
            if fits:
                return option
            smallest = option
        assert smallest is not None
        return smallest


def with_communication(option: GpuOption, weights: float, grads: float, link_gbs: float, link: str) -> GpuOption:
    """The option with its step paced by the slower of compute and communication: DDP's gradient buckets and
    FSDP's prefetch overlap the two, so neither adds to the other but the slower one sets the pace."""
    if (option.count < 2 and option.strategy != OFFLOAD) or option.step_seconds is None or link_gbs <= 0:
        return option
    comm = traffic_bytes(option.strategy, option.count, weights, grads, option.grad_accum) / (link_gbs * 1e9)
    return paced(option, max(option.step_seconds, comm), comm, link)


def paced(option: GpuOption, step: float, comm: float, link: str) -> GpuOption:
    """The option at a longer step: throughput scaled down with it, the link's time and name recorded."""
    scale = option.step_seconds / step if option.step_seconds and step > 0 else 1.0
    return replace(
        option,
        step_seconds=step,
        samples_per_s=option.samples_per_s * scale if option.samples_per_s is not None else None,
        tokens_per_s=option.tokens_per_s * scale if option.tokens_per_s is not None else None,
        comm_seconds=comm,
        link=link,
    )
