"""The one way gpuconfig opens its SQLite files, and the repair of one that is damaged.

Opening migrates under the write lock (several processes may open a new data folder at once), then
checks that the file is sound and writable. A damaged file is never changed: the repair moves it aside,
starts a new one, and copies into it every row of the user's own tables that can still be read.
"""

from __future__ import annotations

import datetime as dt
import os
import sqlite3
import time
from collections.abc import Callable, Iterator, Sequence
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import Any

# How long a process waits for another one's write (a catalog rebuild takes well under a second).
BUSY_TIMEOUT_S = 30.0
# A database is its file, its write-ahead log (commits not yet folded into the file) and the log's index.
COMPANIONS = ("", "-wal", "-shm")

RowCheck = Callable[[str, dict[str, Any]], str | None]


class StoreError(RuntimeError):
    """A database file cannot be used (for example, it was written by a newer gpuconfig)."""


class DamagedDatabase(StoreError):
    """A file that cannot be read or written as it is; moving it aside and rebuilding it helps."""

    def __init__(self, path: Path, problem: str) -> None:
        self.path = path
        self.problem = problem
        super().__init__(f"{path}: {problem}")


@dataclass(frozen=True)
class Repair:
    """What a repair did: where the damaged file went, the rows kept per table, what could not be kept."""

    path: Path
    backup: Path
    kept: dict[str, int]
    lost: tuple[str, ...]


def unusable(path: Path, exc: sqlite3.Error) -> StoreError:
    """The error to raise for an SQLite error on `path`: locked too long, else a damaged file (one line)."""
    name = getattr(exc, "sqlite_errorname", "")
    if _busy(exc):
        return StoreError(f"{path}: in use by another program for over {BUSY_TIMEOUT_S:g} s ({exc})")
    if name.startswith(("SQLITE_READONLY", "SQLITE_CANTOPEN")):
        return DamagedDatabase(path, f"cannot be written ({exc}): check the permissions of the file and its folder")
    return DamagedDatabase(path, f"damaged ({exc})")


@contextmanager
def write_transaction(connection: sqlite3.Connection) -> Iterator[sqlite3.Connection]:
    """A write transaction holding the write lock from its start: committed whole, or rolled back whole."""
    connection.execute("BEGIN IMMEDIATE")
    try:
        yield connection
    except BaseException:
        connection.execute("ROLLBACK")
        raise
    connection.execute("COMMIT")


@contextmanager
def transaction(connection: sqlite3.Connection, path: Path) -> Iterator[sqlite3.Connection]:
    """A write transaction on the file at `path`: a file that turns out damaged or unwritable is named
    (DamagedDatabase); a broken constraint stays an IntegrityError."""
    try:
        with write_transaction(connection) as db:
            yield db
    except sqlite3.IntegrityError:
        raise
    except sqlite3.Error as exc:
        raise unusable(path, exc) from exc


def migrate(connection: sqlite3.Connection, path: Path, migrations: Sequence[str]) -> None:
    """Bring the file to version len(migrations). The version is read inside the write transaction: a
    process that opens the file at the same moment waits, then finds it migrated."""
    with write_transaction(connection):
        version = int(connection.execute("PRAGMA user_version").fetchone()[0])
        if version > len(migrations):
            raise StoreError(
                f"{path}: database version {version} is newer than this gpuconfig understands "
                f"({len(migrations)}): it was written by a newer gpuconfig; update this one"
            )
        for script in migrations[version:]:
            for statement in (s.strip() for s in script.split(";")):
                if statement:
                    connection.execute(statement)
        if version < len(migrations):
            connection.execute(f"PRAGMA user_version = {len(migrations)}")


def connect(path: Path, migrations: Sequence[str], *, any_thread: bool = False) -> sqlite3.Connection:
    """Open (creating or migrating) a database; DamagedDatabase names the file when it is damaged, cannot be
    written or cannot be opened, StoreError when it is from a newer gpuconfig or stays locked."""
    connection: sqlite3.Connection | None = None
    try:
        connection = sqlite3.connect(
            path, isolation_level=None, timeout=BUSY_TIMEOUT_S, check_same_thread=not any_thread
        )
        connection.execute("PRAGMA foreign_keys = ON")
        _use_write_ahead_log(connection)
        migrate(connection, path, migrations)
        verdict = [row[0] for row in connection.execute("PRAGMA quick_check")]
        if verdict != ["ok"]:
            raise DamagedDatabase(path, f"damaged ({verdict[0]})")
    except (StoreError, sqlite3.Error) as exc:
        if connection is not None:
            connection.close()
        if isinstance(exc, StoreError):
            raise
        raise unusable(path, exc) from exc
    return connection


def _busy(exc: sqlite3.Error) -> bool:
    return getattr(exc, "sqlite_errorname", "").startswith(("SQLITE_BUSY", "SQLITE_LOCKED"))


def _use_write_ahead_log(connection: sqlite3.Connection) -> None:
    """Switch the file to write-ahead logging (the mode is kept in the file). The switch needs the file to
    itself and answers "database is locked" at once, without the busy timeout, when processes open a new
    file at the same moment: so try again until the timeout."""
    deadline = time.monotonic() + BUSY_TIMEOUT_S
    while True:
        try:
            connection.execute("PRAGMA journal_mode = WAL")
            return
        except sqlite3.OperationalError as exc:
            if not _busy(exc) or time.monotonic() > deadline:
                raise
            time.sleep(0.02)


def move_aside(path: Path) -> Path:
    """Rename a damaged file (and its log) to <name>.damaged-<time>, keeping it whole; the new name."""
    stamp = dt.datetime.now().strftime("%Y%m%d-%H%M%S-%f")
    backup = path.with_name(f"{path.name}.damaged-{stamp}")
    try:
        _move(path, backup)
    except OSError as exc:
        raise StoreError(f"{path}: cannot be moved aside ({exc}): check the permissions of its folder") from exc
    return backup


def _move(source: Path, target: Path) -> None:
    for suffix in COMPANIONS:
        if Path(f"{source}{suffix}").exists():
            os.replace(f"{source}{suffix}", f"{target}{suffix}")


def _columns(connection: sqlite3.Connection, table: str) -> list[str]:
    return [row[1] for row in connection.execute(f"PRAGMA table_info({table})")]


def _copy_table(old: sqlite3.Connection, new: sqlite3.Connection, table: str, check: RowCheck) -> tuple[int, list[str]]:
    """Rows of one table that can be read and pass `check`, copied; (count, what was not kept)."""
    lost: list[str] = []
    kept = 0
    try:
        present = set(_columns(old, table))
        columns = [c for c in _columns(new, table) if c in present]
        if not columns:
            return 0, []  # an older file without this table: nothing to keep
        rows = old.execute(f"SELECT {', '.join(columns)} FROM {table}")
        insert = f"INSERT OR IGNORE INTO {table} ({', '.join(columns)}) VALUES ({', '.join('?' * len(columns))})"
        for values in rows:
            row = dict(zip(columns, values, strict=True))
            problem = check(table, row)
            if problem is not None:
                lost.append(f"{table}: {problem}")
                continue
            try:
                new.execute(insert, values)
                kept += 1
            except sqlite3.IntegrityError as exc:
                lost.append(f"{table}: a row not kept ({exc})")
    except sqlite3.Error as exc:
        lost.append(f"{table}: {f'{kept} rows kept, the rest' if kept else 'nothing'} could be read ({exc})")
    return kept, lost


def repair(
    path: Path, tables: Sequence[str], rebuild: Callable[[], sqlite3.Connection], check: RowCheck
) -> Repair | None:
    """None, and nothing changed, when `rebuild` opens the file at `path` as it is. Otherwise move the file
    aside, let `rebuild` create a new one there, and copy into it every readable row of `tables` (in order:
    a table before those that refer to it) that `check` finds sound."""
    try:
        rebuild().close()
        return None
    except DamagedDatabase:
        pass
    backup = move_aside(path)
    try:
        new = rebuild()
    except BaseException:
        for suffix in COMPANIONS:  # what the failed rebuild left, then the file back where it was
            Path(f"{path}{suffix}").unlink(missing_ok=True)
        _move(backup, path)
        raise
    kept: dict[str, int] = {}
    lost: list[str] = []
    old = sqlite3.connect(
        f"{backup.resolve().as_uri()}?mode=ro", uri=True, isolation_level=None, timeout=BUSY_TIMEOUT_S
    )
    try:
        # Read past a header that promises more pages than a truncated file has; harmless on a read-only
        # connection (https://www.sqlite.org/pragma.html#pragma_writable_schema).
        old.execute("PRAGMA writable_schema = ON")
        with write_transaction(new):
            for table in tables:
                kept[table], problems = _copy_table(old, new, table, check)
                lost += problems
    finally:
        old.close()
        new.close()
    return Repair(path, backup, kept, tuple(lost))
