"""Parts as plain records: the CLI's JSON, and what reports and exports are built from."""

from __future__ import annotations

from dataclasses import asdict
from typing import Any

from gpuconfig.core.catalog.derived import DERIVED_FIELDS
from gpuconfig.core.catalog.model import Part, Price
from gpuconfig.core.money import ExchangeRate, convert_price


def price_record(price: Price | None, origin: str, currency: str | None, rate: ExchangeRate | None) -> Any:
    """{amount, currency, date, basis, source, per, origin}; converted when a currency is asked for."""
    if price is None:
        return None
    record: dict[str, Any] = {
        "amount": price.amount,
        "currency": price.currency,
        "date": price.date,
        "basis": price.basis,
        "source": price.source,
        "per": price.per or None,
        "origin": origin,
    }
    if currency and currency != price.currency:
        converted = convert_price(price, currency, rate)
        if converted is not None and rate is not None:
            record.update(
                amount=round(converted, 2),
                currency=currency,
                converted_from={"amount": price.amount, "currency": price.currency},
                exchange_rate={"usd_cny": rate.rate, "date": rate.date, "source": rate.source},
            )
    return record


def part_record(part: Part, currency: str | None = None, rate: ExchangeRate | None = None) -> dict[str, Any]:
    """Every field of a part; a figure the part does not have is None (JSON null), never 0."""
    record: dict[str, Any] = {"id": part.id, "kind": part.kind, "name": part.name, "vendor": part.vendor}
    record["released"] = part.released or None
    record.update(part.specs)
    for spec in DERIVED_FIELDS.get(part.kind, ()):
        record[spec.key] = part.extra.get(spec.key)
    shown = part.price_for(currency) if currency else part.price
    record["price"] = price_record(shown, part.price_origin, currency, rate)
    if part.price_origin != "catalog":
        record["catalog_price"] = price_record(part.catalog_price, "catalog", currency, rate)
    # Every price the catalog gives, each in its own currency: a launch price in USD beside one in CNY.
    record["catalog_prices"] = [price_record(p, "catalog", None, None) for p in part.catalog_prices]
    record["unpriced"] = part.unpriced or None  # why the catalog has no price for it
    record["unknown"] = dict(part.unknown) or None  # why a figure the checks read is missing, by field
    record["sources"] = [asdict(s) | {"fields": list(s.fields)} for s in part.sources]
    record["notes"] = part.notes or None
    return record
