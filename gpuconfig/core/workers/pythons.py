"""The one choice of the Python that runs gpuconfig's workers.

The probe's benchmarks and the traced estimator import torch in a worker process (the window and the core
never import it). Installed with pip, gpuconfig runs them in its own interpreter. The installed app (a
PyInstaller bundle) has no interpreter a worker could use: sys.executable is the app itself, so it takes
the first Python with torch that search.py finds.
"""

from __future__ import annotations

import importlib.util
import os
import sys
from collections.abc import Sequence

from gpuconfig.core.workers.environment import frozen
from gpuconfig.core.workers.interpreters import Interpreter, executable_in, interpreter
from gpuconfig.core.workers.search import TORCH_PYTHON_ENV, added_pythons, found_torch_python


class NoTorchPython(FileNotFoundError):
    """No Python with torch was named or found; the message says where gpuconfig looked and what to do."""


class PythonNotFound(FileNotFoundError):
    """The Python the user named does not exist; the message names it and where it was named."""


NO_TORCH_PYTHON = (
    "no Python with PyTorch found (looked at the active conda environment, conda's environments, the usual "
    "conda, pyenv and venv folders, PATH and the py launcher): install PyTorch (the Guide tab shows how), "
    f"add a Python in the Probe tab, or set {TORCH_PYTHON_ENV}"
)


def has_torch_here() -> bool:
    """Whether this interpreter can import torch (checked without importing it)."""
    return importlib.util.find_spec("torch") is not None


def named_python() -> str | None:
    """The Python GPUCONFIG_TORCH_PYTHON names (an environment's folder names its Python); None when unset.
    Raises PythonNotFound when it names nothing."""
    chosen = os.environ.get(TORCH_PYTHON_ENV)
    if not chosen:
        return None
    path = executable_in(chosen)
    if not os.path.isfile(path):
        raise PythonNotFound(f"{TORCH_PYTHON_ENV}={chosen}: no such interpreter")
    return path


def worker_python() -> str:
    """The Python that runs a worker (a trace, the benchmarks) when none was given: chosen_python()'s."""
    return chosen_python()[0]


def chosen_python(added: Sequence[str] | None = None) -> tuple[str, str]:
    """The one choice of the worker Python, and how it was found: GPUCONFIG_TORCH_PYTHON when set; else the
    first Python the user added (the Probe tab's Add...; `added` when given, else as saved) that has torch;
    else this one when gpuconfig runs in a Python with torch; else the first Python found with torch.

    Raises PythonNotFound when GPUCONFIG_TORCH_PYTHON names nothing, NoTorchPython when no Python with torch
    is found (both OSErrors, as when an interpreter cannot be started).
    """
    chosen = named_python()
    if chosen is not None:
        return chosen, TORCH_PYTHON_ENV
    for path in added_pythons() if added is None else added:
        if interpreter(path, "added").has_torch:
            return executable_in(path), "added"
    if not frozen() and has_torch_here():
        return sys.executable, "this interpreter"
    found = found_torch_python()
    if found is None:
        raise NoTorchPython(NO_TORCH_PYTHON)
    return found.path, found.source


# The oldest Python the probe's bench program starts in (it uses 3.8's assignment expressions; 3.6 and
# 3.7 stop at a SyntaxError), which is also the oldest any PyTorch build in catalog/compat supports.
OLDEST_WORKER_PYTHON = (3, 8)


def plain_python() -> str | None:
    """A Python that can run a worker program's stdlib part (its plan, before torch): this one, or in the
    installed app the worker Python, else the first Python 3.8+ found; None when there is none at all."""
    if not frozen():
        return sys.executable
    if os.environ.get(TORCH_PYTHON_ENV):
        try:
            return named_python()
        except PythonNotFound:
            return None
    asked: list[Interpreter] = []  # each candidate is asked once, for torch and for its version alike
    found = found_torch_python(asked=asked)
    if found is not None:
        return found.path
    return next((i.path for i in asked if i.python and _version(i.python) >= OLDEST_WORKER_PYTHON), None)


def _version(text: str) -> tuple[int, ...]:
    return tuple(int(part) for part in text.split(".")[:2] if part.isdigit())
