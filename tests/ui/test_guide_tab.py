"""The Guide tab driven as a user drives it: a catalog GPU on an OS, a typed driver, a build, probe reports, exports."""

from __future__ import annotations

import json
import re
from dataclasses import replace
from pathlib import Path
from typing import Any

import pytest
from PySide6.QtCore import Qt
from PySide6.QtGui import QGuiApplication
from PySide6.QtWidgets import QLabel

from gpuconfig.core.build.model import Build, BuildLine
from gpuconfig.core.catalog.model import Source
from gpuconfig.core.paths import user_data_dir
from gpuconfig.probe import nvml
from gpuconfig.probe.history import ProbeHistory
from gpuconfig.probe.session import ProbeRun
from gpuconfig.probe.verdicts import judge
from gpuconfig.ui.guide import tab as guide_module
from gpuconfig.ui.guide.tab import GuideTab
from gpuconfig.ui.main_window import INDEX, MainWindow
from gpuconfig.ui.placeholder_tab import PlaceholderTab
from gpuconfig.ui.theme import DARK, LIGHT
from tests.probe.reports import typed

PROBE_DATA = Path(__file__).resolve().parents[1] / "probe" / "data"
LEFT = Qt.MouseButton.LeftButton
# torch built for CUDA 13.0 on the recording's 550.54.15 driver (a CUDA 12.4 driver): the probe's classic failure.
TORCH_CU130 = {"version": "2.13.0+cu130", "cuda": "13.0", "hip": None, "cuda_available": False,
               "arch_list": ["sm_75", "sm_80", "sm_86", "sm_90", "sm_100", "sm_120", "compute_120"],
               "arch_in_build": {"0": True, "1": True}}  # fmt: skip


@pytest.fixture
def tab(window: MainWindow) -> GuideTab:
    assert isinstance(window.tabs.widget(INDEX["guide"]), PlaceholderTab)  # nothing built before it is shown
    window.tabs.setCurrentIndex(INDEX["guide"])
    built = window.guide_tab
    assert window.tabs.widget(INDEX["guide"]) is built
    return built


def probe_report(torch: dict[str, Any], os_name: str = "Ubuntu 22.04.4 LTS") -> dict[str, Any]:
    """A probe run's JSON, made by the probe's own code from the documented-values NVML recording."""
    recording = json.loads((PROBE_DATA / "nvml_documented.json").read_text(encoding="utf-8"))
    devices = [nvml.facts_from_raw(d["facts"]) for d in recording["devices"]]
    system: dict[str, Any] = {
        "os": {"name": os_name, "system": "Linux", "release": "6.8.0-45-generic"},
        "gpu": {"count": len(devices), "driver_version": "550.54.15"},
    }
    machine, gpus, facts = typed(system, devices, torch)
    run = ProbeRun(
        "2026-11-22T10:00:00+00:00", "quick", "python", "lab-07", machine, gpus, facts, (),
        judge(machine, gpus, facts, [], None),
    )  # fmt: skip
    return run.record()


def choose(tab: GuideTab, part_id: str, os_id: str) -> None:
    source = tab.source
    source.gpu.setCurrentIndex(source.gpu.findData(part_id))
    source.os.setCurrentIndex(source.os.findData(os_id))


def pip_command(tab: GuideTab) -> str:
    """The first pip install command on the page (the pip step's; conda's repeats it)."""
    return next(c for c in tab.view.commands if c.startswith("python -m pip install"))


def findings(tab: GuideTab, severity: str) -> list[str]:
    return [label.text() for label in tab.view.findings if label.objectName() == f"finding_{severity}"]


def test_an_rtx_5090_on_ubuntu_24_04_gets_a_cuda_12_8_or_newer_wheel(qtbot, tab: GuideTab) -> None:  # type: ignore[no-untyped-def]
    choose(tab, "nvidia-geforce-rtx-5090", "ubuntu-24.04")
    assert tab.guide is not None and tab.guide.title == "Set up GeForce RTX 5090 for PyTorch on Ubuntu 24.04 LTS"
    pip = pip_command(tab)
    index = re.search(r"--index-url https://download\.pytorch\.org/whl/cu(\d+)$", pip)
    assert index and int(index.group(1)) >= 128, pip
    assert "runs its sm_120 code" in tab.view.text()
    assert "1. Install the NVIDIA driver" in tab.view.text() and "Expect:" in tab.view.text()
    # Each command has its own Copy button, and it copies exactly that command.
    assert len(tab.view.copy_buttons) == len(tab.view.commands)
    button = tab.view.copy_buttons[tab.view.commands.index(pip)]
    with qtbot.waitSignal(tab.status_message):
        qtbot.mouseClick(button, LEFT)
    assert QGuiApplication.clipboard().text() == pip
    assert button.text() == "Copied"
    qtbot.waitUntil(lambda: button.text() == "Copy", timeout=5000)


def test_a_source_that_is_not_a_web_address_is_not_a_link_on_the_page(tab: GuideTab) -> None:
    choose(tab, "nvidia-geforce-rtx-5090", "ubuntu-24.04")
    assert tab.guide is not None
    notes = Source("file:///etc/passwd", "Local notes", "2026-01-05")
    tab.view.show_guide(replace(tab.guide, sources=(*tab.guide.sources, notes)))
    sources = tab.view.findChild(QLabel, "guide_sources")
    assert isinstance(sources, QLabel) and sources.openExternalLinks()
    links = re.findall(r'href="([^"]*)', sources.text())
    assert len(links) == len(tab.guide.sources) and all(link.startswith("https://") for link in links), links
    assert "Local notes: file:///etc/passwd" in sources.text()


def test_a_gtx_1080_keeps_the_cuda_12_6_wheel_and_says_newer_ones_dropped_it(tab: GuideTab) -> None:
    choose(tab, "nvidia-geforce-gtx-1080", "ubuntu-24.04")
    pip = pip_command(tab)
    assert pip.endswith("--index-url https://download.pytorch.org/whl/cu126") and '"torch==2.14.*"' in pip
    [warned] = [text for text in findings(tab, "warn") if "dropped" in text]
    assert "Newer PyTorch builds dropped this GPU" in warned
    assert "The CUDA 12.6 wheels are the last PyTorch wheels with code for it" in warned
    assert "compute capability 6.1" in tab.view.text() and "sm_60 code (same major version)" in tab.view.text()


def test_an_old_installed_driver_is_a_failing_finding(qtbot, tab: GuideTab) -> None:  # type: ignore[no-untyped-def]
    choose(tab, "nvidia-geforce-rtx-5090", "ubuntu-24.04")
    assert not findings(tab, "fail")
    qtbot.keyClicks(tab.source.driver, "535.54")
    qtbot.waitUntil(lambda: bool(findings(tab, "fail")), timeout=5000)
    [failed] = findings(tab, "fail")
    assert "Driver 535.54 is older than" in failed and "update the NVIDIA driver" in failed
    assert tab.view.findings[0].objectName() == "finding_fail"  # the worst comes first
    tab.source.driver.clear()
    qtbot.keyClicks(tab.source.driver, "latest")  # not a version: said so, and left out of the guide
    qtbot.waitUntil(lambda: tab.source.driver_problem.text() != "", timeout=5000)
    assert not findings(tab, "fail")


def test_a_recorded_probe_report_shows_its_findings(  # type: ignore[no-untyped-def]
    qtbot, tab: GuideTab, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    path = tmp_path / "lab-07.json"
    path.write_text(json.dumps(probe_report(TORCH_CU130)), encoding="utf-8")
    choose(tab, "nvidia-geforce-rtx-5090", "ubuntu-24.04")
    monkeypatch.setattr(guide_module.QFileDialog, "getOpenFileName", lambda *a, **k: (str(path), ""))
    qtbot.mouseClick(tab.source.findChild(type(tab.export_button), "open_report"), LEFT)
    assert tab.source.source() == "report" and tab.source.report_name.text() == "lab-07.json"
    assert tab.source.os_id() == "ubuntu-22.04"  # the probed machine's own OS
    assert not tab.source.driver.isEnabled()  # the report's driver is the one that counts
    assert tab.guide is not None and tab.guide.title.startswith("Setup guide for lab-07, probed 2026-11-22")
    failed = findings(tab, "fail")
    assert any("CUDA 13.0" in t and "550.54.15" in t and "580.65.06" in t for t in failed), failed
    assert any("PCIe link" in t for t in findings(tab, "warn"))
    pip = pip_command(tab)
    assert pip.endswith("/cu126")  # the newest build the probed driver runs


def test_a_broken_probe_report_is_named_not_a_crash(tab: GuideTab, tmp_path: Path) -> None:
    junk = tmp_path / "junk.json"
    junk.write_text("{not json", encoding="utf-8")
    assert "not a readable probe report" in tab.open_probe_report(junk)
    wrong = tmp_path / "wrong.json"
    wrong.write_text(json.dumps({"devices": []}), encoding="utf-8")
    assert tab.open_probe_report(wrong) == ""
    assert tab.guide is None and "missing key 'system'" in tab.view.text()
    assert not tab.export_button.isEnabled()


def test_this_machines_last_probe_is_offered_when_the_history_has_a_run(qtbot, store) -> None:  # type: ignore[no-untyped-def]
    history = ProbeHistory.open_default()
    history.save(ProbeRun.from_record(probe_report(TORCH_CU130, "Ubuntu 24.04.1 LTS")))
    history.close()
    window = MainWindow(store)
    qtbot.addWidget(window)
    window.tabs.setCurrentIndex(INDEX["guide"])
    tab = window.guide_tab
    assert tab.source.kind.findData("last_probe") >= 0
    tab.source.kind.setCurrentIndex(tab.source.kind.findData("last_probe"))
    assert "lab-07" in tab.source.last_probe.text() and tab.source.os_id() == "ubuntu-24.04"
    assert tab.guide is not None and tab.guide.title.startswith("Setup guide for lab-07")
    assert any("CUDA 13.0" in t for t in findings(tab, "fail"))


def test_no_history_no_last_probe_and_no_history_file(tab: GuideTab) -> None:
    assert tab.source.kind.findData("last_probe") < 0
    assert not (user_data_dir() / "probe_history.sqlite3").exists()  # looking for runs creates no history


def test_a_build_opens_with_its_gpus_and_their_multi_gpu_settings(  # type: ignore[no-untyped-def]
    qtbot, window: MainWindow, tmp_path: Path
) -> None:
    build = Build("Two 4090s", (BuildLine("nvidia-geforce-rtx-4090", 2), BuildLine("amd-ryzen-9-7950x", 1)))
    window.show_guide_for_build(build)
    tab = window.guide_tab
    assert window.tabs.currentWidget() is tab and tab.source.source() == "build"
    assert tab.guide is not None and "2 x GeForce RTX 4090" in tab.guide.title
    assert "export NCCL_P2P_DISABLE=1" in tab.view.commands  # GeForce 40 cards have no peer-to-peer path
    bad = tmp_path / "bad.json"
    bad.write_text("[]", encoding="utf-8")
    assert tab.open_build_file(bad) != ""
    assert tab.guide is not None and "GeForce RTX 4090" in tab.guide.title  # the last good build stays
    tab.show_gpu("nvidia-h100-sxm", 8)
    assert tab.source.source() == "catalog" and tab.guide is not None and "8 x H100 SXM" in tab.guide.title


@pytest.mark.parametrize("fmt", ["md", "html", "json", "pdf"])
def test_each_export_writes_a_file(tab: GuideTab, tmp_path: Path, fmt: str, monkeypatch: pytest.MonkeyPatch) -> None:
    choose(tab, "nvidia-geforce-rtx-5090", "ubuntu-24.04")
    target = tmp_path / f"guide.{fmt}"
    suggested: list[str] = []

    def save_as(_parent: object, _title: str, name: str, _kinds: str) -> tuple[str, str]:
        suggested.append(name)
        return str(target), ""

    monkeypatch.setattr(guide_module.QFileDialog, "getSaveFileName", save_as)
    tab.export_actions[fmt].trigger()
    assert suggested == [f"setup-guide-geforce-rtx-5090-ubuntu-24.04.{fmt}"]
    assert tab.guide is not None
    pip = tab.guide.install_command
    if fmt == "pdf":
        assert target.read_bytes().startswith(b"%PDF")
    elif fmt == "json":
        assert json.loads(target.read_text(encoding="utf-8"))["install_command"] == pip
    else:
        assert pip in target.read_text(encoding="utf-8").replace("&quot;", '"')


def test_the_guide_follows_the_theme(qtbot, window: MainWindow, tab: GuideTab) -> None:  # type: ignore[no-untyped-def]
    choose(tab, "nvidia-geforce-rtx-5090", "ubuntu-24.04")
    qtbot.keyClicks(tab.source.driver, "535.54")
    qtbot.waitUntil(lambda: bool(findings(tab, "fail")), timeout=5000)
    window.set_theme("light")
    assert LIGHT.error in tab.view.findings[0].text()
    window.set_theme("dark")
    assert DARK.error in tab.view.findings[0].text()


def test_the_choice_is_remembered(qtbot, store, tab: GuideTab) -> None:  # type: ignore[no-untyped-def]
    choose(tab, "nvidia-geforce-gtx-1080", "windows-11")
    tab.source.count.setValue(2)
    again = GuideTab(store, LIGHT)
    qtbot.addWidget(again)
    assert (again.source.gpu_id(), again.source.count.value(), again.source.os_id()) == (
        "nvidia-geforce-gtx-1080", 2, "windows-11",
    )  # fmt: skip
    assert any(c.startswith("py -") for c in again.view.commands)  # Windows gets PowerShell commands


# The completer's popup is a top-level window: the offscreen plugin says it can neither raise it nor grab keys.
@pytest.mark.qt_log_ignore(r"This plugin does not support (raise\(\)|grabbing the keyboard)")
def test_the_gpu_list_is_searched_by_any_part_of_a_name(qtbot, tab: GuideTab) -> None:  # type: ignore[no-untyped-def]
    search, completer = tab.source.gpu.lineEdit(), tab.source.gpu.completer()
    search.selectAll()
    qtbot.keyClicks(search, "1080 ti")
    assert completer.completionCount() == 1
    popup = completer.popup()
    qtbot.waitUntil(popup.isVisible, timeout=5000)
    qtbot.keyClick(popup, Qt.Key.Key_Down)
    qtbot.keyClick(popup, Qt.Key.Key_Return)
    qtbot.waitUntil(lambda: tab.source.gpu_id() == "nvidia-geforce-gtx-1080-ti", timeout=5000)
    assert tab.guide is not None and "GeForce GTX 1080 Ti" in tab.guide.title
    search.selectAll()
    qtbot.keyClicks(search, "no such card")
    qtbot.keyClick(search, Qt.Key.Key_Return)
    assert search.text() == "NVIDIA GeForce GTX 1080 Ti"  # text that names no GPU is put back
