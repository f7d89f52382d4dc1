"""LoRA as PEFT configures it: the trace adapts the layers PEFT adapts (its trainable parameter count, exact,
for the zoo's architectures and several target choices), and what dropout and double quantization cost."""

from __future__ import annotations

import json
import math
from pathlib import Path
from typing import Any

import pytest

from gpuconfig.core.workload.models import resolve_model
from gpuconfig.workers.tracer.point import trace_point

TINY_LLAMA = json.loads((Path(__file__).parents[1] / "data" / "tiny_llama.json").read_text(encoding="utf-8"))
# Traced at two layers (their layers are identical), so each case takes a second or two.
LAYERS = 2
pytestmark = pytest.mark.filterwarnings("ignore::UserWarning", "ignore::FutureWarning")


def traced(model: dict[str, Any], layers: int | None = LAYERS, **settings: Any) -> dict[str, Any]:
    request = {"model": model, "task": "lora", "precision": "fp32", "optimizer": "adamw", "lora_rank": 8}
    request |= {"lora_targets": "default", "device": "cuda", "checkpointing": False, **settings}
    return trace_point(request, 2, 32, layers)


def peft_trainable(config: dict[str, Any], targets: str, rank: int) -> int:
    """PEFT's own count on a meta-device model of the same config and depth."""
    import transformers
    from accelerate import init_empty_weights
    from peft import LoraConfig, get_peft_model

    fields = {k: v for k, v in config.items() if k not in ("model_type", "torch_dtype", "dtype")}
    fields["n_layer" if "n_layer" in fields else "num_hidden_layers"] = LAYERS
    built = transformers.AutoConfig.for_model(config["model_type"], **fields)
    # The class the config names, as the trace builds it (a BERT zoo config names BertForMaskedLM).
    architecture = (config.get("architectures") or ["AutoModelForCausalLM"])[0]
    classify = architecture.endswith("ForSequenceClassification")
    with init_empty_weights():
        if classify:
            built.num_labels = 2
        model = (
            getattr(transformers, architecture).from_config(built)
            if architecture.startswith("Auto")
            else (getattr(transformers, architecture)(built))
        )
    target_modules = {"default": None, "all-linear": "all-linear"}.get(targets, targets.split(","))
    task_type = "SEQ_CLS" if classify else "CAUSAL_LM" if architecture.endswith("ForCausalLM") else None
    lora = get_peft_model(model, LoraConfig(r=rank, target_modules=target_modules, task_type=task_type))
    return int(lora.get_nb_trainable_parameters()[0])


@pytest.mark.parametrize(
    ("model", "targets"),
    [
        ("gpt2", "default"),  # Conv1D layers: c_attn
        ("gpt2", "all-linear"),  # the tied lm_head is left out
        ("gpt2", "c_attn,c_proj"),  # c_proj names the attention's and the MLP's
        ("llama-3-8b", "default"),
        ("llama-3-8b", "q_proj,v_proj"),
        ("llama-3-8b", "all-linear"),
        ("llama-3-8b", "q_proj,k_proj,v_proj,o_proj,gate_proj,up_proj,down_proj"),
        ("qwen2.5-0.5b", "default"),
        ("qwen2.5-0.5b", "all-linear"),
        ("mistral-7b", "default"),
        ("mistral-7b", "k_proj,o_proj,down_proj"),
        ("bert-base", "default"),  # a masked LM: no task type, so no head trained in full
        ("bert-base", "all-linear"),
        ("bert-base", "query,key,value,dense"),
    ],
)
def test_trainable_parameters_are_pefts(model: str, targets: str) -> None:
    source = resolve_model(model)
    rank = 8 if targets == "default" else 16
    ours = traced(source.request(), lora_targets=targets, lora_rank=rank)["trainable_params"]
    assert ours == peft_trainable(source.config, targets, rank)


def test_targets_that_match_nothing_are_named() -> None:
    from gpuconfig.workers.tracer.events import TraceError

    with pytest.raises(TraceError, match="'qkv' match no Linear layer"):
        traced(resolve_model("gpt2").request(), lora_targets="qkv")


def quantized_layer_weights(config: dict[str, Any]) -> list[int]:
    """Weights of each Linear bitsandbytes quantizes in the tiny Llama: every projection, the head excepted."""
    hidden, inner = config["hidden_size"], config["intermediate_size"]
    kv = hidden // config["num_attention_heads"] * config["num_key_value_heads"]
    per_layer = [hidden * hidden, hidden * kv, hidden * kv, hidden * hidden] + [hidden * inner] * 3
    return per_layer * config["num_hidden_layers"]


def test_double_quantization_saves_the_scale_bytes() -> None:
    """NF4 keeps one fp32 absmax per 64 weights (0.5 bits per weight); double quantization one uint8 per 64
    and one fp32 per 256 of those (0.127 bits per weight): QLoRA, arXiv 2305.14314, sections 2 and 3."""
    model = {"kind": "hf_config", "config": TINY_LLAMA}
    plain, double = (
        traced(model, task="qlora", precision="amp_bf16", double_quant=on, layers=None)["memory"]["weights"]
        for on in (False, True)
    )
    blocks = [math.ceil(n / 64) for n in quantized_layer_weights(TINY_LLAMA)]
    assert plain - double == sum(4 * b - (b + 4 * math.ceil(b / 256)) for b in blocks)


@pytest.mark.parametrize("precision", ["fp32", "amp_bf16"])
def test_dropout_keeps_a_mask_for_the_backward_pass(precision: str) -> None:
    """A dropout above zero keeps its bool mask (and its output, where the input itself would have been kept):
    more activations, at most an fp32 copy and a mask of every adapted layer's input."""
    model = {"kind": "hf_config", "config": TINY_LLAMA}
    settings = {"task": "lora", "precision": precision, "lora_targets": "all-linear", "layers": None}
    without, with_dropout = (traced(model, lora_dropout=p, **settings)["memory"] for p in (0.0, 0.1))
    tokens, hidden, inner = 2 * 32, TINY_LLAMA["hidden_size"], TINY_LLAMA["intermediate_size"]
    inputs = tokens * (6 * hidden + inner) * TINY_LLAMA["num_hidden_layers"]  # q k v o gate up, and down
    added = with_dropout["activations"] - without["activations"]
    assert 0 < added <= inputs * (4 + 1)
    assert {k: v for k, v in with_dropout.items() if k != "activations"} == {
        k: v for k, v in without.items() if k != "activations"
    }
