"""The Workload tab's fit verdict: it states the usable memory and the headroom kept, it follows the user's
headroom setting (File → Fit headroom…), and an answer for an older workload is muted and says so while a new
trace runs or the form holds an error. Real traces of tiny models (seconds on a CPU)."""

from __future__ import annotations

import json
from collections.abc import Iterator
from pathlib import Path

import pytest
from conftest import TINY_LLAMA
from PySide6.QtGui import QPalette
from PySide6.QtWidgets import QInputDialog, QLabel

from gpuconfig.core.units import format_bytes
from gpuconfig.core.workload.answer import Answer, answer_from_fit
from gpuconfig.core.workload.fit import HEADROOM_SETTING, default_headroom
from gpuconfig.core.workload.spec import Workload
from gpuconfig.ui.main_window import INDEX, MainWindow
from gpuconfig.ui.workload.batch_chart import largest_fitting
from gpuconfig.ui.workload.tab import WorkloadTab

TRACE_TIMEOUT_MS = 120_000
SMALL_GPU = "nvidia-geforce-rtx-3070"  # 8 GB
pytestmark = pytest.mark.usefixtures("shared_trace_cache")


@pytest.fixture
def tab(qtbot, window: MainWindow) -> Iterator[WorkloadTab]:  # type: ignore[no-untyped-def]
    window.tabs.setCurrentIndex(INDEX["workload"])
    built = window.workload_tab
    yield built
    built.shutdown()
    qtbot.waitUntil(lambda: not built.running(), timeout=10_000)


def tiny_workload(model: Path, **changes: object) -> Workload:
    base = Workload(str(model), task="finetune", precision="amp_bf16", optimizer="adamw", batch=4, seq=128)
    return base.with_changes(**changes)


def answered(qtbot, tab: WorkloadTab, batch: int | None = None) -> Answer:  # type: ignore[no-untyped-def]
    def done() -> bool:
        if tab.answer is None or tab._debounce.isActive() or tab.tracing.current is not None:
            return False
        return batch is None or tab.answer.estimate.workload.batch == batch

    qtbot.waitUntil(done, timeout=TRACE_TIMEOUT_MS)
    assert tab.answer is not None
    return tab.answer


def words(label: QLabel) -> str:
    """A label's text with its no-break spaces ('11 %' is kept on one line) as plain ones."""
    return label.text().replace("\N{NO-BREAK SPACE}", " ")


def color(label: QLabel) -> str:
    return label.palette().color(QPalette.ColorRole.WindowText).name()


def test_the_verdict_states_the_usable_memory_and_the_headroom(qtbot, tab: WorkloadTab, tiny_llama: Path) -> None:  # type: ignore[no-untyped-def]
    tab.form.set_gpu(SMALL_GPU)
    tab.form.set_workload(tiny_workload(tiny_llama))
    answer = answered(qtbot, tab)
    verdict = answer.verdict
    assert verdict is not None and verdict.fits and answer.gpu is not None
    assert answer.headroom == tab.store.user.headroom() == default_headroom()  # nothing saved: the default
    text = words(tab.view.verdict)
    kept = f"{format_bytes(verdict.memory)} less {verdict.headroom.percent} headroom"
    usable = f"{format_bytes(verdict.usable)} usable ({kept})"
    assert text == f"Fits on {answer.gpu.name}: {format_bytes(answer.estimate.memory.peak)} of {usable}"
    assert verdict.headroom.why in tab.view.verdict.toolTip()
    assert tab.view.bar.limit == verdict.usable  # the bar's line is the usable memory
    assert format_bytes(verdict.spare) in tab.fits_if.text() and "usable" in tab.fits_if.text()


def test_the_headroom_setting_changes_the_verdict(  # type: ignore[no-untyped-def]
    qtbot, window: MainWindow, tab: WorkloadTab, tiny_llama: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    tab.form.set_gpu(SMALL_GPU)
    tab.form.set_workload(tiny_workload(tiny_llama))
    first = answered(qtbot, tab)
    assert first.gpu is not None
    memory = first.gpu.memory_bytes

    def peak_at(batch: int) -> int:
        changed = first.estimate.workload.with_changes(batch=batch)
        return answer_from_fit(first.source, first.fitted, changed, first.gpu).estimate.memory.peak

    # A micro-batch whose peak is between half the card and all of it: it fits with no headroom, and only by
    # using the headroom when half the card is kept free. The first fit's lines, extended past its traced batches,
    # find it roughly (a few percent either way); the trace of that batch says exactly.
    batch = largest_fitting(peak_at, int(0.75 * memory))
    tab.form.batch.setValue(batch)
    traced = answered(qtbot, tab, batch=batch)
    assert not traced.estimate.extrapolated
    assert memory // 2 < traced.estimate.memory.peak <= memory, "the tiny model cannot fill half the card at any batch"

    window.set_headroom(0)
    assert tab.answer is not None and tab.answer.verdict is not None and tab.answer.verdict.fits
    assert words(tab.view.verdict).startswith("Fits on") and "less 0 % headroom" in words(tab.view.verdict)
    assert color(tab.view.verdict) == tab.colors.success

    window.set_headroom(50)
    verdict = tab.answer.verdict
    assert verdict is not None and not verdict.fits and verdict.tight
    text = words(tab.view.verdict)
    assert text.startswith(f"Fits on {first.gpu.name} only by using the headroom") and "less 50 % headroom" in text
    assert color(tab.view.verdict) == tab.colors.warning
    assert tab.techniques.item(0, 2).text() == "✗"  # the table judges with the same headroom

    tab.form.batch.setValue(4096)  # past the card's whole memory
    verdict = answered(qtbot, tab, batch=4096).verdict
    assert verdict is not None and not verdict.fits and not verdict.tight
    assert words(tab.view.verdict).startswith(f"Does not fit on {first.gpu.name}: needs")
    assert color(tab.view.verdict) == tab.colors.error

    # The menu action: a percent from the dialog is saved; the default's own value follows the default again.
    asked: list[float] = []

    def get_double(_parent: object, _title: str, label: str, value: float, *_args: object) -> tuple[float, bool]:
        asked.append(value)
        assert default_headroom().why in label
        return 20.0, True

    monkeypatch.setattr(QInputDialog, "getDouble", get_double)  # the window imports it when first used
    window.headroom_action.trigger()
    assert asked == [50.0] and window.store.user.headroom().share == pytest.approx(0.2)
    assert "less 20 % headroom" in words(tab.view.verdict)
    monkeypatch.setattr(QInputDialog, "getDouble", lambda *_args: (100 * default_headroom().share, True))
    window.headroom_action.trigger()
    assert window.store.user.setting(HEADROOM_SETTING) is None
    assert f"less {default_headroom().percent} headroom" in words(tab.view.verdict)


def test_an_older_answer_is_muted_while_a_new_trace_runs_and_under_an_error(  # type: ignore[no-untyped-def]
    qtbot, tab: WorkloadTab, tiny_llama: Path, tmp_path: Path
) -> None:
    tab.form.set_gpu(SMALL_GPU)
    tab.form.set_workload(tiny_workload(tiny_llama))
    answered(qtbot, tab)
    shown = words(tab.view.verdict)
    assert color(tab.view.verdict) == tab.colors.success and tab.results.isEnabled()

    # A model no test has traced: a trace runs, and the answer on screen is the previous workload's.
    untraced = tmp_path / "tiny-untraced" / "config.json"
    untraced.parent.mkdir()
    untraced.write_text(json.dumps({**TINY_LLAMA, "hidden_size": 72, "intermediate_size": 216}))
    tab.form.set_workload(tiny_workload(untraced))
    qtbot.waitUntil(lambda: tab.tracing.current is not None, timeout=5_000)
    assert not tab.results.isEnabled()
    assert words(tab.view.verdict) == f"For the previous workload — {shown}"
    assert color(tab.view.verdict) == tab.colors.muted and color(tab.fits_if) == tab.colors.muted
    answer = answered(qtbot, tab)
    assert answer.estimate.workload.model == str(untraced) and tab.results.isEnabled()
    assert not words(tab.view.verdict).startswith("For the previous workload")
    assert color(tab.view.verdict) == tab.colors.success and color(tab.fits_if) == tab.colors.text
    shown = words(tab.view.verdict)

    # A form error: the same, until the form is right again.
    tab.form.model.setEditText(str(tmp_path / "missing" / "config.json"))
    qtbot.waitUntil(lambda: tab.error.isVisible(), timeout=2_000)
    assert not tab.results.isEnabled()
    assert words(tab.view.verdict) == f"For the previous workload — {shown}"
    assert color(tab.view.verdict) == tab.colors.muted
    tab.form.model.setEditText(str(untraced))
    qtbot.waitUntil(lambda: tab.error.isHidden(), timeout=2_000)
    assert words(tab.view.verdict) == shown and tab.results.isEnabled()
    assert color(tab.view.verdict) == tab.colors.success


def test_the_egpu_tab_judges_with_the_same_headroom(  # type: ignore[no-untyped-def]
    qtbot, window: MainWindow, tab: WorkloadTab, tiny_llama: Path
) -> None:
    tab.form.set_gpu(SMALL_GPU)
    tab.form.set_workload(tiny_workload(tiny_llama))
    answered(qtbot, tab)
    window.tabs.setCurrentIndex(INDEX["egpu"])
    egpu = window.egpu_tab
    qtbot.waitUntil(lambda: egpu.report is not None and egpu.report.verdict is not None, timeout=TRACE_TIMEOUT_MS)
    window.set_headroom(30)
    assert egpu.report is not None and egpu.report.verdict is not None
    assert egpu.report.verdict.headroom.share == pytest.approx(0.3)
    assert egpu.report.fit is not None and "less 30 % headroom" in egpu.report.fit.message
    egpu.shutdown()
    qtbot.waitUntil(lambda: not egpu.running(), timeout=10_000)
