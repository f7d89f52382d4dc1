"""Search-as-you-type on a catalog scaled to 10,000 GPUs: time per keystroke, target under 16 ms.

One keystroke is measured from setting the search text until the event loop has handled it,
including the table's repaint (checked: every keystroke is counted only if the viewport painted).

    QT_QPA_PLATFORM=offscreen python benchmarks/search_keystroke.py [--rows 10000] [--repeat 10]
"""

from __future__ import annotations

import argparse
import json
import re
import shutil
import statistics
import sys
import tempfile
import time
from pathlib import Path

from machine import machine

QUERIES = ("rtx 4090", "nvidia a100 80", "hopper", "amd", "geforce 50", "zzz")


def scaled_catalog(source: Path, target: Path, rows: int) -> int:
    """Copy the shipped catalog and repeat its GPU rows until there are `rows` of them (ids kept unique)."""
    shutil.copytree(source, target, ignore=shutil.ignore_patterns("__init__.py", "__pycache__"))
    text = (source / "gpu.toml").read_text(encoding="utf-8")
    blocks = ["[[part]]" + b for b in text.split("[[part]]")[1:]]
    out, n = [], 0
    while n < rows:
        for block in blocks:
            if n == rows:
                break
            copy = n // len(blocks)
            if copy:
                block = re.sub(r'^id = "([^"]+)"', rf'id = "\1-{copy}"', block, count=1, flags=re.M)
                block = re.sub(r'^name = "([^"]+)"', rf'name = "\1 #{copy}"', block, count=1, flags=re.M)
            out.append(block)
            n += 1
    (target / "gpu.toml").write_text("\n".join(out), encoding="utf-8")
    return n


def _paint_counter() -> type:
    from PySide6.QtCore import QEvent, QObject

    class Counter(QObject):
        def __init__(self) -> None:
            super().__init__()
            self.count = 0

        def eventFilter(self, watched: QObject, event: QEvent) -> bool:
            if event.type() == QEvent.Type.Paint:
                self.count += 1
            return False

    return Counter


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--rows", type=int, default=10_000)
    parser.add_argument("--repeat", type=int, default=10)
    parser.add_argument("--out", default=str(Path(__file__).parent / "results" / "search_keystroke.json"))
    args = parser.parse_args()

    from PySide6.QtWidgets import QApplication

    from gpuconfig.core.paths import catalog_dir
    from gpuconfig.core.userdata.store import Store
    from gpuconfig.ui import theme
    from gpuconfig.ui.catalog.tab import CatalogTab

    app = QApplication(sys.argv)
    PaintCounter = _paint_counter()
    with tempfile.TemporaryDirectory() as tmp:
        catalog = Path(tmp) / "catalog"
        rows = scaled_catalog(catalog_dir(), catalog, args.rows)
        t0 = time.perf_counter()
        store = Store.open(Path(tmp) / "bench.sqlite3", catalog)
        assert not store.last_refresh.error, store.last_refresh.error
        build_s = time.perf_counter() - t0
        tab = CatalogTab(store, theme.apply(app, "light"))
        tab.resize(1400, 850)
        tab.show()
        app.processEvents()
        assert tab.model.rowCount() == rows, tab.model.rowCount()

        paints = PaintCounter()
        tab.table.viewport().installEventFilter(paints)
        per_query: dict[str, list[float]] = {}
        cpu_ms: list[float] = []
        for _ in range(args.repeat):
            for query in QUERIES:
                tab.filters.search.clear()
                app.processEvents()
                for end in range(1, len(query) + 1):
                    painted = paints.count
                    start, cpu_start = time.perf_counter(), time.process_time()
                    tab.filters.search.setText(query[:end])
                    app.processEvents()
                    cpu_ms.append((time.process_time() - cpu_start) * 1000)
                    assert paints.count > painted, "the table did not repaint"
                    per_query.setdefault(query, []).append((time.perf_counter() - start) * 1000)
        matches = {}
        for query in QUERIES:
            tab.filters.search.setText(query)
            matches[query] = tab.model.rowCount()
        store.close()

    every = [ms for values in per_query.values() for ms in values]
    every.sort()
    result = {
        "benchmark": "search_keystroke",
        "rows": rows,
        "catalog_build_s": round(build_s, 2),
        "keystrokes": len(every),
        "median_ms": round(statistics.median(every), 2),
        "p95_ms": round(every[int(0.95 * (len(every) - 1))], 2),
        "max_ms": round(every[-1], 2),
        # CPU time of this process per keystroke: on a shared virtual machine the wall-clock tail also holds
        # time the process was not running at all; offscreen, all of the painting is CPU work in-process.
        "cpu_median_ms": round(statistics.median(cpu_ms), 2),
        "cpu_p95_ms": round(sorted(cpu_ms)[int(0.95 * (len(cpu_ms) - 1))], 2),
        "target_ms": 16,
        "per_query_median_ms": {q: round(statistics.median(v), 2) for q, v in per_query.items()},
        "rows_matching_full_query": matches,
        "machine": machine(),
        "command": "QT_QPA_PLATFORM=offscreen python benchmarks/search_keystroke.py",
    }
    Path(args.out).write_text(json.dumps(result, indent=2) + "\n", encoding="utf-8")
    keys = ("rows", "keystrokes", "median_ms", "p95_ms", "max_ms", "cpu_median_ms", "cpu_p95_ms")
    print(json.dumps({k: result[k] for k in keys}))
    return 0 if result["p95_ms"] < 16 else 1


if __name__ == "__main__":
    sys.exit(main())
