"""The catalog in the SQLite file: the shipped parts loaded from their files, with their effective prices.

The catalog tables are rebuilt whenever the files change; a catalog that fails validation leaves the last
good catalog in place. The user's own prices come from the user's data (gpuconfig.core.userdata), handed in
as `user_prices`, and win over the catalog's.
"""

from __future__ import annotations

import datetime as dt
import json
import sqlite3
from collections.abc import Callable, Mapping
from dataclasses import asdict, dataclass, replace
from pathlib import Path
from typing import Any

from gpuconfig.core.catalog.derived import derived_values
from gpuconfig.core.catalog.files import (
    CURRENCY_FILE,
    SCHEMA_FILE,
    CatalogError,
    files_digest,
    parse_catalog,
    read_catalog_files,
)
from gpuconfig.core.catalog.model import Part, Price, PriceOrigin, Source
from gpuconfig.core.catalog.schema import Schema, parse_schema, schema_from_json, schema_to_json
from gpuconfig.core.database import transaction
from gpuconfig.core.money import ExchangeRate, ExchangeRateError, load_shipped_rate

# Each part's price from the user (an override, or the newest imported list) and where it came from.
UserPrices = Callable[[], Mapping[str, tuple[Price, PriceOrigin]]]


@dataclass(frozen=True)
class RefreshResult:
    """What opening the store did with the catalog files."""

    rebuilt: bool
    part_count: int
    error: str = ""  # one line; the store kept its last good catalog


def _prices_json(prices: tuple[Price, ...]) -> str | None:
    return json.dumps([asdict(p) for p in prices]) if prices else None


def _prices_from_json(text: str | None) -> tuple[Price, ...]:
    """Every catalog price of a row (the first is its `price`); a database written before rows had several
    holds one price as an object."""
    if text is None:
        return ()
    data = json.loads(text)
    return tuple(Price(**p) for p in (data if isinstance(data, list) else [data]))


class CatalogStore:
    """The catalog tables of an open database (gpuconfig.core.userdata.store.Store opens one)."""

    def __init__(self, connection: sqlite3.Connection, path: Path, catalog_dir: Path, user_prices: UserPrices) -> None:
        self._db = connection
        self._user_prices = user_prices
        self.path = path
        self.catalog_dir = catalog_dir
        # The schema of the loaded catalog; refresh() replaces it when the files change.
        stored = self._meta("schema")
        self.schema: Schema = (
            schema_from_json(stored)
            if stored
            else parse_schema((catalog_dir / SCHEMA_FILE).read_text(encoding="utf-8"))
        )
        self.last_refresh = RefreshResult(rebuilt=False, part_count=0)

    def close(self) -> None:
        self._db.close()

    def _meta(self, key: str) -> str | None:
        row = self._db.execute("SELECT value FROM meta WHERE key = ?", (key,)).fetchone()
        return None if row is None else str(row[0])

    def refresh(self) -> RefreshResult:
        """Rebuild the catalog tables if the files changed; keep the last good catalog if they are bad."""
        count = int(self._db.execute("SELECT count(*) FROM parts").fetchone()[0])
        try:
            files = read_catalog_files(self.catalog_dir)
        except CatalogError as exc:
            return RefreshResult(rebuilt=False, part_count=count, error=str(exc))
        if files_digest(files) == self._meta("catalog_digest"):
            return RefreshResult(rebuilt=False, part_count=count)
        try:
            loaded = parse_catalog(files)
            shipped_rate = load_shipped_rate(self.catalog_dir / CURRENCY_FILE)
        except (CatalogError, ExchangeRateError) as exc:
            return RefreshResult(rebuilt=False, part_count=count, error=str(exc))
        with transaction(self._db, self.path) as db:
            db.execute("DELETE FROM parts")
            db.executemany(
                "INSERT INTO parts (id, kind, name, vendor, released, notes, specs, sources, price, file, line, "
                "position, unpriced, unknown) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
                [
                    (
                        p.id,
                        p.kind,
                        p.name,
                        p.vendor,
                        p.released,
                        p.notes,
                        json.dumps(p.specs),
                        json.dumps([asdict(s) for s in p.sources]),
                        _prices_json(p.catalog_prices),
                        p.file,
                        p.line,
                        position,
                        p.unpriced,
                        json.dumps(p.unknown),
                    )
                    for position, p in enumerate(loaded.parts)
                ],
            )
            db.execute(
                "INSERT OR REPLACE INTO meta VALUES ('catalog_digest', ?), ('catalog_loaded', ?), ('schema', ?), "
                "('published_rate', ?)",
                (
                    loaded.digest,
                    dt.datetime.now().isoformat(timespec="seconds"),
                    schema_to_json(loaded.schema),
                    json.dumps(asdict(shipped_rate)) if shipped_rate else "",
                ),
            )
        self.schema = loaded.schema
        return RefreshResult(rebuilt=True, part_count=len(loaded.parts))

    def catalog_loaded_at(self) -> str:
        return self._meta("catalog_loaded") or ""

    def published_rate(self) -> ExchangeRate | None:
        """The USD→CNY rate shipped with the catalog (catalog/currency.toml), if it has one."""
        published = self._meta("published_rate")
        return ExchangeRate(**json.loads(published)) if published else None

    def _rows_to_parts(self, rows: list[tuple[Any, ...]]) -> list[Part]:
        user_prices = self._user_prices()
        parts = []
        for part_id, kind, name, vendor, released, notes, specs, sources, price, file, line, unpriced, unknown in rows:
            catalog_prices = _prices_from_json(price)
            catalog_price = catalog_prices[0] if catalog_prices else None
            spec_values = json.loads(specs)
            part = Part(
                kind=kind,
                id=part_id,
                name=name,
                vendor=vendor,
                released=released,
                notes=notes,
                specs=spec_values,
                sources=tuple(Source(**s) for s in json.loads(sources)),
                price=catalog_price,
                catalog_price=catalog_price,
                catalog_prices=catalog_prices,
                file=file,
                line=line,
                unpriced=unpriced,
                unknown=json.loads(unknown),
                extra=derived_values(kind, spec_values),
            )
            if part_id in user_prices:
                user_price, origin = user_prices[part_id]
                part = replace(part, price=user_price, price_origin=origin)
            parts.append(part)
        return parts

    _COLUMNS = "id, kind, name, vendor, released, notes, specs, sources, price, file, line, unpriced, unknown"

    def parts(self, kind: str) -> list[Part]:
        """Every part of a kind, in catalog order, with the user's prices applied."""
        rows = self._db.execute(
            f"SELECT {self._COLUMNS} FROM parts WHERE kind = ? ORDER BY position", (kind,)
        ).fetchall()
        return self._rows_to_parts(rows)

    def part(self, part_id: str) -> Part | None:
        rows = self._db.execute(f"SELECT {self._COLUMNS} FROM parts WHERE id = ?", (part_id,)).fetchall()
        parts = self._rows_to_parts(rows)
        return parts[0] if parts else None

    def counts(self) -> dict[str, int]:
        return dict(self._db.execute("SELECT kind, count(*) FROM parts GROUP BY kind").fetchall())

    def part_ids(self) -> set[str]:
        return {row[0] for row in self._db.execute("SELECT id FROM parts")}
