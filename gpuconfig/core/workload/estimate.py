"""The instant tier: closed-form memory and FLOPs fitted from a trace, for any batch, length and GPU count.

A trace measures three points: (b, s), (2b, s) and (b, s/2). Every traced quantity q is fitted as
q(b, s) = c + b * (alpha * s + beta * s^2): weights, gradients and optimizer states are the constant c,
activations grow linearly with the batch and linearly plus quadratically with the length (attention
scores), and the fit reproduces the traced points exactly. Memory is read at the peak of each phase of
the step (forward, backward, optimizer step), each phase fitted on its own: the step's peak is the
largest phase's at the batch and length asked. Deep models traced at shallow depths are extended to their
real depth first (core/workload/depth.py). Parallel strategies then divide what they divide, and the
device adds its own overheads, each shown as its own line with its source.
"""

from __future__ import annotations

import math
from collections.abc import Callable
from dataclasses import dataclass, field, replace
from typing import Any

from gpuconfig.core.i18n import QT_TRANSLATE_NOOP, translate
from gpuconfig.core.units import format_bytes
from gpuconfig.core.workload import cpu_heap
from gpuconfig.core.workload.depth import CATEGORIES, PHASES, DepthCheck, check_depth, extrapolated, quantities
from gpuconfig.core.workload.models import ModelSource
from gpuconfig.core.workload.runner import Trace
from gpuconfig.core.workload.spec import OFFLOAD, Workload

MIB = 1024 * 1024


@dataclass(frozen=True)
class Overhead:
    """One line of what the device adds: `name` and `source` are for people (in the language in use where the
    answer made them); `key` says which overhead it is, for code."""

    name: str
    bytes: int
    source: str
    key: str = ""  # cuda_context, cublas_workspace, caching_allocator, ddp_buckets, runtime, cpu_allocator, cpu_heap


# Per-device additions a CUDA run pays that no tensor of the model accounts for. The names and sources are in
# English here; an answer's lines say them in the language in use (said).
CUDA_CONTEXT = Overhead(
    QT_TRANSLATE_NOOP("Workload", "CUDA context and kernels (lazy module loading)"),
    287_047_680,
    QT_TRANSLATE_NOOP(
        "Workload",
        "pytorch/pytorch#86509: 287,047,680 bytes with CUDA_MODULE_LOADING=LAZY (PyTorch's default since 1.13) "
        "against 666,632,192 eager; the real figure varies with GPU, driver and libraries: the probe measures yours",
    ),
    "cuda_context",
)
CUBLAS_WORKSPACE = Overhead(
    QT_TRANSLATE_NOOP("Workload", "cuBLAS workspace"),
    2 * 4096 * 1024 + 8 * 16 * 1024,
    QT_TRANSLATE_NOOP(
        "Workload", "PyTorch CublasHandlePool.cpp default CUBLAS_WORKSPACE_CONFIG :4096:2:16:8 (pytorch/pytorch#89027)"
    ),
    "cublas_workspace",
)
CUBLAS_WORKSPACE_HOPPER = Overhead(
    QT_TRANSLATE_NOOP("Workload", "cuBLAS workspace"),
    32 * MIB,
    QT_TRANSLATE_NOOP(
        "Workload",
        "PyTorch CublasHandlePool.cpp: 32 MiB on Hopper (compute capability 9.x), cuBLAS's recommendation "
        "(pytorch/pytorch#89027, #120925)",
    ),
    "cublas_workspace",
)


def said(overhead: Overhead) -> Overhead:
    """`overhead` with its name and source in the language in use (those marked where they are defined)."""
    return replace(overhead, name=translate("Workload", overhead.name), source=translate("Workload", overhead.source))


def cublas_workspaces(cc_major: int | None, training: bool) -> Overhead:
    """The cuBLAS workspace a step holds: one for the forward's thread, and one more for backward's."""
    one = said(CUBLAS_WORKSPACE_HOPPER if cc_major == 9 else CUBLAS_WORKSPACE)
    if not training:
        return one
    source = translate(
        "Workload",
        "{source}; twice when training: cuBLAS handles are per thread (aten/src/ATen/cuda/CublasHandlePool.cpp) and "
        "each handle and stream has its own workspace (cublas_handle_stream_to_workspace), and autograd runs backward "
        "on its own thread for each CUDA device (torch/csrc/autograd/engine.cpp, device threads): measured on an H100 "
        "(benchmarks/estimate_accuracy_gpu.py), training runs held one workspace more than inference runs",
    ).format(source=one.source)
    return Overhead(one.name, 2 * one.bytes, source, one.key)


CACHING_ALLOCATOR = QT_TRANSLATE_NOOP(
    "Workload", "CUDA caching allocator (reserved beyond the tensors: segments, rounding, splits)"
)
CACHING_SOURCE = QT_TRANSLATE_NOOP(
    "Workload",
    "every traced allocation and free replayed through a model of PyTorch's CUDA caching allocator "
    "(c10/cuda/CUDACachingAllocator.cpp, default settings: 512-byte rounding, 2 MiB small and 20 MiB large "
    "segments, best fit, splitting); reserved memory is what nvidia-smi shows and what runs out first",
)
DDP_BUCKETS_SOURCE = QT_TRANSLATE_NOOP(
    "Workload",
    "torch.nn.parallel.DistributedDataParallel: gradients are copied into communication buckets of the same "
    "total size unless gradient_as_bucket_view=True",
)
TP_ACTIVATIONS_SOURCE = (
    "Korthikanti et al. 2022 (arXiv 2205.05198): activations per layer sbh(10 + 24/t + 5as/(ht)) with tensor "
    "parallelism t, against sbh(34 + 5as/h) without"
)


@dataclass(frozen=True)
class Term:
    """q(b, s) = c + b * (alpha * s + beta * s^2)."""

    c: float
    alpha: float
    beta: float

    def at(self, batch: int, seq: int) -> float:
        return max(0.0, self.c + batch * (self.alpha * seq + self.beta * seq * seq))


def fit_term(points: list[tuple[int, int, float]]) -> Term:
    """Fit from (b0, s0), (2 b0, s0) and optionally (b0, s1): exact at every point given."""
    (b0, s0, q0), (_, _, q2) = points[0], points[1]
    per_sample = (q2 - q0) / b0  # f(s0) = alpha s0 + beta s0^2
    c = q0 - b0 * per_sample
    if len(points) < 3 or points[2][1] == s0:
        return Term(c, per_sample / s0, 0.0)
    _, s1, q1 = points[2]
    f1 = (q1 - c) / b0
    beta = (f1 / s1 - per_sample / s0) / (s1 - s0)
    alpha = per_sample / s0 - beta * s0
    return Term(c, alpha, beta)


def _at_full_depth(trace: Trace) -> list[tuple[int, int, dict[str, float]]]:
    """The traced points at the model's real depth: shallow traces extended phase by phase."""
    if trace.layers is None:
        return [(p["batch"], p["seq"], quantities(p)) for p in trace.points]
    return extrapolated(trace.points, trace.layers)


KERNEL_CALLS = ("kernel_calls_measured", "kernel_calls_left_out")  # as each traced point counts them


@dataclass(frozen=True)
class Fitted:
    """Every traced quantity as a function of batch and length."""

    terms: dict[str, Term]
    runtime_rss: int
    layers: int | None  # the model's depth when it was extended from shallow traces
    heap_replayed: bool = False
    attention: dict[str, Any] = field(default_factory=dict)  # what the tracer saw of the model's attention
    depth: DepthCheck | None = None  # how well the shallow traces were linear in depth
    fallback: str = ""  # why the full depth was traced after shallow traces
    # Each traced point's products by intensity class, {"kind.dtype.class": (FLOPs, bytes)}, with the totals they
    # are scaled by elsewhere: an operator's class moves with the batch and the length, so classes are not fitted
    # as lines but read at the nearest traced point (intensity_classes).
    classes_at: tuple[tuple[int, int, dict[str, Any]], ...] = ()
    runtime_how: str = ""  # where the runtime's memory was measured, as the worker said
    # The most kernel calls any traced point measured and left out (workers/tracer/kernel_scratch.py): counts, not
    # quantities of the model, so they are not fitted.
    kernel_calls: tuple[float, float] = (0.0, 0.0)
    # The (batch, length) shapes traced (at full depth, or extended to it). Between them a quantity is read off
    # lines through exact points; beyond them the lines are extended where no trace looked (see extrapolation).
    shapes: tuple[tuple[int, int], ...] = ()

    def at(self, key: str, batch: int, seq: int) -> float:
        term = self.terms.get(key)
        return 0.0 if term is None else term.at(batch, seq)

    def covers(self, batch: int, seq: int) -> bool:
        """Whether (`batch`, `seq`) lies within the traced shapes' batches and lengths (a fit made before
        shapes were kept covers every shape, as it was taken to)."""
        if not self.shapes:
            return True
        batches, seqs = [b for b, _ in self.shapes], [s for _, s in self.shapes]
        return min(batches) <= batch <= max(batches) and min(seqs) <= seq <= max(seqs)

    def extrapolation(self, batch: int, seq: int) -> str:
        """Why an answer at (`batch`, `seq`) is an extrapolation, in words; "" where the traced shapes cover it.

        Each quantity is a line through the traced shapes, exact at each of them. The step's peak is the
        largest of many moments' memory, and which moment is largest moves as the batch grows: at a small batch
        a training step peaks where the gradients and optimizer states are all alive, at a larger one where the
        activations are; the caching allocator's reserved memory moves in steps of its segments. A line
        through two traced batches follows the moment that peaked there and no other, so beyond them it can be
        far off either way (GPT-2's fine-tune on a CUDA GPU, traced at batch 1 and 2 and read at 16: 13 % under
        a trace at 16; its generation traced at 1 and read at 512: 77 % over)."""
        if self.covers(batch, seq):
            return ""
        batches, seqs = sorted({b for b, _ in self.shapes}), sorted({s for _, s in self.shapes})
        return translate(
            "Workload",
            "batch {batch} at length {seq} lies outside the traced shapes (batch {b0}-{b1}, length {s0}-{s1}): "
            "extended along lines no trace checked there, where the peak can move to another moment of the step; "
            "no measured error band applies, trace this shape for one",
        ).format(batch=batch, seq=seq, b0=batches[0], b1=batches[-1], s0=seqs[0], s1=seqs[-1])

    def flops_by_dtype(self, batch: int, seq: int, prefix: str = "flops.") -> dict[str, float]:
        """FLOPs per compute dtype; prefix "convflops." gives the convolutions' share of them."""
        return {k.removeprefix(prefix): self.at(k, batch, seq) for k in self.terms if k.startswith(prefix)}

    def method(self, layers: int | None) -> str:
        """How the estimate was obtained, for a model of `layers` layers (None: the model does not say)."""
        if self.depth is not None:
            return self.depth.method()
        if layers and self.fallback:
            return translate("Workload", "traced at full depth ({layers} layers): {why}").format(
                layers=layers, why=self.fallback
            )
        if layers:
            return translate("Workload", "traced at full depth ({layers} layers)").format(layers=layers)
        if self.fallback:
            return translate("Workload", "traced at full depth: {why}").format(why=self.fallback)
        return translate("Workload", "traced at full depth")


ROOF = ("roofflops.", "roofbytes.")


def point_classes(values: dict[str, float]) -> dict[str, Any]:
    """One traced point's intensity classes {"kind.dtype.class": (FLOPs, bytes)} under "classes", and the totals
    they are scaled from (its FLOPs per dtype, convolutions' FLOPs per dtype, all products' bytes)."""
    classes = {
        key.removeprefix(ROOF[0]): (value, values.get(ROOF[1] + key.removeprefix(ROOF[0]), 0.0))
        for key, value in values.items()
        if key.startswith(ROOF[0])
    }
    totals = {k: v for k, v in values.items() if k.startswith(("flops.", "convflops.")) or k == "matmul_bytes"}
    return {"classes": classes, "totals": totals}


def fit(trace: Trace) -> Fitted:
    points = _at_full_depth(trace)
    keys = sorted({k for _, _, values in points for k in values if not k.startswith(ROOF)})
    terms = {k: fit_term([(b, s, values.get(k, 0.0)) for b, s, values in points]) for k in keys}
    classes_at = tuple((b, s, point_classes(values)) for b, s, values in points)
    replayed = all(p.get("cpu_heap_peak_bytes") is not None for p in trace.points)
    attention = trace.points[0].get("attention", {}) if trace.points else {}
    depth = check_depth(trace.points, trace.layers) if trace.layers is not None else None
    runtime = int(trace.runtime.get("baseline_rss_bytes", 0))
    how = str(trace.runtime.get("baseline_how", ""))
    measured, left_out = (max((float(p.get(key) or 0) for p in trace.points), default=0.0) for key in KERNEL_CALLS)
    shapes = tuple(sorted({(int(b), int(s)) for b, s, _ in points}))
    return Fitted(
        terms,
        runtime,
        trace.layers,
        replayed,
        attention,
        depth,
        trace.fallback,
        classes_at,
        how,
        (measured, left_out),
        shapes,
    )


@dataclass(frozen=True)
class Memory:
    """Bytes per device at the peak. `peak` is everything the device must hold; `allocated_peak` is what
    PyTorch's allocator hands out (torch.cuda.max_memory_allocated measures the same)."""

    weights: int
    gradients: int
    optimizer: int
    activations: int
    kv_cache: int
    overhead: int
    peak: int
    allocated_peak: int
    phase: str
    overheads: tuple[Overhead, ...] = field(default=())
    divided_by: str = ""


def memory_at(fitted: Fitted, workload: Workload, batch: int, seq: int, cc_major: int | None = None) -> Memory:
    """Peak memory per device for `batch` per device at length `seq` (the prompt, for inference)."""
    kv = 0.0
    if not workload.training and fitted.at("kv_cache_bytes", batch, seq):
        per_token = fitted.at("kv_cache_bytes", batch, seq) / max(1, batch * seq)
        kv = per_token * batch * (seq + workload.generate)
    best: tuple[float, str, dict[str, float]] | None = None
    for phase in (p for p in PHASES if f"{p}.weights" in fitted.terms):  # each phase's peak is a candidate
        parts = {
            "weights": fitted.at(f"{phase}.weights", batch, seq) + fitted.at(f"{phase}.buffers", batch, seq),
            "gradients": fitted.at(f"{phase}.gradients", batch, seq),
            "optimizer": fitted.at(f"{phase}.optimizer", batch, seq),
            "activations": sum(fitted.at(f"{phase}.{c}", batch, seq) for c in ("activations", "temporaries", "inputs")),
        }
        if kv:  # the traced prompt's cache is inside the activations; the full cache is its own line
            parts["activations"] = max(0.0, parts["activations"] - fitted.at("kv_cache_bytes", batch, seq))
        if workload.training and workload.grad_accum > 1 and phase != "optimizer step":
            # Accumulating, every micro-batch after the first runs its forward and backward with the whole
            # gradient of the ones before it alive (it is zeroed only after the optimizer step).
            parts["gradients"] = max(parts["gradients"], fitted.at("grad_bytes", batch, seq))
        total = sum(parts.values())
        if best is None or total > best[0]:
            best = (total, phase, parts)
    if best is None:
        best = (0.0, "forward", dict.fromkeys(("weights", "gradients", "optimizer", "activations"), 0.0))
    _, phase, parts = best
    parts, divided = _divide(parts, fitted, workload)
    tensors = sum(parts.values()) + kv
    overheads = _overheads(fitted, workload, batch, seq, cc_major, phase)
    slack = caching_slack(fitted, batch, seq, phase)
    if slack is not None:  # a share of the tensors each device holds (FSDP, ZeRO and TP divide them first)
        caching = Overhead(CACHING_ALLOCATOR, round(slack * tensors), CACHING_SOURCE, "caching_allocator")
        overheads.append(said(caching))
    allocated = tensors + sum(o.bytes for o in overheads if o.key == "cublas_workspace")
    extra = sum(o.bytes for o in overheads)
    return Memory(
        weights=round(parts["weights"]),
        gradients=round(parts["gradients"]),
        optimizer=round(parts["optimizer"]),
        activations=round(parts["activations"]),
        kv_cache=round(kv),
        overhead=round(extra),
        peak=round(tensors + extra),
        allocated_peak=round(allocated) if workload.device == "cuda" else round(tensors),
        phase=phase,
        overheads=tuple(overheads),
        divided_by=divided,
    )


def caching_slack(fitted: Fitted, batch: int, seq: int, phase: str) -> float | None:
    """What the CUDA caching allocator reserves beyond the tensors, as a share of them, from the traced
    allocations replayed through its model; None when the trace was not of a CUDA run."""
    reserved = fitted.at("cuda_reserved_peak_bytes", batch, seq)
    traced = sum(fitted.at(f"{phase}.{c}", batch, seq) for c in CATEGORIES)
    if not reserved or traced <= 0:
        return None
    return max(0.0, reserved / traced - 1.0)


def _divide(parts: dict[str, float], fitted: Fitted, workload: Workload) -> tuple[dict[str, float], str]:
    n = workload.gpus
    if workload.strategy == OFFLOAD:  # ZeRO-2 with the optimizer's state in CPU memory
        return {**parts, "optimizer": 0.0, "gradients": parts["gradients"] / n}, OFFLOAD
    if n == 1:
        return parts, ""
    out = dict(parts)
    strategy = workload.strategy
    if strategy == "zero1":
        out["optimizer"] /= n
    elif strategy == "zero2":
        out["optimizer"] /= n
        out["gradients"] /= n
    elif strategy in ("fsdp", "pp"):
        for key in ("weights", "gradients", "optimizer"):
            out[key] /= n
    elif strategy == "tp":
        for key in ("weights", "gradients", "optimizer"):
            out[key] /= n
        out["activations"] *= (10 + 24 / n) / 34
    return out, strategy


def objects_source() -> str:
    """Where the replayed small blocks come from, as the answer says it."""
    objects = cpu_heap.autograd_objects()
    if objects:
        return str(objects["source"])
    return translate("Workload", "not measured: catalog/autograd_objects.toml is missing, tensors only")


def runtime_source(how: str) -> str:
    """Where the runtime's memory was measured, as the answer says it."""
    if how == "fresh process":
        return translate(
            "Workload",
            "resident memory of a fresh process that imported what building the model imported and ran one "
            "warm-up step: what a real run holds before its first tensor",
        )
    if how:
        return translate(
            "Workload", "measured in the trace process after building the model and one warm-up step ({how})"
        ).format(how=how.removeprefix("trace process ").strip("()"))
    return translate("Workload", "measured in the trace process after building the model and one warm-up step")


def measured_kernels(fitted: Fitted) -> str:
    """What the allocator line says of the convolution and batch norm calls run for real to measure their
    buffers (workers/tracer/kernel_scratch.py): nothing where the model has none, and that some were left out
    where any traced point left one out (every batch's answer is read from the lines through those points)."""
    measured, left_out = (count >= 0.5 for count in fitted.kernel_calls)
    if not measured and not left_out:
        return ""
    if not left_out:
        return translate(
            "Workload",
            "; and the buffers each convolution and batch norm call takes while it runs, measured by running each "
            "distinct call once on this machine's CPU at its traced shapes",
        )
    return translate(
        "Workload",
        "; and the buffers each convolution and batch norm call takes while it runs, measured by running each "
        "distinct call once on this machine's CPU at its traced shapes, except some convolution or batch norm "
        "calls too large or too slow to run here, or that failed, whose buffers are left out, so this line may "
        "be low",
    )


def placements(fitted: Fitted, batch: int, seq: int, traced_tensors: float) -> str:
    """How far the replayed heap moves with where the small blocks land, as the allocator line says it."""
    low = fitted.at("cpu_heap_peak_low_bytes", batch, seq)
    high = fitted.at("cpu_heap_peak_high_bytes", batch, seq)
    if not high:
        return ""
    median = fitted.at("cpu_heap_peak_bytes", batch, seq)  # each line extended on its own: keep them in order
    least, most = (format_bytes(max(0.0, value - traced_tensors)) for value in (min(low, median), max(high, median)))
    return translate(
        "Workload",
        "; where each small block lands, and the state glibc's heap starts from, are not known and move the heap: "
        "this is the median over shuffled placements of their sizes from several heap starts, which gave {least} "
        "to {most}",
    ).format(least=least, most=most)


def _overheads(
    fitted: Fitted,
    workload: Workload,
    batch: int,
    seq: int,
    cc_major: int | None,
    phase: str,
) -> list[Overhead]:
    if workload.device == "cpu":
        heap = fitted.at("cpu_heap_peak_bytes", batch, seq)
        traced_tensors = sum(fitted.at(f"{phase}.{c}", batch, seq) for c in CATEGORIES)
        allocator = (
            Overhead(
                translate("Workload", "CPU allocator (freed memory glibc keeps for reuse)"),
                round(max(0.0, heap - traced_tensors)),
                translate(
                    "Workload",
                    "every traced allocation and free replayed through this machine's glibc malloc "
                    "(posix_memalign, 64-byte aligned as PyTorch's CPU allocator) in a fresh copy of the trace "
                    "process, with the small blocks a real step allocates among them (each tensor's headers, each "
                    "autograd node's objects until backward runs it, the aligned blocks some CPU kernels allocate "
                    "and free while they run, such as GELU's oneDNN objects; {objects}{measured}); the growth of "
                    "its heap and mapped chunks (mallinfo2) beyond the tensors{placements}",
                ).format(
                    objects=objects_source(),
                    measured=measured_kernels(fitted),
                    placements=placements(fitted, batch, seq, traced_tensors),
                ),
                "cpu_allocator",
            )
            if fitted.heap_replayed
            else Overhead(
                translate("Workload", "CPU allocator (freed memory kept for reuse)"),
                0,
                translate(
                    "Workload",
                    "not replayed: only glibc's malloc (Linux) can be replayed; memory the allocator keeps is not "
                    "counted",
                ),
                "cpu_allocator",
            )
        )
        overheads = [
            Overhead(
                translate("Workload", "PyTorch runtime (interpreter, libraries, model code)"),
                fitted.runtime_rss,
                runtime_source(fitted.runtime_how),
                "runtime",
            ),
            allocator,
        ]
        kept = cpu_heap.kept_bytes(lambda key: fitted.at(key, batch, seq)) if fitted.heap_replayed else None
        if kept is not None:
            overheads.append(Overhead(translate("Workload", cpu_heap.NAME), *kept, "cpu_heap"))
        return overheads
    overheads = [said(CUDA_CONTEXT), cublas_workspaces(cc_major, workload.training)]
    if workload.gpus > 1 and workload.strategy == "ddp" and workload.training:
        buckets = Overhead(
            translate("Workload", "DDP gradient buckets"),
            round(fitted.at("grad_bytes", batch, seq)),
            translate("Workload", DDP_BUCKETS_SOURCE),
            "ddp_buckets",
        )
        overheads.append(buckets)
    return overheads


@dataclass(frozen=True)
class Estimate:
    workload: Workload
    model_name: str
    seq: int
    params: int
    trainable_params: int
    flops_per_step: int  # per device, one optimizer step (all micro-batches)
    memory: Memory
    method: str
    trace_seconds: float
    extrapolated: str = ""  # why the traced shapes do not cover this one (Fitted.extrapolation); "" where they do


def estimate_from_fit(
    source: ModelSource,
    workload: Workload,
    fitted: Fitted,
    seq: int,
    trace_seconds: float = 0.0,
    cc_major: int | None = None,
) -> Estimate:
    batch = workload.batch
    memory = memory_at(fitted, workload, batch, seq, cc_major)
    flops = fitted.at("flops", batch, seq) * workload.grad_accum
    if workload.strategy == "tp" and workload.gpus > 1:
        flops /= workload.gpus
    method = fitted.method(source.layers)
    return Estimate(
        workload=workload,
        model_name=source.name,
        seq=seq,
        params=round(fitted.at("params", batch, seq)),
        trainable_params=round(fitted.at("trainable_params", batch, seq)),
        flops_per_step=round(flops),
        memory=memory,
        method=method,
        trace_seconds=trace_seconds,
        extrapolated=fitted.extrapolation(batch, seq),
    )


@dataclass(frozen=True)
class GpuSpec:
    """The catalog figures the time model reads (dense tensor rates; None where the catalog has none)."""

    id: str
    name: str
    memory_bytes: int
    bandwidth_gbs: float
    fp32_tflops: float | None
    tf32_tflops: float | None
    fp16_tflops: float | None
    bf16_tflops: float | None
    fp8_tflops: float | None
    cc_major: int | None
    cc_minor: int | None = None
    pcie_gen: int | None = None
    pcie_lanes: int | None = None
    nvlink_gbs: float | None = None  # both directions, as vendors give it
    form_factor: str = ""
    measured: str = ""  # where its rates and bandwidth were measured, when they are not the datasheet's
    # The datasheet's FP32 rate, kept when measured rates replace fp32_tflops: it is the SMs' count times their clock
    # (sm_cycles_per_s), which a probe's matmuls do not measure.
    datasheet_fp32_tflops: float | None = None
    # The best BF16 matrix-product rate measured on this card where one is published (Maximum Achievable Matmul FLOPS:
    # torch.mm over a search of shapes; catalog field bf16_matmul_best_tflops): what its FP16 and BF16 products are
    # priced at instead of the datasheet's dense rate, which datacenter cards fall well short of (an H100 SXM reaches
    # 80 % of it) and GeForce cards can pass at their boost clocks. None where none is published, or where a probe
    # measured the machine's own rates.
    best_half_tflops: float | None = None

    @classmethod
    def from_specs(cls, part_id: str, name: str, specs: dict[str, Any]) -> GpuSpec:
        cc = specs.get("compute_capability")
        return cls(
            part_id,
            name,
            int(float(specs.get("memory_gb") or 0) * 1024**3),  # vendors' "GB" of GPU memory are GiB
            float(specs.get("memory_bandwidth_gbs") or 0),
            specs.get("fp32_tflops"),
            specs.get("tf32_tensor_tflops"),
            specs.get("fp16_tensor_tflops"),
            specs.get("bf16_tensor_tflops"),
            specs.get("fp8_tensor_tflops"),
            int(str(cc).split(".")[0]) if cc else None,
            int(str(cc).split(".")[1]) if cc and "." in str(cc) else None,
            int(specs["pcie_gen"]) if specs.get("pcie_gen") else None,
            int(specs["pcie_lanes"]) if specs.get("pcie_lanes") else None,
            float(specs["nvlink_gbs"]) if specs.get("nvlink_gbs") else None,
            str(specs.get("form_factor") or ""),
            datasheet_fp32_tflops=specs.get("fp32_tflops"),
            best_half_tflops=specs.get("bf16_matmul_best_tflops"),
        )

    @property
    def sm_cycles_per_s(self) -> float | None:
        """Multiprocessor cycles a second, all SMs together: the datasheet's FP32 rate over the FP32 results an SM
        gives per clock (FP32_PER_SM_CLOCK); None where either is unknown (not an NVIDIA GPU, a compute capability
        the table lacks, or measured rates with no datasheet behind them)."""
        known = self.cc_major is not None and self.cc_minor is not None
        lanes = FP32_PER_SM_CLOCK.get((self.cc_major or 0, self.cc_minor or 0)) if known else None
        fp32 = self.datasheet_fp32_tflops
        if fp32 is None and not self.measured:  # a spec given by hand: its FP32 rate is the datasheet's
            fp32 = self.fp32_tflops
        if not lanes or not fp32:
            return None
        return float(fp32) * 1e12 / 2 / lanes  # an FMA is two FLOPs


# 32-bit floating-point add, multiply and multiply-add results per clock per multiprocessor, by compute capability:
# NVIDIA, CUDA C++ Programming Guide, "Arithmetic Instructions", table "Throughput of Native Arithmetic
# Instructions" (https://docs.nvidia.com/cuda/cuda-c-programming-guide/index.html#arithmetic-instructions).
FP32_PER_SM_CLOCK = {
    (6, 0): 64,
    (6, 1): 128,
    (7, 0): 64,
    (7, 5): 64,
    (8, 0): 64,
    (8, 6): 128,
    (8, 9): 128,
    (9, 0): 128,
}  # Blackwell (10.x, 12.x) is left out until a source read here gives its column


@dataclass(frozen=True)
class Efficiency:
    """Fractions of the dense peak rate and of the memory bandwidth that real steps reach, fitted on
    published measured results (catalog/efficiency.toml, written by benchmarks/time_calibration.py)."""

    compute: float  # matrix multiplications and attention
    memory: float
    source: str
    conv: float = 1.0  # convolutions (cuDNN)
    # Multiprocessor cycles each element of channels-first batch normalization takes on a CUDA GPU (its kernels
    # are paced by the SMs where the bandwidth is high beside them: counting.BATCH_NORM); None: not calibrated,
    # its bytes take the bandwidth share as every other operator's.
    batch_norm_cycles_per_element: float | None = None

    def other_seconds(self, memory_s: float, batch_norm_s: float, batch_norm_sm_s: float) -> float:
        """The operators other than products: all their bytes take `memory_s` at the full bandwidth, of which
        batch normalization takes `batch_norm_s`, or `batch_norm_sm_s` at one SM cycle per element where its
        kernels are paced by the SMs (0: they are not); that part takes the longer of its two paces."""
        rest = (memory_s - batch_norm_s) / self.memory
        paced = batch_norm_sm_s * (self.batch_norm_cycles_per_element or 0.0)
        return rest + max(batch_norm_s / self.memory, paced)


class NoRate(ValueError):
    """The catalog has no dense rate for the precision this workload computes in."""


HALF_DTYPES = ("bfloat16", "float16")


def rate_tflops(gpu: GpuSpec, dtype: str, precision: str) -> float:
    """The dense rate a traced operator's dtype runs at under the workload's precision: FP16 and BF16 products at
    the card's best measured matmul rate where one is published, else at the datasheet's."""
    if dtype in HALF_DTYPES and precision == "fp8":
        rate, label = gpu.fp8_tflops, QT_TRANSLATE_NOOP("Workload", "FP8 tensor")
    elif dtype in HALF_DTYPES and gpu.best_half_tflops:  # FP16 and BF16 share the tensor cores' rate
        rate, label = gpu.best_half_tflops, QT_TRANSLATE_NOOP("Workload", "BF16 matmul, best measured")
    elif dtype == "bfloat16":
        rate, label = gpu.bf16_tflops, QT_TRANSLATE_NOOP("Workload", "BF16 tensor")
    elif dtype == "float16":
        rate, label = gpu.fp16_tflops, QT_TRANSLATE_NOOP("Workload", "FP16 tensor")
    elif precision == "fp32":
        rate, label = gpu.fp32_tflops, QT_TRANSLATE_NOOP("Workload", "FP32")
    else:  # fp32 matmuls with TF32 allowed (tf32, and what AMP leaves in fp32)
        rate, label = gpu.tf32_tflops or gpu.fp32_tflops, QT_TRANSLATE_NOOP("Workload", "TF32 tensor")
    if not rate:
        raise NoRate(_unsupported(gpu, dtype, precision) or translate(
            "Workload", "{gpu}: the catalog has no dense {rate} rate"
        ).format(gpu=gpu.name, rate=translate("Workload", label)))  # fmt: skip
    return float(rate)


def _unsupported(gpu: GpuSpec, dtype: str, precision: str) -> str:
    """Why an NVIDIA card cannot run the products in hardware at all, where that is why it has no rate ("" else):
    FP8 products (torch._scaled_mm) need compute capability 8.9 (Ada) or later; BF16 tensor cores came with 8.0
    (Ampere), and before it PyTorch emulates BF16 (NVIDIA, CUDA C++ Programming Guide, compute capabilities)."""
    if gpu.cc_major is None:
        return ""
    cc = (gpu.cc_major, gpu.cc_minor or 0)
    if precision == "fp8" and dtype in HALF_DTYPES and cc < (8, 9):
        return translate(
            "Workload",
            "{gpu} (compute capability {major}.{minor}) has no FP8 tensor cores: FP8 matrix products need 8.9 (Ada) "
            "or later, so this precision cannot run on it",
        ).format(gpu=gpu.name, major=cc[0], minor=cc[1])
    if dtype == "bfloat16" and cc < (8, 0):
        why = translate(
            "Workload",
            "{gpu} (compute capability {major}.{minor}) has no BF16 tensor cores (they came with 8.0, Ampere): PyTorch "
            "emulates BF16 there, slowly",
        ).format(gpu=gpu.name, major=cc[0], minor=cc[1])
        if cc >= (7, 0):  # Volta and Turing have FP16 tensor cores
            why += translate("Workload", "; AMP FP16 runs on its FP16 tensor cores")
        return why
    return ""


@dataclass(frozen=True)
class DecodeEfficiency:
    """How a decode step runs, fitted on published measured decode rates (catalog/decode_efficiency.toml,
    written by benchmarks/decode_calibration.py): the share of the memory bandwidth its reads reach, and
    the time each kernel costs to launch in eager PyTorch (none with CUDA graphs, as compiled engines run)."""

    bandwidth: float
    launch_seconds: float
    source: str


@dataclass(frozen=True)
class Generation:
    """A prompt and its generated tokens: the prompt's forward pass (prefill: it yields the first token),
    then one decode step per further token, each reading every weight once for the whole batch and the
    batch's KV cache as it grows, plus what it computes."""

    prefill_seconds: float  # time to the first token
    decode_seconds: float  # every further token
    first_step_seconds: float  # the first decode step and the last: the cache grows between them
    last_step_seconds: float
    tokens_per_s_per_sequence: float  # while decoding
    tokens_per_s_total: float  # the batch's, while decoding
    bound: str  # what limits a decode step: "memory bandwidth", "compute" or "kernel launches"
    weight_bytes: float  # read once per step
    kv_bytes_per_token: float  # per sequence
    kernels: float  # launched per step
    engine: str  # "eager", "torch.compile" (its default mode: fused kernels, each launched) or "compiled" (no launches)
    efficiency: DecodeEfficiency
    compiled_tokens_per_s_per_sequence: float = 0.0  # the same with no launch time (CUDA graphs, as compiled)


@dataclass(frozen=True)
class Timing:
    step_seconds: float
    samples_per_s: float
    tokens_per_s: float | None
    compute_seconds: float  # at the dense peak, convolutions excepted
    memory_seconds: float  # at the full bandwidth
    gpu: str
    efficiency: Efficiency
    conv_seconds: float = 0.0  # convolutions at the dense peak
    generation: Generation | None = None  # inference with generated tokens: prefill and decode
    # Eager PyTorch issues one kernel at a time from the host: a micro-batch takes at least its kernels times
    # the launch time each (0 where no launch time is known). When that is longer than the GPU's work, it sets
    # the pace ("kernel launches"); otherwise the GPU does ("GPU").
    launch_seconds: float = 0.0  # per micro-batch
    kernels: float = 0.0  # per micro-batch
    bound: str = "GPU"
    # The products' intensity classes, each (kind "mm" or "conv", seconds at the dense rate, seconds at the
    # bandwidth), per step at efficiency 1: what the roofline priced (empty for an older trace).
    classes: tuple[tuple[str, float, float], ...] = ()
    # Batch normalization's part of memory_seconds, and its elements at one multiprocessor cycle each
    # (channels-first on a CUDA GPU; else 0), per step: what Efficiency.other_seconds prices.
    batch_norm_seconds: float = 0.0
    batch_norm_sm_seconds: float = 0.0
    # Why channels-first batch normalization that should be paced by the SMs was not ("" when it was, or when it
    # need not be): the card's SM figures are unknown here.
    batch_norm_unpaced: str = ""
    # Several GPUs: the step's wait on its collectives beyond its work (in step_seconds), and over which link.
    communication_seconds: float = 0.0
    link: str = ""
    # Under torch.compile (memory_seconds and kernels are then the fused kernels'): the same in eager PyTorch, for
    # the answer to set beside them (0 when not compiled).
    torch_compile: bool = False
    # What the FP16/BF16 products were priced at when it is not the datasheet's dense rate ("" when it is).
    matmul_basis: str = ""
    eager_memory_seconds: float = 0.0
    eager_kernels: float = 0.0

    def at_full_efficiency(self) -> float:
        """The step's work at efficiency 1: each class of products at the roofline (the longer of its FLOPs at the
        rate and its bytes at the bandwidth), the other operators' bytes at the bandwidth."""
        if not self.classes:
            return self.compute_seconds + self.conv_seconds + self.memory_seconds
        return sum(max(at_rate, at_bandwidth) for _, at_rate, at_bandwidth in self.classes) + self.memory_seconds

    def priced(self) -> tuple[float, float, float, float]:
        """Per step as priced: matrix products, convolutions and other operators at their efficiencies, and the
        part of the products' time their bytes set (bandwidth-bound classes at the roofline)."""
        e = self.efficiency
        other = e.other_seconds(self.memory_seconds, self.batch_norm_seconds, self.batch_norm_sm_seconds)
        if not self.classes:
            return self.compute_seconds / e.compute, self.conv_seconds / e.conv, other, 0.0
        rate = {"mm": e.compute, "conv": e.conv}
        spent = {"mm": 0.0, "conv": 0.0}
        by_bytes = 0.0
        for kind, at_rate, at_bandwidth in self.classes:
            compute, moving = at_rate / rate[kind], at_bandwidth / e.memory
            spent[kind] += max(compute, moving)
            by_bytes += moving if moving > compute else 0.0
        return spent["mm"], spent["conv"], other, by_bytes


def intensity_classes(
    fitted: Fitted, batch: int, seq: int, gpu: GpuSpec, precision: str
) -> list[tuple[str, float, float]]:
    """The traced matrix products and convolutions by arithmetic intensity (workers/tracer/counting.py): for each
    class, its kind ("mm" or "conv"), its FLOPs at the GPU's dense rate for their dtype and its bytes at the
    GPU's bandwidth, in seconds; empty for a trace made before the classes were counted. The classes are those
    of the traced point nearest in tokens (then in length), their FLOPs scaled to the fitted FLOPs of their kind
    and dtype here and their bytes to the fitted bytes of all products here: exact at a traced point, and
    elsewhere the nearest point's spread of intensities carried to the right totals."""
    if not fitted.classes_at or batch <= 0:
        return []
    tokens, length = math.log(batch * max(seq, 1)), math.log(max(seq, 1))
    _, _, near = min(
        fitted.classes_at,
        key=lambda p: (abs(math.log(p[0] * max(p[1], 1)) - tokens), abs(math.log(max(p[1], 1)) - length)),
    )
    totals = near["totals"]

    def here(key: str) -> float:
        return fitted.at(key, batch, seq)

    def flops_of(kind: str, dtype: str, read: Callable[[str], float]) -> float:
        conv = read(f"convflops.{dtype}")
        return conv if kind == "conv" else read(f"flops.{dtype}") - conv

    there = totals.get("matmul_bytes", 0.0)
    byte_scale = here("matmul_bytes") / there if there > 0 else 1.0
    out = []
    for name, (flops, moved) in near["classes"].items():
        kind, dtype, _ = name.split(".")
        if flops <= 0:
            continue
        reference = flops_of(kind, dtype, lambda key: float(totals.get(key, 0.0)))
        flop_scale = flops_of(kind, dtype, here) / reference if reference > 0 else 1.0
        at_bandwidth = moved * byte_scale / (gpu.bandwidth_gbs * 1e9) if gpu.bandwidth_gbs else 0.0
        out.append((kind, flops * flop_scale / (rate_tflops(gpu, dtype, precision) * 1e12), at_bandwidth))
    return out


def time_at(
    fitted: Fitted,
    workload: Workload,
    source: ModelSource,
    batch: int,
    seq: int,
    gpu: GpuSpec,
    efficiency: Efficiency,
    decode: DecodeEfficiency | None = None,
) -> Timing:
    """One optimizer step (all micro-batches) on `gpu`: FLOPs per dtype at its dense rate, plus the bytes
    the other operators move at its bandwidth, each scaled by the fitted efficiency. For inference that
    generates tokens, the prompt's pass is the prefill, and with `decode` the generated tokens follow
    (decode_at); the step is then the whole request."""

    def at_peak(flops_by_dtype: dict[str, float]) -> float:
        return sum(
            flops / (rate_tflops(gpu, dtype, workload.precision) * 1e12)
            for dtype, flops in flops_by_dtype.items()
            if flops > 0
        )

    conv = at_peak(fitted.flops_by_dtype(batch, seq, "convflops."))
    by_dtype = fitted.flops_by_dtype(batch, seq)
    compute = at_peak(by_dtype) - conv
    bandwidth = gpu.bandwidth_gbs * 1e9
    # Under torch.compile the operators between two library kernels fuse (workers/tracer/counting.py, Fusion):
    # their bytes are what the fused kernels read and write, and batch normalization is one of them.
    compiled = workload.torch_compile
    eager_memory = fitted.at("other_bytes", batch, seq) / bandwidth if bandwidth else 0.0
    memory = fitted.at("fused_bytes", batch, seq) / bandwidth if compiled and bandwidth else eager_memory
    norm_bytes = 0.0 if compiled else fitted.at("batch_norm_bytes", batch, seq)
    batch_norm = min(memory, norm_bytes / bandwidth) if bandwidth else 0.0
    # Channels-first batch normalization in training on a CUDA GPU: PyTorch's kernels reduce each channel in one
    # block, so the multiprocessors pace them where the bandwidth outruns them (a datacenter card); channels-last ones
    # stream, and in inference (eval mode) it is an elementwise transform with no reduction.
    paced = workload.device == "cuda" and workload.training and not workload.channels_last and norm_bytes > 0
    cycles = gpu.sm_cycles_per_s if paced else None
    batch_norm_sm = fitted.at("batch_norm_elements", batch, seq) / cycles if cycles else 0.0
    unpaced = ""
    if paced and not cycles and efficiency.batch_norm_cycles_per_element:
        unpaced = translate(
            "Workload",
            "channels-first batch normalization priced at the bandwidth share only: {gpu}'s multiprocessor "
            "figures (its compute capability's FP32 results per SM per clock, or its datasheet FP32 rate) are not "
            "known here, so it may take longer",
        ).format(gpu=gpu.name)
    other = efficiency.other_seconds(memory, batch_norm, batch_norm_sm)
    basis = ""
    halves = any(flops > 0 for dtype, flops in by_dtype.items() if dtype in HALF_DTYPES)
    if gpu.best_half_tflops and halves and workload.precision != "fp8":
        datasheet = gpu.bf16_tflops or gpu.fp16_tflops
        basis = translate(
            "Workload",
            "FP16 and BF16 matrix products at {gpu}'s best measured matmul rate, {rate:,.0f} TFLOPS (published Maximum "
            "Achievable Matmul FLOPS), where its datasheet gives {datasheet}",
        ).format(
            gpu=gpu.name,
            rate=gpu.best_half_tflops,
            datasheet=f"{datasheet:,.0f} TFLOPS" if datasheet else translate("Workload", "no dense rate"),
        )
    classes = intensity_classes(fitted, batch, seq, gpu, workload.precision)
    if classes:  # each class of products at the roofline: the longer of its FLOPs and its bytes
        rate = {"mm": efficiency.compute, "conv": efficiency.conv}
        micro = other + sum(
            max(at_rate / rate[kind], at_bandwidth / efficiency.memory) for kind, at_rate, at_bandwidth in classes
        )
    else:  # a trace without intensity classes: every FLOP at the rate, every other byte at the bandwidth
        micro = compute / efficiency.compute + conv / efficiency.conv + other
    if workload.strategy == "tp" and workload.gpus > 1:
        micro /= workload.gpus
    # The host issues each kernel while the GPU runs the ones before: the slower of the two paces the step.
    # The launch time per kernel is the one fitted on published eager decode rates (decode_calibration.py).
    eager_kernels = fitted.at("kernels", batch, seq)
    kernels = fitted.at("fused_kernels", batch, seq) if compiled else eager_kernels
    launch = kernels * decode.launch_seconds if decode is not None else 0.0
    bound = "kernel launches" if launch > micro else "GPU"
    micro = max(micro, launch)
    step = micro * workload.grad_accum
    replicas = workload.gpus if workload.strategy != "tp" else 1
    samples = batch * workload.grad_accum * replicas / step if step else 0.0
    tokens = samples * seq if source.reads_tokens else None
    accum = workload.grad_accum
    timing = Timing(
        step, samples, tokens, compute * accum, memory * accum, gpu.id, efficiency, conv * accum,
        launch_seconds=launch, kernels=kernels, bound=bound,
        classes=tuple((kind, at_rate * accum, at_bandwidth * accum) for kind, at_rate, at_bandwidth in classes),
        batch_norm_seconds=batch_norm * accum, batch_norm_sm_seconds=batch_norm_sm * accum,
        batch_norm_unpaced=unpaced,
        torch_compile=compiled,
        matmul_basis=basis,
        eager_memory_seconds=eager_memory * accum if compiled else 0.0,
        eager_kernels=eager_kernels if compiled else 0.0,
    )  # fmt: skip
    if decode is None or workload.training or workload.generate <= 1:  # one token: the prompt's pass gives it
        return timing
    generation = decode_at(fitted, workload, batch, seq, gpu, decode, prefill_seconds=step)
    total = generation.prefill_seconds + generation.decode_seconds
    generated = batch * workload.generate * replicas
    return replace(
        timing,
        step_seconds=total,
        samples_per_s=batch * replicas / total,
        tokens_per_s=generated / total,
        generation=generation,
    )


# How many decode steps are priced one by one; longer generations are priced at this many evenly spaced
# context lengths (a step's time is linear in its context, so the sum is exact up to the max() of two lines).
DECODE_SAMPLES = 512


def decode_at(
    fitted: Fitted,
    workload: Workload,
    batch: int,
    seq: int,
    gpu: GpuSpec,
    decode: DecodeEfficiency,
    prefill_seconds: float,
) -> Generation:
    """The generated tokens after a `seq`-token prompt: each decode step at context L reads the weights once
    and the batch's KV cache of L tokens, moves the other operators' bytes of one more token, and computes
    one more token's FLOPs (the traced quantities' growth per token at L: their fitted linear term, and one
    query row of the quadratic one); its time is the slower of its reads at the fitted share of bandwidth
    and its FLOPs at the dense rate, plus its kernels' launches in eager mode."""
    weights = fitted.at("forward.weights", batch, seq) + fitted.at("forward.buffers", batch, seq)
    tokens = max(1, batch * seq)
    kv_per_token = fitted.at("kv_cache_bytes", batch, seq) / tokens
    compiled = workload.torch_compile  # fused kernels (time_at)
    kernels = fitted.at("fused_kernels" if compiled else "kernels", batch, seq)
    flops_term, bytes_term = fitted.terms.get("flops"), fitted.terms.get("fused_bytes" if compiled else "other_bytes")
    prompt_flops = fitted.at("flops", batch, seq)
    prompt_compute = sum(
        flops / (rate_tflops(gpu, dtype, workload.precision) * 1e12)
        for dtype, flops in fitted.flops_by_dtype(batch, seq).items()
        if flops > 0
    )
    seconds_per_flop = prompt_compute / prompt_flops if prompt_flops else 0.0
    divided = workload.gpus if workload.strategy == "tp" and workload.gpus > 1 else 1
    bandwidth = gpu.bandwidth_gbs * 1e9 * decode.bandwidth
    launch = kernels * decode.launch_seconds

    def per_token(term: Term | None, context: int) -> float:
        # The traced pass of s tokens counts alpha s + beta s^2: the quadratic part is attention's s x s
        # scores. A decode step is one query row against `context` keys: beta * context of it.
        return 0.0 if term is None else max(0.0, term.alpha + term.beta * context)

    def parts(context: int) -> tuple[float, float]:
        """(reads at the fitted bandwidth, FLOPs at the dense rate) of the step at this context."""
        reads = weights + batch * (kv_per_token * context + per_token(bytes_term, context))
        memory = reads / divided / bandwidth if bandwidth else 0.0
        return memory, batch * per_token(flops_term, context) * seconds_per_flop / divided

    def work(context: int) -> float:
        return max(parts(context))

    def step(context: int) -> tuple[float, str]:
        memory, compute = parts(context)
        busy = max(memory, compute)
        bound = "memory bandwidth" if memory >= compute else "compute"
        return busy + launch, "kernel launches" if launch > busy else bound

    steps = max(0, workload.generate - 1)  # the prompt's pass yields the first token
    first, bound = step(seq + 1)
    last = step(seq + steps)[0] if steps else first
    if steps <= DECODE_SAMPLES:
        contexts, weight = list(range(seq + 1, seq + steps + 1)), 1.0
    else:
        contexts = [seq + 1 + round(i * (steps - 1) / (DECODE_SAMPLES - 1)) for i in range(DECODE_SAMPLES)]
        weight = steps / DECODE_SAMPLES
    total = sum(step(context)[0] for context in contexts) * weight
    graphed = sum(work(context) for context in contexts) * weight  # with CUDA graphs: no launches
    per_sequence = steps / total if total else 0.0
    return Generation(
        prefill_seconds=prefill_seconds,
        decode_seconds=total,
        first_step_seconds=first,
        last_step_seconds=last,
        tokens_per_s_per_sequence=per_sequence,
        tokens_per_s_total=per_sequence * batch,
        bound=bound,
        weight_bytes=weights,
        kv_bytes_per_token=kv_per_token,
        kernels=kernels,
        engine=("torch.compile" if compiled else "eager") if decode.launch_seconds > 0 else "compiled",
        efficiency=decode,
        compiled_tokens_per_s_per_sequence=steps / graphed if graphed else 0.0,
    )
