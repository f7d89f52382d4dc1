"""`gpuconfig build check`: every compatibility and power rule of a build file, with fixes, and whether the
workload the build was planned for fits its cards (traced, or read from the trace cache). `gpuconfig build export`:
the same build as the document the Build tab exports (Markdown, HTML or CSV), in the language --lang names."""

from __future__ import annotations

import argparse
import sys
from pathlib import Path
from typing import Any

from gpuconfig.cli.options import form_options, headroom_of, headroom_option, open_store, seconds, trace_failed
from gpuconfig.cli.output import EXIT_OK, EXIT_VERDICT_FAILED, Reply, UsageError, lines
from gpuconfig.core.catalog.schema import CURRENCIES


def add_parser(commands: Any, parser_class: type[argparse.ArgumentParser]) -> None:
    build = commands.add_parser("build", help="check a build file")
    actions = build.add_subparsers(dest="action", metavar="ACTION", required=True, parser_class=parser_class)
    check = actions.add_parser("check", help="every compatibility and power rule, with fixes")
    _build_file_options(check, "the currency of the totals")
    form_options(check)
    check.set_defaults(handler=check_build)

    export = actions.add_parser(
        "export",
        help="the build list as Markdown (--html, --csv, --json: the build file), checked as `build check` does",
    )
    _build_file_options(export, "the currency of the prices")
    form_options(export, html=True, csv=True)
    export.set_defaults(handler=export_build)


def _build_file_options(p: argparse.ArgumentParser, currency_help: str) -> None:
    """What `build check` and `build export` both read: the file, the currency, the circuit, the workload's limits."""
    from gpuconfig.core.build.model import DEFAULT_CIRCUIT
    from gpuconfig.core.workload.runner import TRACE_TIMEOUT_S

    p.add_argument("file", metavar="FILE.json")
    p.add_argument("--currency", choices=CURRENCIES, help=currency_help)
    p.add_argument("--circuit", help=CIRCUIT_HELP.format(default=DEFAULT_CIRCUIT))
    p.add_argument(
        "--trace-timeout", type=seconds, default=TRACE_TIMEOUT_S, metavar="S", dest="trace_timeout",
        help=f"seconds a trace of the file's workload may take (default {TRACE_TIMEOUT_S:g})",
    )  # fmt: skip
    headroom_option(p)


def export_build(args: argparse.Namespace) -> Reply | int:
    from gpuconfig.core.build.export import build_csv, build_html, build_json, build_markdown

    store = open_store()
    checked = _checked(args, store)
    if isinstance(checked, int):
        return checked
    _build, resolved, total, budget, problems, _cards, rate = checked
    made = (resolved, total, budget, problems)
    schema = store.schema
    return Reply(
        EXIT_OK,
        lambda: build_markdown(*made, rate=rate, schema=schema),
        lambda: build_json(*made, rate=rate, schema=schema),
        html=lambda: build_html(*made, rate=rate, schema=schema),
        csv=lambda: build_csv(*made, rate=rate, schema=schema),
    )


CIRCUIT_HELP = "the wall circuit (default: the file's, else its currency's market's: {default} for USD)"


def check_build(args: argparse.Namespace) -> Reply | int:
    from gpuconfig.core.build.records import check_record

    checked = _checked(args, open_store())
    if isinstance(checked, int):
        return checked
    build, resolved, total, budget, problems, cards, _rate = checked
    currency = total.currency
    record = check_record(resolved, total, budget, problems)
    if cards:
        record["workload_fit"] = [_card_record(card) for card in cards]
    code = EXIT_VERDICT_FAILED if record["verdict"] == "fail" else EXIT_OK
    return Reply(code, lambda: _text(build, resolved, total, budget, problems, currency, record), lambda: record)


def _checked(args: argparse.Namespace, store: Any) -> tuple[Any, ...] | int:
    """The build file read, resolved, priced and checked (its workload's fit included): (build, resolved, totals,
    power budget, problems worst first, the cards the workload was judged on, the exchange rate); or the exit code
    of a trace that failed, said on standard error."""
    from dataclasses import replace

    from gpuconfig.core.build.check import check, worst_first
    from gpuconfig.core.build.model import BuildError, read_build, resolve, totals
    from gpuconfig.core.build.power import power_budget
    from gpuconfig.core.build.rules import RulesError, build_rules
    from gpuconfig.core.egpu.problems import egpu_problems

    try:
        build = read_build(Path(args.file))
        rules = build_rules()
        if args.circuit:
            build = replace(build, circuit=args.circuit)
        elif args.currency:  # priced for another market: its circuit, where the file has its own market's default
            build = replace(build, circuit=rules.circuit_after(build.circuit, build.currency, args.currency))
        if build.circuit not in rules.circuits:
            raise UsageError(f"circuit: {build.circuit!r} is not one of {', '.join(rules.circuits)}")
        resolved = resolve(build, store.part)
    except (BuildError, RulesError) as exc:
        raise UsageError(str(exc)) from exc
    headroom = headroom_of(args, store)  # checked with or without a workload
    problems = check(resolved, rules, arch_check=_arch_check(), egpu_check=egpu_problems)
    fitted = _workload_fit(resolved, headroom, args.trace_timeout)
    if isinstance(fitted, int):
        return fitted
    rows, cards = fitted
    problems = worst_first(problems + rows)
    currency = args.currency or build.currency
    rate = store.exchange_rate()
    total = totals(resolved, currency, rate)
    budget = power_budget(resolved, rules, build.circuit)
    return build, resolved, total, budget, problems, cards, rate


def _workload_fit(resolved: Any, headroom: Any, timeout_s: float) -> tuple[list[Any], list[Any]] | int:
    """The "Workload memory" rows and the cards judged, when the build carries a workload; the exit code of a
    trace that failed. Nothing is imported or traced for a build without one, so its check stays instant."""
    if resolved.build.workload is None:
        return [], []
    from gpuconfig.core.build.workload_fit import card_fits, workload_problems, workload_to_trace
    from gpuconfig.core.workload.runner import TraceFailed
    from gpuconfig.core.workload.service import TraceService
    from gpuconfig.core.workload.spec import WorkloadError

    workload = workload_to_trace(resolved)
    if workload is None:  # none to judge, or one that does not read: its row says which
        return workload_problems(resolved, None, headroom), []
    try:
        fit = TraceService(timeout_s=timeout_s).fit_for(workload)
    except WorkloadError as exc:
        raise UsageError(f"workload: {exc}") from exc
    except TraceFailed as exc:
        return trace_failed(exc)
    return workload_problems(resolved, fit, headroom), card_fits(resolved, workload, fit, headroom)


def _card_record(card: Any) -> dict[str, Any]:
    from gpuconfig.core.workload.fit import verdict_record

    return {
        "gpu": card.gpu.part.id,
        "name": card.gpu.part.name,
        "gpus": card.workload.gpus,
        "workload": {**card.workload.to_json(), "seq": card.answer.estimate.seq},
        "fit": verdict_record(card.verdict),
    }


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
