"""Formatting of catalog figures with their units, in one place for the GUI, CLI and reports."""

from __future__ import annotations

import unicodedata
from typing import Any

from gpuconfig.core.catalog.schema import SCHEMA_CONTEXT, FieldSpec
from gpuconfig.core.i18n import translate

MISSING = "—"


def format_number(value: float) -> str:
    """1,008 / 82.6 / 0.75 — thousands separated, at most three significant decimals."""
    if float(value).is_integer():
        return f"{value:,.0f}"
    if abs(value) >= 100:
        return f"{value:,.1f}"
    return f"{value:,.3g}" if abs(value) < 1 else f"{value:,.2f}".rstrip("0").rstrip(".")


def format_slots(slots: list[dict[str, Any]]) -> str:
    return ", ".join(f"#{s['position']}: x{s['lanes']} Gen{s['pcie_gen']} ({s['source']})" for s in slots)


def format_value(spec: FieldSpec, value: Any) -> str:
    """A field's value as a user reads it, with its unit, in the language in use; '—' when the part has no such
    figure."""
    if value is None:
        return MISSING
    if spec.type == "bool":
        return translate(SCHEMA_CONTEXT, "yes" if value else "no")
    if spec.type == "choice":
        return translate(SCHEMA_CONTEXT, str(value))
    if spec.type == "strlist":
        return ", ".join(value)
    if spec.type == "slots":
        return format_slots(value)
    if spec.numeric:
        text = format_number(value)
        return f"{text} {spec.unit}" if spec.unit else text
    return str(value)


def text_width(text: str) -> int:
    """Columns `text` takes in a terminal or a fixed grid: two for a wide or full-width character (Chinese), one
    for the rest (Unicode Standard Annex #11, East Asian Width)."""
    return sum(2 if unicodedata.east_asian_width(c) in "WF" else 1 for c in text)


def format_bytes(value: float) -> str:
    """Binary units, as memory is sized: 1,536 MiB -> '1.50 GiB'."""
    size = float(value)
    for unit in ("B", "KiB", "MiB", "GiB"):
        if abs(size) < 1024 or unit == "GiB":
            return f"{size:,.0f} {unit}" if unit == "B" else f"{size:,.2f} {unit}"
        size /= 1024
    return f"{size:,.2f} GiB"
