"""Where gpuconfig's shipped data and the user's own data live."""

from __future__ import annotations

import os
from importlib import resources
from pathlib import Path

import platformdirs

APP_NAME = "gpuconfig"
DATA_DIR_ENV = "GPUCONFIG_DATA_DIR"


def catalog_dir() -> Path:
    """The shipped catalog files, found the same way in a checkout, a wheel and a bundle."""
    return Path(str(resources.files("gpuconfig.catalog")))


def resources_dir() -> Path:
    return Path(str(resources.files("gpuconfig.resources")))


def user_data_dir() -> Path:
    """The user's database and settings; GPUCONFIG_DATA_DIR moves it (tests, portable installs)."""
    override = os.environ.get(DATA_DIR_ENV)
    path = Path(override) if override else Path(platformdirs.user_data_dir(APP_NAME, appauthor=False))
    path.mkdir(parents=True, exist_ok=True)
    return path
