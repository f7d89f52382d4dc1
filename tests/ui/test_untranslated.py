"""In 简体中文, no widget of any tab shows English prose: every label, button, menu, header, tooltip, placeholder
and item of every tab, each tab filled with real content (a part chosen, a build, a probe run, a guide, an eGPU
check), is walked and its text judged by one rule.

The rule (no list of exceptions): a text with no Chinese character that holds a word followed by a lower-case
English word is English prose ("not counted", "Compare renting"). Product names (GeForce RTX 4090, Ada Lovelace),
units (GB/s, tokens/s), identifiers (fp32, cu128, nvidia-geforce-rtx-4090), numbers, URLs and file names have no such
run and pass; so does a name shown with its identifier word for word, a program's own output quoted whole, a text
that mixes Chinese with a quoted English program output, and anything in a fixed-pitch font (commands and code, typed
as they stand).
"""

from __future__ import annotations

import json
import re
from collections.abc import Iterator
from pathlib import Path

import pytest
from PySide6.QtCore import Qt
from PySide6.QtGui import QFontInfo
from PySide6.QtWidgets import (
    QAbstractButton,
    QApplication,
    QComboBox,
    QGroupBox,
    QHeaderView,
    QLabel,
    QLineEdit,
    QMenu,
    QTabBar,
    QTextBrowser,
    QTreeWidget,
    QWidget,
)

from gpuconfig.core.build.model import Build, BuildLine
from gpuconfig.core.userdata.store import Store
from gpuconfig.probe.history import ProbeHistory
from gpuconfig.probe.session import ProbeRun
from gpuconfig.ui.language import install_translations
from gpuconfig.ui.main_window import INDEX, MainWindow

pytestmark = pytest.mark.usefixtures("shared_trace_cache")
H100 = Path(__file__).resolve().parents[2] / "benchmarks" / "results" / "gpu_h100" / "probe_full.json"
CJK = re.compile(r"[\u3400-\u9fff\uff00-\uffef\u3000-\u303f]")
MARKUP = re.compile(r"<[^>]+>|&[a-z]+;|https?://\S+|`[^`]*`|\S+\.(?:json|csv|md|html|pdf|py|toml)\b")
PROSE = re.compile(r"\b[A-Za-z][a-z]+\s+[a-z]{2,}\b")


QUOTED = re.compile(r'^"[^"]+"(?:\s*\S{1,3}\s*"[^"]+")*$')
NAMED = re.compile(r"^(?P<name>.+) \((?P<id>[a-z0-9.+-]+)\)$")


def english_prose(text: str) -> bool:
    """Whether `text` reads as untranslated English (see the module's rule)."""
    if CJK.search(text):
        return False
    if QUOTED.match(text.strip()):
        return False  # a program's own words, quoted as it prints them (an error message to search for)
    named = NAMED.match(text.strip())
    if named and re.sub(r"[^a-z0-9]+", " ", named["name"].lower()).split() == named["id"].replace("-", " ").split():
        return False  # a name shown with its identifier, word for word ("Whisper small (whisper-small)")
    return bool(PROSE.search(MARKUP.sub(" ", text)))


def test_the_rule_tells_prose_from_names_units_and_ids() -> None:
    for prose in ("not counted", "Compare renting", "Choose a preset or describe a workload.", "<b>per hour</b>",
                  "Whisper small (a model)"):  # fmt: skip
        assert english_prose(prose), prose
    for fine in ("GeForce RTX 4090", "Ada Lovelace", "1,008 GB/s", "tokens/s", "fp32", "torch 2.15 cu132",
                 "nvidia-geforce-rtx-4090", "不计入（例如 0.538）", "https://download.pytorch.org/whl/cu128",
                 "report.json", "pip 输出 Looking in indexes: x", "English", "简体中文", "",
                 "Whisper small (whisper-small)", '"no kernel image is available" 或 "sm_XY is not compatible"',
                 '"CUDA driver version is insufficient for CUDA runtime version"'):  # fmt: skip
        assert not english_prose(fine), fine


def texts(widget: QWidget) -> Iterator[tuple[str, str]]:
    """(where, text) of everything a user can read on a widget; none of a widget in a fixed-pitch font (a command
    or code, typed as it stands)."""
    name = f"{type(widget).__name__}#{widget.objectName()}"
    if QFontInfo(widget.font()).fixedPitch():
        return
    if widget.toolTip():
        yield f"{name} tooltip", widget.toolTip()
    if isinstance(widget, (QLabel, QAbstractButton)):
        yield name, widget.text()
    elif isinstance(widget, QGroupBox):
        yield name, widget.title()
    elif isinstance(widget, QLineEdit):
        yield f"{name} placeholder", widget.placeholderText()
    elif isinstance(widget, QTextBrowser):
        yield name, widget.toPlainText()
    elif isinstance(widget, QComboBox):
        for row in range(widget.count()):
            yield f"{name} item", widget.itemText(row)
    elif isinstance(widget, QTabBar):
        for index in range(widget.count()):
            yield f"{name} tab", widget.tabText(index)
    elif isinstance(widget, QMenu):
        for action in widget.actions():
            yield f"{name} action", action.text()
            yield f"{name} action tooltip", action.toolTip() if action.toolTip() != action.text() else ""
    if isinstance(widget, QTreeWidget):  # the names column (a tree's values are figures, names and paths)
        pending = [widget.topLevelItem(i) for i in range(widget.topLevelItemCount())]
        while pending:
            item = pending.pop()
            yield f"{name} item", item.text(0)
            pending += [item.child(i) for i in range(item.childCount())]
    if isinstance(widget, QHeaderView) and widget.model() is not None and widget.isVisible():
        for section in range(widget.count()):
            header = widget.model().headerData(section, widget.orientation(), Qt.ItemDataRole.DisplayRole)
            yield f"{name} header", str(header or "")


@pytest.fixture
def chinese(qapp: QApplication) -> Iterator[None]:
    install_translations(qapp, "zh_CN")
    yield
    install_translations(qapp, "en")


def test_no_tab_shows_english_prose_in_chinese(qtbot, store: Store, chinese: None) -> None:  # type: ignore[no-untyped-def]
    history = ProbeHistory.open_default()
    run_id = history.save(ProbeRun.from_record(json.loads(H100.read_text(encoding="utf-8"))))
    history.close()
    window = MainWindow(store)
    qtbot.addWidget(window)
    window.show()
    catalog = window.catalog_tab
    catalog.show_kind("gpu")
    catalog.select_part("nvidia-geforce-rtx-4090-d")
    window.tabs.setCurrentIndex(INDEX["workload"])
    window.tabs.setCurrentIndex(INDEX["build"])
    window.build_tab.set_build(
        Build("工作站", (BuildLine("nvidia-geforce-rtx-4090-d", 2), BuildLine("samsung-990-pro-2tb")), currency="CNY")
    )
    window.tabs.setCurrentIndex(INDEX["probe"])
    window.probe_tab.refresh_history()
    window.probe_tab.open_run(run_id)
    window.tabs.setCurrentIndex(INDEX["guide"])
    window.guide_tab.show_gpu("nvidia-geforce-rtx-4090-d", 2)
    window.tabs.setCurrentIndex(INDEX["egpu"])
    window.egpu_tab.form.set_choice(
        port="TB4", os="linux", charger_w=0, dock="razer-core-x", gpu="nvidia-geforce-rtx-3090"
    )
    qtbot.wait(200)
    widgets = [window, *window.findChildren(QWidget), *window.menuBar().findChildren(QMenu)]
    found = sorted({f"{where}: {text[:90]!r}" for w in widgets for where, text in texts(w) if english_prose(text)})
    try:
        assert found == [], "\n".join(found)
    finally:
        for name in ("workload", "build", "probe", "egpu"):
            window.built[name].shutdown()  # type: ignore[attr-defined]


def test_a_run_saved_in_english_reads_in_chinese_when_opened(qtbot, store: Store, chinese: None) -> None:  # type: ignore[no-untyped-def]
    saved = ProbeRun.from_record(json.loads(H100.read_text(encoding="utf-8")))
    assert saved.verdicts and not any(re.search(r"[\u4e00-\u9fff]", v.message) for v in saved.verdicts)
    history = ProbeHistory.open_default()
    run_id = history.save(saved)
    history.close()
    window = MainWindow(store)
    qtbot.addWidget(window)
    window.probe_tab.refresh_history()
    window.probe_tab.open_run(run_id)
    shown = window.probe_tab.shown_run
    assert shown is not None and len(shown.verdicts) == len(saved.verdicts)
    assert [v.status for v in shown.verdicts] == [v.status for v in saved.verdicts]  # the same judgement
    assert [v.message for v in shown.verdicts if english_prose(v.message)] == []
    assert sum(bool(re.search(r"[\u4e00-\u9fff]", v.message)) for v in shown.verdicts) > len(shown.verdicts) // 2
    window.built["probe"].shutdown()  # type: ignore[attr-defined]


def test_the_fleet_tab_reads_in_chinese(qtbot, store: Store, chinese: None, tmp_path) -> None:  # type: ignore[no-untyped-def]
    import random

    from benchmarks.fleet_synthetic import node_record, template

    rng = random.Random(1)
    for i in range(1, 6):
        record = node_record(template(), f"n{i}", rng, 0.01)
        if i == 2:
            record["system"]["gpu"]["driver_version"] = "570.86.15"
            for row in record["benchmarks"]:
                if row["name"] == "memory_bandwidth":
                    row["value"] *= 0.7
        (tmp_path / f"n{i}.json").write_text(json.dumps(record))
    window = MainWindow(store)
    qtbot.addWidget(window)
    window.show()
    window.tabs.setCurrentIndex(INDEX["fleet"])
    tab = window.fleet_tab
    tab.open_folder(str(tmp_path))
    qtbot.waitUntil(lambda: not tab.busy() and tab.diagnosis is not None, timeout=30_000)
    tab.heatmap.select_node("n2")
    assert "n2" in tab.node_title.text() and tab.reasons.text()
    widgets = [tab, *tab.findChildren(QWidget)]
    skip = (tab.report_view,)  # the node's own probe report: the Probe tab's test reads that in Chinese
    found = sorted(
        {f"{where}: {text[:90]!r}" for w in widgets if w not in skip for where, text in texts(w) if english_prose(text)}
    )
    assert found == [], "\n".join(found)
