"""The Pythons found on this machine, each asked its version and those of torch and the model libraries.

Asking starts the Python (through environment.run_program): a broken one says why, one that hangs is
given up after ASK_TIMEOUT_S.
"""

from __future__ import annotations

import contextlib
import json
import os
import subprocess
import threading
from dataclasses import dataclass

from gpuconfig.core.workers.environment import run_program

# How long a candidate Python may take to say its version and whether it has torch (a cold conda start).
ASK_TIMEOUT_S = 20.0
# Asked of each candidate: its version and those of the packages a worker imports, read from package
# metadata without importing them (a trace depends on all three: the runner keys its cache on them).
ASK = (
    "import json, platform\n"
    "def version(name):\n"
    "    try:\n        from importlib.metadata import version\n        return version(name)\n"
    "    except Exception:\n        return None\n"
    "print(json.dumps({'python': platform.python_version(), 'torch': version('torch'),\n"
    "    'transformers': version('transformers'), 'diffusers': version('diffusers')}))"
)


@dataclass(frozen=True)
class Interpreter:
    """A Python found on this machine: where, how it was found, its version and torch's (None: no torch), and
    the versions of the model libraries a trace imports (None: not installed)."""

    path: str
    source: str
    python: str | None = None
    torch: str | None = None
    problem: str = ""  # why it could not be asked, when it could not
    transformers: str | None = None
    diffusers: str | None = None

    @property
    def has_torch(self) -> bool:
        return self.torch is not None and not self.problem


def executable_in(path: str) -> str:
    """The Python executable of an environment's folder, or `path` itself when it names a file."""
    if os.path.isdir(path):
        for candidate in ("bin/python", "bin/python3", "python.exe", "Scripts/python.exe"):
            if os.path.isfile(os.path.join(path, candidate)):
                return os.path.join(path, candidate)
    return path


def ask(path: str, source: str) -> Interpreter:
    """Start a Python and ask it its version and whether it has torch; a broken one says why."""
    executable = executable_in(path)
    try:
        done = run_program([executable, "-c", ASK], ASK_TIMEOUT_S)
    except subprocess.TimeoutExpired:
        return Interpreter(executable, source, problem=f"{executable} did not answer within {ASK_TIMEOUT_S:g} s")
    except OSError as error:
        return Interpreter(executable, source, problem=f"cannot run {executable}: {error.strerror or error}")
    answer: object = None
    with contextlib.suppress(ValueError, IndexError):
        answer = json.loads(done.stdout.strip().splitlines()[-1])
    if done.returncode != 0:
        last = (done.stderr.strip().splitlines() or [""])[-1]
        why = f"{executable} exited with code {done.returncode}" + (f": {last}" if last else "")
        return Interpreter(executable, source, problem=why)
    if not isinstance(answer, dict) or "python" not in answer:
        return Interpreter(executable, source, problem=f"{executable} did not answer like a Python interpreter")
    torch, transformers, diffusers = (answer.get(name) for name in ("torch", "transformers", "diffusers"))
    return Interpreter(
        executable,
        source,
        str(answer["python"]),
        str(torch) if torch else None,
        transformers=str(transformers) if transformers else None,
        diffusers=str(diffusers) if diffusers else None,
    )


_asked: dict[str, Interpreter] = {}  # the Pythons with torch asked so far, by normalised path
_asked_lock = threading.Lock()


def interpreter(path: str, source: str = "chosen") -> Interpreter:
    """`ask`, once per Python with torch in a session; one without is asked again, in case torch came since."""
    key = os.path.normcase(os.path.abspath(executable_in(path)))
    with _asked_lock:
        if key in _asked:
            return _asked[key]
    found = ask(path, source)
    if found.has_torch:
        with _asked_lock:
            _asked[key] = found
    return found
