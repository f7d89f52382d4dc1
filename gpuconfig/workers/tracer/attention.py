"""Attention as a CUDA run executes it, though the trace runs on fake CPU tensors."""

from __future__ import annotations

import contextlib
import math
from collections.abc import Iterator
from typing import Any

from . import torch_private


@contextlib.contextmanager
def cuda_attention(device: str | None) -> Iterator[None]:
    """Attention as a CUDA run executes it, though the trace runs on fake CPU tensors.

    On the CPU, scaled_dot_product_attention falls back to its math path (the full length x length score
    matrix, its softmax and its dropout mask, all kept for backward) whenever dropout is on, as it is in
    GPT-2's and BERT's training. On a GPU the fused memory-efficient kernel takes dropout, any additive
    mask and fp32, and keeps only a log-sum-exp per query (PyTorch's sdp_utils.cpp: flash attention needs
    fp16/bf16 and no mask, the memory-efficient kernel has neither limit). A boolean mask is turned into
    an additive bias first, as PyTorch's convert_boolean_attn_mask does; grouped key/value heads are
    repeated to the query heads. Only for the cuda device: a CPU run really does take the math path.
    """
    if device != "cuda":
        yield
        return
    import torch
    from torch.nn import functional

    original = functional.scaled_dot_product_attention

    def fused(
        query: Any,
        key: Any,
        value: Any,
        attn_mask: Any = None,
        dropout_p: float = 0.0,
        is_causal: bool = False,
        scale: float | None = None,
        enable_gqa: bool = False,
    ) -> Any:
        if query.dim() != 4:
            return original(query, key, value, attn_mask, dropout_p, is_causal, scale=scale, enable_gqa=enable_gqa)
        if enable_gqa and key.shape[-3] != query.shape[-3]:
            groups = query.shape[-3] // key.shape[-3]
            key = key.repeat_interleave(groups, dim=-3)
            value = value.repeat_interleave(groups, dim=-3)
        if attn_mask is not None and attn_mask.dtype == torch.bool:
            attn_mask = torch.zeros_like(attn_mask, dtype=query.dtype).masked_fill_(attn_mask.logical_not(), -math.inf)
        if attn_mask is not None:
            attn_mask = attn_mask.expand(query.shape[0], query.shape[1], query.shape[2], key.shape[2])
        compute_lse = torch.is_grad_enabled() and any(t.requires_grad for t in (query, key, value))
        output, *_ = torch_private.aten("_scaled_dot_product_efficient_attention")(
            query, key, value, attn_mask, compute_lse, dropout_p, is_causal, scale=scale
        )
        return output

    functional.scaled_dot_product_attention = fused
    try:
        yield
    finally:
        functional.scaled_dot_product_attention = original
