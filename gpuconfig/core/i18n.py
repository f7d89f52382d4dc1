"""The language of the texts the core writes itself: catalog field names, build lists, the setup guide, probe
reports, the command line's exports.

The window translates its own texts with Qt (QTranslator, the .qm files the build compiles); the core imports no
Qt, so it reads the same translations from their source, resources/translations/gpuconfig_<language>.ts (Qt
Linguist's XML: https://doc.qt.io/qt-6/linguist-ts-file-format.html). Core strings are marked with
`translate("Context", "text")`, which Qt's lupdate extracts into those files beside the window's, so one file per
language holds every text and one test finds any that is missing. Only finished translations are used; any other
text reads in English, the language the sources are written in.
"""

from __future__ import annotations

import functools
import xml.etree.ElementTree as ET

from gpuconfig.core.paths import resources_dir

ENGLISH = "en"
LANGUAGES = (ENGLISH, "zh_CN")  # the languages the core can write, as --lang names them
_current: dict[tuple[str, str], str] = {}
_language = [ENGLISH]


class UnknownLanguage(ValueError):
    pass


def language_of(name: str | None) -> str:
    """The supported language a locale or language name asks for ("zh_CN", "zh-Hans-CN", "zh", "en_US", "C"...);
    English for any other. A Chinese name other than simplified Chinese (zh_TW, zh_HK, zh-Hant) gets English."""
    text = (name or "").replace("-", "_").split(".")[0]
    parts = text.split("_")
    if parts[0].lower() == "zh" and not {"TW", "HK", "MO", "Hant"} & set(parts[1:]):
        return "zh_CN"
    return ENGLISH


def use(language: str) -> None:
    """Write in `language` (one of LANGUAGES) from now on."""
    if language not in LANGUAGES:
        raise UnknownLanguage(f"unknown language {language!r}: {', '.join(LANGUAGES)}")
    _current.clear()
    if language != ENGLISH:
        _current.update(_messages(language))
    _language[0] = language


def current() -> str:
    return _language[0]


def html_language() -> str:
    """The language in use as an HTML lang attribute (BCP 47): "en", "zh-CN"."""
    return current().replace("_", "-")


def translate(context: str, text: str) -> str:
    """`text` in the language in use (marked for lupdate under `context`); `text` itself where no translation is
    finished. Format after translating: translate("Ctx", "{n} parts").format(n=n)."""
    return _current.get((context, text), text)


def QT_TRANSLATE_NOOP(context: str, text: str) -> str:  # the name lupdate looks for
    """Marks `text` for lupdate where it is defined and translated later (translate(context, value))."""
    return text


@functools.cache
def _messages(language: str) -> dict[tuple[str, str], str]:
    path = resources_dir() / "translations" / f"gpuconfig_{language}.ts"
    try:
        root = ET.parse(path).getroot()
    except (OSError, ET.ParseError):
        return {}  # a damaged installation reads in English; the window's self-test names the missing file
    found: dict[tuple[str, str], str] = {}
    for context in root.iter("context"):
        name = context.findtext("name") or ""
        for message in context.iter("message"):
            translation = message.find("translation")
            source = message.findtext("source")
            if source is None or translation is None or translation.get("type") or not translation.text:
                continue
            found[(name, source)] = translation.text
    return found
