"""The Build tab's file bar: the build's name, saved builds (new, open, save, save as, delete), import and export.

Saved builds live in the user's database; imports and exports are files. The methods that do the work take
their names and paths as arguments (the tests call them); the buttons ask the user for them first.
"""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING, Any

from PySide6.QtCore import Qt
from PySide6.QtWidgets import (
    QFileDialog,
    QHBoxLayout,
    QInputDialog,
    QLabel,
    QLineEdit,
    QMenu,
    QMessageBox,
    QToolButton,
    QWidget,
)

from gpuconfig.core.build.export import build_csv, build_html, build_json, build_markdown
from gpuconfig.core.build.model import BuildError, read_build
from gpuconfig.core.numbers import json_text
from gpuconfig.core.paths import write_text_atomic
from gpuconfig.ui.theme import mark
from gpuconfig.ui.widgets.pdf import write_pdf

if TYPE_CHECKING:
    from gpuconfig.ui.build.tab import BuildTab


EXPORTS = ("md", "html", "csv", "json", "pdf")


class BuildFiles(QWidget):
    def __init__(self, tab: BuildTab) -> None:
        super().__init__(tab)
        self.tab = tab
        self.formats = {
            "md": (self.tr("Markdown"), self.tr("Markdown (*.md)")),
            "html": (self.tr("HTML"), self.tr("Web page (*.html)")),
            "pdf": (self.tr("PDF"), self.tr("PDF document (*.pdf)")),
            "csv": (self.tr("CSV"), self.tr("Spreadsheet (*.csv)")),
            "json": (self.tr("JSON"), self.tr("gpuconfig build (*.json)")),
        }
        self.name = QLineEdit()
        self.name.setObjectName("build_name")
        self.name.setPlaceholderText(self.tr("Build name"))
        self.name.setMinimumWidth(150)
        self.state = QLabel()
        self.state.setObjectName("build_state")
        mark(self.state, "muted")
        self.new_button = self._button("build_new", self.tr("New"), self.tr("Start an empty build"))
        self.open_button = self._button("build_open", self.tr("Open"), self.tr("Open a saved build"))
        self.open_menu = QMenu(self.open_button)
        self.open_button.setMenu(self.open_menu)
        self.open_button.setPopupMode(QToolButton.ToolButtonPopupMode.InstantPopup)
        self.save_button = self._button("build_save", self.tr("Save"), self.tr("Save under this name"))
        self.save_as_button = self._button("build_save_as", self.tr("Save as…"), self.tr("Save under a new name"))
        self.delete_button = self._button("build_delete", self.tr("Delete"), self.tr("Delete the saved build"))
        self.import_button = self._button("build_import", self.tr("Import…"), self.tr("Open a build JSON file"))
        self.export_button = self._button(
            "build_export", self.tr("Export"), self.tr("Write the build list as a document")
        )
        export_menu = QMenu(self.export_button)
        for fmt, (label, _filter) in self.formats.items():
            action = export_menu.addAction(label + "…")
            action.triggered.connect(lambda _checked=False, f=fmt: self._on_export(f))
        self.export_button.setMenu(export_menu)
        self.export_button.setPopupMode(QToolButton.ToolButtonPopupMode.InstantPopup)

        row = QHBoxLayout(self)
        row.setContentsMargins(0, 0, 0, 4)
        row.addWidget(self.name, 1)
        row.addWidget(self.state)
        row.addStretch(1)
        for widget in (
            self.new_button,
            self.open_button,
            self.save_button,
            self.save_as_button,
            self.delete_button,
            self.import_button,
            self.export_button,
        ):
            row.addWidget(widget)
        self.name.editingFinished.connect(lambda: self.tab.rename(self.name.text()))
        self.open_menu.aboutToShow.connect(self._fill_open_menu)
        self.new_button.clicked.connect(self.new_build)
        self.save_button.clicked.connect(self._on_save)
        self.save_as_button.clicked.connect(self._on_save_as)
        self.delete_button.clicked.connect(self._on_delete)
        self.import_button.clicked.connect(self._on_import)

    def _button(self, name: str, text: str, tip: str) -> QToolButton:
        # Tool buttons: as wide as their text, so the whole bar fits beside the name on a narrow pane.
        button = QToolButton()
        button.setObjectName(name)
        button.setText(text)
        button.setToolTip(tip)
        button.setToolButtonStyle(Qt.ToolButtonStyle.ToolButtonTextOnly)
        return button

    def update_state(self) -> None:
        build = self.tab.build
        if self.name.text() != build.name:
            self.name.setText(build.name)
        saved_names = {name for name, _ in self.tab.store.user.saved_builds()}
        if self.tab.saved is not None and self.tab.saved == build:
            self.state.setText(self.tr("saved"))
        elif build.lines:
            self.state.setText(self.tr("not saved") if build.name not in saved_names else self.tr("changed"))
        else:
            self.state.setText("")
        has_parts = bool(build.lines)
        self.save_button.setEnabled(has_parts)
        self.save_as_button.setEnabled(has_parts)
        self.export_button.setEnabled(has_parts)
        self.delete_button.setEnabled(build.name in saved_names)

    # -- the work ---------------------------------------------------------------------------------

    def new_build(self) -> None:
        self.tab.saved = None
        self.tab.set_build(self.tab.empty_build())

    def save(self) -> None:
        """Save the build under its name (replacing a saved build of that name)."""
        self.tab.store.user.save_build(self.tab.build)
        self.tab.saved = self.tab.build
        self.update_state()
        self.tab.status_message.emit(self.tr("Saved {name}").format(name=self.tab.build.name))

    def save_as(self, name: str) -> None:
        self.tab.rename(name)
        self.save()

    def open_saved(self, name: str) -> str:
        """Open a saved build; returns an error line (a damaged row, a part gone from the catalog), or ""."""
        try:
            self.tab.set_build(self.tab.store.user.load_build(name), saved=True)
        except BuildError as exc:
            return str(exc)
        self.tab.status_message.emit(self.tr("Opened {name}").format(name=name))
        return ""

    def delete_saved(self, name: str) -> bool:
        deleted = self.tab.store.user.delete_build(name)
        if deleted and self.tab.saved is not None and self.tab.saved.name == name:
            self.tab.saved = None
        self.update_state()
        return deleted

    def export_text(self, fmt: str) -> str:
        """The build in one of EXPORTS' text formats (PDF is printed from the HTML)."""
        tab = self.tab
        args = (tab.resolved, tab.totals, tab.budget, tab.problems)
        kw: dict[str, Any] = {"rate": tab.store.exchange_rate(), "schema": tab.store.schema}
        if fmt == "md":
            return build_markdown(*args, **kw)
        if fmt in ("html", "pdf"):
            return build_html(*args, **kw)
        if fmt == "csv":
            return build_csv(*args, **kw)
        if fmt == "json":
            return json_text(build_json(*args, **kw))
        raise ValueError(f"unknown export format {fmt!r}")

    def export_to(self, path: str | Path, fmt: str) -> None:
        """Write the build as `fmt` (one of EXPORTS); the file appears whole or not at all."""
        if fmt == "pdf":
            write_pdf(self.export_text("pdf"), path, self.tab.build.name)
        else:
            write_text_atomic(Path(path), self.export_text(fmt))
        self.tab.status_message.emit(self.tr("Exported {name} to {path}").format(name=self.tab.build.name, path=path))

    def import_file(self, path: str | Path) -> str:
        """Open a build JSON file (an export, or one written by hand); returns an error line, or ""."""
        try:
            self.tab.set_build(read_build(Path(path)))
        except BuildError as exc:
            return str(exc)
        self.tab.saved = None
        self.update_state()
        self.tab.status_message.emit(self.tr("Imported {name}").format(name=self.tab.build.name))
        return ""

    # -- asking the user --------------------------------------------------------------------------

    def _fill_open_menu(self) -> None:
        self.open_menu.clear()
        saved = self.tab.store.user.saved_builds()
        if not saved:
            self.open_menu.addAction(self.tr("No saved builds yet")).setEnabled(False)
        for name, when in saved:
            action = self.open_menu.addAction(f"{name}    ({when.replace('T', ' ')})")
            action.triggered.connect(lambda _checked=False, n=name: self._on_open(n))

    def _on_open(self, name: str) -> None:
        error = self.open_saved(name)
        if error:
            QMessageBox.warning(self, self.tr("Build not opened"), error)

    def _on_save(self) -> None:
        self.tab.rename(self.name.text())
        self.save()

    def _on_save_as(self) -> None:
        name, ok = QInputDialog.getText(self, self.tr("Save as"), self.tr("Build name:"), text=self.tab.build.name)
        if not ok or not name.strip():
            return
        taken = {n for n, _ in self.tab.store.user.saved_builds()}
        if name.strip() in taken and (
            QMessageBox.question(self, self.tr("Replace?"), self.tr("Replace the saved {name}?").format(name=name))
            != QMessageBox.StandardButton.Yes
        ):
            return
        self.save_as(name)

    def _on_delete(self) -> None:
        name = self.tab.build.name
        answer = QMessageBox.question(
            self, self.tr("Delete build"), self.tr("Delete the saved {name}? The list stays open.").format(name=name)
        )
        if answer == QMessageBox.StandardButton.Yes and self.delete_saved(name):
            self.tab.status_message.emit(self.tr("Deleted {name}").format(name=name))

    def _on_import(self) -> None:
        path, _ = QFileDialog.getOpenFileName(self, self.tr("Import a build"), "", self.tr("Build files (*.json)"))
        if path:
            error = self.import_file(path)
            if error:
                QMessageBox.warning(self, self.tr("Build not imported"), error)

    def _on_export(self, fmt: str) -> None:
        label, file_filter = self.formats[fmt]
        suggested = "".join(c if c.isalnum() or c in "-_ " else "_" for c in self.tab.build.name).strip() or "build"
        path, _ = QFileDialog.getSaveFileName(
            self, self.tr("Export as {format}").format(format=label), f"{suggested}.{fmt}", file_filter
        )
        if not path:
            return
        try:
            self.export_to(path, fmt)
        except OSError as exc:
            QMessageBox.warning(self, self.tr("Not exported"), str(exc))
