"""Light and dark themes. "system" follows the desktop's colour scheme and changes with it."""

from __future__ import annotations

from dataclasses import dataclass

from PySide6.QtGui import QColor, QFont, QGuiApplication, QPalette
from PySide6.QtWidgets import QApplication, QLabel

THEMES = ("system", "light", "dark")


@dataclass(frozen=True)
class Colors:
    window: str
    base: str
    alternate: str
    text: str
    muted: str
    button: str
    highlight: str
    highlight_text: str
    link: str
    accent: str  # user-edited values (price overrides)
    warning: str
    error: str
    success: str
    grid: str


LIGHT = Colors(
    window="#f4f5f7",
    base="#ffffff",
    alternate="#f7f8fa",
    text="#1d2330",
    muted="#5f6b7a",
    button="#eceef2",
    highlight="#2f6fd6",
    highlight_text="#ffffff",
    link="#1f5fc4",
    accent="#b0530c",
    warning="#9a6700",
    error="#c62828",
    success="#2e7d32",
    grid="#d9dde3",
)
DARK = Colors(
    window="#1e2128",
    base="#16181d",
    alternate="#1b1e24",
    text="#e3e6eb",
    muted="#9aa4b2",
    button="#2a2e37",
    highlight="#3d7be0",
    highlight_text="#ffffff",
    link="#7fb0ff",
    accent="#f0a35e",
    warning="#e3b341",
    error="#ff6b6b",
    success="#6cc070",
    grid="#333844",
)
# What a GPU's memory holds, one colour each (stacked bar, legends): mid-tone hues that read on both themes.
MEMORY_COLORS = {
    "weights": "#4e79a7",
    "gradients": "#f28e2b",
    "optimizer": "#e15759",
    "activations": "#59a14f",
    "kv_cache": "#b07aa1",
    "overhead": "#8c96a5",
}

# What a build draws power for (the power bar), in the same mid-tone family.
POWER_COLORS = {"gpu": "#4e79a7", "cpu": "#f28e2b", "rest": "#8c96a5"}
# A problem's severity, as the build checker grades it: the theme colour role each is shown in.
SEVERITY_ROLES = {"fail": "error", "warn": "warning", "info": "link"}


def text_on(background: str) -> QColor:
    """Black or white, whichever reads on the background."""
    color = QColor(background)
    luminance = 0.299 * color.red() + 0.587 * color.green() + 0.114 * color.blue()
    return QColor("#111111") if luminance > 150 else QColor("#ffffff")


_palette_applied = False  # once apply() has set a palette, the application's palette is ours, not the desktop's


def system_is_dark() -> bool:
    """Whether the desktop uses a dark scheme. Before gpuconfig sets a palette it is read from the
    platform's own palette (Qt 6.5+ follows the system scheme there): asking styleHints().colorScheme()
    would load PySide's whole Qt-namespace enum set (about 20 ms) before the first paint. After that the
    palette is gpuconfig's own, so the style hints answer."""
    if _palette_applied:
        from PySide6.QtCore import Qt  # only here: the enum set loads on a later theme change, not at start-up

        return QGuiApplication.styleHints().colorScheme() == Qt.ColorScheme.Dark
    window = QGuiApplication.palette().color(QPalette.ColorRole.Window)
    text = QGuiApplication.palette().color(QPalette.ColorRole.WindowText)
    return window.lightness() < text.lightness()


def resolve(theme: str) -> Colors:
    """The colours for a theme name; "system" asks the desktop."""
    if theme == "dark" or (theme == "system" and system_is_dark()):
        return DARK
    return LIGHT


def palette(colors: Colors) -> QPalette:
    p = QPalette()
    role = QPalette.ColorRole
    for r, value in (
        (role.Window, colors.window),
        (role.WindowText, colors.text),
        (role.Base, colors.base),
        (role.AlternateBase, colors.alternate),
        (role.Text, colors.text),
        (role.Button, colors.button),
        (role.ButtonText, colors.text),
        (role.Highlight, colors.highlight),
        (role.HighlightedText, colors.highlight_text),
        (role.Link, colors.link),
        (role.BrightText, colors.error),  # what mark(label, "error") shows
        (role.ToolTipBase, colors.base),
        (role.ToolTipText, colors.text),
        (role.PlaceholderText, colors.muted),
        (role.Mid, colors.grid),
        (role.Midlight, colors.grid),
    ):
        p.setColor(r, QColor(value))
    disabled = QPalette.ColorGroup.Disabled
    for r in (role.Text, role.WindowText, role.ButtonText):
        p.setColor(disabled, r, QColor(colors.muted))
    return p


def apply(app: QApplication, theme: str) -> Colors:
    """Style the whole application; returns the colours in use so views can draw with them.

    Only a palette, no style sheet: a style sheet costs tens of milliseconds at start-up and makes
    every later paint go through the slower style-sheet style.
    """
    colors = resolve(theme)
    if app.style().name().casefold() != "fusion":
        app.setStyle("Fusion")
    app.setPalette(palette(colors))
    global _palette_applied
    _palette_applied = True
    return colors


def mark(label: QLabel, role: str) -> None:
    """Give a label a look by palette role, so it follows theme changes by itself."""
    if role == "heading":
        font = label.font()
        font.setPointSizeF(font.pointSizeF() * 1.6)
        font.setWeight(QFont.Weight.DemiBold)
        label.setFont(font)
    elif role == "muted":
        label.setForegroundRole(QPalette.ColorRole.PlaceholderText)
    elif role == "error":
        label.setForegroundRole(QPalette.ColorRole.BrightText)
    else:
        raise ValueError(f"unknown label role {role!r}")


def tint(label: QLabel, color: str) -> None:
    """Give one label a text colour of its own (a verdict's green or red); re-tint on a theme change."""
    palette = label.palette()
    palette.setColor(QPalette.ColorRole.WindowText, QColor(color))
    label.setPalette(palette)
