"""A tab for an area that later releases fill: says what it will do."""

from __future__ import annotations

from PySide6.QtWidgets import QLabel, QVBoxLayout, QWidget

from gpuconfig.ui.theme import mark


class PlaceholderTab(QWidget):
    def __init__(self, title: str, promise: str, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        heading = QLabel(title)
        mark(heading, "heading")
        text = QLabel(promise)
        text.setWordWrap(True)
        text.setMaximumWidth(640)
        soon = QLabel(self.tr("Not available in this version yet."))
        mark(soon, "muted")
        layout = QVBoxLayout(self)
        layout.setContentsMargins(48, 48, 48, 48)
        layout.addWidget(heading)
        layout.addWidget(text)
        layout.addWidget(soon)
        layout.addStretch(1)
        self.promise = promise
