"""Imported price lists: a CSV of id, amount, currency, date, source, checked whole before it is stored."""

from __future__ import annotations

import csv
import datetime as dt
import io
from collections.abc import Iterator
from pathlib import Path

from gpuconfig.core.catalog.files import CatalogProblem
from gpuconfig.core.catalog.model import Price
from gpuconfig.core.catalog.schema import CURRENCIES
from gpuconfig.core.numbers import NumberError, parsed_amount
from gpuconfig.core.user_files import UserFileError, read_text

PRICE_COLUMNS = ("id", "amount", "currency", "date", "source")


class PriceListError(ValueError):
    """A price list that cannot be imported; str() names the file, line and field."""

    def __init__(self, problem: CatalogProblem) -> None:
        self.problem = problem
        super().__init__(str(problem))


def _records(name: str, text: str) -> Iterator[tuple[int, list[str]]]:
    """Each CSV record with the line it starts on. A price list has one record per line, so a record that
    runs on past its line is a quote left open, which would swallow the rows after it."""
    reader = csv.reader(io.StringIO(text), strict=True)
    line = 1
    while True:
        try:
            record = next(reader)
        except StopIteration:
            return
        except csv.Error as exc:
            if reader.line_num <= line:
                raise _fail(name, line, "", f"not valid CSV: {exc}") from None
            record = []  # the file ended inside a quote
        if reader.line_num > line:
            raise _fail(name, line, "", "a quote opened on this line is not closed on it")
        if record:  # a blank line
            yield line, record
        line = reader.line_num + 1


def _fail(name: str, line: int, column: str, message: str) -> PriceListError:
    return PriceListError(CatalogProblem(name, line, column, message))


def parse_price_list(name: str, text: str, known_ids: set[str]) -> list[tuple[str, Price]]:
    """Every row of a price list, or PriceListError at the first bad one (nothing is half-imported)."""

    def fail(line: int, column: str, message: str) -> PriceListError:
        return _fail(name, line, column, message)

    records = _records(name, text)
    header = next(records, (1, []))[1]
    missing = [c for c in PRICE_COLUMNS if c not in header]
    if missing:
        raise fail(1, "", f"header must name the columns {', '.join(PRICE_COLUMNS)}; missing {', '.join(missing)}")
    prices: list[tuple[str, Price]] = []
    seen: set[str] = set()
    for line, record in records:
        if len(record) != len(header):
            raise fail(line, "", f"expected {len(header)} columns")
        row = dict(zip(header, record, strict=True))
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
            day = dt.date.fromisoformat(row["date"].strip())
        except ValueError:
            raise fail(line, "date", f"expected a real day as YYYY-MM-DD, got {row['date']!r}") from None
        if day > dt.date.today() + dt.timedelta(days=1):  # a day of slack for a list written in another time zone
            raise fail(line, "date", f"{day.isoformat()} is in the future: a price is dated by the day it was seen")
        date = day.isoformat()
        source = row["source"].strip()
        if not source:
            raise fail(line, "source", "say where the price comes from (a URL, shop or quote)")
        prices.append((part_id, Price(amount, currency, date, source, "imported")))
    if not prices:
        raise fail(1, "", "the price list has no rows")
    return prices


def read_price_list(path: Path, known_ids: set[str]) -> list[tuple[str, Price]]:
    try:
        text = read_text(path, encoding="utf-8-sig")
    except UserFileError as exc:
        raise _fail(Path(path).name, exc.line, "", exc.message) from None
    return parse_price_list(Path(path).name, text, known_ids)
