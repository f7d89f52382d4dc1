"""The JSON the CLI prints for plans: bytes as integers, money as {amount, currency}."""

from __future__ import annotations

import math
from dataclasses import asdict
from typing import Any

from gpuconfig.core.build.records import money
from gpuconfig.core.numbers import finite_or_none
from gpuconfig.core.planner.gpus import GpuOption
from gpuconfig.core.planner.recommend import Change, Job, Plan


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
        "extrapolated": option.extrapolated or None,  # its micro-batch past the traced shapes: no measured band
    }


def change_record(change: Change) -> dict[str, Any]:
    return {
        "change": change.label or None,
        "changes_result": change.changes_result,
        "time_factor": change.time_factor,
        "text": change.text(),
    }


def job_record(job: Job | None, currency: str) -> dict[str, Any] | None:
    if job is None:
        return None
    return {
        "hours": job.hours,
        "cost": money(job.cost, currency) if job.cost is not None else None,
        "first_cost": money(job.first_cost, currency) if job.first_cost is not None else None,
    }


def plan_record(plan: Plan) -> dict[str, Any]:
    c = plan.constraints
    headroom = plan.headroom
    return {
        "constraints": {**asdict(c), "owned": list(c.owned), "job_samples": c.job_samples},
        "headroom": None if headroom is None else {"share": headroom.share, "why": headroom.why},
        "changes_tried": list(plan.changes_tried),
        "considered": plan.considered,
        "candidates": [
            {
                "name": cand.build.name,
                "cost": money(cand.cost, c.currency),
                "per_1000_money": cand.per_money,
                "pareto": cand.pareto,
                "wall_w": cand.wall_w,
                "option": option_record(cand.option),
                "change": change_record(cand.change),
                "job": job_record(cand.job, c.currency),
                "jobs_to_break_even": finite_or_none(cand.jobs_to_break_even),
                "never_pays_off": cand.jobs_to_break_even == math.inf,
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
                "change": change_record(r.change),
                "job": job_record(r.job, c.currency),
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
                    "change": change_record(n.change),
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
