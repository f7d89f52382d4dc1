"""Imported price lists: a CSV of id, amount, currency, date, source, checked whole before it is stored."""

from __future__ import annotations

import csv
import datetime as dt
import io
from pathlib import Path

from gpuconfig.core.catalog.files import CatalogProblem
from gpuconfig.core.catalog.model import Price
from gpuconfig.core.catalog.schema import CURRENCIES
from gpuconfig.core.numbers import NumberError, parsed_amount

PRICE_COLUMNS = ("id", "amount", "currency", "date", "source")


class PriceListError(ValueError):
    """A price list that cannot be imported; str() names the file, line and field."""

    def __init__(self, problem: CatalogProblem) -> None:
        self.problem = problem
        super().__init__(str(problem))


def parse_price_list(name: str, text: str, known_ids: set[str]) -> list[tuple[str, Price]]:
    """Every row of a price list, or PriceListError at the first bad one (nothing is half-imported)."""

    def fail(line: int, column: str, message: str) -> PriceListError:
        return PriceListError(CatalogProblem(name, line, column, message))

    reader = csv.DictReader(io.StringIO(text))
    header = reader.fieldnames or []
    missing = [c for c in PRICE_COLUMNS if c not in header]
    if missing:
        raise fail(1, "", f"header must name the columns {', '.join(PRICE_COLUMNS)}; missing {', '.join(missing)}")
    prices: list[tuple[str, Price]] = []
    seen: set[str] = set()
    for row in reader:
        line = reader.line_num
        if None in row or any(row[c] is None for c in PRICE_COLUMNS):
            raise fail(line, "", f"expected {len(header)} columns")
        part_id = row["id"].strip()
        if part_id not in known_ids:
            raise fail(line, "id", f"{part_id!r} is not a part in the catalog")
        if part_id in seen:
            raise fail(line, "id", f"{part_id!r} is priced twice")
        seen.add(part_id)
        try:
            amount = parsed_amount(row["amount"])
        except NumberError as exc:
            raise fail(line, "amount", str(exc)) from None
        currency = row["currency"].strip().upper()
        if currency not in CURRENCIES:
            raise fail(line, "currency", f"must be one of {', '.join(CURRENCIES)}, got {row['currency']!r}")
        try:
            date = dt.date.fromisoformat(row["date"].strip()).isoformat()
        except ValueError:
            raise fail(line, "date", f"expected YYYY-MM-DD, got {row['date']!r}") from None
        source = row["source"].strip()
        if not source:
            raise fail(line, "source", "say where the price comes from (a URL, shop or quote)")
        prices.append((part_id, Price(amount, currency, date, source, "imported")))
    if not prices:
        raise fail(1, "", "the price list has no rows")
    return prices


def read_price_list(path: Path, known_ids: set[str]) -> list[tuple[str, Price]]:
    try:
        text = path.read_text(encoding="utf-8-sig")
    except FileNotFoundError:
        raise PriceListError(CatalogProblem(path.name, 0, "", "file not found")) from None
    except UnicodeDecodeError as exc:
        raise PriceListError(CatalogProblem(path.name, 0, "", f"not UTF-8 text: {exc.reason}")) from None
    except csv.Error as exc:
        raise PriceListError(CatalogProblem(path.name, 0, "", str(exc))) from None
    try:
        return parse_price_list(path.name, text, known_ids)
    except csv.Error as exc:
        raise PriceListError(CatalogProblem(path.name, 0, "", f"not valid CSV: {exc}")) from None
