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

# The class a config that names no architecture is built as, per family (the core's word for its kind) and
# task; the encoder's pretraining objective is masked language modelling, its fine-tune a classifier.
AUTO_CLASSES = {
    "llm": "AutoModelForCausalLM",
    "encoder": "AutoModelForSequenceClassification",
    "encoder-decoder": "AutoModelForSeq2SeqLM",
    "vision": "AutoModelForImageClassification",
    "speech": "AutoModelForSpeechSeq2Seq",
}
PRETRAIN_CLASSES = {"encoder": "AutoModelForMaskedLM"}
# What a head learns from, by the ending of its class name: one label per sequence or image, or a token
# per position (language-model heads shift their labels themselves).
SEQUENCE_LABEL_HEADS = ("ForSequenceClassification", "ForImageClassification", "ForAudioClassification")
TOKEN_LABEL_HEADS = ("ForCausalLM", "LMHeadModel", "ForMaskedLM", "ForConditionalGeneration", "ForSpeechSeq2Seq")
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


# Factory functions whose small results a model's constructor may read back as numbers (ConvNeXt and Swin turn
# `torch.linspace(0, drop_path_rate, depth)` into a list of floats with `.tolist()`); under fake tensors that
# read has no values to give.
CONSTANT_FACTORIES = ("linspace", "logspace", "arange")
CONSTANT_LIMIT = 1 << 16  # elements: a schedule or an index, never a weight


@contextlib.contextmanager
def real_constants() -> Iterator[None]:
    """While a model is built, a factory call made of plain numbers that yields a small tensor is computed for
    real (a constant a real build computes the same way), and so is whatever the build does with such constants
    alone (split them, read them back as numbers). The fake mode takes real tensors as inputs
    (torch_private.fake_tensor_mode), so an operator mixing a constant with a fake tensor stays fake."""
    import torch

    from . import torch_private

    factories = {getattr(torch, name) for name in CONSTANT_FACTORIES}
    unset_fake = torch_private.unset_fake_temporarily()
    tree_flatten = torch_private.tree_flatten()
    constants: dict[int, Any] = {}  # id -> the constant itself, kept alive for the build so ids stay unique

    def tensors(value: Any) -> list[Any]:
        return [t for t in tree_flatten(value)[0] if isinstance(t, torch.Tensor)]

    def kept(value: Any) -> Any:
        for tensor in tensors(value):
            constants[id(tensor)] = tensor
        return value

    class Constants(torch_private.function_mode()):  # type: ignore[misc]
        def __torch_function__(self, func: Any, types: Any, args: Any = (), kwargs: Any = None) -> Any:
            kwargs = kwargs or {}
            inputs = tensors((args, kwargs))
            on_cpu = str(kwargs.get("device", "cpu")) == "cpu"
            if func in factories and not inputs and on_cpu:
                with unset_fake():
                    value = func(*args, **kwargs)
                if value.numel() <= CONSTANT_LIMIT:
                    return kept(value)
            elif inputs and all(id(t) in constants for t in inputs):
                with unset_fake():
                    return kept(func(*args, **kwargs))
            return func(*args, **kwargs)

    with Constants():
        yield


def hf_model(config_dict: dict[str, Any], task: str, family: str = "llm") -> tuple[Any, str]:
    """A transformers (or diffusers) model from a config dict, and the kind of inputs it takes: the class its
    `architectures` names, else the Auto class of its family and task."""
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
    grouped_experts_in_any_dtype()
    model_class = architecture_class(transformers, config_dict, family, task)
    try:
        model = model_class.from_config(config) if model_class.__name__.startswith("Auto") else model_class(config)
    except (AttributeError, TypeError, ValueError, KeyError) as exc:
        raise TraceError("model", f"config for {model_type!r} is missing or has a wrong field: {exc}") from exc
    return model, input_kind(model)


def grouped_experts_in_any_dtype() -> None:
    """Mixture-of-experts layers multiply each expert's tokens with torch's grouped GEMM, which takes bf16
    only (fake tensors check it as CUDA does): other weights go through transformers' own fallback operator,
    which has the same inputs and outputs."""
    import torch

    try:
        from transformers.integrations import moe
    except ImportError:
        return
    usable = getattr(moe, "_can_use_grouped_mm", None)
    if usable is None or getattr(usable, "bf16_only", False):
        return

    def bf16_only(input: Any, weight: Any, offs: Any) -> bool:
        return bool(weight.dtype == torch.bfloat16 and usable(input, weight, offs))

    bf16_only.bf16_only = True  # type: ignore[attr-defined]
    moe._can_use_grouped_mm = bf16_only


def architecture_class(transformers: Any, config_dict: dict[str, Any], family: str, task: str) -> Any:
    """The class the config's `architectures` names, else the Auto class of the family and task."""
    names = config_dict.get("architectures") or []
    if names:
        found = getattr(transformers, str(names[0]), None)
        if found is None:
            version = transformers.__version__
            raise TraceError("unsupported", f"transformers {version} has no model class {names[0]!r}")
        return found
    auto = (PRETRAIN_CLASSES if task == "pretrain" else AUTO_CLASSES).get(family) or AUTO_CLASSES.get(family)
    if auto is None:
        raise TraceError("unsupported", f"a {family} model needs `architectures` in its config to be built")
    return getattr(transformers, auto)


def input_kind(model: Any) -> str:
    """What the model reads and learns from: tokens, an image or audio features, and its kind of labels."""
    head = type(model).__name__
    labels = "tokens" if head.endswith(TOKEN_LABEL_HEADS) else "none"
    labels = "sequence" if head.endswith(SEQUENCE_LABEL_HEADS) else labels
    seq2seq = "seq2seq-" if getattr(model.config, "is_encoder_decoder", False) else ""
    return f"{seq2seq}{getattr(model, 'main_input_name', 'input_ids')}:{labels}"


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
    """Inputs with the right shapes (family: what input_kind() says); labels where the model computes its
    own loss. An encoder-decoder reads `seq` tokens and writes `seq`; Whisper writes `seq` tokens."""
    import torch

    config = model.config
    if family == "unet":
        side = seq // 8  # the VAE's latent is an eighth of the image side
        return {
            "sample": torch.randn(batch, config.in_channels, side, side),
            "timestep": torch.randint(0, 1000, (batch,)),
            "encoder_hidden_states": torch.randn(batch, 77, config.cross_attention_dim),
        }
    reads, labels = family.removeprefix("seq2seq-").split(":")
    if reads == "input_ids":
        inputs = {"input_ids": torch.randint(0, config.vocab_size, (batch, seq))}
    elif reads == "pixel_values":
        inputs = {"pixel_values": torch.randn(batch, config.num_channels, seq, seq)}
    elif reads == "input_features":
        frames = 2 * config.max_source_positions  # Whisper's encoder takes 30 s of audio: 3000 mel frames
        inputs = {"input_features": torch.randn(batch, config.num_mel_bins, frames)}
    else:
        raise TraceError("unsupported", f"no example inputs for a model that reads {reads!r}")
    targets = torch.randint(0, config.vocab_size, (batch, seq)) if family.startswith("seq2seq-") else None
    if task == "inference" or labels == "none":
        return inputs if targets is None else {**inputs, "decoder_input_ids": targets}
    if labels == "sequence":
        return {**inputs, "labels": torch.randint(0, config.num_labels, (batch,))}
    if targets is None:
        return {**inputs, "labels": inputs["input_ids"]}
    # the decoder's inputs given, as a collator gives them: not every config names the start token
    return {**inputs, "decoder_input_ids": targets, "labels": targets}


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
            with real_constants():
                model, family = hf_model(
                    {**config, **config_fields(request, config)}, task, source.get("family", "llm")
                )
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
