"""The Python that runs gpuconfig's workers, and a clean environment for every program gpuconfig starts.

The probe's benchmarks and the traced estimator import torch in a worker process (the window and the core
never import it).
Installed with pip, gpuconfig runs them in its own interpreter. The installed app (a PyInstaller bundle)
has no interpreter a worker could use: sys.executable is the app itself. It looks for one with torch:
GPUCONFIG_TORCH_PYTHON, the active conda environment or venv, the environments conda lists, the usual
conda and venv folders, and python3/python on PATH (and `py -0p` on Windows).

A program started from the bundle must not inherit what the bundle added to the environment: the
bootloader's LD_LIBRARY_PATH (Linux) or DLL directory (Windows) would load the bundle's libraries into
the user's Python, and Qt's plugin paths would load the bundle's plugins into the user's Qt programs
(PyInstaller, "Common Issues and Pitfalls", launching external programs).

PyInstaller's bootstrap removes VIRTUAL_ENV from the app's environment (pyiboot01_bootstrap.py), so in
the installed app an activated venv is found through PATH, where activation put its bin/ first.
"""

from __future__ import annotations

import contextlib
import json
import os
import re
import shutil
import subprocess
import sys
import threading
from collections.abc import Iterator, Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from subprocess import Popen
from typing import Any

TORCH_PYTHON_ENV = "GPUCONFIG_TORCH_PYTHON"
# Search paths a bundle may point into: PyInstaller's Qt run-time hook sets the Qt ones to the bundle's
# plugins; an older or customised bootloader may set Python's. Entries inside the bundle are removed,
# the user's own kept.
SEARCH_PATHS = ("PATH", "LD_LIBRARY_PATH", "PYTHONHOME", "PYTHONPATH", "QT_PLUGIN_PATH", "QT_QPA_PLATFORM_PLUGIN_PATH",
                "QML2_IMPORT_PATH")  # fmt: skip
# Windows: a console program started from the app (which has no console) opens no window of its own.
NO_WINDOW = getattr(subprocess, "CREATE_NO_WINDOW", 0)
# How long a candidate Python may take to say its version and whether it has torch (a cold conda start).
ASK_TIMEOUT_S = 20.0
# Asked of each candidate: its version and torch's, read from package metadata without importing torch.
ASK = (
    "import json, platform\n"
    "try:\n    from importlib.metadata import version\n    torch = version('torch')\n"
    "except Exception:\n    torch = None\n"
    "print(json.dumps({'python': platform.python_version(), 'torch': torch}))"
)
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
            kept = [p for p in env[name].split(os.pathsep) if p and not _inside(p, bundle)]
            if kept:
                env[name] = os.pathsep.join(kept)
            else:
                del env[name]
    return env


def _inside(path: str, folder: Path) -> bool:
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


@dataclass(frozen=True)
class Interpreter:
    """A Python found on this machine: where, how it was found, its version and torch's (None: no torch)."""

    path: str
    source: str
    python: str | None = None
    torch: str | None = None
    problem: str = ""  # why it could not be asked, when it could not

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
    torch = answer.get("torch")
    return Interpreter(executable, source, str(answer["python"]), str(torch) if torch else None)


def conda_environments(listing: Path | None = None) -> list[str]:
    """The conda environments conda itself lists (~/.conda/environments.txt), existing ones only."""
    listing = listing or Path.home() / ".conda" / "environments.txt"
    try:
        text = listing.read_text(encoding="utf-8", errors="replace")
    except OSError:
        return []
    return [line.strip() for line in text.splitlines() if line.strip() and os.path.isdir(line.strip())]


def _usual_folders(home: Path) -> list[str]:
    """Where conda installers and venv habits put environments: the base installs, their envs/, ~/.venv."""
    try:
        return _folders_under(home)
    except OSError:  # an unreadable folder in the way: those found before it are not worth a crash
        return []


def _folders_under(home: Path) -> list[str]:
    found: list[str] = []
    for base in ("miniconda3", "anaconda3", "miniforge3", "mambaforge", ".conda", ".pyenv/versions"):
        root = home / base
        if (root / "bin" / "python").exists() or (root / "python.exe").exists():
            found.append(str(root))
        envs = root / "envs" if base != ".pyenv/versions" else root
        if envs.is_dir():
            found.extend(str(p) for p in sorted(envs.iterdir()) if p.is_dir())
    for venv in (".venv", "venv", ".virtualenvs"):
        folder = home / venv
        if (folder / "pyvenv.cfg").exists():
            found.append(str(folder))
        elif folder.is_dir() and venv == ".virtualenvs":
            found.extend(str(p) for p in sorted(folder.iterdir()) if (p / "pyvenv.cfg").exists())
    return found


def _windows_launcher() -> list[str]:
    """The Pythons the Windows launcher knows (`py -0p`: one per line, the path last)."""
    if os.name != "nt" or shutil.which("py") is None:
        return []
    try:
        done = run_program(["py", "-0p"], ASK_TIMEOUT_S)
    except (OSError, subprocess.TimeoutExpired):
        return []
    return launcher_paths(done.stdout)


# " -V:3.12 *        C:\\Program Files\\Python312\\python.exe": the path is last and may hold spaces.
_LAUNCHER_LINE = re.compile(r"([A-Za-z]:\\.*?\.exe)\s*$", re.IGNORECASE)


def launcher_paths(text: str) -> list[str]:
    """The interpreters in `py -0p`'s answer."""
    return [m.group(1) for m in (_LAUNCHER_LINE.search(line) for line in text.splitlines()) if m]


def candidates(
    extra: Sequence[str] = (), env: Mapping[str, str] | None = None, home: Path | None = None
) -> list[tuple[str, str]]:
    """Every Python worth asking, with how it was found, each once, in the order they are preferred."""
    env = os.environ if env is None else env
    home = home or Path.home()
    found: list[tuple[str, str]] = []
    if env.get(TORCH_PYTHON_ENV):
        found.append((env[TORCH_PYTHON_ENV], TORCH_PYTHON_ENV))
    found += [(p, "added") for p in [*extra, *_added]]
    for variable, source in (("CONDA_PREFIX", "active conda environment"), ("VIRTUAL_ENV", "active venv")):
        if env.get(variable):
            found.append((env[variable], source))
    if not frozen():
        found.append((sys.executable, "this interpreter"))
    found += [(p, "conda") for p in conda_environments(home / ".conda" / "environments.txt")]
    found += [(p, "usual place") for p in _usual_folders(home)]
    bundle = bundle_dir()
    for name in ("python3", "python"):
        where = shutil.which(name, path=env.get("PATH"))
        if where and not (bundle and _inside(where, bundle)):
            found.append((where, "PATH"))
    found += [(p, "py launcher") for p in _windows_launcher()]
    seen: set[str] = set()
    unique: list[tuple[str, str]] = []
    for path, source in found:
        # By path, not resolved: a venv's python links to its base interpreter but has other packages.
        key = os.path.normcase(os.path.abspath(executable_in(path)))
        if key not in seen:
            seen.add(key)
            unique.append((executable_in(path), source))
    return unique


def find_pythons(extra: Sequence[str] = (), env: Mapping[str, str] | None = None) -> list[Interpreter]:
    """Every candidate Python, asked: the ones with torch first, in the order candidates() prefers."""
    asked = [ask(path, source) for path, source in candidates(extra, env)]
    return [i for i in asked if i.has_torch] + [i for i in asked if not i.has_torch]


_found: dict[tuple[str, ...], Interpreter] = {}
_found_lock = threading.Lock()
_added: list[str] = []  # Pythons the user added (the Probe tab's "Add..."), asked before any found
# Where the app keeps those (a JSON list in the store's settings), read at start-up by the main window.
ADDED_SETTING = "probe.pythons"


def added_from_setting(text: str | None) -> list[str]:
    """The saved list of added Pythons; a damaged setting is an empty list."""
    try:
        saved = json.loads(text) if text else []
    except ValueError:
        return []
    return [p for p in saved if isinstance(p, str)] if isinstance(saved, list) else []


def add_pythons(paths: Sequence[str]) -> None:
    """Pythons the user chose: asked first from now on (the answer found so far is dropped)."""
    with _found_lock:
        _added[:] = [*paths, *(p for p in _added if p not in paths)]
        _found.clear()


def forget() -> None:
    """Back to how a session starts: no added Pythons, nothing found yet."""
    with _found_lock:
        _added.clear()
        _found.clear()


def found_torch_python(extra: Sequence[str] = (), asked: list[Interpreter] | None = None) -> Interpreter | None:
    """The first Python with torch. A find is kept for the session; "none" is not, so a Python the user
    installs or adds meanwhile is found at the next look. Each Python asked on the way goes into `asked`."""
    key = (*extra, *_added)
    with _found_lock:
        if key in _found:
            return _found[key]
    for path, source in candidates(extra):
        found = ask(path, source)
        if asked is not None:
            asked.append(found)
        if found.has_torch:
            with _found_lock:
                _found[key] = found
            return found
    return None


class NoTorchPython(FileNotFoundError):
    """No Python with torch was named or found; the message says where gpuconfig looked and what to do."""


NO_TORCH_PYTHON = (
    "no Python with PyTorch found (looked at the active conda environment, conda's environments, the usual "
    "conda, pyenv and venv folders, PATH and the py launcher): install PyTorch (the Guide tab shows how), "
    f"add a Python in the Probe tab, or set {TORCH_PYTHON_ENV}"
)


def worker_python() -> str:
    """The interpreter a worker runs in when none was chosen: GPUCONFIG_TORCH_PYTHON when set; this one
    when gpuconfig runs in a Python; in the installed app, the first Python found with torch.

    Raises NoTorchPython (an OSError, as when an interpreter cannot be started) when the app finds none.
    """
    chosen = os.environ.get(TORCH_PYTHON_ENV)
    if chosen:
        return executable_in(chosen)
    if not frozen():
        return sys.executable
    found = found_torch_python()
    if found is None:
        raise NoTorchPython(NO_TORCH_PYTHON)
    return found.path


# The oldest Python the probe's worker script starts in (it uses 3.8's assignment expressions; 3.6 and
# 3.7 stop at a SyntaxError), which is also the oldest any PyTorch build in catalog/compat supports.
OLDEST_WORKER_PYTHON = (3, 8)


def plain_python() -> str | None:
    """A Python that can run a worker script's stdlib part (its plan, before torch): this one, or in the
    installed app the worker Python, else the first Python 3.8+ found; None when there is none at all."""
    if not frozen() or os.environ.get(TORCH_PYTHON_ENV):
        return worker_python()
    asked: list[Interpreter] = []  # each candidate is asked once, for torch and for its version alike
    found = found_torch_python(asked=asked)
    if found is not None:
        return found.path
    return next((i.path for i in asked if i.python and _version(i.python) >= OLDEST_WORKER_PYTHON), None)


def _version(text: str) -> tuple[int, ...]:
    return tuple(int(part) for part in text.split(".")[:2] if part.isdigit())
