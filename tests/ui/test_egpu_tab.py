"""The eGPU tab driven as a user drives it: the real store, catalog/egpu.toml and checker, this machine's probe
(no Thunderbolt controller here) and a recorded Thunderbolt 4 sysfs tree, a real trace of a tiny model, and
one real measurement in a benchmark worker (no GPU here)."""

from __future__ import annotations

import json
import re
from collections.abc import Iterator
from pathlib import Path

import pytest
from PySide6.QtCore import Qt
from PySide6.QtGui import QGuiApplication

from gpuconfig.core.egpu.check import Check
from gpuconfig.core.egpu.report import egpu_text
from gpuconfig.core.units import format_bytes
from gpuconfig.probe.egpu import detect, os_id
from gpuconfig.ui.egpu import tab as egpu_module
from gpuconfig.ui.egpu.tab import EgpuTab
from gpuconfig.ui.egpu.view import FIX, short_source, source_links
from gpuconfig.ui.main_window import INDEX, MainWindow
from gpuconfig.ui.placeholder_tab import PlaceholderTab
from gpuconfig.ui.theme import DARK, LIGHT
from tests.probe.sysfs import sysfs_tree

TRACE_TIMEOUT_MS = 120_000
LLAMA_TRACE_TIMEOUT_MS = 300_000  # Llama-3-8B on meta tensors: about a minute here
MEASURE_TIMEOUT_MS = 120_000
LEFT = Qt.MouseButton.LeftButton
pytestmark = pytest.mark.usefixtures("shared_trace_cache")


@pytest.fixture
def tab(qtbot, window: MainWindow) -> Iterator[EgpuTab]:  # type: ignore[no-untyped-def]
    placeholder = window.tabs.widget(INDEX["egpu"])
    assert isinstance(placeholder, PlaceholderTab) and "external GPU" in placeholder.promise
    window.tabs.setCurrentIndex(INDEX["egpu"])  # built when first shown
    built = window.egpu_tab
    assert window.tabs.widget(INDEX["egpu"]) is built and window.tabs.tabText(INDEX["egpu"]) == "eGPU"
    qtbot.waitUntil(lambda: built.detection is not None, timeout=10_000)
    yield built
    built.shutdown()
    qtbot.waitUntil(lambda: not built.running(), timeout=10_000)  # no thread or worker process left behind


def choose(tab: EgpuTab, port: str = "", os: str = "", dock: str = "", gpu: str = "") -> None:
    """Pick from the combo boxes as a user does (each pick emits its change)."""
    form = tab.form
    for box, value in ((form.port, port), (form.os, os), (form.dock, dock), (form.gpu, gpu)):
        if value:
            index = box.findData(value)
            assert index >= 0, value
            box.setCurrentIndex(index)


def statuses(tab: EgpuTab) -> dict[str, str]:
    return {rule: status for rule, status, _ in tab.table.rows()}


def finding(tab: EgpuTab, rule: str) -> str:
    return next(text for name, _, text in tab.table.rows() if name == rule)


def test_the_tab_says_what_the_probe_found_here(tab: EgpuTab) -> None:
    assert tab.detection is not None
    if tab.detection.host is not None:
        pytest.skip("this machine has a Thunderbolt/USB4 controller")
    assert "no Thunderbolt/USB4 controller found" in tab.form.detected.text()
    assert tab.form.use_button.isHidden()  # nothing to use
    assert tab.form.os_id() == os_id()  # the OS defaults to this one
    assert tab.host().how == "described"


def test_a_thunderbolt_3_enclosure_on_a_thunderbolt_4_port_works(tab: EgpuTab) -> None:
    choose(tab, port="TB4", os="linux", dock="razer-core-x", gpu="nvidia-geforce-rtx-3090")
    report = tab.report
    assert report is not None and report.compatibility is not None
    assert report.compatibility.status != "fail"
    assert tab.banner.title.text().endswith("Compatible: Thunderbolt 4 port, Razer Core X, GeForce RTX 3090")
    found = statuses(tab)
    assert found["port"] == "ok" and found["length"] == "ok" and found["os"] == "ok"
    assert "Thunderbolt 4 hosts must accept Thunderbolt 3 devices" in finding(tab, "port")
    assert list(found.values()) == sorted(found.values(), key=["fail", "warn", "unknown", "ok"].index)
    assert tab.notes.notes  # NVIDIA on Linux has driver notes
    # The link: Thunderbolt 3's copy rate against the same card in a desktop PCIe 4.0 x16 slot.
    speed = tab.link.speed
    assert speed is not None and speed.link.id == "TB3" and speed.desktop_label == "PCIe 4.0 x16"
    assert [b.gbs for b in tab.link.bars.bars] == [speed.egpu_gbs, speed.desktop_gbs]
    assert speed.egpu_gbs < speed.desktop_gbs
    assert tab.link.sources.text().count("<a href=") == len(speed.link.sources)


def test_only_web_addresses_among_a_links_sources_are_links() -> None:
    html = source_links(["Local notes (file:///etc/passwd)", "Tom's <Hardware>: TB4 tested (https://example.com/tb4)"])
    assert re.findall(r'href="([^"]*)', html) == ["https://example.com/tb4"]
    assert "Local notes: file:///etc/passwd" in html and "Tom&#x27;s &lt;Hardware&gt;</a>" in html


def test_an_oculink_enclosure_on_thunderbolt_and_an_nvidia_card_on_a_mac_fail(tab: EgpuTab) -> None:
    choose(tab, port="TB3", os="linux", dock="minisforum-deg1", gpu="nvidia-geforce-rtx-4090")
    assert tab.report is not None and tab.report.status == "fail"
    title = tab.banner.title.text()
    assert title.endswith("Will not work: Thunderbolt 3 port, Minisforum DEG1 eGPU Dock, GeForce RTX 4090")
    assert statuses(tab)["port"] == "fail"
    assert "An OCuLink enclosure needs an OCuLink port" in finding(tab, "port")
    assert tab.table.rows()[0][0] == "port"  # the worst first
    assert not tab.table.isColumnHidden(FIX)  # a failing rule has a fix, so the Fix column shows
    assert tab.link.speed is None and "do not work together" in tab.link.text.text()

    choose(tab, port="TB4", os="macos-apple", dock="razer-core-x")
    found = statuses(tab)
    assert found["port"] == "ok" and found["os"] == "fail"
    assert "Macs with Apple silicon do not support eGPUs" in finding(tab, "os")


def test_a_charger_stronger_than_the_enclosure_charges_is_a_warning(tab: EgpuTab) -> None:
    choose(tab, port="TB4", os="windows", dock="razer-core-x", gpu="nvidia-geforce-rtx-3090")  # 100 W to the laptop
    tab.form.charger.setValue(90)
    assert statuses(tab)["charging"] == "ok"
    tab.form.charger.setValue(140)
    assert statuses(tab)["charging"] == "warn"
    assert "charges at up to 100 W; the laptop's charger gives 140 W" in finding(tab, "charging")
    assert tab.report is not None and tab.report.status == "warn"
    assert tab.banner.title.text().endswith("Works, with warnings: Thunderbolt 4 port, Razer Core X, GeForce RTX 3090")


def test_the_choice_survives_a_new_window(qtbot, store, tab: EgpuTab) -> None:  # type: ignore[no-untyped-def]
    choose(tab, port="OCuLink", os="windows", dock="lenovo-thinkbook-tgx", gpu="nvidia-geforce-rtx-4070")
    tab.form.charger.setValue(135)
    again = MainWindow(store)
    qtbot.addWidget(again)
    again.tabs.setCurrentIndex(INDEX["egpu"])
    form = again.egpu_tab.form
    assert (form.port_id(), form.os_id(), form.charger_w(), form.dock_id(), form.gpu_id()) == (
        "OCuLink", "windows", 135, "lenovo-thinkbook-tgx", "nvidia-geforce-rtx-4070",
    )  # fmt: skip
    assert "¥1,499 (≈ $" in form.dock.currentText()  # priced in CNY, shown in USD as well
    again.egpu_tab.shutdown()


def test_the_laptop_as_a_recorded_thunderbolt_4_probe_read_it(qtbot, store, tmp_path: Path) -> None:  # type: ignore[no-untyped-def]
    """A Razer Core X on an Alder Lake NUC whose link trained at 2 x 10 Gb/s (tests/probe/data/sysfs_tb4.json)."""
    tree = sysfs_tree("sysfs_tb4", tmp_path / "sys")
    tab = EgpuTab(store, LIGHT, detector=lambda: detect(tree, system="Linux", devices=[], boltctl_text=""))
    qtbot.addWidget(tab)
    tab.show()
    qtbot.waitUntil(lambda: tab.detection is not None, timeout=10_000)
    assert "link 2 x 10 Gb/s" in tab.form.detected.text() and "enclosure Razer Core X" in tab.form.detected.text()
    assert not tab.form.use_button.isHidden()
    choose(tab, port="TB3", dock="razer-core-x", gpu="nvidia-geforce-rtx-3090")
    qtbot.mouseClick(tab.form.use_button, LEFT)
    assert tab.host().how == "detected" and tab.form.port_id() == "USB4"
    found = statuses(tab)
    assert found["link-rate"] == "warn" and found["authorized"] == "ok" and "security" in found
    assert "trained at 2 x 10 Gb/s = 20 Gb/s" in finding(tab, "link-rate")
    assert "the laptop as detected" in tab.banner.summary.text()
    choose(tab, port="TB4")  # another port: the laptop is described again
    assert tab.host().how == "described" and "link-rate" not in statuses(tab)
    tab.shutdown()


def test_the_workload_tab_workload_gets_its_slowdown(  # type: ignore[no-untyped-def]
    qtbot, store, window: MainWindow, tab: EgpuTab, tiny_llama: Path
) -> None:
    assert "No workload yet" in tab.workload_panel.message.text()
    workload = {"model": str(tiny_llama), "task": "finetune", "precision": "amp_bf16", "batch": 4, "seq": 128}
    store.user.set_setting("workload.form", json.dumps(workload))  # what the Workload tab answered last
    choose(tab, port="TB4", dock="razer-core-x", gpu="nvidia-geforce-rtx-3090")
    window.tabs.setCurrentIndex(0)
    window.tabs.setCurrentIndex(INDEX["egpu"])  # shown again: the workload is read again, and traced
    qtbot.waitUntil(lambda: tab.report is not None and tab.report.slowdown is not None, timeout=TRACE_TIMEOUT_MS)
    assert tab.report is not None
    slowdown = tab.report.slowdown
    assert slowdown is not None and slowdown.input_bytes > 0 and slowdown.step_seconds > 0
    assert slowdown.egpu_copy_s > slowdown.desktop_copy_s and slowdown.serial >= slowdown.overlapped >= 0
    panel = tab.workload_panel
    assert panel.what.text().endswith("on GeForce RTX 3090") and "batch 4 x 128" in panel.what.text()
    assert panel.figures["bytes"].text() == format_bytes(slowdown.input_bytes)
    assert "slower" in panel.figures["serial"].text() or "none measurable" in panel.figures["serial"].text()
    # Another card: answered again from the trace at hand, at once.
    choose(tab, gpu="nvidia-geforce-rtx-4090")
    assert tab.tracing.current is None
    assert tab.answer is not None and tab.answer.gpu is not None and tab.answer.gpu.id == "nvidia-geforce-rtx-4090"
    assert panel.what.text().endswith("on GeForce RTX 4090")


def test_a_workload_too_big_for_the_card_is_not_called_compatible(  # type: ignore[no-untyped-def]
    qtbot, store, window: MainWindow, tab: EgpuTab
) -> None:
    """Llama-3-8B LoRA in bf16 at 2,048 tokens (about 29.5 GiB) on a 12 GB RTX 4070 in a Thunderbolt enclosure:
    the parts work together, the workload does not fit, and no step time is offered for it (a real trace)."""
    workload = {"model": "llama-3-8b", "task": "lora", "precision": "bf16", "batch": 1, "seq": 2048}
    store.user.set_setting("workload.form", json.dumps(workload))
    choose(tab, port="TB4", os="linux", dock="razer-core-x", gpu="nvidia-geforce-rtx-4070")
    window.tabs.setCurrentIndex(0)
    window.tabs.setCurrentIndex(INDEX["egpu"])  # shown again: the workload is read again, and traced
    qtbot.waitUntil(lambda: tab.report is not None and tab.report.verdict is not None, timeout=LLAMA_TRACE_TIMEOUT_MS)
    report = tab.report
    assert report is not None and report.verdict is not None and report.compatibility is not None
    verdict = report.verdict
    assert not verdict.fits and report.compatibility.status != "fail" and report.status == "fail"
    title = tab.banner.title.text()
    assert "Compatible" not in title and "Compatible" not in tab.banner.summary.text()
    assert f"Does not fit: {report.workload} needs {format_bytes(verdict.peak)}; GeForce RTX 4070 has" in title
    assert f"{format_bytes(verdict.usable)} usable ({format_bytes(verdict.memory)} less" in title
    assert tab.banner.summary.text().startswith("The laptop, enclosure and card work together")
    assert tab.table.rows()[0][:2] == ("fit", "fail")  # the worst first
    panel = tab.workload_panel
    assert report.slowdown is None and not panel.figures["step"].isVisibleTo(panel)
    assert "would not run" in panel.message.text()


def test_measuring_without_a_gpu_says_nothing_crossed_a_link(qtbot, tab: EgpuTab) -> None:  # type: ignore[no-untyped-def]
    if tab.detection is not None and isinstance(tab.detection.gpus, tuple) and tab.detection.gpus:
        pytest.skip("this machine has an NVIDIA GPU")
    bar = tab.measurer
    qtbot.mouseClick(bar.button, LEFT)
    assert bar.measuring() and not bar.button.isEnabled() and not bar.cancel_button.isHidden()
    qtbot.waitUntil(lambda: not bar.measuring(), timeout=MEASURE_TIMEOUT_MS)
    assert bar.status.text().startswith("Measured in") and bar.button.isEnabled()
    measured = {rule: (status, text) for rule, status, text in tab.table.rows() if rule.endswith("-measured")}
    status, text = measured["h2d-measured"]
    assert status == "unknown" and text.startswith("Nothing crossed a link: no CUDA device")
    assert "step-measured" in measured
    headings = [tab.table.item(r, 0).text() for r in range(tab.table.rowCount()) if tab.table.columnSpan(r, 0) > 1]
    assert headings == ["Measured on this machine"]
    assert tab.link.bars.bars and all(b.label != "Measured here" for b in tab.link.bars.bars)


def test_exports_text_and_json(qtbot, tab: EgpuTab, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:  # type: ignore[no-untyped-def]
    choose(tab, port="TB4", os="linux", dock="razer-core-x", gpu="nvidia-geforce-rtx-3090")
    suggested: list[str] = []

    def save_as(_parent: object, _title: str, name: str, _kinds: str) -> tuple[str, str]:
        suggested.append(name)
        return str(tmp_path / name), ""

    monkeypatch.setattr(egpu_module.QFileDialog, "getSaveFileName", save_as)
    tab.export_actions["json"].trigger()
    assert suggested == ["egpu-tb4-razer-core-x-geforce-rtx-3090.json"]
    record = json.loads((tmp_path / suggested[0]).read_text(encoding="utf-8"))
    compatibility = record["compatibility"]
    assert compatibility["status"] == "ok" and compatibility["dock"] == "razer-core-x"
    assert {c["rule"]: c["status"] for c in compatibility["checks"]}["port"] == "ok"
    assert record["speed"]["link"] == "TB3" and record["detected"]["found"] is (tab.detection.host is not None)
    tab.export_actions["text"].trigger()
    assert tab.report is not None
    assert (tmp_path / suggested[1]).read_text(encoding="utf-8") == egpu_text(tab.report) + "\n"
    with qtbot.waitSignal(tab.status_message):
        tab.copy_action.trigger()
    assert QGuiApplication.clipboard().text().startswith("Host: ")


def test_the_verdict_follows_the_theme(tab: EgpuTab, window: MainWindow) -> None:
    choose(tab, port="TB3", dock="minisforum-deg1")
    window.set_theme("dark")
    assert DARK.error in tab.banner.title.text()
    window.set_theme("light")
    assert LIGHT.error in tab.banner.title.text()


def test_a_source_is_named_not_spelled_out() -> None:
    check = Check(
        "power",
        "ok",
        "",
        source="razer-core-x: Geektopia: La nueva Core X (launch report; 2018-05-22) (https://geektopia.es/x); "
        "PSU calculators' rule of sizing for 50-80 % load (Intel ATX12VO design guide 2.0)",
    )
    assert short_source(check.source) == "Geektopia · PSU calculators' rule of sizing…"
