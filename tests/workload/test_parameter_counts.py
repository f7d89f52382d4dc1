"""The parameters a trace counts are the real model's: every zoo model, and one model of each further family, built
by transformers on the meta device from the same config; the trainable ones for a full fine-tune, and for LoRA as
PEFT's "all-linear" adapters of the same rank count them. The trace runs without its steps (they change no count),
so that a 70B model is counted at its full depth in seconds."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from peft.utils.error import NoMatchingPeftModuleError

from gpuconfig.core.workload.models import ModelSource, resolve_model, zoo
from gpuconfig.workers.tracer import point
from gpuconfig.workers.tracer.events import TraceError

# PEFT 0.21 reads an attribute transformers 5 has deprecated, and says that "all-linear" leaves the fused
# experts of a mixture-of-experts layer (3-D parameters, not Linear layers) without adapters
pytestmark = [
    pytest.mark.filterwarnings("ignore:`is_gradient_checkpointing` is deprecated:FutureWarning"),
    pytest.mark.filterwarnings("ignore:The following (rank|alpha)_pattern keys did not match:RuntimeWarning"),
]
RANK = 8
# Further families, each from the defaults of its transformers configuration class (transformers/models/<type>/
# configuration_<type>.py: Gemma2Config, Gemma3TextConfig, Phi3Config, MixtralConfig, FalconConfig, T5Config,
# Qwen2MoeConfig, DeepseekV2Config, DeepseekV3Config), and the family gpuconfig decides for it.
FAMILIES = {
    "gemma2": ("Gemma2ForCausalLM", "llm"),
    "gemma3_text": ("Gemma3ForCausalLM", "llm"),
    "phi3": ("Phi3ForCausalLM", "llm"),
    "mixtral": ("MixtralForCausalLM", "llm"),
    "falcon": ("FalconForCausalLM", "llm"),
    "t5": ("T5ForConditionalGeneration", "encoder-decoder"),
    "qwen2_moe": ("Qwen2MoeForCausalLM", "llm"),
    "deepseek_v2": ("DeepseekV2ForCausalLM", "llm"),
    "deepseek_v3": ("DeepseekV3ForCausalLM", "llm"),
}


def default_config(model_type: str, architecture: str) -> dict[str, Any]:
    """A config.json as transformers writes one for its configuration class's defaults."""
    import transformers

    config: dict[str, Any] = transformers.AutoConfig.for_model(model_type).to_dict()
    return {**config, "architectures": [architecture]}


def family_source(tmp_path: Path, model_type: str) -> ModelSource:
    architecture, family = FAMILIES[model_type]
    path = tmp_path / model_type / "config.json"
    path.parent.mkdir()
    path.write_text(json.dumps(default_config(model_type, architecture)), encoding="utf-8")
    source = resolve_model(str(path))
    assert source.family == family
    return source


def traced_counts(source: ModelSource, task: str, monkeypatch: pytest.MonkeyPatch) -> tuple[int, int]:
    """The (total, trainable) parameters one trace point reports, its steps skipped."""

    def no_step(model: Any, inputs: Any, optimizer: Any, request: Any, peaks: Any = None, **_: Any) -> int:
        if peaks is not None:  # the step's one phase ends at once: nothing ran, nothing was allocated
            peaks.end("forward")
        return 0

    monkeypatch.setattr(point, "one_step", no_step)
    request = {"model": source.request(), "task": task, "precision": "bf16", "optimizer": "adamw"}
    # LoRA on every Linear, as the PEFT reference below is configured ("all-linear").
    request |= {"lora_rank": RANK, "lora_targets": "all-linear", "device": "cpu", "checkpointing": False}
    seq = source.default_seq() if source.family in ("vision", "diffusion") else 16
    result = point.trace_point(request, 1, seq)
    return int(result["params"]), int(result["trainable_params"])


def real_model(source: ModelSource) -> Any:
    """The model transformers (or diffusers) builds from the same config, on the meta device."""
    import torch  # noqa: TID251  (the reference is built in the tests' Python, which has the torch extra)
    import transformers

    config = source.config
    with torch.device("meta"):
        if source.family == "diffusion":
            from diffusers import UNet2DConditionModel

            return UNet2DConditionModel.from_config({k: v for k, v in config.items() if not k.startswith("_")})
        fields = {k: v for k, v in config.items() if k not in ("model_type", "torch_dtype", "dtype")}
        built = transformers.AutoConfig.for_model(config["model_type"], **fields)
        if not config.get("architectures"):  # gpt2's zoo config: the causal LM the Auto class builds
            return transformers.AutoModelForCausalLM.from_config(built)
        return getattr(transformers, config["architectures"][0])(built)


def peft_lora_parameters(model: Any) -> int:
    """What PEFT trains with target_modules="all-linear": the adapters, and a classifier head in full."""
    import torch  # noqa: TID251  (as above)
    from peft import LoraConfig, TaskType, get_peft_model

    classifier = type(model).__name__.endswith("Classification")
    transposed = any(type(m).__name__ == "Conv1D" for m in model.modules())  # GPT-2's linear layers
    config = LoraConfig(
        r=RANK,
        target_modules="all-linear",
        task_type=TaskType.SEQ_CLS if classifier else None,
        fan_in_fan_out=transposed,
    )
    with torch.device("meta"):
        adapted = get_peft_model(model, config)
    return int(adapted.get_nb_trainable_parameters()[0])  # with a classifier trained in full (SEQ_CLS)


def assert_counts_are_the_real_models(source: ModelSource, task: str, monkeypatch: pytest.MonkeyPatch) -> None:
    real = real_model(source)
    total = sum(p.numel() for p in real.parameters())  # each tied weight once
    if task == "finetune":
        trainable = sum(p.numel() for p in real.parameters() if p.requires_grad)
        assert traced_counts(source, task, monkeypatch) == (total, trainable)
        return
    try:
        adapters = peft_lora_parameters(real)
    except NoMatchingPeftModuleError:  # a CNN: no Linear but its head, which LoRA leaves alone
        with pytest.raises(TraceError, match="match no Linear layer of this model"):
            traced_counts(source, task, monkeypatch)
        return
    assert traced_counts(source, task, monkeypatch) == (total, adapters)


@pytest.mark.parametrize("task", ["finetune", "lora"])
@pytest.mark.parametrize("model_id", sorted(zoo()))
def test_a_zoo_models_parameters_are_the_real_models(model_id: str, task: str, monkeypatch: pytest.MonkeyPatch) -> None:
    assert_counts_are_the_real_models(resolve_model(model_id), task, monkeypatch)


@pytest.mark.parametrize(
    ("model_type", "task"),
    [pytest.param(model_type, task) for model_type in sorted(FAMILIES) for task in ("finetune", "lora")],
)
def test_each_familys_parameters_are_the_real_models(
    model_type: str, task: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    assert_counts_are_the_real_models(family_source(tmp_path, model_type), task, monkeypatch)
