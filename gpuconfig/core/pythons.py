"""The Python that runs gpuconfig's workers, and a clean environment for every program gpuconfig starts.

The probe's benchmarks and the traced estimator import torch in a worker process (DESIGN.md, layers).
Installed with pip, gpuconfig runs them in its own interpreter. The installed app (a PyInstaller bundle)
has no interpreter a worker could use: sys.executable is the app itself. It looks for one with torch:
GPUCONFIG_TORCH_PYTHON, the active conda environment or venv, the environments conda lists, the usual
conda and venv folders, and python3/python on PATH (and `py -0p` on Windows).

A program started from the bundle must not inherit what the bundle added to the environment: the
bootloader's LD_LIBRARY_PATH (Linux) or DLL directory (Windows) would load the bundle's libraries into
the user's Python, and Qt's plugin paths would load the bundle's plugins into the user's Qt programs
(PyInstaller, "Common Issues and Pitfalls", launching external programs).
"""

from __future__ import annotations

import contextlib
import json
import os
import shutil
import subprocess
import sys
import threading
from collections.abc import Iterator, Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path

TORCH_PYTHON_ENV = "GPUCONFIG_TORCH_PYTHON"
# Set by the bundle for itself: PyInstaller's Qt run-time hook, and Python's own home.
BUNDLE_VARIABLES = ("PYTHONHOME", "PYTHONPATH", "QT_PLUGIN_PATH", "QT_QPA_PLATFORM_PLUGIN_PATH", "QML2_IMPORT_PATH")
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
    for name in BUNDLE_VARIABLES:
        env.pop(name, None)
    for name in [n for n in env if n.startswith(("_PYI_", "_MEIPASS"))]:
        del env[name]  # the bootloader's notes to a copy of itself; a program of the user's has no use for them
    for name in ("PATH", "LD_LIBRARY_PATH"):
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


def run_program(command: Sequence[str], timeout: float, **options: object) -> subprocess.CompletedProcess[str]:
    """subprocess.run for a program of the user's (a Python, boltctl): the clean environment, text out."""
    with launching():
        return subprocess.run(  # type: ignore[call-overload,no-any-return]
            list(command),
            capture_output=True,
            text=True,
            timeout=timeout,
            check=False,
            env=clean_environment(),
            **options,
        )


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
    return [line.split()[-1] for line in done.stdout.splitlines() if line.strip().lower().endswith(".exe")]


def candidates(
    extra: Sequence[str] = (), env: Mapping[str, str] | None = None, home: Path | None = None
) -> list[tuple[str, str]]:
    """Every Python worth asking, with how it was found, each once, in the order they are preferred."""
    env = os.environ if env is None else env
    home = home or Path.home()
    found: list[tuple[str, str]] = []
    if env.get(TORCH_PYTHON_ENV):
        found.append((env[TORCH_PYTHON_ENV], TORCH_PYTHON_ENV))
    found += [(p, "added") for p in extra]
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


_found: dict[tuple[str, ...], Interpreter | None] = {}
_found_lock = threading.Lock()


def found_torch_python(extra: Sequence[str] = ()) -> Interpreter | None:
    """The first Python with torch, looked for once per session (the answer is kept; forget() drops it)."""
    key = tuple(extra)
    with _found_lock:
        if key not in _found:
            for path, source in candidates(extra):
                found = ask(path, source)
                if found.has_torch:
                    _found[key] = found
                    break
            else:
                _found[key] = None
        return _found[key]


def forget() -> None:
    with _found_lock:
        _found.clear()


class NoTorchPython(FileNotFoundError):
    """No Python with torch was named or found; the message says where gpuconfig looked and what to do."""


NO_TORCH_PYTHON = (
    "no Python with PyTorch found (looked at the active conda environment or venv, conda's environments, "
    "~/miniconda3, ~/anaconda3, ~/miniforge3, ~/.venv and PATH): install PyTorch (the Guide tab shows how), "
    f"choose a Python in the Probe tab, or set {TORCH_PYTHON_ENV}"
)


def worker_python() -> str:
    """The interpreter a worker runs in when none was chosen: GPUCONFIG_TORCH_PYTHON when set; this one
    when gpuconfig runs in a Python; in the installed app, the first Python found with torch.

    Raises NoTorchPython (an OSError, as when an interpreter cannot be started) when the app finds none.
    """
    chosen = os.environ.get(TORCH_PYTHON_ENV)
    if chosen:
        return chosen
    if not frozen():
        return sys.executable
    found = found_torch_python()
    if found is None:
        raise NoTorchPython(NO_TORCH_PYTHON)
    return found.path


def plain_python() -> str | None:
    """Any Python that can run a worker script's stdlib part (its plan, before torch): this one, or in the
    installed app the worker Python or any Python found; None when there is none at all."""
    if not frozen():
        return sys.executable
    with contextlib.suppress(OSError):
        return worker_python()
    for path, _source in candidates():
        if os.path.isfile(path):
            return path
    return None
