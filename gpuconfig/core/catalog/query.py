"""Search, filter and sort parts: pure functions over a prebuilt index, fast enough to run per keystroke."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

from gpuconfig.core.catalog.model import Part
from gpuconfig.core.money import ExchangeRate, convert_price

# Spec types whose text is searched (numbers are filtered, not searched).
_TEXT_TYPES = ("str", "choice", "ref", "strlist")


def price_in(part: Part, currency: str, rate: ExchangeRate | None) -> float | None:
    """The part's price in `currency`: its own price there where it has one (Part.price_for), else converted;
    None when it has none or no rate converts it."""
    price = part.price_for(currency)
    return None if price is None else convert_price(price, currency, rate)


@dataclass(frozen=True)
class PartFilter:
    """What the user asked for: words to find, exact choices, minimums and a price range."""

    text: str = ""
    choices: dict[str, str] = field(default_factory=dict)  # field key (or "vendor") -> value
    minimums: dict[str, float] = field(default_factory=dict)  # numeric field key -> at least
    price_min: float | None = None
    price_max: float | None = None
    currency: str = "USD"

    @property
    def tokens(self) -> list[str]:
        return self.text.casefold().split()

    def narrows(self, previous: PartFilter) -> bool:
        """Whether every part this filter passes also passed `previous`, so only its matches need testing.

        True when only the search text changed and it was typed onward: each word then contains the word
        it replaced, or is a new word.
        """
        return (
            self.choices == previous.choices
            and self.minimums == previous.minimums
            and (self.price_min, self.price_max, self.currency)
            == (previous.price_min, previous.price_max, previous.currency)
            and self.text.casefold().startswith(previous.text.casefold())
        )


def haystack(part: Part) -> str:
    """The text a search looks in: id, name, vendor, release and every text field."""
    words = [part.id, part.name, part.vendor, part.released]
    for value in part.specs.values():
        if isinstance(value, str):
            words.append(value)
        elif isinstance(value, list) and all(isinstance(v, str) for v in value):
            words.extend(value)
    return " ".join(words).casefold()


def field_value(part: Part, key: str) -> Any:
    """A part's value for a spec, derived or common field key."""
    if key in part.specs:
        return part.specs[key]
    if key in part.extra:
        return part.extra[key]
    return getattr(part, key, None)


@dataclass
class PartIndex:
    """Parts of one kind with their search text, built once and reused for every keystroke."""

    parts: list[Part]
    haystacks: list[str] = field(init=False)

    def __post_init__(self) -> None:
        self.haystacks = [haystack(p) for p in self.parts]

    def price_in(self, row: int, currency: str, rate: ExchangeRate | None) -> float | None:
        return price_in(self.parts[row], currency, rate)

    def matching_rows(
        self, part_filter: PartFilter, rate: ExchangeRate | None, order: Sequence[int] | None = None
    ) -> list[int]:
        """Rows that pass the filter, in `order` (default: catalog order)."""
        rows = range(len(self.parts)) if order is None else order
        tokens = part_filter.tokens
        hay = self.haystacks
        for token in tokens:  # one pass per word keeps the inner loop a plain `in` test
            rows = [r for r in rows if token in hay[r]]
        for key, wanted in part_filter.choices.items():
            rows = [r for r in rows if str(field_value(self.parts[r], key)) == wanted]
        for key, minimum in part_filter.minimums.items():
            rows = [r for r in rows if (v := field_value(self.parts[r], key)) is not None and v >= minimum]
        low, high = part_filter.price_min, part_filter.price_max
        if low is not None or high is not None:
            kept = []
            for r in rows:
                amount = self.price_in(r, part_filter.currency, rate)
                if amount is None:
                    continue
                if (low is None or amount >= low) and (high is None or amount <= high):
                    kept.append(r)
            rows = kept
        return list(rows)

    def sorted_rows(self, key: str, descending: bool, currency: str, rate: ExchangeRate | None) -> list[int]:
        """All rows ordered by one field; parts without the figure always come last."""

        def value(row: int) -> Any:
            if key == "price":
                return self.price_in(row, currency, rate)
            if key == "price_date":  # the date of the price shown in `currency`
                shown = self.parts[row].price_for(currency)
                return shown.date if shown is not None else None
            v = field_value(self.parts[row], key)
            return v.casefold() if isinstance(v, str) else v

        values = [value(r) for r in range(len(self.parts))]
        present = [r for r, v in enumerate(values) if v is not None]
        missing = [r for r, v in enumerate(values) if v is None]
        present.sort(key=values.__getitem__, reverse=descending)
        return present + missing


def distinct_values(parts: Sequence[Part], key: str) -> list[str]:
    """The values a choice filter offers, sorted."""
    return sorted({str(v) for p in parts if (v := field_value(p, key)) is not None}, key=str.casefold)


def kind_stats(parts: Sequence[Part], kinds: Sequence[str]) -> dict[str, dict[str, Any]]:
    """Per kind: rows, rows priced, rows that say why they have no price, and the oldest of the rows' newest
    prices (the price a buyer would be shown), with its part."""
    counted: dict[str, dict[str, Any]] = {}
    for kind in kinds:
        rows = [p for p in parts if p.kind == kind]
        priced = [p for p in rows if p.catalog_prices]
        newest = {p.id: max(price.date for price in p.catalog_prices) for p in priced}
        oldest = min(newest.items(), key=lambda item: item[1], default=(None, None))
        counted[kind] = {
            "rows": len(rows),
            "priced": len(priced),
            "priced_share": round(len(priced) / len(rows), 4) if rows else None,
            "unpriced_with_reason": sum(1 for p in rows if not p.catalog_prices and p.unpriced),
            "unpriced_without_reason": sum(1 for p in rows if not p.catalog_prices and not p.unpriced),
            "oldest_price_date": oldest[1],
            "oldest_price_part": oldest[0],
        }
    return counted
