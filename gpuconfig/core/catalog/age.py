"""How old a price is, and when it is too old to trust without a look.

A price is a figure of one day (its `date`: the launch announcement, the listing, the price list's own date).
GPU and memory prices move by tens of percent within months (launches, shortages, the 2025 DRAM rise), so a
price older than six months is shown with its age and marked, and the planner names the ones a build used.
"""

from __future__ import annotations

import datetime as dt

from gpuconfig.core.catalog.model import Price
from gpuconfig.core.i18n import translate

STALE_AFTER_DAYS = 183  # six months


def price_day(price: Price) -> dt.date | None:
    """The price's date as a day; None when it is not one (YYYY-MM-DD)."""
    try:
        return dt.date.fromisoformat(price.date[:10])
    except ValueError:
        return None


def age_days(price: Price, today: dt.date | None = None) -> int | None:
    day = price_day(price)
    if day is None:
        return None
    return max(0, ((today or dt.date.today()) - day).days)


def is_stale(price: Price, today: dt.date | None = None) -> bool:
    """Older than six months (a price without a readable date counts as old: nothing says it is current)."""
    days = age_days(price, today)
    return days is None or days > STALE_AFTER_DAYS


def price_age(price: Price, today: dt.date | None = None) -> str:
    """How old a price is, in words ("7 mo")."""
    return age_text(age_days(price, today))


def age_text(days: int | None) -> str:
    """An age the way a buyer reads it: days under a month, months under two years, else years."""
    if days is None:
        return translate("Catalog", "undated")
    if days < 31:
        return translate("Catalog", "{n} d").format(n=days)
    if days < 730:
        return translate("Catalog", "{n} mo").format(n=round(days / 30.44))
    return translate("Catalog", "{n:.1f} y").format(n=days / 365.25)
