"""Render the screenshots in docs/screenshots/ from the real widgets and the shipped catalog.

QT_QPA_PLATFORM=offscreen python docs/screenshots.py
"""

from __future__ import annotations

import os
import sys
import tempfile
from pathlib import Path
from typing import Any

OUT = Path(__file__).parent / "screenshots"


def main() -> int:
    os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")
    os.environ["GPUCONFIG_DATA_DIR"] = tempfile.mkdtemp(prefix="gpuconfig-shots-")
    from PySide6.QtCore import Qt
    from PySide6.QtWidgets import QApplication

    from gpuconfig.core.userdata.store import open_default_store
    from gpuconfig.ui.app import create_application
    from gpuconfig.ui.main_window import MainWindow

    app = create_application(sys.argv)
    window = MainWindow(open_default_store())
    window.resize(1500, 880)
    window.show()
    tab = window.catalog_tab
    OUT.mkdir(exist_ok=True)

    def settle() -> None:
        for _ in range(5):
            app.processEvents()

    for theme in ("light", "dark"):
        window.set_theme(theme)
        tab.show_kind("gpu")
        tab.filters.clear.click()
        tab.table.sortByColumn(tab.model.column_of("memory_gb"), Qt.SortOrder.DescendingOrder)
        tab.select_part("nvidia-h100-sxm")
        tab.views.setCurrentWidget(tab.table)
        settle()
        window.grab().save(str(OUT / f"catalog-gpus-{theme}.png"))

        tab.show_chart()
        tab.scatter.per_money.setChecked(True)
        tab.select_part("nvidia-geforce-rtx-4090")
        settle()
        window.grab().save(str(OUT / f"price-performance-{theme}.png"))
        tab.scatter.per_money.setChecked(False)
        tab.table_button.click()

    window.set_theme("light")
    tab.show_kind("motherboard")
    tab.filters.search.setText("")
    tab.select_part(tab.model.part_at(0).id)
    settle()
    window.grab().save(str(OUT / "catalog-boards-light.png"))

    tab.show_kind("gpu")
    tab.filters.search.setText("h100")
    settle()
    tab.table.selectAll()
    dialog = tab.open_compare()
    if dialog is not None:
        dialog.resize(900, 760)
        settle()
        dialog.grab().save(str(OUT / "compare-light.png"))
        dialog.close()
    build_shots(app, window, settle)
    guide_shots(window, settle)
    egpu_shots(app, window, settle)
    print("\n".join(sorted(p.name for p in OUT.glob("*.png"))))
    QApplication.processEvents()
    return 0


def build_shots(app: Any, window: Any, settle: Any) -> None:
    """The Build tab: a two-RTX 4090 tower with a few warnings, beside a recommendation for a Llama 3 8B LoRA
    run (its trace takes about 20 s the first time)."""
    import time

    from gpuconfig.core.build.model import Build, BuildLine
    from gpuconfig.core.workload.spec import Workload
    from gpuconfig.ui.main_window import INDEX

    window.set_theme("light")
    window.tabs.setCurrentIndex(INDEX["build"])
    tab = window.build_tab
    tab.set_build(
        Build(
            "Two RTX 4090s",
            (
                BuildLine("nvidia-geforce-rtx-4090", 2),
                BuildLine("amd-ryzen-9-9950x"),
                BuildLine("msi-mpg-x870e-carbon-wifi"),
                BuildLine("crucial-pro-oc-ddr5-6400-2x32gb"),
                BuildLine("samsung-990-pro-2tb"),
                BuildLine("nzxt-c1500-platinum-atx31"),
                BuildLine("sliger-cx4200a"),
            ),
        )
    )
    form = tab.recommend.form
    form.use_own.setChecked(True)
    form.set_workload(Workload("llama-3-8b", task="lora", precision="bf16", batch=2, seq=1024))
    form.budget.setText("10000")
    tab.recommend.run()
    deadline = time.monotonic() + 300
    while tab.recommend.plan is None and time.monotonic() < deadline:
        app.processEvents()
        time.sleep(0.05)
    for theme in ("light", "dark"):
        window.set_theme(theme)
        settle()
        window.grab().save(str(OUT / f"build-{theme}.png"))
    window.set_theme("light")
    tab.shutdown()


def guide_shots(window: Any, settle: Any) -> None:
    """The Guide tab: an RTX 5090 on Ubuntu 24.04, in both themes."""
    from gpuconfig.ui.main_window import INDEX

    window.tabs.setCurrentIndex(INDEX["guide"])
    tab = window.guide_tab
    tab.source.set_os("ubuntu-24.04")
    tab.show_gpu("nvidia-geforce-rtx-5090", 1)
    for theme in ("light", "dark"):
        window.set_theme(theme)
        settle()
        window.grab().save(str(OUT / f"guide-{theme}.png"))
    window.set_theme("light")


def egpu_shots(app: Any, window: Any, settle: Any) -> None:
    """The eGPU tab: a Thunderbolt 4 laptop with an RTX 3090 in a Razer Core X, and the slowdown of a ResNet-50
    fine-tune at batch 256 (its trace takes about 25 s the first time); then an OCuLink dock on a Thunderbolt
    port of an Apple-silicon Mac."""
    import json
    import time

    from gpuconfig.core.workload.spec import Workload
    from gpuconfig.ui.main_window import INDEX

    workload = Workload("resnet-50", task="finetune", batch=256)
    window.store.user.set_setting("workload.form", json.dumps({"model": "resnet-50", "task": "finetune", "batch": 256}))
    if window.built.get("workload") is not None:
        window._workload_tab.form.set_workload(workload)
    window.set_theme("light")
    window.tabs.setCurrentIndex(INDEX["egpu"])
    tab = window.egpu_tab
    tab.form.set_choice(port="TB4", os="linux", charger_w=0, dock="razer-core-x", gpu="nvidia-geforce-rtx-3090")
    tab.estimate_workload()
    deadline = time.monotonic() + 300
    while (tab.running() or tab.report is None or tab.report.slowdown is None) and time.monotonic() < deadline:
        app.processEvents()
        time.sleep(0.05)
    for theme in ("light", "dark"):
        window.set_theme(theme)
        settle()
        window.grab().save(str(OUT / ("egpu-compatible.png" if theme == "light" else "egpu-dark.png")))
    window.set_theme("light")
    tab.form.set_choice(port="TB3", os="macos-apple", dock="minisforum-deg1", gpu="nvidia-geforce-rtx-4090")
    tab.estimate_workload()
    settle()
    window.grab().save(str(OUT / "egpu-incompatible.png"))
    tab.shutdown()


if __name__ == "__main__":
    sys.exit(main())
