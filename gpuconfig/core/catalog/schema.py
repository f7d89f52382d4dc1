"""The catalog schema: which fields each part kind has, their types, units and filters.

The schema itself is data (catalog/schema.toml); this module only reads it.
"""

from __future__ import annotations

import json
from dataclasses import asdict, dataclass
from pathlib import Path
from typing import Any

FIELD_TYPES = ("str", "int", "float", "bool", "date", "choice", "strlist", "slots", "ref")
FILTER_KINDS = ("choice", "min")
CURRENCIES = ("USD", "CNY")


@dataclass(frozen=True)
class FieldSpec:
    """One field of a part kind."""

    key: str
    type: str
    label: str
    unit: str = ""
    required: bool = False
    choices: tuple[str, ...] = ()
    filter: str = ""
    column: bool = False
    better: str = ""  # "higher" or "lower": which value a comparison marks as best

    @property
    def numeric(self) -> bool:
        return self.type in ("int", "float")


@dataclass(frozen=True)
class KindSpec:
    """A part kind (gpu, cpu, ...) and its fields, in file order."""

    kind: str
    label: str
    fields: tuple[FieldSpec, ...]

    def field(self, key: str) -> FieldSpec | None:
        return next((f for f in self.fields if f.key == key), None)

    @property
    def numeric_fields(self) -> tuple[FieldSpec, ...]:
        return tuple(f for f in self.fields if f.numeric)


@dataclass(frozen=True)
class Schema:
    kinds: dict[str, KindSpec]

    def __getitem__(self, kind: str) -> KindSpec:
        return self.kinds[kind]

    @property
    def kind_names(self) -> tuple[str, ...]:
        return tuple(self.kinds)


class SchemaError(ValueError):
    """The schema file itself is wrong: a defect of the shipped data, not of user input."""


def _field(kind: str, raw: dict[str, Any]) -> FieldSpec:
    known = {"key", "type", "label", "unit", "required", "choices", "filter", "column", "better"}
    unknown = set(raw) - known
    if unknown:
        raise SchemaError(f"schema: kind {kind}: unknown field keys {sorted(unknown)}")
    spec = FieldSpec(
        key=raw["key"],
        type=raw["type"],
        label=raw["label"],
        unit=raw.get("unit", ""),
        required=bool(raw.get("required", False)),
        choices=tuple(raw.get("choices", ())),
        filter=raw.get("filter", ""),
        column=bool(raw.get("column", False)),
        better=raw.get("better", ""),
    )
    if spec.better not in ("", "higher", "lower"):
        raise SchemaError(f"schema: {kind}.{spec.key}: better must be 'higher' or 'lower'")
    if spec.type not in FIELD_TYPES:
        raise SchemaError(f"schema: {kind}.{spec.key}: unknown type {spec.type!r}")
    if spec.filter and spec.filter not in FILTER_KINDS:
        raise SchemaError(f"schema: {kind}.{spec.key}: unknown filter {spec.filter!r}")
    if (spec.type == "choice") != bool(spec.choices):
        raise SchemaError(f"schema: {kind}.{spec.key}: choices go with type 'choice' and only with it")
    return spec


def parse_schema(text: str) -> Schema:
    import tomllib  # only when the files changed: the store keeps the parsed schema

    data = tomllib.loads(text)
    kinds = {
        name: KindSpec(kind=name, label=body["label"], fields=tuple(_field(name, f) for f in body["fields"]))
        for name, body in data["kinds"].items()
    }
    return Schema(kinds=kinds)


def load_schema(path: Path) -> Schema:
    return parse_schema(path.read_text(encoding="utf-8"))


def schema_to_json(schema: Schema) -> str:
    """The parsed schema as JSON: reading it back is much faster than parsing the TOML again."""
    return json.dumps(
        {name: {"label": k.label, "fields": [asdict(f) for f in k.fields]} for name, k in schema.kinds.items()}
    )


def schema_from_json(text: str) -> Schema:
    data = json.loads(text)
    return Schema(
        kinds={
            name: KindSpec(
                kind=name,
                label=body["label"],
                fields=tuple(FieldSpec(**{**f, "choices": tuple(f["choices"])}) for f in body["fields"]),
            )
            for name, body in data.items()
        }
    )
