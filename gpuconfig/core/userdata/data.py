"""The user's own data in the database file: price overrides, imported price lists, saved builds, settings
and the user's exchange rate. A catalog rebuild never touches these tables; a repair keeps their sound rows.
"""

from __future__ import annotations

import datetime as dt
import json
import sqlite3
from collections.abc import Callable
from pathlib import Path
from typing import Any

from gpuconfig.core.build.model import Build, BuildError, build_from_json
from gpuconfig.core.catalog.model import Price, PriceOrigin
from gpuconfig.core.catalog.schema import CURRENCIES
from gpuconfig.core.database import transaction
from gpuconfig.core.money import ExchangeRate, ExchangeRateError, checked_rate, user_rate
from gpuconfig.core.numbers import NumberError, checked_amount
from gpuconfig.core.workload.fit import (
    HEADROOM_SETTING,
    Headroom,
    HeadroomError,
    headroom_from_setting,
    user_headroom,
)

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


class UserData:
    """The user's tables of an open database (gpuconfig.core.userdata.store.Store opens one); every write
    runs in a transaction. `part_ids` names the catalog's parts, which a price override must be one of."""

    def __init__(self, connection: sqlite3.Connection, path: Path, part_ids: Callable[[], set[str]]) -> None:
        self._db = connection
        self._part_ids = part_ids
        self.path = path

    # -- prices -----------------------------------------------------------------------------------

    def prices(self) -> dict[str, tuple[Price, PriceOrigin]]:
        """Each part's price from the user: an override wins over the newest imported list."""
        prices: dict[str, tuple[Price, PriceOrigin]] = {}
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

    def set_price_override(self, part_id: str, amount: float, currency: str) -> None:
        if currency not in CURRENCIES:
            raise ValueError(f"currency must be one of {', '.join(CURRENCIES)}, got {currency!r}")
        try:
            amount = checked_amount(amount)
        except NumberError as exc:
            raise NumberError(f"price: {exc}") from None
        if part_id not in self._part_ids():
            raise KeyError(f"no part with id {part_id!r}")
        with transaction(self._db, self.path) as db:
            db.execute(
                "INSERT OR REPLACE INTO price_overrides VALUES (?, ?, ?, ?)",
                (part_id, amount, currency, dt.date.today().isoformat()),
            )

    def clear_price_override(self, part_id: str) -> bool:
        """Back to the catalog (or imported) price; False when there was no override."""
        with transaction(self._db, self.path) as db:
            cursor = db.execute("DELETE FROM price_overrides WHERE part_id = ?", (part_id,))
        return cursor.rowcount > 0

    def save_price_list(self, name: str, prices: list[tuple[str, Price]]) -> None:
        """Store an imported price list, replacing an earlier list of the same name."""
        with transaction(self._db, self.path) as db:
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
        with transaction(self._db, self.path) as db:
            cursor = db.execute("DELETE FROM price_lists WHERE name = ?", (name,))
        return cursor.rowcount > 0

    # -- saved builds -----------------------------------------------------------------------------

    def save_build(self, build: Build) -> None:
        """Save a build under its name, replacing an earlier build of the same name."""
        name = build.name.strip()
        if not name:
            raise ValueError("a saved build needs a name")
        with transaction(self._db, self.path) as db:
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
        with transaction(self._db, self.path) as db:
            cursor = db.execute("DELETE FROM builds WHERE name = ?", (name,))
        return cursor.rowcount > 0

    # -- settings ---------------------------------------------------------------------------------

    def setting(self, key: str) -> str | None:
        row = self._db.execute("SELECT value FROM settings WHERE key = ?", (key,)).fetchone()
        return None if row is None else str(row[0])

    def set_setting(self, key: str, value: str | None) -> None:
        with transaction(self._db, self.path) as db:
            if value is None:
                db.execute("DELETE FROM settings WHERE key = ?", (key,))
            else:
                db.execute("INSERT OR REPLACE INTO settings VALUES (?, ?)", (key, value))

    def exchange_rate(self) -> ExchangeRate | None:
        """The USD→CNY rate the user set; None when they use the published one."""
        mine = self.setting(RATE_SETTING)
        return None if mine is None else user_rate(float(mine))  # checked when the store opened

    def set_exchange_rate(self, rate: float | None) -> None:
        """Set the user's USD→CNY rate; None goes back to the published one."""
        if rate is not None:
            user_rate(rate)  # validates
        self.set_setting(RATE_SETTING, None if rate is None else repr(float(rate)))

    def headroom(self) -> Headroom:
        """The share of a card's memory every fit verdict keeps free: the user's, else the measured default."""
        return headroom_from_setting(self.setting(HEADROOM_SETTING))

    def set_headroom(self, percent: float | None) -> None:
        """Set the headroom in percent of the card; None goes back to the measured default."""
        if percent is not None:
            user_headroom(percent)  # validates
        self.set_setting(HEADROOM_SETTING, None if percent is None else repr(float(percent)))


def stored_problem(connection: sqlite3.Connection) -> str | None:
    """The first stored value no check would let in (settings and the user's prices: a few hundred rows)."""
    for table, columns in CHECKED_COLUMNS.items():
        for values in connection.execute(f"SELECT {', '.join(columns)} FROM {table}"):
            problem = row_problem(table, dict(zip(columns, values, strict=True)))
            if problem is not None:
                return problem
    return None


# The settings that hold a number, and the check each passed when it was set.
NUMBER_SETTINGS: dict[str, Callable[[float], object]] = {RATE_SETTING: checked_rate, HEADROOM_SETTING: user_headroom}


def row_problem(table: str, row: dict[str, Any]) -> str | None:
    """Why a stored row cannot be used (one line), or None: the same checks as when it was entered."""
    if table == "settings":
        key, value = row["key"], row["value"]
        if not isinstance(key, str) or not isinstance(value, str):
            return f"setting {key!r} holds {value!r}, not text"
        check = NUMBER_SETTINGS.get(key)
        if check is not None:
            try:
                check(float(value))
            except (ExchangeRateError, HeadroomError) as exc:
                return f"setting {key!r}: {exc}"
            except ValueError:
                return f"setting {key!r} holds {value!r}, not a number"
    elif table in ("price_overrides", "imported_prices"):
        try:
            checked_amount(row["amount"])
        except NumberError as exc:
            return f"{table}: the price of {row['part_id']!r} {exc}"
    return None
