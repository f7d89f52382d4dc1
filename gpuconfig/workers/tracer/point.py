"""One trace point: the model prepared for the task, its steps run under fake tensors with memory tracked
and operators counted; or the same steps run for real on the CPU, to check the traced estimate against."""

from __future__ import annotations

import contextlib
import sys
from typing import Any

from . import torch_private
from .accumulation import in_place_accumulation
from .adapters import make_optimizer, quantize_linears
from .attention import attention_kernels
from .autograd_nodes import node_marker
from .counting import op_counter
from .cuda_autocast import checkpoint_contexts, cuda_float32_policy
from .cuda_cache import reserved_peak
from .cudnn_workspace import cudnn_workspaces
from .events import TraceError
from .heap import TOP_RESTS, MallocReplay
from .heap_profile import heap_profile
from .kernel_scratch import MEASURED, kernel_marker, measure_scripts
from .lora import add_lora
from .memory import PhasePeaks, cache_bytes, frozen_parameters_tolerated
from .models import build, call, input_bytes, loss_of, skipped_init
from .real_run import (
    Clock,
    DevicePhases,
    autocast_device,
    building_on,
    device_facts,
    device_memory,
    distribution,
    on_cuda,
    real_attention,
    reset_peaks,
)
from .runtime import rss_bytes


def autocast_for(precision: str, device: str = "cpu") -> Any:
    """Mixed precision as the run's device applies it: the trace's fake tensors are CPU tensors whatever the
    target (its CUDA differences are modelled in attention.py); a real GPU run autocasts on "cuda"."""
    import torch

    if precision in ("amp_fp16",):
        return torch.autocast(device, dtype=torch.float16)
    if precision in ("amp_bf16", "fp8"):
        return torch.autocast(device, dtype=torch.bfloat16)
    return contextlib.nullcontext()


def prepare(model: Any, request: dict[str, Any], foreach: bool) -> Any:
    """Adapters, checkpointing and the optimizer for training; eval mode for inference."""
    task = request["task"]
    bits = {"int8": 8, "int4": 4}.get(request["precision"])
    double_quant = bool(request.get("double_quant", False))
    if task == "inference":
        if bits:
            quantize_linears(model, bits, double_quant)
        model.eval()
        return None
    if task in ("lora", "qlora"):
        rank, targets = int(request.get("lora_rank", 16)), str(request.get("lora_targets", "default"))
        add_lora(model, rank, targets, float(request.get("lora_dropout", 0.0)), request.get("device") == "cuda")
    if task == "qlora":
        quantize_linears(model, bits or 4, double_quant)  # the adapters' frozen base layers; NF4 unless int8 is chosen
    if request.get("checkpointing"):
        arguments: dict[str, Any] = {"use_reentrant": False}
        # a trace's recomputation under the CUDA policy; a real run has CUDA's own autocast
        recompute = None if request.get("measure") else checkpoint_contexts(request.get("device"))
        if recompute is not None:
            arguments["context_fn"] = recompute
        if hasattr(model, "activation_checkpointing_enable"):  # transformers 5.24 renamed it
            model.activation_checkpointing_enable(activation_checkpointing_kwargs=arguments)
        elif hasattr(model, "gradient_checkpointing_enable"):
            model.gradient_checkpointing_enable(gradient_checkpointing_kwargs=arguments)
        else:
            raise TraceError("unsupported", "activation checkpointing needs a Hugging Face model")
    model.train()
    return make_optimizer(request["optimizer"], [p for p in model.parameters() if p.requires_grad], foreach)


class Told:
    """Several listeners, each told where a phase of the step ends (the peaks and the op counter)."""

    def __init__(self, *listeners: Any) -> None:
        self.listeners = listeners

    def end(self, phase: str) -> None:
        for listener in self.listeners:
            listener.end(phase)


def one_step(
    model: Any,
    inputs: Any,
    optimizer: Any,
    request: dict[str, Any],
    peaks: PhasePeaks | DevicePhases | Told | None = None,
    device: str = "cpu",
    backward: Any = None,
) -> int:
    """One training step as a training loop runs it (outputs released before backward), or one forward
    pass for inference; returns the bytes of the KV cache that forward built. `peaks` is told where each
    phase ends; `device` is where a real run autocasts; `backward`, a context backward runs in."""
    import torch

    def ended(phase: str) -> None:
        if peaks is not None:
            peaks.end(phase)

    if optimizer is None:
        with torch.no_grad():
            output = call(model, inputs)
            kv = cache_bytes(output)
            del output
        ended("forward")
        return kv
    with autocast_for(request["precision"], device):
        output = call(model, inputs)
        loss = loss_of(output)
    del output
    ended("forward")
    with backward or contextlib.nullcontext():
        loss.backward()
    del loss
    ended("backward")
    optimizer.step()
    optimizer.zero_grad(set_to_none=True)
    ended("optimizer step")
    return 0


# How many placements of the small blocks the heap is replayed with. Which block size lands where is not known, and
# it moves glibc's heap: over 8 placements a ViT-base step with checkpointing grew from 1.50 to 1.84 GB, a
# GPT-2 fine-tune's from 2.94 to 2.97 GB (benchmarks/heap_streams.py's cases). Each placement is replayed from
# each of heap.TOP_RESTS; the median of them all is the estimate.
HEAP_DRAWS = 5


def heap_draws(
    replay: MallocReplay | None, events: list[tuple[int, int]], marks: Any, objects: Any, kernels: Any = ()
) -> dict[str, int | None]:
    """The heap's growth replayed with HEAP_DRAWS placements of the small blocks, each from every top chunk
    of TOP_RESTS: their median, least and most."""
    drawn = all_drawn(
        [peak for seed in range(HEAP_DRAWS) for peak in replay.peaks(events, marks, objects, seed, kernels, TOP_RESTS)]
        if replay is not None
        else []
    )
    if drawn is None:
        return {"cpu_heap_peak_bytes": None, "cpu_heap_peak_low_bytes": None, "cpu_heap_peak_high_bytes": None}
    return {
        "cpu_heap_peak_bytes": drawn[len(drawn) // 2],
        "cpu_heap_peak_low_bytes": drawn[0],
        "cpu_heap_peak_high_bytes": drawn[-1],
    }


def median_peak(replay: MallocReplay | None, events: list[tuple[int, int]]) -> int | None:
    """The tensors' heap growth alone, the median over TOP_RESTS; None if unavailable."""
    drawn = all_drawn(replay.peaks(events, (), None, 0, (), TOP_RESTS) if replay is not None else [])
    return None if drawn is None else drawn[len(drawn) // 2]


def all_drawn(peaks: list[int | None]) -> list[int] | None:
    """The replays' peaks in order, or None when there were none or any one failed."""
    drawn = sorted(peak for peak in peaks if peak is not None)
    return drawn if drawn and len(drawn) == len(peaks) else None


def trace_point(
    request: dict[str, Any], batch: int, seq: int, layers: int | None = None, replay: MallocReplay | None = None
) -> dict[str, Any]:
    import torch

    task = request["task"]
    training = task != "inference"
    foreach = request.get("device") == "cuda"  # PyTorch's default optimizer implementation on each device
    with torch_private.fake_tensor_mode():
        torch.manual_seed(0)
        imported = set(sys.modules)
        with skipped_init():
            model, inputs, family = build(request, batch, seq, layers)
        built_modules = sorted(set(sys.modules) - imported)  # the model's code, which a real run imports too
        params = {id(p): p for p in model.parameters()}
        total_params = sum(p.numel() for p in params.values())
        optimizer = prepare(model, request, foreach)
        trainable = [p for p in model.parameters() if p.requires_grad] if training else []
        unique_trainable = {id(p): p for p in trainable}.values()
        trainable_params = sum(p.numel() for p in unique_trainable)
        grad_bytes = sum(p.numel() * p.element_size() for p in unique_trainable)
        tracker = torch_private.recording_tracker()
        marker = node_marker(tracker.events)
        scripts = (request.get("autograd_objects") or {}).get("kernels") or {}
        # A CPU trace's heap replay performs the blocks some kernels allocate for themselves: the catalog's
        # scripts, and the calls of MEASURED operators, run for real after the trace.
        kernels = kernel_marker(tracker.events, scripts, MEASURED) if replay is not None and replay.available else None
        accumulation = in_place_accumulation(lambda: marker.applying)
        counter = op_counter()
        kv = 0
        with (
            frozen_parameters_tolerated(),
            attention_kernels(request, model) as attention,
            cuda_float32_policy(request.get("device")),
            tracker,
            cudnn_workspaces(request.get("device"), tracker.events) as convolutions,
        ):
            tracker.track_external(model, *([optimizer] if isinstance(optimizer, torch.optim.Optimizer) else []))
            steps = 2 if training else 1
            peaks = PhasePeaks(tracker)
            for step in range(steps):
                last = step == steps - 1
                if last:
                    tracker.reset_mod_stats()  # MemTracker refuses a module's second call otherwise
                    peaks.begin()  # the peaks of the last (steady-state) step only
                with counter if last else contextlib.nullcontext(), marker, kernels or contextlib.nullcontext():
                    told = Told(peaks, counter) if last else None
                    kv = one_step(model, inputs, optimizer, request, told, backward=accumulation)
            peak_phase, peak = peaks.peak()
    measured, measuring = measure_scripts(kernels.calls) if kernels is not None else ({}, {})
    objects = request.get("autograd_objects")
    if measured:
        objects = {**(objects or {}), "kernels": {**((objects or {}).get("kernels") or {}), **measured}}
    return {
        "batch": batch,
        "seq": seq,
        "layers": layers,
        "family": family,
        "memory": peak,
        "peak_phase": peak_phase,
        "phases": peaks.phases,
        "phase_positions": peaks.positions,
        "kv_cache_bytes": kv,
        **heap_draws(replay, tracker.events, marker.marks, objects, kernels.marks if kernels else ()),
        **measuring,
        # The same replay without the small blocks, its median over the same starts: what they add, for the
        # accuracy benchmark to show.
        "cpu_heap_tensors_peak_bytes": median_peak(replay, tracker.events),
        "autograd_nodes": sum(kind != 0 for _, _, kind in marker.marks),
        "accumulated_in_place": accumulation.made_in_place,
        # cuDNN picks each convolution's engine, and so its workspace, at run time: the segments are replayed with
        # and without the workspaces cudnn_workspace.py assumes, and the larger is what the run must have room for.
        "cuda_reserved_peak_bytes": (
            max(reserved_peak(tracker.events)[1], reserved_peak(convolutions.without(tracker.events))[1])
            if request.get("device") == "cuda"
            else None
        ),
        **heap_profile(tracker.events),
        "params": total_params,
        "trainable_params": trainable_params,
        "grad_bytes": grad_bytes,
        "input_bytes": input_bytes(inputs),
        "attention": attention.facts(),
        "flops_by_dtype": counter.flops,
        "conv_flops_by_dtype": counter.conv_flops,
        "by_intensity": counter.by_intensity,
        "built_modules": built_modules,
        "flops": sum(counter.flops.values()),
        "matmul_bytes": counter.matmul_bytes,
        "other_bytes": counter.other_bytes,
        "batch_norm_bytes": counter.batch_norm_bytes,
        "batch_norm_elements": counter.batch_norm_elements,
        "kernels": counter.kernels,
        "fused_bytes": counter.fusion.bytes,
        "fused_kernels": counter.fusion.kernels,
    }


def measure_point(request: dict[str, Any], batch: int, seq: int) -> dict[str, Any]:
    """Run the same steps for real, on the CPU or a CUDA GPU: what the traced estimate is checked against.
    The memory figures cover the trace's recipe (two training steps, or one inference pass); with
    request["timed_steps"] = n, n more steps are then timed, each waited for, for the time estimate; with
    request["torch_compile"], the model runs under torch.compile (the recipe's first steps compile it)."""
    import torch

    training = request["task"] != "inference"
    torch.manual_seed(0)
    clock = Clock(request)
    started = clock.now()
    with building_on(request):
        model, inputs, _ = build(request, batch, seq, None)
        optimizer = prepare(model, request, foreach=on_cuda(request))  # each device's default implementation
    built = clock.now()
    after_build = device_memory(request, "cuda_build")
    reset_peaks(request)

    runs = model
    if request.get("torch_compile"):  # the step's forward and backward compiled, as torch.compile(model) does
        import torch._inductor.config as inductor

        inductor.compile_threads = 1  # no pool of compile workers to outlive the run
        runs = torch.compile(model)

    def step(phases: DevicePhases | None = None) -> None:
        with real_attention(request, model):
            one_step(runs, inputs, optimizer, request, phases, device=autocast_device(request))

    step_seconds = [clock.time(step) for _ in range(1 if training else 0)]
    before: dict[str, Any] = device_memory(request, "cuda")
    # The recipe's last (steady-state) step with its phases apart on a GPU, where the trace takes its peaks.
    phases = DevicePhases() if on_cuda(request) else None
    step_seconds.append(clock.time(lambda: step(phases)))
    memory = phases.peaks(before) if phases is not None else before
    timed = [clock.time(step) for _ in range(int(request.get("timed_steps", 0)))]
    return {
        "batch": batch,
        "seq": seq,
        "peak_rss_bytes": rss_bytes(),
        "build_seconds": built - started,
        "step_seconds": step_seconds,
        **after_build,
        **memory,
        **({"timed_steps": distribution(timed)} if timed else {}),
        **device_facts(request),
    }
