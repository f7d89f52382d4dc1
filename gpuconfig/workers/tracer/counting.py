"""FLOPs per compute dtype and the bytes every other operator moves, counted as the operators run."""

from __future__ import annotations

from typing import Any

from . import torch_private


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
            self.kernels = 0  # operators that move data: each launches at least one kernel on a GPU

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
                if packet in convolutions:  # cuDNN convolutions reach a different share of peak than GEMMs
                    self.conv_flops[dtype] = self.conv_flops.get(dtype, 0) + int(flops)
                self.matmul_bytes += moved
            else:
                self.other_bytes += moved
            return out

    return OpCounter()
