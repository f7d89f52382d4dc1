"""GUI tests run offscreen, with the real store on a private copy of the catalog."""

from __future__ import annotations

import json
import os
from collections.abc import Iterator
from pathlib import Path

import pytest

os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")

from gpuconfig.core.userdata.store import Store
from gpuconfig.ui.main_window import MainWindow

TINY_LLAMA = json.loads((Path(__file__).parents[1] / "data" / "tiny_llama.json").read_text(encoding="utf-8"))


@pytest.fixture(scope="module")
def shared_data(tmp_path_factory: pytest.TempPathFactory, request: pytest.FixtureRequest) -> Path:
    """One trace cache per test module: the tiny model is traced once and reused from disk after that."""
    return tmp_path_factory.mktemp(f"{request.module.__name__.rsplit('.', 1)[-1]}-data")


@pytest.fixture
def shared_trace_cache(shared_data: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """Use the module's trace cache as the data directory (modules opt in with pytestmark)."""
    monkeypatch.setenv("GPUCONFIG_DATA_DIR", str(shared_data))


@pytest.fixture(scope="module")
def tiny_llama(tmp_path_factory: pytest.TempPathFactory) -> Path:
    path = tmp_path_factory.mktemp("models") / "tiny-llama" / "config.json"
    path.parent.mkdir()
    path.write_text(json.dumps(TINY_LLAMA))
    return path


@pytest.fixture
def window(qtbot, store: Store) -> Iterator[MainWindow]:  # type: ignore[no-untyped-def]
    main = MainWindow(store)
    qtbot.addWidget(main)
    main.show()
    qtbot.waitExposed(main)
    yield main
    if main.catalog_tab.compare_dialog is not None:
        main.catalog_tab.compare_dialog.close()
