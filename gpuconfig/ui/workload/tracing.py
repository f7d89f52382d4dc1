"""A panel's one trace on a worker thread: the trace-and-fit service's slow step, cancellable, with progress.

A start for another key cancels the trace running (its worker process is killed at once); a start for the
key being traced does nothing. The signals carry the request they answer and only ever speak of the latest
trace: what a superseded job says is dropped here.
"""

from __future__ import annotations

from PySide6.QtCore import QObject, Signal

from gpuconfig.core.workload.service import Fit, Resolved, TraceService
from gpuconfig.ui.background import BackgroundJob, Jobs


class Tracing(QObject):
    """`progressed(resolved, done, total, what)` while tracing; then `succeeded(resolved, fit)` or
    `failed(resolved, one-line message)`. The service keeps the fit or the failure as well."""

    progressed = Signal(object, int, int, str)
    succeeded = Signal(object, object)
    failed = Signal(object, str)

    def __init__(self, service: TraceService | None = None, parent: QObject | None = None) -> None:
        super().__init__(parent)
        self.service = service if service is not None else TraceService()
        self.started = 0  # traces started (the tests count them)
        self._jobs = Jobs(self)
        self._job: tuple[BackgroundJob, Resolved] | None = None

    @property
    def current(self) -> Resolved | None:
        """What is being traced now, or None."""
        return self._job[1] if self._job is not None else None

    def tracing(self, resolved: Resolved) -> bool:
        """Whether this workload's key is being traced now, at its shape."""
        if self._job is None:
            return False
        running = self._job[1]
        return running.key == resolved.key and running.shape == resolved.shape

    def start(self, resolved: Resolved) -> bool:
        """Trace on a worker thread, cancelling any other trace; False (and nothing new) when it is being traced."""
        if self.tracing(resolved):
            return False
        self.cancel()
        service = self.service
        job = BackgroundJob(lambda progress, cancelled: service.trace(resolved, progress, cancelled))
        job.progressed.connect(self._on_progress)
        job.succeeded.connect(self._on_succeeded)
        job.failed.connect(self._on_failed)
        self._job = (job, resolved)
        self.started += 1
        self._jobs.start(job)
        return True

    def cancel(self) -> Resolved | None:
        """Stop the trace running; what it was tracing, or None when nothing was."""
        if self._job is None:
            return None
        job, resolved = self._job
        self._job = None
        job.cancel()
        return resolved

    def running(self) -> bool:
        """Whether a trace's thread is still alive (a cancelled one until its thread has ended)."""
        return bool(self._jobs)

    def shutdown(self, wait_ms: int) -> None:
        """Cancel the trace and wait up to `wait_ms` for its thread."""
        self._jobs.shutdown(wait_ms)

    def _latest(self, job: BackgroundJob) -> Resolved | None:
        return self._job[1] if self._job is not None and job is self._job[0] else None

    def _on_progress(self, job: BackgroundJob, done: int, total: int, what: str) -> None:
        resolved = self._latest(job)
        if resolved is not None:
            self.progressed.emit(resolved, done, total, what)

    def _on_succeeded(self, job: BackgroundJob, fit: Fit) -> None:
        resolved = self._latest(job)
        if resolved is not None:
            self._job = None
            self.succeeded.emit(resolved, fit)

    def _on_failed(self, job: BackgroundJob, message: str) -> None:
        resolved = self._latest(job)
        if resolved is not None:
            self._job = None
            self.failed.emit(resolved, message)
