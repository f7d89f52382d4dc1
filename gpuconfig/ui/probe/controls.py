"""The Probe tab's run controls: which suite, in which Python (the chooser's, or one the user added), Run
and Cancel, the run's progress and status, and how often the live metrics are sampled."""

from __future__ import annotations

import json
from pathlib import Path
from typing import TYPE_CHECKING

from PySide6.QtCore import Qt
from PySide6.QtWidgets import (
    QComboBox,
    QFileDialog,
    QHBoxLayout,
    QLabel,
    QProgressBar,
    QPushButton,
    QSizePolicy,
    QSpinBox,
    QWidget,
)

from gpuconfig.core.workers import pythons, search
from gpuconfig.probe.model import Maybe
from gpuconfig.probe.runner import SUITE_BUDGET_S
from gpuconfig.ui.background import BackgroundJob, Jobs
from gpuconfig.ui.theme import mark

if TYPE_CHECKING:
    from gpuconfig.core.userdata.store import Store

SETTING_RATE, SETTING_PYTHONS = "probe.sample_hz", search.ADDED_SETTING
# NVML utilisation and power are useful up to 4-5 Hz: NVML samples them every 1/6 s to 1 s, by product
# (nvmlDeviceGetUtilizationRates, https://docs.nvidia.com/deploy/nvml-api/).
DEFAULT_HZ = 2


def _chosen_python() -> tuple[str, str]:
    """The worker Python chosen now and how it was found; ("", why) when there is none."""
    try:
        return pythons.chosen_python()
    except OSError as exc:  # GPUCONFIG_TORCH_PYTHON names nothing, or no Python has torch
        return "", str(exc)


def _short_name(path: str) -> str:
    """An interpreter as its environment's folder and its name: `.venv/python3`, `torch/python`."""
    return f"{Path(path).parent.parent.name}/{Path(path).name}"


class RunControls(QWidget):
    """The bar above the Probe tab. `trailing` widgets (the export menu) end it; `jobs` runs its
    background work (choosing a Python may start Pythons)."""

    def __init__(self, store: Store | None, jobs: Jobs, trailing: QWidget, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.store = store
        self._jobs = jobs
        self.suite = QComboBox()
        self.suite.setObjectName("probe_suite")
        quick, full = SUITE_BUDGET_S["quick"], SUITE_BUDGET_S["full"]
        self.suite.addItem(self.tr("Quick suite ({seconds:.0f} s at most)").format(seconds=quick), "quick")
        self.suite.addItem(self.tr("Full suite ({minutes:.0f} min at most)").format(minutes=full / 60), "full")
        self.python = QComboBox()
        self.python.setObjectName("probe_python")
        self.python.setMinimumContentsLength(14)
        self.python.setSizeAdjustPolicy(QComboBox.SizeAdjustPolicy.AdjustToMinimumContentsLengthWithIcon)
        # The first entry is no path: the run asks the one chooser, as the estimator does; named when known.
        self.python.addItem(self.tr("Chosen Python"), None)
        self.python.setItemData(0, self._chosen_tip(), Qt.ItemDataRole.ToolTipRole)
        self._chosen_job: BackgroundJob | None = None
        self.add_python = QPushButton(self.tr("Add…"))
        self.add_python.setToolTip(self.tr("Run the benchmarks in another Python that has PyTorch"))
        self.run_button = QPushButton(self.tr("Run"))
        self.run_button.setObjectName("probe_run")
        self.cancel_button = QPushButton(self.tr("Cancel"))
        self.cancel_button.setObjectName("probe_cancel")
        self.progress = QProgressBar()
        self.progress.setObjectName("probe_progress")
        self.progress.setFixedWidth(130)
        self.progress.setFormat("%v / %m")
        self.status = QLabel()
        self.status.setObjectName("probe_status")
        self.status.setSizePolicy(QSizePolicy.Policy.Ignored, QSizePolicy.Policy.Preferred)
        self.rate = QSpinBox()
        self.rate.setObjectName("probe_rate")
        self.rate.setRange(1, 10)  # issue 4: a fixed cadence of 1–10 Hz, user-set
        self.rate.setSuffix(self.tr(" Hz"))
        self.rate.setValue(self._saved_rate())
        self.rate.setToolTip(self.tr("How often the live metrics are sampled"))
        bar = QHBoxLayout(self)
        bar.setContentsMargins(0, 0, 0, 0)
        bar.setSpacing(6)
        widgets: tuple[QWidget, ...] = (self.suite, QLabel(self.tr("in")), self.python, self.add_python)
        widgets += (self.run_button, self.cancel_button, self.progress)
        for widget in widgets:
            bar.addWidget(widget)
            if widget is self.add_python:
                bar.addSpacing(8)
        bar.addWidget(self.status, 1)
        bar.addWidget(QLabel(self.tr("Sampling")))
        bar.addWidget(self.rate)
        bar.addWidget(trailing)
        self.add_python.clicked.connect(self._on_add_python)
        self.rate.valueChanged.connect(self._on_rate)
        for path in self.saved_pythons():
            self.add_python_item(path)
        self._read_chosen_python()

    def show_busy(self, text: str, done: int, total: int, can_cancel: bool) -> None:
        self.progress.setRange(0, total)  # 0..0: busy without a count yet
        self.progress.setValue(done)
        self.progress.show()
        self.status.setText(text)
        self.status.setToolTip(text)
        mark(self.status, "muted")
        for widget in (self.run_button, self.suite, self.python, self.add_python):
            widget.setEnabled(False)
        self.cancel_button.setEnabled(can_cancel)

    def show_idle(self, text: str, error: bool = False) -> None:
        self.progress.hide()
        self.status.setText(text)
        self.status.setToolTip(text)
        mark(self.status, "error" if error else "muted")
        for widget in (self.run_button, self.suite, self.python, self.add_python):
            widget.setEnabled(True)
        self.cancel_button.setEnabled(False)

    def show_cancelling(self) -> None:
        self.cancel_button.setEnabled(False)
        self.status.setText(self.tr("Cancelling…"))

    # -- the Pythons to run in ---------------------------------------------------------------------

    def _read_chosen_python(self) -> None:
        """Name the first entry after the Python chosen now (off the GUI thread: choosing may start Pythons)."""
        job = BackgroundJob(lambda _progress, _cancelled: _chosen_python())
        self._chosen_job = job
        job.succeeded.connect(self._on_chosen_python)
        self._jobs.start(job)

    def _on_chosen_python(self, job: BackgroundJob, chosen: tuple[str, str]) -> None:
        if job is not self._chosen_job:
            return  # an older choice, made before the last Add...
        self._chosen_job = None
        path, how = chosen
        if path:
            self.python.setItemText(0, self.tr("Chosen: {python}").format(python=_short_name(path)))
        self.python.setItemData(0, self._chosen_tip(f"{path} ({how})" if path else how), Qt.ItemDataRole.ToolTipRole)

    def _chosen_tip(self, chosen: str = "") -> str:
        order = self.tr(
            "The Python the estimator runs in too: the one GPUCONFIG_TORCH_PYTHON names, else the first Python "
            "added with Add… that has PyTorch, else gpuconfig's own when it has PyTorch, else the first found "
            "with PyTorch"
        )
        return f"{chosen}\n{order}" if chosen else order

    def add_python_item(self, path: str, torch: Maybe[str] | None = None) -> int:
        """The combo's index of an interpreter, added when new."""
        found = self.python.findData(path)
        if found >= 0:
            return found
        version = self.tr(" (torch {version})").format(version=torch) if isinstance(torch, str) else ""
        self.python.addItem(f"{_short_name(path)}{version}", path)
        index = self.python.count() - 1
        self.python.setItemData(index, path, Qt.ItemDataRole.ToolTipRole)
        return index

    def add_python_path(self, path: str) -> None:
        """Offer another interpreter (remembered for next time: the chooser asks it first) and choose it."""
        self.python.setCurrentIndex(self.add_python_item(path))
        saved = self.saved_pythons()
        if self.store is not None and path not in saved:
            self.store.user.set_setting(SETTING_PYTHONS, json.dumps([*saved, path]))
            self._read_chosen_python()

    def _on_add_python(self) -> None:
        path, _ = QFileDialog.getOpenFileName(self, self.tr("Choose a Python interpreter that has PyTorch"))
        if path:
            self.add_python_path(path)

    def saved_pythons(self) -> list[str]:
        return search.added_from_setting(self.store.user.setting(SETTING_PYTHONS) if self.store is not None else None)

    # -- the sampling rate ---------------------------------------------------------------------------

    def _saved_rate(self) -> int:
        text = self.store.user.setting(SETTING_RATE) if self.store is not None else None
        return int(text) if text and text.isdigit() and 1 <= int(text) <= 10 else DEFAULT_HZ

    def _on_rate(self, hz: int) -> None:
        if self.store is not None and self.store.user.setting(SETTING_RATE) != str(hz):
            self.store.user.set_setting(SETTING_RATE, str(hz))
