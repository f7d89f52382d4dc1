"""CUDA autocast's float32 policy in a trace that runs on CPU fake tensors.

The trace stands in for `torch.autocast("cuda")` with `torch.autocast("cpu")`, since its fake tensors are CPU
tensors. The two run matrix products alike in the lower precision, but CUDA autocast also runs a list of ops in
float32 that the CPU's runs in the input's dtype (aten/src/ATen/autocast_mode.cpp, the AutocastCUDA and
AutocastCPU tables; PyTorch docs, "CUDA Ops that can autocast to float32", https://docs.pytorch.org/docs/stable/
amp.html). Scaled dot-product attention, which both run in the lower precision, is attention.py's.
Their outputs, and what backward keeps of them, are then float32: GPT-2's tanh GELU (`pow` and the chain after it)
keeps twice the bytes per layer on a GPU. Measured on an H100 (benchmarks/estimate_accuracy_gpu.py,
gpt2-finetune-amp): the real step kept 3.5 GiB more after its forward than the CPU policy traced.

As autocast does, an op on the list with a half-precision floating input runs with autocast off and every
floating tensor argument in float32, except those that take an output dtype (softmax, log_softmax, sum, prod,
cumsum, cumprod, the vector and matrix norms: autocast's fp32_set_opt_dtype), which are asked for a float32 result
instead. Left as the CPU has them: ops on the CPU's fp32 list that CUDA runs as they come (3-D pooling, padding,
FFTs, linear algebra), rare in the models traced here.
"""

from __future__ import annotations

import contextlib
from collections.abc import Callable, Iterator
from typing import Any

from . import torch_private

# The fp32 policy of aten/src/ATen/autocast_mode.cpp's AutocastCUDA table (and the docs' list, which adds the
# reflected division), by the name each op has as a torch function, a Tensor method or a torch.nn.functional
# function. cross_entropy is not on it: CUDA runs its parts (cross_entropy below); the CPU's list has it.
FLOAT32_OPS = frozenset(
    {
        "__pow__", "__rpow__", "__rdiv__", "__rtruediv__", "pow", "acos", "asin", "cosh", "sinh", "tan", "erfinv",
        "exp", "expm1", "log", "log10", "log1p", "log2", "reciprocal", "rsqrt", "renorm", "norm", "normalize",
        "dist", "cdist", "pdist", "cosine_similarity", "layer_norm", "group_norm", "softplus", "logsumexp",
        "binary_cross_entropy_with_logits", "cosine_embedding_loss", "hinge_embedding_loss", "huber_loss", "kl_div",
        "l1_loss", "margin_ranking_loss", "mse_loss", "multilabel_margin_loss", "multi_margin_loss", "nll_loss",
        "poisson_nll_loss", "smooth_l1_loss", "soft_margin_loss", "triplet_margin_loss",
    }
)  # fmt: skip
# Its fp32_set_opt_dtype policy: a float32 result is asked for, the input is not copied (softmin is softmax's).
OUTPUT_DTYPE_OPS = frozenset(
    {
        "softmax", "softmin", "log_softmax", "sum", "prod", "cumsum", "cumprod", "linalg_vector_norm",
        "vector_norm", "linalg_matrix_norm", "matrix_norm",
    }
)  # fmt: skip


@contextlib.contextmanager
def cuda_float32_policy(device: str | None) -> Iterator[None]:
    """While CPU autocast stands in for CUDA's, the ops CUDA autocast runs in float32 run in float32."""
    if device != "cuda":
        yield
        return
    with float32_policy_mode():
        yield


def checkpoint_contexts(device: str | None) -> Callable[[], tuple[Any, Any]] | None:
    """torch.utils.checkpoint's context_fn for a trace for a GPU: the policy again while backward recomputes a
    checkpointed segment (function modes entered around the step are not in force inside the autograd engine,
    and a recomputation that ran another dtype than its forward fails checkpoint's metadata check)."""
    if device != "cuda":
        return None
    return lambda: (contextlib.nullcontext(), float32_policy_mode())


def float32_policy_mode() -> Any:
    """A function mode that runs the float32 list in float32 whenever CPU autocast is on (a real CUDA run's
    autocast is CUDA's own, and the mode leaves it alone)."""
    import torch

    half = (torch.float16, torch.bfloat16)

    def lowered(value: Any) -> bool:
        return isinstance(value, torch.Tensor) and value.dtype in half

    def widened(value: Any) -> Any:
        return value.float() if lowered(value) else value

    class Float32Policy(torch_private.function_mode()):  # type: ignore[misc]
        def __torch_function__(self, func: Any, types: Any, args: Any = (), kwargs: Any = None) -> Any:
            kwargs = kwargs or {}
            name = getattr(func, "__name__", "")
            if not torch.is_autocast_enabled("cpu") or name not in FLOAT32_OPS | OUTPUT_DTYPE_OPS | {"cross_entropy"}:
                return func(*args, **kwargs)
            values = list(args) + list(kwargs.values())
            if not any(lowered(v) for v in values):
                return func(*args, **kwargs)
            if name == "cross_entropy":
                return cross_entropy(func, args, kwargs)
            with torch.autocast("cpu", enabled=False):
                if name in OUTPUT_DTYPE_OPS:
                    given = kwargs.get("dtype") is not None or any(isinstance(a, torch.dtype) for a in args)
                    first = args[0] if args else kwargs.get("input", kwargs.get("self"))
                    if given or not lowered(first):  # autocast keeps a dtype the caller gave
                        return func(*args, **kwargs)
                    return func(*args, **{**kwargs, "dtype": torch.float32})
                return func(*[widened(a) for a in args], **{k: widened(v) for k, v in kwargs.items()})

    return Float32Policy()


def cross_entropy(func: Any, args: Any, kwargs: dict[str, Any]) -> Any:
    """torch.nn.functional.cross_entropy of half-precision logits as CUDA autocast runs it. ATen's cross_entropy_loss
    (aten/src/ATen/native/LossNLL.cpp) calls log_softmax with the logits' own dtype, which autocast keeps (a dtype
    the caller gave), then nll_loss, on the float32 list: a float32 copy of the half log-probabilities, which
    nll_loss keeps for backward beside the half ones log_softmax keeps. With probabilities for targets or label
    smoothing, as the CPU's policy runs it (a float32 loss either way)."""
    import inspect

    from torch.nn import functional

    bound = inspect.signature(functional.cross_entropy).bind(*args, **kwargs)
    bound.apply_defaults()
    given = bound.arguments
    target = given["target"]
    legacy = given["size_average"] is not None or given["reduce"] is not None
    if given["label_smoothing"] or target.is_floating_point() or legacy:
        return func(*args, **kwargs)
    import torch

    logits = given["input"]
    with torch.autocast("cpu", enabled=False):
        half = functional.log_softmax(logits, dim=1 if logits.dim() > 1 else 0, dtype=logits.dtype)
        return functional.nll_loss(
            half.float(), target, given["weight"], ignore_index=given["ignore_index"], reduction=given["reduction"]
        )
