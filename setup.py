"""The package build (pyproject.toml says the rest): it compiles the interface's translations first, so a pip
install, an editable one and the bundles all ship the .qm files Qt loads (packaging/translations.py)."""

import sys
from pathlib import Path

from setuptools import setup
from setuptools.command.build_py import build_py


class BuildWithTranslations(build_py):
    def run(self) -> None:
        sys.path.insert(0, str(Path(__file__).resolve().parent / "packaging"))
        from translations import release

        release()
        super().run()


setup(cmdclass={"build_py": BuildWithTranslations})
