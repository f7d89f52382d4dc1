"""PDF documents from the HTML exports, written by Qt itself (no browser, no extra package)."""

from __future__ import annotations

import os
from pathlib import Path

from PySide6.QtCore import QMarginsF
from PySide6.QtGui import QFontDatabase, QFontInfo, QPageLayout, QPageSize, QPdfWriter, QTextDocument

from gpuconfig.core.paths import replacing

# Dots per inch of the PDF's coordinates; fonts keep their point sizes at any resolution, so this only sets
# how finely lines and images are placed.
RESOLUTION = 300


def printable(html: str) -> str:
    """The HTML as Qt's text engine should lay it out for print: preformatted text wraps inside the page
    (QTextDocument has no overflow, so a long line runs off it) in the system's fixed font (it does not fall
    back through a CSS font list)."""
    mono = QFontInfo(QFontDatabase.systemFont(QFontDatabase.SystemFont.FixedFont)).family()
    rule = f"<style>pre {{ white-space: pre-wrap; }} pre, pre code, code {{ font-family: '{mono}'; }}</style>"
    return html.replace("</head>", rule + "</head>", 1)


def write_pdf(html: str, path: str | Path, title: str = "") -> None:
    """Lay `html` out on A4 pages and write the PDF; the file appears whole or not at all, and OSError says
    when Qt could not write it (Qt itself only warns)."""
    with replacing(Path(path)) as temporary:
        writer = QPdfWriter(str(temporary))
        writer.setResolution(RESOLUTION)
        writer.setPageSize(QPageSize(QPageSize.PageSizeId.A4))
        # No margins of the writer's own: Qt's document printing adds 2 cm on every side and a page number.
        writer.setPageMargins(QMarginsF(0, 0, 0, 0), QPageLayout.Unit.Millimeter)
        writer.setTitle(title)
        writer.setCreator("gpuconfig")
        document = QTextDocument()
        document.setHtml(printable(html))
        document.print_(writer)
        del writer  # the file is finished when the writer goes away
        if not _whole_pdf(temporary):
            raise OSError(f"{path}: the PDF could not be written there")


def _whole_pdf(path: Path) -> bool:
    """Whether `path` holds a PDF from its header to its end-of-file marker."""
    with open(path, "rb") as pdf:
        head = pdf.read(5)
        pdf.seek(max(pdf.seek(0, os.SEEK_END) - 32, 0))
        return head == b"%PDF-" and b"%%EOF" in pdf.read()
