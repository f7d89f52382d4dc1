"""Money: conversion between the catalog's currencies and formatting, in one place.

The USD/CNY rate ships as data (catalog/currency.toml, with its source and date) and the user may
replace it with their own; a conversion always says which rate it used.
"""

from __future__ import annotations

import datetime as dt
from dataclasses import dataclass
from pathlib import Path
from typing import Protocol

from gpuconfig.core.numbers import MAX_AMOUNT, NumberError, checked_amount

SYMBOLS = {"USD": "$", "CNY": "¥"}


@dataclass(frozen=True)
class ExchangeRate:
    """How many `quote` units one `base` unit buys, and where that figure came from."""

    base: str
    quote: str
    rate: float
    date: str
    source: str
    user_set: bool = False

    def convert(self, amount: float, from_currency: str, to_currency: str) -> float:
        if from_currency == to_currency:
            return amount
        if (from_currency, to_currency) == (self.base, self.quote):
            return amount * self.rate
        if (from_currency, to_currency) == (self.quote, self.base):
            return amount / self.rate
        raise ValueError(f"no rate between {from_currency} and {to_currency}")


class Amount(Protocol):
    """An amount in a currency, such as a catalog Price (money sits below the catalog, so it names no record)."""

    @property
    def amount(self) -> float: ...

    @property
    def currency(self) -> str: ...


class ExchangeRateError(ValueError):
    pass


def load_shipped_rate(path: Path) -> ExchangeRate | None:
    """The published rate in catalog/currency.toml, or None when the file has none."""
    import tomllib

    if not path.exists():
        return None
    try:
        data = tomllib.loads(path.read_text(encoding="utf-8"))
        raw = data["rate"][0]
        rate = ExchangeRate(
            base=raw["base"],
            quote=raw["quote"],
            rate=float(raw["rate"]),
            date=str(raw["date"]),
            source=raw["source"],
        )
    except (tomllib.TOMLDecodeError, KeyError, IndexError, TypeError, ValueError) as exc:
        raise ExchangeRateError(f"{path.name}: not a valid [[rate]] table: {exc}") from exc
    try:
        checked_rate(rate.rate)
    except ExchangeRateError as exc:
        raise ExchangeRateError(f"{path.name}: {exc}") from None
    return rate


def checked_rate(rate: object) -> float:
    """A usable rate: one unit of either currency buys a valid amount (numbers.checked_amount) of the other."""
    try:
        value = checked_amount(rate)
    except NumberError as exc:
        raise ExchangeRateError(f"exchange rate {exc}") from None
    if value < 1 / MAX_AMOUNT:
        raise ExchangeRateError(f"exchange rate must be at least {1 / MAX_AMOUNT:g}, got {value!r}")
    return value


def user_rate(rate: object, base: str = "USD", quote: str = "CNY") -> ExchangeRate:
    value = checked_rate(rate)
    return ExchangeRate(base, quote, value, dt.date.today().isoformat(), "set by you", user_set=True)


def convert_price(price: Amount, currency: str, rate: ExchangeRate | None) -> float | None:
    """The price's amount in `currency`, or None when no rate is known to convert it."""
    if price.currency == currency:
        return price.amount
    if rate is None:
        return None
    return rate.convert(price.amount, price.currency, currency)


def format_money(amount: float | None, currency: str) -> str:
    """'$1,599', '¥12,999', '$2.49' (cents only where they matter); '—' when unknown."""
    if amount is None:
        return "—"
    symbol = SYMBOLS.get(currency, currency + " ")
    if amount >= 100 or float(amount).is_integer():
        return f"{symbol}{amount:,.0f}"
    return f"{symbol}{amount:,.2f}"
