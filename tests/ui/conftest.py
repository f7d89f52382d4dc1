"""GUI tests run offscreen, with the real store on a private copy of the catalog."""

from __future__ import annotations

import os
from collections.abc import Iterator

import pytest

os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")

from gpuconfig.core.catalog.store import CatalogStore
from gpuconfig.ui.main_window import MainWindow


@pytest.fixture
def window(qtbot, store: CatalogStore) -> Iterator[MainWindow]:  # type: ignore[no-untyped-def]
    main = MainWindow(store)
    qtbot.addWidget(main)
    main.show()
    qtbot.waitExposed(main)
    yield main
    if main.catalog_tab.compare_dialog is not None:
        main.catalog_tab.compare_dialog.close()
