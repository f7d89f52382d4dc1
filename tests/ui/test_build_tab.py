"""The Build tab driven as a user drives it: the real store, catalog, checker and planner, and a real trace of a
tiny model for the Recommend panel (seconds on a CPU)."""

from __future__ import annotations

import csv
import io
import json
import sqlite3
from collections.abc import Iterator
from dataclasses import replace
from pathlib import Path

import pytest
from conftest import TINY_LLAMA
from processes import live_children
from PySide6.QtCore import Qt
from PySide6.QtWidgets import QDialog, QPushButton

from gpuconfig.core.build.model import Build, BuildLine, build_from_json
from gpuconfig.core.planner.recommend import Plan
from gpuconfig.core.workload.spec import Workload
from gpuconfig.ui.build.files import EXPORTS
from gpuconfig.ui.build.part_picker import CHECK, PartPicker
from gpuconfig.ui.build.tab import BuildTab
from gpuconfig.ui.main_window import INDEX, MainWindow
from gpuconfig.ui.theme import DARK
from gpuconfig.ui.widgets.part_detail import PartDetailDialog

TRACE_TIMEOUT_MS = 120_000
pytestmark = pytest.mark.usefixtures("shared_trace_cache")
GPU, CPU, SSD, PSU = "nvidia-geforce-rtx-4090", "amd-ryzen-9-9950x", "samsung-990-pro-2tb", "msi-meg-ai1300p-pcie5"
TWO_4090 = Build(
    "Two 4090s",
    (
        BuildLine(GPU, 2),
        BuildLine(CPU),  # no public price
        BuildLine("asus-rog-strix-x870e-e-gaming-wifi"),
        BuildLine("crucial-pro-oc-ddr5-6400-2x32gb"),
        BuildLine(SSD),
        BuildLine(PSU),
        BuildLine("nzxt-h9-flow-2025"),
    ),
)


@pytest.fixture
def tab(qtbot, window: MainWindow) -> Iterator[BuildTab]:  # type: ignore[no-untyped-def]
    assert window.built.get("build") is None  # nothing of the tab is built before it is shown
    window.tabs.setCurrentIndex(INDEX["build"])
    built = window.build_tab
    assert window.tabs.widget(INDEX["build"]) is built and window.tabs.tabText(INDEX["build"]) == "Build"
    built.set_build(TWO_4090)
    yield built
    for dialog in built.findChildren(QDialog):
        dialog.close()
    built.shutdown()
    qtbot.waitUntil(lambda: not built.running(), timeout=10_000)  # no trace thread or process left behind


def rules(tab: BuildTab) -> set[str]:
    return {p.rule for p in tab.problems}


def price(tab: BuildTab, part_id: str) -> float:
    part = tab.store.part(part_id)
    assert part is not None and part.price is not None and part.price.currency == "USD"
    return part.price.amount


def test_the_list_shows_every_line_with_prices_and_the_total(tab: BuildTab) -> None:
    assert tab.list.part_ids() == [line.part_id for line in TWO_4090.lines]
    assert tab.list.item(0, 1).text() == "GeForce RTX 4090"
    assert tab.list.item(0, 2).text().startswith("24 GB · 1,008 GB/s")
    assert tab.list.spin(GPU).value() == 2
    assert tab.list.item(0, 5).text() == f"${2 * price(tab, GPU):,.0f}"
    cpu_row = tab.list.part_ids().index(CPU)
    assert tab.list.item(cpu_row, 4).text() == tab.list.item(cpu_row, 5).text() == "unpriced"
    priced = sum(price(tab, line.part_id) * line.count for line in TWO_4090.lines if line.part_id != CPU)
    assert tab.totals.amount == pytest.approx(priced)
    assert tab.view.total.text() == f"Total ${priced:,.0f}"
    assert "1 unpriced, not counted: Ryzen 9 9950X" in tab.view.unpriced.text()
    assert tab.budget is not None and tab.view.power.budget == tab.budget
    assert tab.view.checks_heading.text().startswith("Checks — problems: 2,")
    assert len(tab.view.problems.rows) == len(tab.problems) > 0


def test_a_count_change_updates_totals_power_and_problems_at_once(qtbot, tab: BuildTab) -> None:  # type: ignore[no-untyped-def]
    before = tab.totals.amount
    assert {"p2p", "psu-headroom"} <= rules(tab)
    assert tab.budget is not None and tab.budget.gpu_w == 900
    spin = tab.list.spin(GPU)
    spin.setFocus()
    qtbot.keyClick(spin, Qt.Key.Key_Down)  # the spin box's own arrow key: 2 -> 1
    assert tab.build.lines[0] == BuildLine(GPU, 1)
    assert tab.totals.amount == pytest.approx(before - price(tab, GPU))
    assert tab.view.total.text() == f"Total ${tab.totals.amount:,.0f}"
    assert tab.budget.gpu_w == 450 and tab.view.power.budget is tab.budget
    assert not {"p2p", "psu-headroom", "case-slots", "psu-connectors"} & rules(tab)
    assert tab.list.spin(GPU) is spin and spin.hasFocus()  # the editor stays: only the figures changed
    qtbot.keyClick(spin, Qt.Key.Key_Up)
    assert "p2p" in rules(tab) and tab.totals.amount == pytest.approx(before)


def test_swap_shows_the_socket_problem_before_and_after(qtbot, tab: BuildTab) -> None:  # type: ignore[no-untyped-def]
    assert "socket" not in rules(tab)
    qtbot.mouseClick(tab.list.action(CPU, "swap"), Qt.MouseButton.LeftButton)
    picker = tab.dialog
    assert isinstance(picker, PartPicker) and picker.isVisible()
    assert not picker.kind.isVisible()  # a swap stays within the kind
    ids = [p.id for p in picker.parts]
    assert set(ids) == {p.id for p in tab.store.parts("cpu")}
    intel = ids.index("intel-core-i9-14900k")
    assert picker.table.item(intel, CHECK).text().endswith("new problem(s)")
    assert "LGA1700" in picker.table.item(intel, CHECK).toolTip()
    amd = ids.index("amd-ryzen-9-9900x")
    assert picker.table.item(amd, CHECK).text() == "✖ fails as now (2)"  # the case and the supply, not the CPU
    assert amd < intel  # parts that bring no new problem come first
    picker.select("intel-core-i9-14900k")
    picker.accept()
    assert CPU not in tab.build.lines[1].part_id and tab.build.lines[1].part_id == "intel-core-i9-14900k"
    assert "socket" in rules(tab)
    socket = next(p for p in tab.problems if p.rule == "socket")
    assert socket.severity == "fail" and any(socket.message in row.text() for row in tab.view.problems.rows)
    tab.swap_part("intel-core-i9-14900k", CPU)
    assert "socket" not in rules(tab)
    assert tab.build == TWO_4090


def test_remove_and_add_a_part(qtbot, tab: BuildTab) -> None:  # type: ignore[no-untyped-def]
    before = tab.totals.amount
    qtbot.mouseClick(tab.list.action(SSD, "remove"), Qt.MouseButton.LeftButton)
    assert SSD not in tab.list.part_ids()
    assert tab.totals.amount == pytest.approx(before - price(tab, SSD))
    assert any(p.rule == "incomplete" and "ssd" in p.message for p in tab.problems)
    qtbot.mouseClick(tab.add_button, Qt.MouseButton.LeftButton)
    picker = tab.dialog
    assert isinstance(picker, PartPicker)
    assert picker.kind.currentData() == "ssd"  # the first kind the build lacks
    picker.select(SSD)
    picker.accept()
    assert SSD in tab.list.part_ids() and tab.totals.amount == pytest.approx(before)
    tab.add_part(GPU)  # one more of a part the build has
    assert tab.list.spin(GPU).value() == 3


def test_currency_and_circuit_switches(tab: BuildTab) -> None:
    rate = tab.store.exchange_rate()
    assert rate is not None
    tab.currency.setCurrentIndex(tab.currency.findData("CNY"))
    assert tab.build.currency == "CNY"
    # Each line at its own CNY price where the catalog has one (the RTX 4090's Chinese price), else converted.
    expected = 0.0
    for item in tab.resolved.items:
        price = item.part.price_for("CNY")
        if price is not None:
            expected += item.count * (price.amount if price.currency == "CNY" else price.amount * rate.rate)
    gpu = tab.store.part(GPU)
    assert gpu is not None and gpu.price_for("CNY").currency == "CNY"  # type: ignore[union-attr]
    assert tab.totals.amount == pytest.approx(expected)
    assert tab.view.total.text().startswith("Total ¥")
    assert tab.list.horizontalHeaderItem(4).text() == "Unit (CNY)"
    assert f"1 USD = {rate.rate:g} CNY" in tab.view.unpriced.text()
    tab.set_count(GPU, 3)  # about 1,900 W at the wall
    assert tab.budget is not None and tab.budget.wall_w is not None
    assert "circuit" in rules(tab) and tab.view.power.state() == "fail"
    tab.circuit.setCurrentIndex(tab.circuit.findData("eu-230v-16a"))
    assert tab.build.circuit == "eu-230v-16a" and tab.budget.circuit.watts == 2944
    assert "circuit" not in rules(tab)


def test_save_open_and_delete_in_the_database(tab: BuildTab, window: MainWindow, tmp_path: Path) -> None:
    store = tab.store
    assert not tab.files.delete_button.isEnabled()
    tab.files.save_as("Lab box")
    assert [name for name, _ in store.user.saved_builds()] == ["Lab box"]
    assert tab.files.state.text() == "saved" and tab.files.name.text() == "Lab box"
    assert tab.files.delete_button.isEnabled()
    tab.set_count(GPU, 1)
    assert tab.files.state.text() == "changed"
    assert tab.files.open_saved("Lab box") == ""
    assert tab.list.spin(GPU).value() == 2 and tab.files.state.text() == "saved"
    assert store.user.load_build("Lab box") == tab.build

    raw = sqlite3.connect(tmp_path / "test.sqlite3", isolation_level=None)
    raw.execute("INSERT INTO builds VALUES ('broken', '2026-01-01T00:00:00', 'not json')")
    raw.close()
    error = tab.files.open_saved("broken")
    assert error.startswith("saved build 'broken': the stored text is not JSON")
    assert tab.build.name == "Lab box"  # nothing changed

    assert tab.files.delete_saved("Lab box") and not tab.files.delete_saved("Lab box")
    assert tab.files.state.text() == "not saved"
    tab.files.new_build()
    assert tab.list.rowCount() == 0 and not tab.files.save_button.isEnabled()


def test_the_build_worked_on_comes_back(qtbot, tab: BuildTab, window: MainWindow) -> None:  # type: ignore[no-untyped-def]
    tab.set_count(GPU, 1)
    tab.shutdown()  # what closing the window does
    again = BuildTab(window.store, window.colors)
    qtbot.addWidget(again)
    assert again.build == TWO_4090.with_line(GPU, 1)


def test_every_export_format(tab: BuildTab, tmp_path: Path) -> None:
    for fmt in EXPORTS:
        tab.files.export_to(tmp_path / f"build.{fmt}", fmt)
    markdown = (tmp_path / "build.md").read_text(encoding="utf-8")
    assert markdown.startswith("# Two 4090s\n")
    assert "| GPU | GeForce RTX 4090 | 24 GB" in markdown and "| CPU | Ryzen 9 9950X |" in markdown
    html = (tmp_path / "build.html").read_text(encoding="utf-8")
    assert html.startswith("<!DOCTYPE html>") and "<td>GeForce RTX 4090</td>" in html
    rows = list(csv.DictReader(io.StringIO((tmp_path / "build.csv").read_text(encoding="utf-8"))))
    assert [r["id"] for r in rows[:-1]] == tab.list.part_ids() and rows[-1]["kind"] == "total"
    data = json.loads((tmp_path / "build.json").read_text(encoding="utf-8"))
    assert build_from_json(data) == tab.build
    assert {p["rule"] for p in data["problems"]} == rules(tab)
    pdf = (tmp_path / "build.pdf").read_bytes()
    assert pdf.startswith(b"%PDF") and len(pdf) > 10_000

    tab.files.new_build()
    assert tab.files.import_file(tmp_path / "build.json") == ""
    assert tab.build == TWO_4090
    (tmp_path / "bad.json").write_text('{"parts": [{"id": "no-such-part"}]}', encoding="utf-8")
    error = tab.files.import_file(tmp_path / "bad.json")
    assert "'no-such-part' is not in the catalog" in error
    assert tab.build == TWO_4090


def test_details_dialog_and_the_catalog_row(qtbot, tab: BuildTab, window: MainWindow) -> None:  # type: ignore[no-untyped-def]
    qtbot.mouseClick(tab.list.action(PSU, "details"), Qt.MouseButton.LeftButton)
    dialog = tab.dialog
    assert isinstance(dialog, PartDetailDialog) and dialog.isVisible()
    assert "MSI MEG Ai1300P" in dialog.detail.browser.toPlainText()
    button = dialog.findChild(QPushButton, "show_in_catalog")
    assert isinstance(button, QPushButton)
    qtbot.mouseClick(button, Qt.MouseButton.LeftButton)
    assert window.tabs.currentIndex() == 0
    assert window.catalog_tab.kind == "psu" and window.catalog_tab.selected_ids() == [PSU]


def test_theme_colours_reach_the_problems(tab: BuildTab, window: MainWindow) -> None:
    window.set_theme("dark")
    fail = next(row for row, p in zip(tab.view.problems.rows, tab.problems, strict=True) if p.severity == "fail")
    assert DARK.error in fail.text()


def test_recommend_with_a_real_trace(qtbot, tab: BuildTab, tiny_llama: Path) -> None:  # type: ignore[no-untyped-def]
    panel = tab.recommend
    form = panel.form
    form.use_own.setChecked(True)
    fields = form.fields
    fields.model.setEditText(str(tiny_llama))
    fields.task.setCurrentIndex(fields.task.findData("finetune"))
    fields.precision.setCurrentIndex(fields.precision.findData("amp_bf16"))
    fields.batch.setValue(4)
    fields.seq.setValue(128)
    form.budget.setText("6000")
    form.rent.setChecked(True)
    qtbot.mouseClick(panel.run_button, Qt.MouseButton.LeftButton)
    assert panel.traces_started == 1 and panel.running()
    qtbot.waitUntil(lambda: panel.plan is not None, timeout=TRACE_TIMEOUT_MS)
    plan = panel.plan
    assert isinstance(plan, Plan) and plan.candidates and plan.shortfall is None
    view = panel.view
    assert view.candidates.rowCount() == len(plan.candidates)
    assert view.rentals.rowCount() == len(plan.rentals) > 0
    assert all(c.cost <= 6000 for c in plan.candidates)

    # The chart: every candidate with a speed is a point; the front's points lie on its line, by cost.
    chart = view.scatter
    rated = [c for c in plan.candidates if c.option.throughput is not None]
    front = sorted((c for c in rated if c.pareto), key=lambda c: c.cost)
    assert front and len(chart.front.data) == len(front)
    assert len(chart.others.data) == len(rated) - len(front)
    xs, ys = chart.front_line.getData()
    assert list(xs) == [c.cost for c in front]
    assert list(ys) == pytest.approx([(c.option.throughput or 0) / chart.scale for c in front])
    assert view.break_even.isVisible() == (plan.break_even is not None)

    # A new limit is planned from the kept trace, at once.
    form.budget.setText("2000")
    qtbot.waitUntil(lambda: panel.plan is not plan, timeout=2_000)
    assert panel.traces_started == 1
    assert panel.plan is not None and all(c.cost <= 2000 for c in panel.plan.candidates)
    # Nothing within the budget: the plan says what it would take.
    form.budget.setText("100")
    qtbot.waitUntil(lambda: panel.plan is not None and panel.plan.shortfall is not None, timeout=2_000)
    assert view.candidates.rowCount() == 0
    assert view.message.text().startswith("Nothing within $100")

    # Choosing a candidate loads it into the list.
    form.budget.clear()  # no limit
    qtbot.waitUntil(lambda: panel.plan is not None and bool(panel.plan.candidates), timeout=2_000)
    chosen = panel.plan.candidates[0]  # type: ignore[union-attr]
    view.candidates.cellDoubleClicked.emit(0, 0)
    assert tab.build == chosen.build
    assert tab.list.part_ids()[0] == chosen.build.lines[0].part_id
    assert not {p.rule for p in tab.problems if p.severity == "fail"}  # the planner's builds pass the checker

    # A laptop with an eGPU: one card in an enclosure that works with the chosen port, from the kept trace.
    assert not form.port.isEnabled()
    form.form.setCurrentIndex(form.form.findData("egpu"))
    assert form.port.isEnabled() and not form.max_gpus.isEnabled()
    form.port.setCurrentIndex(form.port.findData("TB3"))
    qtbot.waitUntil(lambda: panel.plan is not None and panel.plan.constraints.port == "TB3", timeout=2_000)
    assert panel.traces_started == 1 and panel.plan is not None and panel.plan.candidates
    for candidate in panel.plan.candidates:
        kinds = [tab.store.part(line.part_id).kind for line in candidate.build.lines]  # type: ignore[union-attr]
        assert kinds.count("gpu") == 1 and kinds.count("dock") == 1
        assert candidate.build.laptop is not None and candidate.build.laptop["port"] == "TB3"
    view.candidates.cellDoubleClicked.emit(0, 0)
    assert not {p.rule for p in tab.problems if p.severity == "fail"}


def test_the_workload_tab_workload_is_offered(qtbot, store, tab: BuildTab, window: MainWindow) -> None:  # type: ignore[no-untyped-def]
    workload = {"model": "gpt2", "task": "finetune", "precision": "amp_bf16", "batch": 8, "seq": 512}
    store.user.set_setting("workload.form", json.dumps(workload))
    tab.recommend.refresh_workload()
    form = tab.recommend.form
    assert form.use_tab.isEnabled() and form.use_tab.isChecked()
    assert form.tab_workload.text().startswith("gpt2 · full fine-tune")
    assert form.workload().model == "gpt2" and form.workload().batch == 8
    workload_tab = window.workload_tab  # once the Workload tab is open, its form is what is offered
    assert window._current_workload() == workload_tab.current_workload() == workload_tab.form.workload()
    workload_tab.shutdown()


def test_cancel_stops_the_trace(qtbot, tab: BuildTab, tmp_path: Path) -> None:  # type: ignore[no-untyped-def]
    untraced = tmp_path / "fresh" / "config.json"  # a model no test has traced, so a trace really runs
    untraced.parent.mkdir()
    untraced.write_text(json.dumps({**TINY_LLAMA, "hidden_size": 96, "intermediate_size": 288}))
    panel = tab.recommend
    panel.form.use_own.setChecked(True)
    panel.form.fields.model.setEditText(str(untraced))
    panel.run()
    assert panel.running() and panel.cancel_button.isVisible()
    qtbot.waitUntil(lambda: bool(live_children()), timeout=10_000)  # the trace process has started
    qtbot.mouseClick(panel.cancel_button, Qt.MouseButton.LeftButton)
    assert panel.status.text() == "Cancelled." and panel.cancel_button.isHidden()
    qtbot.waitUntil(lambda: not panel.running(), timeout=10_000)
    qtbot.waitUntil(lambda: not live_children(), timeout=10_000)
    assert panel.plan is None


def workload_rows(tab: BuildTab) -> list[tuple[str, str]]:
    return [(p.severity, p.message) for p in tab.problems if p.rule == "workload-memory"]


def test_the_planned_workload_is_judged_against_the_cards(qtbot, tab: BuildTab) -> None:  # type: ignore[no-untyped-def]
    # GPT-2 fine-tuned at 16 x 512 on each of two cards: about 14 GiB, too much for an 8 GB card.
    planned = Workload("gpt2", batch=16, seq=512, gpus=2)
    tab.set_build(replace(TWO_4090, workload=planned.to_json()))
    [(severity, message)] = workload_rows(tab)
    assert severity == "info" and message.startswith(
        "The workload's memory against the cards: checking… (gpt2 is being traced)"
    )  # traced on the worker
    assert tab.tracing.started == 1 and tab.running()
    qtbot.waitUntil(lambda: "checking" not in str(workload_rows(tab)), timeout=TRACE_TIMEOUT_MS)
    [(severity, message)] = workload_rows(tab)
    assert severity == "info" and "on 2 cards (DDP), needs " in message and "GeForce RTX 4090 has" in message
    assert message.endswith("GiB to spare.") and any(message in row.text() for row in tab.view.problems.rows)

    # A smaller card: judged from the fit at once, no new trace.
    small = "nvidia-geforce-rtx-3070"
    qtbot.mouseClick(tab.list.action(GPU, "swap"), Qt.MouseButton.LeftButton)
    picker = tab.dialog
    assert isinstance(picker, PartPicker)
    row = [p.id for p in picker.parts].index(small)
    assert picker.table.item(row, CHECK).text() == "✖ 1 new problem(s)"  # the picker sees it before the swap
    assert "GeForce RTX 3070 has" in picker.table.item(row, CHECK).toolTip()
    picker.select(small)
    picker.accept()
    [(severity, message)] = workload_rows(tab)
    assert severity == "fail" and message.endswith("it does not fit.")
    assert "GeForce RTX 3070 has " in message and " GiB usable (8.0 GiB less " in message
    fail = next(p for p in tab.problems if p.rule == "workload-memory")
    assert fail.fix.startswith("A card with more memory, or one of the fits-if changes: gpuconfig estimate")
    assert any(fail.message in row.text() and "Fix:" in row.text() for row in tab.view.problems.rows)
    assert tab.view.checks_heading.text().startswith("Checks — problems: ")
    # One card fewer: the run is judged on the one card left.
    tab.set_count(small, 1)
    [(severity, message)] = workload_rows(tab)
    assert severity == "fail" and "on one card, not the 2 it was planned for" in message

    # Back to the big cards, then half of each card kept free: judged again with the new headroom, no trace.
    tab.swap_part(small, GPU)
    tab.set_count(GPU, 2)
    assert workload_rows(tab)[0][0] == "info"
    tab.store.user.set_headroom(50)
    tab.apply_headroom()
    [(severity, message)] = workload_rows(tab)
    assert severity == "fail" and "(24.0 GiB less 50 % headroom)" in message
    assert message.endswith("it fits only by using the headroom.")
    assert tab.tracing.started == 1


def test_a_damaged_workload_is_a_warning_and_needs_no_trace(tab: BuildTab) -> None:
    tab.set_build(replace(TWO_4090, workload={"model": "gpt2", "batch": -1}))
    [(severity, message)] = workload_rows(tab)
    assert severity == "warn" and "its workload cannot be read (batch: " in message
    assert tab.tracing.started == 0
