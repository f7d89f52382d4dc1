"""Gradient accumulation in backward as the autograd engine does it on real tensors: in place where it may.

Where a tensor feeds several operators (a residual stream, the input of the query, key and value projections),
backward adds their gradients in the consumer's input buffer. PyTorch adds in place, into the buffer's first
gradient, when that gradient is a plain tensor, dense, and held by nothing else (tensor and storage use counts
of one); otherwise it allocates the sum (torch/csrc/autograd/input_buffer.cpp, accumulate and
can_accumulate_inplace, torch 2.13). Fake tensors are tensor subclasses, so under them the engine always
allocates: a traced step then shows one gradient-sized block per accumulation that a real step never has (three
per layer of a ViT's backward), and they move where glibc and the caching allocator place everything after.
This mode sits on top of the trace's modes during backward and turns such an engine accumulation back into the
in-place add a real step makes, where the real step's tensor would have passed the engine's test.

The use counts it reads include the references this mode's own dispatch holds, so what "held by nothing else"
reads as here is measured once per process on a graph whose accumulation is known to be in place (`calibrate`).
An engine accumulation is told from an add inside a backward function by the autograd nodes' hooks
(autograd_nodes.py): the engine adds a node's outputs after its post-hook and before the next node's pre-hook.
Nodes the marker never saw (those a custom autograd Function builds inside its own backward, as reentrant
checkpointing does) keep the flag of the node whose backward is running, so their sums stay allocated: the
side that over-counts. The trace's own checkpointing is non-reentrant, whose recomputation the marker sees.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from . import torch_private

_exclusive: list[tuple[int, int] | None] = []  # the calibrated counts, once measured


def dense(tensor: Any) -> bool:
    """Whether the tensor's elements fill its memory without gaps or overlaps in some order of its dimensions
    (c10's is_non_overlapping_and_dense)."""
    if str(tensor.layout) != "torch.strided":  # sparse and other layouts have no strides
        return False
    expected = 1
    for stride, size in sorted((s, n) for n, s in zip(tensor.shape, tensor.stride(), strict=True) if n != 1):
        if stride != expected:
            return False
        expected *= size
    return True


def use_counts(tensor: Any) -> tuple[int, int]:
    """The C++ use counts of the tensor and of its storage."""
    import torch

    return tensor._use_count(), torch._C._storage_Use_Count(tensor.untyped_storage()._cdata)


def in_place_accumulation(applying: Callable[[], bool]) -> Any:
    """A dispatch mode to enter around backward: an engine accumulation (an out-of-place add while `applying()`
    says no backward function is running) whose first operand passes the engine's in-place test is made in
    place. If the calibration does not find the engine's accumulation, the mode changes nothing."""
    import torch

    add, add_ = torch_private.aten("add").Tensor, torch_private.aten("add_").Tensor

    class InPlaceAccumulation(torch_private.dispatch_mode()):  # type: ignore[misc]
        def __init__(self) -> None:
            super().__init__()
            self.seen: list[tuple[int, int]] | None = None  # the counts met while calibrating
            self.made_in_place = 0

        def __torch_dispatch__(self, func: Any, types: Any, args: Any = (), kwargs: Any = None) -> Any:
            if func is add and len(args) == 2 and not kwargs and not applying():
                old, new = args
                if self.seen is not None:
                    self.seen.append(use_counts(old))
                elif (
                    _exclusive[0] is not None
                    and isinstance(new, torch.Tensor)
                    and old.shape == new.shape
                    and old.dtype == new.dtype
                    and old.device == new.device
                    and dense(old)
                    and use_counts(old) == _exclusive[0]
                ):
                    func = add_
                    self.made_in_place += 1
            return func(*args, **(kwargs or {}))

    mode = InPlaceAccumulation()
    if not _exclusive:
        _exclusive.append(calibrate(mode))
    return mode


def calibrate(mode: Any) -> tuple[int, int] | None:
    """The use counts this mode reads for a gradient held by nothing but the engine's buffer: `x`'s two
    gradients below each come from a multiplication by a constant, so the first is the engine's alone and the
    second is added into it in place. None unless that one accumulation is seen."""
    import torch

    mode.seen = []
    try:
        x = torch.ones(4, requires_grad=True)
        loss = (x * 2.0).sum() + (x * 3.0).sum()
        with mode:
            loss.backward()
        seen = mode.seen
    finally:
        mode.seen = None
    return seen[0] if len(seen) == 1 else None
