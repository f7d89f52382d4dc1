"""FLOPs per compute dtype and the bytes every other operator moves, counted as the operators run; and the FLOPs
and bytes of the matrix products and convolutions by arithmetic intensity, for pricing each at the roofline."""

from __future__ import annotations

import math
from typing import Any

from . import torch_private

# Intensity classes: a quarter of an octave of FLOPs per byte each. Every operator of a class sits within 19 % of
# the others' intensity, so a GPU prices the class as it would price each of its operators: compute-bound or
# bandwidth-bound (Williams, Waterman and Patterson, "Roofline", Communications of the ACM 52(4), 2009).
CLASSES_PER_OCTAVE = 4

# Batch normalization, forward and backward: its bytes and elements are counted apart because on a CUDA GPU,
# over a channels-first (NCHW) tensor, PyTorch's kernels reduce each channel over the batch and the image in one
# block of threads (aten/src/ATen/native/cuda/Normalization.cuh, batch_norm_collect_statistics_kernel: `plane =
# blockIdx.x`), so the multiprocessors' instructions per element pace them more than memory bandwidth does,
# where channels-last (NHWC) kernels stream (estimate.time_at).
BATCH_NORM = frozenset(
    {
        *("native_batch_norm", "native_batch_norm_backward", "batch_norm_backward"),
        *("_native_batch_norm_legit", "_native_batch_norm_legit_functional", "_native_batch_norm_legit_no_training"),
        *("cudnn_batch_norm", "cudnn_batch_norm_backward", "miopen_batch_norm", "miopen_batch_norm_backward"),
    }
)


def intensity_class(flops: float, moved: float) -> int:
    """The class of an operator's FLOPs per byte moved (its inputs, weights and outputs once each)."""
    return math.floor(CLASSES_PER_OCTAVE * math.log2(max(flops, 1.0) / max(moved, 1.0)))


def op_counter() -> Any:
    """A dispatch mode that adds up FLOPs per compute dtype and the bytes every other operator moves."""
    import torch

    flop_registry = torch_private.flop_registry()
    tree_flatten = torch_private.tree_flatten()
    unsafe_view = torch_private.aten("_unsafe_view").default  # a view in all but name: moves no bytes
    aten = torch.ops.aten
    convolutions = {aten.convolution, torch_private.aten("_convolution"), aten.convolution_backward}
    dispatch_mode = torch_private.dispatch_mode()

    class OpCounter(dispatch_mode):  # type: ignore[misc,valid-type]
        def __init__(self) -> None:
            super().__init__()
            self.flops: dict[str, int] = {}
            self.conv_flops: dict[str, int] = {}
            self.matmul_bytes = 0
            self.other_bytes = 0
            self.batch_norm_bytes = 0  # the part of other_bytes that BATCH_NORM operators move
            self.batch_norm_elements = 0  # and the elements of those tensors
            self.kernels = 0  # operators that move data: each launches at least one kernel on a GPU
            # "kind.dtype.class" -> [FLOPs, bytes]: kind "mm" (matrix products, attention) or "conv"
            self.by_intensity: dict[str, list[int]] = {}

        def __torch_dispatch__(self, func: Any, types: Any, args: Any = (), kwargs: Any = None) -> Any:
            kwargs = kwargs or {}
            out = func(*args, **kwargs)
            if func.is_view or func is unsafe_view or func.namespace == "prim" or "sym_" in func.name():
                return out  # views and metadata queries (a tensor's device, sizes) move no bytes
            packet = torch_private.overload_packet(func)
            self.kernels += 1
            tensors = [t for t in tree_flatten((args, kwargs, out))[0] if isinstance(t, torch.Tensor)]
            moved = sum(t.numel() * t.element_size() for t in tensors)
            if packet in flop_registry:
                flops = flop_registry[packet](*args, **kwargs, out_val=out)
                dtype = str(tensors[0].dtype).removeprefix("torch.") if tensors else "float32"
                self.flops[dtype] = self.flops.get(dtype, 0) + int(flops)
                convolution = packet in convolutions
                if convolution:  # cuDNN convolutions reach a different share of peak than GEMMs
                    self.conv_flops[dtype] = self.conv_flops.get(dtype, 0) + int(flops)
                self.matmul_bytes += moved
                if flops > 0:
                    key = f"{'conv' if convolution else 'mm'}.{dtype}.{intensity_class(flops, moved)}"
                    totals = self.by_intensity.setdefault(key, [0, 0])
                    totals[0] += int(flops)
                    totals[1] += moved
            else:
                self.other_bytes += moved
                if packet.__name__ in BATCH_NORM:
                    self.batch_norm_bytes += moved
                    self.batch_norm_elements += sum(t.numel() for t in tensors)
            return out

    return OpCounter()
