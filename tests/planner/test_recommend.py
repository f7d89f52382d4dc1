"""The planner on real traces of real models over the whole catalog: what it returns holds the workload,
passes every rule, fits the budget; what it cannot do, it says in GPUs and money."""

from __future__ import annotations

import json
import math
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

from gpuconfig.core.build.check import check
from gpuconfig.core.build.model import resolve, totals
from gpuconfig.core.build.power import power_budget
from gpuconfig.core.build.rules import build_rules
from gpuconfig.core.egpu.problems import egpu_problems
from gpuconfig.core.planner.recommend import MAX_DATASET_GB, Constraints, Plan, PlanError, plan_parts, recommend
from gpuconfig.core.planner.records import plan_record
from gpuconfig.core.userdata.store import Store, open_default_store
from gpuconfig.core.workload.service import Fit, TraceService
from gpuconfig.core.workload.spec import Workload

LORA_8B = Workload("llama-3-8b", task="lora", seq=2048, precision="bf16", checkpointing=True)


@pytest.fixture(scope="module")
def lora_fit(module_data_dir: Path) -> Fit:
    return TraceService().fit_for(LORA_8B)


def plan_for(store: Store, fit: Fit, workload: Workload, constraints: Constraints) -> Plan:
    source, fitted = fit.source, fit.fitted
    return recommend(
        source, fitted, workload, constraints, plan_parts(store), build_rules(), store.exchange_rate(), store.part
    )


def test_every_candidate_holds_the_workload_passes_the_rules_and_fits_the_budget(store: Store, lora_fit: Fit) -> None:
    plan = plan_for(store, lora_fit, LORA_8B, Constraints(budget=3000, rent=True))
    assert plan.candidates, plan.skipped
    rules = build_rules()
    for candidate in plan.candidates:
        option = candidate.option
        assert option.fits and option.peak_bytes <= option.gpu.memory_bytes
        resolved = resolve(candidate.build, store.part)
        assert not [p for p in check(resolved, rules, egpu_check=egpu_problems) if p.severity == "fail"], (
            candidate.build.name
        )
        budget = power_budget(resolved, rules, "us-120v-15a")
        assert budget.psu_w is not None and budget.required_w <= budget.psu_w
        assert budget.sustained_w <= rules.comfortable_share * budget.psu_w  # headroom kept
        total = totals(resolved, "USD", store.exchange_rate())
        assert not total.unpriced and total.amount == pytest.approx(candidate.cost)
        assert candidate.cost <= 3000
    # Ranked by throughput per money, known speeds first; the Pareto front is not dominated.
    rated = [c.per_money for c in plan.candidates if c.per_money is not None]
    assert rated == sorted(rated, reverse=True)
    front = [c for c in plan.candidates if c.pareto]
    assert front
    for c in front:
        for other in plan.candidates:
            better = other.cost < c.cost and (other.option.throughput or 0) > (c.option.throughput or 0)
            assert not better
    assert plan.rentals and all(r.option.fits for r in plan.rentals)
    assert plan.break_even is not None and plan.break_even.build_hours > 0
    json.dumps(plan_record(plan))  # the CLI's JSON is JSON


def test_a_tighter_budget_never_returns_a_dearer_build(store: Store, lora_fit: Fit) -> None:
    plan = plan_for(store, lora_fit, LORA_8B, Constraints(budget=2200))
    assert all(c.cost <= 2200 for c in plan.candidates)


def test_owned_parts_cost_nothing(store: Store, lora_fit: Fit) -> None:
    plan = plan_for(store, lora_fit, LORA_8B, Constraints(budget=3000, owned=("nvidia-geforce-rtx-4090",)))
    with_card = [c for c in plan.candidates if c.build.lines[0].part_id == "nvidia-geforce-rtx-4090"]
    assert with_card
    gpu = store.part("nvidia-geforce-rtx-4090")
    assert gpu is not None and gpu.price is not None
    full = plan_for(store, lora_fit, LORA_8B, Constraints(budget=3000))
    before = next(c for c in full.candidates if c.build.lines[0].part_id == "nvidia-geforce-rtx-4090")
    assert with_card[0].cost == pytest.approx(before.cost - gpu.price.amount)


@pytest.mark.parametrize(
    ("changes", "field"),
    [
        ({"form": "laptop"}, "form"),
        ({"budget": -5.0}, "budget"),
        ({"max_gpus": 9}, "max_gpus"),
        ({"dataset_gb": -5}, "dataset_gb"),
        ({"dataset_gb": 10**23}, "dataset_gb"),
        ({"dataset_gb": 1e23}, "dataset_gb"),
        ({"dataset_gb": math.nan}, "dataset_gb"),
    ],
)
def test_impossible_limits_name_the_field(changes: dict[str, Any], field: str) -> None:
    with pytest.raises(PlanError, match=f"^{field}:"):
        Constraints(**changes)


def test_a_dataset_of_nothing_or_up_to_a_petabyte_is_a_limit() -> None:
    assert Constraints(dataset_gb=0).dataset_gb == 0
    assert Constraints(dataset_gb=MAX_DATASET_GB).dataset_gb == MAX_DATASET_GB


def run_cli(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "gpuconfig", *args], capture_output=True, text=True, timeout=600, check=False
    )


def test_cli_recommend_llama3_8b_lora_within_3000_usd(lora_fit: Fit) -> None:
    result = run_cli(
        "recommend",
        "--model",
        "llama-3-8b",
        "--task",
        "lora",
        "--seq",
        "2048",
        "--precision",
        "bf16",
        "--checkpointing",
        "--budget",
        "3000",
        "--currency",
        "USD",
        "--json",
    )
    assert result.returncode == 0, result.stderr
    plan = json.loads(result.stdout)
    assert plan["candidates"] and plan["shortfall"] is None
    store = open_default_store()
    for candidate in plan["candidates"]:
        assert candidate["option"]["peak_per_gpu"] <= candidate["option"]["gpu"]["memory"]
        assert candidate["cost"]["amount"] <= 3000 and candidate["cost"]["currency"] == "USD"
        psu = next(store.part(p["id"]) for p in candidate["build"]["parts"] if store.part(p["id"]).kind == "psu")
        assert psu.specs["watts"] >= candidate["wall_w"] * 0.9  # the wall draw includes the supply's losses


def test_cli_recommend_70b_full_finetune_on_a_small_budget_says_what_it_would_take() -> None:
    result = run_cli(
        "recommend", "--model", "llama-3-70b", "--task", "finetune", "--seq", "2048", "--budget", "3000", "--json"
    )
    assert result.returncode == 0, result.stderr
    plan = json.loads(result.stdout)
    assert plan["candidates"] == []
    shortfall = plan["shortfall"]
    assert shortfall["message"].startswith("Nothing within $3,000 holds llama-3-70b")
    cheapest = shortfall["needed"][0]
    # Mixed-precision AdamW holds about 16 bytes per parameter: over a terabyte, so many GPUs.
    assert cheapest["count"] * cheapest["gpu"]["memory"] > 70e9 * 16
    assert cheapest["gpu_cost"]["amount"] > 3000
    assert "Renting:" in shortfall["message"] or not plan["rentals"]


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["--budget", "-1"], "budget: must be a positive number"),
        (["--budget", "inf"], "budget: must be a finite number, got inf"),
        (["--electricity", "nan"], "electricity: must be a finite number, got nan"),
        (["--circuit", "moon"], "--circuit: 'moon' is not one of"),
        (["--own", "no-such-part"], "--own: 'no-such-part' is not in the catalog"),
        (["--max-gpus", "12"], "max_gpus: one machine holds 1 to 8 GPUs"),
        (["--form", "laptop"], "invalid choice"),
        (["--dataset-gb", "-5"], "dataset_gb: must be zero or a positive number, got -5"),
        (["--dataset-gb", str(10**23)], "dataset_gb: must be at most 1,000,000"),
        (["--batch", "99999999999999999999"], "batch: must be at most 1,000,000"),
    ],
)
def test_cli_recommend_bad_input_is_one_line_and_exit_2(args: list[str], message: str) -> None:
    result = run_cli("recommend", "--model", "gpt2", *args)
    assert result.returncode == 2
    assert message in result.stderr and result.stderr.count("\n") == 1


def test_traffic_between_cards_follows_the_strategy() -> None:
    from gpuconfig.core.workload.communication import traffic_bytes

    weights, grads = 16e9, 1e8
    assert traffic_bytes("ddp", 1, weights, grads, 1) == 0
    assert traffic_bytes("ddp", 2, weights, grads, 4) == pytest.approx(grads)  # 2 (n-1)/n once per step
    assert traffic_bytes("fsdp", 4, weights, grads, 2) == pytest.approx(2 * 2 * 0.75 * weights + 0.75 * grads)


def test_several_cards_are_paced_by_their_slowest_slot(store: Store, lora_fit: Fit) -> None:
    plan = plan_for(store, lora_fit, LORA_8B, Constraints(budget=3000))
    multi = [c for c in plan.candidates if c.option.count > 1 and c.option.step_seconds is not None]
    assert multi
    for c in multi:
        assert c.option.comm_seconds is not None and c.option.link.startswith("PCIe")
        assert c.option.step_seconds >= c.option.comm_seconds
    rules = build_rules()
    assert rules.link_gbs(4, 4) == pytest.approx(23.9 / 4)
    assert rules.link_gbs(5, 16) == pytest.approx(55.4)


def test_what_it_would_take_counts_only_cards_for_a_machine(store: Store, lora_fit: Fit) -> None:
    amp = LORA_8B.with_changes(precision="amp_bf16", checkpointing=False)  # fp32 master weights: 30 GiB
    fit = TraceService().fit_for(amp)
    plan = plan_for(store, fit, amp, Constraints(budget=3000))
    assert plan.shortfall is not None and plan.shortfall.needed
    for needed in plan.shortfall.needed:
        part = store.part(needed.gpu.id)
        assert part is not None and part.specs["form_factor"] == "PCIe card"
        assert needed.peak_bytes <= needed.gpu.memory_bytes


# --- a laptop with an eGPU -------------------------------------------------------------------------------


def test_egpu_builds_are_one_card_in_an_enclosure_that_works_with_the_port(store: Store, lora_fit: Fit) -> None:
    tower = plan_for(store, lora_fit, LORA_8B, Constraints(budget=3000, max_gpus=1))
    plan = plan_for(store, lora_fit, LORA_8B, Constraints(budget=3000, form="egpu", port="TB4", charger_w=65))
    assert plan.candidates, plan.skipped
    rules = build_rules()
    tower_speed = {c.build.lines[0].part_id: c.option.throughput for c in tower.candidates}
    for candidate in plan.candidates:
        build = candidate.build
        assert build.laptop == {"port": "TB4", "os": "linux", "charger_w": 65}
        resolved = resolve(build, store.part)
        assert resolved.count("gpu") == 1 and resolved.count("dock") == 1
        dock = resolved.by_kind["dock"][0]
        if dock.spec("psu_w") is None and dock.spec("max_gpu_power_w") is None:
            assert resolved.count("psu") == 1  # an enclosure without a supply comes with one
        assert not [p for p in check(resolved, rules, egpu_check=egpu_problems) if p.severity == "fail"], build.name
        total = totals(resolved, "USD", store.exchange_rate())
        assert not total.unpriced and total.amount == pytest.approx(candidate.cost) and candidate.cost <= 3000
        option = candidate.option
        assert option.count == 1 and option.comm_seconds and option.comm_seconds > 0
        assert "host to device" in option.link
        same = tower_speed.get(build.lines[0].part_id)
        if same is not None and option.throughput is not None:
            assert option.throughput < same  # the link's copies only add to the step
    assert "Laptop with eGPU" in plan.notes[0]


def test_no_egpu_on_a_port_without_pcie(store: Store, lora_fit: Fit) -> None:
    plan = plan_for(store, lora_fit, LORA_8B, Constraints(budget=3000, form="egpu", port="USB-C"))
    assert not plan.candidates
    assert plan.skipped and all("port" in s for s in plan.skipped)
    assert plan.shortfall is not None


def test_an_egpu_plan_needs_the_port() -> None:
    with pytest.raises(PlanError, match="port: a laptop with an eGPU needs the laptop's port"):
        Constraints(form="egpu")
