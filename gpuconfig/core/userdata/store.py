"""The user's database file opened: its tables (migrations), opening it and repairing it.

One SQLite file holds the catalog (gpuconfig.core.catalog.store, rebuilt from the shipped files) and the
user's own data (gpuconfig.core.userdata.data, never touched by a rebuild). `Store` is the file open: the
catalog's parts with the user's prices applied, and the user's data as `store.user`.
"""

from __future__ import annotations

import sqlite3
from pathlib import Path

from gpuconfig.core import paths
from gpuconfig.core.catalog.files import SCHEMA_FILE
from gpuconfig.core.catalog.store import CatalogStore
from gpuconfig.core.database import DamagedDatabase, Repair, StoreError, connect, repair, unusable
from gpuconfig.core.money import ExchangeRate
from gpuconfig.core.store_file import default_store_path
from gpuconfig.core.userdata.data import USER_TABLES, UserData, row_problem, stored_problem

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
    # Why a part has no price (catalog `unpriced`); the catalog tables are rebuilt from the files to fill it.
    """
    ALTER TABLE parts ADD COLUMN unpriced TEXT NOT NULL DEFAULT '';
    DELETE FROM meta WHERE key = 'catalog_digest';
    """,
    # Why a figure the checks read is missing (catalog `unknown`, JSON by field); rebuilt from the files likewise.
    """
    ALTER TABLE parts ADD COLUMN unknown TEXT NOT NULL DEFAULT '{}';
    DELETE FROM meta WHERE key = 'catalog_digest';
    """,
)
SCHEMA_VERSION = len(MIGRATIONS)


class Store(CatalogStore):
    """One open database: the catalog's parts with the user's prices applied, and `user`, the user's own
    prices, builds and settings. Use `Store.open()`."""

    def __init__(self, connection: sqlite3.Connection, path: Path, catalog_dir: Path) -> None:
        self.user = UserData(connection, path, self.part_ids)
        super().__init__(connection, path, catalog_dir, self.user.prices)

    @classmethod
    def open(cls, db_path: Path, catalog_dir: Path) -> Store:
        """Open (creating or migrating) the database and bring its catalog up to date with the files.

        DamagedDatabase when the file is damaged, cannot be written or holds a value no check lets in
        (repair_store moves it aside and rebuilds it); StoreError when it is from a newer gpuconfig."""
        connection = connect(db_path, MIGRATIONS)
        try:
            problem = stored_problem(connection)
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

    def exchange_rate(self) -> ExchangeRate | None:
        """The USD→CNY rate in effect: the user's if set, else the published one shipped with the catalog."""
        return self.user.exchange_rate() or self.published_rate()


def repair_store(db_path: Path, catalog_dir: Path) -> Repair | None:
    """Move a database that cannot be used aside and rebuild it, keeping every readable and sound row of
    the user's tables; None (and nothing changed) when it opens as it is."""
    return repair(db_path, USER_TABLES, lambda: Store.open(db_path, catalog_dir)._db, row_problem)


def shipped_catalog() -> Path:
    """The installed catalog files; StoreError when they are missing."""
    shipped = paths.catalog_dir()
    if not (shipped / SCHEMA_FILE).is_file():
        raise StoreError(f"the catalog data is missing ({shipped / SCHEMA_FILE} not found): reinstall gpuconfig")
    return shipped


def open_default_store() -> Store:
    """The user's database under the platform data directory, with the shipped catalog."""
    return Store.open(default_store_path(), shipped_catalog())
