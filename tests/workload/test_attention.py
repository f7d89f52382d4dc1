"""The attention implementation as part of the workload: its checks, how "auto" resolves on a GPU, its trace key."""

from __future__ import annotations

from typing import Any

import pytest

from gpuconfig.core.workload.attention import attention_choice
from gpuconfig.core.workload.service import TraceService
from gpuconfig.core.workload.spec import ATTENTION, Workload, WorkloadError

# What the tracer reports of BERT-base's attention (workers/tracer/attention.py), under AMP BF16 and FP32.
BERT_BF16 = {
    "transformers": "sdpa",
    "supports_sdpa": True,
    "supports_flash": True,
    "kernels": ["flash"],
    "head_dim": 64,
    "mask": False,
    "dtypes": ["bfloat16"],
}
BERT_FP32 = {**BERT_BF16, "kernels": ["efficient"], "dtypes": ["float32"]}
DEBERTA = {"transformers": "eager", "supports_sdpa": False, "supports_flash": False, "kernels": [], "dtypes": []}
A100, H100, RTX_4090, T4, V100 = (8, 0), (9, 0), (8, 9), (7, 5), (7, 0)


def choose(traced: dict[str, Any], cc: tuple[int, int] | None, **changes: Any) -> tuple[str, str, str]:
    choice = attention_choice(Workload("bert-base", **changes), traced, cc)
    return choice.implementation, choice.chosen_by, choice.note


@pytest.mark.parametrize("cc", [A100, H100, RTX_4090])
def test_auto_picks_flash_for_bf16_on_an_sm80_card(cc: tuple[int, int]) -> None:
    implementation, why, note = choose(BERT_BF16, cc)
    assert implementation == "sdpa_flash" and note == ""
    assert why == f"auto: transformers picks sdpa; PyTorch picks flash: sm{cc[0]}{cc[1]}, bfloat16, head size 64"


def test_auto_picks_memory_efficient_where_flash_does_not_run() -> None:
    assert choose(BERT_FP32, H100, precision="fp32")[:2] == (
        "sdpa_efficient",
        "auto: transformers picks sdpa; PyTorch picks memory-efficient: flash needs fp16 or bf16, the attention "
        "computes in fp32",
    )
    fp16 = {**BERT_BF16, "dtypes": ["float16"]}
    assert choose(fp16, T4, precision="amp_fp16")[0] == "sdpa_efficient"  # flash needs sm80+
    assert choose({**BERT_BF16, "mask": True}, A100)[0] == "sdpa_efficient"
    assert choose({**BERT_BF16, "head_dim": 256}, RTX_4090)[0] == "sdpa_efficient"  # sm89 trains <= 192
    assert choose({**BERT_BF16, "head_dim": 256}, A100)[0] == "sdpa_flash"


def test_grouped_heads_fall_back_to_math_where_flash_does_not_run() -> None:
    """Memory-efficient takes no grouped key/value heads: a grouped-query model in fp32, or on a card without
    flash, runs math (measured on an H100: benchmarks/results/estimate_accuracy_gpu.json)."""
    llama_fp32 = {**BERT_FP32, "kernels": ["math"], "grouped": True}
    implementation, why, note = choose(llama_fp32, H100, precision="fp32")
    assert implementation == "sdpa_math" and note == ""  # the trace ran math too
    assert why.endswith(
        "flash needs fp16 or bf16, the attention computes in fp32, and memory-efficient takes no "
        "grouped key/value heads"
    )
    llama_fp16 = {**BERT_BF16, "dtypes": ["float16"], "grouped": True}  # traced flash, as an sm80+ card runs it
    implementation, why, note = choose(llama_fp16, T4, precision="amp_fp16")
    assert implementation == "sdpa_math" and "flash needs sm80+" in why and "choose sdpa_math" in note
    assert choose(llama_fp16, A100, precision="amp_fp16")[0] == "sdpa_flash"
    assert choose({**BERT_FP32, "grouped": False}, H100, precision="fp32")[0] == "sdpa_efficient"


def test_auto_falls_back_to_math_for_bf16_before_sm80_and_says_the_trace_is_short() -> None:
    implementation, why, note = choose(BERT_BF16, V100)
    assert implementation == "sdpa_math" and why.startswith("auto: transformers picks sdpa; PyTorch falls back to math")
    assert "choose sdpa_math" in note


def test_auto_is_eager_for_a_model_without_sdpa_and_what_ran_on_the_cpu() -> None:
    assert choose(DEBERTA, H100)[:2] == ("eager", "auto: transformers uses eager, the model class has no SDPA support")
    assert choose({**BERT_FP32, "kernels": ["math"]}, None, device="cpu", precision="fp32")[0] == "sdpa_math"
    assert choose({**BERT_FP32, "kernels": ["flash"]}, None, device="cpu", precision="fp32")[0] == "sdpa_flash"
    no_gpu = choose(BERT_BF16, None)
    assert no_gpu[0] == "sdpa_flash" and "no GPU chosen" in no_gpu[1]
    assert choose({**BERT_BF16, "transformers": None, "kernels": []}, H100)[0] == "none"  # a ResNet


def test_an_implementation_asked_for_is_taken_and_a_card_that_refuses_it_is_named() -> None:
    assert choose(BERT_BF16, H100, attention="eager") == ("eager", "asked", "")
    assert choose(BERT_BF16, H100, attention="sdpa_flash") == ("sdpa_flash", "asked", "")
    implementation, why, note = choose(BERT_BF16, T4, attention="flash_attention_2")
    assert (implementation, why) == ("flash_attention_2", "asked") and "sm75" in note and "would not run" in note
    assert "sm70" in choose(BERT_BF16, V100, attention="sdpa_efficient")[2]


@pytest.mark.parametrize(
    ("changes", "message"),
    [
        ({"attention": "flex"}, "attention: 'flex' is not one of auto, eager, sdpa_math"),
        ({"attention": "sdpa_efficient", "device": "cpu"}, "attention: sdpa_efficient runs on CUDA GPUs only"),
        ({"attention": "flash_attention_2", "device": "cpu"}, "attention: flash_attention_2 runs on CUDA GPUs only"),
        ({"attention": "sdpa_flash", "precision": "fp32"}, "attention: flash attention computes in fp16 or bf16"),
        ({"attention": "flash_attention_2", "precision": "tf32"}, "attention: flash attention computes in fp16"),
    ],
)
def test_impossible_attention_is_refused_with_the_field_named(changes: dict[str, Any], message: str) -> None:
    with pytest.raises(WorkloadError, match="^" + message):
        Workload("bert-base", **changes)


def test_flash_on_the_cpu_and_in_qlora_bf16_are_possible() -> None:
    Workload("bert-base", device="cpu", precision="fp32", attention="sdpa_flash")  # PyTorch's CPU flash kernel
    Workload("llama-3-8b", task="qlora", precision="tf32", attention="flash_attention_2")  # bf16 base weights


def test_the_trace_key_differs_by_implementation_and_not_by_gpu() -> None:
    service = TraceService()
    base = Workload("bert-base", batch=4, seq=512)
    keys = {service.resolve(base.with_changes(attention=name)).key for name in ATTENTION}
    assert len(keys) == len(ATTENTION)
    assert service.resolve(base).key == service.resolve(Workload("bert-base", batch=8, seq=128)).key
