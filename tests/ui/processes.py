"""The worker processes a GUI test started: to prove a cancel or a shutdown leaves none behind."""

from __future__ import annotations

import psutil


def live_children() -> list[psutil.Process]:
    """This test process's children (and theirs) that are still running."""
    return [p for p in psutil.Process().children(recursive=True) if alive(p)]


def alive(process: psutil.Process) -> bool:
    try:
        return process.is_running() and process.status() != psutil.STATUS_ZOMBIE
    except psutil.NoSuchProcess:
        return False
