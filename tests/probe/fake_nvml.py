"""A stand-in for the NVIDIA driver's libnvidia-ml.so.1 (data/fake_nvml.c), built here with the C compiler,
for tests of what gpuconfig does when NVML's library crashes, on machines that have no NVIDIA driver."""

from __future__ import annotations

import os
import shutil
import subprocess
from pathlib import Path

import pytest

SOURCE = Path(__file__).parent / "data" / "fake_nvml.c"
LIBRARY = "libnvidia-ml.so.1"  # the name nvidia-ml-py loads with ctypes on Linux


def build(folder: Path, crash: bool, hang: bool = False) -> Path:
    """`folder` with the stand-in library in it (crashing, or hanging, in nvmlInit): put it on LD_LIBRARY_PATH;
    skips the test without a compiler."""
    compiler = shutil.which("gcc") or shutil.which("cc")
    if compiler is None:
        pytest.skip("no C compiler to build the stand-in NVIDIA library")
    flags = ["-DCRASH"] * crash + ["-DHANG"] * hang
    command = [compiler, "-shared", "-fPIC", "-O0", *flags, "-o", str(folder / LIBRARY), str(SOURCE)]
    subprocess.run(command, check=True, capture_output=True)
    return folder


def environment(folder: Path, base: dict[str, str] | None = None) -> dict[str, str]:
    """An environment whose programs load the library in `folder` as NVML's."""
    return {**(os.environ if base is None else base), "LD_LIBRARY_PATH": str(folder)}
