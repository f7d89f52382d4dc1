"""A save that waits for the user to pause, and stops once its tab shuts down."""

from __future__ import annotations

from collections.abc import Callable

from PySide6.QtCore import QObject, QTimer

PAUSE_MS = 2000  # edits this close together make one write


class DeferredSave(QObject):
    """Calls `save` once the requests have paused for PAUSE_MS. `close` writes what is pending and refuses
    any later request: a refresh that arrives while the tab shuts down (a cancelled trace reporting back,
    say) must not write to a store that closes next."""

    def __init__(self, save: Callable[[], None], parent: QObject) -> None:
        super().__init__(parent)
        self._save = save
        self._closed = False
        self._timer = QTimer(self)
        self._timer.setSingleShot(True)
        self._timer.setInterval(PAUSE_MS)
        self._timer.timeout.connect(save)

    def request(self) -> None:
        if not self._closed:
            self._timer.start()

    def pending(self) -> bool:
        return self._timer.isActive()

    def close(self) -> None:
        self._closed = True
        if self._timer.isActive():
            self._timer.stop()
            self._save()
