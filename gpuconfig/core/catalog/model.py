"""What a catalog part is once loaded: frozen records, independent of where they came from."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Literal

PriceOrigin = Literal["catalog", "override", "import"]


@dataclass(frozen=True)
class Source:
    """A document a figure was read from, and when it was read."""

    url: str
    title: str
    read: str
    fields: tuple[str, ...] = ()


@dataclass(frozen=True)
class Price:
    """A price as published: amount in its own currency, when, where, and on what basis."""

    amount: float
    currency: str
    date: str
    source: str
    basis: str = ""
    per: str = ""  # "hour" for cloud instances, empty for a purchase


@dataclass(frozen=True)
class Part:
    """One catalog row. `specs` holds every schema field of the kind, None where the part has none."""

    kind: str
    id: str
    name: str
    vendor: str
    specs: dict[str, Any]
    sources: tuple[Source, ...]
    price: Price | None = None
    released: str = ""
    notes: str = ""
    # Where `price` came from, and the catalog's own price when an override or import replaced it.
    price_origin: PriceOrigin = "catalog"
    catalog_price: Price | None = None
    # Every price the catalog row gives (its `price` first, then its `prices`): a price set in one market's
    # currency (a Chinese launch price in CNY beside the US one in USD) is shown as it is, not converted.
    catalog_prices: tuple[Price, ...] = ()
    unpriced: str = ""  # why the row has no price (sold only inside whole systems, say), where it has none
    unknown: dict[str, str] = field(default_factory=dict)  # why a figure the checks read is missing, by field
    file: str = ""
    line: int = 0
    extra: dict[str, Any] = field(default_factory=dict)

    def price_for(self, currency: str) -> Price | None:
        """The price to show in `currency`: the user's own where they set or imported one; else the catalog's
        newest price in that currency where it has one; else its first price (to be converted)."""
        if self.price_origin != "catalog":
            return self.price
        native = [p for p in self.catalog_prices if p.currency == currency]
        return max(native, key=lambda p: p.date) if native else self.price

    def source_for(self, key: str) -> Source | None:
        """The source that backs one field: the one naming it, else the row's general source."""
        named = next((s for s in self.sources if key in s.fields), None)
        if named is not None:
            return named
        return next((s for s in self.sources if not s.fields), None)
