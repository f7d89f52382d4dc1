"""The system libraries the window needs on Linux, read from the one list that ships with gpuconfig."""

from __future__ import annotations

import re
from dataclasses import dataclass
from pathlib import Path

from gpuconfig.core.paths import resources_dir

LIST_FILE = "linux-libraries.txt"


@dataclass(frozen=True)
class SystemPackage:
    """A Debian/Ubuntu package: its names (newest release's first) and the libraries it provides."""

    names: tuple[str, ...]
    libraries: tuple[str, ...]

    @property
    def install_name(self) -> str:
        """The name apt installs on every supported release (newer releases provide the older name)."""
        return self.names[-1]


def system_packages(path: Path | None = None) -> list[SystemPackage]:
    path = path or resources_dir() / LIST_FILE
    packages = []
    for line in path.read_text(encoding="utf-8").splitlines():
        fields = line.split("#", 1)[0].split()
        if fields:
            packages.append(SystemPackage(tuple(fields[0].split("|")), tuple(fields[1:])))
    return packages


def apt_command(packages: list[SystemPackage] | None = None) -> str:
    """The one command that installs every library of the list on Debian or Ubuntu."""
    packages = packages if packages is not None else system_packages()
    return "sudo apt-get install " + " ".join(package.install_name for package in packages)


def missing_library(message: str) -> str | None:
    """The library a loader error names ("libxcb-icccm.so.4: cannot open shared object file ...")."""
    found = re.search(r"(lib[\w.+-]+\.so(?:\.\d+)*)", message)
    return found.group(1) if found else None


def package_of(library: str, packages: list[SystemPackage] | None = None) -> SystemPackage | None:
    packages = packages if packages is not None else system_packages()
    return next((package for package in packages if library in package.libraries), None)
