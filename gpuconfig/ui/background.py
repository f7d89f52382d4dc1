"""Slow core work (traces, technique comparisons) on a worker thread, cancellable, reported by signals.

The core functions take `progress(done, total, what)` and `cancelled()` callbacks; a job hands them in,
runs the function on its own thread and emits exactly one of `succeeded`, `failed` or `cancelled`. Every
signal carries the job itself, so a panel that started a newer job can drop what an older one says.
"""

from __future__ import annotations

import threading
from collections.abc import Callable
from typing import Any

from PySide6.QtCore import QObject, QThread, Signal

from gpuconfig.core.workload.runner import TraceCancelled
from gpuconfig.core.workload.service import failure_text

Work = Callable[[Callable[[int, int, str], None], Callable[[], bool]], Any]


def one_line(message: str) -> str:
    """The first line of a message, for an inline error."""
    lines = [line.strip() for line in message.strip().splitlines() if line.strip()]
    return lines[0] if lines else message


class BackgroundJob(QThread):
    """`work(progress, cancelled)` on a thread of its own. Keep a reference until `finished`."""

    progressed = Signal(object, int, int, str)  # job, done, total, what
    succeeded = Signal(object, object)  # job, result
    failed = Signal(object, str)  # job, one-line message
    cancelled = Signal(object)  # job
    ended = Signal(object)  # job: after any of the above; the thread is about to finish

    def __init__(self, work: Work, what: str = "") -> None:
        super().__init__()
        self.work = work
        self.what = what
        self._stop = threading.Event()

    def cancel(self) -> None:
        """Ask the work to stop; a running trace process is killed within a tenth of a second."""
        self._stop.set()

    def is_cancelled(self) -> bool:
        return self._stop.is_set()

    def run(self) -> None:
        try:
            self._run()
        finally:
            self.ended.emit(self)

    def _run(self) -> None:
        try:
            result = self.work(self._progress, self._stop.is_set)
        except TraceCancelled:
            self.cancelled.emit(self)
            return
        except Exception as exc:  # a bug in the core must show as a message, never take the GUI down
            self.failed.emit(self, one_line(failure_text(exc)))
            return
        if self._stop.is_set():
            self.cancelled.emit(self)
        else:
            self.succeeded.emit(self, result)

    def _progress(self, done: int, total: int, what: str) -> None:
        self.progressed.emit(self, done, total, what)


class Jobs(QObject):
    """The live jobs of a panel: each kept from `start` until its thread has ended, then released.

    A QObject of the GUI thread, so a job's `ended` (emitted on the job's own thread) is handled here
    after the job's work has returned, where waiting for its thread takes microseconds.
    """

    def __init__(self, parent: QObject | None = None) -> None:
        super().__init__(parent)
        self._live: set[BackgroundJob] = set()

    def start(self, job: BackgroundJob) -> None:
        job.ended.connect(self._release)
        self._live.add(job)
        job.start()

    def __bool__(self) -> bool:
        return bool(self._live)

    def shutdown(self, wait_ms: int) -> None:
        """Cancel every job, then wait up to `wait_ms` for each thread."""
        for job in list(self._live):
            job.cancel()
        for job in list(self._live):
            job.wait(wait_ms)

    def _release(self, job: BackgroundJob) -> None:
        job.wait()
        self._live.discard(job)
        job.deleteLater()
