"""Where gpuconfig's shipped data and the user's own data live."""

from __future__ import annotations

import importlib
import os
import re
import tempfile
from pathlib import Path
from types import ModuleType

import platformdirs

import gpuconfig

APP_NAME = "gpuconfig"
DATA_DIR_ENV = "GPUCONFIG_DATA_DIR"


def catalog_dir() -> Path:
    """The shipped catalog files, found the same way in a checkout, a wheel and a bundle.

    catalog/ is installed as the package gpuconfig.catalog (see pyproject.toml), so its files sit in
    the package's folder; importlib.resources would say the same but loads zipfile and more at start-up.
    The folder is read from __path__, not __file__: in the bundle the package is its data folder alone
    (a namespace package, no __init__ to have a __file__). When that folder is gone (a damaged
    installation), this is where it should be, and whoever reads it says what is missing.
    """
    return _folder("catalog")


def resources_dir() -> Path:
    return _folder("resources")


def _folder(name: str) -> Path:
    try:
        package: ModuleType = importlib.import_module(f"gpuconfig.{name}")
    except ModuleNotFoundError:
        return Path(next(iter(gpuconfig.__path__))) / name
    return Path(next(iter(package.__path__)))


def user_data_dir() -> Path:
    """The user's database and settings; GPUCONFIG_DATA_DIR moves it (tests, portable installs)."""
    override = os.environ.get(DATA_DIR_ENV)
    path = Path(override) if override else Path(platformdirs.user_data_dir(APP_NAME, appauthor=False))
    path.mkdir(parents=True, exist_ok=True)
    return path


def file_stem(words: str) -> str:
    """A file name suggested for an export: lower case, runs of anything but letters, digits and dots as '-'."""
    return re.sub(r"[^a-z0-9.]+", "-", words.lower()).strip("-")


def write_text_atomic(path: Path, text: str) -> None:
    """Write a whole file or nothing: a temporary file beside `path`, then a replace. A reader never sees
    half a file, and a failed write leaves the old one as it was."""
    path = Path(path)
    handle, temporary = tempfile.mkstemp(dir=path.parent, prefix=f".{path.name}.", suffix=".tmp")
    try:
        with os.fdopen(handle, "w", encoding="utf-8", newline="") as out:
            out.write(text)
        os.replace(temporary, path)
    except BaseException:
        Path(temporary).unlink(missing_ok=True)
        raise
