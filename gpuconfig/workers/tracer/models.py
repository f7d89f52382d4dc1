"""The model and its inputs for one point: a Hugging Face config (transformers, a diffusers UNet) or a user's
Python file, built in the dtype of its weights without running its weight initialisers."""

from __future__ import annotations

import contextlib
import importlib.util
import sys
from collections.abc import Iterator
from typing import Any

from .attention import config_fields
from .events import TraceError

LLM_TYPES = {"gpt2", "llama", "mistral", "qwen2", "qwen3", "gemma", "gemma2", "phi3", "opt", "gpt_neox", "falcon"}
ENCODER_TYPES = {"bert", "roberta", "distilbert", "deberta-v2", "electra"}
VISION_TYPES = {"vit", "resnet", "convnext", "swin", "deit"}
# Which layer-count key a config uses (for tracing a deep model through two shallow copies).
LAYER_KEYS = ("num_hidden_layers", "n_layer")


@contextlib.contextmanager
def skipped_init() -> Iterator[None]:
    """Build without running weight initialisers: on fake tensors some of them read values (truncated
    normal checks its samples), and the values never matter for memory. Weight tying still happens."""
    import torch

    names = (
        "uniform_",
        "normal_",
        "trunc_normal_",
        "constant_",
        "xavier_uniform_",
        "xavier_normal_",
        "kaiming_uniform_",
        "kaiming_normal_",
        "uniform",
        "normal",
        "xavier_uniform",
        "xavier_normal",
        "kaiming_uniform",
        "kaiming_normal",
        "orthogonal_",
        "ones_",
        "zeros_",
        "eye_",
        "dirac_",
        "sparse_",
    )
    saved: list[tuple[Any, str, Any]] = []
    modules = [torch.nn.init] + [m for m in (sys.modules.get("transformers.initialization"),) if m is not None]
    for module in modules:
        for name in names:
            if hasattr(module, name):
                saved.append((module, name, getattr(module, name)))
                setattr(module, name, lambda tensor, *args, **kwargs: tensor)
    pretrained = None
    if "transformers" in sys.modules:
        from transformers import PreTrainedModel

        pretrained = PreTrainedModel.initialize_weights
        PreTrainedModel.initialize_weights = lambda self: None  # type: ignore[method-assign]
    try:
        yield
    finally:
        for module, name, function in saved:
            setattr(module, name, function)
        if pretrained is not None:
            from transformers import PreTrainedModel

            PreTrainedModel.initialize_weights = pretrained  # type: ignore[method-assign]


def hf_model(config_dict: dict[str, Any], task: str) -> tuple[Any, str]:
    """A transformers (or diffusers) model from a config dict, and its input family."""
    if config_dict.get("_class_name") == "UNet2DConditionModel":
        try:
            from diffusers import UNet2DConditionModel
        except ImportError as exc:
            raise TraceError("unsupported", "a diffusers UNet config needs the diffusers package") from exc
        unet_config = {k: v for k, v in config_dict.items() if not k.startswith("_")}
        return UNet2DConditionModel.from_config(unet_config), "unet"
    import transformers

    model_type = config_dict.get("model_type")
    if not model_type:
        raise TraceError("model", "config has no model_type")
    # The checkpoint's storage dtype ("torch_dtype": "bfloat16") would override the workload's precision:
    # the model is built in the default dtype build() sets.
    fields = {k: v for k, v in config_dict.items() if k not in ("model_type", "torch_dtype", "dtype")}
    try:
        config: Any = transformers.AutoConfig.for_model(model_type, **fields)
    except (ValueError, KeyError) as exc:
        raise TraceError("model", f"unknown model type {model_type!r}") from exc
    except Exception as exc:  # transformers' strict config check (huggingface_hub): a field of the wrong type
        raise TraceError("model", f"config for {model_type!r} has a wrong field: {' '.join(str(exc).split())}") from exc
    config.use_cache = task == "inference"
    try:
        if model_type in LLM_TYPES:
            return transformers.AutoModelForCausalLM.from_config(config), "causal"
        if model_type in ENCODER_TYPES:
            if task == "pretrain":
                return transformers.AutoModelForMaskedLM.from_config(config), "masked"
            config.num_labels = 2
            return transformers.AutoModelForSequenceClassification.from_config(config), "classify"
        if model_type in VISION_TYPES:
            return transformers.AutoModelForImageClassification.from_config(config), "image"
        if model_type == "whisper":
            return transformers.AutoModelForSpeechSeq2Seq.from_config(config), "speech"
    except (AttributeError, TypeError, ValueError, KeyError) as exc:
        raise TraceError("model", f"config for {model_type!r} is missing or has a wrong field: {exc}") from exc
    raise TraceError("unsupported", f"model type {model_type!r} has no training recipe here")


def user_model(path: str, batch: int, seq: int | None) -> tuple[Any, Any]:
    """A user file defines `model_and_inputs(batch, seq)` returning (nn.Module, example inputs)."""
    spec = importlib.util.spec_from_file_location("gpuconfig_user_model", path)
    if spec is None or spec.loader is None:
        raise TraceError("model", f"{path}: not a Python file")
    module = importlib.util.module_from_spec(spec)
    try:
        spec.loader.exec_module(module)
    except Exception as exc:
        raise TraceError("model", f"{path}: raised {type(exc).__name__}: {exc}") from exc
    build = getattr(module, "model_and_inputs", None)
    if build is None:
        raise TraceError("model", f"{path}: defines no model_and_inputs(batch, seq) function")
    try:
        model, inputs = build(batch, seq)
    except Exception as exc:
        raise TraceError("model", f"{path}: model_and_inputs raised {type(exc).__name__}: {exc}") from exc
    import torch

    if not isinstance(model, torch.nn.Module):
        raise TraceError("model", f"{path}: model_and_inputs returned {type(model).__name__}, not an nn.Module")
    return model, inputs


def example_batch(model: Any, family: str, batch: int, seq: int, task: str) -> dict[str, Any]:
    """Inputs with the right shapes; labels where the model computes its own loss."""
    import torch

    config = model.config
    if family in ("causal", "masked"):
        ids = torch.randint(0, config.vocab_size, (batch, seq))
        return {"input_ids": ids} if task == "inference" else {"input_ids": ids, "labels": ids}
    if family == "classify":
        ids = torch.randint(0, config.vocab_size, (batch, seq))
        labels = torch.randint(0, 2, (batch,))
        return {"input_ids": ids} if task == "inference" else {"input_ids": ids, "labels": labels}
    if family == "image":
        pixels = torch.randn(batch, config.num_channels, seq, seq)
        labels = torch.randint(0, config.num_labels, (batch,))
        return {"pixel_values": pixels} if task == "inference" else {"pixel_values": pixels, "labels": labels}
    if family == "speech":
        frames = 2 * config.max_source_positions  # Whisper's encoder takes 30 s of audio: 3000 mel frames
        features = torch.randn(batch, config.num_mel_bins, frames)
        tokens = torch.randint(0, config.vocab_size, (batch, seq))
        if task == "inference":
            return {"input_features": features, "decoder_input_ids": tokens}
        return {"input_features": features, "labels": tokens}
    if family == "unet":
        side = seq // 8  # the VAE's latent is an eighth of the image side
        return {
            "sample": torch.randn(batch, config.in_channels, side, side),
            "timestep": torch.randint(0, 1000, (batch,)),
            "encoder_hidden_states": torch.randn(batch, 77, config.cross_attention_dim),
        }
    raise TraceError("unsupported", f"no inputs for model family {family!r}")


def loss_of(output: Any) -> Any:
    """The scalar to backpropagate: the model's own loss, else the mean of its first output."""
    import torch

    loss = getattr(output, "loss", None)
    if loss is not None:
        return loss
    if isinstance(output, torch.Tensor):
        return output.float().mean()
    if isinstance(output, dict):
        output = next(iter(output.values()))
    elif hasattr(output, "to_tuple"):
        output = output.to_tuple()[0]
    elif isinstance(output, (tuple, list)):
        output = output[0]
    if isinstance(output, torch.Tensor):
        return output.float().mean()
    raise TraceError("model", "the model's output has no tensor to compute a loss from")


def weight_dtype(request: dict[str, Any]) -> Any:
    """The dtype the model's weights are built in: half precision when the weights themselves are."""
    import torch

    precision, task = request["precision"], request["task"]
    if task == "qlora" and precision != "fp32":  # base weights are loaded in the compute dtype, then quantized
        return torch.bfloat16
    if precision == "bf16" or (task == "inference" and precision in ("amp_bf16", "fp8", "int8", "int4")):
        return torch.bfloat16
    if task == "inference" and precision == "amp_fp16":
        return torch.float16
    return torch.float32


def build(request: dict[str, Any], batch: int, seq: int, layers: int | None) -> tuple[Any, Any, str]:
    """The model and its inputs for one point, built inside the active fake mode (or for real)."""
    import torch

    source = request["model"]
    task = request["task"]
    dtype = weight_dtype(request)
    previous = torch.get_default_dtype()
    torch.set_default_dtype(dtype)  # built in its dtype: converting fake modules afterwards is not supported
    try:
        if source["kind"] == "python":
            model, inputs = user_model(source["path"], batch, seq)
            family = "python"
        else:
            config = dict(source["config"])
            if layers is not None:
                config[layer_key(config)] = layers
                if isinstance(config.get("layer_types"), list):
                    config["layer_types"] = config["layer_types"][:layers]
            model, family = hf_model({**config, **config_fields(request, config)}, task)
            inputs = example_batch(model, family, batch, seq, task)
    finally:
        torch.set_default_dtype(previous)
    if dtype != torch.float32:
        inputs = {k: v.to(dtype) if v.is_floating_point() else v for k, v in dict_inputs(inputs).items()}
    return model, inputs, family


def dict_inputs(inputs: Any) -> dict[str, Any]:
    if isinstance(inputs, dict):
        return inputs
    if isinstance(inputs, (tuple, list)):
        return {str(i): v for i, v in enumerate(inputs)}
    return {"0": inputs}


def input_bytes(inputs: Any) -> int:
    """Bytes of the tensors one micro-batch feeds the model: what a training loop copies to the device."""
    import torch

    if isinstance(inputs, torch.Tensor):
        return inputs.numel() * inputs.element_size()
    if isinstance(inputs, dict):
        return sum(input_bytes(v) for v in inputs.values())
    if isinstance(inputs, (tuple, list)):
        return sum(input_bytes(v) for v in inputs)
    return 0


def call(model: Any, inputs: Any) -> Any:
    if isinstance(inputs, dict) and all(k.isdigit() for k in inputs):
        return model(*inputs.values())
    if isinstance(inputs, dict):
        return model(**inputs)
    if isinstance(inputs, (tuple, list)):
        return model(*inputs)
    return model(inputs)


def layer_key(config: dict[str, Any]) -> str:
    for key in LAYER_KEYS:
        if key in config:
            return key
    raise TraceError("unsupported", "this config has no layer count to extrapolate over")
