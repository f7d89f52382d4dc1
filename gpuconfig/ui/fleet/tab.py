"""The Fleet tab: open a folder of node reports (what `fleet run --slurm` wrote, or `gpuconfig probe --json`
files from any scheduler), see every node against the fleet as a heatmap, read why a node is named, open a
node's own report, and export the fleet report or the nodes to leave out.

Reading and judging a folder runs in a background job (a thousand reports take about a second)."""

from __future__ import annotations

import json
from collections.abc import Callable
from pathlib import Path
from typing import Any

from PySide6.QtCore import QCoreApplication, Qt, Signal
from PySide6.QtGui import QGuiApplication, QPalette, QShowEvent
from PySide6.QtWidgets import (
    QFileDialog,
    QHBoxLayout,
    QLabel,
    QMenu,
    QPushButton,
    QSplitter,
    QTableWidget,
    QTableWidgetItem,
    QTabWidget,
    QTextBrowser,
    QVBoxLayout,
    QWidget,
)

from gpuconfig.core.fleet.diagnose import (
    FAILED,
    OUTLIER,
    STATE_NAMES,
    Diagnosis,
    NodeVerdict,
    diagnose,
    load_baseline,
)
from gpuconfig.core.fleet.reports import read_folder
from gpuconfig.core.fleet.rules import Rules, load_rules
from gpuconfig.core.i18n import translate
from gpuconfig.core.numbers import json_text
from gpuconfig.core.paths import write_text_atomic
from gpuconfig.core.userdata.store import Store
from gpuconfig.probe.fleet_html import allreduce_line, html, legend, number
from gpuconfig.probe.labels import metric_label
from gpuconfig.ui.background import BackgroundJob, Jobs
from gpuconfig.ui.fleet.heatmap import Heatmap
from gpuconfig.ui.theme import Colors, mark, tint
from gpuconfig.ui.widgets.tables import shape_table

SETTING_FOLDER, SETTING_BASELINE, SETTING_RULES = "fleet.folder", "fleet.baseline", "fleet.rules"


def judged(folder: str, baseline: str | None, rules: str | None) -> Diagnosis:
    """A folder read and judged (on a worker thread): what `fleet report` answers."""
    return diagnose(
        read_folder(folder),
        load_rules(rules) if rules else Rules(),
        load_baseline(baseline) if baseline else None,
        lambda m: metric_label(m.benchmark, m.dtype, m.variant, m.device),
    )


class FleetTab(QWidget):
    status_message = Signal(str)

    def __init__(self, store: Store, colors: Colors, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.store, self.colors = store, colors
        self.diagnosis: Diagnosis | None = None
        self.folder = store.user.setting(SETTING_FOLDER) or ""
        self.baseline = store.user.setting(SETTING_BASELINE) or ""
        self.rules = store.user.setting(SETTING_RULES) or ""
        self._jobs = Jobs(self)
        self._job: BackgroundJob | None = None
        self._opened = False

        self.open_button = QPushButton(self.tr("Open folder…"))
        self.open_button.setObjectName("fleet_open")
        self.open_button.clicked.connect(self._on_open)
        self.reload_button = QPushButton(self.tr("Reload"))
        self.reload_button.clicked.connect(self.reload)
        self.baseline_button = _file_button(
            self.tr("A known-good node's probe report, or an earlier fleet report (JSON)"),
            self._on_baseline, self.tr("None"), lambda: self.set_baseline(""),
        )  # fmt: skip
        self.rules_button = _file_button(
            self.tr("A TOML file of thresholds: threshold, spread_factor, [[metric]] match …"),
            self._on_rules, self.tr("Defaults"), lambda: self.set_rules(""),
        )  # fmt: skip
        self.export_button = QPushButton(self.tr("Export"))
        self.export_button.setObjectName("fleet_export")
        menu = QMenu(self.export_button)
        self.copy_exclude_action = menu.addAction(self.tr("Copy the exclude list"), self.copy_exclude)
        menu.addSeparator()
        self.export_actions = {
            "html": menu.addAction(self.tr("HTML report…"), lambda: self._on_export("html")),
            "json": menu.addAction(self.tr("JSON…"), lambda: self._on_export("json")),
        }
        self.export_button.setMenu(menu)
        self.export_button.setEnabled(False)

        self.summary = QLabel()
        self.summary.setObjectName("fleet_summary")
        self.summary.setWordWrap(True)
        self.summary.setTextInteractionFlags(Qt.TextInteractionFlag.TextSelectableByMouse)
        self.notice = QLabel(
            self.tr(
                "Open a folder of node reports: what `gpuconfig fleet run --slurm` wrote, or `gpuconfig probe "
                "--json` files made on each node by any scheduler. Subfolders are earlier runs: each node's "
                "history."
            )
        )
        self.notice.setWordWrap(True)
        mark(self.notice, "muted")

        self.heatmap = Heatmap(colors)
        self.heatmap.setObjectName("fleet_heatmap")
        self.heatmap.selectionModel().currentRowChanged.connect(lambda current, _old: self._show_node(current.row()))
        self.legend = QLabel()
        self.legend.setWordWrap(True)
        mark(self.legend, "muted")

        self.node_title = QLabel()
        mark(self.node_title, "heading")
        self.reasons = QLabel()
        self.reasons.setObjectName("fleet_reasons")
        self.reasons.setWordWrap(True)
        self.reasons.setTextInteractionFlags(Qt.TextInteractionFlag.TextSelectableByMouse)
        self.node_tabs = QTabWidget()
        self.report_view = QTextBrowser()
        self.report_view.setObjectName("fleet_node_report")
        # The probe's report is a document in its own colours (dark text on white), in either theme, as it prints.
        self.report_view.setStyleSheet("QTextBrowser { background-color: #ffffff; color: #1d2330; }")
        self.history = QTableWidget()
        self.history.setObjectName("fleet_history")
        self.node_tabs.addTab(self.report_view, self.tr("Node report"))
        self.node_tabs.addTab(self.history, self.tr("History"))

        bar = QHBoxLayout()
        for button in (self.open_button, self.reload_button, self.baseline_button, self.rules_button):
            bar.addWidget(button)
        bar.addStretch(1)
        bar.addWidget(self.export_button)
        detail = QWidget()
        detail_layout = QVBoxLayout(detail)
        detail_layout.setContentsMargins(0, 6, 0, 0)
        detail_layout.addWidget(self.node_title)
        detail_layout.addWidget(self.reasons)
        detail_layout.addWidget(self.node_tabs, 1)
        top = QWidget()
        top_layout = QVBoxLayout(top)
        top_layout.setContentsMargins(0, 0, 0, 0)
        top_layout.addWidget(self.heatmap, 1)
        top_layout.addWidget(self.legend)
        split = QSplitter(Qt.Orientation.Vertical)
        split.addWidget(top)
        split.addWidget(detail)
        split.setStretchFactor(0, 3)
        split.setStretchFactor(1, 2)
        layout = QVBoxLayout(self)
        layout.setContentsMargins(12, 10, 12, 10)
        layout.addLayout(bar)
        layout.addWidget(self.summary)
        layout.addWidget(self.notice)
        layout.addWidget(split, 1)
        self._show_choices()
        self._show(None)

    # -- opening ----------------------------------------------------------------------------------

    def showEvent(self, event: QShowEvent) -> None:
        super().showEvent(event)
        if not self._opened and self.folder:
            self._opened = True
            self.reload()

    def open_folder(self, folder: str) -> None:
        """Read and judge `folder` (in the background); remembered for the next start."""
        self.folder = folder
        self.store.user.set_setting(SETTING_FOLDER, folder)
        self._opened = True
        self.reload()

    def set_baseline(self, path: str) -> None:
        self.baseline = path
        self.store.user.set_setting(SETTING_BASELINE, path or None)
        self._show_choices()
        self.reload()

    def set_rules(self, path: str) -> None:
        self.rules = path
        self.store.user.set_setting(SETTING_RULES, path or None)
        self._show_choices()
        self.reload()

    def reload(self) -> None:
        if not self.folder:
            return
        if self._job is not None:
            self._job.cancel()
        folder, baseline, rules = self.folder, self.baseline or None, self.rules or None
        job = BackgroundJob(lambda _progress, _cancelled: judged(folder, baseline, rules))
        job.succeeded.connect(self._on_judged)
        job.failed.connect(self._on_failed)
        self._job = job
        self.summary.setText(self.tr("Reading {folder}…").format(folder=folder))
        self._jobs.start(job)

    def apply_colors(self, colors: Colors) -> None:
        """Draw in a new theme's colours: the heatmap's cells, the node's reasons."""
        self.colors = colors
        self.heatmap.source.colors = colors
        self.heatmap.viewport().update()
        self._show_node(self.heatmap.currentIndex().row())

    def busy(self) -> bool:
        return bool(self._jobs)

    def shutdown(self, wait_ms: int = 10_000) -> None:
        self._jobs.shutdown(wait_ms)

    def _on_judged(self, job: BackgroundJob, diagnosis: Diagnosis) -> None:
        if job is not self._job:
            return
        self._job = None
        self._show(diagnosis)
        self.status_message.emit(self.tr("Read {count} node reports").format(count=len(diagnosis.folder.reports)))

    def _on_failed(self, job: BackgroundJob, message: str) -> None:
        if job is not self._job:
            return
        self._job = None
        self._show(None)
        self.summary.setText(message)
        mark(self.summary, "error")

    # -- showing ----------------------------------------------------------------------------------

    def _show(self, diagnosis: Diagnosis | None) -> None:
        self.diagnosis = diagnosis
        self.summary.setForegroundRole(QPalette.ColorRole.WindowText)
        self.notice.setVisible(diagnosis is None)
        self.export_button.setEnabled(diagnosis is not None)
        self.heatmap.show_diagnosis(diagnosis)
        if diagnosis is None:
            self.summary.setText("")
            self.legend.setText("")
            self._show_node(-1)
            return
        parts = [self.tr("{nodes} nodes: {states}").format(nodes=len(diagnosis.nodes), states=diagnosis.counts_text())]
        if diagnosis.exclude:
            parts.append(self.tr("leave out: {hosts}").format(hosts=diagnosis.exclude))
        if allreduce_line(diagnosis):
            parts.append(allreduce_line(diagnosis))
        parts += [finding.message for finding in diagnosis.findings]
        if diagnosis.folder.skipped:
            parts.append(self.tr("{count} files left out (not reports)").format(count=len(diagnosis.folder.skipped)))
        self.summary.setText(" · ".join(parts))
        self.legend.setText(legend(diagnosis))
        if diagnosis.nodes:
            self.heatmap.selectRow(0)  # shows the node (currentRowChanged)

    def _show_node(self, row: int) -> None:
        verdict = self._verdict(row)
        if verdict is None:
            self.node_title.setText("")
            self.reasons.setText("")
            self.report_view.clear()
            self.history.clear()
            self.history.setRowCount(0)
            return
        state = translate("Fleet", STATE_NAMES[verdict.state])
        self.node_title.setText(f"{verdict.node} · {state}")
        self.reasons.setText(
            "\n".join(f"• {r.message}" for r in verdict.reasons)
            or self.tr("Nothing to say: within the fleet on every metric.")
        )
        bad = verdict.state in (FAILED, OUTLIER)
        tint(self.reasons, self.colors.error if bad else self.colors.warning if verdict.reasons else self.colors.text)
        self.report_view.setHtml(node_report_html(verdict))
        self._show_history(verdict)

    def _show_history(self, verdict: NodeVerdict) -> None:
        runs = [*verdict.history, verdict.report]
        keys = list(
            dict.fromkeys(
                s.metric.key
                for s in (self.diagnosis.metrics if self.diagnosis else ())
                if s.metric.key in verdict.report.values
            )
        )
        labels = {s.metric.key: s.label for s in self.diagnosis.metrics} if self.diagnosis else {}
        self.history.clear()
        shape_table(self.history, [self.tr("Metric"), *(r.started_at[:16].replace("T", " ") for r in runs)])
        self.history.setRowCount(len(keys))
        for row, key in enumerate(keys):
            self.history.setItem(row, 0, QTableWidgetItem(labels.get(key, key)))
            for column, run in enumerate(runs, start=1):
                value = run.values.get(key)
                item = QTableWidgetItem(number(value) if value is not None else "—")
                item.setTextAlignment(Qt.AlignmentFlag.AlignRight | Qt.AlignmentFlag.AlignVCenter)
                self.history.setItem(row, column, item)

    def _verdict(self, row: int) -> NodeVerdict | None:
        if self.diagnosis is None or row < 0 or row >= self.heatmap.proxy.rowCount():
            return None
        return self.diagnosis.verdict(self.heatmap.node_at(row))

    def _show_choices(self) -> None:
        self.baseline_button.setText(
            self.tr("Baseline: {file}").format(file=Path(self.baseline).name)
            if self.baseline
            else self.tr("Baseline: none")
        )
        self.rules_button.setText(
            self.tr("Rules: {file}").format(file=Path(self.rules).name) if self.rules else self.tr("Rules: defaults")
        )

    # -- actions ----------------------------------------------------------------------------------

    def _on_open(self) -> None:
        folder = QFileDialog.getExistingDirectory(self, self.tr("Open a folder of node reports"), self.folder)
        if folder:
            self.open_folder(folder)

    def _on_baseline(self) -> None:
        path, _ = QFileDialog.getOpenFileName(self, self.tr("Choose a baseline"), self.folder, self.tr("JSON (*.json)"))
        if path:
            self.set_baseline(path)

    def _on_rules(self) -> None:
        path, _ = QFileDialog.getOpenFileName(
            self, self.tr("Choose a rules file"), self.folder, self.tr("TOML (*.toml)")
        )
        if path:
            self.set_rules(path)

    def copy_exclude(self) -> None:
        text = f"--exclude={self.diagnosis.exclude}" if self.diagnosis and self.diagnosis.exclude else ""
        QGuiApplication.clipboard().setText(text)
        self.status_message.emit(
            self.tr("Copied: {text}").format(text=text) if text else self.tr("No node to leave out")
        )

    def _on_export(self, form: str) -> None:
        if self.diagnosis is None:
            return
        filters = {"html": self.tr("HTML (*.html)"), "json": self.tr("JSON (*.json)")}
        start = str(Path(self.folder) / f"fleet-report.{form}")
        path, _ = QFileDialog.getSaveFileName(self, self.tr("Export the fleet report"), start, filters[form])
        if path:
            self.export(Path(path), form)

    def export(self, path: Path, form: str) -> None:
        assert self.diagnosis is not None
        text = html(self.diagnosis) if form == "html" else json_text(self.diagnosis.record())
        try:
            write_text_atomic(path, text)
        except OSError as exc:
            self.status_message.emit(self.tr("Not saved: {why}").format(why=exc.strerror or exc))
            return
        self.status_message.emit(self.tr("Saved {path}").format(path=path))


def _file_button(tip: str, choose: Callable[[], None], back: str, clear: Callable[[], None]) -> QPushButton:
    """A button whose menu chooses a file or goes back to none (its text says which is in use)."""
    button = QPushButton()
    button.setToolTip(tip)
    menu = QMenu(button)
    menu.addAction(QCoreApplication.translate("FleetTab", "Choose…"), choose)
    menu.addAction(back, clear)
    button.setMenu(menu)
    return button


def node_report_html(verdict: NodeVerdict) -> str:
    """The node's own probe report, judged again in the language in use; or why there is none."""
    from html import escape

    from gpuconfig.probe.report import html as probe_html
    from gpuconfig.probe.session import ProbeRun, judged_again

    report = verdict.report
    if report.failure:
        why = translate("Fleet", "no report from this node: {why}").format(why=report.failure)
        return f"<p>{escape(why)}</p>"
    try:
        data: Any = json.loads(Path(report.path).read_text(encoding="utf-8"))
        return probe_html(judged_again(ProbeRun.from_record(data)))
    except (OSError, ValueError, KeyError, TypeError, AttributeError) as exc:
        return f"<p>{escape(str(exc))}</p>"
