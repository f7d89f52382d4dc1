"""A description of the machine a benchmark ran on, stored with its results."""

from __future__ import annotations

import os
import platform
from typing import Any

import psutil


def machine() -> dict[str, Any]:
    cpu = platform.processor() or platform.machine()
    try:
        with open("/proc/cpuinfo", encoding="utf-8") as info:
            cpu = next((line.split(":", 1)[1].strip() for line in info if line.startswith("model name")), cpu)
    except OSError:
        pass
    from PySide6 import __version__ as pyside
    from PySide6.QtCore import qVersion

    return {
        "cpu": cpu,
        "logical_cpus": os.cpu_count(),
        "memory_gib": round(psutil.virtual_memory().total / 2**30, 1),
        "os": platform.platform(),
        "python": platform.python_version(),
        "qt": qVersion(),
        "pyside6": pyside,
        "qt_platform": os.environ.get("QT_QPA_PLATFORM", "default"),
    }
