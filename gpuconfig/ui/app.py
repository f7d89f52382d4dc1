"""Start the GUI: the application object, translations, the store and the main window."""

from __future__ import annotations

from collections.abc import Sequence

from PySide6.QtGui import QIcon
from PySide6.QtWidgets import QApplication, QMainWindow

from gpuconfig import __version__
from gpuconfig.core.paths import resources_dir
from gpuconfig.ui.language import LANGUAGE_SETTING, LANGUAGES, install_translations


def create_application(argv: Sequence[str]) -> QApplication:
    existing = QApplication.instance()
    app = existing if isinstance(existing, QApplication) else QApplication(list(argv))
    app.setApplicationName("gpuconfig")
    app.setApplicationDisplayName("gpuconfig")
    app.setApplicationVersion(__version__)
    app.setDesktopFileName("gpuconfig")
    icon = resources_dir() / "gpuconfig.svg"
    if icon.exists():
        app.setWindowIcon(QIcon(str(icon)))
    install_translations(app)
    return app


def start(argv: Sequence[str]) -> tuple[QApplication, QMainWindow | None]:
    """Everything up to a shown main window (None, after telling the user why, if the store cannot open)."""
    from gpuconfig.core.catalog.schema import SchemaError
    from gpuconfig.core.database import DamagedDatabase, StoreError
    from gpuconfig.core.userdata.store import open_default_store
    from gpuconfig.ui.main_window import MainWindow

    app = create_application(argv)
    try:
        store = open_default_store()
    except DamagedDatabase as exc:
        from gpuconfig.ui.store_repair import repaired_store

        repaired = repaired_store(exc)
        if repaired is None:
            return app, None
        store = repaired
    except (StoreError, SchemaError) as exc:
        from PySide6.QtWidgets import QMessageBox

        QMessageBox.critical(None, "gpuconfig", str(exc))
        return app, None
    saved = store.user.setting(LANGUAGE_SETTING)
    if saved in LANGUAGES and saved != "system":
        install_translations(app, saved)
    window = MainWindow(store)
    window.show()
    return app, window


def run(argv: Sequence[str]) -> int:
    app, window = start(argv)
    if window is None:
        return 2
    return app.exec()
