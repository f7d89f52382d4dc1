"""Which attention implementation an answer assumed, and why: the workload's choice, or for "auto" what
transformers and PyTorch pick on the GPU.

The pick has two steps. transformers builds a model with "sdpa" when its class supports it and "eager"
otherwise; it never picks flash_attention_2 by itself (transformers 5.24, modeling_utils.py,
PreTrainedModel.get_correct_attn_implementation, called from _check_and_adjust_attn_implementation with no
implementation asked). scaled_dot_product_attention then takes the first kernel, in
torch._C._get_sdp_priority_order() (flash, memory-efficient, math in torch 2.13), whose checks pass
(aten/src/ATen/native/transformers/cuda/sdp_utils.cpp, select_sdp_backend):
- flash (use_flash_attention): compute capability 8.0 or newer (check_flash_attention_hardware_support),
  fp16 or bf16 (check_dtypes_low_precision), no attention mask (check_for_attn_mask), a head size of at
  most 256 (check_head_dim_size_flash), and on sm86 and sm89 at most 192 when training
  (check_requires_grad_and_head_dim_gt192_constraints_on_sm86_89);
- memory-efficient (use_mem_efficient_attention): compute capability 5.0 or newer, fp16 or fp32, and bf16
  from 8.0 (check_mem_efficient_hardware_support, its dtype lists);
- math otherwise. On the CPU, torch's CPU flash kernel, or math when dropout is on (sdp_utils_cpp.cpp).

The trace of "auto" is the same for every GPU, so its key holds no GPU: it runs what an sm80+ card runs.
The flash and memory-efficient kernels keep the same memory for backward (the output and a log-sum-exp
per query, none of the length x length scores), so a card that takes memory-efficient instead of flash
needs no other trace; the one card that changes memory is one that falls to the math path (bf16 before
sm80), and the answer says so. The tracer reports what it saw (workers/tracer/attention.py): what
transformers built, which kernels ran, the head size, dtype and whether a mask was passed.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from gpuconfig.core.i18n import translate
from gpuconfig.core.workload.spec import FLASH_ATTENTION, Workload

HALF = ("float16", "bfloat16")
SDPA_KERNELS = {"math": "sdpa_math", "efficient": "sdpa_efficient", "flash": "sdpa_flash"}


@dataclass(frozen=True)
class AttentionChoice:
    """`implementation` is a workload attention name (never auto) or "none" for a model without attention;
    `chosen_by` says why, in a line; `note` is a caveat on the estimate, or ""."""

    implementation: str
    chosen_by: str
    note: str = ""

    def record(self) -> dict[str, str]:
        return {"implementation": self.implementation, "chosen_by": self.chosen_by, "note": self.note}


def attention_choice(workload: Workload, traced: dict[str, Any], cc: tuple[int, int | None] | None) -> AttentionChoice:
    """The implementation the answer assumed for `workload` on a GPU of compute capability `cc` (None: no GPU
    chosen, or the catalog has none), from what the tracer saw."""
    kernels = list(traced.get("kernels") or ())
    asked = workload.attention
    if asked != "auto":
        return AttentionChoice(asked, translate("Workload", "asked"), _refusal(asked, workload, traced, cc))
    if traced.get("transformers") == "eager":
        why = translate("Workload", "auto: transformers uses eager, the model class has no SDPA support")
        return AttentionChoice("eager", why)
    if not kernels:
        return AttentionChoice("none", translate("Workload", "auto: the model calls no attention that was seen"))
    sdpa = traced.get("transformers") == "sdpa"
    if workload.device == "cpu":
        kernel = "math" if "math" in kernels else kernels[0]
        why = (
            translate("Workload", "PyTorch's CPU math path (dropout is on)")
            if kernel == "math"
            else translate("Workload", "PyTorch's CPU flash kernel")
        )
        return AttentionChoice(SDPA_KERNELS[kernel], _auto(why, sdpa))
    return _cuda_auto(workload, traced, cc, sdpa)


def _auto(why: str, sdpa: bool) -> str:
    """What "auto" chose, in a line: `why` is PyTorch's pick; `sdpa`: transformers built the model with SDPA."""
    if sdpa:
        return translate("Workload", "auto: transformers picks sdpa; {why}").format(why=why)
    return translate("Workload", "auto: {why}").format(why=why)


def _cuda_auto(
    workload: Workload, traced: dict[str, Any], cc: tuple[int, int | None] | None, sdpa: bool
) -> AttentionChoice:
    dtypes = list(traced.get("dtypes") or ())
    dtype = "/".join(dtypes) or ("bf16" if workload.half_compute else "fp32")
    if cc is None:
        kernel = "flash" if "flash" in traced.get("kernels", ()) else "efficient"
        why = translate("Workload", "PyTorch on an sm80+ card (no GPU chosen), {dtype}").format(dtype=dtype)
        return AttentionChoice(SDPA_KERNELS[kernel], _auto(why, sdpa))
    why_not_flash = _flash_refusal(workload, traced, cc, half=bool(dtypes) and all(d in HALF for d in dtypes))
    if not why_not_flash:
        head = int(traced.get("head_dim") or 0)
        why = translate("Workload", "PyTorch picks flash: {sm}, {dtype}, head size {head}").format(
            sm=_sm(cc), dtype=dtype, head=head
        )
        return AttentionChoice("sdpa_flash", _auto(why, sdpa))
    if cc[0] < 5 or ("bfloat16" in dtypes and cc[0] < 8):
        note = translate(
            "Workload",
            "PyTorch's fused kernels take bf16 from sm80 on, so it takes the math path, which keeps the length x "
            "length scores the traced fused kernel does not: choose sdpa_math to trace it",
        )
        why = translate("Workload", "PyTorch falls back to math: {sm}, {dtype}").format(sm=_sm(cc), dtype=dtype)
        return AttentionChoice("sdpa_math", _auto(why, sdpa), note)
    if traced.get("grouped"):
        # PyTorch's memory-efficient kernel takes no grouped key/value heads (sdp_utils.cpp,
        # use_mem_efficient_attention: check_batch_size_and_num_heads_dense<false>), and transformers passes them
        # grouped (enable_gqa) when it passes no mask.
        note = (
            ""
            if "math" in traced.get("kernels", ())
            else translate(
                "Workload",
                "the trace ran a fused kernel, which keeps no length x length scores; math keeps them: choose "
                "sdpa_math to trace it",
            )
        )
        why = translate(
            "Workload", "PyTorch falls back to math: {why}, and memory-efficient takes no grouped key/value heads"
        ).format(why=why_not_flash)
        return AttentionChoice("sdpa_math", _auto(why, sdpa), note)
    why = translate("Workload", "PyTorch picks memory-efficient: {why}").format(why=why_not_flash)
    return AttentionChoice("sdpa_efficient", _auto(why, sdpa))


def _flash_refusal(workload: Workload, traced: dict[str, Any], cc: tuple[int, int | None], half: bool) -> str:
    """Why PyTorch's flash kernel does not run on this card for this model, or ""."""
    major, minor = cc
    head = int(traced.get("head_dim") or 0)
    if major < 8:
        return translate("Workload", "flash needs sm80+, this GPU is {sm}").format(sm=_sm(cc))
    if not half:
        return translate("Workload", "flash needs fp16 or bf16, the attention computes in fp32")
    if traced.get("mask"):
        return translate("Workload", "flash takes no attention mask, and the model passes one")
    if head > 256:
        return translate("Workload", "flash takes a head size of at most 256, not {head}").format(head=head)
    if major == 8 and minor in (6, 9) and head > 192 and workload.training:
        return translate("Workload", "flash on {sm} does not train a head size over 192 ({head} here)").format(
            sm=_sm(cc), head=head
        )
    return ""


def _refusal(asked: str, workload: Workload, traced: dict[str, Any], cc: tuple[int, int | None] | None) -> str:
    """What the GPU says to an implementation asked for by name: "" when it runs there. The trace has already
    refused what no GPU runs (a dtype, mask or head size the kernel does not take)."""
    if workload.device != "cuda" or cc is None:
        return ""
    if asked in FLASH_ATTENTION:
        why = _flash_refusal(workload, traced, cc, half=True)
        return translate("Workload", "{why}: it would not run there").format(why=why) if why else ""
    if asked == "sdpa_efficient" and "bfloat16" in (traced.get("dtypes") or ()) and cc[0] < 8:
        return translate(
            "Workload",
            "PyTorch's memory-efficient kernel takes bf16 from sm80 on, this GPU is {sm}: it would not run there",
        ).format(sm=_sm(cc))
    return ""


def _sm(cc: tuple[int, int | None]) -> str:
    return f"sm{cc[0]}{cc[1] if cc[1] is not None else ''}"
