"""This machine's probe history: every run (inventory, results, verdicts, recorded series) in SQLite.

The file lives in the user data directory, next to the catalog database; a schema version and ordered
migrations keep old histories readable, and every write is one transaction.
"""

from __future__ import annotations

import json
import sqlite3
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

from gpuconfig.core.database import DamagedDatabase, Repair, StoreError, connect, repair
from gpuconfig.core.paths import user_data_dir
from gpuconfig.probe.session import ProbeRun

HISTORY_FILE = "probe_history.sqlite3"
MIGRATIONS = (
    """
    CREATE TABLE probe_run (
        id INTEGER PRIMARY KEY,
        started_at TEXT NOT NULL,
        suite TEXT NOT NULL,
        host TEXT NOT NULL,
        passed INTEGER NOT NULL,
        warned INTEGER NOT NULL,
        failed INTEGER NOT NULL,
        record TEXT NOT NULL
    );
    CREATE INDEX probe_run_started ON probe_run (started_at);
    """,
)


# How many of a machine's earlier runs are read to find each figure's earlier values (a run of only some
# benchmarks has none of the others'; session.EARLIER_VALUES of each are kept).
EARLIER_RUNS = 20


class HistoryError(RuntimeError):
    """The history file cannot be read or written; the message names the file and the problem."""


@dataclass(frozen=True)
class RunSummary:
    id: int
    started_at: str
    suite: str
    host: str
    counts: dict[str, int]


class ProbeHistory:
    def __init__(self, path: Path) -> None:
        self.path = path
        try:
            self._db = connect(path, MIGRATIONS, any_thread=True)
        except DamagedDatabase as exc:
            raise HistoryError(f"{path}: not a readable probe history: {exc.problem}") from exc
        except StoreError as exc:
            raise HistoryError(str(exc)) from exc

    @classmethod
    def open_default(cls) -> ProbeHistory:
        return cls(default_history_path())

    def close(self) -> None:
        self._db.close()

    def save(self, run: ProbeRun) -> int:
        counts = run.counts
        try:
            with self._db:
                self._db.execute("BEGIN IMMEDIATE")
                cursor = self._db.execute(
                    "INSERT INTO probe_run (started_at, suite, host, passed, warned, failed, record) "
                    "VALUES (?, ?, ?, ?, ?, ?, ?)",
                    (
                        run.started_at,
                        run.suite,
                        run.host,
                        counts["pass"],
                        counts["warn"],
                        counts["fail"],
                        json.dumps(run.record(), ensure_ascii=False),
                    ),
                )
        except sqlite3.DatabaseError as exc:
            raise HistoryError(f"{self.path}: run not saved ({exc})") from exc
        return int(cursor.lastrowid or 0)

    def runs(self) -> list[RunSummary]:
        """Every saved run, newest first."""
        rows = self._db.execute(
            "SELECT id, started_at, suite, host, passed, warned, failed FROM probe_run "
            "ORDER BY started_at DESC, id DESC"
        ).fetchall()
        return [
            RunSummary(row[0], row[1], row[2], row[3], {"pass": row[4], "warn": row[5], "fail": row[6]}) for row in rows
        ]

    def load(self, run_id: int) -> ProbeRun:
        row = self._db.execute("SELECT record FROM probe_run WHERE id = ?", (run_id,)).fetchone()
        if row is None:
            raise HistoryError(f"no probe run {run_id} in {self.path}")
        try:
            return ProbeRun.from_record(json.loads(row[0]))
        except (ValueError, KeyError, TypeError) as exc:
            raise HistoryError(f"probe run {run_id} in {self.path} is damaged ({exc})") from exc

    def earlier(self, host: str, suite: str, limit: int = EARLIER_RUNS) -> list[ProbeRun]:
        """This host's latest runs of `suite` that finished (newest first, at most `limit`); a damaged one is
        left out, as the history panel shows it damaged."""
        rows = self._db.execute(
            "SELECT id FROM probe_run WHERE host = ? AND suite = ? ORDER BY started_at DESC, id DESC", (host, suite)
        ).fetchall()
        found: list[ProbeRun] = []
        for (run_id,) in rows:
            try:
                run = self.load(run_id)
            except HistoryError:
                continue
            if not run.cancelled:
                found.append(run)
            if len(found) == limit:
                break
        return found

    def delete(self, run_id: int) -> bool:
        with self._db:
            self._db.execute("BEGIN IMMEDIATE")
            return self._db.execute("DELETE FROM probe_run WHERE id = ?", (run_id,)).rowcount > 0


def earlier_in(path: Path) -> Callable[[str, str], list[ProbeRun]]:
    """`earlier(host, suite)` for probe(): the runs it asks for, read in a connection of its own (so from
    any thread); none where the history cannot be read (saving the run then says why)."""

    def earlier(host: str, suite: str) -> list[ProbeRun]:
        try:
            history = ProbeHistory(path)
        except HistoryError:
            return []
        try:
            return history.earlier(host, suite)
        except sqlite3.Error:  # a page that fails to read: nothing to compare with, the run goes on
            return []
        finally:
            history.close()

    return earlier


def default_history_path() -> Path:
    return user_data_dir() / HISTORY_FILE


def repair_history(path: Path) -> Repair | None:
    """Move a history that cannot be used aside and start a new one holding every run still readable; None
    (and nothing changed) when it opens as it is."""
    return repair(path, ("probe_run",), lambda: connect(path, MIGRATIONS), lambda table, row: None)
