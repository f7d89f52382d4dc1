"""What training changes in a model: weights stored quantized, and the optimizer (LoRA adapters: lora.py)."""

from __future__ import annotations

import math
from typing import Any

from .events import TraceError


def linear_layer_sizes(module: Any) -> tuple[int, int] | None:
    """(in_features, out_features) of torch's nn.Linear and of transformers' Conv1D (GPT-2's, weight stored
    transposed); None for any other module."""
    from torch import nn

    if isinstance(module, nn.Linear):
        return module.in_features, module.out_features
    if type(module).__name__ == "Conv1D" and getattr(module, "weight", None) is not None:
        rows, cols = module.weight.shape
        return rows, cols
    return None


def linear_layers(model: Any) -> list[tuple[Any, str, Any, int, int]]:
    """(parent, name, module, in_features, out_features) of every Linear inside the model's blocks (see
    linear_layer_sizes); the output head excepted (the output embeddings, a classifier or score layer), as
    PEFT's "all-linear" leaves it."""
    output = model.get_output_embeddings() if hasattr(model, "get_output_embeddings") else None
    named = [getattr(model, name, None) for name in ("lm_head", "classifier", "score")]
    heads = {id(part) for head in (output, *named) if head is not None for part in head.modules()}
    found = []
    for parent in list(model.modules()):
        for name, child in parent.named_children():
            if id(child) in heads:
                continue
            if (sizes := linear_layer_sizes(child)) is not None:
                found.append((parent, name, child, *sizes))
    return found


def replace_linears(model: Any, wrapper: Any, what: str) -> int:
    """Put wrapper(layer, in_features, out_features) in place of every Linear of linear_layers()."""
    layers = linear_layers(model)
    if not layers:
        raise TraceError("unsupported", f"{what} found no Linear layer in this model")
    for parent, name, child, in_features, out_features in layers:
        setattr(parent, name, wrapper(child, in_features, out_features))
    return len(layers)


def quantize_linears(model: Any, bits: int, double_quant: bool = False) -> int:
    """Store every Linear weight inside the model's blocks quantized, as bitsandbytes does.

    8 bits (LLM.int8, Linear8bitLt): an int8 weight and one fp32 scale per output row. 4 bits (NF4,
    Linear4bit, as QLoRA loads base weights): two weights per byte and one fp32 absmax per block of 64
    (32/64 = 0.5 bits per weight); with double quantization (bnb_4bit_use_double_quant) the absmax are
    themselves quantized to 8 bits in blocks of 256 with one fp32 constant each (8/64 + 32/(64*256) = 0.127
    bits per weight, Dettmers et al. 2023, arXiv 2305.14314, section 3; bitsandbytes' quantize_4bit with
    compress_statistics keeps its offset as a Python float). The forward pass dequantizes the weight into a
    temporary in the activations' dtype and multiplies by it. The output head keeps its dtype, as
    transformers' bitsandbytes integration leaves it unconverted.
    """
    import torch
    from torch import nn

    class QuantLinear(nn.Module):
        def __init__(self, base: nn.Module, in_features: int, out_features: int) -> None:
            super().__init__()
            self.in_features, self.out_features = in_features, out_features
            count = in_features * out_features
            frozen = {"requires_grad": False}
            if bits == 8:
                shape = (self.out_features, self.in_features)
                self.qweight = nn.Parameter(torch.empty(shape, dtype=torch.int8), **frozen)
                self.scales = nn.Parameter(torch.empty(self.out_features, dtype=torch.float32), **frozen)
            else:
                self.qweight = nn.Parameter(torch.empty(math.ceil(count / 2), dtype=torch.uint8), **frozen)
                blocks = math.ceil(count / 64)
                if double_quant:
                    self.scales = nn.Parameter(torch.empty(blocks, dtype=torch.uint8), **frozen)
                    second = math.ceil(blocks / 256)
                    self.scales2 = nn.Parameter(torch.empty(second, dtype=torch.float32), **frozen)
                else:
                    self.scales = nn.Parameter(torch.empty(blocks, dtype=torch.float32), **frozen)
            self.bias = base.bias

        def dequantized(self, dtype: Any, device: Any) -> Any:
            if bits == 8:
                return self.qweight.to(dtype)
            return torch.empty(self.out_features, self.in_features, dtype=dtype, device=device)

        def forward(self, x: Any) -> Any:
            out = QuantizedMatmul.apply(x, self)
            return out if self.bias is None else out + self.bias

    class QuantizedMatmul(torch.autograd.Function):
        """x @ W^T with W dequantized for the product only, in the forward pass and again in the backward
        one, as bitsandbytes' MatMul4Bit and MatMul8bitLt do: no full-width copy of a frozen weight is kept
        between the passes, and no gradient of it is computed."""

        @staticmethod
        def forward(ctx: Any, x: Any, layer: Any) -> Any:
            ctx.layer = layer
            return x @ layer.dequantized(x.dtype, x.device).t()

        @staticmethod
        def backward(ctx: Any, grad: Any) -> Any:
            return grad @ ctx.layer.dequantized(grad.dtype, grad.device), None

    return replace_linears(model, QuantLinear, "quantized weights")


def make_optimizer(name: str, parameters: list[Any], foreach: bool) -> Any:
    import torch

    if name == "sgd":
        return torch.optim.SGD(parameters, lr=1e-3, momentum=0.9, foreach=foreach)
    if name == "adamw":
        return torch.optim.AdamW(parameters, lr=1e-4, foreach=foreach)
    if name == "adafactor":
        from transformers.optimization import Adafactor

        return Adafactor(parameters, lr=1e-3, relative_step=False, scale_parameter=False, warmup_init=False)
    if name == "adamw8bit":
        return eight_bit_adamw(parameters)
    raise TraceError("input", f"unknown optimizer {name!r}")


def eight_bit_adamw(parameters: list[Any]) -> Any:
    """The memory of bitsandbytes' 8-bit AdamW: two uint8 states per parameter and one fp32 absmax per
    2,048-value block (its blockwise quantization), updated in place by a fused kernel with no
    parameter-sized temporaries. bitsandbytes itself cannot run on fake tensors. A torch Optimizer, so
    the memory tracker files its states as optimizer states."""
    import torch

    block = 2048

    class EightBitAdamW(torch.optim.Optimizer):
        def __init__(self, params: list[Any]) -> None:
            super().__init__([p for p in params if p.requires_grad], {"lr": 1e-4})

        @torch.no_grad()
        def step(self, closure: Any = None) -> Any:
            for group in self.param_groups:
                for p in group["params"]:
                    if p.grad is None:
                        continue
                    state = self.state[p]
                    if not state:
                        blocks = math.ceil(p.numel() / block)
                        state["exp_avg"] = torch.zeros(p.shape, dtype=torch.uint8)
                        state["exp_avg_sq"] = torch.zeros(p.shape, dtype=torch.uint8)
                        state["absmax1"] = torch.zeros(blocks, dtype=torch.float32)
                        state["absmax2"] = torch.zeros(blocks, dtype=torch.float32)
                    p.add_(p.grad, alpha=-group["lr"])

    return EightBitAdamW(parameters)
