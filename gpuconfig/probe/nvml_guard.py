"""Whether starting NVML in gpuconfig's own process is safe.

nvmlInit runs the NVIDIA driver's libnvidia-ml in the calling process, and a broken or mismatched library
can crash there (a segmentation fault), which no Python code can catch: the probe, the eGPU check and the
self-test would vanish without a word. So the first start in a process is tried in a child: this app run
again with CHECK_NVML (in the installed app sys.executable is the app itself, not a Python, so it is asked
the same way). Only if the child lived is NVML started here; if it crashed or hung, NVML is unavailable
here, with why. A hung child dies with the app (on Linux), as a worker does.
"""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import threading

from gpuconfig import CHECK_NVML
from gpuconfig.core.workers.environment import frozen, run_program

# nvmlInit takes seconds per GPU when the driver is not kept loaded (no persistence mode); a hang is longer.
TIMEOUT_S = 60.0
ADVICE = "reinstall or update the NVIDIA driver (its library and kernel module must be of the same version)"
_lock = threading.Lock()
_answers: list[str] = []


def command() -> list[str]:
    """This app, run again to check NVML (the installed app is its own executable; else the package), told
    which process it is to die with."""
    app = [sys.executable] if frozen() else [sys.executable, "-m", "gpuconfig"]
    return [*app, CHECK_NVML, str(os.getpid())]


def problem() -> str:
    """Why NVML must not be started in this process, or "" when a child started it and lived. Asked once
    per process; the answer holds for its life (the library does not change under it)."""
    with _lock:
        if not _answers:
            _answers.append(_ask())
        return _answers[0]


def _ask() -> str:
    try:
        done = run_program(command(), TIMEOUT_S)
    except subprocess.TimeoutExpired:
        return f"the NVIDIA library (libnvidia-ml) did not start within {TIMEOUT_S:g} s, so it is not used: {ADVICE}"
    except OSError as exc:
        return f"the NVIDIA library could not be tried safely ({exc}), so it is not used"
    return "" if done.returncode == 0 else exit_reason(done.returncode, done.stderr)


def exit_reason(code: int, stderr: str) -> str:
    """Why the child that started NVML did not end well, in words."""
    if code < 0:
        name = signal.Signals(-code).name if -code in signal.valid_signals() else ""
        how = f"crashed (signal {-code}{', ' + name if name else ''})"
    elif code >= 0xC0000000:  # Windows: an NTSTATUS error such as 0xC0000005, an access violation
        how = f"crashed (exception 0x{code:08X})"
    else:
        last = stderr.strip().splitlines()[-1:] or [f"exit code {code}"]
        how = f"failed to start ({last[0]})"
    return f"the NVIDIA library (libnvidia-ml) {how} when NVML started, so it is not used: {ADVICE}"
