"""Attention as the workload's implementation runs it on the target device, though the trace runs on fake
CPU tensors.

The implementation (the request's "attention") is one of:
- auto: what transformers and PyTorch pick. transformers builds the model with "sdpa" where the model class
  supports it, else "eager" (modeling_utils.py, PreTrainedModel.get_correct_attn_implementation, transformers
  5.24); SDPA then takes the first kernel whose checks pass in torch._C._get_sdp_priority_order() (flash,
  memory-efficient, math in torch 2.13). On the CPU the trace runs torch's own CPU choice. For CUDA it runs
  the choice an sm80+ card makes: flash when the call suits it, else memory-efficient, except for grouped
  key/value heads, which transformers passes as they are (enable_gqa, when it passes no mask:
  integrations/sdpa_attention.py, use_gqa_in_sdpa) and which the memory-efficient kernel does not take
  (sdp_utils.cpp, use_mem_efficient_attention: check_batch_size_and_num_heads_dense<false>), so such a call
  falls back to math and keeps the length x length scores. Measured on an H100 (benchmarks/
  estimate_accuracy_gpu.py, llama-small-generate-4096): a 4,096-token fp32 prompt of a grouped-query model
  peaks at 3.0 GiB where the memory-efficient kernel would hold 1.1 GiB. The flash and memory-efficient
  kernels keep the same memory (a log-sum-exp per query), so an older card, whose choice the answer names,
  changes nothing traced where the call is not grouped.
- eager: transformers' eager_attention_forward: matmul, softmax and dropout, with the batch x heads x length
  x length probabilities kept for backward.
- sdpa_math, sdpa_efficient, sdpa_flash: scaled_dot_product_attention forced to one kernel, as
  torch.nn.attention.sdpa_kernel forces it. The math path keeps the length x length probabilities (in fp32:
  torch.backends.cuda.fp16_bf16_reduction_math_sdp_allowed() is False by default); the fused CUDA kernels are
  run through their aten operators, whose fake implementations give exactly what they keep for backward.
- flash_attention_2: the flash-attn package's kernel, which transformers calls instead of SDPA. It is the
  same FlashAttention-2 code as PyTorch's flash kernel, whose operator stands in for it here (the package
  needs a GPU to import); its padding is handled by unpadding, so the trace's unpadded inputs take no mask.
"""

from __future__ import annotations

import contextlib
import math
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from typing import Any

from . import torch_private
from .events import TraceError

# aten/src/ATen/native/transformers/cuda/sdp_utils.cpp, check_head_dim_size_flash (torch 2.13).
FLASH_MAX_HEAD_DIM = 256
TRANSFORMERS_ONLY = ("eager", "flash_attention_2")


def config_fields(request: dict[str, Any], config: dict[str, Any]) -> dict[str, Any]:
    """What a transformers config is built with: eager is asked for; every other choice leaves transformers
    its own pick (sdpa where the model class supports it), checked once the model is built."""
    if request.get("attention") == "eager" and config.get("_class_name") is None:
        return {"attn_implementation": "eager"}
    return {}


@dataclass
class AttentionRecord:
    """What the model's attention was and what each call ran, for the answer to say."""

    transformers: str | None
    supports_sdpa: bool | None
    supports_flash: bool | None
    kernels: set[str] = field(default_factory=set)
    head_dim: int = 0
    mask: bool = False
    dtypes: set[str] = field(default_factory=set)
    grouped: bool = False  # a call passed fewer key/value heads than query heads (enable_gqa)

    def add(self, kernel: str, query: Any, attn_mask: Any, grouped: bool = False) -> None:
        self.kernels.add(kernel)
        self.grouped = self.grouped or grouped
        self.head_dim = max(self.head_dim, int(query.shape[-1]))
        self.mask = self.mask or attn_mask is not None
        self.dtypes.add(str(query.dtype).removeprefix("torch."))

    def facts(self) -> dict[str, Any]:
        return {
            "transformers": self.transformers,
            "supports_sdpa": self.supports_sdpa,
            "supports_flash": self.supports_flash,
            "kernels": sorted(self.kernels),
            "head_dim": self.head_dim or None,
            "mask": self.mask,
            "dtypes": sorted(self.dtypes),
            "grouped": self.grouped,
        }


def model_record(model: Any, asked: str) -> AttentionRecord:
    """The model's attention as transformers built it; TraceError where it cannot run what was asked."""
    config = getattr(model, "config", None)
    built = getattr(config, "_attn_implementation", None) if hasattr(model, "_supports_sdpa") else None
    record = AttentionRecord(
        built, getattr(model, "_supports_sdpa", None), getattr(model, "_supports_flash_attn", None)
    )
    name = type(model).__name__
    if built is None and asked in TRANSFORMERS_ONLY:
        raise TraceError(
            "unsupported", f"attention {asked} is a transformers setting; {name} is not a transformers model"
        )
    if built == "eager" and asked != "eager" and asked != "auto":
        raise TraceError(
            "unsupported", f"{name} has no SDPA attention in this transformers (_supports_sdpa is false): choose eager"
        )
    if asked == "flash_attention_2" and not record.supports_flash:
        raise TraceError(
            "unsupported", f"{name} has no flash attention in transformers (_supports_flash_attn is false)"
        )
    return record


def flash_takes(query: Any, key: Any, attn_mask: Any, is_causal: bool) -> str:
    """Why PyTorch's CUDA flash kernel cannot take this call, or "" (sdp_utils.cpp, use_flash_attention:
    check_dtypes_low_precision, check_for_attn_mask, check_head_dim_size_flash,
    check_flash_causal_non_square_seqlens; the card's own checks are the answer's)."""
    import torch

    if query.dtype not in (torch.float16, torch.bfloat16):
        return f"flash attention takes fp16 or bf16, not {str(query.dtype).removeprefix('torch.')}"
    if attn_mask is not None:
        return "flash attention takes no attention mask, and this model passes one"
    if query.shape[-1] > FLASH_MAX_HEAD_DIM or key.shape[-1] != query.shape[-1]:
        return f"flash attention takes a head size of at most {FLASH_MAX_HEAD_DIM}, not {query.shape[-1]}"
    if is_causal and query.shape[-2] != key.shape[-2]:
        return "flash attention takes a causal mask only where queries and keys are as many"
    return ""


@contextlib.contextmanager
def attention_kernels(request: dict[str, Any], model: Any) -> Iterator[AttentionRecord]:
    """Every scaled_dot_product_attention call runs the kernel the workload's implementation runs on its
    device; the record says which ran. Eager attention calls no SDPA: transformers built it so."""
    import torch
    from torch.nn import functional
    from torch.nn.attention import SDPBackend, sdpa_kernel

    asked, device = str(request.get("attention", "auto")), request.get("device")
    record = model_record(model, asked)
    original = functional.scaled_dot_product_attention
    aten_flash = torch_private.aten("_scaled_dot_product_flash_attention")
    aten_efficient = torch_private.aten("_scaled_dot_product_efficient_attention")

    def forced(backend: Any, *args: Any, **kwargs: Any) -> Any:
        try:
            with sdpa_kernel(backend):
                return original(*args, **kwargs)
        except RuntimeError as exc:  # torch: "No available kernel"
            why = str(exc).splitlines()[0]
            raise TraceError("unsupported", f"attention {asked} cannot run this model on the {device}: {why}") from exc

    def efficient(
        query: Any, key: Any, value: Any, attn_mask: Any, dropout_p: float, is_causal: bool, scale: Any
    ) -> Any:
        # The kernel takes dropout, any additive mask and fp32 (sdp_utils.cpp, use_mem_efficient_attention). A
        # boolean mask becomes an additive bias first, as convert_boolean_attn_mask does.
        if attn_mask is not None and attn_mask.dtype == torch.bool:
            attn_mask = additive(attn_mask, query.dtype)
        if attn_mask is not None:
            attn_mask = attn_mask.expand(query.shape[0], query.shape[1], query.shape[2], key.shape[2])
        lse = torch.is_grad_enabled() and any(t.requires_grad for t in (query, key, value))
        return aten_efficient(query, key, value, attn_mask, lse, dropout_p, is_causal, scale=scale)[0]

    def flash(query: Any, key: Any, value: Any, dropout_p: float, is_causal: bool, scale: Any) -> Any:
        return aten_flash(query, key, value, dropout_p, is_causal, False, scale=scale)[0]

    def routed(
        query: Any,
        key: Any,
        value: Any,
        attn_mask: Any = None,
        dropout_p: float = 0.0,
        is_causal: bool = False,
        scale: float | None = None,
        enable_gqa: bool = False,
    ) -> Any:
        args = (query, key, value, attn_mask, dropout_p, is_causal)
        if query.dim() != 4:
            return original(*args, scale=scale, enable_gqa=enable_gqa)
        if device != "cuda":  # a real CPU run: torch's CPU kernels, as asked or as torch picks
            backend = {"sdpa_math": SDPBackend.MATH, "sdpa_flash": SDPBackend.FLASH_ATTENTION}.get(asked)
            if backend is not None:
                record.add("math" if asked == "sdpa_math" else "flash", query, attn_mask)
                return forced(backend, *args, scale=scale, enable_gqa=enable_gqa)
            output, kernel = cpu_choice(lambda: original(*args, scale=scale, enable_gqa=enable_gqa))
            record.add(kernel, query, attn_mask)
            return output
        if torch.is_autocast_enabled("cpu"):  # standing in for CUDA's, which runs SDPA in the lower precision
            low = torch.get_autocast_dtype("cpu")
            query, key, value = (t.to(low) if t.is_floating_point() else t for t in (query, key, value))
            if attn_mask is not None and attn_mask.is_floating_point():
                attn_mask = attn_mask.to(low)
        grouped = bool(enable_gqa) and key.shape[-3] != query.shape[-3]
        if asked == "sdpa_math":
            record.add("math", query, attn_mask, grouped)
            return cuda_math(query, key, value, attn_mask, dropout_p, is_causal, scale)
        if asked == "flash_attention_2":
            attn_mask = None  # unpadded inputs: transformers passes flash-attn no mask
        refused = flash_takes(query, key, attn_mask, is_causal)
        if asked in ("sdpa_flash", "flash_attention_2") and refused:
            raise TraceError("unsupported", f"attention {asked}: {refused}")
        if grouped and (asked == "sdpa_efficient" or refused):
            # The memory-efficient kernel takes no grouped heads (sdp_utils.cpp, check_batch_size_and_num_heads_
            # dense<false>): forced, PyTorch finds no kernel; left to choose, it falls back to math.
            if asked == "sdpa_efficient":
                raise TraceError(
                    "unsupported",
                    "attention sdpa_efficient takes no grouped key/value heads, and transformers passes this "
                    "model's grouped (enable_gqa): choose auto, sdpa_flash or sdpa_math",
                )
            record.add("math", query, attn_mask, grouped)
            return cuda_math(query, key, value, attn_mask, dropout_p, is_causal, scale)
        record.add("efficient" if asked == "sdpa_efficient" or refused else "flash", query, attn_mask, grouped)
        if asked == "sdpa_efficient" or refused:
            return efficient(query, key, value, attn_mask, dropout_p, is_causal, scale)
        return flash(query, key, value, dropout_p, is_causal, scale)  # grouped heads taken as they are

    functional.scaled_dot_product_attention = routed
    try:
        with cuda_dropout(device), unpacked_sequences():
            yield record
    finally:
        functional.scaled_dot_product_attention = original


@contextlib.contextmanager
def unpacked_sequences() -> Iterator[None]:
    """Under fake tensors, transformers' mask builder takes the batch for packed sequences: it reads the
    position ids to find where one sequence ends and the next begins (masking_utils.find_packed_sequence_indices),
    cannot read fake values, and so keeps a packed-sequence mask. A real run with the tracer's inputs (one
    sequence per row, positions counted from 0) finds none, skips the mask for SDPA's is_causal and passes
    grouped key/value heads to SDPA as they are; with the mask it would build a length-squared mask and repeat
    every key/value head (repeat_kv), memory the real run never holds. So under fake tensors the answer is the
    real run's: no packed sequences. Transformers without that function are left as they are."""
    try:
        from transformers import masking_utils
    except ImportError:
        yield
        return
    original = getattr(masking_utils, "find_packed_sequence_indices", None)
    if original is None:
        yield
        return
    fake_tensor = torch_private.private("torch._subclasses.fake_tensor", "FakeTensor")

    def real_answer(position_ids: Any, *args: Any, **kwargs: Any) -> Any:
        if isinstance(position_ids, fake_tensor):
            return None
        return original(position_ids, *args, **kwargs)

    masking_utils.find_packed_sequence_indices = real_answer
    try:
        yield
    finally:
        masking_utils.find_packed_sequence_indices = original


@contextlib.contextmanager
def cuda_dropout(device: str | None) -> Iterator[None]:
    """Dropout as CUDA runs it, where the CPU differs in what is kept for backward: CUDA's fused dropout keeps a
    bool mask (Dropout.cpp, is_fused_kernel_acceptable, native_dropout), the CPU's a mask in the input's dtype.
    (Softmax's float32 under CUDA autocast is cuda_autocast.py's.)"""
    if device != "cuda":
        yield
        return
    import torch
    from torch.nn import functional

    dropout = functional.dropout

    def fused(input: Any, p: float = 0.5, training: bool = True, inplace: bool = False) -> Any:
        if not training or inplace or not 0 < p < 1 or input.numel() == 0:
            return dropout(input, p, training, inplace)
        return torch.native_dropout(input, p, True)[0]

    functional.dropout = fused
    try:
        yield
    finally:
        functional.dropout = dropout


def cuda_math(query: Any, key: Any, value: Any, attn_mask: Any, dropout_p: float, is_causal: bool, scale: Any) -> Any:
    """SDPA's math path as CUDA runs it (aten/src/ATen/native/transformers/attention.cpp,
    _scaled_dot_product_attention_math), below autocast as the operator is: fp16 and bf16 in fp32; the query scaled;
    a causal or boolean mask made an additive float mask of length x length (convert_boolean_attn_mask); grouped
    key/value heads repeated; the scores added the mask in place; then _safe_softmax, which tests every score
    for -inf (a bool of the scores' size, reduced per row) so that a fully masked row gives zeros; dropout by
    CUDA's fused kernel (a bool mask). The allocations match a real run's, recorded on an H100 with torch 2.11
    (benchmarks/gpu_allocations.py, llama-small-generate-4096): per layer the scores, the probabilities, the
    bool test and the float mask, and no third copy of the scores (for fp16/bf16 inputs the kernel also returns the
    probabilities in the input's dtype, a copy SDPA drops at once)."""
    import torch

    dtype = query.dtype
    with torch.autocast("cpu", enabled=False):
        if attn_mask is not None and attn_mask.dtype == torch.bool:  # SDPA converts a given mask in the query's dtype
            attn_mask = additive(attn_mask, dtype)
        if dtype in (torch.float16, torch.bfloat16):
            query, key, value = query.float(), key.float(), value.float()
        # sdp::calculate_scale, split between query and key; a negative scale negates the query's share
        given = scale if scale is not None else 1.0 / math.sqrt(query.shape[-1])
        root = math.sqrt(abs(given))
        query = query * (-root if given < 0 else root)
        if is_causal:
            attn_mask = additive(torch.ones(query.shape[-2], key.shape[-2], dtype=torch.bool).tril(), query.dtype)
        if key.shape[-3] != query.shape[-3]:  # grouped key/value heads, repeated as math does
            groups = query.shape[-3] // key.shape[-3]
            key, value = key.repeat_interleave(groups, dim=-3), value.repeat_interleave(groups, dim=-3)
        scores = query @ (key.transpose(-2, -1) * root)
        if attn_mask is not None:
            scores.add_(attn_mask)
        probabilities = torch.softmax(scores, dim=-1)
        fully_masked = scores.eq(-math.inf).all(dim=-1, keepdim=True)  # _safe_softmax's test; its zeros change no size
        del scores, fully_masked
        if dropout_p > 0:
            probabilities = torch.native_dropout(probabilities, dropout_p, True)[0]
        output = (probabilities @ value).to(dtype)
        if (
            dtype != probabilities.dtype
        ):  # the kernel also returns the probabilities in the input's dtype; SDPA drops them
            returned = probabilities.to(dtype)
            del returned
        return output


def additive(mask: Any, dtype: Any) -> Any:
    """A boolean mask as the additive float mask of `dtype` SDPA makes of it (convert_boolean_attn_mask)."""
    import torch

    return torch.zeros_like(mask, dtype=dtype).masked_fill_(mask.logical_not(), -math.inf)


def cpu_choice(run: Callable[[], Any]) -> tuple[Any, str]:
    """Run SDPA as torch picks on the CPU (its flash kernel, or the math path when dropout is on: sdp_utils_cpp.cpp,
    use_flash_attention_cpp) and say which it picked, from the operators it dispatched."""
    seen: set[str] = set()

    class Seen(torch_private.dispatch_mode()):  # type: ignore[misc]
        def __torch_dispatch__(self, func: Any, types: Any, args: Any = (), kwargs: Any = None) -> Any:
            seen.add(func.name())
            return func(*args, **(kwargs or {}))

    with Seen():
        output = run()
    return output, "flash" if any("flash" in name for name in seen) else "math"
