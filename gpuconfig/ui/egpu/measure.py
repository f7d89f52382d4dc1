"""Measuring the attached eGPU: the probe's host-to-device copy and a training step fed from the host, run in a
benchmark worker process (Cancel kills it); the tab judges the results against the link."""

from __future__ import annotations

from typing import Any

from PySide6.QtCore import Signal
from PySide6.QtWidgets import QHBoxLayout, QLabel, QProgressBar, QPushButton, QSizePolicy, QWidget

from gpuconfig.ui.background import BackgroundJob, Jobs
from gpuconfig.ui.theme import mark

MEASURED = ("h2d_bandwidth", "train_from_host")


class MeasureBar(QWidget):
    """`measured(records)` with the results' records when a measurement ends (not when it is cancelled)."""

    measured = Signal(list)

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self._jobs = Jobs(self)
        self._job: BackgroundJob | None = None
        self.button = QPushButton(self.tr("Measure the attached eGPU"))
        self.button.setObjectName("egpu_measure")
        self.button.setToolTip(
            self.tr("Copy to the card and run a training step fed from the host, in a worker process, and judge "
                    "the copy rate against the link")
        )  # fmt: skip
        self.cancel_button = QPushButton(self.tr("Cancel"))
        self.cancel_button.setObjectName("egpu_measure_cancel")
        self.progress = QProgressBar()
        self.progress.setFixedWidth(140)
        self.progress.setFormat("%v / %m")
        self.status = QLabel()
        self.status.setObjectName("egpu_measure_status")
        self.status.setSizePolicy(QSizePolicy.Policy.Ignored, QSizePolicy.Policy.Preferred)
        mark(self.status, "muted")
        row = QHBoxLayout(self)
        row.setContentsMargins(0, 0, 0, 0)
        for widget in (self.button, self.cancel_button, self.progress):
            row.addWidget(widget)
        row.addWidget(self.status, 1)
        self.button.clicked.connect(self.measure)
        self.cancel_button.clicked.connect(self.cancel)
        self._idle("")

    def measure(self) -> None:
        """Start a measurement in the Python that runs the probe's benchmarks (one at a time)."""
        if self._job is not None:
            return
        from gpuconfig.probe.runner import run_suite

        job = BackgroundJob(
            lambda progress, cancelled: run_suite("quick", only=MEASURED, progress=progress, cancelled=cancelled)
        )
        job.progressed.connect(self._on_progress)
        job.succeeded.connect(self._on_done)
        job.failed.connect(self._on_failed)
        job.cancelled.connect(self._on_cancelled)
        self._job = job
        self._jobs.start(job)
        self._busy(self.tr("Starting the benchmark worker…"), 0, 0)

    def cancel(self) -> None:
        """Stop the measurement: its worker process is killed."""
        if self._job is not None:
            self._job.cancel()
            self.cancel_button.setEnabled(False)
            self.status.setText(self.tr("Cancelling…"))

    def measuring(self) -> bool:
        return self._job is not None

    def running(self) -> bool:
        """Whether the job's thread is still alive (a cancelled one until it has ended)."""
        return bool(self._jobs)

    def shutdown(self, wait_ms: int) -> None:
        self._jobs.shutdown(wait_ms)

    def _on_progress(self, job: BackgroundJob, done: int, total: int, what: str) -> None:
        if job is self._job:
            self._busy(self.tr("Measuring: {what}").format(what=what), done, total)

    def _on_done(self, job: BackgroundJob, outcome: Any) -> None:
        if job is self._job:
            self._job = None
            self._idle(self.tr("Measured in {seconds:.0f} s.").format(seconds=outcome.seconds))
            self.measured.emit([result.record() for result in outcome.results])

    def _on_failed(self, job: BackgroundJob, message: str) -> None:
        if job is self._job:
            self._job = None
            self._idle(self.tr("Not measured: {error}").format(error=message))

    def _on_cancelled(self, job: BackgroundJob) -> None:
        if job is self._job:
            self._job = None
            self._idle(self.tr("Cancelled."))

    def _busy(self, text: str, done: int, total: int) -> None:
        self.button.setEnabled(False)
        self.cancel_button.setEnabled(True)
        self.cancel_button.show()
        self.progress.setRange(0, total)
        self.progress.setValue(done)
        self.progress.show()
        self.status.setText(text)
        self.status.setToolTip(text)

    def _idle(self, text: str) -> None:
        self.button.setEnabled(True)
        self.cancel_button.hide()
        self.progress.hide()
        self.status.setText(text)
        self.status.setToolTip(text)
