"""Figures computed from catalog fields rather than read from a document (shown as such)."""

from __future__ import annotations

from typing import Any

from gpuconfig.core.catalog.schema import FieldSpec
from gpuconfig.core.i18n import QT_TRANSLATE_NOOP

# Derived fields per kind: spec, and how each is computed from the row's own fields.
DERIVED_FIELDS: dict[str, tuple[FieldSpec, ...]] = {
    "motherboard": (
        FieldSpec(
            "max_dual_slot_gpus", "int", QT_TRANSLATE_NOOP("CatalogSchema", "Dual-slot GPUs that fit"), column=True
        ),
        FieldSpec(
            "max_triple_slot_gpus", "int", QT_TRANSLATE_NOOP("CatalogSchema", "Triple-slot GPUs that fit"), column=True
        ),
    ),
}


def gpus_that_fit(slots: list[dict[str, Any]], card_width: float) -> int:
    """How many cards `card_width` slots thick fit in the board's x16 slots without covering each other.

    A card in slot position p covers positions p .. p + width - 1; picking slots greedily from the
    CPU down is optimal for equal-width cards.
    """
    width = int(-(-card_width // 1))  # a 2.5-slot card blocks 3 positions
    count, covered_to = 0, 0
    for slot in sorted(slots, key=lambda s: s["position"]):
        if slot["position"] > covered_to:
            count += 1
            covered_to = slot["position"] + width - 1
    return count


def derived_values(kind: str, specs: dict[str, Any]) -> dict[str, Any]:
    if kind == "motherboard" and specs.get("x16_slots"):
        slots = specs["x16_slots"]
        return {"max_dual_slot_gpus": gpus_that_fit(slots, 2), "max_triple_slot_gpus": gpus_that_fit(slots, 3)}
    return {spec.key: None for spec in DERIVED_FIELDS.get(kind, ())}
