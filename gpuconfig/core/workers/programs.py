"""Where the worker programs are: gpuconfig/workers, shipped as plain files (a wheel's package files, the
bundle's data), never imported by the app.

Each program is a folder of modules run as a package by the boot script (boot.py), in whichever Python
the worker needs: they import only each other, the standard library and torch's libraries.
"""

from __future__ import annotations

import hashlib
from pathlib import Path

FOLDER = Path(__file__).parents[2] / "workers"
# Starts a program with a message channel of its own and ties its life to gpuconfig's.
BOOT = FOLDER / "boot.py"
# The probe's benchmark suite.
BENCH = FOLDER / "bench"
# The estimator's model tracer.
TRACE = FOLDER / "tracer"


def program_files(program: Path) -> list[Path]:
    """The modules a program runs: the file itself, or every module in its folder, in a stable order."""
    if program.is_file():
        return [program]
    return sorted(path for path in program.rglob("*.py") if "__pycache__" not in path.parts)


def program_digest(program: Path) -> str:
    """A hash of every module of a program and where it lies in it: any edit to any of them changes it."""
    digest = hashlib.sha256()
    for path in program_files(program):
        name = path.name if program.is_file() else path.relative_to(program).as_posix()
        digest.update(name.encode() + b"\0" + path.read_bytes() + b"\0")
    return digest.hexdigest()
