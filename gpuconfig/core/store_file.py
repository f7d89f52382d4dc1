"""The user's database file: where it is, and one setting read from it without opening the store.

Low in the core on purpose: the Python finder reads the user's added Pythons here before any store is
open (gpuconfig.core.userdata.store opens the file).
"""

from __future__ import annotations

import sqlite3
from contextlib import closing
from pathlib import Path

from gpuconfig.core.database import BUSY_TIMEOUT_S
from gpuconfig.core.paths import user_data_dir

DB_NAME = "gpuconfig.sqlite3"


def default_store_path(create: bool = True) -> Path:
    """The user's database file; its folder is created unless `create` is false."""
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
