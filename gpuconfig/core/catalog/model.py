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
    file: str = ""
    line: int = 0
    extra: dict[str, Any] = field(default_factory=dict)

    def source_for(self, key: str) -> Source | None:
        """The source that backs one field: the one naming it, else the row's general source."""
        named = next((s for s in self.sources if key in s.fields), None)
        if named is not None:
            return named
        return next((s for s in self.sources if not s.fields), None)
