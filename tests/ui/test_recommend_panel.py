"""The Recommend panel driven as a user drives it: every workload field in its form, the plan's changes traced on
a worker thread (real traces of Llama 3 8B and of a tiny model), refusals with a message, and stale results
dimmed while a new plan is on its way."""

from __future__ import annotations

import json
from collections.abc import Iterator
from pathlib import Path

import pytest
from conftest import TINY_LLAMA
from PySide6.QtCore import Qt

from gpuconfig.core.money import format_money
from gpuconfig.core.workload.fit import judge
from gpuconfig.core.workload.spec import Workload
from gpuconfig.ui.build.recommend.form import PLANNED_ROWS, for_planning
from gpuconfig.ui.build.recommend.panel import REPLAN_MS, RecommendPanel
from gpuconfig.ui.build.recommend.plan_view import JOB_TAB
from gpuconfig.ui.main_window import INDEX, MainWindow

pytestmark = pytest.mark.usefixtures("shared_trace_cache")
LEFT = Qt.MouseButton.LeftButton
# Llama 3 8B is traced as asked and with activation checkpointing: about a minute each on a 2-core machine uncached.
LLAMA_TRACES_MS = 600_000
TINY_TRACE_MS = 120_000
LLAMA_LORA = Workload("llama-3-8b", task="lora", precision="bf16", batch=1, seq=2048)
WORKLOAD_FIELDS = (
    "model",
    "task",
    "precision",
    "optimizer",
    "batch",
    "seq",
    "generate",
    "grad_accum",
    "checkpointing",
    "lora_rank",
    "lora_targets",
    "lora_alpha",
    "lora_dropout",
    "double_quant",
    "attention",
)


@pytest.fixture
def panel(qtbot, window: MainWindow) -> Iterator[RecommendPanel]:  # type: ignore[no-untyped-def]
    window.tabs.setCurrentIndex(INDEX["build"])
    tab = window.build_tab
    yield tab.recommend
    tab.shutdown()  # the tab's pending save too: it must not reach the store after the test has closed it
    qtbot.waitUntil(lambda: not tab.running(), timeout=10_000)  # no trace thread or process left behind


def test_the_form_offers_every_workload_field(panel: RecommendPanel) -> None:
    form = panel.form
    form.use_own.setChecked(True)
    form.show_details(True)
    for name in WORKLOAD_FIELDS:
        assert getattr(form.fields, name).isVisibleTo(form), name
    for name in PLANNED_ROWS:  # the plan chooses the GPUs, their count and the strategy
        assert not form.fields.labels[name].isVisibleTo(form), name

    fields = form.fields
    fields.checkpointing.setChecked(True)
    fields.grad_accum.setValue(4)
    fields.optimizer.setCurrentIndex(fields.optimizer.findData("adamw8bit"))
    fields.lora_rank.setValue(64)
    fields.attention.setCurrentIndex(fields.attention.findData("sdpa_flash"))
    workload = form.workload()
    assert workload.checkpointing and workload.grad_accum == 4 and workload.optimizer == "adamw8bit"
    assert workload.lora_rank == 64 and workload.attention == "sdpa_flash"
    assert (workload.gpus, workload.strategy, workload.device) == (1, "ddp", "cuda")
    assert "checkpointing" in form.details_button.text()

    # The Workload tab's workload is chosen once there is one; the fields show it as the plan runs it.
    tab = Workload("gpt2", task="finetune", batch=8, seq=512, checkpointing=True, gpus=2, strategy="fsdp")
    form.set_tab_workload(tab)
    assert form.use_tab.isChecked() and not form.fields.isEnabled()
    assert form.fields.checkpointing.isChecked() and form.fields.model_ref() == "gpt2"
    assert form.workload() == for_planning(tab)
    assert form.tab_workload.text().startswith("gpt2 · full fine-tune") and "checkpointing" in form.tab_workload.text()
    # "Set here" starts from it, with every field open to change.
    form.use_own.setChecked(True)
    assert form.fields.isEnabled() and form.fields.isVisibleTo(form)
    form.fields.checkpointing.setChecked(False)
    assert form.workload() == for_planning(tab.with_changes(checkpointing=False))

    # The plan's fields: the job, electricity, which changes, and the headroom in effect with its why.
    assert form.constraints().budget is None  # empty: no limit
    form.budget.setText("3,000")
    form.samples.setText("1e5")
    form.epochs.setText("3")
    form.electricity.setText("0.15")
    limits = form.constraints()
    assert (limits.budget, limits.samples, limits.epochs, limits.electricity_per_kwh) == (3000, 1e5, 3, 0.15)
    assert limits.job_samples == 3e5
    assert not form.allow_result_changes() and not form.only_as_asked()
    form.change_result.setChecked(True)
    assert form.allow_result_changes()
    form.as_asked.setChecked(True)
    assert form.only_as_asked() and not form.allow_result_changes() and not form.change_result.isEnabled()
    headroom = panel.store.user.headroom()
    assert form.headroom.text() == f"Fit headroom: {headroom.percent}"
    assert headroom.why in form.headroom.toolTip()


@pytest.mark.parametrize(
    ("field", "text", "message"),
    [
        ("budget", "-5", "budget: must be a positive number, got -5.0"),
        ("budget", "0", "budget: must be a positive number"),
        ("budget", "inf", "budget: must be a finite number"),
        ("budget", "nan", "budget: must be a finite number"),
        ("budget", "lots", "budget: expected a number, got 'lots'"),
        ("samples", "-100", "samples: must be a positive number"),
        ("epochs", "0", "epochs: must be a positive number"),
        ("epochs", "1e999", "epochs: must be a finite number"),
        ("electricity", "-0.1", "electricity: must be zero or a positive number"),
    ],
)
def test_an_entry_that_cannot_be_used_is_refused_with_a_message(  # type: ignore[no-untyped-def]
    qtbot, panel: RecommendPanel, field: str, text: str, message: str
) -> None:
    getattr(panel.form, field).setText(text)
    qtbot.mouseClick(panel.run_button, LEFT)
    assert panel.error.isVisible() and panel.error.text().startswith(message)
    assert panel.plan is None and panel.traces_started == 0 and not panel.running()
    qtbot.wait(3 * REPLAN_MS)  # the edit's own replan refuses it too: still nothing planned, nothing traced
    assert panel.plan is None and panel.traces_started == 0 and panel.error.text().startswith(message)
    # Put right, the message goes.
    getattr(panel.form, field).clear()
    qtbot.waitUntil(lambda: panel.error.isHidden(), timeout=2_000)


def test_a_workload_that_cannot_run_is_refused_with_its_message(qtbot, panel: RecommendPanel) -> None:  # type: ignore[no-untyped-def]
    form = panel.form
    form.use_own.setChecked(True)
    form.set_workload(Workload("llama-3-8b", task="lora", precision="fp32", batch=1, seq=2048))
    form.fields.attention.setCurrentIndex(form.fields.attention.findData("sdpa_flash"))
    qtbot.mouseClick(panel.run_button, LEFT)
    assert panel.error.isVisible() and panel.error.text().startswith("attention: flash attention computes in fp16")
    assert panel.plan is None and panel.traces_started == 0


def test_llama_3_8b_lora_only_as_asked(qtbot, panel: RecommendPanel) -> None:  # type: ignore[no-untyped-def]
    """Only the workload as asked is traced (and kept in the module's trace cache for the next test): what holds
    it without checkpointing, or what it would take."""
    form = panel.form
    form.use_own.setChecked(True)
    form.set_workload(LLAMA_LORA)
    form.budget.setText("3000")
    form.as_asked.setChecked(True)
    qtbot.mouseClick(panel.run_button, LEFT)
    assert panel.traces_started == 1 and panel.running()
    qtbot.waitUntil(lambda: panel.plan is not None, timeout=LLAMA_TRACES_MS)
    plan = panel.plan
    assert plan is not None and not plan.changes_tried
    for candidate in plan.candidates:
        assert "checkpointing" not in candidate.change.label and candidate.cost <= 3000
        assert judge(candidate.option.peak_bytes, candidate.option.gpu.memory_bytes, plan.headroom).fits
    if not plan.candidates:
        assert plan.shortfall is not None and panel.view.message.text().startswith("Nothing within $3,000")


def test_llama_3_8b_lora_within_3000_with_activation_checkpointing(qtbot, panel: RecommendPanel) -> None:  # type: ignore[no-untyped-def]
    form = panel.form
    form.use_own.setChecked(True)
    form.set_workload(LLAMA_LORA)
    form.show_details(True)
    assert form.fields.checkpointing.isVisibleTo(form) and not form.fields.checkpointing.isChecked()
    form.budget.setText("3000")
    form.samples.setText("100000")
    form.epochs.setText("3")
    form.electricity.setText("0.15")
    qtbot.mouseClick(panel.run_button, LEFT)
    assert panel.traces_started == 1 and panel.running() and panel.cancel_button.isVisible()
    qtbot.waitUntil(lambda: panel.plan is not None, timeout=LLAMA_TRACES_MS)
    plan = panel.plan
    assert plan is not None and plan.shortfall is None, panel.error.text()
    headroom = panel.store.user.headroom()
    assert plan.headroom == headroom
    assert "activation checkpointing" in plan.changes_tried

    # At least one build within $3,000 that holds the workload with activation checkpointing, its peak per GPU
    # within the usable memory (the card's less the headroom).
    checkpointed = [c for c in plan.candidates if "activation checkpointing" in c.change.label]
    assert checkpointed and all(c.cost <= 3000 for c in plan.candidates)
    for candidate in checkpointed:
        verdict = judge(candidate.option.peak_bytes, candidate.option.gpu.memory_bytes, plan.headroom)
        assert verdict.fits, verdict.text()
        if candidate.option.throughput is not None:  # a card the catalog cannot rate has no time to compare
            assert candidate.change.time_factor is not None and candidate.change.time_factor > 1

    view = panel.view
    assert not view.is_outdated()
    assert view.candidates.rowCount() == len(plan.candidates)
    for row, candidate in enumerate(plan.candidates):
        assert view.candidates.item(row, 1).text() == candidate.change.text()  # "as asked" or the change
    best = checkpointed[0]
    row = plan.candidates.index(best)
    assert view.candidates.item(row, 1).text().startswith("activation checkpointing (1.")
    assert view.candidates.item(row, 1).text().endswith("x time per sample)")

    # The job: 100,000 samples x 3 epochs on each build (hours, electricity, jobs to pay off) and each rental.
    assert view.results.isTabEnabled(JOB_TAB)
    assert "100,000 samples × 3 epochs = 300,000 samples" in view.job_text.text()
    assert best.job is not None and best.job.cost is not None and best.job.hours > 0
    assert view.jobs.item(row, 2).text() == format_money(best.job.cost, "USD")
    assert best.jobs_to_break_even is not None and view.jobs.item(row, 4).text().endswith("jobs")
    assert plan.rentals and view.rentals.rowCount() == len(plan.rentals)
    first_rental = len(plan.candidates)
    rental = plan.rentals[0]
    assert rental.job is not None and rental.job.cost is not None
    assert view.rentals.item(0, 1).text() == rental.change.text()
    assert view.jobs.item(first_rental, 2).text() == format_money(rental.job.cost, "USD")

    # The notes, the headroom kept among them; the form says the same headroom.
    headroom_note = next(note for note in plan.notes if headroom.percent in note and headroom.why in note)
    assert headroom_note in view.notes.text()
    assert headroom.percent in view.message.text()

    # A new limit plans again at once from the kept traces.
    form.budget.setText("2500")
    qtbot.waitUntil(lambda: panel.plan is not None and panel.plan.constraints.budget == 2500, timeout=2_000)
    assert panel.traces_started == 1
    assert panel.plan is not None and all(c.cost <= 2500 for c in panel.plan.candidates)


def test_results_are_dimmed_while_a_new_plan_is_computed(
    qtbot, panel: RecommendPanel, tiny_llama: Path, tmp_path: Path
) -> None:  # type: ignore[no-untyped-def]
    form = panel.form
    form.use_own.setChecked(True)
    form.set_workload(Workload(str(tiny_llama), task="finetune", precision="amp_bf16", batch=4, seq=128))
    form.as_asked.setChecked(True)  # one trace per model
    qtbot.mouseClick(panel.run_button, LEFT)
    qtbot.waitUntil(lambda: panel.plan is not None, timeout=TINY_TRACE_MS)
    first = panel.plan
    view = panel.view
    assert not view.is_outdated() and view.body.isEnabled() and view.outdated.isHidden()

    # A model not traced yet: the results shown no longer answer the form, and say so while the new plan is made.
    untraced = tmp_path / "fresh" / "config.json"
    untraced.parent.mkdir()
    untraced.write_text(json.dumps({**TINY_LLAMA, "hidden_size": 96, "intermediate_size": 288}))
    form.fields.model.setEditText(str(untraced))
    qtbot.waitUntil(view.is_outdated, timeout=2_000)  # the edit alone: a new trace is needed
    assert panel.plan is first and not panel.running()
    qtbot.mouseClick(panel.run_button, LEFT)
    assert panel.running() and panel.traces_started == 2
    assert view.is_outdated() and not view.body.isEnabled() and view.outdated.isVisibleTo(panel)
    assert view.outdated.text().startswith("Outdated") and panel.plan is first
    qtbot.waitUntil(lambda: panel.plan is not first, timeout=TINY_TRACE_MS)
    assert not view.is_outdated() and view.body.isEnabled() and view.outdated.isHidden()
    assert panel.plan is not None and panel.plan.candidates

    # An entry that cannot be used: its message, and the results dimmed under it.
    second = panel.plan
    form.budget.setText("-5")
    qtbot.waitUntil(panel.error.isVisible, timeout=2_000)
    assert panel.error.text().startswith("budget: must be a positive number") and view.is_outdated()
    assert panel.plan is second and panel.traces_started == 2
    form.budget.clear()
    qtbot.waitUntil(lambda: panel.plan is not second, timeout=2_000)
    assert panel.error.isHidden() and not view.is_outdated()
