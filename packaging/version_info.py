"""The app's version for the packaging scripts, and the Windows VERSIONINFO resource built from it.

The version lives in one place, gpuconfig/__init__.py; the spec, the .deb, the tarball and the Inno
Setup script all take it from here (`python packaging/version_info.py` prints it, `--numeric` the
four numbers Windows wants).
"""

from __future__ import annotations

import re
import sys
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
COMPANY = "gpuconfig developers"
DESCRIPTION = "gpuconfig: plan, check and set up PyTorch GPU machines"


def app_version(root: Path = ROOT) -> str:
    """`__version__` as gpuconfig/__init__.py writes it, read without importing the package."""
    text = (root / "gpuconfig" / "__init__.py").read_text(encoding="utf-8")
    found = re.search(r'^__version__\s*=\s*"([^"]+)"', text, re.MULTILINE)
    if found is None:
        raise SystemExit(f"{root / 'gpuconfig' / '__init__.py'}: no __version__ line")
    return found.group(1)


def numeric_version(version: str) -> tuple[int, int, int, int]:
    """The four numbers Windows wants: 0.1.0 -> (0, 1, 0, 0); a suffix such as 'rc1' or '.dev2' is dropped."""
    found = re.match(r"(\d+)(?:\.(\d+))?(?:\.(\d+))?", version)
    if found is None:
        raise ValueError(f"version {version!r} does not start with numbers")
    major, minor, patch = (int(n or 0) for n in found.groups())
    return major, minor, patch, 0


def windows_version_info(version: str) -> Any:
    """A VERSIONINFO resource (what Explorer's Properties > Details shows) for gpuconfig's executables."""
    from PyInstaller.utils.win32.versioninfo import (
        FixedFileInfo,
        StringFileInfo,
        StringStruct,
        StringTable,
        VarFileInfo,
        VarStruct,
        VSVersionInfo,
    )

    numbers = numeric_version(version)
    strings = [
        StringStruct("CompanyName", COMPANY),
        StringStruct("FileDescription", DESCRIPTION),
        StringStruct("FileVersion", version),
        StringStruct("InternalName", "gpuconfig"),
        StringStruct("LegalCopyright", "GPL-3.0-or-later"),
        StringStruct("OriginalFilename", "gpuconfig.exe"),
        StringStruct("ProductName", "gpuconfig"),
        StringStruct("ProductVersion", version),
    ]
    return VSVersionInfo(
        ffi=FixedFileInfo(filevers=numbers, prodvers=numbers, mask=0x3F, flags=0x0, OS=0x40004, fileType=0x1),
        kids=[
            StringFileInfo([StringTable("040904B0", strings)]),  # U.S. English, Unicode
            VarFileInfo([VarStruct("Translation", [0x0409, 1200])]),
        ],
    )


if __name__ == "__main__":
    # `python packaging/version_info.py` prints the version; `--numeric`, the four numbers Windows takes.
    version = app_version(ROOT)
    print(".".join(map(str, numeric_version(version))) if sys.argv[1:] == ["--numeric"] else version)
