"""Where gpuconfig's shipped data and the user's own data live."""

from __future__ import annotations

import importlib
import os
import re
from collections.abc import Iterator
from contextlib import contextmanager
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


def user_data_dir(create: bool = True) -> Path:
    """The user's database and settings; GPUCONFIG_DATA_DIR moves it (tests, portable installs). Created
    unless `create` is false (a reader that finds nothing there needs no folder)."""
    override = os.environ.get(DATA_DIR_ENV)
    path = Path(override) if override else Path(platformdirs.user_data_dir(APP_NAME, appauthor=False))
    if create:
        path.mkdir(parents=True, exist_ok=True)
    return path


def file_stem(words: str) -> str:
    """A file name suggested for an export: lower case, runs of anything but letters, digits and dots as '-'."""
    return re.sub(r"[^a-z0-9.]+", "-", words.lower()).strip("-")


@contextmanager
def replacing(path: Path) -> Iterator[Path]:
    """A new file beside `path` to write instead of it. When the block ends without an error the file is
    flushed to disk and replaces `path`, with the permissions an ordinary save gives (the old file's, or
    those the umask leaves a new one); on an error it is removed and `path` stays as it was. Its name is
    ASCII, so a writer that cannot spell the target's own name (Qt, for bytes that are not UTF-8) can open it.
    """
    path = Path(path)
    temporary = _new_file(path)
    try:
        yield temporary
        if path.exists():
            os.chmod(temporary, os.stat(path).st_mode & 0o7777)
        handle = os.open(temporary, os.O_RDWR)
        try:
            os.fsync(handle)
        finally:
            os.close(handle)
        os.replace(temporary, path)
        _sync_folder(path.parent)
    except BaseException:
        temporary.unlink(missing_ok=True)
        raise


def write_text_atomic(path: Path, text: str) -> None:
    """Write a whole file or nothing (see `replacing`): a reader never sees half a file, and a failed
    write leaves the old one as it was."""
    with replacing(path) as temporary, open(temporary, "w", encoding="utf-8", newline="") as out:
        out.write(text)


def _new_file(path: Path) -> Path:
    # os.open applies the umask, as for any new file; mkstemp would make it private (0600) instead.
    stem = file_stem(path.name) or APP_NAME
    while True:
        temporary = path.parent / f".{stem}.{os.urandom(4).hex()}.tmp"
        try:
            os.close(os.open(temporary, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o666))
        except FileExistsError:
            continue
        return temporary


def _sync_folder(folder: Path) -> None:
    """Make the rename itself durable (POSIX; Windows has no handle on a folder to flush)."""
    if os.name != "posix":
        return
    handle = os.open(folder, os.O_RDONLY)
    try:
        os.fsync(handle)
    finally:
        os.close(handle)
