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
# Mixture-of-experts models whose experts transformers 5 fuses into 3-D parameters (gate_up_proj, down_proj) and
# whose router is no Linear: PEFT maps the Linear names its targets meant in transformers 4 onto those parameters
# (peft/utils/transformers_weight_conversion.py, _convert_peft_config_moe, PEFT 0.21.2, with transformers'
# conversion_mapping._MODEL_TO_CONVERSION_PATTERN naming each model type's layout; Qwen2-MoE itself is not
# among them, so PEFT leaves its fused experts without adapters, and so does this). A name fused with another
# (w1 and w3 into gate_up_proj) gets their ranks added and so does its alpha; the mapped names no longer
# target any Linear layer.
MOE_LAYOUTS: dict[str, str] = {
    "mixtral": "mixtral", "minimax": "mixtral", "minimax_m2": "mixtral",
    **dict.fromkeys(
        (
            "qwen3_moe", "qwen3_next", "deepseek_v2", "deepseek_v3", "deepseek_v32", "olmoe", "flex_olmo",
            "dots1", "ernie4_5_moe", "glm4_moe", "glm4_moe_lite", "glm4v_moe", "hunyuan_v1_moe", "longcat_flash",
            "afmoe", "exaone_moe", "cohere2_moe", "solar_open", "mellum", "sarvam_mla", "glm_moe_dsa", "beam",
            "qwen3_omni_moe", "qwen3_omni_moe_thinker", "qwen3_omni_moe_text",
        ),
        "qwen2_moe",
    ),
}  # fmt: skip
MOE_NAMES: dict[str, dict[str, str]] = {  # transformers 4 Linear name -> the parameter it became
    "mixtral": {"gate": "gate.weight", "w1": "gate_up_proj", "w3": "gate_up_proj", "w2": "down_proj"},
    "qwen2_moe": {
        "gate": "gate.weight",
        "gate_proj": "gate_up_proj",
        "up_proj": "gate_up_proj",
        "down_proj": "down_proj",
    },
}
MOE_FUSED: dict[str, dict[str, tuple[str, ...]]] = {
    "mixtral": {"gate_up_proj": ("w1", "w3")},
    "qwen2_moe": {"gate_up_proj": ("gate_proj", "up_proj")},
}
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


def moe_targets(model: Any, wanted: list[str] | str) -> tuple[dict[str, int], set[str]]:
    """For a model whose experts transformers fused, what PEFT makes of the targets: the parameters it adapts
    with the multiple of the rank each gets, and the Linear names it no longer targets. Nothing for others,
    and for a regular expression (PEFT resolves one against the unfused model, which is not built here)."""
    layout = MOE_LAYOUTS.get(str(getattr(getattr(model, "config", None), "model_type", "")))
    if layout is None or (isinstance(wanted, str) and wanted != ALL_LINEAR):
        return {}, set()
    names = MOE_NAMES[layout]
    meant = (
        set(names)
        if wanted == ALL_LINEAR
        else {old for old in names for t in wanted if t == old or t.endswith(f".{old}")}
    )
    parameters: dict[str, int] = {}
    for old in sorted(meant):
        parameters[names[old]] = 1
    for fused, parts in MOE_FUSED[layout].items():
        named = meant & set(parts)
        if 0 < len(named) < len(parts):
            missing = ", ".join(sorted(set(parts) - named))
            raise TraceError("input", f"LoRA target modules name {', '.join(sorted(named))} without {missing}: "
                             f"they are fused into {fused} in this model, as PEFT refuses")  # fmt: skip
        if named:
            parameters[fused] = len(parts)
    return parameters, meant


def adapted_parameters(model: Any, wanted: list[str] | str) -> list[tuple[str, Any, str, int]]:
    """(module name, module, parameter name, rank multiple) of each fused-expert or router parameter PEFT
    adapts (its ParamWrapper): a parameter matched by its name or a dotted suffix of its full name."""
    parameters, _ = moe_targets(model, wanted)
    found = []
    for module_name, module in model.named_modules():
        for name, parameter in module.named_parameters(recurse=False):
            full = f"{module_name}.{name}"
            for target, multiple in parameters.items():
                if (full == target or full.endswith(f".{target}")) and parameter.dim() in (2, 3):
                    found.append((module_name, module, name, multiple))
    return found


def adapted_layers(model: Any, targets: str) -> list[tuple[str, Any, int, int]]:
    """(full name, layer, in_features, out_features) of each Linear PEFT would adapt: every Linear and
    Conv1D but the output embeddings and a trained head for "all-linear" (_maybe_include_all_linear_layers),
    and none whose name PEFT moved onto a fused-expert parameter."""
    wanted = resolved_targets(model, targets)
    _, moved = moe_targets(model, wanted)
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
        if moved and targeted(name, sorted(moved)):
            continue
        if wanted == ALL_LINEAR or targeted(name, wanted):
            found.append((name, module, *sizes))
    if not found and not adapted_parameters(model, wanted):
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
    parameters = adapted_parameters(model, resolved_targets(model, targets))
    if parameters and dropout > 0:
        raise TraceError("input", "LoRA on fused experts takes no dropout (PEFT's ParamWrapper refuses it)")
    for parameter in model.parameters():
        parameter.requires_grad_(False)
    for name, layer, in_features, out_features in layers:
        parent, _, child = name.rpartition(".")
        setattr(model.get_submodule(parent), child, LoRALinear(layer, in_features, out_features))
    for _, module, name, multiple in parameters:
        add_parameter_lora(module, name, rank, multiple)
    if (head := classifier_head(model)) is not None:
        for parameter in head[1].parameters():
            parameter.requires_grad_(True)
    return len(layers) + len(parameters)


def add_parameter_lora(module: Any, name: str, base_rank: int, fused: int = 1) -> None:
    """PEFT's ParamWrapper on `module`'s parameter `name`: a 3-D stack of experts (experts, out, in) gets
    A (rank x experts, in) and B (out, rank x experts), and each forward of the module folds them into the
    weight once, W + scaling * B_e A_e per expert in one baddbmm (_LoraFactorsProxy), a new tensor the size of
    the whole stack that the experts' matrix products keep for backward; a 2-D one (the router) gets A (rank,
    in) and B (out, rank) added as W + scaling * B A (_LoraParameterProxy). The weight is read through
    torch's parametrize, cached for the module's forward as PEFT caches it. `fused` parameters stacked into
    one (gate and up projections) take that many times the rank, and alpha with it: the scaling is kept."""
    import torch
    from torch import nn
    from torch.nn.utils import parametrize

    rank = base_rank * fused
    weight = getattr(module, name)
    experts = weight.shape[0] if weight.dim() == 3 else 1
    out_features, in_features = weight.shape[-2], weight.shape[-1]
    if weight.dim() == 3 and getattr(module, "is_transposed", False):  # stored (experts, in, out)
        out_features, in_features = in_features, out_features

    class Folded(nn.Module):
        def __init__(self) -> None:
            super().__init__()
            self.lora_a = nn.Parameter(torch.zeros(rank * experts, in_features, dtype=torch.float32))
            self.lora_b = nn.Parameter(torch.zeros(out_features, rank * experts, dtype=torch.float32))
            self.scaling = 8 / base_rank  # alpha / r as for the Linear adapters, both multiplied when fused

        def forward(self, w: Any) -> Any:
            if experts == 1:
                return w + (self.lora_b @ self.lora_a).to(w.dtype) * self.scaling
            a = self.lora_a.reshape(experts, -1, in_features)  # (experts, rank, in)
            b = self.lora_b.reshape(out_features, -1, experts).permute(2, 0, 1)  # (experts, out, rank)
            lhs, rhs = (
                (b, a) if not getattr(module, "is_transposed", False) else (a.transpose(-2, -1), b.transpose(-2, -1))
            )
            return torch.baddbmm(w, lhs.to(w.dtype), rhs.to(w.dtype), alpha=self.scaling)

    parametrize.register_parametrization(module, name, Folded(), unsafe=True)
    if not getattr(module, "_lora_cached", False):
        forward = module.forward

        def cached_forward(*args: Any, **kwargs: Any) -> Any:
            with parametrize.cached():
                return forward(*args, **kwargs)

        module.forward = cached_forward
        module._lora_cached = True
