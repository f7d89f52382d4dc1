"""The JSON the CLI prints for plans and checked builds: bytes as integers, money as {amount, currency}."""

from __future__ import annotations

from dataclasses import asdict
from typing import Any

from gpuconfig.core.build.check import Problem, verdict
from gpuconfig.core.build.model import Resolved, Totals
from gpuconfig.core.build.power import PowerBudget
from gpuconfig.core.numbers import finite_or_none
from gpuconfig.core.planner.gpus import GpuOption
from gpuconfig.core.planner.recommend import Plan


def money(amount: float | None, currency: str) -> dict[str, Any] | None:
    return None if amount is None else {"amount": round(amount, 2), "currency": currency}


def option_record(option: GpuOption) -> dict[str, Any]:
    return {
        "gpu": {"id": option.gpu.id, "name": option.gpu.name, "memory": option.gpu.memory_bytes},
        "count": option.count,
        "strategy": option.strategy,
        "batch": option.batch,
        "grad_accum": option.grad_accum,
        "peak_per_gpu": option.peak_bytes,
        "step_seconds": option.step_seconds,
        "samples_per_s": option.samples_per_s,
        "tokens_per_s": option.tokens_per_s,
        "time_note": option.time_note or None,
    }


def power_record(budget: PowerBudget) -> dict[str, Any]:
    return {
        "gpu_w": budget.gpu_w,
        "cpu_w": budget.cpu_w,
        "cpu_basis": budget.cpu_basis,
        "rest_w": budget.rest_w,
        "sustained_w": budget.sustained_w,
        "required_psu_w": budget.required_w,
        "psu_w": budget.psu_w,
        "psu_atx3": budget.atx3,
        "wall_w": budget.wall_w,
        "circuit": {"id": budget.circuit.id, "label": budget.circuit.label, "watts": budget.circuit.watts},
    }


def check_record(resolved: Resolved, totals: Totals, budget: PowerBudget, problems: list[Problem]) -> dict[str, Any]:
    return {
        "build": resolved.build.to_json(),
        "parts": [
            {
                "id": item.part.id,
                "kind": item.kind,
                "name": item.part.name,
                "count": item.count,
                "price": asdict(item.part.price) if item.part.price else None,
            }
            for item in resolved.items
        ],
        "total": money(totals.amount, totals.currency),
        "unpriced": list(totals.unpriced),
        "power": power_record(budget),
        "problems": [p.to_json() for p in problems],
        "verdict": verdict(problems),
    }


def plan_record(plan: Plan) -> dict[str, Any]:
    c = plan.constraints
    return {
        "constraints": {**asdict(c), "owned": list(c.owned)},
        "considered": plan.considered,
        "candidates": [
            {
                "name": cand.build.name,
                "cost": money(cand.cost, c.currency),
                "per_1000_money": cand.per_money,
                "pareto": cand.pareto,
                "wall_w": cand.wall_w,
                "option": option_record(cand.option),
                "build": cand.build.to_json(),
            }
            for cand in plan.candidates
        ],
        "rentals": [
            {
                "instance": {"id": r.instance.id, "name": r.instance.name},
                "nodes": r.nodes,
                "hourly": money(r.hourly, c.currency),
                "per_sample": money(r.per_sample, c.currency) if r.per_sample is not None else None,
                "option": option_record(r.option),
            }
            for r in plan.rentals
        ],
        "shortfall": None
        if plan.shortfall is None
        else {
            "message": plan.shortfall.message,
            "needed": [
                {
                    "gpu": {"id": n.gpu.id, "name": n.gpu.name, "memory": n.gpu.memory_bytes},
                    "count": n.count,
                    "machines": n.machines,
                    "strategy": n.strategy,
                    "peak_per_gpu": n.peak_bytes,
                    "gpu_cost": money(n.gpu_cost, c.currency),
                }
                for n in plan.shortfall.needed
            ],
        },
        "break_even": None
        if plan.break_even is None
        else {
            "samples": finite_or_none(plan.break_even.samples),
            "build_hours": finite_or_none(plan.break_even.build_hours),
            "rent_hours": finite_or_none(plan.break_even.rent_hours),
            "message": plan.break_even.message,
        },
        "notes": list(plan.notes),
        "skipped": list(plan.skipped),
    }
