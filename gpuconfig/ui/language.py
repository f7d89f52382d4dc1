"""The interface's language: Qt's translators for gpuconfig's own texts and Qt's, the locale Qt formats with, and
the language the core writes its texts in (core/i18n.py), all from one choice."""

from __future__ import annotations

from PySide6.QtCore import QLibraryInfo, QLocale, QTranslator
from PySide6.QtWidgets import QApplication

from gpuconfig.core import i18n
from gpuconfig.core.paths import resources_dir

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
