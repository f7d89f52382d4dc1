"""Render resources/gpuconfig.svg to the PNG sizes desktops ask for and to a Windows .ico.

    QT_QPA_PLATFORM=offscreen python packaging/make_icons.py

Writes resources/icons/gpuconfig-<size>.png (16-256 px) and resources/icons/gpuconfig.ico, which holds
the same PNGs (the ICO format has taken PNG entries since Windows Vista). Run it again after changing the
SVG and commit the results.
"""

from __future__ import annotations

import struct
import sys
from pathlib import Path

from PySide6.QtCore import QBuffer, QByteArray, QIODevice, Qt
from PySide6.QtGui import QGuiApplication, QImage, QPainter
from PySide6.QtSvg import QSvgRenderer

ROOT = Path(__file__).resolve().parent.parent
SIZES = (16, 24, 32, 48, 64, 128, 256)


def render_png(renderer: QSvgRenderer, size: int) -> bytes:
    image = QImage(size, size, QImage.Format.Format_ARGB32_Premultiplied)
    image.fill(Qt.GlobalColor.transparent)
    painter = QPainter(image)
    painter.setRenderHint(QPainter.RenderHint.Antialiasing)
    renderer.render(painter)
    painter.end()
    data = QByteArray()
    buffer = QBuffer(data)
    buffer.open(QIODevice.OpenModeFlag.WriteOnly)
    image.save(buffer, "PNG")
    return bytes(data.data())


def ico(pngs: dict[int, bytes]) -> bytes:
    """An ICO file: ICONDIR, one ICONDIRENTRY per size, then the PNG data (a size of 256 is written as 0)."""
    header = struct.pack("<HHH", 0, 1, len(pngs))
    offset = len(header) + 16 * len(pngs)
    entries, blobs = b"", b""
    for size, png in sorted(pngs.items()):
        side = 0 if size >= 256 else size
        entries += struct.pack("<BBBBHHII", side, side, 0, 0, 1, 32, len(png), offset + len(blobs))
        blobs += png
    return header + entries + blobs


def main() -> int:
    _app = QGuiApplication(sys.argv[:1])
    renderer = QSvgRenderer(str(ROOT / "resources" / "gpuconfig.svg"))
    if not renderer.isValid():
        print("resources/gpuconfig.svg: not a valid SVG", file=sys.stderr)
        return 1
    out = ROOT / "resources" / "icons"
    out.mkdir(exist_ok=True)
    pngs = {size: render_png(renderer, size) for size in SIZES}
    for size, png in pngs.items():
        (out / f"gpuconfig-{size}.png").write_bytes(png)
    (out / "gpuconfig.ico").write_bytes(ico(pngs))
    print(f"wrote {len(pngs)} PNGs and gpuconfig.ico to {out}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
