"""The dependency rule: core and probe never import Qt or torch; the GUI never imports torch."""

from __future__ import annotations

import ast
import os
import subprocess
import sys
from pathlib import Path

import pytest

import gpuconfig

PACKAGE = Path(gpuconfig.__file__).parent
WORKERS = PACKAGE / "workers"  # the worker programs, run in a Python with torch: the one place it is imported


def _imports(path: Path) -> set[str]:
    tree = ast.parse(path.read_text(encoding="utf-8"))
    names: set[str] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            names.update(alias.name.split(".")[0] for alias in node.names)
        elif isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
            names.add(node.module.split(".")[0])
    return names


def _files(*parts: str) -> list[Path]:
    return [p for p in PACKAGE.joinpath(*parts).rglob("*.py") if not p.is_relative_to(WORKERS)]


def test_core_and_probe_never_import_qt_or_torch() -> None:
    for path in _files("core") + _files("probe"):
        bad = _imports(path) & {"PySide6", "pyqtgraph", "torch", "shiboken6"}
        assert not bad, f"{path.relative_to(PACKAGE)} imports {bad}"


def test_gui_and_cli_never_import_torch() -> None:
    for path in [*_files("ui"), PACKAGE / "cli.py", PACKAGE / "__main__.py"]:
        assert "torch" not in _imports(path), f"{path.relative_to(PACKAGE)} imports torch"


def test_core_import_pulls_in_no_qt() -> None:
    code = (
        "import sys, gpuconfig.core.catalog.store, gpuconfig.core.catalog.query, gpuconfig.core.catalog.records, "
        "gpuconfig.cli; print(sorted(m for m in sys.modules if m.split('.')[0] in "
        "('PySide6', 'pyqtgraph', 'torch', 'numpy')))"
    )
    result = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert result.stdout.strip() == "[]"


@pytest.mark.skipif(not sys.platform.startswith("linux"), reason="an X11 platform without a display stops the start")
def test_starting_the_window_loads_neither_the_nvml_check_nor_the_python_finder() -> None:
    # Without a display the start stops at its first check, before Qt: what it imported up to there is
    # what telling the commands apart cost.
    env = {k: v for k, v in os.environ.items() if k not in ("DISPLAY", "WAYLAND_DISPLAY")} | {"QT_QPA_PLATFORM": "xcb"}
    run = subprocess.run(
        [sys.executable, "-X", "importtime", "-m", "gpuconfig"], env=env, capture_output=True, text=True, timeout=60
    )
    assert run.returncode == 2 and "no display" in run.stderr
    imported = {line.rsplit("|", 1)[-1].strip() for line in run.stderr.splitlines() if line.startswith("import time:")}
    assert "gpuconfig.ui.can_start" in imported
    finder = {"gpuconfig.core.workers.pythons", "gpuconfig.core.workers.search"}
    assert not imported & {"gpuconfig.probe.nvml_guard", *finder, "subprocess"}


def test_the_reason_a_worker_gave_no_result_is_read_without_the_worker_runner() -> None:
    code = (
        "import sys, gpuconfig.core.guide.diagnose, gpuconfig.probe.model; "
        "print('gpuconfig.core.workers.process' in sys.modules, 'subprocess' in sys.modules)"
    )
    result = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert result.stdout.split() == ["False", "False"]
