"""The window started where it cannot open: one line naming what is missing and exit 2, not Qt's abort."""

from __future__ import annotations

import ctypes
import os
import re
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from gpuconfig.core.system_libraries import apt_command, package_of, system_packages

ROOT = Path(__file__).parents[2]


def start_window(**env: str) -> subprocess.CompletedProcess[str]:
    clean = {key: value for key, value in os.environ.items() if not key.startswith(("QT_", "DISPLAY", "WAYLAND"))}
    clean.pop("XDG_SESSION_TYPE", None)
    return subprocess.run(
        [sys.executable, "-m", "gpuconfig"], env={**clean, **env}, capture_output=True, text=True, timeout=120
    )


def one_line(result: subprocess.CompletedProcess[str]) -> str:
    assert result.returncode == 2, (result.returncode, result.stderr[-2000:])
    assert result.stdout == ""
    lines = result.stderr.splitlines()
    assert len(lines) == 1, result.stderr
    return lines[0]


def test_no_display_is_one_line() -> None:
    line = one_line(start_window())
    assert line.startswith("gpuconfig cannot open its window: there is no display")
    assert "gpuconfig --help" in line


def xcb_plugin_loads() -> bool:
    from PySide6.QtCore import QLibraryInfo

    plugin = Path(QLibraryInfo.path(QLibraryInfo.LibraryPath.PluginsPath)) / "platforms" / "libqxcb.so"
    try:
        ctypes.CDLL(str(plugin))
    except OSError:
        return False
    return True


@pytest.mark.skipif(not xcb_plugin_loads(), reason="the system libraries of Qt's xcb plugin are not installed")
def test_unreachable_x_server_is_one_line(tmp_path: Path) -> None:
    assert not Path("/tmp/.X11-unix/X97").exists()
    line = one_line(start_window(DISPLAY=":97", XAUTHORITY=str(tmp_path / "none")))
    assert line.startswith("gpuconfig cannot open its window: cannot connect to the X display ':97'")


@pytest.mark.skipif(shutil.which("gcc") is None, reason="needs gcc to build a platform plugin")
def test_missing_plugin_library_names_it(tmp_path: Path) -> None:
    """A real platform plugin linked against a library that is not there, as libqxcb.so is on a bare machine."""
    (tmp_path / "absent.c").write_text("int gpuconfig_absent(void) { return 1; }\n")
    (tmp_path / "plugin.c").write_text(
        "int gpuconfig_absent(void);\nint qt_plugin(void) { return gpuconfig_absent(); }\n"
    )
    subprocess.run(
        [
            "gcc",
            "-shared",
            "-fPIC",
            "-Wl,-soname,libgpuconfig-absent.so.1",
            "-o",
            "libgpuconfig-absent.so.1",
            "absent.c",
        ],
        cwd=tmp_path,
        check=True,
    )
    (tmp_path / "libgpuconfig-absent.so").symlink_to("libgpuconfig-absent.so.1")
    subprocess.run(
        ["gcc", "-shared", "-fPIC", "-o", "libqxcb.so", "plugin.c", "-L.", "-lgpuconfig-absent"],
        cwd=tmp_path,
        check=True,
    )
    for stub in ("libgpuconfig-absent.so.1", "libgpuconfig-absent.so"):
        (tmp_path / stub).unlink()
    line = one_line(start_window(QT_QPA_PLATFORM="xcb", QT_QPA_PLATFORM_PLUGIN_PATH=str(tmp_path), DISPLAY=":0"))
    assert "the system library libgpuconfig-absent.so.1 is missing" in line
    assert line.endswith(apt_command())


def test_one_list_of_system_libraries() -> None:
    """README, the .deb's control file, CI and the start-up check all read resources/linux-libraries.txt."""
    packages = system_packages()
    names = [package.install_name for package in packages]
    assert {"libxcb-cursor0", "libxcb-icccm4", "libxcb-keysyms1", "libegl1", "libxkbcommon-x11-0"} <= set(names)
    assert package_of("libxcb-icccm.so.4") is not None
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    commands = re.findall(r"sudo apt(?:-get)? install lib[^`]*", readme.replace("\n", " "))
    assert commands, "README names no apt command for the system libraries"
    assert all(" ".join(command.split()) == apt_command() for command in commands), commands
    control = (ROOT / "packaging" / "linux" / "control.in").read_text(encoding="utf-8")
    assert "@SYSTEM_LIBRARIES@" in control and "libxcb" not in control
    assert "linux-libraries.txt" in (ROOT / ".ci" / "run").read_text(encoding="utf-8")


def test_qt_for_python_missing_is_not_called_a_system_library(tmp_path: Path) -> None:
    """With PySide6 hidden (a broken install), the line says Qt for Python does not load, not a library."""
    (tmp_path / "PySide6").mkdir()
    (tmp_path / "PySide6" / "__init__.py").write_text("raise ImportError('No module named PySide6.QtGui')\n")
    line = one_line(start_window(PYTHONPATH=str(tmp_path), DISPLAY=":0"))
    assert line.startswith("gpuconfig cannot open its window: Qt for Python does not load (")
    assert "apt-get" not in line
