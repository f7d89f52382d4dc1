"""Every private PyTorch API the tracer uses, in one place, each looked up when it is first needed.

Fake tensors, dispatch modes, pytree, the FLOP registry, the module-wise MemTracker (torch.distributed._tools),
the private aten operators and the private attributes of these objects change between torch releases
without notice. Each is reached through this module only; where the torch in this Python lacks one, the
trace stops with an "unsupported" TraceError that names the torch version and the API, not with an
AttributeError from deep inside a step.
"""

from __future__ import annotations

import importlib
from collections.abc import Callable
from typing import Any, TypeVar

from .events import TraceError

T = TypeVar("T")
TOTAL = "Total"  # MemTracker's key for a device's total in its snapshots


def torch_version() -> str:
    import torch

    return str(torch.__version__)


def missing(api: str) -> TraceError:
    """The error for a private API this torch does not have."""
    return TraceError(
        "unsupported",
        f"tracing needs {api}, which torch {torch_version()} does not have (a private PyTorch API that changes "
        "between releases): trace with a torch version that has it",
    )


def checked(api: str, get: Callable[[], T]) -> T:
    """`get()`, or the TraceError that says this torch has no `api`."""
    try:
        return get()
    except (ImportError, AttributeError) as exc:
        raise missing(api) from exc


def private(module: str, name: str) -> Any:
    """`name` from torch's module `module`."""
    return checked(f"{module}.{name}", lambda: getattr(importlib.import_module(module), name))


def aten(name: str) -> Any:
    """The aten operator (its overload packet) `name`, as torch.ops.aten has it."""
    import torch

    return checked(f"torch.ops.aten.{name}", lambda: getattr(torch.ops.aten, name))


# -- fake tensors, dispatch modes, operators ----------------------------------------------------------


def fake_tensor_mode() -> Any:
    """A FakeTensorMode that also takes real tensors (a model's constants) as inputs."""
    return private("torch._subclasses.fake_tensor", "FakeTensorMode")(allow_non_fake_inputs=True)


def unset_fake_temporarily() -> Any:
    """A context manager under which the active fake mode is set aside and operators run for real."""
    return private("torch._subclasses.fake_tensor", "unset_fake_temporarily")


def dispatch_mode() -> Any:
    """TorchDispatchMode, the base of a mode that sees every operator call."""
    return private("torch.utils._python_dispatch", "TorchDispatchMode")


def function_mode() -> Any:
    """TorchFunctionMode, the base of a mode that sees every torch function call above autograd."""
    return private("torch.overrides", "TorchFunctionMode")


def top_saved_tensor_hooks() -> Callable[[], Any]:
    """A function returning the innermost saved-tensor hooks in force (None outside any): activation
    checkpointing runs its region's operators under its own."""
    top = private("torch._C._autograd", "_top_saved_tensors_default_hooks")
    return lambda: top(False)


def tree_flatten() -> Callable[[Any], tuple[list[Any], Any]]:
    """torch's pytree flatten: the leaves of nested tuples, lists and dicts, and the tree's structure."""
    flatten: Callable[[Any], tuple[list[Any], Any]] = private("torch.utils._pytree", "tree_flatten")
    return flatten


# Attention kernels the FLOP registry has no formula for, each with the operator whose formula fits it: the CPU's
# flash attention (and the overrideable fused one) take query, key and value first, as the CUDA flash kernel does,
# and their backward the output's gradient, then query, key and value.
SAME_FLOPS_AS = {
    "_scaled_dot_product_flash_attention_for_cpu": "_scaled_dot_product_flash_attention",
    "_scaled_dot_product_flash_attention_for_cpu_backward": "_scaled_dot_product_flash_attention_backward",
    "_scaled_dot_product_fused_attention_overrideable": "_scaled_dot_product_flash_attention",
    "_scaled_dot_product_fused_attention_overrideable_backward": "_scaled_dot_product_flash_attention_backward",
}


def flop_registry() -> dict[Any, Any]:
    """The FLOP formula of each operator that has one, by overload packet (torch.utils.flop_counter), with the
    attention kernels of SAME_FLOPS_AS given their CUDA counterparts' formulas."""
    import torch

    registry: dict[Any, Any] = dict(private("torch.utils.flop_counter", "flop_registry"))
    for name, like in SAME_FLOPS_AS.items():
        packet, known = getattr(torch.ops.aten, name, None), getattr(torch.ops.aten, like, None)
        if packet is not None and known in registry:
            registry.setdefault(packet, registry[known])
    return registry


def storage_address() -> Callable[[Any], int]:
    """A function giving the address of a tensor's storage (fake tensors' too), which views of it share."""
    import torch

    checked("UntypedStorage._cdata", lambda: torch.empty(0).untyped_storage()._cdata)
    return lambda tensor: int(tensor.untyped_storage()._cdata)


def allocations_in_ranges(profiled: Any, prefix: str) -> dict[str, list[tuple[int, int]]]:
    """From a finished torch.profiler.profile(profile_memory=True): for each record_function range whose name
    starts with `prefix`, the CPU allocator's allocations made within it, in order, as (address, bytes), a free
    as negative bytes (the profiler's event tree, as torch.profiler._memory_profiler reads it)."""
    allocation = private("torch._C._profiler", "_EventType").Allocation
    roots = checked(
        "profile.profiler.kineto_results.experimental_event_tree",
        lambda: profiled.profiler.kineto_results.experimental_event_tree(),
    )

    def walk(node: Any) -> Any:
        yield node
        for child in node.children:
            yield from walk(child)

    found: dict[str, list[tuple[int, int]]] = {}
    for root in roots:
        for node in walk(root):
            if node.tag != allocation and str(node.name).startswith(prefix):
                inside = sorted(  # by time alone (a stable sort): a free never goes before its allocation
                    (
                        (event.start_time_ns, int(event.extra_fields.ptr), int(event.extra_fields.alloc_size))
                        for event in walk(node)
                        if event.tag == allocation
                    ),
                    key=lambda record: record[0],
                )
                found[str(node.name)] = [(address, size) for _, address, size in inside]
    return found


def overload_packet(func: Any) -> Any:
    """The operator an overload belongs to (aten.mm for aten.mm.default)."""
    return checked("OpOverload._overloadpacket", lambda: func._overloadpacket)


def storage_weak_ref() -> Any:
    """StorageWeakRef: a weak reference to a tensor's storage (fake tensors' too), with its address (`cdata`)
    and whether the storage has been freed (`expired()`)."""
    return private("torch.multiprocessing.reductions", "StorageWeakRef")


def tag(name: str) -> Any:
    """The operator tag `name` (torch.Tag.pointwise, torch.Tag.reduction)."""
    import torch

    return checked(f"torch.Tag.{name}", lambda: getattr(torch.Tag, name))


# -- the module-wise memory tracker --------------------------------------------------------------------


def recording_tracker() -> Any:
    """PyTorch's MemTracker, also recording every storage allocation and free (for the heap replay) and where
    in that stream its peak was reached. It keeps the process-wide peak only: MemTracker's per-module peaks
    cost a pass over every module at every operator, which made a trace's time grow with the square of the
    depth (a 24-layer BERT: 40 s a point against 6 s without)."""
    tracker_class = private("torch.distributed._tools.mem_tracker", "MemTracker")
    update = private("torch.distributed._tools.mem_tracker", "_UpdateType")
    checked("MemTracker._update_snap", lambda: tracker_class._update_snap)
    checked("MemTracker._update_peak_stats", lambda: tracker_class._update_peak_stats)

    class RecordingTracker(tracker_class):  # type: ignore[misc,valid-type]
        def __init__(self) -> None:
            super().__init__()
            self.events: list[tuple[int, int]] = []  # (storage, bytes) allocated, (storage, -1) freed
            self.peak_event = 0  # how many events had been recorded when the peak was reached

        def _update_peak_stats(self, peak_state: Any) -> None:
            for device, current in self._curr_mem_snap.items():
                if self._peak_mem.get(device, 0) < current[TOTAL]:
                    self._peak_mem[device] = current[TOTAL]
                    self._peak_mem_snap[device] = dict(current)
                    self.peak_event = len(self.events)

        def _update_snap(self, u_type: Any, winfo: Any, old_mem_consumed: Any = None, old_reftype: Any = None) -> None:
            super()._update_snap(u_type, winfo, old_mem_consumed, old_reftype)
            if u_type in (update.DEL, update.SIZE):
                self.events.append((id(winfo), -1))
            if u_type in (update.ADD, update.SIZE):
                self.events.append((id(winfo), winfo.size * winfo.element_size))

    return RecordingTracker()


def restart_peak(tracker: Any) -> None:
    """Forget the peak the tracker has seen so far: the next one is the peak of what runs from now, starting
    from the memory live now."""
    current = checked("MemTracker._curr_mem_snap", lambda: tracker._curr_mem_snap)
    peak = checked("MemTracker._peak_mem", lambda: tracker._peak_mem)
    snap = checked("MemTracker._peak_mem_snap", lambda: tracker._peak_mem_snap)
    peak.clear()
    snap.clear()
    for device, categories in current.items():
        peak[device] = categories[TOTAL]
        snap[device] = dict(categories)
    tracker.peak_event = len(tracker.events)
