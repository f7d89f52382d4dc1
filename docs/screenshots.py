"""Render the screenshots in docs/screenshots/ from the real widgets and the shipped catalog.

QT_QPA_PLATFORM=offscreen python docs/screenshots.py
"""

from __future__ import annotations

import os
import sys
import tempfile
from pathlib import Path

OUT = Path(__file__).parent / "screenshots"


def main() -> int:
    os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")
    os.environ["GPUCONFIG_DATA_DIR"] = tempfile.mkdtemp(prefix="gpuconfig-shots-")
    from PySide6.QtCore import Qt
    from PySide6.QtWidgets import QApplication

    from gpuconfig.core.catalog.store import open_default_store
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
    print("\n".join(sorted(p.name for p in OUT.glob("*.png"))))
    QApplication.processEvents()
    return 0


if __name__ == "__main__":
    sys.exit(main())
