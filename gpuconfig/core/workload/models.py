"""Where a workload's model comes from: the built-in zoo, a Hugging Face config.json (a path, or a Hub id found in
the local Hugging Face cache), or the user's Python file.

Everything here is checked without torch, so a wrong name or a config missing a field is reported at once,
in one line, before a trace process starts.
"""

from __future__ import annotations

import json
import math
import tomllib
from collections.abc import Callable
from dataclasses import dataclass, field
from functools import cache
from pathlib import Path
from typing import Any, TypeVar

from gpuconfig.core.catalog.names import closest, either, named_ids
from gpuconfig.core.paths import catalog_dir
from gpuconfig.core.user_files import UserFileError, read_bytes, read_json
from gpuconfig.core.workload.families import TOKEN_FAMILIES, check_config, family_of
from gpuconfig.core.workload.hub import cached_config, is_hub_id
from gpuconfig.core.workload.spec import WorkloadError

T = TypeVar("T")


@dataclass(frozen=True)
class ModelSource:
    """A model the trace worker can build: a config (zoo or file) or a user Python file."""

    ref: str  # what the user gave: a zoo id or a path
    kind: str  # "hf_config" | "python"
    name: str
    family: str  # llm | encoder | encoder-decoder | vision | speech | diffusion | python (model_families.toml)
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

    def depth_pattern(self) -> tuple[int, int] | None:
        """How the model's layers repeat, as (leading, period): `leading` first layers unlike the rest, then
        one block of `period` layers over and over; None when the config lays its layers out irregularly.

        Read from the config's own fields: DeepSeek-V2/V3's first_k_dense_replace (dense layers before the
        mixture-of-experts ones), a period of sparse layers (Qwen2-MoE's decoder_sparse_step, Llama 4's
        interleave_moe_layer_step, moe_layer_freq), and `layer_types`, the per-layer attention kind Gemma 2/3
        and others list (its shortest repeating block after the leading layers)."""
        c = self.config
        lead = c.get("first_k_dense_replace") or 0
        if not isinstance(lead, int) or lead < 0:
            return None
        if c.get("mlp_only_layers"):  # dense layers named one by one: no repeating block
            return None
        period = 1
        # Periods of sparse layers, and Gemma 2/3 configs that give their attention block as a count
        # (sliding_window_pattern) instead of listing layer_types.
        for key in ("decoder_sparse_step", "interleave_moe_layer_step", "moe_layer_freq", "sliding_window_pattern"):
            step = c.get(key)
            if isinstance(step, int) and step > 1:
                period = math.lcm(period, step)
            elif isinstance(step, list):  # given layer by layer: no single period to trust
                return None
        kinds = c.get("layer_types")
        if isinstance(kinds, list) and len(kinds) > lead:
            body = kinds[lead:]
            repeat = next(n for n in range(1, len(body) + 1) if all(body[i] == body[i % n] for i in range(len(body))))
            period = math.lcm(period, repeat)
        return lead, period

    @property
    def reads_tokens(self) -> bool:
        """Whether a sample is a sequence of tokens (so a throughput in tokens per second means something)."""
        return self.family in TOKEN_FAMILIES

    def default_seq(self) -> int:
        """The length or image side a user most likely means when they give none (shown, never hidden)."""
        c = self.config
        if self.family == "llm":
            return min(int(c.get("max_position_embeddings", c.get("n_positions", 2048))), 2048)
        if self.family in ("encoder", "encoder-decoder"):
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
        return {"kind": "hf_config", "config": self.config, "family": self.family}


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
    """A zoo id (in any letters), a config.json path, a .py path or a Hub id in the local cache, checked;
    WorkloadError names what is wrong, and the zoo ids spelled like it."""
    entries = zoo()
    if ref in entries:
        return _from_zoo(entries[ref])
    path = Path(ref).expanduser()
    if path.suffix == ".py":
        text = _read(read_bytes, path)
        return ModelSource(
            ref, "python", path.stem, "python", path=str(path.resolve()), digest=_digest({"python": text.hex()})
        )
    if path.suffix == ".json" or path.is_dir():
        if path.is_dir():
            path = path / "config.json"
        return _from_config(ref, path, path.parent.name or path.stem)
    if is_hub_id(ref):
        return _from_config(ref, cached_config(ref), ref.split("@")[0])
    # A zoo id or name in other letters ("Llama-3-8B", "Llama 3 8B") or words that name one model ("qwen 72b");
    # after the paths, so a file keeps its name.
    named = named_ids(ref, {zoo_id: entry.name for zoo_id, entry in entries.items()})
    if len(named) == 1:
        return _from_zoo(entries[named[0]])
    if len(named) > 1:
        raise WorkloadError(f"model: {ref!r} names several built-in models: {either(sorted(named)[:6])}")
    near = closest(ref, entries)
    raise WorkloadError(
        f"model: {ref!r} is not a built-in model, a config.json, a .py file or a Hugging Face id in the local cache"
        + (f"; did you mean {either(near)}?" if near else "")
        + f" (built-in: {', '.join(sorted(entries))})"
    )


def _from_zoo(entry: ZooEntry) -> ModelSource:
    config = _read_config(catalog_dir() / "models" / f"{entry.id}.json")
    check_config(entry.id, config, family_of(config))
    return ModelSource(entry.id, "hf_config", entry.name, entry.family, config, digest=_digest(config))


def _from_config(ref: str, path: Path, name: str) -> ModelSource:
    config = _read_config(path)
    family = family_of(config)
    check_config(ref, config, family)
    return ModelSource(ref, "hf_config", name, family.id, config, digest=_digest(config))


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


def _digest(data: dict[str, Any]) -> str:
    import hashlib

    return hashlib.sha256(json.dumps(data, sort_keys=True).encode()).hexdigest()[:16]
