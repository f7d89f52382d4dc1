"""The operating systems the setup guide writes commands for."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from gpuconfig.core.i18n import QT_TRANSLATE_NOOP, translate


@dataclass(frozen=True)
class OsInfo:
    """id: the guide's name for it; wheel_os: whose PyTorch wheels it installs (linux, windows, macos);
    shell: the shell its commands are written for."""

    id: str
    name: str
    wheel_os: str
    shell: str
    wsl: bool = False

    @property
    def linux(self) -> bool:
        return self.wheel_os == "linux"

    @property
    def label(self) -> str:
        """The name in the language in use (`name` stays English, as the JSON form gives it)."""
        return translate("Guide", self.name)


OSES: dict[str, OsInfo] = {
    o.id: o
    for o in (
        OsInfo("ubuntu-22.04", QT_TRANSLATE_NOOP("Guide", "Ubuntu 22.04 LTS"), "linux", "bash"),
        OsInfo("ubuntu-24.04", QT_TRANSLATE_NOOP("Guide", "Ubuntu 24.04 LTS"), "linux", "bash"),
        OsInfo("debian-12", QT_TRANSLATE_NOOP("Guide", "Debian 12 (bookworm)"), "linux", "bash"),
        OsInfo("windows-11", QT_TRANSLATE_NOOP("Guide", "Windows 11"), "windows", "powershell"),
        # WSL2 runs Linux wheels, but the GPU driver is the Windows one.
        OsInfo("wsl2", QT_TRANSLATE_NOOP("Guide", "Ubuntu on WSL2 (Windows 11)"), "linux", "bash", wsl=True),
        OsInfo("macos", QT_TRANSLATE_NOOP("Guide", "macOS on Apple silicon"), "macos", "bash"),
    )
}


def os_info(os_id: str) -> OsInfo:
    """The OS by id; a ValueError names the id and the known ones."""
    try:
        return OSES[os_id]
    except KeyError:
        raise ValueError(f"unknown OS {os_id!r}; expected one of {', '.join(OSES)}") from None


# The start of /etc/os-release's PRETTY_NAME (what the probe records) for each Linux the guide knows.
LINUX_NAMES = (("Ubuntu 22.04", "ubuntu-22.04"), ("Ubuntu 24.04", "ubuntu-24.04"), ("Debian GNU/Linux 12", "debian-12"))


def os_from_report(report: Mapping[str, Any]) -> str | None:
    """The guide's OS id for the machine a probe report describes (its system.os section), or None."""
    system = report.get("system")
    found = system.get("os") if isinstance(system, Mapping) else None
    if not isinstance(found, Mapping):
        return None
    name, kind = str(found.get("name", "")), str(found.get("system", ""))
    if "microsoft" in str(found.get("release", "")).lower():  # WSL kernels are named ...-microsoft-standard-WSL2
        return "wsl2"
    if kind == "Windows":
        return "windows-11"
    if kind == "Darwin":
        return "macos"
    for prefix, os_id in LINUX_NAMES:
        if name.startswith(prefix):
            return os_id
    return None
