"""`gpuconfig build check`: every compatibility and power rule of a build file, with fixes."""

from __future__ import annotations

import argparse
import sys
from pathlib import Path
from typing import Any

from gpuconfig.cli.options import form_options, open_store
from gpuconfig.cli.output import EXIT_OK, EXIT_VERDICT_FAILED, Reply, UsageError, lines
from gpuconfig.core.catalog.schema import CURRENCIES


def add_parser(commands: Any, parser_class: type[argparse.ArgumentParser]) -> None:
    from gpuconfig.core.build.model import DEFAULT_CIRCUIT

    build = commands.add_parser("build", help="check a build file")
    actions = build.add_subparsers(dest="action", metavar="ACTION", required=True, parser_class=parser_class)
    check = actions.add_parser("check", help="every compatibility and power rule, with fixes")
    check.add_argument("file", metavar="FILE.json")
    check.add_argument("--currency", choices=CURRENCIES, help="the currency of the totals")
    check.add_argument("--circuit", help="the wall circuit (default: the file's, else " + DEFAULT_CIRCUIT + ")")
    form_options(check)
    check.set_defaults(handler=check_build)


def check_build(args: argparse.Namespace) -> Reply:
    from dataclasses import replace

    from gpuconfig.core.build.check import check
    from gpuconfig.core.build.model import BuildError, read_build, resolve, totals
    from gpuconfig.core.build.power import power_budget
    from gpuconfig.core.build.records import check_record
    from gpuconfig.core.build.rules import RulesError, build_rules
    from gpuconfig.core.egpu.problems import egpu_problems

    store = open_store()
    try:
        build = read_build(Path(args.file))
        if args.circuit:
            build = replace(build, circuit=args.circuit)
        rules = build_rules()
        if build.circuit not in rules.circuits:
            raise UsageError(f"circuit: {build.circuit!r} is not one of {', '.join(rules.circuits)}")
        resolved = resolve(build, store.part)
    except (BuildError, RulesError) as exc:
        raise UsageError(str(exc)) from exc
    problems = check(resolved, rules, arch_check=_arch_check(), egpu_check=egpu_problems)
    currency = args.currency or build.currency
    total = totals(resolved, currency, store.exchange_rate())
    budget = power_budget(resolved, rules, build.circuit)
    record = check_record(resolved, total, budget, problems)
    code = EXIT_VERDICT_FAILED if record["verdict"] == "fail" else EXIT_OK
    return Reply(code, lambda: _text(build, resolved, total, budget, problems, currency, record), lambda: record)


def _text(build: Any, resolved: Any, total: Any, budget: Any, problems: Any, currency: str, record: Any) -> str:
    from gpuconfig.core.money import format_money

    out = [
        f"{build.name}: {format_money(total.amount, currency)}"
        + (f" (no price for {', '.join(total.unpriced)})" if total.unpriced else "")
    ]
    out += [f"  {item.count} x {item.part.name} ({item.kind})" for item in resolved.items]
    out.append(
        f"power: {budget.sustained_w} W sustained, supply needs {budget.required_w} W"
        + (f", has {budget.psu_w} W" if budget.psu_w else "")
        + (
            f", about {budget.wall_w} W at the wall ({budget.circuit.label}: {budget.circuit.watts} W)"
            if budget.wall_w
            else ""
        )
    )
    out += [f"{p.severity.upper():5s} {p.rule}: {p.message}" + (f" Fix: {p.fix}" if p.fix else "") for p in problems]
    out.append(f"verdict: {record['verdict']}")
    return lines(*out)


def _arch_check() -> Any:
    """The PyTorch-wheel rule for each GPU, from the setup guide's tables."""
    from gpuconfig.core.build.wheels import wheel_problem
    from gpuconfig.core.guide.tables import CompatTableError, load_tables

    try:
        load_tables()
    except CompatTableError as exc:
        print(f"gpuconfig: PyTorch wheels not checked: {exc}", file=sys.stderr)
        return None
    return wheel_problem
