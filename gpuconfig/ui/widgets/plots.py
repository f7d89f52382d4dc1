"""What every pyqtgraph chart of the app shares: its colours from the theme."""

from __future__ import annotations

import pyqtgraph as pg

from gpuconfig.ui.theme import Colors


def style_axes(plot: pg.PlotWidget, colors: Colors) -> None:
    """Background, axis lines and tick labels in the theme's colours."""
    plot.setBackground(colors.base)
    for name in ("left", "bottom"):
        axis = plot.getAxis(name)
        axis.setPen(pg.mkPen(colors.muted))
        axis.setTextPen(pg.mkPen(colors.text))
