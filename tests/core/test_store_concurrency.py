"""Several gpuconfig processes opening a new data folder at the same moment: each one works, none crashes."""

from __future__ import annotations

import os
import sqlite3
import subprocess
import sys
import time
from pathlib import Path

from gpuconfig.core.store_file import DB_NAME
from gpuconfig.core.userdata.store import SCHEMA_VERSION

PROCESSES = 8
ROUNDS = 3
# Each process imports first, then waits for the same moment to open the store and the probe history.
OPEN_AT_ONCE = """
import sys, time
from gpuconfig.core.userdata.store import open_default_store
from gpuconfig.probe.history import ProbeHistory
time.sleep(max(0.0, float(sys.argv[1]) - time.time()))
store = open_default_store()
store.user.set_exchange_rate(7.0)
print(len(store.part_ids()), store.exchange_rate().rate)
store.close()
ProbeHistory.open_default().close()
"""


def test_processes_opening_a_fresh_data_folder_at_once_all_succeed(tmp_path: Path) -> None:
    failures = []
    for round_number in range(ROUNDS):
        data = tmp_path / f"round-{round_number}"
        start = time.time() + 3.0  # every process has imported by then
        processes = [
            subprocess.Popen(
                [sys.executable, "-c", OPEN_AT_ONCE, repr(start)],
                env={**os.environ, "GPUCONFIG_DATA_DIR": str(data)},
                stdout=subprocess.PIPE,
                stderr=subprocess.PIPE,
                text=True,
            )
            for _ in range(PROCESSES)
        ]
        outputs = [p.communicate(timeout=120) for p in processes]
        failures += [
            err.strip().splitlines()[-1] for p, (_, err) in zip(processes, outputs, strict=True) if p.returncode
        ]
        assert len({out for out, _ in outputs if out}) <= 1, "every process sees the same catalog"
        version = sqlite3.connect(data / DB_NAME).execute("PRAGMA user_version").fetchone()[0]
        assert version == SCHEMA_VERSION
    assert failures == [], f"{len(failures)} of {PROCESSES * ROUNDS} processes failed: {failures[:3]}"
