"""A build as a priced list: one line per part with its key figures, unit price and line total.

The Build tab's table and every export format read this, so a part's figures and prices are worded the
same everywhere. Prices are in the sheet's currency (converted with the exchange rate where needed); a
part without a price stays unpriced, never counted as free.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import cache

from gpuconfig.core.build.model import Item, Resolved
from gpuconfig.core.catalog.age import is_stale, price_age
from gpuconfig.core.catalog.model import Part
from gpuconfig.core.catalog.schema import Schema, load_schema
from gpuconfig.core.i18n import QT_TRANSLATE_NOOP, translate
from gpuconfig.core.money import ExchangeRate, convert_price, format_money
from gpuconfig.core.paths import catalog_dir
from gpuconfig.core.units import format_value

# A line's kind as a build list names it (the schema's kind labels are plural, for the catalog's list).
KIND_NAMES = {
    "gpu": QT_TRANSLATE_NOOP("BuildSheet", "GPU"),
    "cpu": QT_TRANSLATE_NOOP("BuildSheet", "CPU"),
    "motherboard": QT_TRANSLATE_NOOP("BuildSheet", "Motherboard"),
    "ram": QT_TRANSLATE_NOOP("BuildSheet", "Memory"),
    "ssd": QT_TRANSLATE_NOOP("BuildSheet", "Storage"),
    "psu": QT_TRANSLATE_NOOP("BuildSheet", "Power supply"),
    "case": QT_TRANSLATE_NOOP("BuildSheet", "Case"),
    "dock": QT_TRANSLATE_NOOP("BuildSheet", "eGPU dock"),
    "cloud": QT_TRANSLATE_NOOP("BuildSheet", "Cloud instance"),
}
# The figures that tell one part of a kind from another at a glance: (field, how it reads, "{}" the value).
# Which figures matter is a presentation choice, not catalog data, so it lives with the presentation.
KEY_SPECS: dict[str, tuple[tuple[str, str], ...]] = {
    "gpu": (
        ("memory_gb", "{}"),
        ("memory_bandwidth_gbs", "{}"),
        ("bf16_tensor_tflops", QT_TRANSLATE_NOOP("BuildSheet", "{} BF16")),
        ("tdp_w", "{}"),
    ),
    "cpu": (
        ("cores", QT_TRANSLATE_NOOP("BuildSheet", "{} cores")),
        ("socket", "{}"),
        ("pcie_lanes", QT_TRANSLATE_NOOP("BuildSheet", "{} PCIe lanes")),
        ("tdp_w", QT_TRANSLATE_NOOP("BuildSheet", "{} TDP")),
    ),
    "motherboard": (("socket", "{}"), ("chipset", "{}"), ("form_factor", "{}"), ("memory_type", "{}")),
    "ram": (
        ("capacity_gb", "{}"),
        ("modules", QT_TRANSLATE_NOOP("BuildSheet", "{} modules")),
        ("memory_type", "{}"),
        ("speed_mts", "{}"),
    ),
    "ssd": (
        ("capacity_gb", "{}"),
        ("interface", "{}"),
        ("pcie_gen", QT_TRANSLATE_NOOP("BuildSheet", "Gen{}")),
        ("seq_read_mbs", QT_TRANSLATE_NOOP("BuildSheet", "{} read")),
    ),
    "psu": (
        ("watts", "{}"),
        ("efficiency", "{}"),
        ("atx_version", QT_TRANSLATE_NOOP("BuildSheet", "ATX {}")),
        ("connectors_12v2x6", QT_TRANSLATE_NOOP("BuildSheet", "{}x 12V-2x6")),
    ),
    "case": (
        ("form_factor", "{}"),
        ("max_gpu_length_mm", QT_TRANSLATE_NOOP("BuildSheet", "cards to {}")),
        ("expansion_slots", QT_TRANSLATE_NOOP("BuildSheet", "{} slots")),
    ),
    "dock": (("link", "{}"), ("link_gbps", "{}"), ("psu_w", QT_TRANSLATE_NOOP("BuildSheet", "{} supply"))),
    "cloud": (
        ("gpu_count", QT_TRANSLATE_NOOP("BuildSheet", "{} GPUs")),
        ("gpu_memory_gb", QT_TRANSLATE_NOOP("BuildSheet", "{} each")),
        ("provider", "{}"),
    ),
}


def kind_name(kind: str) -> str:
    """A line's kind as a build list names it, in the language in use."""
    return translate("BuildSheet", KIND_NAMES[kind]) if kind in KIND_NAMES else kind


@dataclass(frozen=True)
class KeySpec:
    key: str
    label: str  # the schema's label in the language in use: "Memory"
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
        out.append(KeySpec(key, field.title, translate("BuildSheet", template).format(format_value(field, value))))
    return tuple(out)


def unit_price(part: Part, currency: str, rate: ExchangeRate | None) -> tuple[float | None, str]:
    """The part's price in `currency` (its own price in that currency where the catalog has one) and a note on
    where it came from; (None, why) when there is none."""
    price = part.price_for(currency)
    if price is None:
        return None, translate("BuildSheet", "no public price")
    value = convert_price(price, currency, rate)
    if value is None:
        return None, translate("BuildSheet", "priced in {currency}; no exchange rate to convert it").format(
            currency=price.currency
        )
    notes = []
    if price.currency != currency and rate is not None:
        notes.append(
            translate("BuildSheet", "{price} at {rate:g} CNY/USD").format(
                price=format_money(price.amount, price.currency), rate=rate.rate
            )
        )
    if part.price_origin == "override":
        notes.append(translate("BuildSheet", "your price"))
    elif part.price_origin == "import":
        notes.append(price.basis)
    if part.price_origin != "override" and is_stale(price):
        notes.append(
            translate("BuildSheet", "price of {date}, {age} old: check a current one").format(
                date=price.date, age=price_age(price)
            )
        )
    return value, translate("BuildSheet", "; ").join(notes)


def sheet_line(item: Item, currency: str, rate: ExchangeRate | None, schema: Schema | None = None) -> SheetLine:
    price, note = unit_price(item.part, currency, rate)
    return SheetLine(
        kind=item.kind,
        kind_label=kind_name(item.kind),
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
