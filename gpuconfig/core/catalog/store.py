"""The SQLite store: the catalog loaded from its files, plus the user's own prices, builds and settings.

The catalog tables are rebuilt whenever the files change; the user's tables (price overrides,
imported price lists, saved builds, settings) are never touched by a rebuild. A catalog that fails validation
leaves the last good catalog in place.
"""

from __future__ import annotations

import datetime as dt
import json
import sqlite3
from collections.abc import Iterator
from contextlib import closing, contextmanager
from dataclasses import asdict, dataclass, replace
from pathlib import Path
from typing import Any

from gpuconfig.core.build.model import Build, BuildError, build_from_json
from gpuconfig.core.catalog.derived import derived_values
from gpuconfig.core.catalog.files import (
    CURRENCY_FILE,
    SCHEMA_FILE,
    CatalogError,
    files_digest,
    parse_catalog,
    read_catalog_files,
)
from gpuconfig.core.catalog.model import Part, Price, Source
from gpuconfig.core.catalog.schema import CURRENCIES, Schema, parse_schema, schema_from_json, schema_to_json
from gpuconfig.core.database import (
    BUSY_TIMEOUT_S,
    DamagedDatabase,
    Repair,
    StoreError,
    connect,
    repair,
    unusable,
    write_transaction,
)
from gpuconfig.core.money import ExchangeRate, ExchangeRateError, checked_rate, load_shipped_rate, user_rate
from gpuconfig.core.numbers import NumberError, checked_amount

DB_NAME = "gpuconfig.sqlite3"

# Ordered migrations: index i brings the database from version i to version i + 1. Never edit one
# that has shipped; append a new one.
MIGRATIONS: tuple[str, ...] = (
    """
    CREATE TABLE meta (key TEXT PRIMARY KEY, value TEXT NOT NULL);
    CREATE TABLE parts (
        id TEXT PRIMARY KEY,
        kind TEXT NOT NULL,
        name TEXT NOT NULL,
        vendor TEXT NOT NULL,
        released TEXT NOT NULL,
        notes TEXT NOT NULL,
        specs TEXT NOT NULL,
        sources TEXT NOT NULL,
        price TEXT,
        file TEXT NOT NULL,
        line INTEGER NOT NULL,
        position INTEGER NOT NULL
    );
    CREATE INDEX parts_kind ON parts (kind, position);
    CREATE TABLE price_overrides (
        part_id TEXT PRIMARY KEY,
        amount REAL NOT NULL CHECK (amount > 0),
        currency TEXT NOT NULL,
        date TEXT NOT NULL
    );
    CREATE TABLE settings (key TEXT PRIMARY KEY, value TEXT NOT NULL);
    """,
    """
    CREATE TABLE price_lists (
        id INTEGER PRIMARY KEY,
        name TEXT NOT NULL UNIQUE,
        imported TEXT NOT NULL
    );
    CREATE TABLE imported_prices (
        list_id INTEGER NOT NULL REFERENCES price_lists (id) ON DELETE CASCADE,
        part_id TEXT NOT NULL,
        amount REAL NOT NULL CHECK (amount > 0),
        currency TEXT NOT NULL,
        date TEXT NOT NULL,
        source TEXT NOT NULL,
        PRIMARY KEY (list_id, part_id)
    );
    """,
    """
    CREATE TABLE builds (
        name TEXT PRIMARY KEY,
        saved TEXT NOT NULL,
        data TEXT NOT NULL
    );
    """,
)
SCHEMA_VERSION = len(MIGRATIONS)
# The user's own tables, kept by a repair (a list before the prices that refer to it); the catalog
# tables are rebuilt from the files instead.
USER_TABLES = ("price_overrides", "price_lists", "imported_prices", "builds", "settings")
RATE_SETTING = "usd_cny_rate"
# The stored values checked when the database opens, with the checks they passed when entered.
CHECKED_COLUMNS = {
    "settings": ("key", "value"),
    "price_overrides": ("part_id", "amount"),
    "imported_prices": ("part_id", "amount"),
}


@dataclass(frozen=True)
class RefreshResult:
    """What opening the store did with the catalog files."""

    rebuilt: bool
    part_count: int
    error: str = ""  # one line; the store kept its last good catalog


def _price_json(price: Price | None) -> str | None:
    return None if price is None else json.dumps(asdict(price))


def _price_from_json(text: str | None) -> Price | None:
    return None if text is None else Price(**json.loads(text))


class CatalogStore:
    """One open database. Use `CatalogStore.open()`; every write runs in a transaction."""

    def __init__(self, connection: sqlite3.Connection, path: Path, catalog_dir: Path) -> None:
        self._db = connection
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

    @classmethod
    def open(cls, db_path: Path, catalog_dir: Path) -> CatalogStore:
        """Open (creating or migrating) the database and bring its catalog up to date with the files.

        DamagedDatabase when the file is damaged, cannot be written or holds a value no check lets in
        (repair_store moves it aside and rebuilds it); StoreError when it is from a newer gpuconfig."""
        connection = connect(db_path, MIGRATIONS)
        try:
            problem = _stored_problem(connection)
            if problem is not None:
                raise DamagedDatabase(db_path, problem)
            store = cls(connection, db_path, catalog_dir)
            store.last_refresh = store.refresh()
        except sqlite3.Error as exc:
            connection.close()
            raise unusable(db_path, exc) from exc
        except BaseException:
            connection.close()
            raise
        return store

    def close(self) -> None:
        self._db.close()

    @contextmanager
    def _transaction(self) -> Iterator[sqlite3.Connection]:
        """A write transaction; a file that turns out damaged or unwritable is named (DamagedDatabase)."""
        try:
            with write_transaction(self._db) as db:
                yield db
        except sqlite3.IntegrityError:
            raise
        except sqlite3.Error as exc:
            raise unusable(self.path, exc) from exc

    # -- the catalog ------------------------------------------------------------------------------

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
        with self._transaction() as db:
            db.execute("DELETE FROM parts")
            db.executemany(
                "INSERT INTO parts VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
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
                        _price_json(p.price),
                        p.file,
                        p.line,
                        position,
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

    def _effective_prices(self) -> dict[str, tuple[Price, str]]:
        """Each part's price from the user: an override wins over the newest imported list."""
        prices: dict[str, tuple[Price, str]] = {}
        for part_id, amount, currency, date, source, name in self._db.execute(
            "SELECT i.part_id, i.amount, i.currency, i.date, i.source, l.name FROM imported_prices i "
            "JOIN price_lists l ON l.id = i.list_id ORDER BY l.imported, l.id"
        ):
            prices[part_id] = (Price(amount, currency, date, source, f"imported price list {name}"), "import")
        for part_id, amount, currency, date in self._db.execute(
            "SELECT part_id, amount, currency, date FROM price_overrides"
        ):
            prices[part_id] = (Price(amount, currency, date, "", "your price"), "override")
        return prices

    def _rows_to_parts(self, rows: list[tuple[Any, ...]]) -> list[Part]:
        user_prices = self._effective_prices()
        parts = []
        for part_id, kind, name, vendor, released, notes, specs, sources, price, file, line in rows:
            catalog_price = _price_from_json(price)
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
                file=file,
                line=line,
                extra=derived_values(kind, spec_values),
            )
            if part_id in user_prices:
                user_price, origin = user_prices[part_id]
                part = replace(part, price=user_price, price_origin=origin)  # type: ignore[arg-type]
            parts.append(part)
        return parts

    _COLUMNS = "id, kind, name, vendor, released, notes, specs, sources, price, file, line"

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

    # -- the user's prices ------------------------------------------------------------------------

    def set_price_override(self, part_id: str, amount: float, currency: str) -> None:
        if currency not in CURRENCIES:
            raise ValueError(f"currency must be one of {', '.join(CURRENCIES)}, got {currency!r}")
        try:
            amount = checked_amount(amount)
        except NumberError as exc:
            raise NumberError(f"price: {exc}") from None
        if part_id not in self.part_ids():
            raise KeyError(f"no part with id {part_id!r}")
        with self._transaction() as db:
            db.execute(
                "INSERT OR REPLACE INTO price_overrides VALUES (?, ?, ?, ?)",
                (part_id, amount, currency, dt.date.today().isoformat()),
            )

    def clear_price_override(self, part_id: str) -> bool:
        """Back to the catalog (or imported) price; False when there was no override."""
        with self._transaction() as db:
            cursor = db.execute("DELETE FROM price_overrides WHERE part_id = ?", (part_id,))
        return cursor.rowcount > 0

    def save_price_list(self, name: str, prices: list[tuple[str, Price]]) -> None:
        """Store an imported price list, replacing an earlier list of the same name."""
        with self._transaction() as db:
            db.execute("DELETE FROM price_lists WHERE name = ?", (name,))
            cursor = db.execute(
                "INSERT INTO price_lists (name, imported) VALUES (?, ?)",
                (name, dt.datetime.now().isoformat(timespec="seconds")),
            )
            list_id = cursor.lastrowid
            db.executemany(
                "INSERT OR REPLACE INTO imported_prices VALUES (?, ?, ?, ?, ?, ?)",
                [(list_id, pid, p.amount, p.currency, p.date, p.source) for pid, p in prices],
            )

    def price_lists(self) -> list[tuple[str, str, int]]:
        """(name, imported at, number of prices) of each imported list."""
        return self._db.execute(
            "SELECT l.name, l.imported, count(i.part_id) FROM price_lists l "
            "LEFT JOIN imported_prices i ON i.list_id = l.id GROUP BY l.id ORDER BY l.imported"
        ).fetchall()

    def delete_price_list(self, name: str) -> bool:
        with self._transaction() as db:
            cursor = db.execute("DELETE FROM price_lists WHERE name = ?", (name,))
        return cursor.rowcount > 0

    # -- saved builds -----------------------------------------------------------------------------

    def save_build(self, build: Build) -> None:
        """Save a build under its name, replacing an earlier build of the same name."""
        name = build.name.strip()
        if not name:
            raise ValueError("a saved build needs a name")
        with self._transaction() as db:
            db.execute(
                "INSERT INTO builds (name, saved, data) VALUES (?, ?, ?) "
                "ON CONFLICT (name) DO UPDATE SET saved = excluded.saved, data = excluded.data",
                (name, dt.datetime.now().isoformat(timespec="seconds"), json.dumps(build.to_json())),
            )

    def saved_builds(self) -> list[tuple[str, str]]:
        """(name, saved at) of every saved build, the latest first."""
        return self._db.execute("SELECT name, saved FROM builds ORDER BY saved DESC, name").fetchall()

    def load_build(self, name: str) -> Build:
        """A saved build; BuildError naming it when there is none or its stored text is damaged."""
        row = self._db.execute("SELECT data FROM builds WHERE name = ?", (name,)).fetchone()
        where = f"saved build {name!r}"
        if row is None:
            raise BuildError(f"{where}: no such build")
        try:
            data = json.loads(row[0])
        except (TypeError, json.JSONDecodeError) as exc:
            raise BuildError(f"{where}: the stored text is not JSON ({exc}); delete it and save it again") from exc
        return build_from_json(data, where)

    def delete_build(self, name: str) -> bool:
        """False when there was no build of that name."""
        with self._transaction() as db:
            cursor = db.execute("DELETE FROM builds WHERE name = ?", (name,))
        return cursor.rowcount > 0

    # -- settings ---------------------------------------------------------------------------------

    def setting(self, key: str) -> str | None:
        row = self._db.execute("SELECT value FROM settings WHERE key = ?", (key,)).fetchone()
        return None if row is None else str(row[0])

    def set_setting(self, key: str, value: str | None) -> None:
        with self._transaction() as db:
            if value is None:
                db.execute("DELETE FROM settings WHERE key = ?", (key,))
            else:
                db.execute("INSERT OR REPLACE INTO settings VALUES (?, ?)", (key, value))

    def exchange_rate(self) -> ExchangeRate | None:
        """The user's USD→CNY rate if set, else the published one shipped with the catalog."""
        mine = self.setting(RATE_SETTING)
        if mine is not None:
            return user_rate(float(mine))  # checked when the store opened
        published = self._meta("published_rate")
        return ExchangeRate(**json.loads(published)) if published else None

    def set_exchange_rate(self, rate: float | None) -> None:
        """Set the user's USD→CNY rate; None goes back to the published one."""
        if rate is not None:
            user_rate(rate)  # validates
        self.set_setting(RATE_SETTING, None if rate is None else repr(float(rate)))


def _stored_problem(connection: sqlite3.Connection) -> str | None:
    """The first stored value no check would let in (settings and the user's prices: a few hundred rows)."""
    for table, columns in CHECKED_COLUMNS.items():
        for values in connection.execute(f"SELECT {', '.join(columns)} FROM {table}"):
            problem = _row_problem(table, dict(zip(columns, values, strict=True)))
            if problem is not None:
                return problem
    return None


def _row_problem(table: str, row: dict[str, Any]) -> str | None:
    """Why a stored row cannot be used (one line), or None: the same checks as when it was entered."""
    if table == "settings":
        key, value = row["key"], row["value"]
        if not isinstance(key, str) or not isinstance(value, str):
            return f"setting {key!r} holds {value!r}, not text"
        if key == RATE_SETTING:
            try:
                checked_rate(float(value))
            except ExchangeRateError as exc:
                return f"setting {key!r}: {exc}"
            except ValueError:
                return f"setting {key!r} holds {value!r}, not a number"
    elif table in ("price_overrides", "imported_prices"):
        try:
            checked_amount(row["amount"])
        except NumberError as exc:
            return f"{table}: the price of {row['part_id']!r} {exc}"
    return None


def repair_store(db_path: Path, catalog_dir: Path) -> Repair | None:
    """Move a database that cannot be used aside and rebuild it, keeping every readable and sound row of
    the user's tables; None (and nothing changed) when it opens as it is."""
    return repair(db_path, USER_TABLES, lambda: CatalogStore.open(db_path, catalog_dir)._db, _row_problem)


def default_store_path(create: bool = True) -> Path:
    """The user's database file; its folder is created unless `create` is false."""
    from gpuconfig.core.paths import user_data_dir

    return user_data_dir(create) / DB_NAME


def saved_setting(key: str) -> str | None:
    """One of the user's settings, read without opening the store (no catalog load, no migration, and a
    database that does not exist yet is not created); None when it was never set, or when there is no
    database or it cannot be read now (opening the store says why)."""
    # Not mode=ro: a read-only reader of a database in WAL mode leaves its -shm file behind.
    uri = f"{default_store_path(create=False).as_uri()}?mode=rw"
    try:
        with closing(sqlite3.connect(uri, uri=True, timeout=BUSY_TIMEOUT_S)) as db:
            row = db.execute("SELECT value FROM settings WHERE key = ?", (key,)).fetchone()
    except sqlite3.Error:
        return None
    return None if row is None else str(row[0])


def shipped_catalog() -> Path:
    """The installed catalog files; StoreError when they are missing."""
    from gpuconfig.core.paths import catalog_dir

    shipped = catalog_dir()
    if not (shipped / SCHEMA_FILE).is_file():
        raise StoreError(f"the catalog data is missing ({shipped / SCHEMA_FILE} not found): reinstall gpuconfig")
    return shipped


def open_default_store() -> CatalogStore:
    """The user's database under the platform data directory, with the shipped catalog."""
    return CatalogStore.open(default_store_path(), shipped_catalog())
