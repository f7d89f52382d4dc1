"""PDF documents from the HTML exports, written by Qt itself (no browser, no extra package)."""

from __future__ import annotations

import os
import tempfile
from pathlib import Path

from PySide6.QtCore import QMarginsF
from PySide6.QtGui import QPageLayout, QPageSize, QPdfWriter, QTextDocument

# Dots per inch of the PDF's coordinates; fonts keep their point sizes at any resolution, so this only sets
# how finely lines and images are placed.
RESOLUTION = 300


def write_pdf(html: str, path: str | Path, title: str = "") -> None:
    """Lay `html` out on A4 pages and write the PDF; the file appears whole or not at all."""
    target = Path(path)
    handle, temporary = tempfile.mkstemp(dir=target.parent, prefix=f".{target.name}.", suffix=".tmp")
    os.close(handle)
    try:
        writer = QPdfWriter(temporary)
        writer.setResolution(RESOLUTION)
        writer.setPageSize(QPageSize(QPageSize.PageSizeId.A4))
        # No margins of the writer's own: Qt's document printing adds 2 cm on every side and a page number.
        writer.setPageMargins(QMarginsF(0, 0, 0, 0), QPageLayout.Unit.Millimeter)
        writer.setTitle(title)
        writer.setCreator("gpuconfig")
        document = QTextDocument()
        document.setHtml(html)
        document.print_(writer)
        del writer  # the file is finished when the writer goes away
        os.replace(temporary, target)
    except BaseException:
        Path(temporary).unlink(missing_ok=True)
        raise
