"""The JSON the CLI prints for a checked build: bytes as integers, money as {amount, currency}."""

from __future__ import annotations

from dataclasses import asdict
from typing import Any

from gpuconfig.core.build.check import Problem, verdict
from gpuconfig.core.build.model import Resolved, Totals
from gpuconfig.core.build.power import PowerBudget


def money(amount: float | None, currency: str) -> dict[str, Any] | None:
    return None if amount is None else {"amount": round(amount, 2), "currency": currency}


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
        "circuit": {"id": budget.circuit.id, "label": budget.circuit.title, "watts": budget.circuit.watts},
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
