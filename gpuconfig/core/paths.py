"""Where gpuconfig's shipped data and the user's own data live."""

from __future__ import annotations

import os
from pathlib import Path

import platformdirs

import gpuconfig.catalog
import gpuconfig.resources

APP_NAME = "gpuconfig"
DATA_DIR_ENV = "GPUCONFIG_DATA_DIR"


def catalog_dir() -> Path:
    """The shipped catalog files, found the same way in a checkout, a wheel and a bundle.

    catalog/ is installed as the package gpuconfig.catalog (see pyproject.toml), so its files sit next
    to its __init__; importlib.resources would say the same but loads zipfile and more at start-up.
    """
    return Path(gpuconfig.catalog.__file__).parent


def resources_dir() -> Path:
    return Path(gpuconfig.resources.__file__).parent


def user_data_dir() -> Path:
    """The user's database and settings; GPUCONFIG_DATA_DIR moves it (tests, portable installs)."""
    override = os.environ.get(DATA_DIR_ENV)
    path = Path(override) if override else Path(platformdirs.user_data_dir(APP_NAME, appauthor=False))
    path.mkdir(parents=True, exist_ok=True)
    return path
