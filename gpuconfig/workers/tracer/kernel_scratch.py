"""Where the operators whose CPU kernels allocate blocks of their own run, in the stream of storage events.

Some CPU kernels allocate aligned blocks that are no tensor the step sees and free them before they return:
GELU and its backward build oneDNN objects on every call (aligned blocks of 16 bytes to a few KiB; PyTorch's
aten/src/ATen/native/Activation.cpp, gelu_out_cpu and gelu_backward_out_cpu, run ideep's eltwise primitive for
a contiguous float32 input with approximate="none", and their own loop otherwise). Under fake tensors no kernel
runs, so the trace never sees them, yet on the real heap they split the free chunks their allocations land in
(glibc's memalign carves an aligned block out of a larger free chunk), which changes where the next tensors
fit. Which operators do this, and the blocks each allocates and frees in order, are measured by
benchmarks/autograd_objects.py on its reference model (catalog/autograd_objects.toml, [kernels]), keeping only
blocks that stay the same at other shapes and thread counts (a per-thread buffer, as layer norm's backward
takes, is left out); this marker notes where each such operator ran, and the heap replay (heap.py) performs
its blocks there.

Other kernels allocate buffers that follow the call's shapes, through PyTorch's own CPU allocator: a oneDNN
convolution reorders its input, weight and output to and from oneDNN's blocked layouts and takes a scratchpad
(aten/src/ATen/native/mkldnn/Conv.cpp runs ideep, whose buffers PyTorch allocates with its CPU allocator:
aten/src/ATen/native/mkldnn/IDeepRegistration.cpp), and batch norm's backward allocates temporaries as large as
its input. None of it is a tensor the step sees, and a convolution's reorder is as large as its input. Their
sizes follow the machine's instruction set, the thread count and the shapes, so no table can hold them: each
distinct call (MEASURED) is run once for real, here, at its traced shapes, under PyTorch's profiler, and the
blocks it allocated and freed before returning become its script (measure_scripts), with a 0 where it allocated
its outputs, which the replay places among them (heap.OPENS).
"""

from __future__ import annotations

import math
import os
import time
from collections.abc import Collection, Mapping
from typing import Any, NamedTuple

from . import torch_private
from .heap import CLOSES, OPENS

# The operators whose CPU kernels' own buffers are measured on this machine (see the module).
MEASURED = frozenset(
    {
        "aten.convolution.default",
        "aten.convolution_backward.default",
        "aten.native_batch_norm.default",
        "aten.native_batch_norm_backward.default",
        "aten._native_batch_norm_legit.default",
        "aten._native_batch_norm_legit_no_training.default",
    }
)
# A call is run for real only where its inputs and outputs, taken this many times over (each with a reordered
# copy, and room to spare), fit in half the memory this process may still take; a larger one is left out, and
# the answer says so.
ROOM_FACTOR = 3
# And a call that would take the calls run in one measurement (one traced point) past this many FLOPs is left out
# (torch's FLOP formulas; a batch norm counts none): 3 to 10 s at the 0.1 to 0.3 TFLOP/s fp32 a two-core CPU's
# probe measures.
MEASURE_FLOPS = 1e12
RANGE = "gpuconfig kernel "  # the profiler ranges the measured calls run in
_scripts: dict[str, list[int] | None] = {}  # each call's script (None: it failed), once per trace process


class Call(NamedTuple):
    """A measured call as the trace saw it, its tensors as _Shape."""

    signature: str  # the operator's name and its arguments' shapes, strides and dtypes
    func: Any
    args: Any
    kwargs: Any
    out_bytes: int
    flops: float


def _onednn_gelu(args: Any, kwargs: Any) -> bool:
    """Whether a gelu or gelu_backward call takes oneDNN's path (see the module): its input (`self`, the last
    tensor argument) contiguous float32 of more than one element, and the exact (erf) form. A bfloat16 input takes
    it too, but only on CPUs with bfloat16 instructions (use_mkldnn), and its blocks were not measured."""
    import torch

    tensors = [a for a in args if isinstance(a, torch.Tensor)]
    approximate = kwargs.get("approximate", next((a for a in args if isinstance(a, str)), "none"))
    if not tensors or approximate != "none":
        return False
    x = tensors[-1]
    return bool(x.dtype == torch.float32 and x.is_contiguous() and x.numel() > 1)


# Operators whose kernel takes the measured path only on some calls: when each does.
WHEN = {"aten.gelu.default": _onednn_gelu, "aten.gelu_backward.default": _onednn_gelu}


def kernel_marker(events: list[Any], names: Collection[str], measured: Collection[str] = ()) -> Any:
    """A TorchDispatchMode that appends (storage events so far, key) to `marks` after every call of an operator
    in `names` (as str() names it: "aten.gelu.default"), the key being the name; the call's own outputs are in
    `events` by then. A call of an operator in `measured` is marked twice, OPENS + key before its outputs and
    CLOSES + key after them, the key naming its operator and shapes ("aten.convolution.default #3"), and kept in
    `calls` (key -> Call) for measure_scripts."""
    dispatch_mode = torch_private.dispatch_mode()
    wanted = frozenset(names)
    shaped = frozenset(measured)

    class KernelMarker(dispatch_mode):  # type: ignore[misc,valid-type]
        def __init__(self) -> None:
            super().__init__()
            self.marks: list[tuple[int, str]] = []
            self.calls: dict[str, Call] = {}
            self.keys: dict[str, str] = {}  # a call's signature -> its key

        def __torch_dispatch__(self, func: Any, types: Any, args: Any = (), kwargs: Any = None) -> Any:
            before = len(events)
            out = func(*args, **(kwargs or {}))
            name = str(func)
            if name in wanted and WHEN.get(name, lambda *_: True)(args, kwargs or {}):
                self.marks.append((len(events), name))
            elif name in shaped:
                spec = (_spec(args), _spec(kwargs or {}))
                signature = f"{name}{spec!r}"
                key = self.keys.setdefault(signature, f"{name} #{len(self.keys) + 1}")
                if key not in self.calls:
                    self.calls[key] = Call(signature, func, *spec, _bytes(_spec(out)), _flops(func, args, kwargs, out))
                self.marks += [(before, OPENS + key), (len(events), CLOSES + key)]
            return out

    return KernelMarker()


def _flops(func: Any, args: Any, kwargs: Any, out: Any) -> float:
    """The call's FLOPs by torch's formula for its operator; 0 where it has none."""
    try:
        formula = torch_private.flop_registry().get(torch_private.overload_packet(func))
        return float(formula(*args, **(kwargs or {}), out_val=out)) if formula is not None else 0.0
    except Exception:  # no registry in this torch, or a formula that cannot read these arguments: none counted
        return 0.0


class _Shape(tuple[Any, ...]):
    """A tensor argument as (shape, stride, dtype): what running the call again for real needs."""


def _mapped(value: Any, leaf: Any) -> Any:
    """`value` with `leaf` applied to each tensor or _Shape in it, through lists, tuples (named ones too) and
    dicts."""
    if isinstance(value, tuple) and hasattr(value, "_fields"):
        return type(value)(*(_mapped(v, leaf) for v in value))
    if isinstance(value, list | tuple) and not isinstance(value, _Shape):
        return type(value)(_mapped(v, leaf) for v in value)
    if isinstance(value, dict):
        return {k: _mapped(v, leaf) for k, v in value.items()}
    return leaf(value)


def _spec(value: Any) -> Any:
    """The call's arguments with each tensor as its _Shape."""
    import torch

    def shape_of(v: Any) -> Any:
        return _Shape((tuple(v.shape), tuple(v.stride()), v.dtype)) if isinstance(v, torch.Tensor) else v

    return _mapped(value, shape_of)


def _reach(value: _Shape) -> int:
    """The elements a tensor's storage holds as its strides reach (1 for an expanded one)."""
    shape, stride, _ = value
    return 0 if 0 in shape else 1 + sum((n - 1) * s for n, s in zip(shape, stride, strict=True))


def _real(value: Any) -> Any:
    """The arguments built for real: each _Shape a tensor of its shape, strides and dtype, filled with values a
    kernel takes (positive, so a batch norm's variance is one) through its storage (a gradient of a sum is
    expanded)."""
    import torch

    def built(v: Any) -> Any:
        if not isinstance(v, _Shape):
            return v
        shape, stride, dtype = v
        storage = torch.empty(_reach(v), dtype=dtype)
        storage.uniform_(0.5, 1.5) if storage.is_floating_point() else storage.zero_()
        return storage.as_strided(shape, stride)

    return _mapped(value, built)


def _bytes(value: Any) -> int:
    """The bytes the tensors in `value` take, each whole (an expanded tensor as large as a kernel's copy of it)."""
    sizes: list[int] = []

    def size_of(v: Any) -> Any:
        if isinstance(v, _Shape):
            shape, _, dtype = v
            sizes.append(max(math.prod(shape), _reach(v)) * int(dtype.itemsize))
        return v

    _mapped(value, size_of)
    return sum(sizes)


def available_bytes() -> int:
    """The memory this process may still take: Linux's MemAvailable, or less where a cgroup (a container, a
    Slurm job) caps it; the physical memory where neither is known."""
    known = []
    try:
        with open("/proc/meminfo", encoding="ascii") as handle:
            known += [int(line.split()[1]) * 1024 for line in handle if line.startswith("MemAvailable:")]
    except (OSError, ValueError, IndexError):
        pass
    try:  # cgroup v2: the room left under each group's limit, from this process's group up to the root (a Slurm
        # job's limit is on the job's group, above the step's and task's groups the process runs in)
        with open("/proc/self/cgroup", encoding="ascii") as handle:
            group = handle.read().strip().rpartition("::")[2].strip("/")
        parts = group.split("/") if group else []
        for depth in range(len(parts), 0, -1):
            folder = os.path.join("/sys/fs/cgroup", *parts[:depth])
            try:
                with open(os.path.join(folder, "memory.max"), encoding="ascii") as handle:
                    limit = handle.read().strip()
                with open(os.path.join(folder, "memory.current"), encoding="ascii") as handle:
                    used = int(handle.read().strip())
            except OSError:
                continue
            if limit != "max":
                known.append(max(0, int(limit) - used))
    except (OSError, ValueError):
        pass
    if known:
        return min(known)
    return int(os.sysconf("SC_PAGE_SIZE") * os.sysconf("SC_PHYS_PAGES"))


def measure_scripts(calls: Mapping[str, Call]) -> tuple[dict[str, list[int]], dict[str, float]]:
    """Each call run once for real on this machine's CPU under PyTorch's profiler (its first call allocates
    what later ones do: oneDNN caches its primitives outside PyTorch's allocator), and the blocks it allocated
    and freed before returning, as a script (heap.kernel_blocks) with a 0 where its first output was allocated.
    Returns the scripts by key, and how many calls were measured, left out (too large to run here, past
    MEASURE_FLOPS, failed, or the profiler unavailable) and left out as too large for the memory free now, and
    the seconds it took. A call measured, or failed, before in this process is not run again."""
    started = time.monotonic()
    room = available_bytes() // 2
    todo = {call.signature: call for call in calls.values() if call.signature not in _scripts}
    runnable, too_large, flops = [], set(), 0.0
    for signature, call in todo.items():
        if (_bytes(call.args) + _bytes(call.kwargs) + call.out_bytes) * ROOM_FACTOR > room:
            too_large.add(signature)
        elif flops + call.flops <= MEASURE_FLOPS:
            runnable.append(signature)
            flops += call.flops
    try:
        _scripts.update(_profiled(runnable, todo))
    except Exception:  # no profiler, or its event tree changed: the calls are left out, not the trace
        _scripts.update(dict.fromkeys(runnable))
    scripts = {key: script for key, call in calls.items() if (script := _scripts.get(call.signature)) is not None}
    return scripts, {
        "kernel_calls_measured": float(len(scripts)),
        "kernel_calls_left_out": float(len(calls) - len(scripts)),
        "kernel_calls_too_large": float(sum(call.signature in too_large for call in calls.values())),
        "kernel_measure_seconds": time.monotonic() - started,
    }


def _profiled(runnable: list[str], todo: Mapping[str, Call]) -> dict[str, list[int] | None]:
    """The runnable calls run under one profiler, each in its own range; None for one that failed or whose
    range the profiler did not record."""
    if not runnable:
        return {}
    from torch.profiler import ProfilerActivity, profile, record_function

    failed = set()
    with profile(activities=[ProfilerActivity.CPU], profile_memory=True) as profiled:
        for index, signature in enumerate(runnable):
            call = todo[signature]
            try:
                real_args, real_kwargs = _real(_float_statistics(str(call.func), call.args)), _real(call.kwargs)
                with record_function(f"{RANGE}{index}"):
                    out = call.func(*real_args, **real_kwargs)
                del out, real_args, real_kwargs
            except Exception:  # whatever the kernel raised, this call is left out
                failed.add(signature)
    inside = torch_private.allocations_in_ranges(profiled, RANGE)
    return {
        signature: None
        if signature in failed or f"{RANGE}{index}" not in inside
        else script_of(inside[f"{RANGE}{index}"])
        for index, signature in enumerate(runnable)
    }


def _float_statistics(name: str, args: Any) -> Any:
    """A batch norm's arguments as its CPU kernel takes them: with a bfloat16 or half input and float32 weights,
    every parameter and statistic float32 (PyTorch's "mixed dtype" rule, aten/src/ATen/native/mixed_data_type.h:
    the kernel refuses any other), where a fake kernel may have given a saved statistic the input's dtype."""
    import torch

    shapes = [a for a in args if isinstance(a, _Shape)] if "batch_norm" in name else []
    reduced = bool(shapes) and shapes[0][2] in (torch.bfloat16, torch.float16)
    if not reduced or not any(len(a[0]) == 1 and a[2] == torch.float32 for a in shapes[1:]):
        return args
    return type(args)(
        _Shape((a[0], a[1], torch.float32))
        if isinstance(a, _Shape) and len(a[0]) == 1 and a[2].is_floating_point
        else a
        for a in args
    )


def script_of(allocations: list[tuple[int, int]]) -> list[int]:
    """The blocks of (address, bytes) allocations (negative bytes: a free) that were freed among them, as a
    script: a size allocates, -n frees the n-th block allocated, and a 0 stands where the first block never freed
    (an output) was allocated; the outputs themselves are left out."""
    freed_inside: set[int] = set()
    live: dict[int, int] = {}  # address -> the index of its allocation
    for index, (address, size) in enumerate(allocations):
        if size > 0:
            live[address] = index
        elif address in live:
            freed_inside.add(live.pop(address))
    script: list[int] = []
    number: dict[int, int] = {}  # the index of an allocation -> its number in the script
    open_blocks: dict[int, int] = {}
    outputs_placed = False
    for index, (address, size) in enumerate(allocations):
        if index in freed_inside:
            number[index] = len(number) + 1
            open_blocks[address] = index
            script.append(size)
        elif size > 0 and not outputs_placed:
            script.append(0)
            outputs_placed = True
        elif size < 0 and address in open_blocks:
            script.append(-number[open_blocks.pop(address)])
    return script
