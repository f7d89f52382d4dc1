"""A price's age: shown the way a buyer reads it, and marked when older than six months."""

from __future__ import annotations

import datetime as dt

from gpuconfig.core.catalog.age import STALE_AFTER_DAYS, age_days, age_text, is_stale
from gpuconfig.core.catalog.model import Price

TODAY = dt.date(2026, 11, 26)


def price_on(day: str) -> Price:
    return Price(amount=100.0, currency="USD", date=day, source="https://example.com/list")


def test_age_is_counted_from_the_price_own_date() -> None:
    assert age_days(price_on("2026-11-01"), TODAY) == 25
    assert age_days(price_on("2025-11-26"), TODAY) == 365
    assert age_days(price_on("2027-01-01"), TODAY) == 0  # a price list dated ahead is not negative


def test_six_months_is_the_line() -> None:
    line = TODAY - dt.timedelta(days=STALE_AFTER_DAYS)
    assert not is_stale(price_on(line.isoformat()), TODAY)
    assert is_stale(price_on((line - dt.timedelta(days=1)).isoformat()), TODAY)
    assert is_stale(price_on("someday"), TODAY)  # nothing says an undated price is current
    assert age_days(price_on("someday"), TODAY) is None


def test_age_reads_in_days_months_or_years() -> None:
    assert age_text(12) == "12 d"
    assert age_text(200) == "7 mo"
    assert age_text(800) == "2.2 y"
    assert age_text(None) == "undated"
