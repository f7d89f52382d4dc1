"""Render the Fleet tab's screenshots: a synthetic fleet of 16 H100 nodes made from one recorded probe report.

Two runs a week apart of 16 copies of results/gpu_h100/probe_quick_2026-11-26.json (benchmarks/fleet_synthetic.py),
each figure with ±2 % noise; in the newer run gpu05's fp16 and bf16 matmul are 22 % down, gpu09's memory bandwidth
14 % down, gpu11's GPU runs its PCIe link at x8 (its pinned copies halved), gpu14 has another driver and gpu16
never reported. Writes docs/screenshots/fleet-light.png, fleet-dark.png and zh-fleet-light.png.

QT_QPA_PLATFORM=offscreen python docs/fleet_screenshots.py
"""

from __future__ import annotations

import json
import os
import random
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
OUT = Path(__file__).parent / "screenshots"
sys.path.insert(0, str(ROOT))

from benchmarks.fleet_synthetic import node_record, template  # noqa: E402


def make_fleet(folder: Path) -> Path:
    base = template()
    rng = random.Random(5)
    runs = (("2026-11-20", "2026-11-20T09:00:00+00:00"), ("2026-11-27", "2026-11-27T09:00:00+00:00"))
    for run, when in runs:
        (folder / run).mkdir(parents=True)
        for i in range(1, 17):
            node = f"gpu{i:02d}"
            record = node_record(base, node, rng, 0.02)
            record["started_at"] = when
            if run == runs[1][0]:
                if node == "gpu16":
                    continue
                _change(record, node)
            (folder / run / f"{node}.json").write_text(json.dumps(record), encoding="utf-8")
    nodes = {f"gpu{i:02d}": {"state": "done", "reason": None} for i in range(1, 16)}
    nodes["gpu16"] = {
        "state": "failed",
        "reason": "stopped at its time limit, 900 s; Slurm: node gpu16 is IDLE* (not responding)",
    }
    manifest = {
        "format": "gpuconfig.fleet.run/1",
        "job": "4821",
        "started_at": "2026-11-27T08:59:00+00:00",
        "nodes": nodes,
        "allreduce": {"skipped": "a synthetic fleet: no all-reduce was run"},
    }
    (folder / runs[1][0] / "fleet.json").write_text(json.dumps(manifest), encoding="utf-8")
    return folder


def _change(record: dict, node: str) -> None:
    for row in record["benchmarks"]:
        if node == "gpu05" and row["name"] == "matmul" and row["dtype"] in ("bf16", "fp16"):
            row["value"] *= 0.78
        if node == "gpu09" and row["name"] == "memory_bandwidth":
            row["value"] *= 0.86
        if node == "gpu11" and row["name"] in ("h2d_bandwidth", "d2h_bandwidth") and row["variant"] == "pinned":
            row["value"] *= 0.5
    if node == "gpu11":
        channels = record["series"]["channels"]
        channels["gpu0.pcie_width"] = [8] * len(channels["gpu0.pcie_width"])
    if node == "gpu14":
        record["system"]["gpu"]["driver_version"] = "570.86.15"


def main() -> int:
    os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")
    os.environ["GPUCONFIG_DATA_DIR"] = tempfile.mkdtemp(prefix="gpuconfig-shots-")
    folder = make_fleet(Path(tempfile.mkdtemp(prefix="gpuconfig-fleet-")) / "runs")
    from PySide6.QtWidgets import QApplication

    from gpuconfig.core.userdata.store import open_default_store
    from gpuconfig.ui.app import create_application
    from gpuconfig.ui.language import LANGUAGE_SETTING, install_translations
    from gpuconfig.ui.main_window import INDEX, MainWindow

    app = create_application(sys.argv)
    store = open_default_store()
    OUT.mkdir(exist_ok=True)
    for language, shots in (("en", ("light", "dark")), ("zh_CN", ("light",))):
        store.user.set_setting(LANGUAGE_SETTING, language)
        install_translations(app, language)
        window = MainWindow(store)
        window.resize(1500, 880)
        window.show()
        window.tabs.setCurrentIndex(INDEX["fleet"])
        tab = window.fleet_tab
        tab.open_folder(str(folder))
        deadline = time.monotonic() + 60
        while (tab.busy() or tab.diagnosis is None) and time.monotonic() < deadline:
            app.processEvents()
            time.sleep(0.05)
        tab.heatmap.select_node("gpu09")
        for theme in shots:
            window.set_theme(theme)
            for _ in range(5):
                app.processEvents()
                time.sleep(0.05)
            name = f"fleet-{theme}.png" if language == "en" else f"zh-fleet-{theme}.png"
            window.grab().save(str(OUT / name))
            print(name)
        window.set_theme("light")
        window.close()
    QApplication.processEvents()
    return 0


if __name__ == "__main__":
    sys.exit(main())
