"""The Guide tab: set up a GPU, a build or a probed machine for PyTorch, step by step, on a chosen OS.

The guide itself is pure Python over the compatibility tables (core/guide, about 2 ms), so it is written
on the GUI thread at every change. Exports: Markdown, HTML, JSON, and PDF through Qt's own writer.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from PySide6.QtCore import Signal
from PySide6.QtGui import QShowEvent
from PySide6.QtWidgets import QFileDialog, QMenu, QPushButton, QVBoxLayout, QWidget

from gpuconfig.core.build.model import Build, BuildError, read_build, resolve
from gpuconfig.core.build.rules import Market
from gpuconfig.core.guide.choose import GpuTarget, target_from_part
from gpuconfig.core.guide.diagnose import guide_from_probe
from gpuconfig.core.guide.guide import Guide, guide_for_gpus
from gpuconfig.core.guide.oses import os_from_report
from gpuconfig.core.guide.render import guide_html, guide_markdown, guide_record
from gpuconfig.core.numbers import json_text
from gpuconfig.core.paths import file_stem, user_data_dir, write_text_atomic
from gpuconfig.core.user_files import UserFileError, read_json
from gpuconfig.core.userdata.store import Store
from gpuconfig.ui.background import one_line
from gpuconfig.ui.guide.source import GuideSource
from gpuconfig.ui.guide.view import GuideView
from gpuconfig.ui.market import current_market
from gpuconfig.ui.theme import Colors
from gpuconfig.ui.widgets.pdf import write_pdf

SETTING_GPU, SETTING_COUNT, SETTING_OS = "guide.gpu", "guide.count", "guide.os"
DEFAULT_GPU, DEFAULT_OS = "nvidia-geforce-rtx-4090", "ubuntu-24.04"
EXPORTS = ("md", "html", "json", "pdf")


def _p2p(parts: list[Any]) -> bool | None:
    """Whether the cards talk peer to peer: False if any cannot, True if all can, None if not known."""
    known = [p.specs.get("p2p") for p in parts]
    if any(v is False for v in known):
        return False
    return True if known and all(v is True for v in known) else None


class GuideTab(QWidget):
    """`status_message(text)` reports what happened, for the status bar."""

    status_message = Signal(str)

    def __init__(self, store: Store, colors: Colors, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.store = store
        self.colors = colors
        self.guide: Guide | None = None
        self.build: Build | None = None
        self.report: dict[str, Any] | None = None  # an opened probe report
        self.last_probe: dict[str, Any] | None = None  # this machine's newest probe run
        self._shown_source = ""

        self.source = GuideSource(store.parts("gpu"))
        self.source.china_mirrors.setChecked(current_market(store).guide_mirrors)
        self.export_button = QPushButton(self.tr("Export"))
        self.export_button.setObjectName("guide_export")
        menu = QMenu(self.export_button)
        self.export_actions = {}
        for fmt, label in (
            ("md", self.tr("Markdown…")),
            ("html", self.tr("HTML page…")),
            ("json", self.tr("JSON…")),
            ("pdf", self.tr("PDF…")),
        ):
            action = menu.addAction(label)
            action.triggered.connect(lambda _checked=False, f=fmt: self._on_export(f))
            self.export_actions[fmt] = action
        self.export_button.setMenu(menu)
        self.view = GuideView(colors)
        self.view.setObjectName("guide_view")

        self.source.first_row.addWidget(self.export_button)
        layout = QVBoxLayout(self)
        layout.setContentsMargins(12, 10, 12, 0)
        layout.addWidget(self.source)
        layout.addSpacing(6)
        layout.addWidget(self.view, 1)

        self._restore()
        self.source.changed.connect(self._on_source_changed)
        self.source.open_build.connect(self._on_open_build)
        self.source.open_report.connect(self._on_open_report)
        self.view.copied.connect(
            lambda text: self.status_message.emit(self.tr("Copied: {command}").format(command=text))
        )
        self.refresh_last_probe()
        self.refresh()

    # -- what to set up (public: the Build tab opens its build here) ------------------------------

    def show_gpu(self, part_id: str, count: int = 1) -> None:
        """The guide for `count` of one catalog GPU."""
        if not self.source.set_gpu(part_id, count):
            raise ValueError(f"{part_id!r} is not a GPU in the catalog")
        self.source.set_source("catalog")
        self._on_source_changed()

    def show_build(self, build: Build, name: str = "") -> None:
        """The guide for a build's GPUs; `name` is the file it came from, if any."""
        self.build = build
        self.source.show_file("build", name or build.name)
        self.source.set_source("build")
        self.refresh()

    def open_build_file(self, path: str | Path) -> str:
        """Show the guide for a build JSON file; returns an error line, or ""."""
        try:
            build = read_build(Path(path))
        except BuildError as exc:
            self.status_message.emit(str(exc))
            return str(exc)
        self.show_build(build, f"{build.name} ({Path(path).name})")
        return ""

    def open_probe_report(self, path: str | Path) -> str:
        """Show the guide for a probe run's JSON report; returns an error line, or ""."""
        try:
            report = read_json(Path(path))
        except UserFileError as exc:
            where = f"{exc.file}:{exc.line}" if exc.line else exc.file
            error = self.tr("{path}: not a readable probe report ({error})").format(path=where, error=exc.message)
            self.status_message.emit(error)
            return error
        if not isinstance(report, dict):
            error = self.tr("{path}: not a probe report (expected a JSON object)").format(path=path)
            self.status_message.emit(error)
            return error
        self.report = report
        self.source.show_file("report", Path(path).name)
        self.source.set_source("report")
        self._follow_os(report)
        self.refresh()
        return ""

    def refresh_last_probe(self) -> None:
        """Offer this machine's newest probe run, read from the probe history if there is one."""
        from gpuconfig.probe.history import HISTORY_FILE, HistoryError, ProbeHistory

        before, description = self.source.source(), ""
        self.last_probe = None
        path = user_data_dir() / HISTORY_FILE
        if path.exists():  # opening would create an empty history
            try:
                history = ProbeHistory(path)
                try:
                    runs = history.runs()
                    if runs:
                        self.last_probe = history.load(runs[0].id).record()
                        description = self.tr("run of {when} on {host}").format(
                            when=runs[0].started_at[:16].replace("T", " "), host=runs[0].host
                        )
                finally:
                    history.close()
            except HistoryError as exc:
                self.status_message.emit(one_line(str(exc)))
        self.source.set_last_probe(description)
        if self.source.source() != before:
            self.refresh()

    # -- the guide --------------------------------------------------------------------------------

    def refresh(self) -> None:
        """Write the guide for what is chosen and show it (or why there is none)."""
        try:
            self.guide = self._guide()
        except (ValueError, BuildError) as exc:
            self.guide = None
            self.view.show_message(str(exc))
            self.export_button.setEnabled(False)
            return
        if self.guide is None:
            self.view.show_message(self._what_to_open())
        else:
            self.view.show_guide(self.guide)
        self.export_button.setEnabled(self.guide is not None)

    def _guide(self) -> Guide | None:
        source, os_id, driver = self.source.source(), self.source.os_id(), self.source.installed_driver()
        mirrors = self.source.china_mirrors.isChecked()
        self._shown_source = source
        if source == "catalog":
            part = self.store.part(self.source.gpu_id())
            if part is None:
                return None
            targets = [(target_from_part(part), self.source.count.value())]
            return guide_for_gpus(targets, os_id, p2p=_p2p([part]), driver=driver, china_mirrors=mirrors)
        if source == "build":
            if self.build is None:
                return None
            gpus = resolve(self.build, self.store.part).gpus()
            if not gpus:  # a machine without a GPU still gets PyTorch: the CPU build
                cpu = [(GpuTarget(self.tr("CPU only"), "cpu"), 1)]
                return guide_for_gpus(cpu, os_id, driver=driver, china_mirrors=mirrors)
            targets = [(target_from_part(item.part), item.count) for item in gpus]
            return guide_for_gpus(
                targets, os_id, p2p=_p2p([i.part for i in gpus]), driver=driver, china_mirrors=mirrors
            )
        report = self.report if source == "report" else self.last_probe
        return None if report is None else guide_from_probe(report, os_id, china_mirrors=mirrors)

    def use_market(self, market: Market) -> None:
        """Through mainland China's mirrors where the market is China's."""
        self.source.china_mirrors.setChecked(market.guide_mirrors)

    def _what_to_open(self) -> str:
        if self.source.source() == "build":
            return self.tr("Open a build file (File ▸ Export in the Build tab writes one) to see its setup guide.")
        return self.tr(
            "Open a probe report to see the setup guide for the machine it describes, with what the probe found "
            "wrong first. Write one with: gpuconfig probe --json --output report.json"
        )

    def _follow_os(self, report: dict[str, Any]) -> None:
        os_id = os_from_report(report)
        if os_id is not None:
            self.source.set_os(os_id)

    # -- files ------------------------------------------------------------------------------------

    def export_text(self, fmt: str) -> str:
        """The guide shown, in one of EXPORTS' text formats (pdf: the HTML it is laid out from)."""
        if self.guide is None:
            raise ValueError("no guide to export")
        if fmt == "md":
            return guide_markdown(self.guide)
        if fmt in ("html", "pdf"):
            return guide_html(self.guide)
        if fmt == "json":
            return json_text(guide_record(self.guide))
        raise ValueError(f"unknown export format {fmt!r}")

    def export_to(self, path: str | Path, fmt: str) -> None:
        if fmt == "pdf":
            write_pdf(self.export_text("pdf"), path, self.guide.title if self.guide else "")
        else:
            write_text_atomic(Path(path), self.export_text(fmt))
        self.status_message.emit(self.tr("Exported the guide to {path}").format(path=path))

    def _on_export(self, fmt: str) -> None:
        if self.guide is None:
            return
        kinds = {
            "md": self.tr("Markdown (*.md)"),
            "html": self.tr("HTML (*.html)"),
            "json": self.tr("JSON (*.json)"),
            "pdf": self.tr("PDF (*.pdf)"),
        }
        report = self.report if self.source.source() == "report" else self.last_probe
        if self.source.source() in ("report", "last_probe") and report is not None:
            what = str(report.get("host") or "machine")
        else:
            what = " ".join(t.name for t, _ in self.guide.targets)
        name = file_stem(f"setup guide {what} {self.guide.os.id}")
        path, _ = QFileDialog.getSaveFileName(self, self.tr("Export the setup guide"), f"{name}.{fmt}", kinds[fmt])
        if not path:
            return
        try:
            self.export_to(path, fmt)
        except OSError as exc:
            self.status_message.emit(self.tr("Not exported: {error}").format(error=one_line(str(exc))))

    def _on_open_build(self) -> None:
        path, _ = QFileDialog.getOpenFileName(self, self.tr("Open a build"), "", self.tr("Build files (*.json)"))
        if path:
            self.open_build_file(path)

    def _on_open_report(self) -> None:
        path, _ = QFileDialog.getOpenFileName(
            self, self.tr("Open a probe report"), "", self.tr("Probe reports (*.json)")
        )
        if path:
            self.open_probe_report(path)

    # -- settings and the tab ---------------------------------------------------------------------

    def _restore(self) -> None:
        count = self.store.user.setting(SETTING_COUNT)
        gpu = self.store.user.setting(SETTING_GPU) or DEFAULT_GPU
        if not self.source.set_gpu(gpu, int(count) if count and count.isdigit() else 1):
            self.source.set_gpu(DEFAULT_GPU)
        self.source.set_os(self.store.user.setting(SETTING_OS) or DEFAULT_OS)

    def _on_source_changed(self) -> None:
        source = self.source.source()
        if source == "last_probe" and self._shown_source != source and self.last_probe is not None:
            self._follow_os(self.last_probe)  # a probed machine's own OS, once; the user may change it after
        for key, value in (
            (SETTING_GPU, self.source.gpu_id()),
            (SETTING_COUNT, str(self.source.count.value())),
            (SETTING_OS, self.source.os_id()),
        ):
            if self.store.user.setting(key) != value:
                self.store.user.set_setting(key, value)
        self.refresh()

    def _on_copied(self, command: str) -> None:
        self.status_message.emit(self.tr("Copied: {command}").format(command=command))

    def apply_colors(self, colors: Colors) -> None:
        self.colors = colors
        self.view.apply_colors(colors)

    def showEvent(self, event: QShowEvent) -> None:
        super().showEvent(event)
        self.refresh_last_probe()  # the Probe tab may have saved a run since
