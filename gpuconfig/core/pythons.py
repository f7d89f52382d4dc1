"""The Python that runs gpuconfig's workers, and a clean environment for every program gpuconfig starts.

The probe's benchmarks and the traced estimator import torch in a worker process (the window and the core
never import it).
Installed with pip, gpuconfig runs them in its own interpreter. The installed app (a PyInstaller bundle)
has no interpreter a worker could use: sys.executable is the app itself. It looks for one with torch:
GPUCONFIG_TORCH_PYTHON, the Pythons added in the Probe tab (kept in the user's settings), the active conda
environment or venv, the environments conda lists, the usual conda and venv folders, and python3/python
on PATH (and `py -0p` on Windows).

A program started from the bundle must not inherit what the bundle added to the environment: the
bootloader's LD_LIBRARY_PATH (Linux) or DLL directory (Windows) would load the bundle's libraries into
the user's Python, and Qt's plugin paths would load the bundle's plugins into the user's Qt programs
(PyInstaller, "Common Issues and Pitfalls", launching external programs).

PyInstaller's bootstrap removes VIRTUAL_ENV from the app's environment (pyiboot01_bootstrap.py), so in
the installed app an activated venv is found through PATH, where activation put its bin/ first.
"""

from __future__ import annotations

import contextlib
import importlib.util
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


def interpreter(path: str, source: str = "chosen") -> Interpreter:
    """`ask`, once per Python with torch in a session; one without is asked again, in case torch came since."""
    key = os.path.normcase(os.path.abspath(executable_in(path)))
    with _found_lock:
        if key in _asked:
            return _asked[key]
    found = ask(path, source)
    if found.has_torch:
        with _found_lock:
            _asked[key] = found
    return found


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
    found += [(p, "added") for p in [*extra, *added_pythons()]]
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
_asked: dict[str, Interpreter] = {}  # the Pythons with torch asked so far, by normalised path
_found_lock = threading.Lock()
# Where the Probe tab's "Add..." keeps the Pythons the user added (a JSON list in the store's settings).
ADDED_SETTING = "probe.pythons"


def added_from_setting(text: str | None) -> list[str]:
    """The saved list of added Pythons; a damaged setting is an empty list."""
    try:
        saved = json.loads(text) if text else []
    except ValueError:
        return []
    return [p for p in saved if isinstance(p, str)] if isinstance(saved, list) else []


def added_pythons() -> list[str]:
    """The Pythons the user added in the Probe tab, as saved now: the window, the command line and the
    self-test read the same setting, so each asks them before any found."""
    from gpuconfig.core.store_file import saved_setting

    return added_from_setting(saved_setting(ADDED_SETTING))


def found_torch_python(extra: Sequence[str] = (), asked: list[Interpreter] | None = None) -> Interpreter | None:
    """The first Python with torch. A find is kept for the session; "none" is not, so a Python the user
    installs or adds meanwhile is found at the next look. Each Python asked on the way goes into `asked`."""
    key = (*extra, *added_pythons())
    with _found_lock:
        if key in _found:
            return _found[key]
    for path, source in candidates(extra):
        found = interpreter(path, source)
        if asked is not None:
            asked.append(found)
        if found.has_torch:
            with _found_lock:
                _found[key] = found
            return found
    return None


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


# The oldest Python the probe's worker script starts in (it uses 3.8's assignment expressions; 3.6 and
# 3.7 stop at a SyntaxError), which is also the oldest any PyTorch build in catalog/compat supports.
OLDEST_WORKER_PYTHON = (3, 8)


def plain_python() -> str | None:
    """A Python that can run a worker script's stdlib part (its plan, before torch): this one, or in the
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
