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
"""

from __future__ import annotations

from collections.abc import Collection
from typing import Any

from . import torch_private


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


def kernel_marker(events: list[Any], names: Collection[str]) -> Any:
    """A TorchDispatchMode that appends (storage events so far, operator name) to `marks` after every call of
    an operator in `names` (as str() names it: "aten.gelu.default"); the call's own outputs are in `events` by
    then, as a real kernel allocates its output before its scratch."""
    dispatch_mode = torch_private.dispatch_mode()
    wanted = frozenset(names)

    class KernelMarker(dispatch_mode):  # type: ignore[misc,valid-type]
        def __init__(self) -> None:
            super().__init__()
            self.marks: list[tuple[int, str]] = []

        def __torch_dispatch__(self, func: Any, types: Any, args: Any = (), kwargs: Any = None) -> Any:
            out = func(*args, **(kwargs or {}))
            name = str(func)
            if name in wanted and WHEN.get(name, lambda *_: True)(args, kwargs or {}):
                self.marks.append((len(events), name))
            return out

    return KernelMarker()
