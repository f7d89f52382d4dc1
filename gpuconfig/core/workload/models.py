"""Where a workload's model comes from: the built-in zoo, a Hugging Face config.json, or the user's Python file.

Everything here is checked without torch, so a wrong name or a config missing a field is reported at once,
in one line, before a trace process starts.
"""

from __future__ import annotations

import json
import tomllib
from collections.abc import Callable
from dataclasses import dataclass, field
from functools import cache
from pathlib import Path
from typing import Any, TypeVar

from gpuconfig.core.numbers import NumberError, checked_number
from gpuconfig.core.paths import catalog_dir
from gpuconfig.core.user_files import UserFileError, read_bytes, read_json
from gpuconfig.core.workload.spec import WorkloadError

# What the trace needs from a config, per model type (the keys transformers reads to build the model).
REQUIRED_KEYS: dict[str, tuple[str, ...]] = {
    "gpt2": ("n_embd", "n_layer", "n_head", "vocab_size"),
    "llama": ("hidden_size", "num_hidden_layers", "num_attention_heads", "intermediate_size", "vocab_size"),
    "mistral": ("hidden_size", "num_hidden_layers", "num_attention_heads", "intermediate_size", "vocab_size"),
    "qwen2": ("hidden_size", "num_hidden_layers", "num_attention_heads", "intermediate_size", "vocab_size"),
    "bert": ("hidden_size", "num_hidden_layers", "num_attention_heads", "intermediate_size", "vocab_size"),
    "vit": ("hidden_size", "num_hidden_layers", "num_attention_heads", "intermediate_size", "image_size", "patch_size"),
    "resnet": ("depths", "hidden_sizes", "layer_type", "embedding_size"),
    "whisper": ("d_model", "encoder_layers", "decoder_layers", "num_mel_bins", "vocab_size", "max_source_positions"),
}
UNET_KEYS = ("block_out_channels", "down_block_types", "up_block_types", "cross_attention_dim", "in_channels")
# What each required key holds, where it is not a size (a whole number of at least 1).
KEY_KINDS = {
    "depths": "sizes",
    "hidden_sizes": "sizes",
    "block_out_channels": "sizes",
    "cross_attention_dim": "size or sizes",
    "layer_type": "text",
    "down_block_types": "names",
    "up_block_types": "names",
}
EXPECTED = {
    "size": "a whole number of at least 1",
    "sizes": "a list of whole numbers of at least 1",
    "size or sizes": "a whole number of at least 1, or a list of them",
    "text": "text",
    "names": "a list of block names (text)",
}
T = TypeVar("T")
FAMILIES = {
    "gpt2": "llm",
    "llama": "llm",
    "mistral": "llm",
    "qwen2": "llm",
    "bert": "encoder",
    "vit": "vision",
    "resnet": "vision",
    "whisper": "speech",
}


@dataclass(frozen=True)
class ModelSource:
    """A model the trace worker can build: a config (zoo or file) or a user Python file."""

    ref: str  # what the user gave: a zoo id or a path
    kind: str  # "hf_config" | "python"
    name: str
    family: str  # llm | encoder | vision | speech | diffusion | python
    config: dict[str, Any] = field(default_factory=dict, compare=False, hash=False)
    path: str = ""
    digest: str = ""  # identifies the model for the trace cache

    @property
    def model_type(self) -> str:
        if self.family == "diffusion":
            return "unet"
        return str(self.config.get("model_type", "python"))

    @property
    def layers(self) -> int | None:
        for key in ("num_hidden_layers", "n_layer"):
            if isinstance(self.config.get(key), int):
                return int(self.config[key])
        return None

    def default_seq(self) -> int:
        """The length or image side a user most likely means when they give none (shown, never hidden)."""
        c = self.config
        if self.family == "llm":
            return min(int(c.get("max_position_embeddings", c.get("n_positions", 2048))), 2048)
        if self.family == "encoder":
            return 512
        if self.family == "vision":
            return int(c.get("image_size", 224))
        if self.family == "speech":
            return int(c.get("max_target_positions", 448))
        if self.family == "diffusion":
            return int(c.get("sample_size", 64)) * 8
        return 1

    def request(self) -> dict[str, Any]:
        """The worker's view of the model."""
        if self.kind == "python":
            return {"kind": "python", "path": self.path}
        return {"kind": "hf_config", "config": self.config}


@dataclass(frozen=True)
class ZooEntry:
    id: str
    name: str
    family: str
    hf_id: str
    sources: tuple[dict[str, Any], ...]
    notes: str


@cache
def zoo() -> dict[str, ZooEntry]:
    """The built-in models (catalog/models.toml), by id."""
    with (catalog_dir() / "models.toml").open("rb") as handle:
        data = tomllib.load(handle)
    return {
        m["id"]: ZooEntry(
            m["id"], m["name"], m["family"], m.get("hf_id", ""), tuple(m.get("sources", ())), m.get("notes", "")
        )
        for m in data["model"]
    }


def resolve_model(ref: str) -> ModelSource:
    """A zoo id, a config.json path or a .py path, checked; WorkloadError names what is wrong."""
    entries = zoo()
    if ref in entries:
        entry = entries[ref]
        config = _read_config(catalog_dir() / "models" / f"{ref}.json")
        return _checked(ModelSource(ref, "hf_config", entry.name, entry.family, config, digest=_digest(config)))
    path = Path(ref).expanduser()
    if path.suffix == ".py":
        text = _read(read_bytes, path)
        return ModelSource(
            ref, "python", path.stem, "python", path=str(path.resolve()), digest=_digest({"python": text.hex()})
        )
    if path.suffix == ".json" or path.is_dir():
        if path.is_dir():
            path = path / "config.json"
        config = _read_config(path)
        family = "diffusion" if config.get("_class_name") == "UNet2DConditionModel" else ""
        family = family or FAMILIES.get(str(config.get("model_type")), "")
        return _checked(
            ModelSource(ref, "hf_config", path.parent.name or path.stem, family, config, digest=_digest(config))
        )
    raise WorkloadError(
        f"model: {ref!r} is not a built-in model, a config.json or a .py file (built-in: {', '.join(sorted(entries))})"
    )


def _read(reader: Callable[[Path], T], path: Path) -> T:
    try:
        return reader(path)
    except UserFileError as exc:
        raise WorkloadError(f"model: {exc}") from exc


def _read_config(path: Path) -> dict[str, Any]:
    data = _read(read_json, path)
    if not isinstance(data, dict):
        raise WorkloadError(f"model: {path}: a config must be a JSON object")
    return data


def _checked(source: ModelSource) -> ModelSource:
    config = source.config
    if source.family == "diffusion":
        missing = [k for k in UNET_KEYS if k not in config]
        model_type = "UNet2DConditionModel"
    else:
        model_type = str(config.get("model_type", ""))
        if not model_type:
            raise WorkloadError(f"model: {source.ref}: config has no model_type")
        if model_type not in REQUIRED_KEYS:
            supported = ", ".join(sorted(REQUIRED_KEYS))
            raise WorkloadError(f"model: {source.ref}: unknown model type {model_type!r} (supported: {supported})")
        missing = [k for k in REQUIRED_KEYS[model_type] if k not in config]
    if missing:
        raise WorkloadError(f"model: {source.ref}: config for {model_type} is missing {', '.join(missing)}")
    keys = UNET_KEYS if source.family == "diffusion" else REQUIRED_KEYS[model_type]
    for key in keys:
        kind = KEY_KINDS.get(key, "size")
        if not _holds(kind, config[key]):
            raise WorkloadError(f"model: {source.ref}: {key}: expected {EXPECTED[kind]}, got {config[key]!r}")
    return source


def _holds(kind: str, value: Any) -> bool:
    """Whether a config value is of `kind` (see EXPECTED); true and false are not numbers here."""

    def size(v: Any) -> bool:
        try:
            checked_number(v, integer=True)
        except NumberError:
            return False
        return True

    def listed(check: Any) -> bool:
        return isinstance(value, list) and bool(value) and all(check(v) for v in value)

    if kind == "size":
        return size(value)
    if kind == "sizes":
        return listed(size)
    if kind == "size or sizes":
        return size(value) or listed(size)
    if kind == "names":
        return listed(lambda v: isinstance(v, str) and bool(v))
    return isinstance(value, str) and bool(value)


def _digest(data: dict[str, Any]) -> str:
    import hashlib

    return hashlib.sha256(json.dumps(data, sort_keys=True).encode()).hexdigest()[:16]
