"""What kind of model a config describes (decoder LLM, encoder, encoder-decoder, vision, speech, diffusion) and
whether it holds what a trace needs, decided from catalog/model_families.toml without transformers."""

from __future__ import annotations

import tomllib
from dataclasses import dataclass
from functools import cache
from typing import Any

from gpuconfig.core.numbers import NumberError, checked_number
from gpuconfig.core.paths import catalog_dir
from gpuconfig.core.workload.spec import WorkloadError

FAMILIES_FILE = "model_families.toml"
EXPECTED = {
    "size": "a whole number of at least 1",
    "sizes": "a list of whole numbers of at least 1",
    "size or sizes": "a whole number of at least 1, or a list of them",
    "number": "a finite number above 0",
    "text": "text",
    "names": "a list of block names (text)",
}
# The families whose samples are sequences of tokens (a throughput in tokens per second means something).
TOKEN_FAMILIES = ("llm", "encoder", "encoder-decoder", "speech")


@dataclass(frozen=True)
class Family:
    """One kind of model and the rule that recognises its configs."""

    id: str
    needs: tuple[str, ...] = ()
    fields: tuple[str, ...] = ()
    endings: tuple[str, ...] = ()
    model_types: frozenset[str] = frozenset()
    class_names: frozenset[str] = frozenset()
    refused: str = ""  # why gpuconfig cannot trace a model of this kind, where it cannot
    default: bool = False

    def describes(self, config: dict[str, Any]) -> bool:
        names = config.get("architectures")
        first = str(names[0]) if isinstance(names, list) and names else ""
        return (
            any(config.get(key) not in (None, False) for key in self.fields)
            or bool(first and self.endings and first.endswith(self.endings))
            or str(config.get("model_type", "")) in self.model_types
            or str(config.get("_class_name", "")) in self.class_names
        )


@cache
def _table() -> dict[str, Any]:
    with (catalog_dir() / FAMILIES_FILE).open("rb") as handle:
        return tomllib.load(handle)


@cache
def families() -> tuple[Family, ...]:
    """The families in the order their rules are tried."""
    return tuple(
        Family(
            f["id"],
            tuple(f.get("needs", ())),
            tuple(f.get("fields", ())),
            tuple(f.get("endings", ())),
            frozenset(f.get("model_types", ())),
            frozenset(f.get("class_names", ())),
            f.get("refused", ""),
            bool(f.get("default", False)),
        )
        for f in _table()["family"]
    )


def family_of(config: dict[str, Any]) -> Family:
    """The first family whose rule the config meets, else the default one (a decoder LLM)."""
    for family in families():
        if family.describes(config):
            return family
    return next(f for f in families() if f.default)


def check_config(ref: str, config: dict[str, Any], family: Family) -> None:
    """Raise WorkloadError, in one line, where the config lacks what a trace of its family needs."""
    if family.refused:
        raise WorkloadError(f"model: {ref}: {family.refused}")
    if family.class_names:
        label = str(config.get("_class_name"))
        needs = family.needs
    else:
        label = str(config.get("model_type", ""))
        if not label:
            raise WorkloadError(f"model: {ref}: config has no model_type")
        needs = tuple(_table().get("model_type", {}).get(label, {}).get("needs", family.needs))
    found = [next((key for key in need.split("|") if key in config), None) for need in needs]
    missing = [_named(need) for need, key in zip(needs, found, strict=True) if key is None]
    if missing:
        raise WorkloadError(f"model: {ref}: config for {label} is missing {', '.join(missing)}")
    kinds: dict[str, str] = _table().get("key_kinds", {})
    for key in found:
        kind = kinds.get(str(key), "size")
        if not _holds(kind, config[str(key)]):
            raise WorkloadError(f"model: {ref}: {key}: expected {EXPECTED[kind]}, got {config[str(key)]!r}")


def check_length(ref: str, config: dict[str, Any], seq: int, generated: int = 0) -> None:
    """Raise WorkloadError, in one line, where a real run of the config could not take `seq` tokens (and
    `generated` more): past a learned position table, or an image side other than a fixed one (the
    model_families.toml header says which types and where it is read)."""
    entry = _table().get("model_type", {}).get(str(config.get("model_type", "")), {})
    key = entry.get("positions")
    if key and key in config:
        try:
            table = checked_number(config[key], integer=True)
        except NumberError:
            return  # check_config names a key that is not a size
        limit = int(table) - int(entry.get("position_offset", 0))
        longest = seq + generated
        if longest > limit:
            what = f"{seq:,} + {generated:,} generated tokens" if generated else f"{seq:,} tokens"
            raise WorkloadError(
                f"seq: {what} is longer than {ref}'s {limit:,} learned positions ({key} in its config): a real "
                "run fails on its first forward"
            )
    if entry.get("fixed_image") and "image_size" in config and seq != config["image_size"]:
        raise WorkloadError(
            f"seq: {ref} takes images of {config['image_size']} pixels a side only (image_size in its config), "
            f"not {seq}"
        )


def _named(need: str) -> str:
    first, *others = need.split("|")
    return f"{first} (or {', '.join(others)})" if others else first


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
    if kind == "number":
        try:
            checked_number(value)
        except NumberError:
            return False
        return True
    if kind == "names":
        return listed(lambda v: isinstance(v, str) and bool(v))
    return isinstance(value, str) and bool(value)
