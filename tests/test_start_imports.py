"""What each way into gpuconfig loads when it starts: the core and the command line no Qt, torch or numpy;
the window's start check neither the NVML check nor the Python finder; a worker's failure reason not the
worker runner. (Which package may import which is tests/test_imports.py.)"""

from __future__ import annotations

import os
import subprocess
import sys

import pytest


def test_core_import_pulls_in_no_qt() -> None:
    code = (
        "import sys, gpuconfig.core.userdata.store, gpuconfig.core.catalog.query, gpuconfig.core.catalog.records, "
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
