"""Before Qt starts: can the window open here, and if not, the one line that says why.

Qt ends the process with an abort (a page of plugin text and a core dump) when its platform plugin cannot
load or reach its display. These checks look for the same causes first, in the order Qt meets them:
QtGui's own libraries, the platform plugin's libraries, then the display. Nothing here draws or imports
QtGui before it is known to load.
"""

from __future__ import annotations

import ctypes
import os
import sys
from collections.abc import Mapping
from pathlib import Path

from gpuconfig.core.system_libraries import apt_command, missing_library, package_of

# Platforms that draw into memory or a framebuffer of their own: no display server to reach.
SERVERLESS_PLATFORMS = ("offscreen", "minimal", "minimalegl", "vnc", "linuxfb", "eglfs", "vkkhrdisplay")


def start_problem(env: Mapping[str, str] | None = None) -> str | None:
    """None when the window can start; otherwise one line naming what is missing and how to get it."""
    env = os.environ if env is None else env
    try:
        import PySide6.QtGui  # noqa: F401  (its libraries: EGL, GL, fontconfig, xkbcommon)
    except ImportError as exc:
        return _library_problem(str(exc))
    if not sys.platform.startswith("linux"):
        return None
    problems = [_platform_problem(name, env) for name in _platforms(env)]
    if any(problem is None for problem in problems):
        return None
    return problems[0]


def _platforms(env: Mapping[str, str]) -> list[str]:
    """The platform plugins Qt will try, first to last (QT_QPA_PLATFORM, else the session's)."""
    requested = [part.split(":", 1)[0].strip() for part in env.get("QT_QPA_PLATFORM", "").split(";")]
    if any(requested):
        return [name for name in requested if name]
    if env.get("XDG_SESSION_TYPE") == "wayland" or (env.get("WAYLAND_DISPLAY") and not env.get("DISPLAY")):
        return ["wayland", "xcb"]
    return ["xcb"]


def _platform_problem(name: str, env: Mapping[str, str]) -> str | None:
    if name in SERVERLESS_PLATFORMS:
        return None
    if name == "xcb" and not env.get("DISPLAY"):
        return _no_display()
    if name == "wayland" and not _wayland_socket(env).exists():
        if not env.get("WAYLAND_DISPLAY"):
            return _no_display()
        return f"gpuconfig cannot open its window: no Wayland display at {_wayland_socket(env)}."
    plugin = _plugin_file(name, env)
    if plugin is None:
        return f"gpuconfig cannot open its window: Qt's '{name}' platform plugin is not installed (reinstall PySide6)."
    try:
        ctypes.CDLL(str(plugin))
    except OSError as exc:
        return _library_problem(str(exc))
    if name == "xcb":
        return _x_display_problem(env["DISPLAY"])
    return None


def _no_display() -> str:
    return (
        "gpuconfig cannot open its window: there is no display (DISPLAY and WAYLAND_DISPLAY are not set); "
        "start it in a desktop session, or use its commands without a window (gpuconfig --help)."
    )


def _library_problem(loader_message: str) -> str:
    library = missing_library(loader_message)
    if library is None:  # not a system library: PySide6 itself is missing or broken
        first_line = (loader_message.strip().splitlines() or ["no reason given"])[0]
        return f"gpuconfig cannot open its window: Qt for Python does not load ({first_line}); reinstall gpuconfig."
    package = package_of(library)
    named = f"{library} (package {package.install_name})" if package else library
    return (
        f"gpuconfig cannot open its window: the system library {named} is missing; "
        f"on Debian or Ubuntu install what the window needs: {apt_command()}"
    )


def _plugin_file(name: str, env: Mapping[str, str]) -> Path | None:
    from PySide6.QtCore import QLibraryInfo

    folders = [Path(p) for p in env.get("QT_QPA_PLATFORM_PLUGIN_PATH", "").split(os.pathsep) if p]
    folders += [Path(p) / "platforms" for p in env.get("QT_PLUGIN_PATH", "").split(os.pathsep) if p]
    folders.append(Path(QLibraryInfo.path(QLibraryInfo.LibraryPath.PluginsPath)) / "platforms")
    return next((folder / f"libq{name}.so" for folder in folders if (folder / f"libq{name}.so").is_file()), None)


def _wayland_socket(env: Mapping[str, str]) -> Path:
    display = env.get("WAYLAND_DISPLAY") or "wayland-0"
    return Path(display) if os.path.isabs(display) else Path(env.get("XDG_RUNTIME_DIR", "/nonexistent")) / display


def _x_display_problem(display: str) -> str | None:
    """Connect to the X server the way Qt's xcb plugin will (libxcb is loaded by then)."""
    xcb = ctypes.CDLL("libxcb.so.1")
    xcb.xcb_connect.restype = ctypes.c_void_p
    xcb.xcb_connect.argtypes = [ctypes.c_char_p, ctypes.c_void_p]
    xcb.xcb_connection_has_error.argtypes = [ctypes.c_void_p]
    xcb.xcb_disconnect.argtypes = [ctypes.c_void_p]
    connection = xcb.xcb_connect(display.encode(), None)
    failed = xcb.xcb_connection_has_error(connection)
    xcb.xcb_disconnect(connection)
    if failed:
        return (
            f"gpuconfig cannot open its window: cannot connect to the X display '{display}' "
            "(is the X server running, and may this user use it?)."
        )
    return None
