"""Any model transformers builds from a config: the family decided without transformers, the class the config
names built, one training step traced on inputs of the right shapes; Hub ids read from the local cache."""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Any

import pytest

from gpuconfig.core.workload.families import check_config, families, family_of
from gpuconfig.core.workload.models import ModelSource, resolve_model
from gpuconfig.core.workload.spec import WorkloadError
from gpuconfig.workers.tracer.point import trace_point
from tests.workload.test_parameter_counts import default_config, real_model

# torch's memory tracker says so where a module it saw is gone by the backward pass (it is, in the worker too)
pytestmark = pytest.mark.filterwarnings("ignore:Module is None:UserWarning")
SMALL = {"hidden_size": 64, "num_hidden_layers": 2, "num_attention_heads": 4, "intermediate_size": 96}
SMALL_VOCAB = {"vocab_size": 512, "pad_token_id": 0, "bos_token_id": 1, "eos_token_id": 2}
# Each family's defaults (transformers' configuration classes), made small enough to trace a step in seconds.
SMALL_MODELS: dict[str, tuple[str, str, dict[str, Any]]] = {
    "gemma2": ("Gemma2ForCausalLM", "llm", {**SMALL, "head_dim": 16, "num_key_value_heads": 2}),
    "gemma3_text": ("Gemma3ForCausalLM", "llm", {**SMALL, "head_dim": 16, "num_key_value_heads": 2}),
    "phi3": ("Phi3ForCausalLM", "llm", {**SMALL, "num_key_value_heads": 2}),
    "falcon": ("FalconForCausalLM", "llm", {"hidden_size": 64, "num_hidden_layers": 2, "num_attention_heads": 4}),
    "mixtral": ("MixtralForCausalLM", "llm", {**SMALL, "num_key_value_heads": 2, "num_local_experts": 4}),
    "qwen2_moe": (
        "Qwen2MoeForCausalLM",
        "llm",
        {
            **SMALL,
            "num_key_value_heads": 2,
            "num_experts": 4,
            "moe_intermediate_size": 32,
            "shared_expert_intermediate_size": 64,
        },
    ),
    "deepseek_v3": (
        "DeepseekV3ForCausalLM",
        "llm",
        {
            **SMALL,
            "num_hidden_layers": 3,
            "first_k_dense_replace": 1,
            "num_key_value_heads": 4,
            "n_routed_experts": 4,
            "num_experts_per_tok": 2,
            "n_group": 1,
            "topk_group": 1,
            "moe_intermediate_size": 32,
            "q_lora_rank": 32,
            "kv_lora_rank": 16,
            "qk_rope_head_dim": 8,
            "qk_nope_head_dim": 8,
            "head_dim": 8,
            "v_head_dim": 16,
        },
    ),
    "t5": ("T5ForConditionalGeneration", "encoder-decoder", {"d_model": 64, "d_kv": 16, "d_ff": 96, "num_layers": 2}),
    "bert": ("BertForMaskedLM", "encoder", SMALL),
    "roberta": ("RobertaForSequenceClassification", "encoder", {**SMALL, "pad_token_id": 1}),
    "vit": ("ViTForImageClassification", "vision", {**SMALL, "image_size": 32, "patch_size": 8}),
    # Their constructors read a stochastic-depth schedule back as numbers (torch.linspace(...).tolist()).
    "convnext": (
        "ConvNextForImageClassification",
        "vision",
        {"hidden_sizes": [8, 8, 8, 8], "depths": [1, 1, 1, 1], "image_size": 32, "drop_path_rate": 0.1},
    ),
    "swin": (
        "SwinForImageClassification",
        "vision",
        {"embed_dim": 8, "depths": [1, 1, 1, 1], "num_heads": [2, 2, 2, 2], "image_size": 64, "window_size": 2},
    ),
    # Depth set by a width multiplier, not a layer count.
    "mobilenet_v2": ("MobileNetV2ForImageClassification", "vision", {"depth_multiplier": 0.25, "image_size": 32}),
    # Named by its own keys (hidden_sizes, neck_hidden_sizes): no layer count or depths.
    "mobilevit": (
        "MobileViTForImageClassification",
        "vision",
        {"hidden_sizes": [16, 16, 16], "neck_hidden_sizes": [8, 8, 16, 16, 16, 16, 32], "image_size": 64},
    ),
    "whisper": (
        "WhisperForConditionalGeneration",
        "speech",
        {
            "d_model": 64,
            "encoder_layers": 2,
            "decoder_layers": 2,
            "encoder_attention_heads": 4,
            "decoder_attention_heads": 4,
            "max_source_positions": 50,
            "num_mel_bins": 8,
        },
    ),
}


def small_source(tmp_path: Path, model_type: str, **changes: Any) -> ModelSource:
    architecture, _, small = SMALL_MODELS[model_type]
    config = {**default_config(model_type, architecture), **SMALL_VOCAB, **small, **changes}
    if isinstance(config.get("layer_types"), list):  # sliding or full attention, one per layer
        config["layer_types"] = config["layer_types"][: config["num_hidden_layers"]]
    path = tmp_path / model_type / "config.json"
    path.parent.mkdir()
    path.write_text(json.dumps(config), encoding="utf-8")
    return resolve_model(str(path))


@pytest.mark.parametrize("task", ["finetune", "inference"])
@pytest.mark.parametrize("model_type", sorted(SMALL_MODELS))
def test_each_family_traces_a_step_of_the_class_its_config_names(tmp_path: Path, model_type: str, task: str) -> None:
    source = small_source(tmp_path, model_type)
    assert source.family == SMALL_MODELS[model_type][1]
    request = {"model": source.request(), "task": task, "precision": "fp32", "optimizer": "adamw", "device": "cpu"}
    seq = source.config["image_size"] if source.family == "vision" else 12
    result = trace_point(request, 2, seq)
    assert result["params"] == sum(p.numel() for p in real_model(source).parameters())
    assert result["flops"] > 0


def test_a_mixture_of_experts_step_is_traced_with_its_router_logits(tmp_path: Path) -> None:
    source = small_source(tmp_path, "mixtral", output_router_logits=True)  # the auxiliary load-balancing loss
    request = {"model": source.request(), "task": "finetune", "precision": "bf16", "optimizer": "adamw"}
    assert trace_point({**request, "device": "cpu"}, 2, 12)["flops"] > 0


@pytest.mark.parametrize(
    "model_type", sorted({t for family in families() if not family.refused for t in family.model_types})
)
def test_every_model_type_a_family_lists_is_accepted_with_its_own_default_config(model_type: str) -> None:
    import transformers

    config = transformers.AutoConfig.for_model(model_type).to_dict()
    family = family_of(config)
    assert model_type in family.model_types
    check_config(model_type, config, family)  # raises WorkloadError naming a key the config class does not have


def test_the_family_comes_from_the_config_without_a_list_of_model_types() -> None:
    assert family_of({"model_type": "bert"}).id == "encoder"  # no architectures: known encoder types
    assert family_of({"model_type": "t5"}).id == "encoder-decoder"
    assert family_of({"model_type": "brand-new", "is_encoder_decoder": True}).id == "encoder-decoder"
    assert family_of({"model_type": "brand-new", "architectures": ["BrandNewForImageClassification"]}).id == "vision"
    assert family_of({"model_type": "brand-new", "num_mel_bins": 80}).id == "speech"
    assert family_of({"model_type": "brand-new"}).id == "llm"  # most new model types are decoders
    assert family_of({"model_type": "llama", "architectures": ["LlamaForSequenceClassification"]}).id == "llm"


def test_a_model_of_several_sub_models_is_refused_in_one_line(tmp_path: Path) -> None:
    path = tmp_path / "config.json"
    path.write_text(json.dumps({"model_type": "llava", "text_config": {"model_type": "llama"}}), encoding="utf-8")
    with pytest.raises(WorkloadError, match=r"several sub-models .* not supported yet"):
        resolve_model(str(path))


def hub_snapshot(cache: Path, repo: str, config: dict[str, Any], commit: str = "0" * 40) -> None:
    """A model as huggingface_hub's download leaves it in its cache."""
    folder = cache / f"models--{repo.replace('/', '--')}"
    (folder / "refs").mkdir(parents=True)
    (folder / "refs" / "main").write_text(commit, encoding="utf-8")
    (folder / "snapshots" / commit).mkdir(parents=True)
    (folder / "snapshots" / commit / "config.json").write_text(json.dumps(config), encoding="utf-8")


@pytest.mark.parametrize("variable", ["HF_HUB_CACHE", "HF_HOME"])
def test_a_hub_id_is_read_from_the_local_cache(tmp_path: Path, monkeypatch: pytest.MonkeyPatch, variable: str) -> None:
    monkeypatch.delenv("HF_HUB_CACHE", raising=False)
    monkeypatch.setenv(variable, str(tmp_path))
    cache = tmp_path / "hub" if variable == "HF_HOME" else tmp_path
    config = json.loads((Path(__file__).parents[1] / "data" / "tiny_llama.json").read_text(encoding="utf-8"))
    hub_snapshot(cache, "someone/tiny-llama", config)
    source = resolve_model("someone/tiny-llama")
    assert (source.name, source.family, source.config) == ("someone/tiny-llama", "llm", config)
    assert resolve_model(f"someone/tiny-llama@{'0' * 40}").config == config  # a commit, as the cache names it


def test_a_hub_id_not_in_the_cache_is_one_line(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("HF_HUB_CACHE", str(tmp_path))
    with pytest.raises(WorkloadError) as raised:
        resolve_model("meta-llama/Meta-Llama-3-8B")
    message = str(raised.value)
    assert "\n" not in message
    assert re.search(r"meta-llama/Meta-Llama-3-8B is not in the Hugging Face cache \(.*\)", message)
    assert "hf download meta-llama/Meta-Llama-3-8B config.json" in message


@pytest.mark.parametrize(("model_type", "varies"), [("swin", False), ("vit", False), ("mobilenet_v2", True)])
def test_an_image_size_a_window_or_position_grid_fixes_is_never_varied(
    tmp_path: Path, model_type: str, varies: bool
) -> None:
    from gpuconfig.core.workload.runner import traced_shapes

    source = small_source(tmp_path, model_type)
    side = source.config["image_size"]
    sides = {s for _, s in traced_shapes(source, 2, side)}
    assert sides == ({side, side // 2} if varies else {side})
    for _, s in traced_shapes(source, 2, side):  # every shape the estimate traces also builds and runs
        request = {"model": source.request(), "task": "finetune", "precision": "fp32", "optimizer": "sgd"}
        assert trace_point(request | {"device": "cpu"}, 2, s)["flops"] > 0
