"""The Workload tab driven as a user drives it, with real traces of tiny models (seconds on a CPU)."""

from __future__ import annotations

import json
from collections.abc import Iterator
from pathlib import Path

import numpy as np
import pytest
from conftest import TINY_LLAMA
from processes import alive, live_children
from PySide6.QtCore import Qt
from PySide6.QtGui import QPalette

from gpuconfig.core.workload import accuracy
from gpuconfig.core.workload.models import zoo
from gpuconfig.core.workload.spec import ATTENTION, MAX_SIZE, Workload
from gpuconfig.ui.main_window import INDEX, MainWindow
from gpuconfig.ui.theme import DARK, LIGHT
from gpuconfig.ui.workload.batch_chart import BatchChart, batch_range, largest_fitting
from gpuconfig.ui.workload.form import PRESETS
from gpuconfig.ui.workload.tab import WorkloadTab

TRACE_TIMEOUT_MS = 120_000
pytestmark = pytest.mark.usefixtures("shared_trace_cache")
SMALL_GPU = "nvidia-geforce-rtx-3070"  # 8 GB, the smallest card in the catalog
LEFT = Qt.MouseButton.LeftButton


def untraced_model(tmp_path: Path, name: str, hidden: int) -> Path:
    """A tiny model no test has traced yet, so a trace really runs."""
    path = tmp_path / name / "config.json"
    path.parent.mkdir()
    path.write_text(json.dumps({**TINY_LLAMA, "hidden_size": hidden, "intermediate_size": hidden * 3}))
    return path


@pytest.fixture
def tab(qtbot, window: MainWindow) -> Iterator[WorkloadTab]:  # type: ignore[no-untyped-def]
    window.tabs.setCurrentIndex(INDEX["workload"])  # built when first shown
    built = window.workload_tab
    assert window.tabs.widget(INDEX["workload"]) is built
    yield built
    built.shutdown()
    qtbot.waitUntil(lambda: not built.running(), timeout=10_000)  # no thread or trace process left behind


def tiny_workload(model: Path, **changes: object) -> Workload:
    base = Workload(str(model), task="finetune", precision="amp_bf16", optimizer="adamw", batch=4, seq=128)
    return base.with_changes(**changes)


def wait_for_answer(qtbot, tab: WorkloadTab, batch: int | None = None) -> None:  # type: ignore[no-untyped-def]
    def answered() -> bool:
        if tab.answer is None or tab._debounce.isActive() or tab.tracing.current is not None:
            return False
        return batch is None or tab.answer.estimate.workload.batch == batch

    qtbot.waitUntil(answered, timeout=TRACE_TIMEOUT_MS)


def test_each_preset_fills_the_form(qtbot, tab: WorkloadTab) -> None:  # type: ignore[no-untyped-def]
    expected = {
        "image_classification": ("resnet-50", "finetune", "amp_fp16", "sgd", 64, 224),
        "bert_finetune": ("bert-base", "finetune", "amp_bf16", "adamw", 32, 128),
        "llm_lora": ("llama-3-8b", "lora", "bf16", "adamw", 4, 2048),
        "llm_inference": ("llama-3-8b", "inference", "bf16", "adamw", 1, 1024),
        "stable_diffusion": ("sd-unet", "finetune", "amp_fp16", "adamw", 4, None),
    }
    assert set(expected) == set(PRESETS) == set(tab.presets)
    for preset, (model, task, precision, optimizer, batch, seq) in expected.items():
        assert model in zoo()
        qtbot.mouseClick(tab.presets[preset], LEFT)
        form = tab.form
        workload = form.workload()
        assert (workload.model, workload.task, workload.precision, workload.batch, workload.seq) == (
            model,
            task,
            precision,
            batch,
            seq,
        )
        assert form.task.currentData() == task and form.batch.value() == batch and form.seq.value() == (seq or 0)
        if task != "inference":
            assert workload.optimizer == optimizer
        # fields that mean nothing for the task are greyed out
        assert form.generate.isEnabled() == (task == "inference")
        assert form.lora_rank.isEnabled() == (task == "lora")
        assert form.optimizer.isEnabled() == (task != "inference")
    assert tab.form.workload().generate == 0  # the last preset trains
    qtbot.mouseClick(tab.presets["llm_inference"], LEFT)
    assert tab.form.workload().generate == 256


def test_the_lora_fields_read_back_what_was_set(qtbot, tab: WorkloadTab) -> None:  # type: ignore[no-untyped-def]
    form = tab.form
    qlora = Workload("llama-3-8b", task="qlora", lora_targets="all-linear", lora_alpha=32, lora_dropout=0.05)
    form.set_workload(qlora.with_changes(double_quant=True))
    assert form.workload() == qlora.with_changes(double_quant=True)
    assert form.double_quant.isEnabled() and form.lora_dropout.isEnabled()
    form.lora_targets.setEditText("q_proj, k_proj")  # typed: the spaces go
    assert form.workload().lora_targets == "q_proj,k_proj"
    form.set_workload(qlora.with_changes(lora_targets="query,value"))
    assert form.lora_targets.currentText() == "query,value"
    form.set_workload(Workload("llama-3-8b", task="lora"))
    assert form.lora_targets.currentData() == "default" and form.workload().lora_targets == "default"
    assert not form.double_quant.isEnabled() and form.lora_targets.isEnabled()


def test_the_attention_choice_round_trips_and_says_what_each_means(qtbot, tab: WorkloadTab) -> None:  # type: ignore[no-untyped-def]
    form = tab.form
    box = form.attention
    assert [box.itemData(i) for i in range(box.count())] == list(ATTENTION)
    tips = [box.itemData(i, Qt.ItemDataRole.ToolTipRole) for i in range(box.count())]
    assert all(tips) and len(set(tips)) == len(tips) and box.toolTip()
    assert "length² attention probabilities" in tips[list(ATTENTION).index("eager")]
    for name in ATTENTION:
        workload = Workload("bert-base", precision="amp_bf16", attention=name)
        form.set_workload(workload)
        assert box.currentData() == name and form.workload() == workload
    box.setCurrentIndex(box.findData("sdpa_efficient"))
    form.device.setCurrentIndex(form.device.findData("cpu"))
    qtbot.waitUntil(lambda: "sdpa_efficient runs on CUDA GPUs only" in tab.error.text(), timeout=5_000)


def test_the_chart_asks_for_no_micro_batch_past_what_a_workload_may_ask() -> None:
    def peak_at(batch: int) -> int:
        return Workload("gpt2", batch=batch).batch  # past the ceiling, WorkloadError

    assert largest_fitting(peak_at, 2**62) == MAX_SIZE  # everything fits: the search ends at the ceiling
    assert largest_fitting(peak_at, 900_000) == 900_000  # crossed between 2**19 and the ceiling
    assert batch_range(MAX_SIZE, None).max() == MAX_SIZE
    assert batch_range(400_000, 900_000).max() == MAX_SIZE  # stretched towards 1,125,002, then capped


@pytest.mark.parametrize("over", [0.5, 1.0, 1.3, 3.0], ids=["under", "at", "just-over", "far-over"])
def test_the_limit_lines_label_stays_inside_the_chart(qtbot, over: float) -> None:  # type: ignore[no-untyped-def]
    """The device's usable-memory label is drawn whole inside the plot, whether its line is the chart's top
    (the curve under it) or the curve runs far past it."""
    chart = BatchChart(LIGHT)
    qtbot.addWidget(chart)
    chart.resize(420, 260)
    chart.show()
    qtbot.waitExposed(chart)
    limit = 20 * 1024**3
    batches = batch_range(2, None)
    peaks = limit * over * batches / batches[-1]
    chart.show_curve(batches, peaks, limit, "AMD EPYC (2 logical cores): 21.89 GiB usable", 2, float(peaks[1]))
    qtbot.wait(50)  # the view range and the label's place settle on the next paint
    view = chart.plot.getViewBox().sceneBoundingRect()
    label = chart.limit_line.label.sceneBoundingRect()
    assert label.height() > 5 and label.width() > 50  # the label was drawn
    assert view.contains(label), (view, label)


def test_batch_change_redraws_the_chart_from_the_fit(qtbot, tab: WorkloadTab, tiny_llama: Path) -> None:  # type: ignore[no-untyped-def]
    tab.form.set_workload(tiny_workload(tiny_llama))
    wait_for_answer(qtbot, tab)
    assert tab.traces_started == 1
    assert tab.view.verdict.text().startswith("Fits on")
    assert tab.view.accuracy.text() == f"Expected error of the peak: {accuracy.band_text('cuda')}"
    x_before, y_before = tab.view.chart.curve.getData()
    assert x_before[0] == 1 and x_before[-1] == 8  # twice the batch, at least 8
    marker_x, marker_y = tab.view.chart.marker.getData()
    assert marker_x[0] == 4
    assert marker_y[0] == pytest.approx(tab.answer.estimate.memory.peak / tab.view.chart.unit)  # type: ignore[union-attr]
    assert np.all(np.diff(y_before) >= 0)  # more samples never need less memory
    peak_before = tab.answer.estimate.memory.peak  # type: ignore[union-attr]

    tab.form.batch.setValue(6)  # between the traced batches (4 and 8): answered at once from the same trace
    qtbot.waitUntil(lambda: tab.view.chart.marker.getData()[0][0] == 6, timeout=2_000)
    assert tab.answer is not None and not tab.answer.estimate.extrapolated
    assert tab.traces_started == 1 and not tab.running()

    tab.form.batch.setValue(16)  # past them: answered at once, marked as extended, while batch 16 is traced
    qtbot.waitUntil(lambda: tab.view.chart.marker.getData()[0][0] == 16, timeout=2_000)
    assert tab.answer is not None and tab.answer.estimate.workload.batch == 16
    assert "lies outside the traced shapes (batch 4-8" in tab.answer.estimate.extrapolated
    assert tab.view.accuracy.text().startswith("Expected error of the peak: none measured here: batch 16")
    assert tab.results.isEnabled()  # shown, not greyed out, while its own trace runs
    assert tab.traces_started == 2 and tab.progress.isVisible()
    x_after, y_after = tab.view.chart.curve.getData()
    # the curve at batch 4 still says what the first answer said: the same fit answers both
    assert y_after[list(x_after).index(4.0)] == pytest.approx(peak_before / tab.view.chart.unit)

    wait_for_answer(qtbot, tab, batch=16)  # the trace of batch 16 replaces the extended answer
    assert tab.answer is not None and not tab.answer.estimate.extrapolated
    assert tab.answer.estimate.memory.peak > peak_before
    assert tab.view.accuracy.text() == f"Expected error of the peak: {accuracy.band_text('cuda')}"
    x_after, _ = tab.view.chart.curve.getData()
    assert x_after[-1] == 32
    assert tab.view.chart.marker.getData()[1][0] == pytest.approx(tab.answer.estimate.memory.peak / tab.view.chart.unit)
    assert tab.traces_started == 2 and not tab.running()
    assert tab.progress.isHidden()

    tab.form.batch.setValue(4)  # the first trace still answers its own shapes: no third trace
    qtbot.waitUntil(lambda: tab.view.chart.marker.getData()[0][0] == 4, timeout=2_000)
    assert tab.answer is not None and tab.answer.estimate.memory.peak == peak_before
    assert tab.traces_started == 2 and not tab.running()


def test_a_cpu_answer_shows_its_measured_error_band(qtbot, tab: WorkloadTab, tiny_llama: Path) -> None:  # type: ignore[no-untyped-def]
    tab.form.set_workload(tiny_workload(tiny_llama, device="cpu", precision="fp32"))
    wait_for_answer(qtbot, tab)
    band = accuracy.band("cpu")
    assert band is not None
    text = tab.view.accuracy.text()
    assert text == f"Expected error of the peak: {accuracy.band_text('cpu')}"
    assert f"over {band.cases} cases" in text and "held-out median" in text
    assert band.machine in tab.view.accuracy.toolTip()
    assert tab.view.accuracy.isVisible()


def test_the_last_workload_and_gpu_come_back(qtbot, window: MainWindow, tab: WorkloadTab, tiny_llama: Path) -> None:  # type: ignore[no-untyped-def]
    workload = tiny_workload(tiny_llama, grad_accum=2, checkpointing=False, attention="eager")
    tab.form.set_workload(workload)
    tab.form.set_gpu(SMALL_GPU)
    wait_for_answer(qtbot, tab)
    assert "attention eager" in tab.view.summary.text()
    assert tab.view.summary.toolTip() == "Attention: eager, asked"
    verdict = tab.view.verdict
    assert verdict.palette().color(QPalette.ColorRole.WindowText).name() == LIGHT.success
    window.set_theme("dark")  # the verdict keeps its meaning in the other theme's colours
    assert verdict.palette().color(QPalette.ColorRole.WindowText).name() == DARK.success
    tab.shutdown()  # what closing the window does: the form is saved

    again = WorkloadTab(window.store, window.colors)
    qtbot.addWidget(again)
    assert again.form.workload() == workload
    assert again.form.gpu_id() == SMALL_GPU
    again.shutdown()


def test_too_big_workload_says_what_makes_it_fit(qtbot, tab: WorkloadTab, tiny_llama: Path) -> None:  # type: ignore[no-untyped-def]
    tab.form.set_workload(tiny_workload(tiny_llama))
    wait_for_answer(qtbot, tab)
    tab.form.set_gpu(SMALL_GPU)
    tab.form.batch.setValue(4096)  # about 10 GiB of activations at length 128: more than an 8 GB card holds
    wait_for_answer(qtbot, tab, batch=4096)
    answer = tab.answer
    assert answer is not None and answer.gpu is not None and answer.verdict is not None
    assert answer.estimate.memory.peak > answer.gpu.memory_bytes
    verdict = tab.view.verdict.text()
    assert verdict.startswith("Does not fit on") and answer.gpu.name in verdict
    # the bar's limit is what the card holds with the headroom kept
    assert tab.view.bar.limit == answer.verdict.usable and tab.view.bar.peak == answer.estimate.memory.peak
    assert "micro-batch" in tab.fits_if.text() and tab.fits_if.text().startswith("Fits if")

    table = tab.techniques
    assert table.item(0, 0).text() == "As entered" and table.item(0, 2).text() == "✗"
    fitting = [row for row in range(1, table.rowCount()) if table.item(row, 2).text() == "✓"]
    assert fitting, "no fitting change in the table"
    best = table.options[fitting[0] - 1]
    assert best.fits and best.peak <= answer.verdict.usable
    assert best.workload.batch * best.workload.grad_accum == 4096 or best.workload.gpus > 1
    assert table.item(fitting[0], 0).text() in tab.fits_if.text()
    # the traced techniques are compared in the background, with a progress bar and a Cancel button
    assert tab.running() and tab.progress.isVisible() and tab.cancel_button.isVisible()

    table.selectRow(fitting[0])
    assert tab.apply_button.isEnabled()
    qtbot.mouseClick(tab.apply_button, LEFT)
    wait_for_answer(qtbot, tab, batch=best.workload.batch)
    assert tab.form.grad_accum.value() == best.workload.grad_accum
    assert tab.view.verdict.text().startswith("Fits on")
    # three traces (from the disk cache when an earlier test made them): the first batch, batch 4096 and the
    # micro-batch applied, each beyond the shapes traced before it; the techniques' own traces are the comparison's
    assert tab.traces_started == 3
    assert not tab.answer.estimate.extrapolated  # type: ignore[union-attr]


def test_cancel_stops_the_trace_and_the_tab_goes_idle(qtbot, tab: WorkloadTab, tmp_path: Path) -> None:  # type: ignore[no-untyped-def]
    first = untraced_model(tmp_path, "tiny-first", 48)
    second = untraced_model(tmp_path, "tiny-second", 80)
    tab.form.set_workload(tiny_workload(first))
    qtbot.waitUntil(lambda: bool(live_children()), timeout=10_000)
    assert tab.progress.isVisible() and tab.cancel_button.isVisible()
    assert "tiny-first" in tab.status.text()
    superseded = live_children()

    tab.form.set_workload(tiny_workload(second))  # a newer edit cancels the older trace
    qtbot.waitUntil(lambda: "tiny-second" in tab.status.text(), timeout=5_000)
    qtbot.waitUntil(lambda: not any(alive(p) for p in superseded), timeout=5_000)
    qtbot.waitUntil(lambda: bool(live_children()), timeout=10_000)
    assert tab.traces_started == 2

    qtbot.mouseClick(tab.cancel_button, LEFT)
    qtbot.waitUntil(lambda: not tab.running(), timeout=5_000)
    assert not live_children()
    assert tab.progress.isHidden() and tab.cancel_button.isHidden()
    assert tab.run_button.isVisible()
    assert tab.status.text() == "Trace cancelled."
    assert tab.answer is None and tab.error.isHidden()
    qtbot.wait(400)  # an edit of batch only does not restart the cancelled trace by itself
    tab.form.batch.setValue(8)
    qtbot.wait(500)
    assert not tab.running() and tab.traces_started == 2


def test_bad_input_shows_one_line_and_recovers(qtbot, tab: WorkloadTab, tiny_llama: Path, tmp_path: Path) -> None:  # type: ignore[no-untyped-def]
    tab.form.set_workload(tiny_workload(tiny_llama))
    wait_for_answer(qtbot, tab)
    traced = tab.traces_started

    tab.form.model.setEditText(str(tmp_path / "missing" / "config.json"))
    qtbot.waitUntil(lambda: tab.error.isVisible(), timeout=2_000)
    message = tab.error.text()
    assert "no such file" in message and "\n" not in message
    assert not tab.results.isEnabled()  # the answer shown is for the old input
    assert tab.traces_started == traced  # checked before any trace

    tab.form.precision.setCurrentIndex(tab.form.precision.findData("int4"))
    tab.form.model.setEditText(str(tiny_llama))
    qtbot.waitUntil(lambda: "int4 weights are for inference" in tab.error.text(), timeout=2_000)

    tab.form.precision.setCurrentIndex(tab.form.precision.findData("amp_bf16"))
    qtbot.waitUntil(lambda: tab.error.isHidden(), timeout=2_000)  # answered again from the fit in memory
    assert tab.results.isEnabled() and tab.traces_started == traced

    # a model the trace worker cannot build: the worker's one-line reason, inline
    broken = tmp_path / "broken.py"
    broken.write_text("VALUE = 1\n")
    tab.form.model.setEditText(str(broken))
    qtbot.waitUntil(lambda: tab.error.isVisible(), timeout=TRACE_TIMEOUT_MS)
    assert "model_and_inputs" in tab.error.text() and "\n" not in tab.error.text()
    assert tab.run_button.isVisible()
    qtbot.waitUntil(lambda: not tab.running(), timeout=5_000)  # the failed trace's thread ends (later when busy)


def test_a_generation_shows_its_first_token_and_decode_rate(qtbot, tab: WorkloadTab, tiny_llama: Path) -> None:  # type: ignore[no-untyped-def]
    tab.form.set_workload(tiny_workload(tiny_llama, task="inference", precision="bf16", batch=2, seq=64, generate=32))
    tab.form.set_gpu("nvidia-geforce-rtx-4090")
    wait_for_answer(qtbot, tab)
    answer = tab.answer
    assert answer is not None and answer.timing is not None
    generation = answer.timing.generation
    assert generation is not None
    text = tab.view.timing.text()
    assert text.startswith("First token after ") and "tokens/s per sequence" in text
    assert f"{generation.tokens_per_s_per_sequence:,.1f} tokens/s per sequence" in text
    assert "Compiled with CUDA graphs" in tab.view.timing.toolTip()
    assert generation.efficiency.source in tab.view.timing.toolTip()


def test_measured_speed_prices_the_step_from_the_newest_probe_run(qtbot, tab: WorkloadTab, tiny_llama: Path) -> None:  # type: ignore[no-untyped-def]
    """With no probe run the option says what to do; after one is saved in the probe history, a CPU workload is
    timed at the CPU rates it measured, and the answer says so."""
    from gpuconfig.probe.history import ProbeHistory
    from gpuconfig.probe.session import ProbeRun

    tab.form.set_workload(tiny_workload(tiny_llama, device="cpu", precision="fp32"))
    tab.form.measured.setChecked(True)
    qtbot.waitUntil(lambda: "no probe run of this machine yet" in tab.error.text(), timeout=TRACE_TIMEOUT_MS)
    report = json.loads((Path(__file__).parents[1] / "workload" / "data" / "probe_cpu_report.json").read_text())
    history = ProbeHistory.open_default()  # the test's own data folder (conftest)
    saved = history.save(ProbeRun.from_record(report))
    history.close()
    tab.recompute()
    wait_for_answer(qtbot, tab)
    answer = tab.answer
    assert answer is not None and answer.gpu is not None and answer.timing is not None
    assert answer.gpu.fp32_tflops == 0.078698 and f"the Probe tab's run {saved}" in answer.gpu.measured
    assert "at this machine's measured rates" in tab.view.timing.text()
    assert answer.gpu.measured in tab.view.timing.toolTip()
    # A newer run that measured no matmul (another suite, or cancelled) gives way to the one that did.
    history = ProbeHistory.open_default()
    newer = history.save(ProbeRun.from_record({**report, "started_at": "2099-01-01T00:00:00+00:00", "benchmarks": []}))
    history.close()
    tab.form.set_workload(tiny_workload(tiny_llama, device="cpu", precision="fp32", batch=3))
    wait_for_answer(qtbot, tab, batch=3)
    assert tab.answer is not None and tab.answer.gpu is not None and newer != saved
    assert f"the Probe tab's run {saved}" in tab.answer.gpu.measured
    tab.form.measured.setChecked(False)
    wait_for_answer(qtbot, tab)
    assert tab.answer is not None and tab.answer.gpu is None  # back to a CPU answer with no time


def test_channels_last_round_trips_and_means_nothing_on_the_cpu(qtbot, tab: WorkloadTab) -> None:  # type: ignore[no-untyped-def]
    form = tab.form
    nhwc = Workload("resnet-50", task="pretrain", precision="amp_fp16", optimizer="sgd", channels_last=True)
    form.set_workload(nhwc)
    assert form.channels_last.isChecked() and form.workload() == nhwc
    assert form.channels_last.isEnabled()
    form.set_workload(nhwc.with_changes(device="cpu"))
    assert not form.channels_last.isEnabled()
    form.set_workload(nhwc.with_changes(channels_last=False))
    assert not form.workload().channels_last


def test_torch_compile_round_trips_on_either_device(qtbot, tab: WorkloadTab) -> None:  # type: ignore[no-untyped-def]
    form = tab.form
    compiled = Workload("gpt2", task="finetune", precision="amp_bf16", torch_compile=True)
    form.set_workload(compiled)
    assert form.torch_compile.isChecked() and form.workload() == compiled
    assert form.torch_compile.isEnabled()
    form.set_workload(compiled.with_changes(device="cpu"))
    form.measured.setChecked(False)
    assert not form.torch_compile.isEnabled()  # a CPU step has a time only at this machine's measured speed
    form.measured.setChecked(True)
    assert form.torch_compile.isEnabled()  # Inductor compiles for the CPU too
    form.measured.setChecked(False)
    form.set_workload(compiled.with_changes(torch_compile=False))
    assert not form.workload().torch_compile
