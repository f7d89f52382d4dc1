"""The Simplified Chinese interface: complete against the sources, compiled by the build, chosen in the View menu."""

from __future__ import annotations

import ast
import re
import shutil
import sys
import xml.etree.ElementTree as ET
from collections.abc import Iterator
from pathlib import Path

import pytest
from PySide6.QtCore import QCoreApplication, QLocale
from PySide6.QtWidgets import QApplication

from gpuconfig.core.userdata.store import Store
from gpuconfig.ui.app import start
from gpuconfig.ui.language import LANGUAGE_SETTING, install_translations
from gpuconfig.ui.main_window import MainWindow

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT / "packaging"))
import translations  # noqa: E402

TS = ROOT / "resources" / "translations" / "gpuconfig_zh_CN.ts"
PLACEHOLDER = re.compile(r"\{[^{}]*\}|%L?\d|%n|<[^<>]+>")


def messages(path: Path) -> list[tuple[str, str, ET.Element]]:
    root = ET.parse(path).getroot()
    return [
        (str(context.findtext("name")), str(message.findtext("source")), message.find("translation"))  # type: ignore[misc]
        for context in root.iter("context")
        for message in context.iter("message")
    ]


@pytest.fixture
def english(qapp: QApplication) -> Iterator[None]:
    yield
    install_translations(qapp, "en")


def test_every_string_of_the_interface_has_a_finished_translation(tmp_path: Path) -> None:
    """lupdate over today's sources into a copy of the .ts adds nothing and leaves nothing unfinished."""
    assert translations.DATA_STRINGS.read_text(encoding="utf-8") == translations.data_strings()  # current
    copy = tmp_path / TS.name
    shutil.copy(TS, copy)
    translations.update([copy], write_data=False)
    found = messages(copy)
    assert len(found) > 800
    unfinished = [(context, source) for context, source, translation in found if translation.get("type")]
    empty = [(context, source) for context, source, translation in found if not (translation.text or "").strip()]
    assert unfinished == []
    assert empty == []
    assert {(c, s) for c, s, _ in found} == {(c, s) for c, s, _ in messages(TS)}  # the committed file is current


def test_translations_keep_every_placeholder_and_tag() -> None:
    """A translation that drops or misspells a {field}, %1 or HTML tag breaks its format() call or the markup."""
    broken = [
        (context, source)
        for context, source, translation in messages(TS)
        if sorted(PLACEHOLDER.findall(source)) != sorted(PLACEHOLDER.findall(translation.text or ""))
    ]
    assert broken == []


def test_no_translated_call_formats_its_text_first() -> None:
    """tr(f"...") looks up the formatted text, which no .ts holds: the template goes to tr, the values after."""
    names = {"tr", "translate", "QT_TRANSLATE_NOOP", "QT_TR_NOOP"}
    offenders = []
    for path in translations.python_sources():
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if not isinstance(node, ast.Call):
                continue
            name = node.func.attr if isinstance(node.func, ast.Attribute) else getattr(node.func, "id", "")
            if name in names and any(isinstance(arg, ast.JoinedStr) for arg in node.args):
                offenders.append(f"{path.relative_to(ROOT)}:{node.lineno}")
    assert offenders == []


def test_no_translation_call_sits_inside_an_f_string() -> None:
    """lupdate does not look inside an f-string's braces: a tr() or translate() there is never extracted, and its
    text stays English even when the same words are translated elsewhere."""
    names = {"tr", "translate", "QT_TRANSLATE_NOOP", "QT_TR_NOOP"}
    hidden = []
    for path in translations.python_sources():
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if not isinstance(node, ast.JoinedStr):
                continue
            for inner in ast.walk(node):
                if isinstance(inner, ast.Call):
                    func = inner.func
                    name = func.attr if isinstance(func, ast.Attribute) else getattr(func, "id", "")
                    if name in names:
                        hidden.append(f"{path.relative_to(ROOT)}:{inner.lineno}")
    assert hidden == []


def translated_calls(tree: ast.AST) -> list[tuple[str, str, int]]:
    """(context, text, line) of every translation call with a literal text: self.tr() in a class (its context is
    the class's name), translate() and the NOOP markers (their context is their first argument)."""
    found: list[tuple[str, str, int]] = []

    def visit(node: ast.AST, cls: str) -> None:
        for child in ast.iter_child_nodes(node):
            visit(child, child.name if isinstance(child, ast.ClassDef) else cls)
        if not isinstance(node, ast.Call):
            return
        name = node.func.attr if isinstance(node.func, ast.Attribute) else getattr(node.func, "id", "")
        args = [a.value if isinstance(a, ast.Constant) and isinstance(a.value, str) else None for a in node.args]
        if name in ("tr", "QT_TR_NOOP") and args and args[0] is not None and cls:
            found.append((cls, args[0], node.lineno))
        elif name in ("translate", "QT_TRANSLATE_NOOP") and len(args) > 1 and None not in args[:2]:
            found.append((str(args[0]), str(args[1]), node.lineno))

    visit(tree, "")
    return found


def test_lupdate_finds_every_translated_text() -> None:
    """A text lupdate cannot see (a tr() inside an f-string's braces, say) would show in English whatever the .ts
    says: every literal text given to tr(), translate() or a NOOP marker is in the .ts, under its own context."""
    known = {(context, source) for context, source, _ in messages(TS)}
    unseen = [
        f"{path.relative_to(ROOT)}:{line}: {context}: {text[:60]}"
        for path in translations.python_sources()
        for context, text, line in translated_calls(ast.parse(path.read_text(encoding="utf-8")))
        if (context, text) not in known
    ]
    assert unseen == []


def test_the_build_compiles_what_qt_loads(qapp: QApplication, english: None, tmp_path: Path) -> None:
    built = translations.release(tmp_path)
    assert [path.name for path in built] == ["gpuconfig_zh_CN.qm"]
    assert built[0].stat().st_size > 10_000
    install_translations(qapp, "zh_CN")
    assert QCoreApplication.translate("MainWindow", "&File") == "文件(&F)"
    assert QLocale().name() == "zh_CN"
    install_translations(qapp, "en")
    assert QCoreApplication.translate("MainWindow", "&File") == "&File"
    assert QLocale().name() == "en_US"


def test_choosing_chinese_rebuilds_the_window_in_chinese_and_is_kept(qtbot, store: Store, english: None) -> None:  # type: ignore[no-untyped-def]
    window = MainWindow(store)
    qtbot.addWidget(window)
    window.show()
    assert window.tabs.tabText(0) == "Catalog"
    replacement = window.set_language("zh_CN", rebuild=True)
    assert replacement is not None
    qtbot.addWidget(replacement)
    assert [replacement.tabs.tabText(i) for i in range(3)] == ["硬件目录", "工作负载", "装机方案"]
    assert replacement.language_actions["zh_CN"].isChecked()
    assert not window.isVisible()
    assert store.user.setting(LANGUAGE_SETTING) == "zh_CN"
    deferred = replacement.set_language("en", rebuild=False)
    assert deferred is None
    assert store.user.setting(LANGUAGE_SETTING) == "en"
    assert replacement.tabs.tabText(0) == "硬件目录"  # until the next start
    MainWindow.windows.clear()


def test_a_saved_language_is_spoken_from_the_start(qtbot, store: Store, monkeypatch, english: None) -> None:  # type: ignore[no-untyped-def]
    store.user.set_setting(LANGUAGE_SETTING, "zh_CN")
    monkeypatch.setattr("gpuconfig.core.userdata.store.open_default_store", lambda: store)
    _, window = start(["gpuconfig"])
    assert isinstance(window, MainWindow)
    qtbot.addWidget(window)
    assert window.tabs.tabText(1) == "工作负载"
    assert window.menuBar().actions()[0].text() == "文件(&F)"


def test_the_probes_own_reasons_are_shown_in_the_language_chosen_and_kept_in_english(
    qapp: QApplication, english: None
) -> None:
    """A report keeps the probe's reasons as the probe said them (English, for any reader); the window shows them
    through the translation, as the inventory tree and the eGPU tab do."""
    from gpuconfig.core.i18n import translate
    from gpuconfig.probe.inventory import NO_THUNDERBOLT

    assert NO_THUNDERBOLT.startswith("no Thunderbolt/USB4 controller found")
    install_translations(qapp, "zh_CN")
    try:
        assert translate("Probe", NO_THUNDERBOLT).startswith("未找到 Thunderbolt/USB4 控制器")
        assert (
            translate("Probe", "no NVIDIA driver (libnvidia-ml not found)") == "没有 NVIDIA 驱动（未找到 libnvidia-ml）"
        )
        assert translate("Probe", "a reason no one marked") == "a reason no one marked"  # shown as said
    finally:
        install_translations(qapp, "en")
