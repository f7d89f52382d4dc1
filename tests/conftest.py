"""Shared fixtures: every test gets its own data directory and never touches the user's."""

from __future__ import annotations

import os
import shutil
from collections.abc import Iterator
from pathlib import Path

import pytest

from gpuconfig.core.catalog.store import CatalogStore
from gpuconfig.core.paths import catalog_dir

# GUI tests draw offscreen: no display is needed, and none is touched where one exists.
os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")


@pytest.fixture(autouse=True)
def _isolated_data_dir(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    data = tmp_path / "user-data"
    monkeypatch.setenv("GPUCONFIG_DATA_DIR", str(data))
    return data


@pytest.fixture
def catalog_copy(tmp_path: Path) -> Path:
    """A private copy of the shipped catalog that a test may edit or break."""
    target = tmp_path / "catalog"
    shutil.copytree(catalog_dir(), target, ignore=shutil.ignore_patterns("__init__.py", "__pycache__"))
    return target


@pytest.fixture
def store(tmp_path: Path, catalog_copy: Path) -> Iterator[CatalogStore]:
    opened = CatalogStore.open(tmp_path / "test.sqlite3", catalog_copy)
    yield opened
    opened.close()
