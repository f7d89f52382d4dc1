"""The deferred save both tabs remember the user's work with."""

from __future__ import annotations

from PySide6.QtCore import QObject

from gpuconfig.ui.widgets.deferred_save import PAUSE_MS, DeferredSave


def test_requests_make_one_write_once_they_pause(qtbot) -> None:  # type: ignore[no-untyped-def]
    writes: list[int] = []
    owner = QObject()  # the tab, in the app
    saver = DeferredSave(lambda: writes.append(1), owner)
    for _ in range(3):
        saver.request()
    assert saver.pending() and writes == []
    qtbot.waitUntil(lambda: writes == [1], timeout=PAUSE_MS * 3)
    assert not saver.pending()


def test_close_writes_what_is_pending_and_refuses_later_requests(qtbot) -> None:  # type: ignore[no-untyped-def]
    writes: list[int] = []
    owner = QObject()  # the tab, in the app
    saver = DeferredSave(lambda: writes.append(1), owner)
    saver.request()
    saver.close()
    assert writes == [1] and not saver.pending()
    saver.request()  # a refresh that arrives while the tab shuts down: its store may close next
    assert not saver.pending()
    qtbot.wait(PAUSE_MS + 500)
    assert writes == [1]
