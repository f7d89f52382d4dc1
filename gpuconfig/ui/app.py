"""Start the GUI: the application object, translations, the store and the main window."""

from __future__ import annotations

from collections.abc import Sequence

from PySide6.QtCore import QLibraryInfo, QLocale, QTranslator
from PySide6.QtGui import QIcon
from PySide6.QtWidgets import QApplication, QMainWindow

from gpuconfig import __version__
from gpuconfig.core import i18n
from gpuconfig.core.paths import resources_dir


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


# The interface's languages, as the View menu offers them and the "language" setting keeps them: the system's
# (the default), English (the source texts) and Simplified Chinese (resources/translations/gpuconfig_zh_CN.ts).
LANGUAGE_SETTING = "language"
LANGUAGES = ("system", "en", "zh_CN")
_installed: list[QTranslator] = []


def language_locale(choice: str | None) -> QLocale:
    """The locale the interface speaks and formats numbers, dates and money in, for a language setting."""
    if choice == "en":
        return QLocale("en_US")
    if choice == "zh_CN":
        return QLocale("zh_CN")
    return QLocale.system()


def install_translations(app: QApplication, choice: str | None = None) -> QLocale:
    """Speak the chosen language (the system's when None or "system"): gpuconfig's and Qt's own translations where
    they exist, and the locale every QLocale() formats with. Replaces the translations installed before."""
    locale = language_locale(choice)
    QLocale.setDefault(locale)
    i18n.use(i18n.language_of(locale.name()))  # the texts the core writes: catalog fields, guide, exports
    while _installed:
        app.removeTranslator(_installed.pop())
    for directory, prefix in (
        (str(resources_dir() / "translations"), "gpuconfig"),
        (QLibraryInfo.path(QLibraryInfo.LibraryPath.TranslationsPath), "qtbase"),
    ):
        translator = QTranslator(app)
        if translator.load(locale, prefix, "_", directory):
            app.installTranslator(translator)
            _installed.append(translator)
    return locale


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
