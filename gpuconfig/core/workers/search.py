"""Where gpuconfig looks for a Python with torch, in the order it prefers them.

GPUCONFIG_TORCH_PYTHON, the Pythons added in the Probe tab (kept in the user's settings), the active conda
environment or venv, this interpreter (not in the installed app, whose sys.executable is the app itself),
the environments conda lists, the usual conda and venv folders, and python3/python on PATH (and `py -0p`
on Windows).

PyInstaller's bootstrap removes VIRTUAL_ENV from the app's environment (pyiboot01_bootstrap.py), so in
the installed app an activated venv is found through PATH, where activation put its bin/ first.
"""

from __future__ import annotations

import json
import os
import re
import shutil
import subprocess
import sys
import threading
from collections.abc import Mapping, Sequence
from pathlib import Path

from gpuconfig.core.workers.environment import bundle_dir, frozen, inside, run_program
from gpuconfig.core.workers.interpreters import ASK_TIMEOUT_S, Interpreter, ask, executable_in, interpreter

TORCH_PYTHON_ENV = "GPUCONFIG_TORCH_PYTHON"
# Where the Probe tab's "Add..." keeps the Pythons the user added (a JSON list in the store's settings).
ADDED_SETTING = "probe.pythons"


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
        if where and not (bundle and inside(where, bundle)):
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


_found: dict[tuple[str, ...], Interpreter] = {}  # the first Python with torch, by the Pythons added
_found_lock = threading.Lock()


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
