"""`gpuconfig recommend`: ranked, priced and checked builds (and rentals) for a workload and budget."""

from __future__ import annotations

import argparse
from typing import Any

from gpuconfig.cli.options import form_options, open_store, trace_failed, workload, workload_options
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
    recommend.add_argument("--circuit", default=DEFAULT_CIRCUIT, help="the wall circuit (see build_rules.toml)")
    recommend.add_argument("--own", action="append", default=[], metavar="CATALOG_ID", help="a part you already have")
    recommend.add_argument("--samples", type=float, help="samples the job processes (dataset size x epochs)")
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
    from gpuconfig.core.planner.recommend import Constraints, PlanError, plan_parts, recommend
    from gpuconfig.core.planner.records import plan_record
    from gpuconfig.core.workload.runner import TraceFailed
    from gpuconfig.core.workload.service import TraceService
    from gpuconfig.core.workload.spec import WorkloadError

    asked = workload(args)
    store = open_store()
    try:
        rules = build_rules()
        if args.circuit not in rules.circuits:
            raise UsageError(f"--circuit: {args.circuit!r} is not one of {', '.join(rules.circuits)}")
        unknown = [i for i in args.own if store.part(i) is None]
        if unknown:
            raise UsageError(f"--own: {unknown[0]!r} is not in the catalog")
        constraints = Constraints(
            budget=args.budget,
            currency=args.currency,
            rent=args.rent,
            form=args.form,
            max_gpus=args.max_gpus,
            circuit=args.circuit,
            owned=tuple(args.own),
            samples=args.samples,
            electricity_per_kwh=args.electricity,
            dataset_gb=args.dataset_gb,
            port=args.port,
            laptop_os=args.os or "linux",
            charger_w=args.charger,
        )
        traced = TraceService(timeout_s=args.trace_timeout).fit_for(asked)
    except (PlanError, WorkloadError, RulesError) as exc:
        raise UsageError(str(exc)) from exc
    except TraceFailed as exc:
        return trace_failed(exc)
    parts, rate = plan_parts(store), store.exchange_rate()
    plan = recommend(traced.source, traced.fitted, asked, constraints, parts, rules, rate, store.part)
    return Reply(EXIT_OK, lambda: _text(plan, store, args.currency, args.top), lambda: plan_record(plan))


def _text(plan: Any, store: Any, cur: str, top: int) -> str:
    from gpuconfig.core.money import format_money

    out = []
    if plan.shortfall is not None:
        out.append(plan.shortfall.message)
    rows = []
    for c in plan.candidates[:top]:
        o = c.option
        speed = f"{o.throughput:,.0f}" if o.throughput is not None else "unknown"
        rows.append(
            [
                f"{o.count} x {o.gpu.name}",
                o.strategy,
                format_money(c.cost, cur),
                speed,
                f"{o.peak_bytes / 1024**3:.1f}/{o.gpu.memory_bytes / 1024**3:.0f} GiB",
                f"{c.wall_w} W",
                "yes" if c.pareto else "",
            ]
        )
    if rows:
        unit = "tokens/s" if plan.candidates[0].option.tokens_per_s is not None else "samples/s"
        out.append(table(["GPUs", "strategy", "cost", unit, "peak/GPU", "wall", "Pareto"], rows))
        best = plan.candidates[0]
        out.append(f"\nbest per {format_money(1000, cur)}: {best.build.name}")
        for line in best.build.lines:
            part = store.part(line.part_id)
            out.append(f"  {line.count} x {part.name if part else line.part_id}")
    for r in plan.rentals[:top]:
        speed = f"{r.option.samples_per_s:,.2f} samples/s" if r.option.samples_per_s else "speed unknown"
        out.append(f"rent: {r.nodes} x {r.instance.name}, {format_money(r.hourly, cur)}/h, {speed}")
    if plan.break_even is not None:
        out.append(plan.break_even.message)
    out += [f"note: {note}" for note in plan.notes]
    return lines(*out)
