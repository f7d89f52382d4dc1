"""The Probe tab's exports: the series on the plot (CSV, JSON) and the run shown (JSON, HTML, PDF), each
from a menu button that asks where to write."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import TYPE_CHECKING

from PySide6.QtCore import QObject, Signal
from PySide6.QtWidgets import QFileDialog, QMenu, QToolButton, QWidget

from gpuconfig.ui.background import one_line
from gpuconfig.ui.widgets.pdf import write_pdf

if TYPE_CHECKING:
    from gpuconfig.probe.sampler import Series
    from gpuconfig.probe.session import ProbeRun


def menu_button(text: str, actions: list[tuple[str, Callable[[], None]]]) -> QToolButton:
    button = QToolButton()
    button.setText(text)
    button.setPopupMode(QToolButton.ToolButtonPopupMode.InstantPopup)
    menu = QMenu(button)
    for label, slot in actions:
        menu.addAction(label, slot)
    button.setMenu(menu)
    return button


class ProbeExports(QObject):
    """The two export menus: `series_button` writes what the plot shows, `run_button` the run shown.
    `status_message(text)` says where it went, or why not."""

    status_message = Signal(str)

    def __init__(
        self,
        parent: QWidget,
        shown_run: Callable[[], ProbeRun | None],
        shown_series: Callable[[], Series | None],
    ) -> None:
        super().__init__(parent)
        self._window = parent
        self._shown_run = shown_run
        self._shown_series = shown_series
        self.series_button = menu_button(
            self.tr("Export series"),
            [(self.tr("CSV…"), self._on_export_csv), (self.tr("JSON…"), self._on_export_series_json)],
        )
        self.run_button = menu_button(
            self.tr("Export run"),
            [
                (self.tr("JSON…"), self._on_export_json),
                (self.tr("HTML…"), self._on_export_html),
                (self.tr("PDF…"), self._on_export_pdf),
            ],
        )
        self.run_button.setEnabled(False)

    def series_csv(self, path: Path) -> None:
        """Write the series on the plot (live or opened) as CSV."""
        from gpuconfig.probe.sampler import write_csv

        self._write_series(write_csv, path)

    def series_json(self, path: Path) -> None:
        from gpuconfig.probe.sampler import write_json

        self._write_series(write_json, path)

    def run_json(self, path: Path) -> None:
        from gpuconfig.probe.report import write_json

        self._write_run(write_json, path)

    def run_html(self, path: Path) -> None:
        from gpuconfig.probe.report import write_html

        self._write_run(write_html, path)

    def run_pdf(self, path: Path) -> None:
        from gpuconfig.probe.report import html

        self._write_run(lambda run, to: write_pdf(html(run), to, "gpuconfig probe"), path)

    def _write_series(self, write: Callable[[Series, Path], None], path: Path) -> None:
        series = self._shown_series()
        if series is not None:
            write(series, Path(path))

    def _write_run(self, write: Callable[[ProbeRun, Path], None], path: Path) -> None:
        run = self._shown_run()
        if run is not None:
            write(run, Path(path))

    def _export(self, write: Callable[[Path], None], title: str, suffix: str, kinds: str, what: str) -> None:
        run = self._shown_run()
        stamp = (run.started_at if run else "live").replace(":", "-")[:16]
        path, _ = QFileDialog.getSaveFileName(self._window, title, f"gpuconfig-{what}-{stamp}.{suffix}", kinds)
        if not path:
            return
        try:
            write(Path(path))
        except OSError as exc:
            self.status_message.emit(self.tr("Not exported: {error}").format(error=one_line(str(exc))))
            return
        self.status_message.emit(self.tr("Exported to {path}").format(path=Path(path)))

    def _on_export_csv(self) -> None:
        self._export(self.series_csv, self.tr("Export the series"), "csv", self.tr("CSV (*.csv)"), "series")

    def _on_export_series_json(self) -> None:
        self._export(self.series_json, self.tr("Export the series"), "json", self.tr("JSON (*.json)"), "series")

    def _on_export_json(self) -> None:
        self._export(self.run_json, self.tr("Export the run"), "json", self.tr("JSON (*.json)"), "probe")

    def _on_export_html(self) -> None:
        self._export(self.run_html, self.tr("Export the run"), "html", self.tr("HTML (*.html)"), "probe")

    def _on_export_pdf(self) -> None:
        self._export(self.run_pdf, self.tr("Export the run"), "pdf", self.tr("PDF (*.pdf)"), "probe")
