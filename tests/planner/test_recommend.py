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
from gpuconfig.core.planner.changes import Variant, candidate_changes, traced_variants
from gpuconfig.core.planner.gpus import GpuOptions
from gpuconfig.core.planner.recommend import (
    COUNTS,
    MAX_DATASET_GB,
    Constraints,
    Plan,
    PlanError,
    plan_parts,
    recommend,
)
from gpuconfig.core.planner.records import plan_record
from gpuconfig.core.userdata.store import Store, open_default_store
from gpuconfig.core.workload.estimate import GpuSpec
from gpuconfig.core.workload.fit import judge
from gpuconfig.core.workload.service import Fit, TraceService
from gpuconfig.core.workload.spec import Workload

LORA_8B = Workload("llama-3-8b", task="lora", seq=2048, precision="bf16", checkpointing=True)
# The case as a new user asks it: no checkpointing, batch 1 (issue: "Nothing within $3,000 holds ...").
LORA_8B_ASKED = LORA_8B.with_changes(checkpointing=False)


@pytest.fixture(scope="module")
def lora_fit(module_data_dir: Path) -> Fit:
    return TraceService().fit_for(LORA_8B)


@pytest.fixture(scope="module")
def lora_variants(module_data_dir: Path, lora_fit: Fit) -> list[Variant]:
    """The case as asked and every change a plan may make to it without changing what is trained, traced."""
    service = TraceService()
    asked = service.fit_for(LORA_8B_ASKED)
    return traced_variants(Variant("", LORA_8B_ASKED, asked.source, asked.fitted), False, service)


def plan_with_changes(store: Store, variants: list[Variant], constraints: Constraints) -> Plan:
    asked, *changes = variants
    return recommend(
        asked.source,
        asked.fitted,
        asked.workload,
        constraints,
        plan_parts(store),
        build_rules(),
        store.exchange_rate(),
        store.part,
        changes,
    )


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
    gpu = store.part("nvidia-geforce-rtx-4090")
    assert gpu is not None and gpu.price is not None
    budget = gpu.price.amount + 3000  # room for the card bought and a machine around it
    plan = plan_for(store, lora_fit, LORA_8B, Constraints(budget=budget, owned=("nvidia-geforce-rtx-4090",)))
    with_card = [c for c in plan.candidates if c.build.lines[0].part_id == "nvidia-geforce-rtx-4090"]
    assert with_card
    full = plan_for(store, lora_fit, LORA_8B, Constraints(budget=budget))
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
    # Whatever change it tries (checkpointing, 8-bit AdamW), the step keeps bf16 weights and gradients and two
    # optimizer states of at least a byte each, 6 bytes per parameter, sharded: over 400 GB, so many GPUs.
    assert cheapest["count"] * cheapest["gpu"]["memory"] > 70e9 * 6
    assert cheapest["peak_per_gpu"] <= cheapest["gpu"]["memory"]
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
        (["--epochs", "-1"], "epochs: must be a positive number, got -1"),
        (["--headroom", "80"], "--headroom: must be at most 50"),
        (["--headroom", "nan"], "--headroom: must be a finite number, got nan"),
        (["--as-asked", "--change-result"], "not allowed with argument"),
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


# --- hardware and changes searched together -----------------------------------------------------------


def test_a_plan_within_3000_usd_makes_the_change_that_fits(store: Store, lora_variants: list[Variant]) -> None:
    """Llama-3-8B LoRA at 2,048 tokens does not fit a 24 GB card as asked; with activation checkpointing it
    does, so a one-card machine within $3,000 holds it: the plan names the change, its time cost, and the
    fit holds with the stated headroom."""
    asked, *changes = lora_variants
    assert [v.change for v in changes] == ["activation checkpointing"]  # LoRA: no 8-bit AdamW, no QLoRA asked
    plan = plan_with_changes(store, lora_variants, Constraints(budget=3000))
    assert plan.headroom is not None and plan.headroom.share > 0
    assert any(f"{plan.headroom.percent} headroom" in note for note in plan.notes)
    changed = [c for c in plan.candidates if "activation checkpointing" in c.change.label]
    assert changed, plan.shortfall
    for candidate in plan.candidates:
        option = candidate.option
        assert candidate.cost <= 3000
        assert judge(option.peak_bytes, option.gpu.memory_bytes, plan.headroom).fits
        assert candidate.build.workload is not None
        assert candidate.build.workload["checkpointing"] == ("activation checkpointing" in candidate.change.label)
    as_asked = GpuOptions(asked.source, asked.fitted, asked.workload, plan.headroom)
    for candidate in changed:
        # The change was needed: the same cards do not hold the workload as asked.
        assert not as_asked.option(candidate.option.gpu, candidate.option.count).fits
        if candidate.option.throughput is None:  # the catalog has no rate for this card: no time cost either
            assert candidate.change.time_factor is None
            continue
        assert candidate.change.time_factor is not None and candidate.change.time_factor > 1  # recomputation
        assert "x time per sample" in candidate.change.text()


def test_free_changes_come_before_more_cards(store: Store, lora_variants: list[Variant]) -> None:
    """A plan buys a second card only where no change makes the workload fit on fewer."""
    plan = plan_with_changes(store, lora_variants, Constraints(budget=6000))
    assert plan.candidates
    searched = [GpuOptions(v.source, v.fitted, v.workload, plan.headroom) for v in lora_variants]  # type: ignore[arg-type]
    for candidate in plan.candidates:
        gpu: GpuSpec = candidate.option.gpu
        for fewer in (n for n in COUNTS if n < candidate.option.count):
            assert not any(options.option(gpu, fewer).fits for options in searched), (candidate.build.name, fewer)


def test_changes_to_what_is_trained_only_when_allowed() -> None:
    full = Workload("llama-3-8b", task="finetune", seq=2048, precision="bf16")
    kept = [label for label, _, alters in candidate_changes(full, False)]
    assert kept == [
        "activation checkpointing",
        "8-bit AdamW",
        "activation checkpointing + 8-bit AdamW",
    ]
    allowed = {label: alters for label, _, alters in candidate_changes(full, True)}
    assert allowed["LoRA rank 16"] and allowed["QLoRA (4-bit base weights)"]
    assert allowed["activation checkpointing + QLoRA (4-bit base weights)"]
    assert candidate_changes(LORA_8B, False) == []  # checkpointing already on: nothing left that keeps the result


def test_the_job_view_prices_each_build_and_rental(store: Store, lora_variants: list[Variant]) -> None:
    constraints = Constraints(budget=3000, rent=True, samples=100_000, epochs=3, electricity_per_kwh=0.15)
    plan = plan_with_changes(store, lora_variants, constraints)
    assert constraints.job_samples == 300_000
    rented = [r for r in plan.rentals if r.job is not None]
    assert rented
    for r in rented:
        assert r.job is not None and r.option.samples_per_s
        assert r.job.hours == pytest.approx(300_000 / r.option.samples_per_s / 3600)
        assert r.job.cost == pytest.approx(r.job.hours * r.hourly)
    cheapest_rent = rented[0].job
    assert cheapest_rent is not None and cheapest_rent.cost is not None
    rated = [c for c in plan.candidates if c.option.samples_per_s]
    assert rated and all(c.job is None for c in plan.candidates if c not in rated)  # no rate: no job time
    for c in rated:
        assert c.job is not None and c.option.samples_per_s and c.job.cost is not None
        assert c.job.hours == pytest.approx(300_000 / c.option.samples_per_s / 3600)
        assert c.job.cost == pytest.approx(c.wall_w / 1000 * c.job.hours * 0.15)
        assert c.job.first_cost == pytest.approx(c.cost + c.job.cost)
        saved = cheapest_rent.cost - c.job.cost
        assert c.jobs_to_break_even == (pytest.approx(c.cost / saved) if saved > 0 else math.inf)
    json.dumps(plan_record(plan))


def test_cli_recommend_as_a_new_user_asks_names_the_change() -> None:
    """The issue's command, unchanged: a build within $3,000 with activation checkpointing named."""
    result = run_cli(
        "recommend", "--model", "llama-3-8b", "--task", "lora", "--batch", "1", "--seq", "2048",
        "--precision", "bf16", "--budget", "3000", "--json",
    )  # fmt: skip
    assert result.returncode == 0, result.stderr
    plan = json.loads(result.stdout)
    assert plan["shortfall"] is None and plan["changes_tried"] == ["activation checkpointing"]
    share = plan["headroom"]["share"]
    changed = [c for c in plan["candidates"] if c["change"]["change"] == "activation checkpointing"]
    assert changed
    for candidate in plan["candidates"]:
        option = candidate["option"]
        assert candidate["cost"]["amount"] <= 3000
        assert option["peak_per_gpu"] <= option["gpu"]["memory"] * (1 - share)
    text = run_cli(
        "recommend", "--model", "llama-3-8b", "--task", "lora", "--seq", "2048", "--precision", "bf16",
        "--budget", "3000",
    )  # fmt: skip
    assert text.returncode == 0 and "activation checkpointing (1." in text.stdout
    assert "headroom" in text.stdout
    as_asked = run_cli(
        "recommend", "--model", "llama-3-8b", "--task", "lora", "--seq", "2048", "--precision", "bf16",
        "--budget", "3000", "--as-asked", "--json",
    )  # fmt: skip
    assert as_asked.returncode == 0, as_asked.stderr
    plain = json.loads(as_asked.stdout)
    assert plain["changes_tried"] == []
    assert all(c["change"]["change"] in (None,) or "micro-batch" in c["change"]["change"] for c in plain["candidates"])


def test_zero_offload_only_where_nothing_else_fits_and_never_as_asked(store: Store) -> None:
    """GPT-2 XL full fine-tune in TF32 with AdamW (about 33 GiB) on every card: ZeRO-Offload is the choice only
    where no micro-batch of the usual strategies fits, the machine's memory is sized for the optimizer state it
    moves to the host, and an as-asked plan never offloads."""
    from gpuconfig.core.planner.gpus import STRATEGIES
    from gpuconfig.core.workload.fit import default_headroom
    from gpuconfig.core.workload.spec import OFFLOAD

    workload = Workload("gpt2-xl", task="finetune", batch=2, seq=256, precision="tf32")
    fit = TraceService().fit_for(workload)
    options = GpuOptions(fit.source, fit.fitted, workload, default_headroom())
    plain = GpuOptions(fit.source, fit.fitted, workload, default_headroom(), offload=False)
    offloaded = 0
    for part in store.parts("gpu"):
        gpu = GpuSpec.from_specs(part.id, part.name, part.specs)
        chosen, without = options.option(gpu, 1), plain.option(gpu, 1)
        if without.fits:
            assert chosen == without and chosen.strategy in STRATEGIES
        elif chosen.fits:
            offloaded += 1
            assert chosen.strategy == OFFLOAD and options.host_bytes(chosen) > 0
    assert offloaded  # the 16-24 GB cards hold it only with the optimizer on the host

    def plan(constraints: Constraints) -> Plan:
        parts, rules, rate = plan_parts(store), build_rules(), store.exchange_rate()
        return recommend(fit.source, fit.fitted, workload, constraints, parts, rules, rate, store.part)

    as_asked = plan(Constraints(as_asked=True, max_gpus=1))
    assert all(c.option.strategy != OFFLOAD for c in as_asked.candidates)
    planned = plan(Constraints(max_gpus=1, budget=4000))
    offloads = [c for c in planned.candidates if c.option.strategy == OFFLOAD]
    assert offloads
    for c in offloads:
        assert "ZeRO-Offload" in c.change.label and c.change.time_factor is not None and c.change.time_factor >= 1
        resolved = resolve(c.build, store.part)
        ram = sum(int(item.spec("capacity_gb")) * item.count for item in resolved.by_kind["ram"])
        host = options.host_bytes(c.option) / 1024**3
        assert ram >= c.option.gpu.memory_bytes / 1024**3 + host


def test_the_plan_names_old_prices_it_used_and_the_cards_it_left_out_unpriced(store: Store, lora_fit: Fit) -> None:
    from gpuconfig.core.catalog.age import is_stale

    plan = plan_for(store, lora_fit, LORA_8B, Constraints(budget=6000))
    used = {line.part_id for c in plan.candidates for line in c.build.lines}
    stale = [store.part(i) for i in used if is_stale(store.part(i).price_for("USD"))]
    note = next((n for n in plan.notes if n.startswith("Prices older than six months")), None)
    if stale:
        assert note is not None and all(p.name in note for p in stale)
    else:
        assert note is None
    cards = [p for p in plan_parts(store) if p.kind == "gpu" and p.specs.get("form_factor") == "PCIe card"]
    unpriced = [p for p in cards if p.price_for("USD") is None]
    left_out = next(n for n in plan.notes if "have no price and were left out" in n)
    assert left_out.startswith(f"{len(unpriced)} GPUs")
    assert unpriced[0].name in left_out
