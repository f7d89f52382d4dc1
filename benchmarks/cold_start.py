"""Cold start to a painted main window, as a ratio to a bare PySide6 window started the same way.

Each sample is a fresh `python` process; the time runs from just before the process is spawned to the
first paint event of its main window (both clocks are the machine's wall clock). gpuconfig builds its
Catalog tab on the event-loop turn after that first paint, so the time until the catalog table itself
has painted is recorded too. The two kinds of
process alternate so that both see the same machine state. Target: ratio of medians under 1.5.

    QT_QPA_PLATFORM=offscreen python benchmarks/cold_start.py [--runs 15]
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from machine import machine

# Both children report the wall-clock time of a widget's first paint; `then` runs after it.
PAINT_PROBE = """
import time
from PySide6.QtCore import QEvent, QObject, QTimer

class PaintMark(QObject):
    def __init__(self, mark, then):
        super().__init__()
        self.mark, self.then, self.done = mark, then, False

    def eventFilter(self, watched, event):
        if event.type() == QEvent.Type.Paint and not self.done:
            self.done = True
            print(f"{self.mark} {time.time()!r}", flush=True)
            QTimer.singleShot(0, self.then)
        return False
"""

BARE = (
    PAINT_PROBE
    + """
from PySide6.QtWidgets import QApplication, QMainWindow
app = QApplication([])
window = QMainWindow()
window.resize(1440, 860)
probe = PaintMark("PAINTED", app.quit)
window.installEventFilter(probe)
window.show()
app.exec()
"""
)

GPUCONFIG = (
    PAINT_PROBE
    + """
from gpuconfig.ui.app import start

def watch_table():
    tab = window._catalog_tab
    if tab is None:
        QTimer.singleShot(1, watch_table)
        return
    tab.table.viewport().installEventFilter(table_probe)
    tab.table.viewport().update()

app, window = start([])
probe = PaintMark("PAINTED", watch_table)
table_probe = PaintMark("TABLE", app.quit)
window.installEventFilter(probe)
app.exec()
"""
)


def sample(code: str, env: dict[str, str], mark: str = "PAINTED") -> dict[str, float]:
    """Milliseconds from spawning the child to each mark it printed (PAINTED, and TABLE for gpuconfig)."""
    started = time.time()
    result = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, env=env, timeout=120)
    marks = {
        ln.split()[0]: (float(ln.split()[1]) - started) * 1000
        for ln in result.stdout.splitlines()
        if ln.startswith(("PAINTED ", "TABLE "))
    }
    if result.returncode != 0 or mark not in marks:
        raise RuntimeError(f"child failed ({result.returncode}): {result.stderr[-1500:]}")
    return marks


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--runs", type=int, default=15)
    parser.add_argument("--out", default=str(Path(__file__).parent / "results" / "cold_start.json"))
    args = parser.parse_args()
    # An installed wheel or bundle runs compiled bytecode, as PySide6 itself does here: compile ours too,
    # and let the children use it even where the shell sets PYTHONDONTWRITEBYTECODE.
    package = Path(__file__).resolve().parents[1] / "gpuconfig"
    subprocess.run([sys.executable, "-m", "compileall", "-q", str(package)], check=True)
    with tempfile.TemporaryDirectory() as data:
        env = dict(os.environ, GPUCONFIG_DATA_DIR=data)
        env.pop("PYTHONDONTWRITEBYTECODE", None)
        env.setdefault("QT_QPA_PLATFORM", "offscreen")
        first_run = sample(GPUCONFIG, env, "TABLE")  # builds the database from the catalog files
        sample(BARE, env)  # warm the file cache for both before measuring
        bare, app, table = [], [], []
        for _ in range(args.runs):
            bare.append(sample(BARE, env)["PAINTED"])
            marks = sample(GPUCONFIG, env, "TABLE")
            app.append(marks["PAINTED"])
            table.append(marks["TABLE"])
    ratio = statistics.median(app) / statistics.median(bare)
    result = {
        "benchmark": "cold_start",
        "runs": args.runs,
        "bare_pyside6_median_ms": round(statistics.median(bare), 1),
        "gpuconfig_median_ms": round(statistics.median(app), 1),
        "ratio_of_medians": round(ratio, 3),
        "target_ratio": 1.5,
        "gpuconfig_catalog_table_painted_median_ms": round(statistics.median(table), 1),
        "catalog_table_ratio_of_medians": round(statistics.median(table) / statistics.median(bare), 3),
        "gpuconfig_first_run_ms": {k: round(v, 1) for k, v in first_run.items()},
        "bare_ms": [round(v, 1) for v in bare],
        "gpuconfig_ms": [round(v, 1) for v in app],
        "gpuconfig_catalog_table_ms": [round(v, 1) for v in table],
        "machine": machine(),
        "command": "QT_QPA_PLATFORM=offscreen python benchmarks/cold_start.py",
    }
    Path(args.out).write_text(json.dumps(result, indent=2) + "\n", encoding="utf-8")
    keys = (
        "bare_pyside6_median_ms",
        "gpuconfig_median_ms",
        "ratio_of_medians",
        "gpuconfig_catalog_table_painted_median_ms",
        "catalog_table_ratio_of_medians",
    )
    print(json.dumps({k: result[k] for k in keys}))
    return 0 if ratio < 1.5 else 1


if __name__ == "__main__":
    sys.exit(main())
