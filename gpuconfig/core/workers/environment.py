"""A clean environment for every program gpuconfig starts, and the one way to start one.

A program started from the bundle must not inherit what the bundle added to the environment: the
bootloader's LD_LIBRARY_PATH (Linux) or DLL directory (Windows) would load the bundle's libraries into
the user's Python, and Qt's plugin paths would load the bundle's plugins into the user's Qt programs
(PyInstaller, "Common Issues and Pitfalls", launching external programs).
"""

from __future__ import annotations

import contextlib
import os
import subprocess
import sys
import threading
from collections.abc import Iterator, Mapping, Sequence
from pathlib import Path
from subprocess import Popen
from typing import Any

# Search paths a bundle may point into: PyInstaller's Qt run-time hook sets the Qt ones to the bundle's
# plugins; an older or customised bootloader may set Python's. Entries inside the bundle are removed,
# the user's own kept.
SEARCH_PATHS = ("PATH", "LD_LIBRARY_PATH", "PYTHONHOME", "PYTHONPATH", "QT_PLUGIN_PATH", "QT_QPA_PLATFORM_PLUGIN_PATH",
                "QML2_IMPORT_PATH")  # fmt: skip
# Windows: a console program started from the app (which has no console) opens no window of its own.
NO_WINDOW = getattr(subprocess, "CREATE_NO_WINDOW", 0)
_dll_lock = threading.Lock()


def frozen() -> bool:
    """Whether this is the installed app (a PyInstaller bundle) rather than a Python with gpuconfig in it."""
    return bool(getattr(sys, "frozen", False))


def bundle_dir() -> Path | None:
    meipass = getattr(sys, "_MEIPASS", None)
    return Path(meipass) if frozen() and meipass else None


def clean_environment(base: Mapping[str, str] | None = None, bundle: Path | None = None) -> dict[str, str]:
    """The environment for a program started from gpuconfig: the user's own, without what the bundle added.

    Outside a bundle it is `base` (os.environ) unchanged. `bundle` stands in for sys._MEIPASS (tests).
    """
    env = dict(os.environ if base is None else base)
    bundle = bundle or bundle_dir()
    if bundle is None:
        return env
    # The bootloader put the bundle before LD_LIBRARY_PATH and kept the user's value in LD_LIBRARY_PATH_ORIG.
    original = env.pop("LD_LIBRARY_PATH_ORIG", None)
    if original is not None:
        env["LD_LIBRARY_PATH"] = original
    else:
        env.pop("LD_LIBRARY_PATH", None)
    for name in [n for n in env if n.startswith(("_PYI_", "_MEIPASS"))]:
        del env[name]  # the bootloader's notes to a copy of itself; a program of the user's has no use for them
    for name in SEARCH_PATHS:
        if name in env:
            kept = [p for p in env[name].split(os.pathsep) if p and not inside(p, bundle)]
            if kept:
                env[name] = os.pathsep.join(kept)
            else:
                del env[name]
    return env


def inside(path: str, folder: Path) -> bool:
    """Whether `path` lies in `folder` (the bundle's folder), both resolved; a path that cannot be is not."""
    try:
        return Path(path).resolve().is_relative_to(folder.resolve())
    except (OSError, ValueError):
        return False


@contextlib.contextmanager
def launching() -> Iterator[None]:
    """Around starting a program from the bundle on Windows: the bootloader's DLL directory, which a child
    inherits, is lifted for the moment it starts (PyInstaller: SetDllDirectoryW(None)) and then put back."""
    bundle = bundle_dir()
    if os.name != "nt" or bundle is None:
        yield
        return
    import ctypes

    kernel32 = ctypes.windll.kernel32  # type: ignore[attr-defined,unused-ignore]
    with _dll_lock:
        kernel32.SetDllDirectoryW(None)
        try:
            yield
        finally:
            kernel32.SetDllDirectoryW(str(bundle))


def start_program(command: Sequence[str], env: Mapping[str, str] | None = None, **options: Any) -> Popen[str]:
    """Start a program of the user's (a Python, a worker, boltctl): the clean environment (plus `env`),
    no console window, text streams with bytes that are not UTF-8 replaced. The DLL directory is lifted
    only while it starts."""
    with launching():
        return subprocess.Popen(
            list(command),
            text=True,
            encoding="utf-8",
            errors="replace",
            env=clean_environment() | dict(env or {}),
            creationflags=NO_WINDOW,
            **options,
        )


def run_program(command: Sequence[str], timeout: float) -> subprocess.CompletedProcess[str]:
    """subprocess.run for a program of the user's, started by start_program."""
    process = start_program(command, stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    try:
        out, err = process.communicate(timeout=timeout)
    except subprocess.TimeoutExpired:
        process.kill()
        process.communicate()
        raise
    return subprocess.CompletedProcess(process.args, process.returncode, out, err)
