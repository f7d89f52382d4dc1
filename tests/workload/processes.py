"""Whether a process a test started (or its program started) has ended."""

from __future__ import annotations

import time

import psutil


def gone(process: psutil.Process, within_s: float = 5.0) -> bool:
    """Whether `process` has ended (a zombie has: it only waits for its new parent to reap it)."""
    deadline = time.monotonic() + within_s
    while time.monotonic() < deadline:
        try:
            if process.status() == psutil.STATUS_ZOMBIE:
                return True
        except psutil.NoSuchProcess:
            return True
        time.sleep(0.05)
    return False
