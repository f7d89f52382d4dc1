"""Render every tab in 简体中文 (light and dark), the Chinese build list as a PDF and the Chinese setup guide as a PDF,
from the real widgets and the shipped catalog, in the China market (CNY, 220 V).

    QT_QPA_PLATFORM=offscreen python docs/zh_screenshots.py

Writes docs/screenshots/zh-<tab>-<theme>.png, zh-build-list-pdf.png and zh-guide-pdf.png (each PDF's first page drawn
by pdftoppm). The Workload tab traces GPT-2 on the CPU first (about half a minute); the Probe tab shows the recorded
H100 run (benchmarks/results/gpu_h100/probe_full.json), judged again in Chinese.
"""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
import tempfile
import time
from dataclasses import replace
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
OUT = ROOT / "docs" / "screenshots"
H100 = ROOT / "benchmarks" / "results" / "gpu_h100" / "probe_full.json"
TABS = ("catalog", "workload", "build", "probe", "guide", "egpu")


def main() -> int:
    os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")
    os.environ["GPUCONFIG_DATA_DIR"] = tempfile.mkdtemp(prefix="gpuconfig-shots-")
    from PySide6.QtCore import Qt

    from gpuconfig.core.build.model import Build, BuildLine
    from gpuconfig.core.userdata.store import open_default_store
    from gpuconfig.core.workload.spec import Workload
    from gpuconfig.probe.history import ProbeHistory
    from gpuconfig.probe.session import ProbeRun
    from gpuconfig.probe.verdicts import judge
    from gpuconfig.ui.app import create_application
    from gpuconfig.ui.language import LANGUAGE_SETTING, install_translations
    from gpuconfig.ui.main_window import INDEX, MainWindow

    store = open_default_store()
    store.user.set_setting(LANGUAGE_SETTING, "zh_CN")
    app = create_application(sys.argv[:1])
    install_translations(app, "zh_CN")
    # The recorded run judged again in Chinese, as docs/probe_screenshots.py judges it by this version's rules: a
    # saved run keeps the words it was judged in.
    recorded = ProbeRun.from_record(json.loads(H100.read_text(encoding="utf-8")))
    run = replace(
        recorded, verdicts=judge(recorded.system, recorded.devices, recorded.torch, recorded.results, recorded.series)
    )
    history = ProbeHistory.open_default()
    run_id = history.save(run)
    history.close()
    window = MainWindow(store)
    window.resize(1500, 900)
    window.show()

    def settle(seconds: float = 0.3) -> None:
        end = time.monotonic() + seconds
        while time.monotonic() < end:
            app.processEvents()
            time.sleep(0.02)

    def wait(done: Any, limit: float = 300) -> None:
        deadline = time.monotonic() + limit
        while not done() and time.monotonic() < deadline:
            app.processEvents()
            time.sleep(0.05)

    catalog = window.catalog_tab
    catalog.show_kind("gpu")
    catalog.table.sortByColumn(catalog.model.column_of("memory_gb"), Qt.SortOrder.DescendingOrder)
    catalog.filters.search.setText("rtx")
    catalog.select_part("nvidia-geforce-rtx-4090-d")

    window.tabs.setCurrentIndex(INDEX["workload"])
    workload = window.workload_tab
    workload.form.set_workload(Workload("gpt2", task="finetune", precision="fp32", batch=2, seq=128, device="cpu"))
    wait(lambda: workload.answer is not None)

    window.tabs.setCurrentIndex(INDEX["build"])
    build = window.build_tab
    build.set_build(
        Build(
            "双卡 RTX 4090 D 工作站",
            (
                BuildLine("nvidia-geforce-rtx-4090-d", 2),
                BuildLine("amd-ryzen-9-9950x"),
                BuildLine("msi-mpg-x870e-carbon-wifi"),
                BuildLine("crucial-pro-oc-ddr5-6400-2x32gb"),
                BuildLine("samsung-990-pro-2tb"),
                BuildLine("nzxt-c1500-platinum-atx31"),
                BuildLine("nzxt-h9-flow-2023"),
            ),
            currency="CNY",
            circuit="cn-220v-16a",
        )
    )

    window.tabs.setCurrentIndex(INDEX["probe"])
    probe = window.probe_tab
    probe.refresh_history()
    probe.open_run(run_id)

    window.tabs.setCurrentIndex(INDEX["guide"])
    guide = window.guide_tab
    guide.source.set_os("ubuntu-24.04")
    guide.show_gpu("nvidia-geforce-rtx-4090-d", 2)

    window.tabs.setCurrentIndex(INDEX["egpu"])
    egpu = window.egpu_tab
    egpu.form.set_choice(port="TB4", os="windows", charger_w=0, dock="razer-core-x", gpu="nvidia-geforce-rtx-3090")

    OUT.mkdir(exist_ok=True)
    for theme in ("light", "dark"):
        window.set_theme(theme)
        for name in TABS:
            window.tabs.setCurrentIndex(INDEX[name])
            settle()
            window.grab().save(str(OUT / f"zh-{name}-{theme}.png"))
    window.set_theme("light")

    with tempfile.TemporaryDirectory() as scratch:
        folder = Path(scratch)
        build.files.export_to(folder / "build.pdf", "pdf")
        guide.export_to(folder / "guide.pdf", "pdf")
        for name, pdf in (("zh-build-list-pdf", "build.pdf"), ("zh-guide-pdf", "guide.pdf")):
            first = folder / name
            subprocess.run(
                ["pdftoppm", "-png", "-r", "80", "-f", "1", "-l", "1", "-singlefile", str(folder / pdf), str(first)],
                check=True,
            )
            shutil.copy(first.with_suffix(".png"), OUT / f"{name}.png")
            fonts = subprocess.run(["pdffonts", str(folder / pdf)], capture_output=True, text=True, check=False)
            print(name, "fonts:", " ".join(line.split()[0] for line in fonts.stdout.splitlines()[2:]))
    for tab in (workload, build, probe, egpu):
        tab.shutdown()
    print("\n".join(sorted(p.name for p in OUT.glob("zh-*.png"))))
    return 0


if __name__ == "__main__":
    sys.exit(main())
