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


# Operators that reduce although their output is as large as their input: Inductor lowers each to reductions.
NORMALIZING = ("softmax", "norm", "var", "std")
# Operators that gather rows of their first input: they loop over what they gather, not over the table (which is
# counted whole, as eager PyTorch's count and Inductor's own, its worst case for indirect indexing, count it).
GATHERING = frozenset({"embedding", "index_select", "gather"})


class Fusion:
    """The bytes and kernels of a step's forward and backward as torch.compile (TorchInductor) runs them: the
    matrix products, convolutions and attention stay library kernels (its "extern" kernels: cuBLAS, cuDNN,
    SDPA), and the operators between two of them fuse into generated kernels. A fused region reads each
    tensor it did not make once, and writes only what outlives it: what a later kernel reads, or what is still
    alive when the region ends (a graph output, a tensor saved for backward); what it makes and uses up itself
    never reaches memory (torch/_inductor/scheduler.py fuses nodes whose buffers are read only inside the fused
    kernel).

    A region's operators become kernels as Inductor's scheduler fuses them (Scheduler.can_fuse): an operator
    joins the kernel of one it reads from, or of one that reads the same tensor, when both loop over the same
    number of elements (a reduction loops over its input), and an operator over a reduction's output joins
    that reduction's kernel; what shares no data or no loop stays a kernel of its own. Batch normalization in
    training reduces over all but the channel dimension, which its normalizing pass cannot share a loop with:
    its statistics are one kernel and its normalization another, and both read the full-size inputs
    (torch/_inductor/decomposition.py lowers it to a var_mean and pointwise work). What is left out:
    Inductor's partitioner recomputes cheap pointwise work in backward rather than saving it, and its
    templates (max-autotune) fuse epilogues into the matrix products. The optimizer step is priced as eager
    PyTorch runs it, as torch.compile(model) leaves it."""

    def __init__(self, address: Any, weak_ref: Any, pointwise: Any, reduction: Any) -> None:
        self.bytes = 0
        self.kernels = 0
        self.generated = 0  # of the kernels, those the fused regions make (the rest: library and eager kernels)
        self.fusing = False
        self._address, self._weak_ref, self._pointwise, self._reduction = address, weak_ref, pointwise, reduction
        self._region = 0  # the open region's number, 0 while none is open
        self._regions = 0
        # The open region's operators: each one's kernel (union-find), loop size and, for a reduction, output size;
        # the operator that made each storage in it, and the first to read each outside tensor with each loop size.
        self._kernel: list[int] = []
        self._loop: list[int] = []
        self._reduced: list[int] = []
        self._made_by: dict[int, int] = {}
        self._first_reader: dict[tuple[Any, ...], int] = {}
        self._read: set[tuple[Any, ...]] = set()  # what the open region has read
        # The open region's outputs: address -> (bytes, weak reference); those alive when it ends were written
        self._outputs: dict[int, tuple[int, Any]] = {}

    def _storage(self, tensor: Any) -> int | None:
        try:
            return int(self._address(tensor))
        except (RuntimeError, NotImplementedError):  # sparse and other storage-less tensors
            return None

    def close(self) -> None:
        """The open region ends (a library kernel follows, or the compiled part of a phase ends): its kernels, and
        what it made that is still alive was written."""
        if self._region:
            kernels = len({self._root(node) for node in range(len(self._kernel))})
            self.kernels += kernels
            self.generated += kernels
            self.bytes += sum(written for written, ref in self._outputs.values() if not ref.expired())
        self._region = 0

    def _root(self, node: int) -> int:
        while self._kernel[node] != node:
            self._kernel[node] = self._kernel[self._kernel[node]]
            node = self._kernel[node]
        return node

    def _join(self, a: int, b: int) -> None:
        self._kernel[self._root(a)] = self._root(b)

    def finish(self) -> None:
        """The compiled part of the step ends."""
        self.close()
        self.fusing = False

    def library(self, inputs: list[Any], outputs: list[Any], moved: int, extern: bool) -> None:
        """A matrix product, convolution or attention kernel (`extern`), or any operator outside the compiled part:
        it ends the open region, and its own bytes are counted where eager PyTorch counts them."""
        self.close()
        self.kernels += 1
        if not extern:
            self.bytes += moved

    def fused(self, func: Any, args: Any, inputs: list[Any], outputs: list[Any]) -> None:
        """An operator Inductor fuses into the open region (one is opened if none is)."""
        if not self._region:
            self._regions += 1
            self._region = self._regions
            self._read.clear()
            self._kernel.clear()
            self._loop.clear()
            self._reduced.clear()
            self._made_by.clear()
            self._first_reader.clear()
            self._outputs.clear()
        name = func.__name__.split(".")[0]
        gathers = name in GATHERING
        reduces = not gathers and self._reduces(func, inputs, outputs)
        loop = max((t.numel() for t in (inputs if reduces else outputs)), default=0)  # what the operator loops over
        node = len(self._kernel)
        self._kernel.append(node)
        self._loop.append(loop)
        self._reduced.append(max((t.numel() for t in outputs), default=0) if reduces else -1)
        for tensor in inputs:
            storage = self._storage(tensor)
            maker = self._made_by.get(storage) if storage is not None else None
            if maker is not None:  # made in this region
                if loop in (self._loop[maker], self._reduced[maker]):
                    self._join(node, maker)  # vertical fusion: it stays in registers
                continue
            size = tensor.element_size() * tensor.numel()
            if storage is None:
                self.bytes += size
                continue
            key = (storage, tensor.storage_offset(), tuple(tensor.shape), tuple(tensor.stride()), str(tensor.dtype))
            if key not in self._read:
                self._read.add(key)
                self.bytes += size
            reader = self._first_reader.setdefault((*key, loop), node)
            if reader != node:
                self._join(node, reader)  # horizontal fusion: one read of what both need
        if batch_norm_statistics(func, args):  # a statistics pass of its own over the full-size inputs
            largest = max((t.numel() for t in inputs), default=0)
            self.bytes += sum(t.numel() * t.element_size() for t in inputs if t.numel() == largest)
            self.kernels += 1
            self.generated += 1
        for tensor in outputs:
            storage = self._storage(tensor)
            if storage is not None:
                self._made_by[storage] = node
                self._outputs[storage] = (
                    tensor.numel() * tensor.element_size(),
                    self._weak_ref(tensor.untyped_storage()),
                )

    def _reduces(self, func: Any, inputs: list[Any], outputs: list[Any]) -> bool:
        tags = func.tags
        if self._reduction in tags:
            return True
        if self._pointwise in tags:
            return False
        if any(word in func.__name__ for word in NORMALIZING):
            return True
        largest_in = max((t.numel() for t in inputs), default=0)
        return bool(outputs) and max(t.numel() for t in outputs) < largest_in


def batch_norm_statistics(func: Any, args: Any) -> bool:
    """Whether an operator is batch normalization that computes its statistics (training, forward or backward):
    the first flag its schema takes is `training` (or `train`, `update`) in every BATCH_NORM operator."""
    name = func.__name__.split(".")[0]
    if name not in BATCH_NORM or name.endswith("no_training"):
        return False
    return bool(next((a for a in args if isinstance(a, bool)), True))


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
    weak_ref, address = torch_private.storage_weak_ref(), torch_private.storage_address()
    pointwise, reduction = torch_private.tag("pointwise"), torch_private.tag("reduction")

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
            self.fusion = Fusion(address, weak_ref, pointwise, reduction)  # the same step as torch.compile runs it

        def __enter__(self) -> Any:
            self.fusion.fusing = True  # entered where the step begins: its forward and backward compile
            return super().__enter__()

        def __exit__(self, *exc: Any) -> Any:
            if self.fusion.fusing:
                self.fusion.finish()
            return super().__exit__(*exc)

        def end(self, phase: str) -> None:
            """A phase of the step has ended: each compiles to graphs of its own, and the optimizer step does not."""
            if phase == "forward":
                self.fusion.close()
            elif self.fusion.fusing:
                self.fusion.finish()

        def __torch_dispatch__(self, func: Any, types: Any, args: Any = (), kwargs: Any = None) -> Any:
            kwargs = kwargs or {}
            out = func(*args, **kwargs)
            if func.is_view or func is unsafe_view or func.namespace == "prim" or "sym_" in func.name():
                return out  # views and metadata queries (a tensor's device, sizes) move no bytes
            packet = torch_private.overload_packet(func)
            self.kernels += 1
            inputs = [t for t in tree_flatten((args, kwargs))[0] if isinstance(t, torch.Tensor)]
            outputs = [t for t in tree_flatten(out)[0] if isinstance(t, torch.Tensor)]
            tensors = inputs + outputs
            moved = sum(t.numel() * t.element_size() for t in tensors)
            if packet in flop_registry or not self.fusion.fusing:
                self.fusion.library(inputs, outputs, moved, packet in flop_registry)
            else:
                self.fusion.fused(func, args, inputs, outputs)
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
