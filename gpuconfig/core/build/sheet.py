"""A build as a priced list: one line per part with its key figures, unit price and line total.

The Build tab's table and every export format read this, so a part's figures and prices are worded the
same everywhere. Prices are in the sheet's currency (converted with the exchange rate where needed); a
part without a price stays unpriced, never counted as free.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import cache

from gpuconfig.core.build.model import Item, Resolved
from gpuconfig.core.catalog.model import Part
from gpuconfig.core.catalog.schema import Schema, load_schema
from gpuconfig.core.money import ExchangeRate, convert_price, format_money
from gpuconfig.core.paths import catalog_dir
from gpuconfig.core.units import format_value

# A line's kind as a build list names it (the schema's kind labels are plural, for the catalog's list).
KIND_NAMES = {
    "gpu": "GPU",
    "cpu": "CPU",
    "motherboard": "Motherboard",
    "ram": "Memory",
    "ssd": "Storage",
    "psu": "Power supply",
    "case": "Case",
    "dock": "eGPU dock",
    "cloud": "Cloud instance",
}
# The figures that tell one part of a kind from another at a glance: (field, how it reads, "{}" the value).
# Which figures matter is a presentation choice, not catalog data, so it lives with the presentation.
KEY_SPECS: dict[str, tuple[tuple[str, str], ...]] = {
    "gpu": (("memory_gb", "{}"), ("memory_bandwidth_gbs", "{}"), ("bf16_tensor_tflops", "{} BF16"), ("tdp_w", "{}")),
    "cpu": (("cores", "{} cores"), ("socket", "{}"), ("pcie_lanes", "{} PCIe lanes"), ("tdp_w", "{} TDP")),
    "motherboard": (("socket", "{}"), ("chipset", "{}"), ("form_factor", "{}"), ("memory_type", "{}")),
    "ram": (("capacity_gb", "{}"), ("modules", "{} modules"), ("memory_type", "{}"), ("speed_mts", "{}")),
    "ssd": (("capacity_gb", "{}"), ("interface", "{}"), ("pcie_gen", "Gen{}"), ("seq_read_mbs", "{} read")),
    "psu": (("watts", "{}"), ("efficiency", "{}"), ("atx_version", "ATX {}"), ("connectors_12v2x6", "{}x 12V-2x6")),
    "case": (("form_factor", "{}"), ("max_gpu_length_mm", "cards to {}"), ("expansion_slots", "{} slots")),
    "dock": (("link", "{}"), ("link_gbps", "{}"), ("psu_w", "{} supply")),
    "cloud": (("gpu_count", "{} GPUs"), ("gpu_memory_gb", "{} each"), ("provider", "{}")),
}


@dataclass(frozen=True)
class KeySpec:
    key: str
    label: str  # the schema's label: "Memory"
    text: str  # "24 GB"


@dataclass(frozen=True)
class SheetLine:
    kind: str
    kind_label: str  # "GPU", "Power supply"
    part: Part
    count: int
    specs: tuple[KeySpec, ...]
    unit_price: float | None  # in the sheet's currency; None: no price, or no rate to convert it
    line_total: float | None
    price_note: str  # "converted from CNY at 7.1 CNY/USD", "no public price", "your price", ""

    @property
    def specs_text(self) -> str:
        return " · ".join(s.text for s in self.specs)


@dataclass(frozen=True)
class Sheet:
    name: str
    currency: str
    lines: tuple[SheetLine, ...]


@cache
def shipped_schema() -> Schema:
    """The schema of the shipped catalog, for callers that have no store at hand."""
    return load_schema(catalog_dir() / "schema.toml")


def key_specs(part: Part, schema: Schema | None = None) -> tuple[KeySpec, ...]:
    """A part's key figures with their units; figures the catalog lacks are left out."""
    schema = schema or shipped_schema()
    kind = schema.kinds.get(part.kind)
    out = []
    for key, template in KEY_SPECS.get(part.kind, ()):
        field = kind.field(key) if kind is not None else None
        value = part.specs.get(key)
        if field is None or value is None:
            continue
        out.append(KeySpec(key, field.label, template.format(format_value(field, value))))
    return tuple(out)


def unit_price(part: Part, currency: str, rate: ExchangeRate | None) -> tuple[float | None, str]:
    """The part's price in `currency` and a note on where it came from; (None, why) when there is none."""
    price = part.price
    if price is None:
        return None, "no public price"
    value = convert_price(price, currency, rate)
    if value is None:
        return None, f"priced in {price.currency}; no exchange rate to convert it"
    notes = []
    if price.currency != currency and rate is not None:
        notes.append(f"{format_money(price.amount, price.currency)} at {rate.rate:g} CNY/USD")
    if part.price_origin == "override":
        notes.append("your price")
    elif part.price_origin == "import":
        notes.append(price.basis)
    return value, "; ".join(notes)


def sheet_line(item: Item, currency: str, rate: ExchangeRate | None, schema: Schema | None = None) -> SheetLine:
    price, note = unit_price(item.part, currency, rate)
    return SheetLine(
        kind=item.kind,
        kind_label=KIND_NAMES.get(item.kind, item.kind),
        part=item.part,
        count=item.count,
        specs=key_specs(item.part, schema),
        unit_price=price,
        line_total=None if price is None else price * item.count,
        price_note=note,
    )


def build_sheet(resolved: Resolved, currency: str, rate: ExchangeRate | None, schema: Schema | None = None) -> Sheet:
    """The priced list of a resolved build, in ROLES order."""
    return Sheet(
        resolved.build.name,
        currency,
        tuple(sheet_line(item, currency, rate, schema) for item in resolved.items),
    )
