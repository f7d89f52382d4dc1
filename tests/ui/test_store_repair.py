"""The window's start-up with a database it cannot use: a dialog names the file and offers the repair."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

from PySide6.QtCore import QTimer
from PySide6.QtWidgets import QApplication, QMessageBox

from gpuconfig.core.build.model import Build, BuildLine
from gpuconfig.core.paths import catalog_dir, user_data_dir
from gpuconfig.core.store_file import DB_NAME
from gpuconfig.core.userdata.store import Store
from gpuconfig.ui.app import start
from gpuconfig.ui.store_repair import DamagedStoreDialog

BUILD = Build("lab box", (BuildLine("nvidia-geforce-rtx-4090", 2),))


def answer(name: str, action: Callable[[QMessageBox], None], seen: list[str]) -> None:
    """When the modal dialog `name` is up, note its text and act on it (as the user would)."""

    def look() -> None:
        dialog = QApplication.activeModalWidget()
        if not isinstance(dialog, QMessageBox) or dialog.objectName() != name:
            QTimer.singleShot(20, look)
            return
        seen.append(f"{dialog.text()}\n{dialog.informativeText()}")
        action(dialog)

    QTimer.singleShot(0, look)


def truncated_store() -> tuple[Path, bytes]:
    """The user's database with a saved build, cut to half its size."""
    path = user_data_dir() / DB_NAME
    store = Store.open(path, catalog_dir())
    store.user.save_build(BUILD)
    store.close()
    data = path.read_bytes()
    path.write_bytes(data[: len(data) // 2])
    return path, data[: len(data) // 2]


def test_repair_moves_the_file_aside_rebuilds_it_and_opens_the_window(qtbot) -> None:  # type: ignore[no-untyped-def]
    path, damaged = truncated_store()
    seen: list[str] = []

    def repair(dialog: QMessageBox) -> None:
        assert isinstance(dialog, DamagedStoreDialog)
        answer("store_repaired", lambda done: done.accept(), seen)
        dialog.repair_button.click()

    answer("damaged_store", repair, seen)
    _, window = start(["gpuconfig"])
    assert window is not None
    qtbot.addWidget(window)
    asked, told = seen
    assert f"{path}: damaged (database disk image is malformed)" in asked
    moved = (p for p in path.parent.iterdir() if p.name.startswith(f"{DB_NAME}.damaged-"))
    backup = next(p for p in moved if not p.name.endswith(("-wal", "-shm")))
    assert backup.read_bytes() == damaged
    assert str(backup) in told and "Copied over: 1 saved builds" in told
    store = window.store  # type: ignore[attr-defined]
    assert store.user.load_build("lab box") == BUILD
    assert store.parts("gpu")


def test_quit_leaves_the_damaged_file_as_it_is(qtbot) -> None:  # type: ignore[no-untyped-def]
    path, damaged = truncated_store()
    seen: list[str] = []
    answer("damaged_store", lambda dialog: dialog.quit_button.click(), seen)  # type: ignore[attr-defined]
    _, window = start(["gpuconfig"])
    assert window is None
    assert len(seen) == 1 and str(path) in seen[0]
    assert path.read_bytes() == damaged
    assert not [p for p in path.parent.iterdir() if ".damaged-" in p.name]
