"""cuDNN's convolution workspaces in a trace for a CUDA GPU.

On a GPU every convolution PyTorch hands to cuDNN takes a workspace from the CUDA caching allocator for the
engine cuDNN's heuristics choose (aten/src/ATen/native/cudnn/Conv_v8.cpp, `run_conv_plan`: the plan's
`getWorkspaceSize()` bytes, allocated through c10::cuda::CUDACachingAllocator and released when the call returns).
The tensor-core engines work in NHWC; on PyTorch's default NCHW tensors cuDNN converts the operands into that
workspace (NVIDIA, "Convolutional Layers User's Guide", Tensor Layouts In Memory: NCHW vs NHWC,
https://docs.nvidia.com/deeplearning/performance/dl-performance-convolutional/index.html#tensor-layout), with the
channels of 16-bit data padded to a multiple of 8, the tensor cores' alignment (the same guide, "Channels In And
Out"). The trace's fake tensors run no cuDNN, so each convolution here allocates, after its outputs and freed at
once, what those conversions hold: the input, the weight and the output in NHWC (forward); the output's gradient,
the weight and the input's gradient (backward, data); the input, the output's gradient and the weight's gradient
(backward, filter). Recorded allocation streams of real runs on an H100 (cuDNN 9.19, torch 2.11;
benchmarks/gpu_allocations.py) show a workspace taken and freed next to every convolution's output: in an fp32
ResNet-18 most of them are these sizes to within a few percent, but cuDNN's heuristics pick other engines for other
shapes and for 16-bit data, whose workspaces run from none to several times these sizes. Workspace sizes cannot
be known before cuDNN picks, so the reserved memory is replayed with these workspaces and without any (point.py),
and the larger is kept. Channels-last tensors need no conversion and get no workspace here.
"""

from __future__ import annotations

import contextlib
from collections.abc import Iterator
from typing import Any

from . import torch_private

HALF_CHANNEL_ALIGNMENT = 8


def nhwc_bytes(shape: Any, element_size: int, half: bool) -> int:
    """Bytes of a tensor of `shape` (N, C, spatial...) converted to channels-last, padded as the tensor cores need."""
    dims = [int(d) for d in shape]
    if len(dims) < 3:
        return 0
    if half:
        dims[1] = -(-dims[1] // HALF_CHANNEL_ALIGNMENT) * HALF_CHANNEL_ALIGNMENT
    count = 1
    for d in dims:
        count *= d
    return count * element_size


def _channels_last(tensor: Any) -> bool:
    import torch

    if tensor.dim() == 4:
        return bool(tensor.is_contiguous(memory_format=torch.channels_last)) and not tensor.is_contiguous()
    if tensor.dim() == 5:
        return bool(tensor.is_contiguous(memory_format=torch.channels_last_3d)) and not tensor.is_contiguous()
    return False


def workspaces(func: Any, args: Any, out: Any) -> list[int]:
    """The workspaces (bytes) of one convolution call, in the order it takes them; [] for any other operator."""
    import torch

    aten = torch.ops.aten
    packet = torch_private.overload_packet(func)
    if packet is aten.convolution:
        data, weight = args[0], args[1]
        tensors = [(data, data), (weight, data), (out, data)]
    elif packet is aten.convolution_backward:
        grad_output, data, weight = args[0], args[1], args[2]
        mask = list(args[10]) if len(args) > 10 else [True, True, False]  # output_mask: no default, so positional
        grad_input, grad_weight = out[0], out[1]
        calls = []
        if mask[0] and grad_input is not None:
            calls.append([(grad_output, data), (weight, data), (grad_input, data)])
        if mask[1] and grad_weight is not None:
            calls.append([(data, data), (grad_output, data), (grad_weight, data)])
        if _channels_last(data):
            return []
        return [sum(_bytes(t, like) for t, like in call) for call in calls]
    else:
        return []
    if _channels_last(data):
        return []
    return [sum(_bytes(t, like) for t, like in tensors)]


def _bytes(tensor: Any, like: Any) -> int:
    import torch

    half = like.dtype in (torch.float16, torch.bfloat16)
    return nhwc_bytes(tensor.shape, tensor.element_size(), half)


class Recorded:
    """Where in the tracker's event stream the workspaces were taken, so the stream can be replayed without them."""

    def __init__(self) -> None:
        self.indices: set[int] = set()

    def without(self, events: list[tuple[int, int]]) -> list[tuple[int, int]]:
        return [event for at, event in enumerate(events) if at not in self.indices]


@contextlib.contextmanager
def cudnn_workspaces(device: str | None, events: list[tuple[int, int]]) -> Iterator[Recorded]:
    """In a trace for a CUDA GPU, each convolution takes its cuDNN workspace, as the module's docstring says.
    Enter it inside the memory tracker whose `events` it adds to, so that the tracker sees each workspace come
    and go; what it yields says which events were the workspaces'."""
    recorded = Recorded()
    if device != "cuda":
        yield recorded
        return
    import torch

    dispatch_mode = torch_private.dispatch_mode()

    class Workspaces(dispatch_mode):  # type: ignore[misc,valid-type]
        def __torch_dispatch__(self, func: Any, types: Any, args: Any = (), kwargs: Any = None) -> Any:
            out = func(*args, **(kwargs or {}))
            for size in workspaces(func, args, out):
                if size > 0:
                    first = len(events)
                    held = torch.empty(size, dtype=torch.uint8)
                    # Only the workspace's own allocation and free: a collection the allocation sets off may
                    # free other tensors in between, and their frees stay in the stream.
                    taken = next((at for at in range(first, len(events)) if events[at][1] == size), None)
                    del held
                    if taken is not None:
                        key = events[taken][0]
                        freed = next((at for at in range(taken + 1, len(events)) if events[at] == (key, -1)), None)
                        recorded.indices.update(at for at in (taken, freed) if at is not None)
            return out

    with Workspaces():
        yield recorded
