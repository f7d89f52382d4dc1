"""`gpuconfig recommend`: ranked, priced and checked builds (and rentals) for a workload and budget."""

from __future__ import annotations

import argparse
from typing import Any

from gpuconfig.cli.options import (
    catalog_part,
    form_options,
    headroom_of,
    headroom_option,
    open_store,
    trace_failed,
    workload,
    workload_options,
)
from gpuconfig.cli.output import EXIT_OK, Reply, UsageError, lines, table
from gpuconfig.core.catalog.schema import CURRENCIES


def add_parser(commands: Any, parser_class: type[argparse.ArgumentParser]) -> None:
    from gpuconfig.core.build.model import DEFAULT_CIRCUIT, OSES, PORTS
    from gpuconfig.core.planner.recommend import FORMS

    recommend = commands.add_parser("recommend", help="ranked, priced and checked builds for a workload and budget")
    workload_options(recommend)
    recommend.add_argument("--budget", type=float, metavar="AMOUNT", help="the most the machine may cost")
    recommend.add_argument("--currency", choices=CURRENCIES, default="USD")
    recommend.add_argument("--rent", action="store_true", help="also rent: the catalog's cloud instances")
    recommend.add_argument(
        "--form", choices=FORMS, default="tower", help="tower, rack, or egpu (a laptop with an eGPU)"
    )
    recommend.add_argument("--max-gpus", type=int, default=8, dest="max_gpus", help="GPUs in one machine (1-8)")
    recommend.add_argument(
        "--circuit",
        help=f"the wall circuit (see build_rules.toml; default: the --currency market's, {DEFAULT_CIRCUIT} for USD)",
    )
    recommend.add_argument(
        "--own",
        action="append",
        default=[],
        metavar="PART",
        help="a part you already have (id, name or words of its name)",
    )
    recommend.add_argument("--samples", type=float, help="samples in the dataset: each build's job time and cost")
    recommend.add_argument("--epochs", type=float, default=1.0, help="passes over the dataset (default 1)")
    changes = recommend.add_mutually_exclusive_group()
    changes.add_argument(
        "--change-result", action="store_true", dest="change_result",
        help="also try changes to what is trained or computed (LoRA, QLoRA, quantized weights)",
    )  # fmt: skip
    changes.add_argument(
        "--as-asked", action="store_true", dest="as_asked",
        help="no changes to the workload: only machines that hold it as asked (or in smaller micro-batches)",
    )  # fmt: skip
    headroom_option(recommend)
    recommend.add_argument("--electricity", type=float, metavar="PRICE_PER_KWH", help="in --currency")
    recommend.add_argument("--dataset-gb", type=int, default=0, dest="dataset_gb", help="dataset size on disk")
    recommend.add_argument("--port", choices=PORTS, help="with --form egpu: the laptop's port")
    recommend.add_argument("--os", choices=OSES, help="with --form egpu: the laptop's OS (default linux)")
    recommend.add_argument("--charger", type=int, metavar="WATTS", help="with --form egpu: the laptop's charger")
    recommend.add_argument("--top", type=int, default=5, help="candidates to print (text output)")
    form_options(recommend)
    recommend.set_defaults(handler=run, no_cache=False)


def run(args: argparse.Namespace) -> Reply | int:
    from gpuconfig.core.build.rules import RulesError, build_rules
    from gpuconfig.core.planner.changes import Variant, traced_variants
    from gpuconfig.core.planner.recommend import Constraints, PlanError, plan_parts, recommend
    from gpuconfig.core.planner.records import plan_record
    from gpuconfig.core.workload.runner import TraceFailed
    from gpuconfig.core.workload.service import TraceService
    from gpuconfig.core.workload.spec import WorkloadError

    asked = workload(args)
    store = open_store()
    try:
        rules = build_rules()
        args.circuit = args.circuit or rules.circuit_for(args.currency)
        if args.circuit not in rules.circuits:
            raise UsageError(f"--circuit: {args.circuit!r} is not one of {', '.join(rules.circuits)}")
        # What one owns is a part of a machine: a rented instance is not (and shares names with cards).
        args.own = [catalog_part(store, text, None, "--own", leave_out=("cloud",)).id for text in args.own]
        constraints = Constraints(
            budget=args.budget,
            currency=args.currency,
            rent=args.rent,
            form=args.form,
            max_gpus=args.max_gpus,
            circuit=args.circuit,
            owned=tuple(args.own),
            samples=args.samples,
            epochs=args.epochs,
            as_asked=args.as_asked,
            electricity_per_kwh=args.electricity,
            dataset_gb=args.dataset_gb,
            port=args.port,
            laptop_os=args.os or "linux",
            charger_w=args.charger,
        )
        headroom = headroom_of(args, store)
        service = TraceService(timeout_s=args.trace_timeout)
        traced = service.fit_for(asked)
        variants = [Variant("", asked, traced.source, traced.fitted)]
        if not args.as_asked:
            variants = traced_variants(variants[0], args.change_result, service)
    except (PlanError, WorkloadError, RulesError) as exc:
        raise UsageError(str(exc)) from exc
    except TraceFailed as exc:
        return trace_failed(exc)
    parts, rate = plan_parts(store), store.exchange_rate()
    plan = recommend(
        traced.source, traced.fitted, asked, constraints, parts, rules, rate, store.part, variants[1:], headroom
    )
    return Reply(EXIT_OK, lambda: _text(plan, store, args.currency, args.top), lambda: plan_record(plan))


def _text(plan: Any, store: Any, cur: str, top: int) -> str:
    from gpuconfig.core.money import format_money

    out = []
    if plan.shortfall is not None:
        out.append(plan.shortfall.message)
    job = plan.constraints.job_samples is not None
    rows = []
    for c in plan.candidates[:top]:
        o = c.option
        speed = f"{o.throughput:,.0f}" if o.throughput is not None else "unknown"
        row = [
            f"{o.count} x {o.gpu.name}",
            o.strategy,
            c.change.text(),
            format_money(c.cost, cur),
            speed,
            f"{o.peak_bytes / 1024**3:.1f}/{o.gpu.memory_bytes / 1024**3:.0f} GiB",
            f"{c.wall_w} W",
            "yes" if c.pareto else "",
        ]
        if job:
            row += _job_cells(c.job, cur, c.jobs_to_break_even)
        rows.append(row)
    if rows:
        unit = "tokens/s" if plan.candidates[0].option.tokens_per_s is not None else "samples/s"
        head = ["GPUs", "strategy", "change", "cost", unit, "peak/GPU", "wall", "Pareto"]
        out.append(table(head + (["job", "electricity (full power)", "jobs to pay off"] if job else []), rows))
        best = plan.candidates[0]
        out.append(f"\nbest per {format_money(1000, cur)}: {best.build.name} ({best.change.text()})")
        for line in best.build.lines:
            part = store.part(line.part_id)
            out.append(f"  {line.count} x {part.name if part else line.part_id}")
    for r in plan.rentals[:top]:
        speed = f"{r.option.samples_per_s:,.2f} samples/s" if r.option.samples_per_s else "speed unknown"
        cost = ""
        if r.job is not None and r.job.cost is not None:
            cost = f", the job {_hours(r.job.hours)} for {format_money(r.job.cost, cur)}"
        change = f", {r.change.text()}" if r.change.label else ""
        out.append(f"rent: {r.nodes} x {r.instance.name}, {format_money(r.hourly, cur)}/h, {speed}{change}{cost}")
    if plan.break_even is not None:
        out.append(plan.break_even.message)
    out += [f"note: {note}" for note in plan.notes]
    if plan.changes_tried:
        out.append(f"note: changes tried where the workload does not fit as asked: {', '.join(plan.changes_tried)}")
    return lines(*out)


def _hours(hours: float) -> str:
    return f"{hours:,.1f} h" if hours < 48 else f"{hours / 24:,.1f} days"


def _job_cells(job: Any, cur: str, jobs: float | None) -> list[str]:
    from gpuconfig.core.money import format_money

    if job is None:
        return ["unknown", "", ""]
    power = format_money(job.cost, cur) if job.cost is not None else "not counted"
    paid = "" if jobs is None else "never" if jobs == float("inf") else f"{jobs:,.1f}"
    return [_hours(job.hours), power, paid]
