"""The catalog schema: which fields each part kind has, their types, units and filters.

The schema itself is data (catalog/schema.toml); this module only reads it.
"""

from __future__ import annotations

import json
from dataclasses import asdict, dataclass
from pathlib import Path
from typing import Any

from gpuconfig.core.i18n import translate
from gpuconfig.core.user_files import UserFileError, parse_toml

FIELD_TYPES = ("str", "int", "float", "bool", "date", "choice", "strlist", "slots", "ref")
FILTER_KINDS = ("choice", "min")
CURRENCIES = ("USD", "CNY")
SCHEMA_FILE = "schema.toml"
SCHEMA_CONTEXT = "CatalogSchema"  # the translations' context of the labels and choices (core/data_strings.py)


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
    # A figure the build and eGPU checks read: a row of its kind (where the kind's `checked_when` holds) gives it,
    # or says why it is unknown (`unknown = { key = "why" }`), else `catalog check` rejects the row.
    checked: bool = False

    @property
    def numeric(self) -> bool:
        return self.type in ("int", "float")

    @property
    def title(self) -> str:
        """The label in the language in use (core/i18n.py; core/data_strings.py marks the labels)."""
        return translate(SCHEMA_CONTEXT, self.label)


@dataclass(frozen=True)
class KindSpec:
    """A part kind (gpu, cpu, ...) and its fields, in file order."""

    kind: str
    label: str
    fields: tuple[FieldSpec, ...]
    # Every row priced or saying why not (`unpriced`): `catalog check` holds a kind to it once its prices are in.
    priced: bool = False
    # The rows its checked fields are held to: (field, value) pairs a row must match, all of them ("PCIe card").
    checked_when: tuple[tuple[str, str], ...] = ()

    def checks(self, specs: dict[str, Any]) -> bool:
        """Whether a row with these figures is held to the kind's checked fields."""
        return all(str(specs.get(key)) == value for key, value in self.checked_when)

    def field(self, key: str) -> FieldSpec | None:
        return next((f for f in self.fields if f.key == key), None)

    @property
    def title(self) -> str:
        """The kind's label ("GPUs") in the language in use."""
        return translate(SCHEMA_CONTEXT, self.label)

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
    """The schema file itself is wrong: a defect of the shipped data, not of user input.
    str() is one line naming the file and, where known, the line."""

    def __init__(self, message: str, line: int = 0) -> None:
        self.message, self.line = message, line
        super().__init__(f"{SCHEMA_FILE}:{line}: {message}" if line else f"{SCHEMA_FILE}: {message}")


def _field(kind: str, raw: Any, line: int) -> FieldSpec:
    if not isinstance(raw, dict) or not all(isinstance(raw.get(k), str) for k in ("key", "type", "label")):
        raise SchemaError(f"kind {kind}: each field needs key, type and label as text, got {raw!r}", line)
    known = {"key", "type", "label", "unit", "required", "choices", "filter", "column", "better", "checked"}
    unknown = set(raw) - known
    if unknown:
        raise SchemaError(f"kind {kind}: unknown field keys {sorted(unknown)}", line)
    spec = FieldSpec(
        key=raw["key"],
        type=raw["type"],
        label=raw["label"],
        unit=str(raw.get("unit", "")),
        required=bool(raw.get("required", False)),
        choices=tuple(str(c) for c in raw.get("choices", ())),
        filter=str(raw.get("filter", "")),
        column=bool(raw.get("column", False)),
        better=str(raw.get("better", "")),
        checked=bool(raw.get("checked", False)),
    )
    if spec.better not in ("", "higher", "lower"):
        raise SchemaError(f"{kind}.{spec.key}: better must be 'higher' or 'lower'", line)
    if spec.type not in FIELD_TYPES:
        raise SchemaError(f"{kind}.{spec.key}: unknown type {spec.type!r}", line)
    if spec.filter and spec.filter not in FILTER_KINDS:
        raise SchemaError(f"{kind}.{spec.key}: unknown filter {spec.filter!r}", line)
    if (spec.type == "choice") != bool(spec.choices):
        raise SchemaError(f"{kind}.{spec.key}: choices go with type 'choice' and only with it", line)
    return spec


def parse_schema(text: str) -> Schema:
    """The schema in `text`, or SchemaError naming the line of the first problem."""
    try:
        data = parse_toml(text, SCHEMA_FILE)
    except UserFileError as exc:
        raise SchemaError(exc.message, exc.line) from None
    kinds = data.get("kinds")
    if not isinstance(kinds, dict) or not kinds:
        raise SchemaError("expected [kinds.<kind>] tables, each with a label and fields")
    lines = text.splitlines()
    parsed = {}
    for name, body in kinds.items():
        line = next((n for n, t in enumerate(lines, 1) if t.strip().startswith(f"[kinds.{name}]")), 0)
        if not isinstance(body, dict) or not isinstance(body.get("label"), str):
            raise SchemaError(f"kind {name}: needs a label (text)", line)
        fields = body.get("fields")
        if not isinstance(fields, list) or not fields:
            raise SchemaError(f"kind {name}: needs a list of fields", line)
        priced = body.get("priced", False)
        if not isinstance(priced, bool):
            raise SchemaError(f"kind {name}: priced must be true or false", line)
        when = body.get("checked_when", {})
        if not isinstance(when, dict) or not all(isinstance(v, str) for v in when.values()):
            raise SchemaError(f"kind {name}: checked_when maps field keys to text values", line)
        parsed[name] = KindSpec(
            kind=name,
            label=body["label"],
            fields=tuple(_field(name, f, line) for f in fields),
            priced=priced,
            checked_when=tuple(when.items()),
        )
    return Schema(kinds=parsed)


def load_schema(path: Path) -> Schema:
    return parse_schema(path.read_text(encoding="utf-8"))


def schema_to_json(schema: Schema) -> str:
    """The parsed schema as JSON: reading it back is much faster than parsing the TOML again."""
    return json.dumps(
        {
            name: {
                "label": k.label,
                "fields": [asdict(f) for f in k.fields],
                "priced": k.priced,
                "checked_when": [list(pair) for pair in k.checked_when],
            }
            for name, k in schema.kinds.items()
        }
    )


def schema_from_json(text: str) -> Schema:
    data = json.loads(text)
    return Schema(
        kinds={
            name: KindSpec(
                kind=name,
                label=body["label"],
                fields=tuple(FieldSpec(**{**f, "choices": tuple(f["choices"])}) for f in body["fields"]),
                priced=bool(body.get("priced", False)),
                checked_when=tuple((str(k), str(v)) for k, v in body.get("checked_when", [])),
            )
            for name, body in data.items()
        }
    )
