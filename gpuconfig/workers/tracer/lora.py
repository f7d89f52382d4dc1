"""LoRA adapters as PEFT's LoraConfig puts them on a model: which modules, of what rank, with what dropout.

PEFT 0.21.2 (peft/tuners/lora/layer.py, Linear.forward) computes `base(x) + B(A(dropout(x))) * alpha / r`,
with A (r x in) and B (out x r) trained in fp32 and everything else frozen. A dropout above zero keeps its
output and its mask for the backward pass of A: memory the adapters cost on top of their weights.
"""

from __future__ import annotations

import re
from typing import Any

from .adapters import linear_layer_sizes
from .events import TraceError

# PEFT's default target modules per model type: TRANSFORMERS_MODELS_TO_LORA_TARGET_MODULES_MAPPING in
# peft/utils/constants.py (PEFT 0.21.2). A model type it does not name gets every Linear ("all-linear")
# here, where PEFT itself asks for target_modules.
PEFT_DEFAULT_TARGETS: dict[str, list[str] | str] = {
    "t5": ["q", "v"],
    "mt5": ["q", "v"],
    "bart": ["q_proj", "v_proj"],
    "gpt2": ["c_attn"],
    "bloom": ["query_key_value"],
    "blip-2": ["q", "v", "q_proj", "v_proj"],
    "opt": ["q_proj", "v_proj"],
    "gptj": ["q_proj", "v_proj"],
    "gpt_neox": ["query_key_value"],
    "gpt_neo": ["q_proj", "v_proj"],
    "bert": ["query", "value"],
    "roberta": ["query", "value"],
    "xlm-roberta": ["query", "value"],
    "electra": ["query", "value"],
    "deberta-v2": ["query_proj", "value_proj"],
    "deberta": ["in_proj"],
    "layoutlm": ["query", "value"],
    "llama": ["q_proj", "v_proj"],
    "llama4": ["q_proj", "v_proj"],
    "chatglm": ["query_key_value"],
    "gpt_bigcode": ["c_attn"],
    "mpt": ["Wqkv"],
    "RefinedWebModel": ["query_key_value"],
    "RefinedWeb": ["query_key_value"],
    "falcon": ["query_key_value"],
    "btlm": ["c_proj", "c_attn"],
    "codegen": ["qkv_proj"],
    "mistral": ["q_proj", "v_proj"],
    "mixtral": ["q_proj", "v_proj"],
    "stablelm": ["q_proj", "v_proj"],
    "phi": ["q_proj", "v_proj", "fc1", "fc2"],
    "gemma": ["q_proj", "v_proj"],
    "gemma2": ["q_proj", "v_proj"],
    "gemma3_text": ["q_proj", "v_proj"],
    "gemma4": r".*language_model\..*\.(q_proj|v_proj)",
    "qwen2": ["q_proj", "v_proj"],
    "qwen3": ["q_proj", "v_proj"],
    "nemotron_h": ["q_proj", "k_proj", "v_proj", "o_proj"],
    "rwkv": ["key", "value", "receptance", "output"],
    "rwkv7": ["r_proj", "k_proj", "v_proj", "o_proj", "key", "value"],
}
ALL_LINEAR = "all-linear"
# The heads PEFT trains in full for sequence classification (modules_to_save, SEQ_CLS_HEAD_NAMES).
CLASSIFIER_HEADS = ("classifier", "score")


def targeted(name: str, targets: list[str] | str) -> bool:
    """PEFT's check_target_module_exists: a string is a regular expression the whole module name matches;
    a list names modules by their own name or a dotted suffix of their full name."""
    if isinstance(targets, str):
        return re.fullmatch(targets, name) is not None
    return name in targets or any(name.endswith(f".{target}") for target in targets)


def resolved_targets(model: Any, targets: str) -> list[str] | str:
    """The workload's "default", "all-linear" or "name,name,...", as PEFT reads its target_modules."""
    if targets == "default":
        model_type = getattr(getattr(model, "config", None), "model_type", None)
        return PEFT_DEFAULT_TARGETS.get(str(model_type), ALL_LINEAR)
    if targets == ALL_LINEAR:
        return ALL_LINEAR
    return [name.strip() for name in targets.split(",") if name.strip()]


def classifier_head(model: Any) -> tuple[str, Any] | None:
    """The classification head PEFT's SEQ_CLS task trains in full (a model with no output embeddings)."""
    embeddings = getattr(model, "get_output_embeddings", None)
    if embeddings is not None and embeddings() is not None:
        return None
    for name in CLASSIFIER_HEADS:
        head = getattr(model, name, None)
        if head is not None and hasattr(head, "parameters"):
            return name, head
    return None


def adapted_layers(model: Any, targets: str) -> list[tuple[str, Any, int, int]]:
    """(full name, layer, in_features, out_features) of each Linear PEFT would adapt: every Linear and
    Conv1D but the output embeddings and a trained head for "all-linear" (_maybe_include_all_linear_layers)."""
    wanted = resolved_targets(model, targets)
    excluded: set[int] = set()
    embeddings = getattr(model, "get_output_embeddings", None)
    if embeddings is not None and embeddings() is not None:
        excluded.add(id(embeddings()))
    if (head := classifier_head(model)) is not None:
        excluded.update(id(m) for m in head[1].modules())
    found = []
    for name, module in model.named_modules():
        sizes = linear_layer_sizes(module)
        if sizes is None or id(module) in excluded:
            continue
        if wanted == ALL_LINEAR or targeted(name, wanted):
            found.append((name, module, *sizes))
    if not found:
        raise TraceError("input", f"LoRA target modules {targets!r} match no Linear layer of this model")
    return found


def add_lora(model: Any, rank: int, targets: str = "default", dropout: float = 0.0, fused_dropout: bool = True) -> int:
    """Freeze the model, put a trainable rank-`rank` adapter on each layer PEFT would target, and train a
    classification head in full as PEFT does; returns the number of adapted layers. `fused_dropout`: the
    dropout runs as on CUDA (nn.Dropout's fused kernel there), not as on the CPU."""
    import torch
    from torch import nn

    class LoRALinear(nn.Module):
        def __init__(self, base: nn.Module, in_features: int, out_features: int) -> None:
            super().__init__()
            self.base = base
            self.lora_a = nn.Parameter(torch.zeros(rank, in_features, dtype=torch.float32))
            self.lora_b = nn.Parameter(torch.zeros(out_features, rank, dtype=torch.float32))
            self.scaling = 8 / rank  # alpha / r with PEFT's alpha: the workload's alpha changes no memory

        def forward(self, x: Any) -> Any:
            result = self.base(x)
            result_dtype = result.dtype
            x = x.to(self.lora_a.dtype)  # PEFT's _cast_input_dtype
            low = nn.functional.linear(dropped(x), self.lora_a)
            result = result + nn.functional.linear(low, self.lora_b) * self.scaling
            return result.to(result_dtype)

    def dropped(x: Any) -> Any:
        if dropout == 0:  # PEFT's nn.Identity: the input itself, nothing kept
            return x
        if fused_dropout:  # CUDA's kernel: the output and a bool mask, both kept for the backward pass
            return torch.native_dropout(x, dropout, True)[0]
        return nn.functional.dropout(x, dropout, True)  # the CPU's: an input-sized mask in the input's dtype

    layers = adapted_layers(model, targets)
    for parameter in model.parameters():
        parameter.requires_grad_(False)
    for name, layer, in_features, out_features in layers:
        parent, _, child = name.rpartition(".")
        setattr(model.get_submodule(parent), child, LoRALinear(layer, in_features, out_features))
    if (head := classifier_head(model)) is not None:
        for parameter in head[1].parameters():
            parameter.requires_grad_(True)
    return len(layers)
